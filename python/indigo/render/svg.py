"""The board as SVG: every tile's paths, the treasure tiles, gems, gates, the last move, scores.

Everything here is pure: functions take a :class:`~indigo.Game` (or plain values) and return
strings. Geometry: a flat-top hex of circumradius :data:`SIZE`, cell ``(q, r)`` centred at
``x = 1.5 * SIZE * q``, ``y = sqrt(3) * SIZE * (r + q / 2)`` (y down), so edge ``e`` faces
``-90 + 60 * e`` degrees: 0 = N, 1 = NE, ... clockwise, as docs/spec/RULES.md section 2 draws it.

Every drawn thing carries a class and ``data-*`` attributes so programs (tests, the web page)
can find and count them:

========================  =================================================================
``g.tile``                a placed route tile: ``data-q data-r data-tile data-rotation``
``polygon.cell``          every route cell, empty or not: ``data-q data-r data-cx data-cy``
``path.route``            one of a tile's three paths (also the corners' U-turns)
``g.treasure``            the centre (``.centre``) and the six corners (``.corner``)
``circle.gem``            a gem: ``.resting`` (``data-q data-r data-edge``) or ``.waiting``
                          (still in the centre); ``data-gem`` is the Indigo gem name
``g.gate``                a gate: ``data-gate data-owners``; holds its six ``line.exit``
``polygon.last-move``     the outline of the last move's cell
``path.trail``            where each gem of the last move went
``g.score``               one seat: ``data-seat data-score`` and ``data-winner`` when won
========================  =================================================================
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from indigo import (
    CENTRE,
    CORNERS,
    GATE_CELLS,
    ROUTE_CELLS,
    TILE_PATHS,
    Game,
    GemName,
    GemPath,
    IndigoError,
    Rules,
)
from indigo.render.terminal import GEMS

__all__ = [
    "SIZE",
    "THEMES",
    "cell_centre",
    "edge_point",
    "game_at",
    "game_svg",
    "gem_markup",
    "gem_path_d",
    "gem_point",
    "route_d",
    "tile_markup",
]

SIZE: Final = 36.0
"""Circumradius of a drawn cell, in SVG user units."""
_APOTHEM: Final = SIZE * math.sqrt(3) / 2
_GEM_RADIUS: Final = 6.5
_GEM_INSET: Final = 0.7
"""A resting gem is drawn this far (in apothems) from its cell's centre towards its edge."""
_EXIT_OUT: Final = 0.9
"""A collected gem's trail goes this far (in apothems) past the exit."""
_MARGIN: Final = 58.0
_SIDE_MARGIN: Final = 100.0
"""Room beside the board for the labels of gates 1 and 4."""
_SCORE_ROW: Final = 26.0

THEMES: Final[dict[str, dict[str, str]]] = {
    "indigo": {
        "title": "Indigo",
        "background": "#16213a",
        "cell": "#22325a",
        "cell_line": "#2f4373",
        "tile": "#e9dcc0",
        "tile_line": "#b49f76",
        "route": "#5b4a2f",
        "route_under": "#e9dcc0",
        "treasure": "#c9a44a",
        "ink": "#f3efe6",
        "highlight": "#ff5cf0",
    },
    "butterfly-garden": {
        "title": "Butterfly Garden",
        "background": "#e8f1dc",
        "cell": "#b9d59b",
        "cell_line": "#9cc07a",
        "tile": "#7fb35a",
        "tile_line": "#5d8f3e",
        "route": "#f4ead2",
        "route_under": "#7fb35a",
        "treasure": "#d8c8a4",
        "ink": "#24361a",
        "highlight": "#e0245e",
    },
}
"""Board colours per theme; gems and seats take the theme's colours from :class:`~indigo.Rules`."""


# ---------------------------------------------------------------------------------------------
# Geometry


def _fmt(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _direction(edge: int) -> tuple[float, float]:
    angle = math.radians(-90 + 60 * edge)
    return math.cos(angle), math.sin(angle)


def cell_centre(q: int, r: int) -> tuple[float, float]:
    """The centre of cell ``(q, r)`` in SVG coordinates."""
    return 1.5 * SIZE * q, math.sqrt(3) * SIZE * (r + q / 2)


def edge_point(q: int, r: int, edge: int, depth: float = 1.0) -> tuple[float, float]:
    """A point from the centre of ``(q, r)`` towards edge ``edge``: ``depth`` 1 is its midpoint."""
    x, y = cell_centre(q, r)
    dx, dy = _direction(edge)
    return x + depth * _APOTHEM * dx, y + depth * _APOTHEM * dy


def gem_point(q: int, r: int, edge: int) -> tuple[float, float]:
    """Where a gem resting at ``(q, r, edge)`` is drawn (inside the cell, by that edge)."""
    return edge_point(q, r, edge, _GEM_INSET)


def _hex_points(x: float, y: float, radius: float = SIZE) -> str:
    corners = (
        (x + radius * math.cos(math.radians(60 * i)), y + radius * math.sin(math.radians(60 * i)))
        for i in range(6)
    )
    return " ".join(f"{_fmt(px)},{_fmt(py)}" for px, py in corners)


def _arc(q: int, r: int, a: int, b: int) -> str:
    """The SVG path command (without the start point) along a tile's path from edge a to b.

    Straights are lines; a sharp curve (adjacent edges) is a 120-degree arc around their shared
    corner; a wide curve (one edge between) is a 60-degree arc around the next cell's centre.
    """
    bx, by = edge_point(q, r, b)
    sep = (b - a) % 6
    if sep == 3:
        return f"L{_fmt(bx)},{_fmt(by)}"
    x, y = cell_centre(q, r)
    if sep in (1, 5):
        radius = SIZE / 2
        first = a if sep == 1 else b  # the shared corner lies clockwise after this edge
        cx = x + SIZE * math.cos(math.radians(-60 + 60 * first))
        cy = y + SIZE * math.sin(math.radians(-60 + 60 * first))
    else:
        radius = 1.5 * SIZE
        middle = (a + 1) % 6 if sep == 2 else (b + 1) % 6
        dx, dy = _direction(middle)
        cx, cy = x + 2 * _APOTHEM * dx, y + 2 * _APOTHEM * dy
    ax, ay = edge_point(q, r, a)
    cross = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)
    sweep = 1 if cross > 0 else 0
    return f"A{_fmt(radius)},{_fmt(radius)} 0 0 {sweep} {_fmt(bx)},{_fmt(by)}"


def route_d(q: int, r: int, a: int, b: int) -> str:
    """The SVG path data of the path joining edges ``a`` and ``b`` of cell ``(q, r)``."""
    ax, ay = edge_point(q, r, a)
    return f"M{_fmt(ax)},{_fmt(ay)} {_arc(q, r, a, b)}"


def gem_path_d(path: GemPath) -> str:
    """SVG path data of where a gem went in a move, for trails and animation.

    It starts where the gem was drawn, follows each tile's path, and ends where the gem rests,
    a little past the exit it left by, or at the boundary where it met another gem.
    """
    q, r, edge = path.start
    sx, sy = gem_point(q, r, edge)
    parts = [f"M{_fmt(sx)},{_fmt(sy)}"]
    mx, my = edge_point(q, r, edge)
    parts.append(f"L{_fmt(mx)},{_fmt(my)}")
    for sq, sr, entry, exit_ in path.steps:
        parts.append(_arc(sq, sr, entry, exit_))
    if path.outcome == "rested" and path.end is not None:
        ex, ey = gem_point(*path.end)
        parts.append(f"L{_fmt(ex)},{_fmt(ey)}")
    elif path.outcome == "collected" and path.steps:
        lq, lr, _, exit_ = path.steps[-1]
        ox, oy = edge_point(lq, lr, exit_, 1 + _EXIT_OUT)
        parts.append(f"L{_fmt(ox)},{_fmt(oy)}")
    return " ".join(parts)


# ---------------------------------------------------------------------------------------------
# Pieces


def _attrs(**values: object) -> str:
    """``key="value"`` pairs; ``class_`` is ``class``, other underscores become hyphens.

    ``None`` values are left out.
    """
    return " ".join(
        f"{key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}"
        for key, value in values.items()
        if value is not None
    )


def tile_markup(
    tile: int,
    rotation: int = 0,
    at: tuple[int, int] = CENTRE,
    *,
    theme: str = "indigo",
    extra: str = "",
) -> str:
    """A route tile as an SVG ``<g class="tile">``: its hexagon and three paths.

    Drawn at cell ``at`` (default: the origin, for pictures of a hand). ``extra`` is added to the
    group's attributes.
    """
    colours = THEMES[theme]
    q, r = at
    x, y = cell_centre(q, r)
    pairs = [((a + rotation) % 6, (b + rotation) % 6) for a, b in TILE_PATHS[tile]]
    head = _attrs(class_="tile", data_q=q, data_r=r, data_tile=tile, data_rotation=rotation)
    parts = [
        f"<g {head}{' ' + extra if extra else ''}>",
        f'<polygon points="{_hex_points(x, y)}" fill="{colours["tile"]}" '
        f'stroke="{colours["tile_line"]}" stroke-width="1.5"/>',
    ]
    # Each path over a wide band of the tile colour, so crossings read as over and under.
    for a, b in pairs:
        d = route_d(q, r, a, b)
        parts.append(
            f'<path d="{d}" fill="none" stroke="{colours["route_under"]}" stroke-width="9"/>'
            f'<path class="route" data-edges="{a} {b}" d="{d}" fill="none" '
            f'stroke="{colours["route"]}" stroke-width="5" stroke-linecap="butt"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _butterfly(colour: str) -> str:
    """Four wings and a body in a gem's circle, centred on the origin (Butterfly Garden)."""
    wings = "".join(
        f'<ellipse cx="{side * cx}" cy="{cy}" rx="{rx}" ry="{ry}" '
        f'transform="rotate({side * turn} {side * cx} {cy})"/>'
        for side in (-1, 1)
        for cx, cy, rx, ry, turn in ((3.6, -2.4, 4.4, 3.2, 35), (2.9, 2.8, 3.1, 2.3, -30))
    )
    return (
        f'<g fill="{colour}" stroke="#1d1d1d" stroke-width="0.8">{wings}</g>'
        '<ellipse rx="1.1" ry="4.6" fill="#1d1d1d"/>'
        '<path d="M-0.5,-4.2 L-2.2,-7.2 M0.5,-4.2 L2.2,-7.2" stroke="#1d1d1d" '
        'stroke-width="0.7" fill="none"/>'
    )


def gem_markup(rules: Rules, gem: GemName) -> str:
    """A gem as drawn on the board, centred on the origin: a stone, or in Butterfly Garden a
    butterfly (for the web page to animate)."""
    colour = rules.gem_colour(gem)
    if rules.theme == "butterfly-garden":
        return f'<g class="butterfly">{_butterfly(colour)}</g>'
    return f'<circle r="{_GEM_RADIUS}" fill="{colour}" stroke="#111" stroke-width="1.2"/>'


def _gem(rules: Rules, gem: GemName, x: float, y: float, kind: str, **data: object) -> str:
    """A gem: ``circle.gem`` (for a butterfly, a clear circle over a ``g.wings`` with the same
    ``data-*``)."""
    attrs = _attrs(class_=f"gem {kind}", data_gem=gem, **data)
    title = escape(rules.gem_name(gem))
    colour = rules.gem_colour(gem)
    wings = ""
    look = 'stroke="#111" stroke-width="1.2"'
    if rules.theme == "butterfly-garden":
        where = _attrs(class_="wings", transform=f"translate({_fmt(x)} {_fmt(y)})", **data)
        wings = f"<g {where}>{_butterfly(colour)}</g>"
        look = 'fill-opacity="0" stroke="none"'
    return (
        f'{wings}<circle {attrs} cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_GEM_RADIUS}" '
        f'fill="{colour}" {look}><title>{title}</title></circle>'
    )


def _centre(game: Game, colours: dict[str, str]) -> list[str]:
    rules = game.rules
    x, y = cell_centre(*CENTRE)
    out = [
        '<g class="treasure centre" data-q="0" data-r="0">',
        f'<polygon points="{_hex_points(x, y)}" fill="{colours["treasure"]}" '
        f'stroke="{colours["tile_line"]}" stroke-width="1.5"/>',
        f'<polygon points="{_hex_points(x, y, SIZE * 0.62)}" fill="none" '
        f'stroke="{colours["ink"]}" stroke-opacity="0.35"/>',
    ]
    # The waiting gems in release order, clockwise from the top.
    for i, gem in enumerate(game.centre):
        angle = math.radians(-90 + 60 * i)
        gx, gy = x + 0.42 * SIZE * math.cos(angle), y + 0.42 * SIZE * math.sin(angle)
        out.append(_gem(rules, gem, gx, gy, "waiting", data_order=i))
    out.append("</g>")
    return out


def _corners(colours: dict[str, str]) -> list[str]:
    out: list[str] = []
    for d, (q, r) in enumerate(CORNERS):
        x, y = cell_centre(q, r)
        arrow = (d + 3) % 6
        tip = edge_point(q, r, arrow, 0.95)
        left = edge_point(q, r, (arrow + 1) % 6, 0.3)
        right = edge_point(q, r, (arrow - 1) % 6, 0.3)
        triangle = " ".join(f"{_fmt(px)},{_fmt(py)}" for px, py in (tip, left, right))
        out.append(
            f'<g class="treasure corner" data-corner="{d}" data-q="{q}" data-r="{r}">'
            f'<polygon points="{_hex_points(x, y)}" fill="{colours["treasure"]}" '
            f'stroke="{colours["tile_line"]}" stroke-width="1.5"/>'
            f'<polygon class="arrow" points="{triangle}" fill="{colours["ink"]}" '
            f'fill-opacity="0.35"/>'
            f'<path class="route" data-edges="{(d + 2) % 6} {(d + 4) % 6}" '
            f'd="{route_d(q, r, (d + 2) % 6, (d + 4) % 6)}" fill="none" '
            f'stroke="{colours["route"]}" stroke-width="5"/></g>'
        )
    return out


def _gates(rules: Rules, colours: dict[str, str]) -> list[str]:
    """Each gate's six exits in its owners' colours (edge k: first owner, edge k+1: last)."""
    out: list[str] = []
    for gate in range(6):
        owners = rules.gate_owners(gate)
        names = "+".join(f"P{s}" for s in owners)
        out.append(
            f"<g {_attrs(class_='gate', data_gate=gate, data_owners=' '.join(map(str, owners)))}>"
            f"<title>{escape(f'{rules.gate_name} {gate}: {names}')}</title>"
        )
        for q, r in GATE_CELLS[gate]:
            x, y = cell_centre(q, r)
            for edge, seat in ((gate, owners[0]), ((gate + 1) % 6, owners[-1])):
                a = math.radians(-120 + 60 * edge)
                b = math.radians(-60 + 60 * edge)
                x1, y1 = x + SIZE * math.cos(a), y + SIZE * math.sin(a)
                x2, y2 = x + SIZE * math.cos(b), y + SIZE * math.sin(b)
                ends = f'x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}"'
                out.append(
                    f'<line {ends} stroke="#7a7a7a" stroke-width="9" stroke-linecap="round"/>'
                    f'<line class="exit" data-q="{q}" data-r="{r}" data-edge="{edge}" {ends} '
                    f'stroke="{rules.seat_colour(seat)}" stroke-width="6" '
                    f'stroke-linecap="round"/>'
                )
        # The label, outside the middle gate cell.
        mq, mr = GATE_CELLS[gate][1]
        lx, ly = edge_point(mq, mr, gate, 1.0)
        dx, dy = _direction(gate)
        mx, my = _direction((gate + 1) % 6)
        tx, ty = lx + 0.9 * _APOTHEM * (dx + mx), ly + 0.9 * _APOTHEM * (dy + my)
        out.append(
            f'<text class="gate-label" x="{_fmt(tx)}" y="{_fmt(ty)}" text-anchor="middle" '
            f'dominant-baseline="middle" font-size="12" fill="{colours["ink"]}">'
            f"{gate}: {escape(names)}</text></g>"
        )
    return out


def _scores(game: Game, top: float, left: float, colours: dict[str, str]) -> list[str]:
    rules = game.rules
    out = ['<g class="scores" font-size="14">']
    for seat in range(rules.players):
        y = top + seat * _SCORE_ROW
        score = game.scores[seat]
        won = seat in game.winners
        got = game.collected[seat]
        gems = ", ".join(f"{rules.gem_name(g)} {got[g]}" for g in GEMS)
        status = "  \u2605 winner" if won else ("  \u25c0 to move" if game.to_move == seat else "")
        attrs = _attrs(
            class_="score", data_seat=seat, data_score=score, data_winner="true" if won else None
        )
        out.append(
            f"<g {attrs}>"
            f'<rect x="{_fmt(left)}" y="{_fmt(y - 13)}" width="18" height="18" rx="3" '
            f'fill="{rules.seat_colour(seat)}" stroke="#7a7a7a"/>'
            f'<text x="{_fmt(left + 26)}" y="{_fmt(y)}" fill="{colours["ink"]}">'
            f'<tspan font-weight="bold">P{seat}: {score}</tspan>'
            f"<tspan> ({escape(gems)}){escape(status)}</tspan></text></g>"
        )
    out.append("</g>")
    return out


# ---------------------------------------------------------------------------------------------
# The picture


def game_at(game: Game, move: int) -> Game:
    """A new game holding the position after the first ``move`` moves of ``game``.

    Raises :class:`~indigo.IndigoError` when ``move`` is not 0..len(game.moves).
    """
    played = game.moves
    if not 0 <= move <= len(played):
        raise IndigoError(f"move must be 0..{len(played)}, not {move}")
    if move == len(played):
        return game.clone()
    earlier = game.clone()
    for _ in range(len(played) - move):
        earlier.undo()
    return earlier


def game_svg(
    game: Game,
    *,
    move: int | None = None,
    trails: bool = True,
    scores: bool = True,
    title: str | None = None,
    side_margin: float = _SIDE_MARGIN,
) -> str:
    """The position of ``game`` as a standalone SVG document.

    ``move`` draws the position after that many moves (default: the current one). The cell of
    the last move is outlined and, with ``trails``, each gem it moved leaves a dashed trail.
    ``scores`` adds a panel with each seat's points and gems, the seat to move and the winners.
    ``side_margin`` is the room left and right of the board for the labels of gates 1 and 4.
    """
    if move is not None:
        game = game_at(game, move)
    rules = game.rules
    colours = THEMES[rules.theme]
    half_w = 1.5 * SIZE * 4 + SIZE + side_margin  # corners at q = -4 and 4
    half_h = 4 * math.sqrt(3) * SIZE + _APOTHEM + _MARGIN
    panel = (rules.players + 1) * _SCORE_ROW + 8 if scores else 0
    width, height = 2 * half_w, 2 * half_h + panel
    view = f"{_fmt(-half_w)} {_fmt(-half_h)} {_fmt(width)} {_fmt(height)}"
    heading = title if title is not None else colours["title"]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="indigo-board" '
        f'data-theme="{rules.theme}" data-players="{rules.players}" data-moves="{len(game.moves)}" '
        f'viewBox="{view}" width="{_fmt(width)}" height="{_fmt(height)}" '
        f'font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">',
        f"<title>{escape(heading)}</title>",
        f'<rect x="{_fmt(-half_w)}" y="{_fmt(-half_h)}" width="{_fmt(width)}" '
        f'height="{_fmt(height)}" fill="{colours["background"]}"/>',
        '<g class="cells">',
    ]
    for q, r in ROUTE_CELLS:
        x, y = cell_centre(q, r)
        attrs = _attrs(class_="cell", data_q=q, data_r=r, data_cx=_fmt(x), data_cy=_fmt(y))
        parts.append(
            f'<polygon {attrs} points="{_hex_points(x, y)}" fill="{colours["cell"]}" '
            f'stroke="{colours["cell_line"]}" stroke-width="1.5"/>'
        )
    parts.append("</g>")
    parts.extend(_gates(rules, colours))
    parts.append('<g class="tiles">')
    parts.extend(
        tile_markup(tile, rotation, cell, theme=rules.theme)
        for cell, (tile, rotation) in game.board.items()
    )
    parts.append("</g>")
    parts.extend(_corners(colours))
    parts.extend(_centre(game, colours))
    if game.moves:
        last = game.moves[-1]
        x, y = cell_centre(*last.cell)
        parts.append(
            f"<polygon {_attrs(class_='last-move', data_q=last.q, data_r=last.r)} "
            f'points="{_hex_points(x, y, SIZE - 2)}" fill="none" '
            f'stroke="{colours["highlight"]}" stroke-width="3.5"/>'
        )
        result = game.last_result
        if trails and result is not None:
            parts.extend(_trails(rules, result.paths))
    parts.append('<g class="gems">')
    for gem, q, r, edge in game.gems:
        x, y = gem_point(q, r, edge)
        parts.append(_gem(rules, gem, x, y, "resting", data_q=q, data_r=r, data_edge=edge))
    parts.append("</g>")
    if scores:
        top = half_h + 4 + _SCORE_ROW * 0.6
        left = -half_w + 16
        parts.append(_heading(game, left, top, colours))
        parts.extend(_scores(game, top + _SCORE_ROW, left, colours))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _trails(rules: Rules, paths: Iterable[GemPath]) -> list[str]:
    out = ['<g class="trails" fill="none" stroke-width="2.5" stroke-dasharray="5 4">']
    for i, path in enumerate(paths):
        if not path.steps:
            continue
        attrs = _attrs(class_="trail", data_gem=path.gem, data_outcome=path.outcome, data_index=i)
        out.append(f'<path {attrs} d="{gem_path_d(path)}" stroke="{rules.gem_colour(path.gem)}"/>')
    out.append("</g>")
    return out


def _heading(game: Game, left: float, y: float, colours: dict[str, str]) -> str:
    rules = game.rules
    text = f"{colours['title']}, {rules.players} players: move {len(game.moves)}"
    if game.over:
        winners = " and ".join(f"P{s}" for s in game.winners)
        text += f", game over: {winners} {'wins' if len(game.winners) == 1 else 'win'}"
    return (
        f'<text class="heading" x="{_fmt(left)}" y="{_fmt(y)}" font-size="15" font-weight="bold" '
        f'fill="{colours["ink"]}">{escape(text)}</text>'
    )
