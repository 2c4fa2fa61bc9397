"""A pure-Python reference engine for Indigo, written straight from ``docs/spec/RULES.md``.

It is slow, short and obviously correct on purpose: every table is copied from the spec (nothing
is derived from the engine under test, and nothing here imports the rest of ``indigo``), and
:meth:`RefGame.play` follows the reference algorithm of docs/spec/RULES.md section 7 line by line.
It is the oracle of the property and stateful tests, a differential oracle for other engines and
a speed baseline.

API: ``RefGame.from_rules(rules, pile)`` (or ``RefGame.from_record(record)``), ``legal_moves()``,
``is_legal(move)``, ``play(move)`` and ``snapshot(legal=...)`` (an ``indigo-snapshot/1`` dict).
A move is anything with ``tile``, ``rotation``, ``q`` and ``r`` attributes (e.g. ``indigo.Move``),
a record move dict, or a sequence ``(tile, rotation, q, r)``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

# --------------------------------------------------------------------------------------------
# docs/spec/RULES.md, copied
# --------------------------------------------------------------------------------------------

D = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]  # section 2: edge e -> neighbour offset
CENTRE = (0, 0)
CORNERS = [(0, -4), (4, -4), (4, 0), (0, 4), (-4, 4), (-4, 0)]  # section 2.1: K_d = 4 * D[d]
assert [(4 * dq, 4 * dr) for dq, dr in D] == CORNERS
GATE_CELLS = [  # section 2.2
    [(1, -4), (2, -4), (3, -4)],
    [(4, -3), (4, -2), (4, -1)],
    [(3, 1), (2, 2), (1, 3)],
    [(-1, 4), (-2, 4), (-3, 4)],
    [(-4, 3), (-4, 2), (-4, 1)],
    [(-3, -1), (-2, -2), (-1, -3)],
]
GATE_EXITS = [(k, (k + 1) % 6) for k in range(6)]  # as in docs/spec/RULES.md: (5, 0) for gate 5
GATE_EXIT_PAIRS = [tuple(sorted(p)) for p in GATE_EXITS]  # ascending, like rotated_pairs
GATE_OF_CELL = {cell: k for k, cells in enumerate(GATE_CELLS) for cell in cells}

TILE_COUNTS = [14, 6, 14, 14, 6]  # section 3
TILE_PAIRS = [
    [(0, 2), (1, 4), (3, 5)],
    [(0, 3), (1, 4), (2, 5)],
    [(0, 5), (1, 4), (2, 3)],
    [(0, 5), (1, 3), (2, 4)],
    [(0, 5), (1, 2), (3, 4)],
]
DISTINCT_ROTATIONS = [3, 1, 3, 6, 2]
BOX = [t for t, n in enumerate(TILE_COUNTS) for _ in range(n)]
GEM_POINTS = {"amber": 1, "emerald": 2, "sapphire": 3}  # section 8
# The 8 rule configurations (section 9): (players, hand_size, three_player_gates).
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
GEMS = ("amber", "emerald", "sapphire")

# Section 5, copied (not derived): gate -> owners.
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
    """docs/spec/RULES.md 6.2: on a gate cell a path may not join that gate's two exits."""
    k = GATE_OF_CELL.get(cell)
    return k is not None and GATE_EXIT_PAIRS[k] in _rotated_pairs(tile, rotation)


def owners_key(players: int, three_player_gates: str = "shared") -> str:
    if players == 3:
        return f"3-{three_player_gates}"
    return str(players)


MoveTuple = tuple[int, int, int, int]


def as_tuple(move: Any) -> MoveTuple:
    """``(tile, rotation, q, r)`` of a move object, a record move dict or a 4-sequence."""
    if isinstance(move, Mapping):
        return (move["tile"], move["rotation"], move["q"], move["r"])
    if hasattr(move, "tile"):
        return (move.tile, move.rotation, move.q, move.r)
    tile, rotation, q, r = move
    return (tile, rotation, q, r)


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------


class RefGame:
    """docs/spec/RULES.md sections 4-8, written for clarity, not speed."""

    def __init__(
        self,
        players: int,
        hand_size: int,
        three_player_gates: str,
        pile: Sequence[int],
        tie_break: str = "most-gems",
    ) -> None:
        assert players in (2, 3, 4)
        assert hand_size in (1, 2)
        assert sorted(pile) == BOX
        self.players = players
        self.hand_size = hand_size
        self.owners = GATE_OWNERS[owners_key(players, three_player_gates)]
        self.tie_break = tie_break
        self.pile = list(pile)
        self.pos = 0
        # Section 4: deal one tile per seat per round, seat 0 first.
        self.hands: list[list[int]] = [[] for _ in range(players)]
        for _ in range(hand_size):
            for seat in range(players):
                self.hands[seat].append(self.pile[self.pos])
                self.pos += 1
        self.tiles: dict[tuple[int, int], tuple[int, int]] = {}  # cell -> (tile, canonical rot)
        # partner[cell][edge]: the other end of the path entering ``cell`` at ``edge``.
        self.partner: dict[tuple[int, int], dict[int, int]] = {}
        for d, corner in enumerate(CORNERS):  # a corner's U-turn joins its flanks
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

    @classmethod
    def from_rules(cls, rules: Any, pile: Sequence[int]) -> RefGame:
        """From a record's ``rules`` dict or an object with those attributes (``indigo.Rules``)."""

        def get(key: str, default: Any = None) -> Any:
            if isinstance(rules, Mapping):
                return rules.get(key, default)
            return getattr(rules, key, default)

        return cls(
            int(get("players")),
            int(get("hand_size")),
            get("three_player_gates", "shared"),
            pile,
            get("tie_break", "most-gems"),
        )

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> RefGame:
        """An ``indigo-record/1`` (parsed, assumed valid) replayed."""
        game = cls.from_rules(record["rules"], record["pile"])
        for move in record["moves"]:
            game.play(move)
        return game

    # -- legality ---------------------------------------------------------------------------
    def is_legal(self, move: Any) -> bool:
        tile, rotation, q, r = as_tuple(move)
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

    def legal_moves(self) -> list[MoveTuple]:
        """Each distinct legal placement once, at its smallest rotation, sorted."""
        if self.over or self.to_move is None:
            return []
        out = []
        for tile in sorted(set(self.hands[self.to_move])):
            for rho in canonical_rotations(tile):
                for q, r in ROUTE_CELLS:
                    if self.is_legal((tile, rho, q, r)):
                        out.append((tile, rho, q, r))
        return sorted(out)

    # -- a turn -----------------------------------------------------------------------------
    def _dead_end(self, cell: tuple[int, int], edge: int) -> bool:
        if cell == CENTRE:
            return True
        if cell in CORNERS:
            d = CORNERS.index(cell)
            return edge == (d + 3) % 6
        return False

    def play(self, move: Any) -> None:
        """Play a legal move (asserted) and move the gems as docs/spec/RULES.md section 7 says."""
        tile, rotation, q, r = as_tuple(move)
        assert self.is_legal((tile, rotation, q, r)), f"illegal move {(tile, rotation, q, r)}"
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
                continue  # removed in a collision this turn
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
        # Section 6.3: no gem left on the board (centre included): over at once, nobody draws.
        if not self.gems and not self.centre:
            self.over = True
            self.to_move = None
            return
        if self.pos < len(self.pile):
            self.hands[seat].append(self.pile[self.pos])
            self.pos += 1
        for i in range(1, self.players + 1):  # the next seat that holds a tile
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
        """The ``indigo-snapshot/1`` of this position (the full view), as parsed JSON."""
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
            snap["legal"] = [list(m) for m in self.legal_moves()]
        return snap
