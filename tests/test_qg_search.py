"""Queen's Garden on the one search: bots by spec, batches, tournaments, and the search-AI
interface of ``queens_garden.Game`` (fixed actions, information strings, resampling, returns)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import indigo
from indigo import queens_garden as qg
from indigo.cli import main
from indigo.tournament import run_tournament

SPECS = ("random", "greedy", "playout", "ismcts:20")


def _play(spec: str, seed: int) -> list[str]:
    game = qg.Game(qg.Rules(2), seed=seed)
    bots = [indigo.make_bot(spec, seed=seed + s, game="queens-garden") for s in range(2)]
    moves = []
    while not game.over:
        seat = game.to_move
        assert seat is not None
        move = bots[seat].choose(game)
        assert game.is_legal(move), f"{spec} chose {move}"
        moves.append(str(game.play(move).move))
    return moves


@pytest.mark.parametrize("spec", SPECS)
def test_bots_play_legal_moves_reproducibly(spec: str) -> None:
    assert _play(spec, 4) == _play(spec, 4)
    bot = qg.make_bot(spec, seed=1)
    assert bot.spec == indigo._native.normalize_bot_spec(spec)
    over = qg.Game(qg.Rules(2), seed=1)
    while not over.over:
        over.play(over.legal_moves[-1])
    with pytest.raises(indigo.IllegalMoveError):
        bot.choose(over)


def test_bad_specs_and_game_names_are_typed_errors() -> None:
    for bad in ("alphazero", "ismcts:0", "random:2", ""):
        with pytest.raises(indigo.IndigoError):
            qg.make_bot(bad)
        with pytest.raises(indigo.IndigoError):
            indigo.simulate([bad], 1, game="queens-garden")
    with pytest.raises(indigo.IndigoError, match="unknown game"):
        indigo.make_bot("random", game="chess")
    with pytest.raises(indigo.IndigoError, match="unknown game"):
        indigo.simulate(["random"], 1, game="chess")
    with pytest.raises(indigo.IndigoError, match=r"queens_garden\.Rules"):
        indigo.simulate(["random"], 1, game="queens-garden", rules=indigo.Rules.indigo(2))
    with pytest.raises(indigo.IndigoError, match=r"indigo\.Rules"):
        indigo.simulate(["random"], 1, rules=qg.Rules(2))
    with pytest.raises(indigo.IndigoError, match="deal"):
        indigo.simulate(["random"], 1, game="queens-garden", deal="pcg")
    with pytest.raises(indigo.IndigoError, match="lineup"):
        indigo.simulate(["random", "greedy"], 1, game="queens-garden", lineups=[[0, 2]])


def test_simulate_plays_queens_garden_reproducibly() -> None:
    rules = qg.Rules(3)
    args = {"game": "queens-garden", "rules": rules, "seed": 9, "lineups": [[0, 1, 1], [1, 0, 1]]}
    one = indigo.simulate(["greedy", "random"], 12, threads=1, **args)  # type: ignore[arg-type]
    two = indigo.simulate(["greedy", "random"], 12, threads=2, **args)  # type: ignore[arg-type]
    assert one.game == "queens-garden"
    assert one.deal is None  # set up from seeds alone: no pile, no deal
    assert len(one) == 12
    assert one.scores.shape == one.winners.shape == one.seats.shape == (12, 3)
    assert one.checksum == two.checksum
    assert np.array_equal(one.scores, two.scores)
    assert (one.winners.sum(axis=1) >= 1).all()
    assert (one.placements > 0).all()
    assert one.seats[1].tolist() == [1, 0, 1]
    # The winners hold the highest score of their game.
    for scores, winners in zip(one.scores, one.winners, strict=True):
        assert set(np.flatnonzero(winners)) == set(np.flatnonzero(scores == scores.max()))
    with pytest.raises(indigo.IndigoError, match="no pile"):
        one.pile(0)
    assert indigo.simulate(["random"], 2).game == "indigo"


def test_greedy_beats_random() -> None:
    result = run_tournament(["greedy", "random"], players=2, games=40, game="queens-garden")
    assert result.results[0].wins > result.results[1].wins


def test_tournament_cli_writes_the_same_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "greedy,random", "--games", "4", "--json", "--threads", "1"]
    assert main([*argv, "--game", "queens-garden"]) == 0
    garden = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    indigo_json = json.loads(capsys.readouterr().out)
    assert garden.keys() == indigo_json.keys()
    assert garden["results"][0].keys() == indigo_json["results"][0].keys()
    assert garden["games"] == 4
    assert [r["bot"] for r in garden["results"]] == ["greedy", "random"]


def _positions(seed: int, every: int = 5) -> list[qg.Game]:
    game = qg.Game(qg.Rules(2 + seed % 3), seed=seed)
    bot = qg.make_bot("playout", seed=seed)
    out = []
    while not game.over:
        if game.moves_played % every == 0:
            out.append(game.clone())
        game.play(bot.choose(game))
    out.append(game)
    return out


def test_actions_are_the_legal_moves_in_order() -> None:
    for game in _positions(1, 9):
        actions = game.legal_actions()
        assert actions == sorted(actions)
        assert actions == [m.action for m in game.legal_moves]
        assert [qg.Move.from_action(a) for a in actions] == game.legal_moves
    game = _positions(2)[3]
    action = game.legal_actions()[0]
    move = game.legal_moves[0]
    assert game.apply_action(action) is None
    assert game.moves[-1] == move
    with pytest.raises(indigo.IndigoError, match="names no move"):
        qg.Move.from_action(qg.ACTION_COUNT)
    assert qg.Move("pass bl1").action is None  # a pass with discards has no action
    assert qg.Move("pass").action == qg.ACTION_COUNT - 1
    before = game.to_record()
    for bad in (-1, qg.ACTION_COUNT):
        with pytest.raises(indigo.IndigoError):
            game.apply_action(bad)
    illegal = max(set(range(30)) - set(game.legal_actions()))
    with pytest.raises(indigo.IllegalMoveError):
        game.apply_action(illegal)
    assert game.to_record() == before


def test_mask_marks_the_legal_actions() -> None:
    game = qg.Game(qg.Rules(2), seed=3)
    mask = game.legal_action_mask()
    assert mask.shape == (qg.ACTION_COUNT,)
    assert np.flatnonzero(mask).tolist() == game.legal_actions()


def test_resampling_never_changes_what_a_seat_knows() -> None:
    for seed in range(3):
        for game in _positions(seed, 11):
            players = game.rules.players
            for draw in range(4):
                seat = draw % players
                sample = game.resample(seat, seed=draw)
                for s in range(players):
                    assert sample.information_state_string(s) == game.information_state_string(s)
                assert sample.legal_moves == game.legal_moves
    with pytest.raises(indigo.IndigoError, match="seat"):
        qg.Game(qg.Rules(2), seed=1).information_state_string(2)


def test_returns_share_one_among_the_winners() -> None:
    game = _positions(5)[-1]
    assert game.over
    returns = game.returns("win")
    assert sum(returns) == pytest.approx(1.0)
    assert [s for s, r in enumerate(returns) if r > 0] == game.winners
    assert qg.Game(qg.Rules(2), seed=1).returns("win") == [0.0, 0.0]
