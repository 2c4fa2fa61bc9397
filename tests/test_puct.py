"""indigo.PuctBot: the PUCT search with a Python evaluator or the rollout evaluator
(docs/alphazero.md), for every game of the registry."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import indigo
from indigo import ACTION_COUNT, OBSERVATION_LAYOUT, OBSERVATION_SIZE, EvaluatorError, PuctBot
from indigo.games import GAMES, GameEntry

Observations = npt.NDArray[np.float32]
Masks = npt.NDArray[np.bool_]
Answer = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]

GAME_IDS = [entry.name for entry in GAMES]

SCORES = OBSERVATION_LAYOUT["scores"][0]
"""Where the scores start in an observation: the observer's first, then the next seat's."""


def flat(observations: Observations, masks: Masks) -> Answer:
    """Uniform priors and value 0 everywhere."""
    return masks.astype(np.float32), np.zeros((len(masks), 2), np.float32)


def failing_at(call: int) -> tuple[Callable[[Observations, Masks], Answer], Callable[[], int]]:
    """An evaluator answering as :func:`flat` that raises at its ``call``-th call, and how
    many calls it has had."""
    calls = 0

    def failing(observations: Observations, masks: Masks) -> Answer:
        nonlocal calls
        calls += 1
        if calls == call:
            raise RuntimeError("the network is on fire")
        return flat(observations, masks)

    return failing, lambda: calls


def points_ahead(observations: Observations, masks: Masks) -> Answer:
    """Uniform priors; the mover's lead in points as its value."""
    scores = observations[:, SCORES : SCORES + 2]
    lead = np.tanh((scores[:, 0] - scores[:, 1]) / 3).astype(np.float32)
    return masks.astype(np.float32), np.stack([lead, -lead], axis=1)


def game(seed: int = 1, moves: int = 0) -> indigo.Game:
    played = indigo.Game(indigo.Rules.indigo(2), seed=seed)
    for _ in range(moves):
        played.play(played.legal_moves[len(played.legal_moves) // 2])
    return played


def gains(position: indigo.Game) -> dict[int, int]:
    """Each legal move's action number and the mover's immediate gain in points over the
    other seat's."""
    seat = position.to_move
    assert seat is not None
    out = {}
    for move in position.legal_moves:
        after = position.clone()
        before = after.scores
        after.play(move)
        now = after.scores
        out[move.action] = (now[seat] - before[seat]) - (now[1 - seat] - before[1 - seat])
    return out


def scoring_position() -> indigo.Game:
    """The first position of some deals where only some moves gain points."""
    for seed in range(50):
        position = game(seed)
        while position.to_move is not None and position.moves_played < 40:
            found = gains(position)
            if max(found.values()) > 0 and sorted(found.values())[len(found) // 2] <= 0:
                return position
            position.play(position.legal_moves[seed % len(position.legal_moves)])
    raise AssertionError("no deal with a scoring move")


def test_a_points_evaluator_finds_the_scoring_move() -> None:
    position = scoring_position()
    found = gains(position)
    best = max(found.values())
    result = PuctBot(points_ahead, 400, seed=2).search(position)
    assert found[result.best.action] == best, (found, result.visits)
    assert result.value > 0


def test_priors_steer_the_visits() -> None:
    position = game(3)
    legal = sorted(m.action for m in position.legal_moves)
    for favourite in (legal[0], legal[-1]):

        def steer(observations: Observations, masks: Masks, favourite: int = favourite) -> Answer:
            priors = masks.astype(np.float32)
            priors[:, favourite] *= 2000
            return priors, np.zeros((len(masks), 2), np.float32)

        result = PuctBot(steer, 200, seed=1).search(position)
        assert max(result.visits, key=lambda a: result.visits[a]) == favourite
        assert result.visits[favourite] > 100
        assert result.best.action == favourite


def test_dirichlet_noise_changes_the_root_visits_only_when_enabled() -> None:
    position = game(4)

    def visits(fraction: float, seed: int) -> dict[int, int]:
        bot = PuctBot(flat, 100, dirichlet_fraction=fraction, seed=seed)
        return bot.search(position).visits

    quiet = [visits(0.0, seed) for seed in range(4)]
    assert all(v == quiet[0] for v in quiet)
    noisy = [visits(0.5, seed) for seed in range(4)]
    assert any(v != quiet[0] for v in noisy)
    assert any(v != noisy[0] for v in noisy)


@pytest.mark.parametrize("batch_size", [1, 5, 16])
def test_leaves_come_in_batches_of_at_most_batch_size(batch_size: int) -> None:
    sizes: list[int] = []

    def counting(observations: Observations, masks: Masks) -> Answer:
        assert observations.shape == (len(masks), OBSERVATION_SIZE)
        assert observations.dtype == np.float32
        assert masks.shape == (len(observations), ACTION_COUNT)
        assert masks.dtype == np.bool_
        assert masks.any(axis=1).all()
        sizes.append(len(observations))
        return flat(observations, masks)

    result = PuctBot(counting, 60, batch_size=batch_size, seed=1).search(game(5))
    assert sizes[0] == 1  # the root alone
    assert all(1 <= n <= batch_size for n in sizes)
    assert sum(sizes[1:]) == 60  # no game ends within reach of the first move
    assert len(sizes) == 1 + -(-60 // batch_size) == result.evaluations
    assert sum(result.visits.values()) == result.simulations == 60


def test_the_root_observation_is_what_the_mover_sees() -> None:
    position = game(6, moves=3)
    seen: list[Observations] = []

    def spy(observations: Observations, masks: Masks) -> Answer:
        seen.append(observations.copy())
        return flat(observations, masks)

    PuctBot(spy, 8, seed=1).search(position)
    assert position.to_move is not None
    np.testing.assert_array_equal(seen[0][0], position.observation(position.to_move))


def test_the_gil_is_released_between_evaluator_calls() -> None:
    # With a long switch interval a thread holding the GIL keeps it until it waits: the other
    # thread can count only while the search runs without the GIL.
    counted = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal counted
        while not stop.is_set():
            counted += 1
            time.sleep(0)

    seen: list[int] = []

    def watching(observations: Observations, masks: Masks) -> Answer:
        seen.append(counted)
        return flat(observations, masks)

    interval = sys.getswitchinterval()
    counter = threading.Thread(target=count)
    sys.setswitchinterval(100.0)
    try:
        counter.start()
        PuctBot(watching, 300, batch_size=1, seed=1).search(game(7))
    finally:
        stop.set()
        sys.setswitchinterval(interval)
        counter.join()
    assert len(set(seen)) > 1, seen  # constant if the GIL were held throughout


def test_ctrl_c_stops_a_long_search() -> None:
    calls = 0

    def counting(observations: Observations, masks: Masks) -> Answer:
        nonlocal calls
        calls += 1
        return flat(observations, masks)

    # Ctrl-C as the terminal sends it (SIGINT from outside the process, so no thread of this
    # one has to win the GIL from the search's evaluator calls): it ends at the next batch.
    bot = PuctBot(counting, 10_000_000, batch_size=1, seed=1)
    start = game(11)
    killer = subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
    try:
        with pytest.raises(KeyboardInterrupt):
            bot.choose(start)
    finally:
        killer.wait()
    assert 0 < calls < 10_000_000


def test_evaluator_exceptions_propagate_and_bad_answers_are_refused() -> None:
    position = game(8)
    failing, calls = failing_at(3)
    with pytest.raises(RuntimeError, match="on fire"):
        PuctBot(failing, 100, seed=1).choose(position)
    assert calls() == 3

    bad: list[tuple[Callable[[Observations, Masks], object], str]] = [
        (lambda o, m: (np.ones((len(m), 7)), np.zeros((len(m), 2))), r"priors must have shape"),
        (lambda o, m: (m, np.zeros((len(m), 3))), r"values must have shape \(1, 2\)"),
        (lambda o, m: (m, np.full((len(m), 2), 1.5)), r"in \[-1, 1\], not 1.5"),
        (lambda o, m: (m * -1.0, np.zeros((len(m), 2))), "non-negative"),
        (lambda o, m: m, "a pair"),
        (lambda o, m: (m, "nothing"), "not numbers"),
    ]
    for evaluator, message in bad:
        with pytest.raises(EvaluatorError, match=message) as caught:
            PuctBot(evaluator, 10, seed=1).choose(position)  # type: ignore[arg-type]
        assert isinstance(caught.value, indigo.IndigoError)
        assert isinstance(caught.value, ValueError)
    assert position.moves_played == 0


def test_settings_and_arguments_are_checked() -> None:
    with pytest.raises(TypeError, match="callable"):
        PuctBot(3)  # type: ignore[arg-type]
    for settings in [
        {"simulations": 0},
        {"batch_size": 0},
        {"c_puct": 0.0},
        {"dirichlet_alpha": -1.0},
        {"dirichlet_fraction": 1.5},
        {"temperature": float("nan")},
    ]:
        with pytest.raises(indigo.IndigoError):
            PuctBot(flat, **settings)  # type: ignore[arg-type]
    over = game(9)
    while over.to_move is not None:
        over.play(over.legal_moves[0])
    with pytest.raises(indigo.IllegalMoveError):
        PuctBot(flat, 10).choose(over)


def test_the_same_seed_gives_the_same_search() -> None:
    position = game(10, moves=5)

    def search(seed: int) -> indigo.PuctSearchResult:
        bot = PuctBot(points_ahead, 120, dirichlet_fraction=0.25, temperature=1.0, seed=seed)
        return bot.search(position)

    first, again = search(3), search(3)
    assert (first.best, first.visits, first.value) == (again.best, again.visits, again.value)
    assert len({search(seed).best for seed in range(12)}) > 1  # temperature 1 draws
    policy = first.policy()
    assert policy.shape == (ACTION_COUNT,)
    assert policy.sum() == pytest.approx(1.0)
    assert policy[first.best.action] > 0


def test_puct_plays_whole_games_by_the_bot_protocol() -> None:
    bot = PuctBot(points_ahead, 30, seed=1)
    assert isinstance(bot, indigo.Bot)
    finished = indigo.play_game([bot, indigo.make_bot("random", seed=1)], seed=2)
    assert finished.to_move is None
    assert bot.spec == "puct:30,batch=8,c=1.5"


def replayed(records: list[str]) -> Iterator[indigo.Game]:
    for record in records:
        yield indigo.Game.from_record(json.loads(record))


def test_self_play_keeps_the_searchs_visits_as_the_policy_target() -> None:
    bot = PuctBot(points_ahead, 24, batch_size=6, dirichlet_fraction=0.25, temperature=1.0)
    batch = bot.self_play(2, seed=5, start=3)
    again = bot.self_play(2, seed=5, start=3)
    assert batch.records == again.records
    assert len(batch) == 2
    assert list(np.unique(batch.game)) == [3, 4]
    assert batch.searched.all()
    counts = np.add.reduceat(batch.visit_counts, batch.visit_offsets[:-1])
    assert (counts == 24).all()
    rows = np.repeat(np.arange(batch.samples), np.diff(batch.visit_offsets))
    assert batch.legal_mask[rows, batch.visit_actions].all()
    games = list(replayed(batch.records))
    assert sum(g.moves_played for g in games) == batch.samples
    plain = indigo.self_play(["random"], 2, seed=5, start=3)
    first = [json.loads(r) for r in plain.records]
    assert [g.seed for g in games] == [r["seed"] for r in first]
    assert json.loads(batch.records[0])["players_names"] == [bot.spec, bot.spec]


def test_run_selfplay_writes_puct_shards(tmp_path: Path) -> None:
    selfplay = pytest.importorskip("indigo.selfplay")
    bot = PuctBot(points_ahead, 16, temperature=1.0, seed=1)
    run = selfplay.run_selfplay(bot, 3, tmp_path, seed=2, shard_size=2)
    assert (run.shards_written, run.games) == (2, 3)
    rows = list(selfplay.load(tmp_path, batch_size=10_000))
    assert len(rows) == 1
    samples = rows[0]
    assert samples.searched.all()
    np.testing.assert_allclose(samples.policy.sum(axis=1), 1.0, rtol=1e-5)
    assert (samples.policy[~samples.legal_mask] == 0).all()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["bots"] == [bot.spec]
    assert selfplay.run_selfplay(bot, 3, tmp_path, seed=2, shard_size=2).shards_skipped == 2


EVALUATOR_MODULE = """
import numpy as np


def evaluate(observations, masks):
    return masks.astype(np.float32), np.zeros((len(masks), 2), np.float32)
"""


def test_indigo_selfplay_plays_puct_with_an_evaluator_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyarrow")
    from indigo.cli import main
    from indigo.selfplay import load, read_records

    (tmp_path / "flat_evaluator.py").write_text(EVALUATOR_MODULE)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "run"
    common = ["selfplay", "--games", "2", "--out", str(out), "--simulations", "12"]
    assert main([*common, "--puct", "flat_evaluator:evaluate", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shards_written"] == 1
    samples = next(load(out))
    assert samples.searched.all()
    assert (samples.policy.sum(axis=1) > 0.99).all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["bots"] == ["puct:12,batch=8,c=1.5,alpha=0.3,noise=0.25,temperature=1"]
    flying = tmp_path / "flying"
    in_flight = ["selfplay", "--games", "2", "--out", str(flying), "--simulations", "12"]
    assert main([*in_flight, "--puct", "flat_evaluator:evaluate", "--in-flight", "2"]) == 0
    assert list(read_records(flying)) == list(read_records(out))
    assert main(["selfplay", "--games", "1", "--out", str(tmp_path / "specs"), "--bots",
                 "random", "--in-flight", "2"]) == 2  # fmt: skip
    assert "applies to a PuctBot" in capsys.readouterr().err
    for wrong, message in [
        ([], "give --bots or --puct"),
        (["--bots", "greedy", "--puct", "flat_evaluator:evaluate"], "give --bots or --puct"),
        (["--puct", "flat_evaluator"], "MODULE:FUNCTION"),
        (["--puct", "no_such_module:evaluate"], "no_such_module"),
        (["--puct", "flat_evaluator:nothing"], "nothing"),
    ]:
        assert main([*common, *wrong]) == 2
        assert message in capsys.readouterr().err


@pytest.mark.parametrize("name", ["json:loads", "indigo:Game", "indigo:OBSERVATION_SIZE"])
def test_indigo_selfplay_names_what_the_evaluator_must_be(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An object that is not an evaluator (``json.loads`` takes one argument, ``Game`` is no
    evaluator's answer) is one error line and status 2, not the ``TypeError`` it raised."""
    pytest.importorskip("pyarrow")
    from indigo.cli import main

    argv = ["selfplay", "--games", "1", "--out", str(tmp_path / "run"), "--simulations", "2"]
    assert main([*argv, "--puct", name]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"indigo: error: --puct {name!r} ")
    assert "evaluator(observations, masks) -> (priors, values)" in err


# ---------------------------------------------------------------------------------------------
# Every game of the registry


def encoding(entry: GameEntry[Any, Any, Any]) -> tuple[int, int]:
    """The game's observation size and action count, from its module."""
    module = importlib.import_module(entry.module)
    return module.OBSERVATION_SIZE, module.ACTION_COUNT


def no_priors(observations: Observations, masks: Masks) -> Answer:
    """No priors (shape ``(batch, 0)``: uniform) and value 0: an evaluator that costs nothing
    per action, whatever the game's action count."""
    return np.zeros((len(masks), 0), np.float32), np.zeros((len(masks), 2), np.float32)


@pytest.mark.parametrize("entry", GAMES, ids=GAME_IDS)
def test_a_python_evaluator_plays_whole_games_of_every_game(
    entry: GameEntry[Any, Any, Any],
) -> None:
    observation_size, action_count = encoding(entry)
    shapes: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    roots: list[tuple[Observations, Masks]] = []

    def watching(observations: Observations, masks: Masks) -> Answer:
        shapes.add((observations.shape[1:], masks.shape[1:]))
        if not roots:  # the first search's root
            roots.append((observations[0].copy(), masks[0].copy()))
        return no_priors(observations, masks)

    bot = PuctBot(watching, 2, batch_size=2, seed=1)
    game = entry.game(entry.default_rules(2), seed=3)
    first = game.clone()
    seat = first.to_move
    while game.to_move is not None:
        move = bot.choose(game)
        assert isinstance(move, entry.move)
        game.play(move)
    assert game.over
    assert game.moves_played > 20
    assert shapes == {((observation_size,), (action_count,))}
    observation, mask = roots[0]
    np.testing.assert_array_equal(observation, first.observation(seat))
    assert np.flatnonzero(mask).tolist() == sorted(first.legal_actions())


@pytest.mark.parametrize("entry", GAMES, ids=GAME_IDS)
def test_the_rollout_evaluator_plays_whole_games_of_every_game(
    entry: GameEntry[Any, Any, Any],
) -> None:
    bot = PuctBot("rollout", 16, batch_size=4, seed=1)
    assert bot.evaluator == "rollout"
    assert bot.spec == "puct:16,batch=4,c=1.5,rollout"
    game = entry.game(entry.default_rules(2), seed=4)
    start = game.clone()
    while game.to_move is not None:
        game.play(bot.choose(game))
    assert game.over
    # Seeded, a search is reproducible; its result is of the game searched.
    first, again = (PuctBot("rollout", 40, seed=7).search(start) for _ in range(2))
    assert (first.best, first.visits, first.value) == (again.best, again.visits, again.value)
    assert start.is_legal(first.best)
    assert sum(first.visits.values()) == first.simulations == 40
    assert first.evaluations == 1 + -(-40 // 8)
    assert first.policy().shape == (encoding(entry)[1],)


@pytest.mark.parametrize("entry", GAMES, ids=GAME_IDS)
def test_priors_steer_the_visits_of_every_game(entry: GameEntry[Any, Any, Any]) -> None:
    position = entry.game(entry.default_rules(2), seed=5)
    favourite = sorted(position.legal_actions())[-1]

    def steer(observations: Observations, masks: Masks) -> Answer:
        priors = masks.astype(np.float32)
        priors[:, favourite] *= 2000
        return priors, np.zeros((len(masks), 2), np.float32)

    result = PuctBot(steer, 20, batch_size=4, seed=1).search(position)
    assert max(result.visits, key=lambda a: result.visits[a]) == favourite
    assert result.visits[favourite] > 10


@pytest.mark.parametrize("entry", GAMES, ids=GAME_IDS)
def test_self_play_of_every_game_keeps_the_searchs_visits(
    entry: GameEntry[Any, Any, Any],
) -> None:
    bot = PuctBot("rollout", 8, batch_size=4, temperature=1.0, seed=1)
    batch = bot.self_play(1, rules=entry.default_rules(2), seed=5, start=2)
    assert isinstance(batch, entry.selfplay_batch)
    assert batch.records == bot.self_play(1, rules=entry.default_rules(2), seed=5, start=2).records
    assert batch.searched.all()
    counts = np.add.reduceat(batch.visit_counts, batch.visit_offsets[:-1])
    assert (counts == 8).all()
    record = json.loads(batch.records[0])
    assert record["players_names"] == [bot.spec, bot.spec]
    replayed = entry.game.from_record(record)
    assert replayed.over
    assert replayed.moves_played == batch.samples
    plain = json.loads(entry.self_play(["random"], 1, seed=5, start=2).records[0])
    assert record["seed"] == plain["seed"]


@pytest.mark.parametrize("entry", GAMES, ids=GAME_IDS)
def test_run_selfplay_writes_puct_shards_of_every_game(
    entry: GameEntry[Any, Any, Any], tmp_path: Path
) -> None:
    selfplay = pytest.importorskip("indigo.selfplay")
    bot = PuctBot("rollout", 4, temperature=1.0, seed=1)
    rules = entry.default_rules(2)
    run = selfplay.run_selfplay(bot, 3, tmp_path, rules=rules, seed=2, shard_size=2)
    assert (run.shards_written, run.games) == (2, 3)
    samples = next(selfplay.load(tmp_path, batch_size=10_000))
    assert samples.searched.all()
    assert len(samples) == run.samples_written
    assert json.loads((tmp_path / "manifest.json").read_text())["bots"] == [bot.spec]


def test_a_wrong_evaluator_or_game_is_named() -> None:
    with pytest.raises(indigo.IndigoError, match="'rollout'"):
        PuctBot("rolout")
    bot = PuctBot("rollout", 4)
    with pytest.raises(TypeError, match=r"indigo\.queens_garden\.Game"):
        bot.choose("a game")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"indigo\.queens_garden\.Rules"):
        bot.self_play(1, rules=2)  # type: ignore[arg-type]


def per_leaf(observations: Observations, masks: Masks) -> Answer:
    """Priors and values that are each leaf's own: elementwise functions of its row and a
    sum along it, nothing across rows, so a leaf's answer does not depend on its batch."""
    total = observations.sum(axis=1, dtype=np.float64)
    value = (0.9 * np.sin(0.37 * total)).astype(np.float32)
    if masks.shape[1] > 10_000:  # Queen's Garden: no priors (uniform)
        priors = np.zeros((len(masks), 0), np.float32)
    else:
        actions = np.arange(masks.shape[1])
        priors = (masks * (1.5 + np.sin(np.outer(total, 0.01 * actions)))).astype(np.float32)
    return priors, np.stack([value, -value], axis=1)


@pytest.mark.parametrize("entry", GAMES, ids=GAME_IDS)
def test_self_play_in_flight_plays_the_games_of_one_at_a_time_in_fewer_larger_calls(
    entry: GameEntry[Any, Any, Any],
) -> None:
    calls: list[int] = []

    def recording(observations: Observations, masks: Masks) -> Answer:
        calls.append(len(masks))
        return per_leaf(observations, masks)

    # Noise and a temperature: each search's own draws decide its games.
    bot = PuctBot(recording, 4, batch_size=2, dirichlet_fraction=0.25, temperature=1.0, seed=1)
    rules = entry.default_rules(2)
    played = {}
    sizes = {}
    for in_flight in [1, 3]:
        calls.clear()
        played[in_flight] = bot.self_play(3, rules=rules, seed=5, start=2, in_flight=in_flight)
        sizes[in_flight] = list(calls)
    one, three = played[1], played[3]
    assert three.records == one.records
    np.testing.assert_array_equal(three.visit_counts, one.visit_counts)
    np.testing.assert_array_equal(three.visit_actions, one.visit_actions)
    assert list(np.unique(one.game)) == [2, 3, 4]
    assert max(sizes[1]) == 2  # one search's batch at a time
    assert max(sizes[3]) > 2
    assert sum(sizes[3]) == sum(sizes[1])
    assert 3 * len(sizes[3]) < 2 * len(sizes[1]), (len(sizes[3]), len(sizes[1]))


def test_self_play_in_flight_raises_the_evaluators_errors_and_is_checked() -> None:
    failing, calls = failing_at(5)
    with pytest.raises(RuntimeError, match="on fire"):
        PuctBot(failing, 8, batch_size=2, seed=1).self_play(4, in_flight=4)
    assert calls() == 5
    with pytest.raises(EvaluatorError, match="in \\[-1, 1\\]"):
        PuctBot(lambda o, m: (m, np.full((len(m), 2), 2.0)), 8).self_play(2, in_flight=2)
    for bad in [0, -1, 4097, 2**70]:
        with pytest.raises(indigo.IndigoError, match=f"in_flight must be 1 to 4096, not {bad}"):
            PuctBot(flat, 8).self_play(1, in_flight=bad)
    # The rollout evaluator plays a game at a time: the same games for any in_flight.
    rollout = PuctBot("rollout", 8, temperature=1.0, seed=1)
    assert rollout.self_play(2, seed=3, in_flight=2).records == rollout.self_play(2, seed=3).records


def test_ctrl_c_stops_self_play_in_flight() -> None:
    calls = 0

    def counting(observations: Observations, masks: Masks) -> Answer:
        nonlocal calls
        calls += 1
        return flat(observations, masks)

    bot = PuctBot(counting, 10_000_000, batch_size=1, seed=1)
    killer = subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
    try:
        with pytest.raises(KeyboardInterrupt):
            bot.self_play(4, in_flight=4)
    finally:
        killer.wait()
    assert 0 < calls < 10_000_000


def test_run_selfplay_passes_in_flight_to_a_puct_bot(tmp_path: Path) -> None:
    selfplay = pytest.importorskip("indigo.selfplay")
    sizes: list[int] = []

    def recording(observations: Observations, masks: Masks) -> Answer:
        sizes.append(len(masks))
        return per_leaf(observations, masks)

    bot = PuctBot(recording, 4, batch_size=2, temperature=1.0, seed=1)
    run = selfplay.run_selfplay(bot, 3, tmp_path / "three", seed=2, shard_size=3, in_flight=3)
    assert max(sizes) > 2
    one = selfplay.run_selfplay(bot, 3, tmp_path / "one", seed=2, shard_size=3)
    assert run.samples_written == one.samples_written
    assert list(selfplay.read_records(tmp_path / "three")) == list(
        selfplay.read_records(tmp_path / "one")
    )
    with pytest.raises(selfplay.SelfPlayError, match="applies to a PuctBot"):
        selfplay.run_selfplay(["random"], 1, tmp_path / "specs", in_flight=2)
    with pytest.raises(indigo.IndigoError, match="in_flight must be"):
        selfplay.run_selfplay(bot, 1, tmp_path / "bad", in_flight=0)
    assert not (tmp_path / "bad").exists()
