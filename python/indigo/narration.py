"""Moves and games in words: what a placement did, how the game ended, who won.

Shared by ``indigo demo``, ``indigo play`` and the web app (plain text with ``colour=False``;
24-bit ANSI colour otherwise). Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from indigo import (
    CENTRE,
    CORNERS,
    GATE_CELLS,
    GEM_POINTS,
    ROUTE_CELLS,
    Game,
    GemPath,
    Move,
    MoveResult,
    Rules,
)
from indigo.render.terminal import EDGE_NAMES, GEMS, gem_label, seat_label

__all__ = [
    "end_reason",
    "explain",
    "log_marks",
    "move_log",
    "move_marks",
    "move_text",
    "place_name",
    "result_lines",
]


def move_text(move: Move) -> str:
    """A move in notation ``T@R:Q,R``."""
    return f"{move.tile}@{move.rotation}:{move.q},{move.r}"


_DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""The six directions from the centre, in the order of :data:`EDGE_NAMES` (N, NE, ...)."""
_RINGS = ("", "beside the centre", "the inner ring", "the outer ring")
_GATE_OF = {
    cell: (gate, end) for gate, cells in enumerate(GATE_CELLS) for end, cell in enumerate(cells)
}
"""Each edge cell's gateway and its place along it (0 .. 2, from corner ``gate`` onward)."""


def _ring(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


def _bearing(q: int, r: int) -> str:
    """Where on its ring a cell lies: a direction (``N``), between two (``N-NE``), or between
    two nearer one (``N-NE, nearer N``)."""
    ring = _ring(q, r)
    for i, (dq, dr) in enumerate(_DIRECTIONS):
        # Walking the ring from direction i's corner toward direction i + 2's side.
        sq, sr = _DIRECTIONS[(i + 2) % 6]
        for step in range(ring):
            if (dq * ring + sq * step, dr * ring + sr * step) == (q, r):
                between = f"{EDGE_NAMES[i]}-{EDGE_NAMES[(i + 1) % 6]}"
                if step == 0:
                    return EDGE_NAMES[i]
                if 2 * step == ring:
                    return between
                nearer = EDGE_NAMES[i] if 2 * step < ring else EDGE_NAMES[(i + 1) % 6]
                return f"{between}, nearer {nearer}"
    raise ValueError(f"({q},{r}) is not on the board")


def place_name(q: int, r: int, rules: Rules) -> str:
    """A cell as the board shows it, one name per cell: the centre, a corner by its direction,
    an edge cell by its gateway's number (the board labels them) and its place along it, any
    other by its ring and direction."""
    if (q, r) == CENTRE:
        return "the centre"
    if (q, r) in CORNERS:
        return f"the {_bearing(q, r)} corner"
    if (q, r) in _GATE_OF:
        gate, end = _GATE_OF[q, r]
        along = (f"{EDGE_NAMES[gate]} end", "middle", f"{EDGE_NAMES[(gate + 1) % 6]} end")[end]
        return f"the edge by {rules.gate_name} {gate} ({along})"
    return f"{_RINGS[_ring(q, r)]} ({_bearing(q, r)})"


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def _tiles(n: int) -> str:
    return "1 tile" if n == 1 else f"{n} tiles"


def _seats(rules: Rules, seats: Sequence[int], colour: bool) -> str:
    return " and ".join(seat_label(rules, s, colour=colour) for s in seats)


def _at(place: str) -> str:
    """A :func:`place_name` after its preposition: "on the edge by gateway 3", "in the inner
    ring (N)", "at the centre"; "beside the centre (N)" has its own."""
    if place.startswith("beside"):
        return place
    if place.startswith(("the inner", "the outer")):
        return f"in {place}"
    return f"on {place}" if place.startswith("the edge") else f"at {place}"


def explain(game: Game, result: MoveResult, *, colour: bool, notation: bool = False) -> list[str]:
    """What happened in a move: the placement, then one line per gem that moved or was met;
    with ``notation`` (the terminal, where moves are typed so) the move's notation after the
    placement, ``[T@R:Q,R]``."""
    rules = game.rules
    gains = [
        f"{seat_label(rules, s, colour=colour)} +{p}" for s, p in enumerate(result.points) if p
    ]
    move = result.move
    head = (
        f"Move {len(game.moves)}: {seat_label(rules, result.seat, colour=colour)} "
        f"placed a tile {_at(place_name(move.q, move.r, rules))}"
    )
    if notation:
        head += f" [{move_text(move)}]"
    if gains:
        head += f"  ({', '.join(gains)})"
    lines = [head]
    paths = result.paths
    told: set[int] = set()
    for i, path in enumerate(paths):
        if i in told:
            continue
        told.add(i)
        lines.append("  " + _path_text(rules, path, paths, told, colour))
    if not paths:
        lines.append("  no gem moved")
    return lines


def _origin(rules: Rules, path: GemPath) -> str:
    """Where a gem set out: from the centre or a corner, or where it waited."""
    start = place_name(path.start[0], path.start[1], rules)
    if start == "the centre" or start.endswith("corner"):
        return f"from {start}"
    return f"waiting {_at(start)}"


def _path_text(
    rules: Rules, path: GemPath, paths: Sequence[GemPath], told: set[int], colour: bool
) -> str:
    name = gem_label(rules, path.gem, colour=colour)
    moved = f"the {name} {_origin(rules, path)}"
    if path.steps:
        moved += f" ran {_tiles(len(path.steps))} and"
    if path.outcome == "collected" and path.gate is not None:
        owners = path.owners
        each = " each" if len(owners) > 1 else ""
        whose = _seats(rules, owners, colour)
        return (
            f"{moved} left through {whose}'s {rules.gate_name} {path.gate}: "
            f"{whose} +{GEM_POINTS[path.gem]}{each}"
        )
    if path.outcome == "collided" and path.collided_with is not None:
        other = paths[path.collided_with]
        told.add(path.collided_with)
        other_name = gem_label(rules, other.gem, colour=colour)
        other_text = f"the {other_name} {_origin(rules, other)}"
        if other.steps:
            other_text += f" ({_tiles(len(other.steps))})"
        return f"{moved} met {other_text}: both left the game"
    if path.end is not None:
        return f"{moved} waits {_at(place_name(path.end[0], path.end[1], rules))}"
    return f"{moved} stopped"


def result_lines(game: Game, *, colour: bool) -> list[str]:
    """Final scores, gems collected per seat (themed names) and the winner(s)."""
    rules = game.rules
    lines = [f"Game over after {len(game.moves)} moves ({game.removed} gems lost in collisions)."]
    lines.append("Final scores:")
    for seat in range(rules.players):
        got = game.collected[seat]
        gems = ", ".join(f"{gem_label(rules, g, colour=colour)} {got[g]}" for g in GEMS)
        lines.append(
            f"  {seat_label(rules, seat, colour=colour)}: {_points(game.scores[seat])}, "
            f"{sum(got.values())} gems ({gems})"
        )
    winners = game.winners
    label = ", ".join(seat_label(rules, s, colour=colour) for s in winners)
    if len(winners) == 1:
        lines.append(f"Winner: {label} with {_points(game.scores[winners[0]])}")
    elif winners:
        lines.append(f"Winners: {label} (tied with {_points(game.scores[winners[0]])})")
    else:
        lines.append("Winners: none")
    return lines


def end_reason(game: Game) -> str:
    """Why the game ended (RULES.md section 8), in words; ``""`` while it goes on."""
    if not game.over:
        return ""
    if game.centre or game.gems:  # the safety net
        return "no player holds a tile"
    if game.moves_played == len(ROUTE_CELLS):
        return "no gem is left on the board, with the last tile placed"
    return "no gem is left on the board"


def move_marks(result: MoveResult) -> dict[str, Any]:
    """What a move's words name on the board, for the web page to highlight: the mover's
    ``seat``, the placed ``cells`` (``[q, r]``) and the ``gates`` its gems left through."""
    gates = sorted({p.gate for p in result.paths if p.gate is not None})
    return {"seat": result.seat, "cells": [[result.move.q, result.move.r]], "gates": gates}


def _replayed(game: Game) -> Iterator[tuple[Game, MoveResult]]:
    """Each move of ``game`` replayed from its pile: the game after it, and its result."""
    replay = Game(game.rules, pile=game.pile)
    for move in game.moves:
        result = replay.play(move)
        yield replay, result


def move_log(game: Game) -> list[list[str]]:
    """The plain-text :func:`explain` lines of every move of ``game``, replayed from its pile."""
    return [explain(replay, result, colour=False) for replay, result in _replayed(game)]


def log_marks(game: Game) -> list[dict[str, Any]]:
    """The :func:`move_marks` of every move of ``game``, as :func:`move_log` has its words."""
    return [move_marks(result) for _, result in _replayed(game)]
