"""pytest-benchmark benches of the Python surface: what each call costs a Python caller.

Run: ``python -m pytest benches --benchmark-only`` (add ``--benchmark-json=out.json`` to keep the
figures). With ``--benchmark-disable`` each bench runs once as a plain test, which is how
``scripts/check`` keeps them working. ``indigo bench`` reports the same calls in one run.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import indigo

Benchmark = Any  # pytest-benchmark's fixture


@pytest.fixture(scope="module")
def midgame() -> indigo.Game:
    """A seeded position 20 placements into a 2-player game."""
    game = indigo.Game(indigo.Rules.indigo(2), seed=2026)
    choose = random.Random(2026)
    for _ in range(20):
        game.play(choose.choice(game.legal_moves))
    return game


def test_legal_moves(benchmark: Benchmark, midgame: indigo.Game) -> None:
    moves = benchmark(lambda: midgame.legal_moves)
    assert moves == sorted(moves, key=lambda m: (m.tile, m.rotation, m.q, m.r))
    assert all(midgame.is_legal(m) for m in moves)


def test_legal_action_mask(benchmark: Benchmark, midgame: indigo.Game) -> None:
    mask = benchmark(midgame.legal_action_mask)
    assert np.flatnonzero(mask).tolist() == midgame.legal_actions()


def test_play_and_undo(benchmark: Benchmark, midgame: indigo.Game) -> None:
    game = midgame.clone()
    move = game.legal_moves[len(game.legal_moves) // 2]

    def play_and_undo() -> indigo.MoveResult:
        result = game.play(move)
        game.undo()
        return result

    result = benchmark(play_and_undo)
    assert result.seat == midgame.to_move
    assert game == midgame


def test_play_action(benchmark: Benchmark, midgame: indigo.Game) -> None:
    game = midgame.clone()
    action = game.legal_actions()[0]

    def play_and_undo() -> None:
        game.play(action)
        game.undo()

    benchmark(play_and_undo)
    assert game == midgame


def test_clone(benchmark: Benchmark, midgame: indigo.Game) -> None:
    copy = benchmark(midgame.clone)
    assert copy == midgame
    assert copy.moves == midgame.moves


def test_observation(benchmark: Benchmark, midgame: indigo.Game) -> None:
    seat = midgame.to_move
    assert seat is not None
    tensor = benchmark(midgame.observation, seat)
    assert tensor.shape == (indigo.OBSERVATION_SIZE,)


def test_random_game_in_a_python_loop(benchmark: Benchmark) -> None:
    rules = indigo.Rules.indigo(2)

    def game() -> indigo.Game:
        g = indigo.Game(rules, seed=1)
        choose = random.Random(1)
        while not g.over:
            moves = g.legal_moves
            g.play(moves[choose.randrange(len(moves))])
        return g

    finished = benchmark(game)
    assert finished.over
    assert finished.gems == []


def test_batch_of_playouts(benchmark: Benchmark) -> None:
    rules = indigo.Rules.indigo(2)
    result = benchmark(
        indigo.simulate, ["playout"], 2000, rules=rules, seed=2026, threads=1, deal="pcg"
    )
    assert len(result) == 2000
    assert result.checksum == indigo._native.native_playouts(rules, 2026, 2000)[2]


def test_ismcts_search(benchmark: Benchmark, midgame: indigo.Game) -> None:
    bot = indigo.IsmctsBot(1000, threads=1, seed=3)
    result = benchmark(bot.search, midgame)
    assert result.simulations == 1000
    assert midgame.is_legal(result.best)
