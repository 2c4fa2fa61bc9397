"""A Queen's Garden position as SVG: gardens, the display, storages, scores, round and wheel.

Pure: :func:`position_svg` reads a ``queens-garden-snapshot/1`` dict (``Game.snapshot()``), so
any position of a record can be drawn; :func:`game_svg` draws a :class:`Game` (also
``Game._repr_svg_`` in Jupyter). A hexagon is drawn in its colour WITH its pattern's glyph and
its colour code, so nothing depends on telling colours apart (the palette also keeps the light
and dark pairs far apart in lightness, for colour-blind players). Glyphs: 1 tree (a triangle),
2 bird (a chevron), 3 butterfly (a bow), 4 flower (four petals), 5 plant (a five-point star),
6 lily (a ring of six dots).

Gardens are flat-top hex grids, north up (QUEENS_GARDEN.md section 2.1). Every drawn thing
carries a class and ``data-*`` attributes, for tests and the web page:

=======================  ===================================================================
``g.hexagon``            any hexagon (tile or printed): ``data-kind``; also one of the below
``g.tile``               a placed tile: ``data-seat data-cell data-kind``
``g.printed``            a face-up expansion's printed hexagon: ``data-seat data-cell``
``polygon.free``         a free space: ``data-seat data-cell`` (the page's click targets)
``polygon.spot``         a petal of an empty area (where a stored expansion may go), unseen
``g.element``            ``data-seat data-element`` (fountain, statue, bench, pavilion)
``g.expansion``          an expansion in a garden: ``data-seat data-area data-face``
``g.stored-tile``        a tile in storage: ``data-seat data-kind``
``g.joker``              a joker in storage: ``data-seat``
``g.stored-expansion``   an expansion in storage: ``data-seat data-kind``
``g.slot``               a display slot: ``data-slot data-state`` (top, hidden, down, up, gone)
``g.display-hexagon``    a hexagon of the display: ``data-slot data-kind``
``g.score``              a seat's score: ``data-seat data-score``, ``data-winner`` when won
``g.wheel``              the wheel: ``data-round``, ``data-placeholder`` for the default
``svg.queens-garden``    the picture: ``data-moves data-round``
=======================  ===================================================================
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final
from xml.sax.saxutils import escape, quoteattr

from indigo import IndigoError
from indigo.queens_garden import COLOURS, DEFAULT_WHEEL, Game, kind_colour, kind_value

__all__ = [
    "COLOUR_FILL",
    "NARROW_SCALE",
    "attribute_markup",
    "cell_position",
    "game_at",
    "game_svg",
    "hexagon_markup",
    "position_svg",
]

COLOUR_FILL: Final[dict[str, str]] = dict(
    zip(COLOURS, ("#2f6fd0", "#f4d03f", "#8fd694", "#1e6b3a", "#d2b4f0", "#5a2a82"), strict=True)
)
"""Each colour code's fill: blue, yellow, light green, dark green, light purple, dark purple
(the light ones drawn with dark ink, the dark ones with white ink)."""
_DARK: Final = frozenset({"bl", "dg", "dp"})
_D: Final = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
_DECORATIONS: Final = ("statue", "bench") * 3
_CELL: Final = 15.0  # circumradius of a garden position
_SMALL: Final = 11.0  # circumradius of a hexagon in storage and the display
_GARDEN_W: Final = 260.0  # a seat's block: heading, garden, storage
_BLOCK_H: Final = 360.0
_NARROW_W: Final = 390.0
NARROW_SCALE: Final = 1.5
"""How much larger the narrow layout draws each seat (a garden hexagon 45 units wide)."""
_PAPER: Final = "#fbf8ef"
_LINE: Final = "#6b6455"


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _attrs(**values: object) -> str:
    return "".join(
        f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}"
        for k, v in values.items()
        if v is not None
    )


def _hex_points(x: float, y: float, radius: float) -> str:
    return " ".join(
        f"{_fmt(x + radius * math.cos(math.radians(60 * i)))},"
        f"{_fmt(y + radius * math.sin(math.radians(60 * i)))}"
        for i in range(6)
    )


def cell_position(name: str) -> tuple[int, int]:
    """The axial position ``(q, r)`` of a cell name (``f0``, ``a2c``, ``a24``)."""
    if name[0] == "f":
        return _D[int(name[1])]
    q, r = 3 * _D[int(name[1])][0], 3 * _D[int(name[1])][1]
    if name[2] == "c":
        return q, r
    dq, dr = _D[int(name[2])]
    return q + dq, r + dr


def _xy(q: int, r: int, ox: float, oy: float) -> tuple[float, float]:
    return ox + 1.5 * _CELL * q, oy + math.sqrt(3) * _CELL * (r + q / 2)


def _points(*points: tuple[float, float]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)


def _glyph(value: int, x: float, y: float, size: float, ink: str) -> str:
    """Pattern ``value``'s glyph centred on (x, y), ``size`` about the hexagon's radius."""
    s = size * 0.42
    style = f'fill="{ink}" stroke="{ink}" stroke-width="{_fmt(size * 0.08)}"'
    if value == 1:  # tree: a triangle
        pts = _points((x, y - s), (x + s, y + s * 0.8), (x - s, y + s * 0.8))
        return f'<polygon class="glyph" points="{pts}" {style}/>'
    if value == 2:  # bird: a chevron
        d = "M" + _points((x - s, y - s * 0.5), (x, y + s * 0.4), (x + s, y - s * 0.5)).replace(
            " ", " L"
        )
        return (
            f'<path class="glyph" d="{d}" fill="none" stroke="{ink}" '
            f'stroke-width="{_fmt(size * 0.2)}" stroke-linecap="round" stroke-linejoin="round"/>'
        )
    if value == 3:  # butterfly: two triangles point to point
        pts = (
            f"{_fmt(x - s)},{_fmt(y - s * 0.8)} {_fmt(x + s)},{_fmt(y + s * 0.8)} "
            f"{_fmt(x + s)},{_fmt(y - s * 0.8)} {_fmt(x - s)},{_fmt(y + s * 0.8)}"
        )
        return f'<polygon class="glyph" points="{pts}" {style}/>'
    if value == 4:  # flower: four petals
        r = s * 0.45
        petals = "".join(
            f'<circle cx="{_fmt(x + dx * r)}" cy="{_fmt(y + dy * r)}" r="{_fmt(r)}"/>'
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
        )
        return f'<g class="glyph" fill="{ink}">{petals}</g>'
    if value == 5:  # plant: a five-point star
        pts = " ".join(
            f"{_fmt(x + (s if i % 2 == 0 else s * 0.42) * math.sin(math.radians(36 * i)))},"
            f"{_fmt(y - (s if i % 2 == 0 else s * 0.42) * math.cos(math.radians(36 * i)))}"
            for i in range(10)
        )
        return f'<polygon class="glyph" points="{pts}" fill="{ink}"/>'
    dots = "".join(  # lily: a ring of six dots
        f'<circle cx="{_fmt(x + s * 0.8 * math.cos(math.radians(60 * i)))}" '
        f'cy="{_fmt(y + s * 0.8 * math.sin(math.radians(60 * i)))}" r="{_fmt(s * 0.26)}"/>'
        for i in range(6)
    )
    return f'<g class="glyph" fill="{ink}">{dots}</g>'


def hexagon_markup(
    kind: str, x: float, y: float, radius: float, cls: str = "hexagon", **data: object
) -> str:
    """A hexagon of ``kind`` centred on (x, y): its colour, its pattern's glyph, its code."""
    colour = kind_colour(kind)
    ink = "#ffffff" if colour in _DARK else "#1d1d1d"
    label = (
        f'<text x="{_fmt(x)}" y="{_fmt(y + radius * 0.78)}" font-size="{_fmt(radius * 0.42)}" '
        f'text-anchor="middle" fill="{ink}" font-family="sans-serif">{colour}</text>'
        if radius >= 10
        else ""
    )
    return (
        f'<g class="hexagon {cls}"{_attrs(data_kind=kind, **data)}><title>{kind}</title>'
        f'<polygon points="{_hex_points(x, y, radius * 0.96)}" fill="{COLOUR_FILL[colour]}" '
        # A printed hexagon (on an expansion) has a gold rim; a tile a thin dark one.
        f'stroke="{"#b8860b" if cls == "printed" else "#222"}" '
        f'stroke-width="{2.5 if cls == "printed" else 0.8}"/>'
        f"{_glyph(kind_value(kind), x, y - radius * 0.1, radius * 0.9, ink)}{label}</g>"
    )


def attribute_markup(attribute: str, radius: float = 12) -> str:
    """An attribute as a hexagon centred on the origin: a colour as its fill and code, a pattern
    as its glyph on white (for the page's take buttons)."""
    if attribute in COLOUR_FILL:
        ink = "#ffffff" if attribute in _DARK else "#1d1d1d"
        return (
            f'<polygon points="{_hex_points(0, 0, radius)}" fill="{COLOUR_FILL[attribute]}" '
            f'stroke="#222"/><text y="{_fmt(radius * 0.35)}" font-size="{_fmt(radius)}" '
            f'text-anchor="middle" fill="{ink}" font-family="sans-serif">{attribute}</text>'
        )
    return f'<polygon points="{_hex_points(0, 0, radius)}" fill="#ffffff" stroke="#222"/>' + _glyph(
        int(attribute), 0, 0, radius, "#1d1d1d"
    )


def _text(x: float, y: float, text: str, size: float = 12, **extra: object) -> str:
    return (
        f'<text x="{_fmt(x)}" y="{_fmt(y)}" font-size="{_fmt(size)}" font-family="sans-serif"'
        f'{_attrs(**extra)} fill="#222">{escape(text)}</text>'
    )


def _element(seat: int, name: str, x: float, y: float, *, title: str | None = None) -> str:
    letter = name[0].upper()
    fill = {"fountain": "#7fc8e8", "statue": "#c9c2b4", "bench": "#b08a5a", "pavilion": "#e8a87c"}
    return (
        f'<g class="element"{_attrs(data_seat=seat, data_element=name)}>'
        f"<title>{escape(title or name)}</title>"
        f'<polygon points="{_hex_points(x, y, _CELL * 0.96)}" fill="{fill[name]}" '
        f'stroke="{_LINE}"/>'
        f'<text x="{_fmt(x)}" y="{_fmt(y + 4)}" font-size="11" font-weight="bold" '
        f'text-anchor="middle" font-family="sans-serif" fill="#222">{letter}</text></g>'
    )


def _free(seat: int, cell: str, x: float, y: float, fill: str) -> str:
    return (
        f'<polygon class="free"{_attrs(data_seat=seat, data_cell=cell)} '
        f'points="{_hex_points(x, y, _CELL * 0.96)}" fill="{fill}" stroke="{_LINE}" '
        f'stroke-width="0.8"><title>{cell}</title></polygon>'
    )


def _spot(seat: int, cell: str, ox: float, oy: float) -> str:
    """A petal of an area without an expansion: invisible until the page outlines it as a
    place for a stored expansion's printed hexagon."""
    x, y = _xy(*cell_position(cell), ox, oy)
    return (
        f'<polygon class="spot"{_attrs(data_seat=seat, data_cell=cell)} '
        f'points="{_hex_points(x, y, _CELL * 0.96)}" fill="transparent" stroke="none"/>'
    )


def _garden(seat: int, garden: Mapping[str, Any], ox: float, oy: float) -> list[str]:
    """Seat ``seat``'s garden centred on (ox, oy)."""
    tiles: Mapping[str, str] = garden["tiles"]
    out = [f'<g class="garden"{_attrs(data_seat=seat)}>']
    # Empty areas: a faint outline of where an expansion may go.
    for area, piece in enumerate(garden["areas"]):
        cq, cr = 3 * _D[area][0], 3 * _D[area][1]
        x, y = _xy(cq, cr, ox, oy)
        if piece is None:
            out.append(
                f'<g class="empty-area"{_attrs(data_seat=seat, data_area=area)}>'
                f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(_CELL * 2.3)}" fill="none" '
                f'stroke="#cfc7b2" stroke-dasharray="3 3"/>'
                + "".join(_spot(seat, f"a{area}{p}", ox, oy) for p in range(6))
                + f"{_text(x, y + 4, f'a{area}', 10, text_anchor='middle')}</g>"
            )
            continue
        face = piece["face"]
        back = "#e9e1c9" if face == "up" else "#d8d2c2"
        out.append(f'<g class="expansion"{_attrs(data_seat=seat, data_area=area, data_face=face)}>')
        cells = [f"a{area}c", *(f"a{area}{p}" for p in range(6))]
        for cell in cells:
            x, y = _xy(*cell_position(cell), ox, oy)
            if face == "up" and cell == f"a{area}c":
                out.append(_element(seat, "pavilion", x, y, title=f"pavilion of a{area}"))
            elif face == "up" and cell == f"a{area}{piece['petal']}":
                out.append(
                    hexagon_markup(
                        piece["kind"], x, y, _CELL, "printed", data_seat=seat, data_cell=cell
                    )
                )
            elif cell in tiles:
                out.append(
                    hexagon_markup(tiles[cell], x, y, _CELL, "tile", data_seat=seat, data_cell=cell)
                )
            else:
                out.append(_free(seat, cell, x, y, back))
        out.append("</g>")
    # The fountain board.
    x, y = _xy(0, 0, ox, oy)
    out.append(_element(seat, "fountain", x, y))
    for d in range(6):
        dq, dr = _D[d]
        eq, er = _D[(d + 1) % 6]
        x, y = _xy(dq + eq, dr + er, ox, oy)
        out.append(_element(seat, _DECORATIONS[d], x, y, title=f"d{d} {_DECORATIONS[d]}"))
        cell = f"f{d}"
        x, y = _xy(dq, dr, ox, oy)
        if cell in tiles:
            out.append(
                hexagon_markup(tiles[cell], x, y, _CELL, "tile", data_seat=seat, data_cell=cell)
            )
        else:
            out.append(_free(seat, cell, x, y, "#f3ecd6"))
    out.append("</g>")
    return out


def _storage(seat: int, storage: Mapping[str, Any], left: float, top: float) -> list[str]:
    """The 12 tile spaces (tiles, then jokers, then empty) and the 2 expansion spaces."""
    out = [f'<g class="storage"{_attrs(data_seat=seat)}>']
    step = _SMALL * 1.9
    items: list[str | None] = [*storage["tiles"], *(["*"] * storage["jokers"])]
    for i in range(12):
        x = left + _SMALL + (i % 6) * step
        y = top + _SMALL + (i // 6) * step
        item = items[i] if i < len(items) else None
        if item is None:
            out.append(
                f'<polygon class="space" points="{_hex_points(x, y, _SMALL * 0.96)}" '
                f'fill="none" stroke="#bdb49c"/>'
            )
        elif item == "*":
            out.append(
                f'<g class="joker"{_attrs(data_seat=seat)}><title>joker</title>'
                f'<polygon points="{_hex_points(x, y, _SMALL * 0.96)}" fill="#fff" stroke="#222"/>'
                f'<text x="{_fmt(x)}" y="{_fmt(y + 5)}" font-size="15" text-anchor="middle" '
                f'font-family="sans-serif" fill="#b8860b">*</text></g>'
            )
        else:
            out.append(hexagon_markup(item, x, y, _SMALL, "stored-tile", data_seat=seat))
    x0 = left + 6 * step + _SMALL * 0.6
    for i in range(2):
        x, y = x0 + _SMALL, top + _SMALL + i * step
        kinds: list[str] = storage["expansions"]
        if i < len(kinds):
            out.append(
                f'<rect x="{_fmt(x - _SMALL - 2)}" y="{_fmt(y - _SMALL - 1)}" '
                f'width="{_fmt(2 * _SMALL + 4)}" height="{_fmt(2 * _SMALL + 2)}" rx="3" '
                f'fill="#e8a87c"/>'
            )
            out.append(hexagon_markup(kinds[i], x, y, _SMALL, "stored-expansion", data_seat=seat))
        else:
            out.append(
                f'<rect class="space" x="{_fmt(x - _SMALL - 2)}" y="{_fmt(y - _SMALL - 1)}" '
                f'width="{_fmt(2 * _SMALL + 4)}" height="{_fmt(2 * _SMALL + 2)}" rx="3" '
                f'fill="none" stroke="#bdb49c" stroke-dasharray="2 2"/>'
            )
    out.append("</g>")
    return out


def _display(
    snap: Mapping[str, Any], left: float, top: float, stack_size: int, per_row: int | None
) -> list[str]:
    """The round's slots 0..S-1: the stack (top with its tiles, hidden ones under it) and the
    expansions that left it (face down with tiles, face up with their printed hexagon). In one
    row after the label, or ``per_row`` to a row under it."""
    out = ['<g class="display">', _text(left, top + 12, "Display", 13, font_weight="bold")]
    by_slot = {e["slot"]: e for e in snap["display"]}
    stack = snap["stack"]
    width = 70.0
    for slot in range(stack_size):
        if per_row is None:
            x, y = left + 70 + slot * (width + 8), top
        else:
            x = left + (slot % per_row) * (width + 8)
            y = top + 20 + (slot // per_row) * 100
        if stack is not None and slot == stack["slot"]:
            state, tiles, kind = "top", stack["tiles"], None
        elif stack is not None and stack["slot"] < slot <= stack["slot"] + stack["below"]:
            state, tiles, kind = "hidden", [], None
        elif slot in by_slot:
            entry = by_slot[slot]
            state = entry["face"]
            tiles = entry.get("tiles", [])
            kind = entry.get("kind")
        else:
            state, tiles, kind = "gone", [], None
        fill = {"top": "#d8d2c2", "hidden": "#a9a08a", "down": "#d8d2c2", "up": "#e9e1c9"}
        out.append(f'<g class="slot"{_attrs(data_slot=slot, data_state=state)}>')
        label = {"top": "stack top", "hidden": "in stack", "down": "face down", "up": "face up"}
        out.append(_text(x + width / 2, y + 12, f"slot {slot}", 11, text_anchor="middle"))
        out.append(_text(x + width / 2, y + 92, label.get(state, "taken"), 9, text_anchor="middle"))
        if state != "gone":
            out.append(
                f'<rect x="{_fmt(x)}" y="{_fmt(y + 16)}" width="{_fmt(width)}" height="64" '
                f'rx="6" fill="{fill[state]}" stroke="{_LINE}"/>'
            )
        else:
            out.append(
                f'<rect x="{_fmt(x)}" y="{_fmt(y + 16)}" width="{_fmt(width)}" height="64" '
                f'rx="6" fill="none" stroke="#cfc7b2" stroke-dasharray="3 3"/>'
            )
        if state == "hidden":
            out.append(_text(x + width / 2, y + 54, "?", 20, text_anchor="middle"))
        for i, tile in enumerate(tiles):
            hx = x + 18 + (i % 2) * 34
            hy = y + 32 + (i // 2) * 32
            out.append(hexagon_markup(tile, hx, hy, 13, "display-hexagon", data_slot=slot))
        if kind is not None:
            out.append(
                hexagon_markup(kind, x + width / 2, y + 48, 17, "display-hexagon", data_slot=slot)
            )
        out.append("</g>")
    out.append("</g>")
    return out


def _wheel(snap: Mapping[str, Any], wheel: list[list[str]], left: float, top: float) -> list[str]:
    placeholder = tuple(map(tuple, wheel)) == DEFAULT_WHEEL
    current = snap["round"]
    out = [
        f'<g class="wheel"{_attrs(data_round=current, data_placeholder=placeholder or None)}>',
        _text(
            left,
            top + 12,
            "Wheel" + (" (placeholder, not the printed wheel)" if placeholder else ""),
            12,
            font_weight="bold",
        ),
    ]
    for index, categories in enumerate(wheel):
        y = top + 30 + index * 20
        weight = "bold" if index + 1 == current else None
        mark = "\u00bb " if index + 1 == current else ""
        out.append(
            _text(
                left, y, f"{mark}round {index + 1}: {' '.join(categories)}", 12, font_weight=weight
            )
        )
    out.append("</g>")
    return out


def _seat_block(
    snap: Mapping[str, Any], seat: int, name: str, left: float, top: float, scale: float
) -> list[str]:
    """Seat ``seat``'s heading, garden and storage, :data:`_GARDEN_W` by :data:`_BLOCK_H`
    before ``scale``, with its top left corner at (left, top)."""
    to_move = snap["to_move"] == seat
    passed = snap["passed"][seat] and not snap["over"]
    tags = (" \u2014 to move" if to_move else "") + (" \u2014 passed" if passed else "")
    score = snap["scores"][seat]
    won = seat in snap["winners"]
    frame = (
        f'<rect x="-4" y="-4" width="{_fmt(_GARDEN_W - 8)}" height="{_fmt(_BLOCK_H - 2)}" '
        f'rx="8" fill="none" stroke="#c0392b" stroke-width="2"/>'
    )
    crown = " \u2605 winner" if won else ""
    heading = f"{name}: {score} points{crown}{tags}"
    winner = "true" if won else None
    return [
        f'<g class="seat"{_attrs(data_seat=seat)} '
        f'transform="translate({_fmt(left)} {_fmt(top)}) scale({_fmt(scale)})">',
        f'<g class="score"{_attrs(data_seat=seat, data_score=score, data_winner=winner)}>'
        + (frame if to_move else "")
        + _text(4, 14, heading, 13, font_weight="bold")
        + "</g>",
        *_garden(seat, snap["gardens"][seat], _GARDEN_W / 2 - 6, 150),
        *_storage(seat, snap["storage"][seat], 4, 282),
        "</g>",
    ]


def position_svg(
    snap: Mapping[str, Any],
    *,
    wheel: list[list[str]] | None = None,
    seats: list[str] | None = None,
    narrow: bool = False,
) -> str:
    """The position of snapshot ``snap`` as a standalone SVG. ``wheel`` is the rules' wheel
    (default: :data:`~indigo.queens_garden.DEFAULT_WHEEL`); ``seats`` names the seats.

    Wide (the default): the display and the wheel on top, the seats side by side. ``narrow``
    (for phones): one column, the display's slots four to a row, each seat below the other
    drawn :data:`NARROW_SCALE` times larger, so a hexagon stays big enough to tap."""
    players: int = snap["players"]
    table = [list(r) for r in (wheel or DEFAULT_WHEEL)]
    stack_size = {2: 5, 3: 7, 4: 8}[players]
    display_top = 40.0
    if narrow:
        width = _NARROW_W
        rows = -(-stack_size // 4)
        info_x, info_top = 10.0, display_top + 24 + rows * 100
        gardens_top = info_top + 130
        seat_step, scale = _BLOCK_H * NARROW_SCALE, NARROW_SCALE
        height = gardens_top + players * seat_step
    else:
        width = max(players * _GARDEN_W + 20, 70 + stack_size * 78 + 300)
        info_x, info_top = 70 + stack_size * 78 + 20, display_top
        gardens_top = display_top + 130
        seat_step, scale = 0.0, 1.0
        height = gardens_top + _BLOCK_H
    title = f"round {snap['round']} of 4, move {snap['moves_played']}"
    title = f"Round {title}" if narrow else f"Queen's Garden \u2014 {title}"
    body: list[str] = [
        f'<rect width="{_fmt(width)}" height="{_fmt(height)}" fill="{_PAPER}"/>',
        _text(
            10, 24, title + (" \u2014 game over" if snap["over"] else ""), 16, font_weight="bold"
        ),
    ]
    body += _display(snap, 10, display_top, stack_size, per_row=4 if narrow else None)
    piles = f"bag {snap['bag']} \u00b7 tower {len(snap['tower'])} \u00b7 supply {snap['supply']}"
    body.append(_text(info_x, info_top + 12, piles, 12, class_="piles"))
    body += _wheel(snap, table, info_x, info_top + 20)
    for seat in range(players):
        name = f"P{seat}" + (f" {seats[seat]}" if seats is not None else "")
        left = 6 if narrow else 10 + seat * _GARDEN_W
        body += _seat_block(snap, seat, name, left, gardens_top + seat * seat_step, scale)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="queens-garden" '
        f'data-moves="{snap["moves_played"]}" data-round="{snap["round"]}" '
        f'width="{_fmt(width)}" height="{_fmt(height)}" viewBox="0 0 {_fmt(width)} {_fmt(height)}">'
        + "".join(body)
        + "</svg>"
    )


def game_at(game: Game, move: int) -> Game:
    """A copy of ``game`` after its first ``move`` moves; :class:`~indigo.IndigoError` if out of
    range."""
    played = game.moves_played
    if not 0 <= move <= played:
        raise IndigoError(f"move must be from 0 to {played}, not {move}")
    copy = game.clone()
    for _ in range(played - move):
        copy.undo()
    return copy


def game_svg(
    game: Game, *, move: int | None = None, seats: list[str] | None = None, narrow: bool = False
) -> str:
    """``game`` (after ``move`` moves, default all) as a standalone SVG (see
    :func:`position_svg`)."""
    shown = game if move is None else game_at(game, move)
    return position_svg(shown.snapshot(), wheel=game.rules.wheel, seats=seats, narrow=narrow)
