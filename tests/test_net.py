"""The ``net`` bot: PUCT steered by a network evaluated in Rust, for every game of the registry,
with its shipped network or a file (the ``indigo-net/1`` safetensors format, docs/alphazero.md)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

import indigo
from indigo.bots import normalize_bot_spec
from indigo.games import GAMES, GameEntry


def _started(entry: GameEntry, players: int = 2) -> object:
    """A game of ``entry`` at its first decision."""
    game = entry.game(entry.default_rules(players), seed=5)
    while game.is_chance_node():
        game.apply_action(game.chance_outcomes()[0][0])
    return game


def _network(entry: GameEntry, path: Path, *, game: str | None = None, players: int = 2) -> Path:
    """A value-only network of random weights for ``entry``, written by numpy + safetensors."""
    rng = np.random.default_rng(1)
    tensors = {
        "w1": rng.normal(0, 0.05, (entry.observation_size, 8)).astype(np.float32),
        "b1": np.zeros(8, np.float32),
        "wv": rng.normal(0, 0.05, (8, 1)).astype(np.float32),
        "bv": np.zeros(1, np.float32),
    }
    metadata = {
        "format": "indigo-net/1",
        "game": game or entry.name,
        "players": str(players),
        "input": "log1p",
        "observation_size": str(entry.observation_size),
        "action_count": str(entry.action_count),
        "trained": "a test's random weights",
    }
    save_file(tensors, str(path), metadata=metadata)
    return path


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_net_plays_every_game_with_its_shipped_network(entry: GameEntry) -> None:
    bot = entry.make_bot("NET:12", seed=3)
    assert isinstance(bot, entry.bots)
    assert bot.spec == "net:12"
    assert normalize_bot_spec("net") == "net:200"
    assert normalize_bot_spec("net:time=0.1,c=2,threads=2") == "net:time=0.1,c=2,threads=2"
    game = _started(entry)
    assert bot.choose(game) in game.legal_moves
    # Whole games, in Rust, reproducibly.
    sim = entry.simulate(["net:8", "random"], 2, rules=entry.default_rules(2), seed=4)
    again = entry.simulate(["net:8", "random"], 2, rules=entry.default_rules(2), seed=4)
    assert sim.checksum == again.checksum
    assert len(sim.scores) == 2


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_a_network_file_written_by_numpy_plays(entry: GameEntry, tmp_path: Path) -> None:
    path = _network(entry, tmp_path / "value.safetensors")
    bot = entry.make_bot(f"net:file={path},10", seed=2)
    assert bot.spec == f"net:10,file={path}"
    game = _started(entry)
    assert bot.choose(game) in game.legal_moves
    # Trained for two seats: a three-seat game is refused when the bot is asked to move.
    with pytest.raises(indigo.IndigoError, match="trained for 2 players"):
        bot.choose(_started(entry, players=3))


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_a_bad_network_file_is_a_value_error_naming_it(entry: GameEntry, tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.safetensors"
    garbage.write_bytes(b"not a network at all")
    with pytest.raises(indigo.IndigoError, match="not a safetensors file") as refused:
        entry.make_bot(f"net:file={garbage}")
    assert isinstance(refused.value, ValueError)
    assert str(garbage) in str(refused.value)
    with pytest.raises(indigo.IndigoError, match="cannot read the network file"):
        entry.make_bot(f"net:file={tmp_path / 'missing.safetensors'}")
    other = _network(entry, tmp_path / "other.safetensors", game="nim")
    with pytest.raises(indigo.IndigoError, match='a network of "nim"') as refused:
        entry.make_bot(f"net:file={other}")
    assert str(other) in str(refused.value)


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_puct_bot_takes_a_time_budget_and_threads(entry: GameEntry) -> None:
    game = _started(entry)
    found = indigo.PuctBot("rollout", time=0.02, threads=2, seed=1).search(game)
    assert found.simulations > 0
    bot = indigo.PuctBot("rollout", 40, time=60, threads=2, seed=1)
    assert bot.spec == "puct:40,time=60,batch=8,c=1.5,threads=2,rollout"
    # With a seed and a simulation budget, two threads search alike every time.
    first = indigo.PuctBot("rollout", 64, threads=2, seed=7).search(game)
    again = indigo.PuctBot("rollout", 64, threads=2, seed=7).search(game)
    assert first.visits == again.visits
    assert sum(first.visits.values()) == 64

    def evaluator(observations: object, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((len(masks), 0), np.float32), np.zeros((len(masks), 2), np.float32)

    timed = indigo.PuctBot(evaluator, time=0.02, seed=1)
    assert timed.search(game).simulations > 0
    with pytest.raises(indigo.IndigoError, match="threads must be 1 with a Python evaluator"):
        indigo.PuctBot(evaluator, threads=2)
    with pytest.raises(indigo.IndigoError, match="time must be"):
        indigo.PuctBot("rollout", time=-1)


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_net_self_play_records_its_root_visits(entry: GameEntry) -> None:
    batch = entry.self_play(["net:16", "random"], 1, rules=entry.default_rules(2), seed=2)
    offsets = np.asarray(batch.visit_offsets)
    counts = [int(batch.visit_counts[a:b].sum()) for a, b in itertools.pairwise(offsets)]
    seats = np.asarray(batch.seat)
    assert len(counts) == len(seats) > 0
    # The net bot sits at seat 0 (one bot per seat, in order): each of its moves holds the
    # visits of its 16 simulations, the random bot's none.
    assert {c for c, s in zip(counts, seats, strict=True) if s == 0} == {16}
    assert {c for c, s in zip(counts, seats, strict=True) if s == 1} == {0}


def test_vector_games_take_net_opponents_that_fit() -> None:
    rules = indigo.Rules.indigo(2)
    games = indigo.VectorGames(2, rules=rules, opponents="net:8", seat=1, seed=3)
    assert games.num_envs == 2
    with pytest.raises(indigo.IndigoError, match="trained for 2 players"):
        indigo.VectorGames(1, rules=indigo.Rules.indigo(3), opponents="net:8", seat=0)
