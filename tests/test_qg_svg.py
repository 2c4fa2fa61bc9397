"""The Queen's Garden picture (``indigo.queens_garden.svg``): everything in a position is drawn."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

from indigo import IndigoError
from indigo import queens_garden as qg
from indigo.queens_garden.svg import COLOUR_FILL, game_at, game_svg, hexagon_markup, position_svg
from qg_support import GAME_NAMES, load

NS = "{http://www.w3.org/2000/svg}"


def _classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def _find(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in _classes(e)]


def _played(players: int, seed: int, moves: int | None) -> qg.Game:
    game = qg.Game(qg.Rules(players), seed=seed)
    bot = qg.make_bot("random", seed=seed)
    while not game.over and (moves is None or game.moves_played < moves):
        game.play(bot.choose(game))
    return game


def _glyph_of(hexagon: ET.Element) -> ET.Element:
    glyphs = _find(hexagon, "glyph")
    assert len(glyphs) == 1, ET.tostring(hexagon)
    return glyphs[0]


def _check_all_drawn(snap: dict[str, Any], root: ET.Element) -> None:
    """Every placed tile, printed hexagon, element, storage item and display hexagon of
    ``snap`` is drawn once, each hexagon in its colour with a pattern glyph."""
    for hexagon in _find(root, "hexagon"):
        kind = hexagon.get("data-kind")
        assert kind in qg.KINDS
        polygon = hexagon.find(f"{NS}polygon")
        assert polygon is not None
        assert polygon.get("fill") == COLOUR_FILL[kind[:2]]
        _glyph_of(hexagon)
    tiles = {
        (int(t.get("data-seat", "")), t.get("data-cell")): t.get("data-kind")
        for t in _find(root, "tile")
    }
    printed = {
        (int(t.get("data-seat", "")), t.get("data-cell")): t.get("data-kind")
        for t in _find(root, "printed")
    }
    elements = Counter(
        (int(e.get("data-seat", "")), e.get("data-element")) for e in _find(root, "element")
    )
    for seat, garden in enumerate(snap["gardens"]):
        assert {c: k for (s, c), k in tiles.items() if s == seat} == garden["tiles"]
        up = [(a, p) for a, p in enumerate(garden["areas"]) if p is not None and p["face"] == "up"]
        assert {c: k for (s, c), k in printed.items() if s == seat} == {
            f"a{a}{p['petal']}": p["kind"] for a, p in up
        }
        assert elements[seat, "fountain"] == 1
        assert elements[seat, "statue"] == 3
        assert elements[seat, "bench"] == 3
        assert elements[seat, "pavilion"] == len(up)
        faces = {
            int(e.get("data-area", "")): e.get("data-face")
            for e in _find(root, "expansion")
            if e.get("data-seat") == str(seat)
        }
        assert faces == {a: p["face"] for a, p in enumerate(garden["areas"]) if p is not None}
        store = snap["storage"][seat]
        mine = [e for e in root.iter() if e.get("data-seat") == str(seat)]
        assert sorted(e.get("data-kind") for e in mine if "stored-tile" in _classes(e)) == sorted(
            store["tiles"]
        )
        assert sorted(
            e.get("data-kind") for e in mine if "stored-expansion" in _classes(e)
        ) == sorted(store["expansions"])
        assert sum("joker" in _classes(e) for e in mine) == store["jokers"]
        score = [e for e in _find(root, "score") if e.get("data-seat") == str(seat)]
        assert score[0].get("data-score") == str(snap["scores"][seat])
    shown = Counter(
        (int(h.get("data-slot", "")), h.get("data-kind")) for h in _find(root, "display-hexagon")
    )
    expected: Counter[tuple[int, str]] = Counter()
    if snap["stack"] is not None:
        expected.update((snap["stack"]["slot"], k) for k in snap["stack"]["tiles"])
    for piece in snap["display"]:
        kinds = piece.get("tiles", []) if piece["face"] == "down" else [piece["kind"]]
        expected.update((piece["slot"], k) for k in kinds)
    assert shown == expected
    wheel = _find(root, "wheel")[0]
    assert wheel.get("data-round") == str(snap["round"])


@pytest.mark.parametrize(
    ("players", "seed", "moves"), [(2, 7, 0), (2, 3, 40), (3, 5, 90), (4, 1, None)]
)
def test_every_piece_is_drawn(players: int, seed: int, moves: int | None) -> None:
    game = _played(players, seed, moves)
    svg = game_svg(game)
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    _check_all_drawn(game.snapshot(), root)
    assert game._repr_svg_() == svg
    narrow = ET.fromstring(game_svg(game, narrow=True))
    _check_all_drawn(game.snapshot(), narrow)
    assert narrow.get("width") == "390"


def test_free_spaces_are_the_empty_cells() -> None:
    game = _played(2, 11, 60)
    root = ET.fromstring(game_svg(game))
    for seat, garden in enumerate(game.gardens):
        free = {e.get("data-cell") for e in _find(root, "free") if e.get("data-seat") == str(seat)}
        cells = {f"f{d}" for d in range(6)}
        for area, piece in enumerate(garden["areas"]):
            if piece is None:
                continue
            cells |= {f"a{area}{p}" for p in range(6)}
            if piece["face"] == "down":
                cells.add(f"a{area}c")
            else:
                cells.discard(f"a{area}{piece['petal']}")
        assert free == cells - set(garden["tiles"])
        spots = {e.get("data-cell") for e in _find(root, "spot") if e.get("data-seat") == str(seat)}
        empty = [a for a, piece in enumerate(garden["areas"]) if piece is None]
        assert spots == {f"a{a}{p}" for a in empty for p in range(6)}


def test_every_pattern_has_its_own_glyph_and_colour() -> None:
    glyphs = set()
    for value in range(1, 7):
        markup = hexagon_markup(f"bl{value}", 0, 0, 15)
        root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{markup}</svg>')
        glyph = _glyph_of(_find(root, "hexagon")[0])
        glyphs.add(ET.tostring(glyph))
    assert len(glyphs) == 6
    assert len(set(COLOUR_FILL.values())) == 6


def test_the_default_wheel_is_labelled_a_placeholder() -> None:
    game = qg.Game(qg.Rules(2), seed=1)
    wheel = _find(ET.fromstring(game_svg(game)), "wheel")[0]
    assert wheel.get("data-placeholder") == "True"
    assert "placeholder" in ET.tostring(wheel, encoding="unicode")
    other = qg.Game(
        qg.Rules(
            2, wheel=[["1", "2", "3"], ["bl", "ye", "lg"], ["4", "5", "6"], ["dg", "lp", "dp"]]
        ),
        seed=1,
    )
    wheel = _find(ET.fromstring(game_svg(other)), "wheel")[0]
    assert wheel.get("data-placeholder") is None
    assert "round 1: 1 2 3" in ET.tostring(wheel, encoding="unicode")


def test_a_past_position_and_a_bad_move_number() -> None:
    game = _played(2, 4, 30)
    assert game_svg(game, move=10) == position_svg(game_at(game, 10).snapshot())
    assert game_at(game, 10).moves_played == 10
    assert game.moves_played == 30
    with pytest.raises(IndigoError, match="from 0 to 30"):
        game_svg(game, move=31)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_vectors_final_position(name: str) -> None:
    vector = load(name)
    game = qg.Game.from_record(vector["record"])
    root = ET.fromstring(game_svg(game))
    _check_all_drawn(game.snapshot(), root)
    if game.over:
        winners = {
            int(e.get("data-seat", "")) for e in _find(root, "score") if e.get("data-winner")
        }
        assert winners == set(game.winners)


# Machado, Oliveira and Fernandes (2009), severity 1.0: linear-RGB simulations of dichromacy.
_DICHROMACY = {
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _lab(hex_colour: str, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    """CIELAB (D65) of ``hex_colour`` as a viewer with that dichromacy sees it."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    rgb = [linear(int(hex_colour[i : i + 2], 16) / 255) for i in (1, 3, 5)]
    r, g, b = (min(max(sum(m * c for m, c in zip(row, rgb, strict=True)), 0), 1) for row in matrix)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


@pytest.mark.parametrize("kind", sorted(_DICHROMACY))
def test_the_palette_stays_apart_for_colour_blind_viewers(kind: str) -> None:
    """Each pair of the six fills differs by at least 15 (CIELAB 1976) under a full
    simulation of each dichromacy (the glyphs and codes carry the attributes anyway)."""
    seen = {code: _lab(fill, _DICHROMACY[kind]) for code, fill in COLOUR_FILL.items()}
    closest = min(math.dist(seen[a], seen[b]) for a, b in itertools.combinations(seen, 2))
    assert closest >= 15, (kind, closest)


def test_a_snapshot_that_cannot_be_drawn_is_refused_by_name() -> None:
    """The crate draws what it is given: a missing or wrong field raises, naming it."""
    snap = qg.Game(qg.Rules(2), seed=3).snapshot()
    with pytest.raises(IndigoError, match="snapshot: players: must be 2, 3 or 4, not 9"):
        position_svg({**snap, "players": 9})
    with pytest.raises(IndigoError, match="snapshot: storage: missing"):
        position_svg({k: v for k, v in snap.items() if k != "storage"})
    gardens = [{"tiles": {"f0": "zz9"}, "areas": [None] * 6}] * 2
    with pytest.raises(IndigoError, match="zz9"):
        position_svg({**snap, "gardens": gardens})
