"""Moves and games in words: what a placement did, how the game ended, who won.

Shared by ``indigo demo``, ``indigo play`` and the web app (plain text with ``colour=False``;
24-bit ANSI colour otherwise). Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from indigo import CENTRE, CORNERS, GEM_POINTS, ROUTE_CELLS, Game, GemPath, Move, MoveResult, Rules
from indigo.render.terminal import EDGE_NAMES, GEMS, gem_label, seat_label

__all__ = ["end_reason", "explain", "move_log", "move_text", "result_lines"]


def move_text(move: Move) -> str:
    """A move in notation ``T@R:Q,R``."""
    return f"{move.tile}@{move.rotation}:{move.q},{move.r}"


def _spot(q: int, r: int, edge: int) -> str:
    if (q, r) == CENTRE:
        return "the centre"
    if (q, r) in CORNERS:
        return f"corner ({q},{r})"
    return f"({q},{r}) {EDGE_NAMES[edge]}"


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def _tiles(n: int) -> str:
    return "1 tile" if n == 1 else f"{n} tiles"


def _seats(rules: Rules, seats: Sequence[int], colour: bool) -> str:
    return " and ".join(seat_label(rules, s, colour=colour) for s in seats)


def explain(game: Game, result: MoveResult, *, colour: bool) -> list[str]:
    """What happened in a move: the placement, then one line per gem that moved or was met."""
    rules = game.rules
    gains = [
        f"+{p} {seat_label(rules, s, colour=colour)}" for s, p in enumerate(result.points) if p
    ]
    head = (
        f"Move {len(game.moves)}: {seat_label(rules, result.seat, colour=colour)} "
        f"places {move_text(result.move)}"
    )
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
        lines.append("  no gem moves")
    return lines


def _path_text(
    rules: Rules, path: GemPath, paths: Sequence[GemPath], told: set[int], colour: bool
) -> str:
    name = gem_label(rules, path.gem, colour=colour)
    start = _spot(*path.start)
    moved = f"{name} from {start}"
    if path.steps:
        moved += f", {_tiles(len(path.steps))},"
    if path.outcome == "collected" and path.gate is not None:
        owners = path.owners
        each = " each" if len(owners) > 1 else ""
        return (
            f"{moved} leaves through {rules.gate_name} {path.gate}: "
            f"{_seats(rules, owners, colour)} +{GEM_POINTS[path.gem]}{each}"
        )
    if path.outcome == "collided" and path.collided_with is not None:
        other = paths[path.collided_with]
        told.add(path.collided_with)
        other_name = gem_label(rules, other.gem, colour=colour)
        other_text = f"the {other_name} from {_spot(*other.start)}"
        if other.steps:
            other_text += f" ({_tiles(len(other.steps))})"
        return f"{moved} meets {other_text}: both leave the game"
    if path.end is not None:
        return f"{moved} rests at {_spot(*path.end)}"
    return f"{moved} stops"


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


def move_log(game: Game) -> list[list[str]]:
    """The plain-text :func:`explain` lines of every move of ``game``, replayed from its pile."""
    replay = Game(game.rules, pile=game.pile)
    log: list[list[str]] = []
    for move in game.moves:
        log.append(explain(replay, replay.play(move), colour=False))
    return log
