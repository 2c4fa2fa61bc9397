"""``indigo bench``: a fixed, seeded workload timing every layer of the engine in one run.

Each figure comes with its unit, and the run ends with a checksum of the games played, so a change
in behaviour shows as well as a change in speed. Timings are the best of ``repeat`` runs of each
workload (noise on a shared machine only ever adds time); compare figures as ratios within one
run. See ``docs/benchmarks.md``.

>>> figures = run(quick=True, repeat=1)
>>> figures["batch_checksum"] == figures["native_checksum"]  # the same games, two ways
True
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from indigo import _native
from indigo._native import Game, IsmctsBot, Move, Rules, simulate
from indigo._native import queens_garden as _garden
from indigo.games import GAMES, GameEntry
from indigo.reference import ROUTE_CELLS, RefGame, canonical_rotations

SEED = 2026
"""Seed of every workload: change it and the checksum changes."""

T = TypeVar("T")


@dataclass(frozen=True)
class Workload:
    """How much of each kind of work one run does."""

    playout_games: int  # native and batch random playouts
    python_games: int  # Python loops of legal_moves + play, and the per-call timings
    reference_games: int  # the pure-Python reference engine
    searches: int  # ISMCTS searches per thread count
    simulations: int  # per search
    vector_steps: int  # VectorGames steps of VECTOR_GAMES games, per game of the registry
    garden_games: int  # Queen's Garden playout-policy games, and a tenth as many random ones
    garden_lists: int  # Queen's Garden legal-move lists of the crowded position
    garden_simulations: int  # per Queen's Garden ISMCTS search


FULL = Workload(
    playout_games=200_000,
    python_games=400,
    reference_games=20,
    searches=8,
    simulations=4000,
    vector_steps=400,
    garden_games=5000,
    garden_lists=50_000,
    garden_simulations=4000,
)
QUICK = Workload(
    playout_games=20_000,
    python_games=40,
    reference_games=3,
    searches=2,
    simulations=1000,
    vector_steps=40,
    garden_games=500,
    garden_lists=5000,
    garden_simulations=1000,
)

VECTOR_GAMES = 64
"""Games a ``VectorGames`` of the benchmark steps together (two players, first legal actions)."""

TARGETS: dict[str, tuple[str, float]] = {
    "native_placements_per_s": (">=", 20_000_000),
    "batch_over_native": (">=", 0.9),
    "play_call_ns": ("<=", 1000),
    "native_legal_moves_ns": ("<=", 1000),
    "native_over_reference": (">=", 1000),
    "ismcts_sims_per_s": (">=", 200_000),
    "threads_speedup_2": (">=", 1.8),
}
"""The performance targets of issue 4: figure -> (comparison, bound)."""

UNITS = {
    "_per_s": "/s",
    "_ns": "ns",
    "_over_": "x",
    "_speedup_": "x",
}


def best_of(repeat: int, *works: Callable[[], tuple[float, Any]]) -> list[tuple[float, Any]]:
    """For each work (which returns seconds and a result), the shortest of ``repeat`` runs and its
    result. The runs are interleaved, so works compared as a ratio meet the same spells of noise
    from other tenants of the machine. Every run of a work must give the same result."""
    runs: list[list[tuple[float, Any]]] = [[] for _ in works]
    for _ in range(repeat):
        for work, done in zip(works, runs, strict=True):
            done.append(work())
    best = []
    for done in runs:
        results = {json.dumps(result, sort_keys=True, default=str) for _, result in done}
        if len(results) != 1:
            raise AssertionError(f"a seeded workload gave different results: {sorted(results)}")
        best.append((min(seconds for seconds, _ in done), done[0][1]))
    return best


def timed(work: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def python_loop(rules: Rules, games: int) -> tuple[int, list[list[int]], list[list[Move]]]:
    """The loop a Python user writes: ``legal_moves``, pick one uniformly, ``play``. Returns the
    placements, each game's scores and each game's moves (game ``i`` is dealt by seed
    ``SEED + i``)."""
    choose = random.Random(SEED)
    placements = 0
    scores = []
    played = []
    for index in range(games):
        game = Game(rules, seed=SEED + index)
        while not game.over:
            moves = game.legal_moves
            game.play(moves[choose.randrange(len(moves))])
            placements += 1
        scores.append(game.scores)
        played.append(game.moves)
    return placements, scores, played


def reference_playouts(rules: Rules, games: int) -> tuple[int, list[list[int]]]:
    """The benchmark policy on the reference engine: a uniformly random empty route cell, then
    a uniformly random legal distinct rotation of the tile in hand."""
    choose = random.Random(SEED)
    placements = 0
    scores = []
    for index in range(games):
        pile = list(Game(rules, seed=SEED + index).pile)
        ref = RefGame.from_rules(rules, pile)
        while not ref.over and ref.to_move is not None:
            tile = choose.choice(ref.hands[ref.to_move])
            q, r = choose.choice([cell for cell in ROUTE_CELLS if cell not in ref.tiles])
            rotations = [
                rho for rho in canonical_rotations(tile) if ref.is_legal((tile, rho, q, r))
            ]
            ref.play((tile, choose.choice(rotations), q, r))
            placements += 1
        scores.append(ref.scores)
    return placements, scores


def reference_loop(rules: Rules, games: int) -> tuple[int, list[list[int]]]:
    """:func:`python_loop` on the reference engine: the same choices give the same games."""
    choose = random.Random(SEED)
    placements = 0
    scores = []
    for index in range(games):
        ref = RefGame.from_rules(rules, list(Game(rules, seed=SEED + index).pile))
        while moves := ref.legal_moves():
            ref.play(moves[choose.randrange(len(moves))])
            placements += 1
        scores.append(ref.scores)
    return placements, scores


def call_costs(rules: Rules, played: list[list[Move]], repeat: int) -> dict[str, float]:
    """Nanoseconds per Python call of ``play(move)`` (replaying the games :func:`python_loop`
    played), and of ``legal_moves`` and ``clone()`` on every position met in them."""
    positions: list[Game] = []
    for index, moves in enumerate(played):
        game = Game(rules, seed=SEED + index)
        for move in moves:
            positions.append(game.clone())
            game.play(move)
    calls = len(positions)

    def replay() -> tuple[float, int]:
        fresh = [Game(rules, seed=SEED + index) for index in range(len(played))]
        start = time.perf_counter()
        for game, moves in zip(fresh, played, strict=True):
            for move in moves:
                game.play(move)
        return time.perf_counter() - start, calls

    def legal_all() -> tuple[float, int]:
        return timed(lambda: sum(len(g.legal_moves) for g in positions))

    def clone_all() -> tuple[float, int]:
        return timed(lambda: len([g.clone() for g in positions]))

    (play_s, _), (legal_s, _), (clone_s, _) = best_of(repeat, replay, legal_all, clone_all)
    return {
        "play_call_ns": play_s / calls * 1e9,
        "legal_moves_call_ns": legal_s / calls * 1e9,
        "clone_call_ns": clone_s / calls * 1e9,
    }


def ismcts_searches(
    position: Game, work: Workload, threads: int
) -> Callable[[], tuple[float, list[str]]]:
    """A timed run of ``work.searches`` searches from ``position`` on ``threads`` threads."""

    def searches() -> tuple[float, list[str]]:
        bot = IsmctsBot(work.simulations, threads=threads, seed=SEED)
        start = time.perf_counter()
        results = [bot.search(position) for _ in range(work.searches)]
        seconds = time.perf_counter() - start
        if any(r.simulations != work.simulations for r in results):
            raise AssertionError("a search stopped short of its simulation budget")
        # Root-parallel searches are seeded per thread, so one thread count gives one result.
        return seconds, [str(r.best) for r in results]

    return searches


def first_legal(legal: Any, masks: bool) -> Any:
    """Each game's first legal action in a ``VectorGames`` result (ignored where none is)."""
    return legal.argmax(axis=1) if masks else legal[:, 0]


def vector_seeds(entry: GameEntry[Any, Any, Any], steps: int) -> list[list[int]]:
    """The game seeds of the benchmark's ``VectorGames`` of ``entry``'s game after each of its
    ``steps`` steps (and before the first): where one changes, that game started its next
    episode on that step and played no move."""
    vector = _native.VectorGames(VECTOR_GAMES, entry.default_rules(2), seed=SEED)
    _, legal, _ = vector.reset()
    seeds = [vector.game_seeds]
    for _ in range(steps):
        _, legal, *_ = vector.step(first_legal(legal, vector.legal_form == "mask"))
        seeds.append(vector.game_seeds)
    return seeds


def vector_moves(entry: GameEntry[Any, Any, Any], steps: int) -> tuple[float, None]:
    """Seconds of ``steps`` steps of a ``VectorGames`` of ``VECTOR_GAMES`` games of
    ``entry``'s game, two players, the first legal action in every game (each step writes every
    game's observation and legal actions)."""
    vector = _native.VectorGames(VECTOR_GAMES, entry.default_rules(2), seed=SEED, copy=False)
    _, legal, _ = vector.reset()
    masks = vector.legal_form == "mask"
    clock = time.perf_counter()
    for _ in range(steps):
        _, legal, *_ = vector.step(first_legal(legal, masks))
    return time.perf_counter() - clock, None


def game_loop_moves(entry: GameEntry[Any, Any, Any], seeds: list[list[int]]) -> tuple[float, int]:
    """Seconds of a Python loop over ``entry``'s ``Game`` playing the moves of
    :func:`vector_moves` (``seeds``: :func:`vector_seeds`), each with the mover's observation
    and the legal actions, and how many moves that is."""
    rules = entry.default_rules(2)
    clock = time.perf_counter()
    games = [entry.game(rules, seed=seed) for seed in seeds[0]]
    played = 0
    for before, after in itertools.pairwise(seeds):
        for env, game in enumerate(games):
            if after[env] != before[env]:
                games[env] = entry.game(rules, seed=after[env])
                continue
            game.observation(game.to_move)
            game.play(game.legal_actions()[0])
            played += 1
    return time.perf_counter() - clock, played


GARDEN_WORKLOADS: dict[str, tuple[str, int, str]] = {
    "queens_garden_policy_games_per_s_2p": ("policy", 2, "garden_games"),
    "queens_garden_policy_games_per_s_4p": ("policy", 4, "garden_games"),
    "queens_garden_random_moves_per_s": ("random", 2, "garden_games"),
    "queens_garden_crowded_lists_per_s": ("legal", 2, "garden_lists"),
    "queens_garden_ismcts_sims_per_s": ("opening", 2, "garden_simulations"),
    "queens_garden_ismcts_midgame_sims_per_s": ("midgame", 2, "garden_simulations"),
}
"""Queen's Garden figure -> (workload of ``queens_garden::bench``, players, its count in
:class:`Workload`). Policy games are counted in games, random playouts in moves (a tenth of
the policy's games, from the set-up of seed 1), crowded lists in lists of the longest
legal-move list met in seeded games, ISMCTS in simulations of one 1-thread search."""


def garden_figures(work: Workload, repeat: int) -> tuple[dict[str, float], dict[str, str]]:
    """The Queen's Garden figures of :data:`GARDEN_WORKLOADS` and each one's checksum."""

    def native(workload: str, players: int, count: int) -> Callable[[], tuple[float, Any]]:
        def once() -> tuple[float, tuple[int, int]]:
            done, checksum, seconds = _garden.native_bench(workload, _garden.Rules(players), count)
            return seconds, (done, checksum)

        return once

    counts = {
        name: getattr(work, field) // (10 if workload == "random" else 1)
        for name, (workload, _, field) in GARDEN_WORKLOADS.items()
    }
    runs = best_of(
        repeat,
        *(
            native(workload, players, counts[name])
            for name, (workload, players, _) in GARDEN_WORKLOADS.items()
        ),
    )
    figures = {}
    checksums = {}
    for (name, (workload, _, _)), (seconds, (done, checksum)) in zip(
        GARDEN_WORKLOADS.items(), runs, strict=True
    ):
        # Games for the policy, lists for the crowded position: the count asked for.
        units = counts[name] if workload in ("policy", "legal") else done
        figures[name] = units / seconds
        checksums[name.replace("_per_s", "")] = f"{checksum:016x}"
    return figures, checksums


def midgame(rules: Rules) -> Game:
    """A seeded position 20 placements into a game."""
    game = Game(rules, seed=SEED)
    choose = random.Random(SEED)
    for _ in range(20):
        moves = game.legal_moves
        game.play(moves[choose.randrange(len(moves))])
    return game


def run(quick: bool = False, repeat: int = 3) -> dict[str, Any]:
    """Every figure of the benchmark, with its checksum, as one dict (``indigo bench --json``)."""
    work = QUICK if quick else FULL
    rules = Rules.indigo(2)
    clock = time.perf_counter()
    out: dict[str, Any] = {}

    def native() -> tuple[float, tuple[int, int]]:
        _, placements, checksum, seconds = _native.native_playouts(rules, SEED, work.playout_games)
        return seconds, (placements, checksum)

    def batch() -> tuple[float, tuple[int, int]]:
        seconds, result = timed(
            lambda: simulate(
                ["playout"], work.playout_games, rules=rules, seed=SEED, threads=1, deal="pcg"
            )
        )
        return seconds, (int(result.placements.sum()), result.checksum)

    def batch_two_threads() -> tuple[float, int]:
        seconds, result = timed(
            lambda: simulate(
                ["playout"], work.playout_games, rules=rules, seed=SEED, threads=2, deal="pcg"
            )
        )
        return seconds, result.checksum

    # Warm up: the first batch imports numpy and starts the thread pool.
    simulate(["playout"], 10, rules=rules, seed=SEED, threads=2, deal="pcg")
    (
        (native_s, (placements, native_checksum)),
        (batch_s, (batch_placements, batch_checksum)),
        (batch2_s, _),
    ) = best_of(repeat, native, batch, batch_two_threads)
    out["native_placements_per_s"] = placements / native_s
    out["batch_placements_per_s"] = batch_placements / batch_s
    out["batch_over_native"] = out["batch_placements_per_s"] / out["native_placements_per_s"]
    out["batch_threads_speedup_2"] = batch_s / batch2_s
    out["native_checksum"] = f"{native_checksum:016x}"
    out["batch_checksum"] = f"{batch_checksum:016x}"
    if batch_checksum != native_checksum or batch_placements != placements:
        raise AssertionError("the batch API played other games than the native loop")

    native_costs = _native.native_call_costs(rules, SEED, 100, 5 if quick else 40)
    for name, ns in native_costs.items():
        out[f"native_{name}"] = ns

    [(loop_s, (loop_placements, loop_scores, played))] = best_of(
        repeat, lambda: timed(lambda: python_loop(rules, work.python_games))
    )
    out["python_loop_placements_per_s"] = loop_placements / loop_s
    out.update(call_costs(rules, played, repeat))

    [(ref_s, (ref_placements, ref_scores))] = best_of(
        1, lambda: timed(lambda: reference_playouts(rules, work.reference_games))
    )
    out["reference_placements_per_s"] = ref_placements / ref_s
    [(ref_loop_s, (ref_loop_placements, ref_loop_scores))] = best_of(
        1, lambda: timed(lambda: reference_loop(rules, work.reference_games))
    )
    out["reference_loop_placements_per_s"] = ref_loop_placements / ref_loop_s
    out["python_loop_over_reference_loop"] = (
        out["python_loop_placements_per_s"] / out["reference_loop_placements_per_s"]
    )
    if ref_loop_scores != loop_scores[: work.reference_games]:
        raise AssertionError("the reference engine and indigo disagree on the same games")
    out["native_over_reference"] = (
        out["native_placements_per_s"] / out["reference_placements_per_s"]
    )

    opening = Game(rules, seed=SEED)
    (one_s, _), (two_s, _), (mid_s, _) = best_of(
        repeat,
        ismcts_searches(opening, work, 1),
        ismcts_searches(opening, work, 2),
        ismcts_searches(midgame(rules), work, 1),
    )
    simulations = work.searches * work.simulations
    out["ismcts_sims_per_s"] = simulations / one_s
    out["ismcts_midgame_sims_per_s"] = simulations / mid_s
    out["threads_speedup_2"] = one_s / two_s

    for entry in GAMES:
        key = entry.name.replace("-", "_")
        seeds = vector_seeds(entry, work.vector_steps)
        [(vector_s, _), (loop_s, moves)] = best_of(
            repeat,
            functools.partial(vector_moves, entry, work.vector_steps),
            functools.partial(game_loop_moves, entry, seeds),
        )
        out[f"{key}_vector_moves_per_s"] = moves / vector_s
        out[f"{key}_game_loop_moves_per_s"] = moves / loop_s
        out[f"{key}_vector_over_game_loop"] = loop_s / vector_s

    garden, out["queens_garden_checksums"] = garden_figures(work, repeat)
    out.update(garden)

    games = {
        "playouts": [placements, native_checksum],
        "python_loop": loop_scores,
        "reference": ref_scores,
        "reference_loop": ref_loop_scores,
    }
    digest = hashlib.blake2b(json.dumps(games).encode(), digest_size=8)
    out["checksum"] = digest.hexdigest()
    out["workload"] = {**work.__dict__, "seed": SEED, "repeat": repeat, "quick": quick}
    out["machine"] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
    }
    out["seconds"] = time.perf_counter() - clock
    out["targets"] = {
        name: {"bound": f"{op} {bound:g}", "met": met(out[name], op, bound)}
        for name, (op, bound) in TARGETS.items()
    }
    return out


def met(value: float, op: str, bound: float) -> bool:
    return value >= bound if op == ">=" else value <= bound


def unit(name: str) -> str:
    return next((u for key, u in UNITS.items() if key in name), "")


def report(figures: dict[str, Any]) -> str:
    """The figures as an aligned table, one per line, with units and the targets they meet."""
    lines = []
    for name, value in figures.items():
        if not isinstance(value, float) or name == "seconds":
            continue
        target = figures["targets"].get(name)
        verdict = (
            f"  target {target['bound']}: {'met' if target['met'] else 'MISSED'}" if target else ""
        )
        shown = f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
        lines.append(f"{name:<40}{shown:>16} {unit(name):<3}{verdict}")
    work = figures["workload"]
    lines.append(f"{'checksum':<40}{figures['checksum']:>16}")
    lines.append(
        f"workload: seed {work['seed']}, {'quick' if work['quick'] else 'full'}, best of "
        f"{work['repeat']}; {figures['seconds']:.1f} s on {figures['machine']['cpus']} CPUs"
    )
    return "\n".join(lines)
