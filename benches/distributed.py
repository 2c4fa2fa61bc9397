"""Figures for docs/distributed.md: games per second on this machine against the same games as
Ray tasks, and what one Ray task costs.

Run:
    python benches/distributed.py [--address HOST:PORT] [--repeat 3]

Without ``--address`` Ray is started on this machine (every CPU). Three workloads, each a
tournament's games (``play_games``, seed 1):

* ``greedy``: 20,000 games of ``greedy`` against ``random``, about 0.08 ms of one core a game;
* ``ismcts``: 200 games of ``ismcts:300`` against ``greedy``, about 14 ms of one core a game;
* ``empty tasks``: 400 spans of one ``playout`` game (about 2 us), so a task is all overhead.

Local runs use every core through the batch API in one span; Ray runs one task per span on one
CPU each, with the default span (four per worker). Runs of a workload alternate between the
backends, and each figure is the best of ``--repeat``. Prints one JSON object: games/s of each
backend, their ratio, and the overhead per task (wall time of the empty tasks per task, and CPU
time per task: wall time x workers / tasks).

``selfplay`` (on this machine) times the ``ismcts`` workload three ways: ``simulate``,
``self_play`` (which keeps the samples) and ``run_selfplay`` (which also writes the shards), and
gives the shards' bytes per sample.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from indigo import Rules, self_play, simulate
from indigo.distributed import Backend, LocalBackend, RayBackend
from indigo.selfplay import run_selfplay
from indigo.tournament import lineups, play_games

WORKLOADS: dict[str, tuple[list[str], int, int | None]] = {
    "greedy": (["greedy", "random"], 20_000, None),
    "ismcts": (["ismcts:300", "greedy"], 200, None),
    "empty tasks": (["playout"], 400, 1),
}


def seconds(backend: Backend, bots: list[str], games: int, span: int | None) -> float:
    """Wall time of one run of a workload."""
    rules = Rules.indigo(2)
    start = time.perf_counter()
    play_games(
        bots,
        games,
        rules=rules,
        seed=1,
        seatings=lineups(len(bots), 2),
        backend=backend,
        span=span,
    )
    return time.perf_counter() - start


def measure(address: str | None, repeat: int) -> dict[str, Any]:
    """Every workload on both backends, interleaved, best of ``repeat``."""
    local = LocalBackend()
    with RayBackend(address) as ray:
        workers = ray.cpus()
        seconds(ray, ["playout"], 2 * workers, 1)  # start the workers
        out: dict[str, Any] = {"cpus_here": os.cpu_count(), "ray_workers": workers}
        for name, (bots, games, span) in WORKLOADS.items():
            best = {"local": float("inf"), "ray": float("inf")}
            for _ in range(repeat):
                best["local"] = min(best["local"], seconds(local, bots, games, span))
                best["ray"] = min(best["ray"], seconds(ray, bots, games, span))
            figures = {f"{k}_games_per_s": games / v for k, v in best.items()}
            figures["ray_over_local"] = best["local"] / best["ray"]
            if span == 1:
                figures["ray_wall_ms_per_task"] = 1000 * best["ray"] / games
                figures["ray_cpu_ms_per_task"] = 1000 * best["ray"] * workers / games
                figures["local_ms_per_span"] = 1000 * best["local"] / games
            out[name] = figures
    return out


def selfplay_cost(repeat: int) -> dict[str, Any]:
    """Games/s of the ``ismcts`` workload without samples, with samples, and written out."""
    bots, games, _ = WORKLOADS["ismcts"]
    seatings = lineups(len(bots), 2)
    best = {"simulate": float("inf"), "self_play": float("inf"), "run_selfplay": float("inf")}
    for _ in range(repeat):
        start = time.perf_counter()
        simulate(bots, games, seed=1, lineups=seatings)
        best["simulate"] = min(best["simulate"], time.perf_counter() - start)
        start = time.perf_counter()
        samples = self_play(bots, games, seed=1, lineups=seatings).samples
        best["self_play"] = min(best["self_play"], time.perf_counter() - start)
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            run_selfplay(bots, games, folder, seed=1)
            best["run_selfplay"] = min(best["run_selfplay"], time.perf_counter() - start)
            size = sum(p.stat().st_size for p in Path(folder).glob("*.parquet"))
    out: dict[str, Any] = {f"{k}_games_per_s": games / v for k, v in best.items()}
    out["self_play_over_simulate"] = best["simulate"] / best["self_play"]
    out["run_selfplay_over_simulate"] = best["simulate"] / best["run_selfplay"]
    out["parquet_bytes_per_sample"] = size / samples
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", help="a running Ray cluster (default: start one here)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    figures = measure(args.address, args.repeat)
    figures["selfplay"] = selfplay_cost(args.repeat)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
