"""The Queen's Garden search-AI API: explicit chance (``chance_steps``, ``chance_outcomes``,
``successor``, the set-up's draws) and the observation tensor."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from indigo import IllegalMoveError, IndigoError
from indigo import queens_garden as qg


def first_take(game: qg.Game) -> int:
    """The first take: at the start every take takes from the stack top, so a new top is drawn."""
    return next(a for a in game.legal_actions() if qg.Move.from_action(a).verb == "take")


def test_choosing_the_seeded_draws_gives_the_seeded_game() -> None:
    for seed in range(6):
        game = qg.Game(qg.Rules(2 + seed % 3), seed=seed)
        take = first_take(game)
        assert game.chance_steps(take) == (4, 0)
        # The record's bag is the deal: the set-up took the first four tiles.
        dealt = [qg.KINDS.index(k) for k in game.to_record()["bag"][4:8]]
        chosen = game.successor(take, dealt)
        game.apply_action(take)
        assert chosen.snapshot_json() == game.snapshot_json()
        assert chosen.legal_actions() == game.legal_actions()
        assert chosen.moves == []  # a new game without history


def test_outcome_probabilities_follow_the_bag() -> None:
    game = qg.Game(qg.Rules(2), seed=3)
    take = first_take(game)
    outcomes = game.chance_outcomes(take)
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    in_bag = 108 - 4
    counts = {kind: round(p * in_bag) for kind, p in outcomes}
    assert sum(counts.values()) == in_bag
    kind = outcomes[0][0]
    after = dict(game.chance_outcomes(take, [kind]))
    assert math.isclose(after[kind], (counts[kind] - 1) / (in_bag - 1))
    assert game.chance_outcomes(take, [kind] * 4 if counts[kind] >= 4 else [0, 1, 2, 3]) == []
    assert game.chance_outcomes(qg.Move("pass").action) == []
    first = qg.Game.first_draw_outcomes()
    assert first == [(k, 3 / 108) for k in range(36)]
    assert qg.Game.first_draw_outcomes([5, 5, 5])[5] == (6, 3 / 105)


def test_bad_outcomes_raise_and_change_nothing() -> None:
    game = qg.Game(qg.Rules(2), seed=8)
    before = game.snapshot_json()
    take = first_take(game)
    with pytest.raises(IllegalMoveError, match="needs 4 outcomes"):
        game.successor(take, [0, 1])
    full = [k for k, _ in game.chance_outcomes(take)][:1] * 4
    with pytest.raises(IllegalMoveError, match="bag holds no"):
        game.successor(take, full)
    with pytest.raises(IndigoError, match=r"kind id 0\.\.35"):
        game.chance_outcomes(take, [36])
    with pytest.raises(IllegalMoveError, match="illegal"):
        game.chance_steps(qg.Move("tile bl1 f0").action)
    with pytest.raises(IndigoError):
        game.chance_outcomes(qg.ACTION_COUNT)
    with pytest.raises(IllegalMoveError):
        qg.Game.with_first_draws(qg.Rules(2), [0, 0, 0, 0])
    assert game.snapshot_json() == before


def test_first_draws_make_the_stack_top() -> None:
    game = qg.Game.with_first_draws(qg.Rules(3), [35, 0, 7, 0], seed=12)
    assert game.stack["tiles"] == ["bl1", "bl1", "ye2", "dp6"]
    assert game.bag_size == 104
    assert game.to_move == 0
    game.play("take bl")
    # Pickled, it replays its record's own set-up, not the seed's.
    again = pickle.loads(pickle.dumps(game))
    assert again.snapshot_json() == game.snapshot_json()
    assert again.legal_moves == game.legal_moves


def test_observation_layout_and_values() -> None:
    offsets = sorted(qg.OBSERVATION_LAYOUT.values())
    end = 0
    for offset, shape in offsets:
        assert offset == end
        end += int(np.prod(shape))
    assert end == qg.OBSERVATION_SIZE
    game = qg.Game(qg.Rules(2), seed=4)
    bot = qg.make_bot("greedy", seed=4)
    for _ in range(30):
        game.play(bot.choose(game))
    seat = game.to_move
    assert seat is not None
    observation = game.observation(seat)
    assert observation.dtype == np.float32
    assert observation.shape == (qg.OBSERVATION_SIZE,)

    def segment(name: str, values: np.ndarray = observation) -> np.ndarray:
        offset, shape = qg.OBSERVATION_LAYOUT[name]
        return values[offset : offset + int(np.prod(shape))].reshape(shape)

    assert segment("scores")[:2].tolist() == [game.scores[seat], game.scores[1 - seat]]
    assert segment("storage_jokers")[0] == game.storages[seat]["jokers"]
    assert segment("bag_size")[0] == game.bag_size
    assert segment("round")[game.round - 1] == 1
    garden = game.gardens[seat]
    assert int(segment("garden_colour")[0].sum()) >= len(garden["tiles"])
    for cell, kind in garden["tiles"].items():
        c = qg.CELLS.index(cell)
        assert segment("garden_colour")[0, qg.COLOURS.index(kind[:2]), c] == 1
        assert segment("garden_pattern")[0, int(kind[2]) - 1, c] == 1
    # Nothing hidden is in it: a determinization observes the same.
    np.testing.assert_array_equal(game.resample(seat, seed=1).observation(seat), observation)
    with pytest.raises(IndigoError, match="seat"):
        game.observation(2)
