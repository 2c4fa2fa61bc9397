r"""The board and the game state as terminal text (Unicode, optional 24-bit ANSI colour).

Everything here is pure: functions take a :class:`~indigo.Game` and return strings.

The board is a flat-top hex grid; cell ``(q, r)`` is drawn in column ``q`` and half-row
``y = 2 * r + q``, so north is up and the edges 0..5 (N, NE, SE, S, SW, NW) are the six walls
of each drawn hex::

      _____
     /A E  \      A E S    resting gem (amber, emerald, sapphire; themed names in the legend),
    /  3@2  \              drawn inside its cell next to the edge it rests on: N in the middle
    \     S /              of the top row, NE/NW at its ends, S/SE/SW likewise at the bottom
     \_____/      3@2      route tile of type 3 at rotation 2 (the move notation ``T@R``);
                  [3@2]    the highlighted cell (by default the last move)
                  -2,1     an empty route cell, labelled with its axial coordinates
                  corner   a corner; an arrow (↑ ↗ ↘ ↓ ↙ ↖) marks its arrow edge while it is empty
                  eeeees   the centre: the gems still waiting there, lowercase, in release order
                  k:Pn     gate k and its owners; in colour the gate's outer walls take the
                           owners' seat colours (edge k in the first owner's, edge k+1 in the
                           second's)

With ``codes=False`` a placed tile is drawn instead as its three paths in braille dots
(:func:`tile_braille`, the curves of the SVG picture), and the last move's cell has a ``*`` in
the middle of its top wall.

Uppercase ``A``, ``E`` and ``S`` appear in :func:`board_text` only as resting gems, so they can be
counted. Colour uses the theme's ``#rrggbb`` values (:meth:`~indigo.Rules.gem_colour`,
:meth:`~indigo.Rules.seat_colour`).
"""

from __future__ import annotations

import functools
import math
import os
import sys
from collections.abc import Sequence
from typing import Final

from indigo import (
    CENTRE,
    CORNERS,
    GATE_CELLS,
    GEM_POINTS,
    ROUTE_CELLS,
    TILE_PATHS,
    Game,
    GemName,
    Move,
    Rules,
)

__all__ = [
    "EDGE_NAMES",
    "GEMS",
    "GEM_GLYPHS",
    "board_text",
    "fg",
    "game_text",
    "gem_label",
    "legend_text",
    "paint",
    "seat_label",
    "status_text",
    "tile_braille",
    "use_colour",
]

GEMS: Final[tuple[GemName, ...]] = ("amber", "emerald", "sapphire")
GEM_GLYPHS: Final[dict[GemName, str]] = {"amber": "A", "emerald": "E", "sapphire": "S"}
"""The glyph of a resting gem; the centre shows waiting gems in lowercase."""
EDGE_NAMES: Final[tuple[str, ...]] = ("N", "NE", "SE", "S", "SW", "NW")
ARROWS: Final[str] = "↑↗↘↓↙↖"
"""An arrow pointing across each edge 0..5."""
TILE_SHAPES: Final[tuple[str, ...]] = (
    "one straight, two wide curves",
    "three straights",
    "one straight, two sharp curves",
    "one sharp curve, two crossing wide curves",
    "three sharp curves",
)

# Drawing geometry: cell (q, r) has its top-left at row 2 * (2r + q + 8), column 7 * (q + 4).
_COL_STEP: Final = 7
_WALLS: Final[dict[int, tuple[tuple[int, int, str], ...]]] = {
    # edge -> (row, column, char) of its wall, relative to the cell's top-left.
    0: tuple((0, c, "_") for c in range(2, 7)),
    1: ((1, 7, "\\"), (2, 8, "\\")),
    2: ((3, 8, "/"), (4, 7, "/")),
    3: tuple((4, c, "_") for c in range(2, 7)),
    4: ((3, 0, "\\"), (4, 1, "\\")),
    5: ((1, 1, "/"), (2, 0, "/")),
}
# Where a gem resting at each edge is drawn, relative to the cell's top-left.
_GEM_SLOTS: Final[tuple[tuple[int, int], ...]] = ((1, 4), (1, 6), (3, 6), (3, 4), (3, 2), (1, 2))
# Middle row of a cell's interior: columns 1..7.
_MID_ROW: Final = 2
_MID_LEFT: Final = 1
_MID_WIDTH: Final = 7

# Braille drawing of a tile's paths: each character holds 2 x 4 dots; the dots of a cell cover
# its interior rows 1..3 (4 dot rows each) and columns 0..8 (2 dot columns each).
_BRAILLE: Final = 0x2800
_BRAILLE_BITS: Final = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
"""The bit of each dot of a braille character, by dot row 0..3 and dot column 0..1."""
_INSIDE: Final[dict[int, range]] = {1: range(2, 7), 2: range(1, 8), 3: range(1, 8)}
"""The interior columns of each interior row of a cell (the rest are walls)."""
_SAMPLES: Final = 48
"""Points drawn along each path."""
_LAST_MARK: Final = (0, 4, "*")
"""The mark on the top wall of the last move's cell when tiles are drawn as paths."""

_DIM: Final = "2"
_BOLD: Final = "1"
_WALL: Final = "38;5;244"
_HIGHLIGHT: Final = "1;7"

Canvas = dict[tuple[int, int], tuple[str, str]]


def use_colour(no_colour: bool) -> bool:
    """Whether to write colour: not when asked not to (``--no-colour``, ``NO_COLOR``), nor
    when standard output is not a terminal."""
    if no_colour or os.environ.get("NO_COLOR"):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def fg(hex_colour: str) -> str:
    """The SGR parameters for a 24-bit foreground colour given as ``#rrggbb``."""
    r, g, b = _rgb(hex_colour)
    return f"38;2;{r};{g};{b}"


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _on(hex_colour: str) -> str:
    """SGR for text on a ``#rrggbb`` background, in black or white, whichever reads better."""
    r, g, b = _rgb(hex_colour)
    ink = "30" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "97"
    return f"48;2;{r};{g};{b};{ink}"


def paint(text: str, sgr: str, colour: bool) -> str:
    """``text`` wrapped in the SGR sequence ``sgr`` (plain when ``colour`` is false)."""
    if not colour or not sgr or not text:
        return text
    return f"\x1b[{sgr}m{text}\x1b[0m"


def seat_label(rules: Rules, seat: int, *, colour: bool) -> str:
    """``P<seat>``, on the seat's colour when ``colour``."""
    return paint(f"P{seat}", _on(rules.seat_colour(seat)), colour)


def gem_label(rules: Rules, gem: GemName, *, colour: bool) -> str:
    """The gem's themed name, in its colour when ``colour``."""
    return paint(rules.gem_name(gem), fg(rules.gem_colour(gem)), colour)


def _origin(q: int, r: int) -> tuple[int, int]:
    return 2 * (2 * r + q + 8), _COL_STEP * (q + 4)


def _put(canvas: Canvas, row: int, col: int, text: str, sgr: str = "") -> None:
    for i, ch in enumerate(text):
        canvas[(row, col + i)] = (ch, sgr)


def _put_middle(canvas: Canvas, q: int, r: int, text: str, sgr: str = "") -> None:
    """Centre ``text`` on the middle row of cell ``(q, r)``."""
    row, col = _origin(q, r)
    pad = (_MID_WIDTH - len(text)) // 2
    _put(canvas, row + _MID_ROW, col + _MID_LEFT + pad, text, sgr)


def _gate_labels(rules: Rules) -> list[tuple[int, int, str, list[tuple[str, str]], bool]]:
    """For each gate: anchor row, anchor column, plain text, coloured parts, right-aligned."""
    # Anchors beside the middle gate cell, outside the board.
    anchors = {
        0: (0, 9, False),
        1: (1, 9, False),
        2: (4, 9, False),
        3: (4, -1, True),
        4: (1, -1, True),
        5: (0, -1, True),
    }
    out: list[tuple[int, int, str, list[tuple[str, str]], bool]] = []
    for gate in range(6):
        q, r = GATE_CELLS[gate][1]
        row, col = _origin(q, r)
        drow, dcol, right = anchors[gate]
        parts: list[tuple[str, str]] = [(f"{gate}:", "")]
        for i, seat in enumerate(rules.gate_owners(gate)):
            if i:
                parts.append(("+", ""))
            parts.append((f"P{seat}", _on(rules.seat_colour(seat))))
        text = "".join(p for p, _ in parts)
        out.append((row + drow, col + dcol, text, parts, right))
    return out


def board_text(
    game: Game,
    *,
    colour: bool = True,
    highlight: tuple[int, int] | None = None,
    codes: bool = True,
) -> str:
    """The board as text, one row per line (no trailing newline).

    Placed tiles are shown as their codes ``T@R``, or with ``codes`` false drawn as their three
    paths in braille (:func:`tile_braille`). ``highlight`` marks one cell (``[T@R]``, or a ``*``
    on its top wall); by default (``None``) the cell of the last move, if any. With ``colour``
    false the text has no escape sequences.
    """
    rules = game.rules
    if highlight is None and game.moves:
        highlight = game.moves[-1].cell
    canvas: Canvas = {}
    cells = [*ROUTE_CELLS, CENTRE, *CORNERS]

    # Walls first; later writes (contents, gate walls, highlight) go on top.
    for q, r in cells:
        row, col = _origin(q, r)
        for walls in _WALLS.values():
            for dr, dc, ch in walls:
                canvas[(row + dr, col + dc)] = (ch, _WALL)

    # Gate walls in the owners' colours: edge k in the first owner's, edge k+1 in the last's.
    for gate in range(6):
        owners = rules.gate_owners(gate)
        for q, r in GATE_CELLS[gate]:
            row, col = _origin(q, r)
            for edge, seat in ((gate, owners[0]), ((gate + 1) % 6, owners[-1])):
                for dr, dc, ch in _WALLS[edge]:
                    canvas[(row + dr, col + dc)] = (ch, _on(rules.seat_colour(seat)))

    for q, r in ROUTE_CELLS:
        placed = game.tile_at(q, r)
        if placed is None:
            _put_middle(canvas, q, r, f"{q},{r}", _DIM)
        elif not codes:
            row, col = _origin(q, r)
            mark = _HIGHLIGHT if (q, r) == highlight else _BOLD
            for (dr, dc), ch in tile_braille(*placed).items():
                canvas[(row + dr, col + dc)] = (ch, mark)
            if (q, r) == highlight:
                dr, dc, ch = _LAST_MARK
                canvas[(row + dr, col + dc)] = (ch, _HIGHLIGHT)
        elif (q, r) == highlight:
            _put_middle(canvas, q, r, f"[{placed[0]}@{placed[1]}]", _HIGHLIGHT)
        else:
            _put_middle(canvas, q, r, f"{placed[0]}@{placed[1]}", _BOLD)

    # Centre: waiting gems in lowercase on the middle row, its name below.
    cq, cr = CENTRE
    row, col = _origin(cq, cr)
    waiting = game.centre
    pad = (_MID_WIDTH - len(waiting)) // 2
    for i, gem in enumerate(waiting):
        ch = GEM_GLYPHS[gem].lower()
        canvas[(row + _MID_ROW, col + _MID_LEFT + pad + i)] = (ch, fg(rules.gem_colour(gem)))
    _put(canvas, row + 3, col + 1, "centre", _DIM)

    # Corners: name, and an arrow at the arrow edge (a resting amber covers it).
    for d, (q, r) in enumerate(CORNERS):
        _put_middle(canvas, q, r, "corner", _DIM)
        arrow = (d + 3) % 6
        row, col = _origin(q, r)
        dr, dc = _GEM_SLOTS[arrow]
        canvas[(row + dr, col + dc)] = (ARROWS[arrow], _DIM)

    for gem, q, r, edge in game.gems:
        row, col = _origin(q, r)
        dr, dc = _GEM_SLOTS[edge]
        canvas[(row + dr, col + dc)] = (GEM_GLYPHS[gem], f"1;{fg(rules.gem_colour(gem))}")

    for row, col, text, parts, right in _gate_labels(rules):
        start = col - len(text) + 1 if right else col
        for part, sgr in parts:
            _put(canvas, row, start, part, sgr)
            start += len(part)

    return _render(canvas, colour)


def _unit(angle_deg: float) -> tuple[float, float]:
    return math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))


def _path_points(a: int, b: int) -> list[tuple[float, float]]:
    """Points along the path joining edges ``a`` and ``b`` of a cell of circumradius 1 centred
    on the origin (y down): a straight line, or an arc as the SVG picture draws it."""
    apothem = math.sqrt(3) / 2
    ax, ay = (apothem * c for c in _unit(-90 + 60 * a))
    bx, by = (apothem * c for c in _unit(-90 + 60 * b))
    sep = (b - a) % 6
    steps = [i / (_SAMPLES - 1) for i in range(_SAMPLES)]
    if sep == 3:
        return [(ax + t * (bx - ax), ay + t * (by - ay)) for t in steps]
    if sep in (1, 5):  # sharp: around the corner the two edges share
        radius = 0.5
        cx, cy = _unit(-60 + 60 * (a if sep == 1 else b))
    else:  # wide: around the centre of the cell beyond the edge between them
        radius = 1.5
        middle = (a + 1) % 6 if sep == 2 else (b + 1) % 6
        cx, cy = (2 * apothem * c for c in _unit(-90 + 60 * middle))
    start = math.atan2(ay - cy, ax - cx)
    turn = (math.atan2(by - cy, bx - cx) - start + math.pi) % (2 * math.pi) - math.pi
    return [
        (cx + radius * math.cos(start + t * turn), cy + radius * math.sin(start + t * turn))
        for t in steps
    ]


@functools.cache
def tile_braille(tile: int, rotation: int) -> dict[tuple[int, int], str]:
    """Tile ``tile`` at ``rotation`` drawn in braille: ``(row, column) -> character``, relative
    to a drawn cell's top-left, within the cell's interior. Equivalent rotations are drawn
    alike (the smallest is drawn)."""
    rotation = Move(tile, rotation, *ROUTE_CELLS[0]).canonical().rotation
    apothem = math.sqrt(3) / 2
    bits: dict[tuple[int, int], int] = {}
    for a, b in TILE_PATHS[tile]:
        for x, y in _path_points((a + rotation) % 6, (b + rotation) % 6):
            dot_x = int((x + 1) / 2 * 16 + 1)
            dot_y = min(11, int((y + apothem) / (2 * apothem) * 12))
            row, col = 1 + dot_y // 4, dot_x // 2
            if col in _INSIDE[row]:
                bits[(row, col)] = bits.get((row, col), 0) | _BRAILLE_BITS[dot_y % 4][dot_x % 2]
    return {place: chr(_BRAILLE + value) for place, value in bits.items()}


def _render(canvas: Canvas, colour: bool) -> str:
    rows = [r for r, _ in canvas]
    cols = [c for _, c in canvas]
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    lines: list[str] = []
    for row in range(top, bottom + 1):
        out: list[str] = []
        current = ""
        for col in range(left, right + 1):
            ch, sgr = canvas.get((row, col), (" ", ""))
            if ch == " ":
                sgr = ""
            if colour and sgr != current:
                out.append("\x1b[0m" if not sgr else f"\x1b[0;{sgr}m")
                current = sgr
            out.append(ch)
        if colour and current:
            out.append("\x1b[0m")
        lines.append("".join(out).rstrip(" "))
    return "\n".join(lines)


def legend_text(rules: Rules, *, colour: bool = True, codes: bool = True) -> str:
    """What the glyphs of :func:`board_text` mean (with ``codes`` as given to it), with this
    theme's gem names and colours."""
    gems = ", ".join(
        f"{paint(GEM_GLYPHS[g], f'1;{fg(rules.gem_colour(g))}', colour)} "
        f"{rules.gem_name(g)} {GEM_POINTS[g]}"
        for g in GEMS
    )
    seats = " ".join(seat_label(rules, s, colour=colour) for s in range(rules.players))
    shapes = [f"{t}: {shape}" for t, shape in enumerate(TILE_SHAPES)]
    edges = " ".join(f"{i}={name}" for i, name in enumerate(EDGE_NAMES))
    return "\n".join(
        [
            f"  gems: {gems} (points)",
            "    each drawn in its cell beside the edge it rests on; lowercase: in the centre",
            "  T@R: route tile of type T turned R x 60 degrees clockwise; [T@R]: last move"
            if codes
            else "  a placed tile shows its three paths; * on its top wall: the last move",
            f"    {shapes[0]:<38}{shapes[1]}",
            f"    {shapes[2]:<38}{shapes[4]}",
            f"    {shapes[3]}",
            "  q,r: an empty cell; the move T@R:q,r places tile T at rotation R there",
            f"  corner: arrow {ARROWS} to the centre    edges: {edges}",
            f"  k:Pn: {rules.gate_name} k and its owners ({seats})",
        ]
    )


def game_text(game: Game) -> str:
    """The board and the status as ``indigo play`` draws them, without colour (``str(game)``)."""
    return board_text(game, colour=False, codes=False) + "\n" + status_text(game, colour=False)


def _short_gem_name(rules: Rules, gem: GemName) -> str:
    return rules.gem_name(gem).split()[0]


def env_text(game: Game, *, colour: bool) -> str:
    """The board and the status as the learning environments render them."""
    return f"{board_text(game, colour=colour)}\n{status_text(game, colour=colour)}\n"


def status_text(game: Game, *, colour: bool = True, viewer: int | None = None) -> str:
    """One line per seat (points, gems collected, hand) and a line for the pile and the centre.

    The hands are those seat ``viewer`` may see (:meth:`~indigo.Game.visible_hands`: a hidden
    tile is ``?``); ``None`` shows every hand, for spectators of a game between bots.
    """
    rules = game.rules
    hands: Sequence[Sequence[int | None]] = (
        game.hands if viewer is None else game.visible_hands(viewer)
    )
    lines: list[str] = []
    width = max(len(str(s)) for s in game.scores)
    for seat in range(rules.players):
        gems = ", ".join(
            # The themed name's first word ("amber", "blue" for "blue butterfly"): 80 columns.
            paint(
                f"{_short_gem_name(rules, g)} {game.collected[seat][g]}",
                fg(rules.gem_colour(g)),
                colour,
            )
            for g in GEMS
        )
        hand = ",".join("?" if t is None else str(t) for t in hands[seat]) or "-"
        line = (
            f"  {seat_label(rules, seat, colour=colour)}  score {game.scores[seat]:>{width}}"
            f"  collected {gems}  hand {hand}"
        )
        if game.to_move == seat:
            line += "  <- to move"
        if seat in game.winners:
            line += "  * winner"
        lines.append(line)
    lines.append(
        f"  pile {game.pile_left} left, {game.moves_played}/{len(ROUTE_CELLS)} placed; gems: "
        f"{len(game.centre)} in the centre, {len(game.gems)} on the board, "
        f"{game.removed} lost" + ("; game over" if game.over else "")
    )
    return "\n".join(lines)
