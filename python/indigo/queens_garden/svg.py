"""A Queen's Garden position as SVG: gardens, the display, storages, scores, round and wheel.

Drawn by the ``queens-garden`` crate (``position_svg`` there), the one picture of the game:
``indigo render``, Jupyter, the web app's server and its offline page (the same code compiled
to WebAssembly) all draw with it. Pure: :func:`position_svg` reads a
``queens-garden-snapshot/1`` dict (``Game.snapshot()``), so any position of a record can be
drawn; :func:`game_svg` draws a :class:`Game` (also ``Game._repr_svg_`` in Jupyter). A hexagon
is drawn in its colour WITH its pattern's glyph and its colour code, so nothing depends on
telling colours apart (the palette also keeps the light and dark pairs far apart in lightness,
for colour-blind players). Glyphs: 1 tree (a triangle), 2 bird (a chevron), 3 butterfly (a
bow), 4 flower (four petals), 5 plant (a five-point star), 6 lily (a ring of six dots).

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

import json
from collections.abc import Mapping
from typing import Any, Final

from indigo import IndigoError
from indigo._native import queens_garden as _qg
from indigo.queens_garden import COLOURS, Game

__all__ = [
    "COLOUR_FILL",
    "NARROW_SCALE",
    "attribute_markup",
    "game_at",
    "game_svg",
    "hexagon_markup",
    "position_svg",
]

COLOUR_FILL: Final[dict[str, str]] = dict(zip(COLOURS, _qg.COLOUR_FILL, strict=True))
"""Each colour code's fill: blue, yellow, light green, dark green, light purple, dark purple
(the light ones drawn with dark ink, the dark ones with white ink)."""
NARROW_SCALE: Final[float] = _qg.NARROW_SCALE
"""How much larger the narrow layout draws each seat (a garden hexagon 45 units wide)."""


def hexagon_markup(
    kind: str, x: float, y: float, radius: float, cls: str = "hexagon", **data: object
) -> str:
    """A hexagon of ``kind`` centred on (x, y): its colour, its pattern's glyph, its code
    (``data_seat=0`` adds ``data-seat="0"``)."""
    pairs = [(k.rstrip("_").replace("_", "-"), str(v)) for k, v in data.items() if v is not None]
    markup: str = _qg.hexagon_svg(kind, x, y, radius, cls, pairs)
    return markup


def attribute_markup(attribute: str) -> str:
    """An attribute as a hexagon centred on the origin: a colour as its fill and code, a pattern
    as its glyph on white (for the page's take buttons)."""
    markup: str = _qg.attribute_svg(attribute)
    return markup


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
    drawn :data:`NARROW_SCALE` times larger, so a hexagon stays big enough to tap.
    :class:`~indigo.IndigoError` names a field of ``snap`` that cannot be drawn."""
    rounds = None if wheel is None else [list(r) for r in wheel]
    svg: str = _qg.position_svg(json.dumps(snap), rounds, seats, narrow)
    return svg


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
