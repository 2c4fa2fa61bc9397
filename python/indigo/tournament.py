"""Tournaments between bots: seatings that rotate every bot through every seat, games played in
Rust by :func:`indigo.simulate`, and win rates with Wilson 95 % confidence intervals.

>>> from indigo.tournament import run_tournament
>>> result = run_tournament(["greedy", "random"], players=2, games=4, seed=1)
>>> [r.bot for r in result.results], result.games
(['greedy', 'random'], 4)
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from rich.console import Console
from rich.progress import MofNCompleteColumn, Progress
from rich.table import Table

from indigo._native import Rules, Simulation, normalize_bot_spec, simulate

__all__ = [
    "BotResult",
    "TournamentResult",
    "lineups",
    "print_table",
    "run_tournament",
    "run_with_progress",
    "summarise",
    "wilson_interval",
]

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""


@dataclass(frozen=True)
class BotResult:
    """One bot's record over a tournament."""

    bot: str
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_points: float
    mean_points_by_seat: list[float | None]

    def to_json(self) -> dict[str, Any]:
        """The object the ``--json`` output lists under ``results``."""
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "mean_points": self.mean_points,
            "mean_points_by_seat": self.mean_points_by_seat,
        }


@dataclass(frozen=True)
class TournamentResult:
    """Every bot's record, in the order the bots were given."""

    games: int
    players: int
    results: list[BotResult]

    def to_json(self) -> dict[str, Any]:
        """``{"games", "players", "results": [...]}`` as ``indigo tournament --json`` prints."""
        return {
            "games": self.games,
            "players": self.players,
            "results": [r.to_json() for r in self.results],
        }


def lineups(bots: int, players: int) -> list[list[int]]:
    """Seatings in which every bot sits in every seat equally often.

    With at least as many bots as seats: every ordered choice of distinct bots (so every
    pairing meets equally too). With fewer bots: the bots repeated round the table, rotated
    one seat at a time.
    """
    if bots < 1 or players < 1:
        raise ValueError("a tournament needs at least one bot and one seat")
    if bots >= players:
        return [list(p) for p in itertools.permutations(range(bots), players)]
    return [[(seat + shift) % bots for seat in range(players)] for shift in range(bots)]


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion; ``(0.0, 1.0)`` with no trials."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def summarise(simulation: Simulation, bots: Sequence[str]) -> TournamentResult:
    """Each bot's games, wins (a shared win counts for each winner), interval and points."""
    seats = simulation.seats
    scores = simulation.scores
    winners = simulation.winners
    games, players = seats.shape
    results = []
    for b, name in enumerate(bots):
        sitting = seats == b
        played = sitting.any(axis=1)
        won = (sitting & winners).any(axis=1)
        n, wins = int(played.sum()), int(won.sum())
        by_seat: list[float | None] = [
            float(scores[sitting[:, s], s].mean()) if sitting[:, s].any() else None
            for s in range(players)
        ]
        results.append(
            BotResult(
                bot=name,
                games=n,
                wins=wins,
                win_rate=wins / n if n else 0.0,
                ci95=wilson_interval(wins, n),
                mean_points=float(scores[sitting].mean()) if n else 0.0,
                mean_points_by_seat=by_seat,
            )
        )
    return TournamentResult(games=int(games), players=int(players), results=results)


def run_tournament(
    bots: Sequence[str],
    *,
    players: int,
    games: int,
    rules: Rules | None = None,
    seed: int = 0,
    threads: int = 0,
    progress: Callable[[int, int], object] | None = None,
) -> TournamentResult:
    """Play at least ``games`` games, rounded up to whole rounds of :func:`lineups`, so that
    every bot sits in every seat equally often; game ``i`` depends only on ``seed`` and ``i``.
    """
    names = [normalize_bot_spec(b) for b in bots]
    rules = rules if rules is not None else Rules.indigo(players)
    if rules.players != players:
        raise ValueError(f"the rules are for {rules.players} players, not {players}")
    seatings = lineups(len(names), players)
    total = math.ceil(games / len(seatings)) * len(seatings)
    simulation = simulate(
        names,
        total,
        rules=rules,
        seed=seed,
        lineups=seatings,
        threads=threads,
        progress=progress,
    )
    return summarise(simulation, names)


def print_table(result: TournamentResult, *, file: TextIO | None = None) -> None:
    """The results as a rich table: win rate with its interval, mean points, points by seat."""
    table = Table(
        title=f"{result.games} games, {result.players} players",
        caption="a shared win counts as a win for each winner; CI: Wilson 95 %",
    )
    for column in ("bot", "games", "wins", "win rate", "95 % CI", "mean points"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for seat in range(result.players):
        table.add_column(f"seat {seat}", justify="right")
    for r in result.results:
        low, high = r.ci95
        table.add_row(
            r.bot,
            str(r.games),
            str(r.wins),
            f"{100 * r.win_rate:.1f} %",
            f"{100 * low:.1f}-{100 * high:.1f} %",
            f"{r.mean_points:.2f}",
            *("-" if p is None else f"{p:.2f}" for p in r.mean_points_by_seat),
        )
    Console(file=file or sys.stdout).print(table)


def run_with_progress(
    bots: Sequence[str], *, players: int, games: int, rules: Rules, seed: int, threads: int
) -> TournamentResult:
    """:func:`run_tournament` with a rich progress bar on standard error."""
    console = Console(file=sys.stderr)
    columns = (*Progress.get_default_columns(), MofNCompleteColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("games", total=None)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return run_tournament(
            bots,
            players=players,
            games=games,
            rules=rules,
            seed=seed,
            threads=threads,
            progress=report,
        )
