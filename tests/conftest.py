"""Shared fixtures and helpers for the indigo test suite.

Everything here is copied from ``shared/spec/RULES.md`` and ``shared/spec/FORMATS.md`` on purpose,
not read from the engine: the tests compare the engine with an independent statement of the rules.
``RefGame`` is a small, slow, obviously-written model of RULES.md (it follows the reference
algorithm of section 7 line by line); the property tests compare the engine with it.
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

VECTORS_DIR = Path(__file__).parent / "vectors"
GAME_FILES = sorted(VECTORS_DIR.glob("game-*.json"))

# --------------------------------------------------------------------------------------------
# RULES.md, copied
# --------------------------------------------------------------------------------------------

D = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
CENTRE = (0, 0)
CORNERS = [(4 * dq, 4 * dr) for dq, dr in D]
SPEC_CORNERS = [(0, -4), (4, -4), (4, 0), (0, 4), (-4, 4), (-4, 0)]
assert CORNERS == SPEC_CORNERS
GATE_CELLS = [
    [(1, -4), (2, -4), (3, -4)],
    [(4, -3), (4, -2), (4, -1)],
    [(3, 1), (2, 2), (1, 3)],
    [(-1, 4), (-2, 4), (-3, 4)],
    [(-4, 3), (-4, 2), (-4, 1)],
    [(-3, -1), (-2, -2), (-1, -3)],
]
GATE_EXITS = [(k, (k + 1) % 6) for k in range(6)]  # as in RULES.md: (5, 0) for gate 5
GATE_EXIT_PAIRS = [tuple(sorted(p)) for p in GATE_EXITS]  # ascending, like rotated_pairs
GATE_OF_CELL = {cell: k for k, cells in enumerate(GATE_CELLS) for cell in cells}

TILE_COUNTS = [14, 6, 14, 14, 6]
TILE_PAIRS = [
    [(0, 2), (1, 4), (3, 5)],
    [(0, 3), (1, 4), (2, 5)],
    [(0, 5), (1, 4), (2, 3)],
    [(0, 5), (1, 3), (2, 4)],
    [(0, 5), (1, 2), (3, 4)],
]
DISTINCT_ROTATIONS = [3, 1, 3, 6, 2]
BOX = [t for t, n in enumerate(TILE_COUNTS) for _ in range(n)]
GEM_POINTS = {"amber": 1, "emerald": 2, "sapphire": 3}
GEMS = ("amber", "emerald", "sapphire")

# RULES.md section 5, copied (not derived): gate -> owners.
GATE_OWNERS = {
    "2": [[0], [1], [0], [1], [0], [1]],
    "3-shared": [[0], [0, 1], [2], [0, 2], [1], [1, 2]],
    "3-exclusive": [[0], [1], [2], [0], [1], [2]],
    "4": [[0, 1], [1, 2], [0, 3], [1, 3], [0, 2], [2, 3]],
}


def dist(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


ALL_CELLS = sorted((q, r) for q in range(-4, 5) for r in range(-4, 5) if dist(q, r) <= 4)
ROUTE_CELLS = sorted(c for c in ALL_CELLS if c != CENTRE and c not in CORNERS)
assert len(ALL_CELLS) == 61
assert len(ROUTE_CELLS) == 54
CENTRE_NEIGHBOURS = [D[d] for d in range(6)]
ARROW_CELLS = [(3 * dq, 3 * dr) for dq, dr in D]


def neighbour(cell: tuple[int, int], edge: int) -> tuple[int, int]:
    return (cell[0] + D[edge][0], cell[1] + D[edge][1])


@functools.cache
def _rotated_pairs(tile: int, rotation: int) -> tuple[tuple[int, int], ...]:
    return tuple(
        sorted(
            tuple(sorted(((a + rotation) % 6, (b + rotation) % 6)))  # type: ignore[misc]
            for a, b in TILE_PAIRS[tile]
        )
    )


def rotated_pairs(tile: int, rotation: int) -> list[tuple[int, int]]:
    """The edge pairs of ``tile`` at ``rotation``, each ascending, sorted."""
    return list(_rotated_pairs(tile, rotation))


def canonical_rotation(tile: int, rotation: int) -> int:
    pairs = rotated_pairs(tile, rotation)
    return min(rho for rho in range(6) if rotated_pairs(tile, rho) == pairs)


@functools.cache
def _canonical_rotations(tile: int) -> tuple[int, ...]:
    return tuple(sorted({canonical_rotation(tile, rho) for rho in range(6)}))


def canonical_rotations(tile: int) -> list[int]:
    return list(_canonical_rotations(tile))


def equivalent_rotations(tile: int, rotation: int) -> list[int]:
    pairs = rotated_pairs(tile, rotation)
    return [rho for rho in range(6) if rotated_pairs(tile, rho) == pairs]


def joins_gate_exits(tile: int, rotation: int, cell: tuple[int, int]) -> bool:
    """RULES.md 6.2: on a gate cell a path may not join that gate's two exits."""
    k = GATE_OF_CELL.get(cell)
    return k is not None and GATE_EXIT_PAIRS[k] in _rotated_pairs(tile, rotation)


def owners_key(players: int, three_player_gates: str = "shared") -> str:
    if players == 3:
        return f"3-{three_player_gates}"
    return str(players)


# --------------------------------------------------------------------------------------------
# Configurations, piles, vectors
# --------------------------------------------------------------------------------------------

# The 8 configurations: (players, hand_size, three_player_gates).
CONFIGS = [
    (2, 1, "shared"),
    (2, 2, "shared"),
    (3, 1, "shared"),
    (3, 2, "shared"),
    (3, 1, "exclusive"),
    (3, 2, "exclusive"),
    (4, 1, "shared"),
    (4, 2, "shared"),
]


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
    """The fields of ``snapshot`` that FORMATS.md defines (the keys of ``expected``)."""
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


# --------------------------------------------------------------------------------------------
# An independent reference model of RULES.md
# --------------------------------------------------------------------------------------------


class RefGame:
    """RULES.md sections 4-8, written for clarity, not speed."""

    def __init__(
        self,
        players: int,
        hand_size: int,
        three_player_gates: str,
        pile: Sequence[int],
        tie_break: str = "most-gems",
    ) -> None:
        self.players = players
        self.hand_size = hand_size
        self.owners = GATE_OWNERS[owners_key(players, three_player_gates)]
        self.tie_break = tie_break
        self.pile = list(pile)
        self.pos = 0
        self.hands: list[list[int]] = [[] for _ in range(players)]
        for _ in range(hand_size):
            for seat in range(players):
                self.hands[seat].append(self.pile[self.pos])
                self.pos += 1
        self.tiles: dict[tuple[int, int], tuple[int, int]] = {}  # cell -> (tile, canonical rot)
        self.partner: dict[tuple[int, int], dict[int, int]] = {}
        for d, corner in enumerate(CORNERS):
            a, b = (d + 2) % 6, (d + 4) % 6
            self.partner[corner] = {a: b, b: a}
        self.gems: dict[tuple[tuple[int, int], int], str] = {
            (corner, (d + 3) % 6): "amber" for d, corner in enumerate(CORNERS)
        }
        self.centre = ["emerald"] * 5 + ["sapphire"]
        self.scores = [0] * players
        self.collected = [dict.fromkeys(GEMS, 0) for _ in range(players)]
        self.removed = 0
        self.to_move: int | None = 0
        self.over = False
        # What the last placement did: [(gem, outcome, gate)], outcome in rested/collected/collided
        self.last_events: list[tuple[str, str, int | None]] = []

    # -- legality ---------------------------------------------------------------------------
    def is_legal(self, tile: int, rotation: int, q: int, r: int) -> bool:
        if self.over or self.to_move is None:
            return False
        cell = (q, r)
        return (
            tile in self.hands[self.to_move]
            and 0 <= rotation < 6
            and cell in ROUTE_CELLS
            and cell not in self.tiles
            and not joins_gate_exits(tile, rotation, cell)
        )

    def legal(self) -> list[list[int]]:
        if self.over or self.to_move is None:
            return []
        out = []
        for tile in sorted(set(self.hands[self.to_move])):
            for rho in canonical_rotations(tile):
                for q, r in ROUTE_CELLS:
                    if self.is_legal(tile, rho, q, r):
                        out.append([tile, rho, q, r])
        return sorted(out)

    # -- a turn -----------------------------------------------------------------------------
    def _dead_end(self, cell: tuple[int, int], edge: int) -> bool:
        if cell == CENTRE:
            return True
        if cell in CORNERS:
            d = CORNERS.index(cell)
            return edge == (d + 3) % 6
        return False

    def play(self, tile: int, rotation: int, q: int, r: int) -> None:
        assert self.is_legal(tile, rotation, q, r)
        seat = self.to_move
        assert seat is not None
        y = (q, r)
        self.hands[seat].remove(tile)
        self.tiles[y] = (tile, canonical_rotation(tile, rotation))
        part: dict[int, int] = {}
        for a, b in rotated_pairs(tile, rotation):
            part[a], part[b] = b, a
        self.partner[y] = part
        self.last_events = []
        movers = []
        for e in range(6):
            n = neighbour(y, e)
            f = (e + 3) % 6
            if n == CENTRE:
                self.gems[(CENTRE, f)] = self.centre.pop(0)
            if (n, f) in self.gems:
                movers.append((n, f))
        resting_events: dict[tuple[tuple[int, int], int], int] = {}
        for start in movers:
            if start not in self.gems:
                continue
            g = self.gems.pop(start)
            c, b = start
            while True:
                m = neighbour(c, b)
                f = (b + 3) % 6
                if dist(*m) > 4:
                    k = GATE_OF_CELL[c]
                    for owner in self.owners[k]:
                        self.scores[owner] += GEM_POINTS[g]
                        self.collected[owner][g] += 1
                    self.last_events.append((g, "collected", k))
                    break
                if (m not in self.partner and m != CENTRE) or self._dead_end(m, f):
                    self.gems[(c, b)] = g
                    resting_events[(c, b)] = len(self.last_events)
                    self.last_events.append((g, "rested", None))
                    break
                if (m, f) in self.gems:
                    other = self.gems.pop((m, f))
                    self.removed += 2
                    self.last_events.append((g, "collided", None))
                    if (m, f) in resting_events:  # it rested earlier in this placement
                        i = resting_events.pop((m, f))
                        self.last_events[i] = (other, "collided", None)
                    else:
                        self.last_events.append((other, "collided", None))
                    break
                c, b = m, self.partner[m][f]
        if not self.gems and not self.centre:
            self.over = True
            self.to_move = None
            return
        if self.pos < len(self.pile):
            self.hands[seat].append(self.pile[self.pos])
            self.pos += 1
        for i in range(1, self.players + 1):
            nxt = (seat + i) % self.players
            if self.hands[nxt]:
                self.to_move = nxt
                return
        self.over = True
        self.to_move = None

    # -- results ----------------------------------------------------------------------------
    def winners(self) -> list[int]:
        if not self.over:
            return []
        best = max(self.scores)
        tied = [s for s in range(self.players) if self.scores[s] == best]
        if self.tie_break == "most-gems":
            count = [sum(self.collected[s].values()) for s in range(self.players)]
            most = max(count[s] for s in tied)
            tied = [s for s in tied if count[s] == most]
        return tied

    def snapshot(self, legal: bool = False) -> dict[str, Any]:
        snap: dict[str, Any] = {
            "format": "indigo-snapshot/1",
            "players": self.players,
            "to_move": self.to_move,
            "placed": len(self.tiles),
            "board": [
                {"q": q, "r": r, "tile": t, "rotation": rho}
                for (q, r), (t, rho) in sorted(self.tiles.items())
            ],
            "gems": [
                {"gem": g, "q": c[0], "r": c[1], "edge": e}
                for (c, e), g in sorted(self.gems.items())
            ],
            "centre": list(self.centre),
            "scores": list(self.scores),
            "collected": [dict(c) for c in self.collected],
            "removed": self.removed,
            "hands": [sorted(h) for h in self.hands],
            "pile_left": len(self.pile) - self.pos,
            "over": self.over,
            "winners": self.winners(),
        }
        if legal:
            snap["legal"] = self.legal()
        return snap


def illegal_moves(game: indigo.Game) -> dict[str, list[indigo.Move]]:
    """Moves of every illegal kind for the seat to move, by kind (RULES.md 6, FORMATS.md)."""
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
    assert [list(t) for t in tuples] == ref.legal()
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
