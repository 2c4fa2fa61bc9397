"""Batches with Python bots: :func:`simulate` and :func:`self_play` take bot objects and
policy callables as well as specs (:data:`indigo.bots.BotLike`).

When every entry is a spec the games run in Rust as before (:func:`indigo._native.simulate`);
otherwise each game is :func:`indigo.play_game` on this thread, a Python loop that is slower
(a game costs what its bots cost, plus about 50 to 70 us a move for the loop and each bot's
resampled view; docs/api.md) but plays the same games:
game ``i`` has the same seed, seating and pile, and a spec's bot the same seed, so the games
between specs come out the same on either path.

>>> import indigo
>>> def first_legal(game):
...     return game.legal_actions()[0]
>>> sim = indigo.simulate(["greedy", first_legal], 4, seed=1, lineups=[[0, 1], [1, 0]])
>>> sim.bots, sim.scores.shape
(['greedy', 'first_legal'], (4, 2))
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

from indigo import _native
from indigo._native import (
    ACTION_COUNT,
    OBSERVATION_SIZE,
    Game,
    IndigoError,
    IsmctsBot,
    Move,
    Rules,
    SelfPlayBatch,
    Simulation,
    seat_seed,
)
from indigo._native import queens_garden as _qg
from indigo.bots import Bot, BotLike, as_bot, bot_name, play_game
from indigo.games import find_game

__all__ = ["PolicySelfPlayBatch", "PolicySimulation", "self_play", "simulate"]

# Stand-ins whose native games give the seatings and game seeds (and check every argument)
# at a few microseconds a game.
_STAND_IN = "playout"


@dataclass(frozen=True, eq=False)
class PolicySimulation:
    """:func:`simulate`'s results when a bot is a Python object: what
    :class:`~indigo.Simulation` holds but its ``checksum`` (a fingerprint the Rust batch
    makes)."""

    bots: list[str]
    """Each bot's name (:func:`indigo.bots.bot_name`)."""
    scores: npt.NDArray[np.int32]
    """Points, games x players."""
    winners: npt.NDArray[np.bool_]
    """Whether each seat won, games x players (a shared win marks several)."""
    placements: npt.NDArray[np.int32]
    """Tiles placed per game."""
    seats: npt.NDArray[np.int32]
    """Which bot (index into :attr:`bots`) sat in each seat, games x players."""
    game_seeds: npt.NDArray[np.uint64]
    """Each game's seed: ``Game(rules, seed=...)`` deals its pile."""
    start: int
    """Index of the first game."""
    rules: Rules
    deal: Literal["python"] = "python"
    game: Literal["indigo"] = "indigo"

    def __len__(self) -> int:
        return len(self.placements)

    def pile(self, index: int) -> list[int]:
        """Game ``index``'s pile, front first: ``Game(rules, pile=...)`` deals it."""
        if not 0 <= index < len(self):
            raise IndigoError(f"index must be 0..{len(self) - 1}, not {index}")
        return Game(self.rules, seed=int(self.game_seeds[index])).pile


def _all_specs(bots: Sequence[BotLike]) -> bool:
    return all(isinstance(bot, str) for bot in bots)


def _python_rules(rules: object) -> bool:
    """Whether Python bots may play under ``rules`` (``None``, or rules of a game they play;
    what is not rules the native run refuses)."""
    try:
        return rules is None or find_game(rules).python_bots
    except IndigoError:
        return True


def _python_path(
    bots: Sequence[BotLike], game: str, rules: object, deal: str, interval: float
) -> None:
    """Checks what only the native path takes."""
    if not (find_game(game).python_bots and _python_rules(rules)):
        raise IndigoError("Python bots play Indigo only: give Queen's Garden bots as specs")
    if deal != "python":
        raise IndigoError(f"deal={deal!r} is for specs only: Python bots play the python deal")
    if not (isinstance(interval, int | float) and interval > 0):
        raise IndigoError(f"interval must be a positive number, not {interval}")
    for bot in bots:
        as_bot(bot, seed=0)  # a bad entry fails before any game


def _games(
    plan: Simulation,
    bots: Sequence[BotLike],
    rules: Rules,
    progress: Callable[[int, int], object] | None,
    interval: float,
    seated: Callable[[int, int, BotLike], BotLike] = lambda _game, _seat, bot: bot,
) -> Iterator[tuple[int, Game]]:
    """Each game of ``plan`` (the stand-in run) played by :func:`play_game` with ``bots`` in
    its seats (``seated(game_seed, seat, entry)`` may stand in for an entry), reporting to
    ``progress`` every ``interval`` seconds and at the end."""
    reported = time.monotonic()
    total = len(plan)
    for i, (seats, game_seed) in enumerate(zip(plan.seats, plan.game_seeds, strict=True)):
        players = [seated(int(game_seed), s, bots[b]) for s, b in enumerate(seats)]
        yield i, play_game(players, rules=rules, seed=int(game_seed))
        if progress is not None and time.monotonic() - reported >= interval:
            progress(i + 1, total)
            reported = time.monotonic()
    if progress is not None:
        progress(total, total)


def simulate(
    bots: Sequence[BotLike],
    games: int,
    *,
    rules: Rules | _qg.Rules | None = None,
    seed: int | None = None,
    lineups: Sequence[Sequence[int]] | None = None,
    start: int = 0,
    threads: int = 0,
    progress: Callable[[int, int], object] | None = None,
    interval: float = 0.2,
    deal: Literal["python", "pcg"] = "python",
    game: str = "indigo",
) -> Simulation | PolicySimulation:
    """:func:`indigo._native.simulate` (its docs give the arguments) when every bot is a spec;
    else the same games played in Python (module docs), ``threads`` unused, returning a
    :class:`PolicySimulation`. Python bots play Indigo with the ``"python"`` deal."""
    arguments: dict[str, Any] = {
        "rules": rules,
        "seed": seed,
        "lineups": lineups,
        "start": start,
        "threads": threads,
    }
    if _all_specs(bots):  # the native fast path
        specs: list[str] = list(bots)  # type: ignore[arg-type]
        simulation: Simulation = find_game(game).simulate(
            specs, games, progress=progress, interval=interval, deal=deal, **arguments
        )
        return simulation
    _python_path(bots, game, rules, deal, interval)
    plan = _native.simulate([_STAND_IN] * len(bots), games, **arguments)
    rules = cast(Rules, rules) if rules is not None else Rules()  # Indigo's: checked
    scores = np.zeros_like(plan.scores)
    winners = np.zeros_like(plan.winners)
    placements = np.zeros_like(plan.placements)
    for i, played in _games(plan, bots, rules, progress, interval):
        scores[i] = played.scores
        winners[i, played.winners] = True
        placements[i] = len(played.moves)
    return PolicySimulation(
        bots=[bot_name(bot) for bot in bots],
        scores=scores,
        winners=winners,
        placements=placements,
        seats=plan.seats,
        game_seeds=plan.game_seeds,
        start=plan.start,
        rules=rules,
    )


@dataclass(frozen=True, eq=False)
class PolicySelfPlayBatch:
    """:func:`self_play`'s results when a bot is a Python object: the columns of
    :class:`~indigo.SelfPlayBatch` (no ``checksum``). A spec's ISMCTS bot has its root visits;
    a Python bot's moves are unsearched."""

    records: list[str]
    samples: int
    game: npt.NDArray[np.uint64]
    ply: npt.NDArray[np.uint16]
    seat: npt.NDArray[np.uint8]
    observation: npt.NDArray[np.float32]
    legal_mask: npt.NDArray[np.bool_]
    action: npt.NDArray[np.uint16]
    searched: npt.NDArray[np.bool_]
    visit_offsets: npt.NDArray[np.int64]
    visit_actions: npt.NDArray[np.uint16]
    visit_counts: npt.NDArray[np.uint32]
    outcome: npt.NDArray[np.float32]
    points: npt.NDArray[np.uint16]

    def __len__(self) -> int:
        return len(self.records)


class _VisitRecorder:
    """An ISMCTS bot that keeps each search's root visits, in the order it chose."""

    def __init__(self, bot: IsmctsBot) -> None:
        self.bot = bot
        self.visits: list[dict[int, int]] = []

    def choose(self, game: Game) -> Move:
        result = self.bot.search(game)
        self.visits.append(result.visits)
        return result.best


def self_play(
    bots: Sequence[BotLike],
    games: int,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    lineups: Sequence[Sequence[int]] | None = None,
    start: int = 0,
    threads: int = 0,
    progress: Callable[[int, int], object] | None = None,
    interval: float = 0.2,
    game: str = "indigo",
) -> SelfPlayBatch | _qg.SelfPlayBatch | PolicySelfPlayBatch:
    """The native self-play of ``game`` (:attr:`indigo.games.GameEntry.self_play`) when
    every bot is a spec; else the same games played in Python (module docs), ``threads``
    unused, returning a :class:`PolicySelfPlayBatch` with the same records and columns."""
    arguments: dict[str, Any] = {
        "rules": rules,
        "seed": seed,
        "lineups": lineups,
        "start": start,
        "threads": threads,
    }
    if _all_specs(bots):  # the native fast path
        batch: SelfPlayBatch | _qg.SelfPlayBatch = find_game(game).self_play(
            list(bots),
            games,
            progress=progress,
            interval=interval,
            **arguments,
        )
        return batch
    _python_path(bots, game, rules, "python", interval)
    plan = _native.simulate([_STAND_IN] * len(bots), games, **arguments)
    rules = rules if rules is not None else Rules()
    names = [bot_name(bot) for bot in bots]
    recorders: dict[int, _VisitRecorder] = {}

    def seated(game_seed: int, seat: int, entry: BotLike) -> BotLike:
        """A spec's bot made here, seeded as play_game would, so its searches are recorded."""
        if not isinstance(entry, str):
            return entry
        bot: Bot = as_bot(entry, seed=seat_seed(game_seed, seat))
        if isinstance(bot, IsmctsBot):
            recorders[seat] = _VisitRecorder(bot)
            return recorders[seat]
        return bot

    records: list[str] = []
    rows: dict[str, list[Any]] = {name: [] for name in _COLUMNS}
    visit_actions: list[int] = []
    visit_counts: list[int] = []
    offsets = [0]
    for i, played in _games(plan, bots, rules, progress, interval, seated):
        index = plan.start + i
        seats = plan.seats[i]
        record = json.loads(played.record_json())
        record["game"] = index
        record["players_names"] = [names[b] for b in seats]
        record["result"] = {"scores": played.scores, "winners": played.winners}
        records.append(json.dumps(record, sort_keys=True, separators=(",", ":")))
        outcome = played.returns("win")
        replay = Game(rules, seed=int(plan.game_seeds[i]))
        searches = {seat: iter(recorder.visits) for seat, recorder in recorders.items()}
        for ply, move in enumerate(played.moves):
            mover = replay.to_move
            assert mover is not None  # the moves of a game end it
            visits = next(searches[mover]) if mover in searches else None
            rows["game"].append(index)
            rows["ply"].append(ply)
            rows["seat"].append(mover)
            rows["observation"].append(replay.observation(mover))
            rows["legal_mask"].append(replay.legal_action_mask())
            rows["action"].append(move.action)
            rows["searched"].append(visits is not None)
            rows["outcome"].append(outcome[mover])
            rows["points"].append(played.scores[mover])
            for action in sorted(visits or {}):
                visit_actions.append(action)
                visit_counts.append(visits[action])  # type: ignore[index]
            offsets.append(len(visit_actions))
            replay.play(move)
        recorders.clear()
    samples = len(rows["game"])
    return PolicySelfPlayBatch(
        records=records,
        samples=samples,
        observation=np.asarray(rows.pop("observation"), np.float32).reshape(
            samples, OBSERVATION_SIZE
        ),
        legal_mask=np.asarray(rows.pop("legal_mask"), np.bool_).reshape(samples, ACTION_COUNT),
        visit_offsets=np.asarray(offsets, np.int64),
        visit_actions=np.asarray(visit_actions, np.uint16),
        visit_counts=np.asarray(visit_counts, np.uint32),
        **{name: np.asarray(values, _COLUMNS[name]) for name, values in rows.items()},
    )


_COLUMNS: dict[str, type[np.generic]] = {
    "game": np.uint64,
    "ply": np.uint16,
    "seat": np.uint8,
    "observation": np.float32,
    "legal_mask": np.bool_,
    "action": np.uint16,
    "searched": np.bool_,
    "outcome": np.float32,
    "points": np.uint16,
}
