"""Type stubs for the private native module ``indigo._native`` (built from ``rust/python``).

Import from :mod:`indigo`, not from here. ``tests/test_stubs.py`` checks these stubs against the
compiled module with mypy's ``stubtest``.
"""

from collections.abc import Mapping, Sequence
from typing import Any, final

from indigo.types import GateVariant, GemName, Outcome, ThemeName, TieBreak

__all__ = [
    "CELLS",
    "CENTRE",
    "CORNERS",
    "GATE_CELLS",
    "GEM_POINTS",
    "ROUTE_CELLS",
    "TILE_COUNTS",
    "TILE_PATHS",
    "Game",
    "GemPath",
    "GreedyBot",
    "IllegalMoveError",
    "IndigoError",
    "Move",
    "MoveError",
    "MoveResult",
    "RandomBot",
    "RecordError",
    "Rules",
    "RulesError",
    "__version__",
]

__version__: str

CELLS: list[tuple[int, int]]
"""All 61 cells ``(q, r)``, sorted."""
ROUTE_CELLS: list[tuple[int, int]]
"""The 54 cells that take a route tile, sorted."""
CENTRE: tuple[int, int]
CORNERS: list[tuple[int, int]]
"""Corner ``K_d`` for ``d = 0..5``."""
GATE_CELLS: list[list[tuple[int, int]]]
"""The three gate cells of each gate ``k = 0..5``."""
TILE_COUNTS: list[int]
"""How many tiles of each type 0..4 the box holds: ``[14, 6, 14, 14, 6]``."""
TILE_PATHS: list[list[tuple[int, int]]]
"""The three edge pairs of each tile type at rotation 0 (RULES.md section 3)."""
GEM_POINTS: dict[GemName, int]

class IndigoError(ValueError):
    """Base class of every error this package raises for bad input."""

class RulesError(IndigoError):
    """Rules that are not a valid configuration (e.g. 5 players)."""

class MoveError(IndigoError):
    """A move value that cannot exist: bad notation, tile type, rotation or off-board cell."""

class IllegalMoveError(IndigoError):
    """A well-formed move that is not legal in the current position; the game is unchanged."""

class RecordError(IndigoError):
    """A game record that is rejected; nothing was applied.

    ``at`` names the first offending field (e.g. ``"rules.players"``) or move index (an ``int``).
    """

    at: str | int

@final
class Rules:
    """A validated rules configuration. Immutable and hashable."""

    def __new__(
        cls,
        players: int = 2,
        hand_size: int = 1,
        three_player_gates: GateVariant = "shared",
        tie_break: TieBreak = "most-gems",
        open_hands: bool = False,
        theme: ThemeName = "indigo",
    ) -> Rules: ...
    @staticmethod
    def indigo(players: int = 2) -> Rules:
        """Indigo's basic game: hands of one tile."""
    @staticmethod
    def tactical(players: int = 2) -> Rules:
        """Indigo's tactical variant: hands of two tiles."""
    @staticmethod
    def butterfly_garden(players: int = 2) -> Rules:
        """Butterfly Garden: hands of two tiles, its own names and colours."""
    @property
    def players(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def three_player_gates(self) -> GateVariant: ...
    @property
    def tie_break(self) -> TieBreak: ...
    @property
    def open_hands(self) -> bool: ...
    @property
    def theme(self) -> ThemeName: ...
    def gate_owners(self, gate: int) -> list[int]:
        """The seats that own gate ``gate`` (0..5), ascending."""
    def gem_name(self, gem: GemName) -> str:
        """The gem's name in this theme, e.g. ``"blue butterfly"`` for amber in Butterfly Garden."""
    def gem_colour(self, gem: GemName) -> str:
        """The gem's colour in this theme as ``#rrggbb``."""
    def seat_colour(self, seat: int) -> str:
        """The colour of seat ``seat``'s gates in this theme as ``#rrggbb``."""
    @property
    def gate_name(self) -> str:
        """``"gateway"`` (Indigo) or ``"flowerbed"`` (Butterfly Garden)."""
    def to_dict(self) -> dict[str, Any]:
        """The ``rules`` object of an ``indigo-record/1``."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class Move:
    """A placement: tile type 0..4, rotation 0..5 (60 degrees clockwise each), cell ``(q, r)``.

    Text notation ``T@R:Q,R``, e.g. ``"4@0:0,-3"`` (tile 4, rotation 0, cell (0, -3)). ``parse``
    also accepts spaces around the parts and parentheses around the cell: ``"4@0 (0,-3)"``.
    Equality is structural; equivalent rotations compare equal only after :meth:`canonical`.
    """

    def __new__(cls, tile: int, rotation: int, q: int, r: int) -> Move: ...
    @staticmethod
    def parse(text: str) -> Move: ...
    @property
    def tile(self) -> int: ...
    @property
    def rotation(self) -> int: ...
    @property
    def q(self) -> int: ...
    @property
    def r(self) -> int: ...
    @property
    def cell(self) -> tuple[int, int]: ...
    def canonical(self) -> Move:
        """The same placement with the smallest equivalent rotation."""
    def paths(self) -> list[tuple[int, int]]:
        """The three edge pairs this placement lays on its cell, each pair ascending, sorted."""
    def to_dict(self) -> dict[str, int]:
        """``{"tile", "rotation", "q", "r"}`` as in a record's ``moves``."""
    def __str__(self) -> str:
        """The notation, e.g. ``"4@0:0,-3"``."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class GemPath:
    """What one gem did during a placement.

    ``start`` is where it waited ``(q, r, edge)`` (a centre gem starts at ``(0, 0, edge)``);
    ``steps`` lists each tile it crossed as ``(q, r, entry_edge, exit_edge)``, corners included.
    Each gem has one path with its final outcome: a gem that stopped and was then met in the same
    placement is ``"collided"``, and the two paths' ``collided_with`` point at each other.
    """

    @property
    def gem(self) -> GemName: ...
    @property
    def start(self) -> tuple[int, int, int]: ...
    @property
    def steps(self) -> list[tuple[int, int, int, int]]: ...
    @property
    def outcome(self) -> Outcome: ...
    @property
    def end(self) -> tuple[int, int, int] | None:
        """Where it rests, when ``outcome == "rested"``."""
    @property
    def gate(self) -> int | None:
        """The gate it left through, when ``outcome == "collected"``."""
    @property
    def owners(self) -> list[int]:
        """The seats paid for it (one gem and its points each); empty unless collected."""
    @property
    def collided_with(self) -> int | None:
        """Index in :attr:`MoveResult.paths` of the gem it met, when ``outcome == "collided"``."""

@final
class MoveResult:
    """What a placement caused, for animation and explanation."""

    @property
    def move(self) -> Move: ...
    @property
    def seat(self) -> int: ...
    @property
    def paths(self) -> list[GemPath]:
        """Every gem that moved or was met, in the order they were processed."""
    @property
    def points(self) -> list[int]:
        """Points gained by each seat."""
    @property
    def collisions(self) -> list[tuple[int, int]]:
        """Pairs of indices into ``paths`` of gems that met and left the game."""
    @property
    def game_over(self) -> bool: ...

@final
class Game:
    """A game in progress: the position, its move history and undo.

    Create from rules plus either a ``seed`` (the pile is ``random.Random(seed).shuffle()`` of the
    box in type order, as in the conformance vectors) or an explicit ``pile`` of 54 tile types.
    With neither, a seed is drawn from the operating system.
    Equality and hashing compare positions (pile order included), not histories.
    """

    def __new__(
        cls,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        pile: Sequence[int] | None = None,
    ) -> Game: ...
    @staticmethod
    def from_record(record: str | bytes | Mapping[str, Any]) -> Game:
        """Replay an ``indigo-record/1`` (JSON text or parsed). Raises :class:`RecordError`."""
    def to_record(self) -> dict[str, Any]: ...
    def record_json(self) -> str:
        """:meth:`to_record` as compact JSON with sorted keys."""
    def snapshot(self, *, legal: bool = False, seat: int | None = None) -> dict[str, Any]:
        """The ``indigo-snapshot/1`` of this position.

        ``seat`` gives that player's view: other hands are shown as ``None`` per tile when the
        rules keep hands private. ``legal`` adds the ``legal`` list.
        """
    def snapshot_json(self, *, legal: bool = False, seat: int | None = None) -> str:
        """:meth:`snapshot` as compact JSON with sorted keys."""
    @property
    def rules(self) -> Rules: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def pile(self) -> list[int]:
        """The whole pile, front first, as dealt at set-up (hidden information)."""
    @property
    def to_move(self) -> int | None:
        """The seat to move; ``None`` once the game is over."""
    @property
    def placed(self) -> int: ...
    @property
    def pile_left(self) -> int: ...
    @property
    def hands(self) -> list[list[int]]:
        """Every seat's hand, tile types ascending (the full view)."""
    def hand(self, seat: int) -> list[int]: ...
    def visible_hands(self, seat: int) -> list[list[int | None]]:
        """The hands as ``seat`` sees them: others' tiles are ``None`` unless hands are open."""
    @property
    def board(self) -> dict[tuple[int, int], tuple[int, int]]:
        """Each placed route tile: ``(q, r) -> (tile, canonical rotation)``."""
    def tile_at(self, q: int, r: int) -> tuple[int, int] | None: ...
    @property
    def gems(self) -> list[tuple[GemName, int, int, int]]:
        """Each gem resting outside the centre as ``(gem, q, r, edge)``, sorted by position."""
    @property
    def centre(self) -> list[GemName]:
        """Gems still in the centre, in release order."""
    @property
    def scores(self) -> list[int]: ...
    @property
    def collected(self) -> list[dict[GemName, int]]: ...
    @property
    def removed(self) -> int:
        """Gems that left the game in collisions."""
    @property
    def over(self) -> bool: ...
    def is_over(self) -> bool: ...
    @property
    def winners(self) -> list[int]:
        """Winning seats, ascending; empty until the game is over."""
    @property
    def legal_moves(self) -> list[Move]:
        """Each distinct legal placement once (smallest rotation), sorted."""
    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` (or an equivalent rotation of it) may be played now."""
    def play(self, move: Move | str) -> MoveResult:
        """Play a move (a :class:`Move` or its text). Raises :class:`IllegalMoveError`."""
    def undo(self) -> Move:
        """Take back the last move and return it. Raises :class:`IndigoError` if none."""
    @property
    def moves(self) -> list[Move]:
        """The moves played so far, as given."""
    @property
    def last_result(self) -> MoveResult | None: ...
    def clone(self) -> Game: ...
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: object) -> Game: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getstate__(self) -> str: ...
    def __setstate__(self, state: str) -> None: ...
    def _repr_svg_(self) -> str:
        """The board as SVG (for Jupyter), drawn by ``indigo.render.svg.game_svg``."""

@final
class RandomBot:
    """Plays a uniformly random distinct legal placement; without a seed, seeded by the OS."""

    def __new__(cls, seed: int | None = None) -> RandomBot: ...
    def choose(self, game: Game) -> Move: ...

@final
class GreedyBot:
    """Plays the placement that gains most points for itself minus most for its opponents.

    Ties are broken at random; without a seed, the OS seeds it.
    """

    def __new__(cls, seed: int | None = None) -> GreedyBot: ...
    def choose(self, game: Game) -> Move: ...
