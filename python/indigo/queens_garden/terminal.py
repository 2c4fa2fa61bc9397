"""A Queen's Garden position as terminal text (optional 24-bit ANSI colour).

Everything here is pure and reads a ``queens-garden-snapshot/1`` dict (``Game.snapshot()``), so
any position of a record can be drawn. A garden is drawn on its hex grid, position ``(q, r)``
in column ``q`` and row ``2 * r + q`` (flat-top hexes, north up)::

            bl3           a tile (colour code + pattern value)
            BL3           the printed hexagon of a face-up expansion
            f0  a14  a2c  a free space, by the name moves give it (``tile bl3 f0 * *``)
            (F)           the fountain; (S) a statue, (B) a bench, (P) a pavilion

Positions of an area without an expansion are left blank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from indigo.queens_garden import COLOURS, FinalScore, Game, Garden, kind_colour
from indigo.render.terminal import fg, paint

__all__ = [
    "COLOUR_HEX",
    "LEGEND",
    "display_text",
    "final_text",
    "game_text",
    "garden_text",
    "position_text",
    "storage_text",
]

COLOUR_HEX: Final[dict[str, str]] = dict(
    zip(COLOURS, ("#4a7fe0", "#e8c22a", "#8fd16a", "#2e8b3e", "#b8a2e0", "#8a3fb0"), strict=True)
)
"""The ``#rrggbb`` each colour code is drawn in."""

LEGEND: Final = (
    "  bl3: a tile (colour, pattern); BL3: the printed hexagon of a face-up expansion; "
    "f0, a14, a2c: a free space, named as moves name it;\n"
    "  (F) the fountain, (S) a statue, (B) a bench, (P) a pavilion (a face-up expansion's "
    "centre); tiles left in storage cost their value at the end"
)
"""What the glyphs of :func:`garden_text` mean, for a player's first look."""

# Directions 0..5 (N, NE, SE, S, SW, NW) in axial coordinates, as QUEENS_GARDEN.md section 2.1.
_D: Final = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
_WIDTH: Final = 4  # characters per grid column
_RADIUS: Final = 4  # every position lies within 4 steps of the fountain


def _add(a: tuple[int, int], b: tuple[int, int], times: int = 1) -> tuple[int, int]:
    return a[0] + times * b[0], a[1] + times * b[1]


def _centre(area: int) -> tuple[int, int]:
    return _add((0, 0), _D[area], 3)


def _cell_position(name: str) -> tuple[int, int]:
    if name[0] == "f":
        return _D[int(name[1])]
    centre = _centre(int(name[1]))
    return centre if name[2] == "c" else _add(centre, _D[int(name[2])])


def _kind_token(kind: str, printed: bool, colour: bool) -> str:
    text = kind.upper() if printed else kind
    return paint(text, f"1;{fg(COLOUR_HEX[kind_colour(kind)])}", colour)


def _space_token(name: str, colour: bool) -> str:
    return paint(name.ljust(3), "2", colour)  # dim: a name, not a piece


def garden_text(garden: Garden | Mapping[str, Any], *, colour: bool = False) -> list[str]:
    """The garden drawn on its hex grid, one string per row (all rows equally wide)."""
    tokens: dict[tuple[int, int], str] = {(0, 0): "(F)"}
    for d in range(6):
        tokens[_D[d]] = _space_token(f"f{d}", colour)
        tokens[_add(_D[d], _D[(d + 1) % 6])] = "(S)" if d % 2 == 0 else "(B)"
    for area, piece in enumerate(garden["areas"]):
        if piece is None:
            continue
        centre = _centre(area)
        tokens[centre] = _space_token(f"a{area}c", colour) if piece["face"] == "down" else "(P)"
        for petal in range(6):
            tokens[_add(centre, _D[petal])] = _space_token(f"a{area}{petal}", colour)
        if piece["face"] == "up":
            printed = _add(centre, _D[piece["petal"]])
            tokens[printed] = _kind_token(piece["kind"], True, colour)
    for cell, kind in garden["tiles"].items():
        tokens[_cell_position(cell)] = _kind_token(kind, False, colour)
    rows: list[str] = []
    for y in range(-2 * _RADIUS, 2 * _RADIUS + 1):
        parts: list[str] = []
        for q in range(-_RADIUS, _RADIUS + 1):
            token = tokens.get((q, (y - q) // 2)) if (y - q) % 2 == 0 else None
            parts.append((token or "   ").ljust(3) + " ")
        rows.append("".join(parts))
    return rows


def _kinds(kinds: Sequence[str], colour: bool) -> str:
    return " ".join(_kind_token(k, False, colour) for k in kinds) or "-"


def display_text(snapshot: Mapping[str, Any], *, colour: bool = False) -> str:
    """The round stack and the display expansions, one line each."""
    stack = snapshot["stack"]
    if stack is None:
        lines = ["  stack: used up"]
    else:
        lines = [
            f"  stack: slot {stack['slot']} on top with {_kinds(stack['tiles'], colour)}, "
            f"{stack['below']} below"
        ]
    for piece in snapshot["display"]:
        if piece["face"] == "down":
            shown = f"face down with {_kinds(piece['tiles'], colour)}"
        else:
            shown = f"face up {_kind_token(piece['kind'], True, colour)}"
        lines.append(f"  slot {piece['slot']}: {shown}")
    return "\n".join(lines)


def storage_text(snapshot: Mapping[str, Any], *, colour: bool = False) -> str:
    """One line per seat: score, passed, storage (tiles, jokers, expansions)."""
    lines = []
    for seat, store in enumerate(snapshot["storage"]):
        used = len(store["tiles"]) + store["jokers"]
        line = (
            f"  P{seat} score {snapshot['scores'][seat]:>3}  storage {used:>2}/12: "
            f"{_kinds(store['tiles'], colour)}, {store['jokers']} jokers, expansions "
            f"{' '.join(_kind_token(k, True, colour) for k in store['expansions']) or '-'}"
        )
        if snapshot["passed"][seat] and not snapshot["over"]:
            line += "  (passed)"
        if snapshot["to_move"] == seat:
            line += "  <- to move"
        lines.append(line)
    return "\n".join(lines)


def game_text(game: Game) -> str:
    """The position as ``indigo play --game queens-garden`` draws it (``str(game)``)."""
    return position_text(game.snapshot())


def env_text(game: Game, *, colour: bool) -> str:
    """The position as the learning environments render it."""
    return position_text(game.snapshot(), colour=colour) + "\n"


def position_text(snapshot: Mapping[str, Any], *, colour: bool = False) -> str:
    """The whole public position: the round, the display, the storages and the gardens."""
    seats = len(snapshot["scores"])
    state = "game over" if snapshot["over"] else f"P{snapshot['to_move']} to move"
    lines = [
        f"Round {snapshot['round']}, {state}; bag {snapshot['bag']}, tower "
        f"{len(snapshot['tower'])}, supply {snapshot['supply']}",
        display_text(snapshot, colour=colour),
        storage_text(snapshot, colour=colour),
    ]
    pictures = [garden_text(g, colour=colour) for g in snapshot["gardens"]]
    # Rows blank in every garden (areas nobody has filled) are left out at the top and bottom.
    used = [row for row in range(len(pictures[0])) if any(p[row].strip() for p in pictures)]
    width = _WIDTH * (2 * _RADIUS + 1)
    for first in range(0, seats, 2):
        pair = range(first, min(first + 2, seats))
        lines.append("  " + "".join(f"P{s} garden".ljust(width + 2) for s in pair).rstrip())
        for row in range(used[0], used[-1] + 1):
            lines.append("  " + "  ".join(pictures[s][row] for s in pair).rstrip())
    return "\n".join(lines)


def final_text(snapshot: Mapping[str, Any]) -> str:
    """The final scoring broken down per seat, then the winners (the game must be over)."""
    final: list[FinalScore] = snapshot["final"]
    lines = ["Final scoring (before + storage + groups + bonus = final):"]
    for seat, part in enumerate(final):
        score = snapshot["scores"][seat]
        before = score - part["storage"] - part["groups"] - part["bonus"]
        lines.append(
            f"  P{seat}: {before} {part['storage']:+d} storage {part['groups']:+d} groups "
            f"{part['bonus']:+d} bonus = {score}"
        )
    winners = snapshot["winners"]
    label = " and ".join(f"P{s}" for s in winners)
    lines.append(f"{'Winner' if len(winners) == 1 else 'Winners'}: {label}")
    return "\n".join(lines)
