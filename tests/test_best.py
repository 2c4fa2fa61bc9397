"""The ``best`` bot spec: ISMCTS at each game's tuned exploration and playout, for every game."""

from __future__ import annotations

import pytest

import indigo
from indigo.bots import normalize_bot_spec
from indigo.games import GAMES, GameEntry

# The exploration each game's crate tunes for `best` (`Game::BEST_EXPLORATION`, docs/search.md).
# None: not tuned (no exploration measured stronger than ISMCTS's default).
TUNED: dict[str, float | None] = {"indigo": 0.25, "queens-garden": None}
# Whether the game's crate gives `best` a playout policy of its own (`Game::best_playout`).
OWN_PLAYOUT: dict[str, bool] = {"indigo": False, "queens-garden": True}


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_best_is_a_spec_of_every_game(entry: GameEntry) -> None:
    bot = entry.make_bot("BEST:40,threads=2", seed=3)
    assert bot.spec == "best:40,threads=2"
    assert normalize_bot_spec("best") == "best:1000"
    assert normalize_bot_spec("best:time=0.05") == "best:time=0.05"
    game = entry.game(entry.default_rules(2), seed=5)
    while game.is_chance_node():
        game.apply_action(game.chance_outcomes()[0][0])
    assert bot.choose(game) in game.legal_moves
    with pytest.raises(indigo.IndigoError, match="tuned for each game"):
        entry.make_bot("best:100,c=0.5")


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_best_plays_the_games_of_ismcts_at_the_tuned_settings(entry: GameEntry) -> None:
    c = TUNED[entry.name]
    rules = entry.default_rules(2)

    def outcomes(spec: str) -> tuple[int, list[list[int]]]:
        sim = entry.simulate([spec, "greedy"], 6, rules=rules, seed=11)
        return sim.checksum, sim.scores.tolist()

    best = outcomes("best:60")
    ismcts = outcomes("ismcts:60" if c is None else f"ismcts:60,c={c}")
    if OWN_PLAYOUT[entry.name]:
        assert best != ismcts  # its own playout policy plays other games
    else:
        assert best == ismcts
    if c is not None:
        assert best != outcomes("ismcts:60")  # the default exploration plays other games
