"""Tournaments between bots: seatings that rotate every bot through every seat, games played in
Rust by :func:`indigo.simulate` on a backend (this machine, or a Ray cluster), and win rates
with Wilson 95 % confidence intervals.

>>> from indigo.tournament import run_tournament
>>> result = run_tournament(["greedy", "random"], players=2, games=4, seed=1)
>>> [r.bot for r in result.results], result.games
(['greedy', 'random'], 4)
"""

from __future__ import annotations

import functools
import itertools
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final, Protocol, TextIO

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.progress import MofNCompleteColumn, Progress
from rich.table import Table

from indigo._native import IndigoError, Rules, normalize_bot_spec
from indigo._native import queens_garden as _qg
from indigo.bots import BotLike, bot_name
from indigo.distributed import (
    MAX_GAMES,
    Backend,
    LocalBackend,
    RunError,
    RunSettings,
    Span,
    check_local,
    default_span,
    spans,
)
from indigo.games import find_game
from indigo.policies import simulate

__all__ = [
    "MAX_SEATINGS",
    "BotResult",
    "GameTable",
    "TournamentResult",
    "lineups",
    "play_games",
    "print_table",
    "progress_bar",
    "run_tournament",
    "run_with_progress",
    "seating_count",
    "summarise",
    "tournament_games",
    "wilson_interval",
]

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""

MAX_SEATINGS: Final = 100_000
"""The most seatings a lineup may have. A round of a tournament plays each once, so this also
bounds the smallest tournament (60 bots in 4 seats would need 11,703,240)."""


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


def seating_count(bots: int, players: int) -> int:
    """How many seatings :func:`lineups` makes, computed without making them. Raises
    :class:`~indigo.distributed.RunError` over :data:`MAX_SEATINGS`."""
    if bots < 1 or players < 1:
        raise RunError("a tournament needs at least one bot and one seat")
    if bots < players:
        return bots
    # Past 8 seats the count is only bounded below (8 factors already pass the cap).
    count = math.perm(bots, min(players, 8))
    if count > MAX_SEATINGS:
        more = "more than " if players > 8 else ""
        raise RunError(
            f"{bots} bots in {players} seats would need {more}{count:,} seatings (every "
            f"ordered choice of {players} bots), and as many games at least; the cap is "
            f"{MAX_SEATINGS:,}: use fewer bots"
        )
    return count


def tournament_games(games: int, bots: int, players: int) -> int:
    """``games`` rounded up to whole rounds of :func:`lineups`. Raises
    :class:`~indigo.distributed.RunError` when that is more than
    :data:`~indigo.distributed.MAX_GAMES` or the seatings are too many."""
    if games < 1:
        raise RunError(f"games must be at least 1, not {games}")
    seatings = seating_count(bots, players)
    total = math.ceil(games / seatings) * seatings
    if total > MAX_GAMES:
        rounded = "" if total == games else f" (rounded up to {total:,}: whole rounds)"
        raise RunError(f"{games:,} games{rounded} is more than a run may play: {MAX_GAMES:,}")
    return total


def lineups(bots: int, players: int) -> list[list[int]]:
    """Seatings in which every bot sits in every seat equally often.

    With at least as many bots as seats: every ordered choice of distinct bots (so every
    pairing meets equally too). With fewer bots: the bots repeated round the table, rotated
    one seat at a time. At most :data:`MAX_SEATINGS` (:func:`seating_count` checks first).
    """
    seating_count(bots, players)
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


class Games(Protocol):
    """Games as rows: who sat where, their points and who won (a :class:`~indigo.Simulation`
    or a :class:`GameTable`)."""

    @property
    def seats(self) -> npt.NDArray[np.int32]: ...
    @property
    def scores(self) -> npt.NDArray[np.int32]: ...
    @property
    def winners(self) -> npt.NDArray[np.bool_]: ...


@dataclass(frozen=True, eq=False)
class GameTable:
    """Games as rows, as :class:`~indigo.Simulation` holds them, from any number of spans."""

    seats: npt.NDArray[np.int32]
    """Which bot sat in each seat, games x players."""
    scores: npt.NDArray[np.int32]
    """Points, games x players."""
    winners: npt.NDArray[np.bool_]
    """Whether each seat won, games x players."""
    placements: npt.NDArray[np.int32]
    """Tiles placed per game."""

    @classmethod
    def concatenate(cls, tables: Sequence[GameTable]) -> GameTable:
        """The rows of ``tables`` one after another."""
        return cls(
            *(np.concatenate([getattr(t, f) for t in tables]) for f in cls.__dataclass_fields__)
        )

    def equals(self, other: GameTable) -> bool:
        """Whether both hold the same games."""
        return all(
            np.array_equal(getattr(self, f), getattr(other, f)) for f in self.__dataclass_fields__
        )


def summarise(simulation: Games, bots: Sequence[str]) -> TournamentResult:
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


def _simulate_span(
    run: RunSettings, span: Span, threads: int, report: Callable[[int], object] | None
) -> GameTable:
    """One span of a tournament's games (module level, so Ray can ship it by reference)."""
    sim = simulate(run.bots, span.games, **run.arguments(span, threads, report))
    return GameTable(sim.seats, sim.scores, sim.winners, sim.placements)


def play_games(
    bots: Sequence[BotLike],
    games: int,
    *,
    rules: Rules | _qg.Rules,
    seed: int,
    seatings: list[list[int]],
    backend: Backend | None = None,
    span: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> GameTable:
    """Games ``0..games-1`` as :func:`~indigo.simulate` plays them, cut into spans of ``span``
    games (default: :func:`~indigo.distributed.default_span`) and run on ``backend``
    (default: this machine). The rows are the same whatever the backend, workers or span."""
    backend = backend if backend is not None else LocalBackend()
    size = span if span is not None else default_span(backend, games)
    work = functools.partial(_simulate_span, RunSettings(list(bots), rules, seed, seatings))
    done = dict(backend.map(work, spans(games, size), progress))
    return GameTable.concatenate([done[s] for s in sorted(done, key=lambda s: s.start)])


def run_tournament(
    bots: Sequence[BotLike],
    *,
    players: int,
    games: int,
    rules: Rules | _qg.Rules | None = None,
    seed: int = 0,
    threads: int = 0,
    backend: Backend | None = None,
    span: int | None = None,
    progress: Callable[[int, int], object] | None = None,
    game: str = "indigo",
) -> TournamentResult:
    """Play at least ``games`` games, rounded up to whole rounds of :func:`lineups`, so that
    every bot sits in every seat equally often; game ``i`` depends only on ``seed`` and ``i``.
    They run on ``backend`` (default: this machine on ``threads`` threads, 0 for every core)
    in spans of ``span`` games; ``progress(done, total)`` hears how many games are done.
    Raises :class:`~indigo.distributed.RunError` before playing when the lineup needs more
    than :data:`MAX_SEATINGS` seatings or the games are more than
    :data:`~indigo.distributed.MAX_GAMES`. ``game`` names the game (:data:`indigo.games.GAMES`):
    ``"queens-garden"`` plays Queen's Garden (``rules``: :class:`indigo.queens_garden.Rules`);
    ``rules`` default to the game's for ``players``.

    A bot is a spec, or a bot object or policy callable (:data:`indigo.bots.BotLike`, named
    by :func:`indigo.bots.bot_name`), whose games :func:`indigo.simulate` plays in Python:
    on the local backend only (a Ray worker cannot be handed a Python object).
    """
    try:
        entry = find_game(game)
    except IndigoError as exc:
        raise RunError(str(exc)) from None
    if rules is None:
        rules = entry.default_rules(players)
    if not isinstance(rules, entry.rules):
        raise RunError(f"the rules are not rules of {game}")
    if rules.players != players:
        raise RunError(f"the rules are for {rules.players} players, not {players}")
    check_local(bots, backend)
    total = tournament_games(games, len(bots), players)
    names = [bot_name(b) for b in bots]
    entries = [normalize_bot_spec(b) if isinstance(b, str) else b for b in bots]
    seatings = lineups(len(names), players)
    table = play_games(
        entries,
        total,
        rules=rules,
        seed=seed,
        seatings=seatings,
        backend=backend if backend is not None else LocalBackend(threads),
        span=span,
        progress=None if progress is None else lambda done: progress(done, total),
    )
    return summarise(table, names)


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


@contextmanager
def progress_bar(what: str = "games") -> Iterator[Callable[[int, int], None]]:
    """A rich progress bar on standard error, as a ``progress(done, total)`` callback; nothing
    (not even a blank line) when standard error is not a terminal."""
    console = Console(file=sys.stderr)
    columns = (*Progress.get_default_columns(), MofNCompleteColumn())
    with Progress(
        *columns, console=console, transient=True, disable=not console.is_terminal
    ) as bar:
        task = bar.add_task(what, total=None)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield report


def run_with_progress(
    bots: Sequence[BotLike],
    *,
    players: int,
    games: int,
    rules: Rules | _qg.Rules,
    seed: int,
    threads: int = 0,
    backend: Backend | None = None,
    span: int | None = None,
) -> TournamentResult:
    """:func:`run_tournament` with a rich progress bar on standard error."""
    with progress_bar() as report:
        return run_tournament(
            bots,
            players=players,
            games=games,
            rules=rules,
            seed=seed,
            threads=threads,
            backend=backend,
            span=span,
            progress=report,
            game=find_game(rules).name,
        )
