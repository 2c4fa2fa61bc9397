"""Shared fixtures and helpers for the indigo test suite.

The rules tables and ``RefGame`` come from ``indigo.reference``, a pure-Python reference
engine copied from ``docs/spec/RULES.md`` on purpose, not read from the engine: the tests compare
the engine with an independent statement of the rules. They are re-exported here for the tests.
"""

from __future__ import annotations

import functools
import json
import pickle
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import indigo
from indigo.reference import (
    ALL_CELLS,
    BOX,
    CONFIGS,
    CORNERS,
    DISTINCT_ROTATIONS,
    GATE_CELLS,
    GATE_OWNERS,
    GEM_POINTS,
    GEMS,
    ROUTE_CELLS,
    TILE_COUNTS,
    TILE_PAIRS,
    RefGame,
    canonical_rotation,
    canonical_rotations,
    equivalent_rotations,
    joins_gate_exits,
    owners_key,
    rotated_pairs,
)

__all__ = [
    "ALL_CELLS",
    "BOX",
    "CORNERS",
    "DISTINCT_ROTATIONS",
    "GATE_CELLS",
    "GATE_OWNERS",
    "GEMS",
    "GEM_POINTS",
    "ROUTE_CELLS",
    "TILE_COUNTS",
    "TILE_PAIRS",
    "RefGame",
    "canonical_rotation",
    "canonical_rotations",
    "equivalent_rotations",
    "owners_key",
    "rotated_pairs",
]

VECTORS_DIR = Path(__file__).parent / "vectors"
GAME_FILES = sorted(VECTORS_DIR.glob("game-*.json"))

# --------------------------------------------------------------------------------------------
# Configurations, piles, vectors
# --------------------------------------------------------------------------------------------


def config_id(config: tuple[int, int, str]) -> str:
    players, hand_size, gates = config
    variant = f"-{gates}" if players == 3 else ""
    return f"{players}p{variant}-hand{hand_size}"


CONFIG_IDS = [config_id(c) for c in CONFIGS]


def make_rules(config: tuple[int, int, str], **kwargs: Any) -> indigo.Rules:
    players, hand_size, gates = config
    return indigo.Rules(players, hand_size, three_player_gates=gates, **kwargs)  # type: ignore[arg-type]


def rules_dict(config: tuple[int, int, str]) -> dict[str, Any]:
    players, hand_size, gates = config
    d: dict[str, Any] = {"players": players, "hand_size": hand_size}
    if players == 3:
        d["three_player_gates"] = gates
    return d


def make_pile(prefix: Sequence[int] = (), seed: int | None = None) -> list[int]:
    """A permutation of the box that starts with ``prefix``.

    The rest is the remaining tiles in type order, or shuffled with ``seed``.
    """
    left = Counter(BOX)
    for t in prefix:
        assert left[t] > 0, f"the box has no more tiles of type {t}"
        left[t] -= 1
    rest = [t for t in range(5) for _ in range(left[t])]
    if seed is not None:
        random.Random(seed).shuffle(rest)
    pile = [*prefix, *rest]
    assert sorted(pile) == BOX
    return pile


def python_pile(seed: int) -> list[int]:
    """The pile as FORMATS.md / the .pyi define it: ``random.Random(seed).shuffle(box)``."""
    box = list(BOX)
    random.Random(seed).shuffle(box)
    return box


@functools.cache
def _load_vector(name: str) -> str:
    return (VECTORS_DIR / name).read_text(encoding="utf-8")


def load_vector(name: str) -> Any:
    """A fresh parsed copy of a vector file (safe to mutate)."""
    return json.loads(_load_vector(name))


def normalise(value: Any) -> Any:
    """JSON round trip: tuples become lists, so engine output compares with parsed JSON."""
    return json.loads(json.dumps(value))


def restrict(snapshot: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``snapshot`` that docs/spec/FORMATS.md defines (the keys of ``expected``)."""
    missing = sorted(set(expected) - set(snapshot))
    assert not missing, f"snapshot lacks fields {missing}"
    return normalise({k: snapshot[k] for k in expected})


def snapshot_diff(got: dict[str, Any], expected: dict[str, Any]) -> str:
    lines = []
    for k in sorted(expected):
        if got.get(k) != expected[k]:
            lines.append(f"  {k}: got {got.get(k)!r}\n  {' ' * len(k)}  expected {expected[k]!r}")
    return "\n".join(lines)


def move_tuple(m: indigo.Move) -> tuple[int, int, int, int]:
    return (m.tile, m.rotation, m.q, m.r)


def illegal_moves(game: indigo.Game) -> dict[str, list[indigo.Move]]:
    """Moves of every illegal kind for the seat to move, by kind (docs/spec/RULES.md 6,
    docs/spec/FORMATS.md)."""
    seat = game.to_move
    assert seat is not None
    hand = game.hand(seat)
    tile = hand[0]
    board = {tuple(c) for c in game.board}
    empty = [c for c in ROUTE_CELLS if c not in board]
    kinds: dict[str, list[indigo.Move]] = {
        "occupied": [indigo.Move(tile, rho, q, r) for q, r in sorted(board) for rho in (0, 1)],
        "centre": [indigo.Move(t, 0, 0, 0) for t in sorted(set(hand))],
        "corner": [indigo.Move(tile, rho, q, r) for q, r in CORNERS for rho in (0, 3)],
        "not-in-hand": [
            indigo.Move(t, rho, *cell)
            for t in sorted(set(range(5)) - set(hand))
            for rho in (0, 1)
            for cell in empty[:3]
        ],
        "gate": [
            indigo.Move(t, rho, *cell)
            for t in sorted(set(hand))
            for rho in range(6)
            for cell in empty
            if joins_gate_exits(t, rho, cell)
        ],
    }
    return kinds


# --------------------------------------------------------------------------------------------
# Fixtures
# --------------------------------------------------------------------------------------------


@pytest.fixture(params=CONFIGS, ids=CONFIG_IDS)
def config(request: pytest.FixtureRequest) -> tuple[int, int, str]:
    """Each of the 8 configurations ``(players, hand_size, three_player_gates)``."""
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=[p.name for p in GAME_FILES])
def vector(request: pytest.FixtureRequest) -> dict[str, Any]:
    """One conformance game (a fresh copy), parametrized over the vector files."""
    return load_vector(request.param)  # type: ignore[no-any-return]


def iter_vectors() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in GAME_FILES:
        yield path.name, load_vector(path.name)


def check_legal_list(game: indigo.Game, ref: RefGame) -> None:
    """Legal list: sorted, distinct, canonical, the model's, empty only at the end."""
    legal = game.legal_moves
    tuples = [move_tuple(m) for m in legal]
    assert tuples == sorted(tuples)
    assert len(set(tuples)) == len(tuples)
    assert all(m.canonical() == m for m in legal)
    assert tuples == ref.legal_moves()
    empty_route_cells = [c for c in ROUTE_CELLS if game.tile_at(*c) is None]
    if not game.over:
        assert empty_route_cells
        assert legal
    else:
        assert legal == []


def assert_pickle_round_trip(game: indigo.Game, protocol: int = pickle.DEFAULT_PROTOCOL) -> None:
    """A pickled game comes back equal, with the same history, and undo still works."""
    back = pickle.loads(pickle.dumps(game, protocol=protocol))
    assert back == game
    assert hash(back) == hash(game)
    assert back.snapshot(legal=True) == game.snapshot(legal=True)
    assert back.moves == game.moves
    assert back.rules == game.rules
    assert back.seed == game.seed
    assert back.pile == game.pile
    if game.moves:
        original = game.clone()
        assert back.undo() == original.undo()
        assert back == original
        assert back.snapshot(legal=True) == original.snapshot(legal=True)
