"""Games and bots from many threads at once, and after ``fork``.

Each workload, of either game, is a function ``seed -> str`` (a record, a snapshot or results as
JSON) that must give the same answer whether it runs sequentially, on many threads at once
(``Game.from_record`` and the bots release the GIL), in a child process after ``os.fork()``, or
in a ``multiprocessing`` pool with the fork start method. To cover a new engine feature, add
one ``Workload`` to ``WORKLOADS``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import indigo
import indigo.games
import indigo.queens_garden as qg
from conftest import GAME_FILES, load_vector
from indigo import (
    Game,
    GreedyBot,
    IllegalMoveError,
    IndigoError,
    IsmctsBot,
    RandomBot,
    Rules,
    VectorGames,
    self_play,
    simulate,
)

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

# Every game of the registry: the tests below that take `game` run over each of them.
GAMES = list(indigo.games.GAMES)
GAME_IDS = [entry.name for entry in GAMES]
# The games whose rules `VectorGames` takes (Queen's Garden's is issue 30).
VECTOR_GAMES = [indigo.games.INDIGO]
# Specs of searches that would run for minutes: each must stop soon after Ctrl-C.
LONG_SEARCHES = [
    "ismcts:time=30",
    "ismcts:1000000000",
    "ismcts:1000000000,threads=2",
    "net:time=30",
    "net:10000000,threads=2",
]

THREADS = 8
SEEDS = list(range(12))
VECTOR_RECORDS = [json.dumps(load_vector(p.name)["record"]) for p in GAME_FILES]


def bot_game(seed: int) -> str:
    """A whole game, greedy against random, in a configuration chosen by the seed."""
    rules = Rules(2 + seed % 3, 1 + seed % 2)
    game = Game(rules, seed=seed)
    bots = [
        GreedyBot(seed=seed + s) if s % 2 == 0 else RandomBot(seed=seed + s)
        for s in range(rules.players)
    ]
    while not game.over:
        game.play(bots[game.to_move or 0].choose(game))
    return game.record_json()


def record_replay(seed: int) -> str:
    """Replays a vector record (GIL released) and snapshots the end, with the legal list."""
    game = Game.from_record(VECTOR_RECORDS[seed % len(VECTOR_RECORDS)])
    return game.snapshot_json(legal=True)


def play_undo_copy(seed: int) -> str:
    """Random play with undos, clones and a record round trip along the way."""
    game = Game(Rules.tactical(4), seed=seed)
    bot = RandomBot(seed=seed)
    step = 0
    while not game.over:
        step += 1
        game.play(bot.choose(game))
        if step % 7 == 0:
            game.undo()
        if step % 11 == 0:
            game = Game.from_record(game.clone().record_json())
    return game.record_json()


def ismcts_search(seed: int) -> str:
    """One ISMCTS search on two threads (a rayon pool inside the bot)."""
    game = Game(Rules(2 + seed % 3, 1 + seed % 2), seed=seed)
    found = IsmctsBot(150, threads=2, seed=seed).search(game)
    return json.dumps([str(found.best), sorted(found.visits.items())])


def batch(seed: int) -> str:
    """A batch of games on two threads (a rayon pool per batch)."""
    result = simulate(["greedy", "ismcts:10"], 4, seed=seed, threads=2)
    return json.dumps([result.scores.tolist(), result.placements.tolist()])


def vector_steps(seed: int) -> str:
    """Six games stepped together (GIL released) through an autoreset, first legal actions."""
    games = VectorGames(6, Rules(2 + seed % 3, 1), seed=seed)
    _, masks, _ = games.reset()
    for _ in range(70):
        observations, masks, rewards, _, _ = games.step(masks.argmax(axis=1))
    return json.dumps([games.episodes, rewards.tolist(), observations.sum(axis=1).tolist()])


def self_play_batch(seed: int) -> str:
    """Self-play games on two threads: records and samples."""
    data = self_play(["greedy", "ismcts:10"], 3, seed=seed, threads=2, lineups=[[0, 1], [1, 0]])
    return json.dumps([data.records, data.visit_counts.tolist(), float(data.observation.sum())])


def qg_bot_game(seed: int) -> str:
    """A whole Queen's Garden game, greedy against random, with 2 to 4 players."""
    game = qg.Game(qg.Rules(2 + seed % 3), seed=seed)
    bots = [qg.make_bot("greedy" if s % 2 == 0 else "random", seed=seed + s) for s in range(4)]
    while not game.over:
        game.play(bots[game.to_move or 0].choose(game))
    return game.record_json()


def qg_play_undo_pickle(seed: int) -> str:
    """Random Queen's Garden play with undos, clones and a pickle round trip along the way."""
    game = qg.Game(qg.Rules(3), seed=seed)
    bot = qg.make_bot("random", seed=seed)
    step = 0
    while not game.over:
        step += 1
        game.play(bot.choose(game))
        if step % 7 == 0:
            game.undo()
        if step % 11 == 0:
            game = pickle.loads(pickle.dumps(game.clone()))
    return game.record_json()


def qg_ismcts_choice(seed: int) -> str:
    """One Queen's Garden ISMCTS search on two threads."""
    game = qg.Game(qg.Rules(2 + seed % 3), seed=seed)
    return str(qg.make_bot("ismcts:100,threads=2", seed=seed).choose(game))


def qg_batch(seed: int) -> str:
    """A batch of Queen's Garden games on two threads."""
    result = simulate(["greedy", "ismcts:10"], 2, seed=seed, threads=2, game="queens-garden")
    return json.dumps([result.scores.tolist(), result.placements.tolist()])


def qg_self_play_batch(seed: int) -> str:
    """Queen's Garden self-play games on two threads: records and samples."""
    data = qg.self_play(["greedy", "ismcts:10"], 2, seed=seed, threads=2)
    return json.dumps([data.records, data.visit_counts.tolist(), float(data.observation.sum())])


@dataclass(frozen=True)
class Workload:
    name: str
    run: Callable[[int], str]


WORKLOADS = [
    Workload("bot-game", bot_game),
    Workload("record-replay", record_replay),
    Workload("play-undo-copy", play_undo_copy),
    Workload("ismcts-search", ismcts_search),
    Workload("batch", batch),
    Workload("vector-steps", vector_steps),
    Workload("self-play", self_play_batch),
    Workload("qg-bot-game", qg_bot_game),
    Workload("qg-play-undo-pickle", qg_play_undo_pickle),
    Workload("qg-ismcts-choice", qg_ismcts_choice),
    Workload("qg-batch", qg_batch),
    Workload("qg-self-play", qg_self_play_batch),
]
IDS = [w.name for w in WORKLOADS]


def sequential(workload: Workload) -> list[str]:
    return [workload.run(seed) for seed in SEEDS]


@pytest.mark.parametrize("workload", WORKLOADS, ids=IDS)
def test_threads_match_sequential(workload: Workload) -> None:
    expected = sequential(workload)
    assert len(set(expected)) > 1  # the seeds matter
    with ThreadPoolExecutor(THREADS) as pool:
        assert list(pool.map(workload.run, SEEDS * 3)) == expected * 3


def test_all_workloads_at_once_match_sequential() -> None:
    jobs = [(w, seed) for seed in SEEDS for w in WORKLOADS]
    expected = [w.run(seed) for w, seed in jobs]
    with ThreadPoolExecutor(THREADS) as pool:
        assert list(pool.map(lambda job: job[0].run(job[1]), jobs)) == expected


def test_game_stays_playable_while_a_bot_thinks_on_it() -> None:
    """A bot on another thread only reads a copy of the position: playing is never blocked."""
    game = Game(Rules.tactical(4), seed=3)
    stop = threading.Event()
    errors: list[BaseException] = []

    def think() -> None:
        bot = GreedyBot(seed=1)
        while not stop.is_set():
            try:
                bot.choose(game)
            except IllegalMoveError:
                pass  # the game ended between the check and the choice
            except BaseException as exc:
                errors.append(exc)

    thinker = threading.Thread(target=think)
    thinker.start()
    try:
        player = RandomBot(seed=2)
        for _ in range(3):
            while not game.over:
                game.play(player.choose(game.clone()))
            while game.moves:
                game.undo()
    finally:
        stop.set()
        thinker.join()
    assert errors == []


def test_one_bot_shared_by_threads() -> None:
    """Threads sharing one bot take turns with it; each choice is a legal move."""
    bot = GreedyBot(seed=1)
    games = [Game(Rules(2 + s % 3), seed=s) for s in range(THREADS)]

    def choose_all(game: Game) -> list[bool]:
        return [bot.choose(game) in game.legal_moves for _ in range(50)]

    with ThreadPoolExecutor(THREADS) as pool:
        assert all(all(ok) for ok in pool.map(choose_all, games))


# ---------------------------------------------------------------------------------------------
# fork


def _warm_up_threads() -> None:
    """Use the engine from other threads first: a fork must not inherit a broken state."""
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(bot_game, SEEDS[:4]))


@pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")
@pytest.mark.parametrize("workload", WORKLOADS, ids=IDS)
def test_fork_child_matches_parent(workload: Workload) -> None:
    expected = sequential(workload)
    _warm_up_threads()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, report, and leave without running pytest's teardown
        status = 1
        try:
            os.close(read)
            with os.fdopen(write, "w") as out:
                json.dump(sequential(workload), out)
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as inp:
        got = inp.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert json.loads(got) == expected


@pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")
@pytest.mark.parametrize("workload", WORKLOADS, ids=IDS)
def test_multiprocessing_fork_pool(workload: Workload) -> None:
    expected = sequential(workload)
    _warm_up_threads()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert pool.map(workload.run, SEEDS) == expected


@pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")
def test_a_bots_thread_pool_survives_fork() -> None:
    """A bot whose pool started in the parent searches in the child exactly as in the parent."""
    game = Game(Rules.indigo(2), seed=5)
    bot = IsmctsBot(200, threads=2, seed=9)
    bot.search(game)  # the pool now exists in the parent
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.close(read)
            found = bot.search(game)
            with os.fdopen(write, "w") as out:
                json.dump([str(found.best), sorted(found.visits.items())], out)
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    found = bot.search(game)  # the parent's next search: the same seed state as the child's
    with os.fdopen(read) as inp:
        got = json.loads(inp.read())
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert got == json.loads(json.dumps([str(found.best), sorted(found.visits.items())]))


def test_one_vector_shared_by_threads() -> None:
    """Threads stepping and reading one VectorGames take turns on its lock without deadlock;
    a step chosen from a stale mask is refused whole, never half applied."""
    games = VectorGames(4, seed=3)
    _, first, _ = games.reset()

    def stepper(_: int) -> int:
        masks, refused = first, 0
        for _ in range(60):
            try:
                masks = games.step(masks.argmax(axis=1))[1]
            except IllegalMoveError:
                refused += 1
                masks = games.reset()[1]
            assert len(games.game_seeds) == len(games.episodes) == 4
        return refused

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(stepper, range(4)))
    assert len(games) == 4


@pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")
@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_fork_while_another_thread_searches_with_a_shared_bot(game: Any) -> None:
    """The child of a fork taken while another thread had the bot can still use it: it starts
    again from the bot as that thread took it, instead of waiting for a thread that is not
    there. The parent gives the child 60 s, then kills it, so a regression fails, not hangs."""
    state = game.game(game.default_rules(2), seed=4)
    bot = game.make_bot("ismcts:time=1", seed=3)
    searching = threading.Thread(target=bot.choose, args=(state,))
    searching.start()
    time.sleep(0.2)  # the thread has the bot now (a search of 1 s)
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            status = 0 if state.is_legal(bot.choose(state)) else 3
        finally:
            os._exit(status)
    searching.join()
    assert _child_status(pid) == 0
    assert state.is_legal(bot.choose(state))  # the parent's bot came back too


def _child_status(pid: int, seconds: float = 60) -> int:
    """The child's exit code; a child still running after ``seconds`` is killed: a failure."""
    deadline = time.monotonic() + seconds
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    if done[0] == 0:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("the child hung")
    return os.waitstatus_to_exitcode(done[1])


@pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")
def test_fork_while_another_thread_steps_vector_games() -> None:
    """A child forked while another thread steps a VectorGames (most of the time: each step
    takes a while) gets an IndigoError from it, or its games if no step was under way, never
    a wait for a thread it does not have."""
    games = VectorGames(4096, seed=1)
    masks = games.reset()[1]
    stop = threading.Event()

    def step() -> None:
        while not stop.is_set():
            games.step(masks.argmax(axis=1))
            games.reset()

    stepping = threading.Thread(target=step)
    stepping.start()
    try:
        time.sleep(0.3)
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                try:
                    status = 0 if len(games.episodes) == 4096 else 3
                except IndigoError:
                    status = 0
            finally:
                os._exit(status)
    finally:
        stop.set()
        stepping.join()
    assert _child_status(pid) == 0


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_reads_and_writes_of_one_game_from_two_threads(game: Any) -> None:
    """`to_record`/`snapshot` (which build Python objects) on one thread while another plays
    and undoes: each call sees the game whole, before or after a move, and none fails."""
    state = game.game(game.default_rules(2), seed=6)
    for _ in range(10):
        state.play(state.legal_moves[0])
    records = [state.to_record()]
    snapshots = [state.snapshot(legal=True)]
    state.play(state.legal_moves[0])
    records.append(state.to_record())
    snapshots.append(state.snapshot(legal=True))
    state.undo()
    errors: list[BaseException] = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible

    def write() -> None:
        try:
            for _ in range(3000):
                state.play(state.legal_moves[0])
                state.undo()
        except BaseException as exc:
            errors.append(exc)

    def read() -> None:
        try:
            for _ in range(1500):
                assert state.to_record() in records
                assert state.snapshot(legal=True) in snapshots
        except BaseException as exc:
            errors.append(exc)

    try:
        threads = [threading.Thread(target=f) for f in (write, read, read)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert len(state.moves) == 10


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_a_game_unpickled_into_while_other_threads_read_it(game: Any) -> None:
    """`__setstate__` (which reads the state without the GIL) on a game other threads read:
    every read sees the game before or after, and none fails."""
    state = game.game(game.default_rules(2), seed=2)
    later = state.clone()
    for _ in range(6):
        later.play(later.legal_moves[0])
    states = [state.__getstate__(), later.__getstate__()]
    records = [state.to_record(), later.to_record()]
    errors: list[BaseException] = []

    def write() -> None:
        try:
            for i in range(2000):
                state.__setstate__(states[i % 2])
        except BaseException as exc:
            errors.append(exc)

    def read() -> None:
        try:
            for _ in range(1000):
                assert state.to_record() in records
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=f) for f in (write, read)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


# ---------------------------------------------------------------------------------------------
# Ctrl-C


def _interrupt_soon(delay: float = 0.3) -> threading.Timer:
    """Sends SIGINT to the main thread (this one) after ``delay`` seconds, from a timer thread."""
    main = threading.main_thread().ident
    assert main == threading.get_ident()
    timer = threading.Timer(delay, signal.pthread_kill, (main, signal.SIGINT))
    timer.start()
    return timer


def _stops_on_ctrl_c(call: Callable[[], object]) -> None:
    """``call()`` raises KeyboardInterrupt soon after SIGINT. The bound is a check against a
    hang (the work alone would take minutes), not a timing target."""
    start = time.monotonic()
    timer = _interrupt_soon()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.join()
    assert time.monotonic() - start < 3


@pytest.mark.parametrize("spec", LONG_SEARCHES)
@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_a_search_stops_on_ctrl_c(game: Any, spec: str) -> None:
    state = game.game(game.default_rules(2), seed=1)
    bot = game.make_bot(spec, seed=1)
    _stops_on_ctrl_c(lambda: bot.choose(state))
    _stops_on_ctrl_c(lambda: bot.choose(state))  # the bot came back and searches again


def _no_priors(observations: Any, masks: Any) -> tuple[Any, Any]:
    """Uniform priors (shape ``(batch, 0)``) and value 0, for any game's leaves."""
    return np.zeros((len(masks), 0), np.float32), np.zeros((len(masks), 2), np.float32)


@pytest.mark.parametrize("evaluator", [_no_priors, "rollout"], ids=["python", "rollout"])
@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_a_puct_search_stops_on_ctrl_c(game: Any, evaluator: Any) -> None:
    """`PuctBot`, with a Python evaluator (looked for before each call) or the rollout one
    (watched while it runs in Rust)."""
    state = game.game(game.default_rules(2), seed=1)
    bot = indigo.PuctBot(evaluator, 10_000_000, seed=1)
    _stops_on_ctrl_c(lambda: bot.choose(state))
    _stops_on_ctrl_c(lambda: bot.search(state))  # the bot came back and searches again


@pytest.mark.parametrize("kwargs", [{"time": 30}, {"simulations": 10**8, "threads": 2}])
def test_ismcts_bot_search_stops_on_ctrl_c(kwargs: dict[str, Any]) -> None:
    """`IsmctsBot.search` (Indigo's bot class, whose result has the root visits) as well."""
    state = Game(seed=1)
    bot = IsmctsBot(**kwargs, seed=1)
    _stops_on_ctrl_c(lambda: bot.search(state))


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_waiting_for_a_shared_bot_stops_on_ctrl_c(game: Any) -> None:
    """A thread waiting for a bot that another thread searches with also answers Ctrl-C."""
    state = game.game(game.default_rules(2), seed=1)
    bot = game.make_bot("ismcts:time=4", seed=1)
    other = threading.Thread(target=bot.choose, args=(state,))
    other.start()
    time.sleep(0.2)
    try:
        _stops_on_ctrl_c(lambda: bot.choose(state))
    finally:
        other.join()


BATCHES: dict[str, Callable[..., object]] = {
    "indigo-simulate": simulate,
    "indigo-self-play": self_play,
    "queens_garden-simulate": lambda *a, **k: simulate(*a, **k, game="queens-garden"),
    "queens_garden-self-play": indigo.queens_garden.self_play,
}


@pytest.mark.parametrize("run", BATCHES.values(), ids=BATCHES.keys())
def test_batches_of_long_searches_stop_on_ctrl_c(run: Callable[..., object]) -> None:
    """Ctrl-C also ends a batch's searches under way, not only the games not yet begun."""
    _stops_on_ctrl_c(lambda: run(["ismcts:100000000", "ismcts:time=1000"], 2, threads=2))


@pytest.mark.parametrize("game", VECTOR_GAMES, ids=[entry.name for entry in VECTOR_GAMES])
def test_vector_games_opponents_stop_on_ctrl_c(game: Any) -> None:
    """The opponents' searches inside `VectorGames` answer Ctrl-C: while it is made (seat 0's
    opponent moves first), on a reset (which starts again from seat 0's move) and on a step."""
    rules = game.default_rules(2)
    _stops_on_ctrl_c(lambda: indigo.VectorGames(1, rules=rules, opponents="ismcts:time=30", seat=1))
    games = indigo.VectorGames(1, rules=rules, opponents="ismcts:time=5", seat=1)  # made in 5 s
    _stops_on_ctrl_c(lambda: games.reset())
    learner_first = indigo.VectorGames(1, rules=rules, opponents="ismcts:time=30", seat=0)
    _, masks, _ = learner_first.reset()
    _stops_on_ctrl_c(lambda: learner_first.step(masks.argmax(axis=1)))
