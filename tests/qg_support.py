"""Shared helpers for the Queen's Garden tests: the vectors, and the spec's invariants restated
from ``docs/spec/QUEENS_GARDEN.md`` (geometry, conservation, storage limits, group rule)
independently of the engine."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_DIRS = [Path(__file__).parent / "vectors-qg", Path("/work/shared/vectors-qg")]
VECTORS_QG = next(d for d in _DIRS if (d / "bad-records.json").is_file())
GAME_FILES = sorted(VECTORS_QG.glob("game-*.json"))
GAME_NAMES = [p.name for p in GAME_FILES]

STACK_SIZE = {2: 5, 3: 7, 4: 8}
MOVE_BOUND = {2: 216, 3: 314, 4: 392}
"""docs/spec/QUEENS_GARDEN.md section 14: at most 4 (5S + P) + 54P moves."""

COLOURS = ("bl", "ye", "lg", "dg", "lp", "dp")
KINDS = tuple(c + str(v) for c in COLOURS for v in range(1, 7))
KIND_ID = {k: i for i, k in enumerate(KINDS)}
D = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


@functools.cache
def _text(name: str) -> str:
    return (VECTORS_QG / name).read_text(encoding="utf-8")


def load(name: str) -> Any:
    """A fresh parsed copy of a vector file (safe to mutate)."""
    return json.loads(_text(name))


def legal_digest(legal: list[str]) -> str:
    return hashlib.sha256(json.dumps(legal, separators=(",", ":")).encode()).hexdigest()


def check_snapshot(got: dict[str, Any], expected: dict[str, Any], where: str) -> None:
    """``got`` matches the vector snapshot on every QG_FORMATS.md field it holds; the legal
    list by content where given, else by count and SHA-256."""
    fields = set(expected) - {"legal", "legal_count", "legal_sha256"}
    missing = fields - set(got)
    assert not missing, f"{where}: snapshot lacks {sorted(missing)}"
    for key in sorted(fields):
        assert got[key] == expected[key], f"{where}: {key} is {got[key]!r}, not {expected[key]!r}"
    if "legal" in expected:
        assert got["legal"] == expected["legal"], f"{where}: legal moves differ"
    assert len(got["legal"]) == expected["legal_count"], f"{where}: legal count"
    assert legal_digest(got["legal"]) == expected["legal_sha256"], f"{where}: legal digest"


def position(cell: str) -> tuple[int, int]:
    """Axial coordinates of a cell name (docs/spec/QUEENS_GARDEN.md section 2.4)."""
    if cell[0] == "f":
        return D[int(cell[1])]
    a = int(cell[1])
    centre = (3 * D[a][0], 3 * D[a][1])
    if cell[2] == "c":
        return centre
    p = int(cell[2])
    return centre[0] + D[p][0], centre[1] + D[p][1]


def hexagons(garden: dict[str, Any]) -> dict[tuple[int, int], str]:
    """Position -> kind of every hexagon of a snapshot garden: tiles and printed hexagons."""
    out = {position(cell): kind for cell, kind in garden["tiles"].items()}
    for area, piece in enumerate(garden["areas"]):
        if piece is not None and piece["face"] == "up":
            cell = f"a{area}{piece['petal']}"
            assert position(cell) not in out, f"{cell} holds a tile and a printed hexagon"
            out[position(cell)] = piece["kind"]
    return out


def groups(garden: dict[str, Any]) -> Iterator[list[str]]:
    """Every colour group and pattern group (connected, hexagon to hexagon) as lists of kinds."""
    placed = hexagons(garden)
    for attribute in (lambda k: k[:2], lambda k: k[2]):
        seen: set[tuple[int, int]] = set()
        for start in placed:
            if start in seen:
                continue
            seen.add(start)
            todo, members = [start], []
            while todo:
                here = todo.pop()
                members.append(placed[here])
                for dq, dr in D:
                    there = (here[0] + dq, here[1] + dr)
                    if (
                        there in placed
                        and there not in seen
                        and attribute(placed[there]) == attribute(placed[start])
                    ):
                        seen.add(there)
                        todo.append(there)
            yield members


def check_invariants(snap: dict[str, Any]) -> None:
    """Conservation of tiles (108) and expansions (36), storage limits, the group rule, scores
    never negative: what every reachable position satisfies."""
    players = snap["players"]
    size = STACK_SIZE[players]
    stack = snap["stack"]
    tiles = (
        snap["bag"]
        + len(snap["tower"])
        + (len(stack["tiles"]) if stack else 0)
        + sum(len(d.get("tiles", [])) for d in snap["display"])
        + sum(len(s["tiles"]) for s in snap["storage"])
        + sum(len(g["tiles"]) for g in snap["gardens"])
    )
    assert tiles == 108, f"{tiles} tiles"
    expansions = (
        snap["supply"]
        + len(snap["display"])
        + (1 + stack["below"] if stack else 0)
        + (4 - snap["round"]) * size
        + sum(len(s["expansions"]) for s in snap["storage"])
        + sum(a is not None for g in snap["gardens"] for a in g["areas"])
    )
    assert expansions == 36, f"{expansions} expansions"
    for store in snap["storage"]:
        assert len(store["tiles"]) + store["jokers"] <= 12
        assert len(store["expansions"]) <= 2
    for garden in snap["gardens"]:
        for group in groups(garden):
            assert len(group) == len(set(group)), f"a group holds identical hexagons: {group}"
    assert all(score >= 0 for score in snap["scores"])
