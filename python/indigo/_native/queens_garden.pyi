"""Type stubs for ``indigo._native.queens_garden``, the binding of the ``queens-garden`` crate.

Import from :mod:`indigo.queens_garden`, not from here. ``tests/test_stubs.py`` checks these
stubs against the compiled module with mypy's ``stubtest``.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, final

import numpy as np
import numpy.typing as npt

from indigo._native import SelfPlayColumns, Simulation
from indigo.queens_garden import DisplayExpansion, FinalScore, Garden, Stack, Storage, Verb
from indigo.types import Utility

__all__ = [
    "ACTION_COUNT",
    "ATTRIBUTES",
    "CELLS",
    "COLOUR_FILL",
    "KINDS",
    "NARROW_SCALE",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "RECORD_FORMAT",
    "SNAPSHOT_FORMAT",
    "Bot",
    "Game",
    "Move",
    "MoveResult",
    "Rules",
    "SelfPlayBatch",
    "attribute_svg",
    "candidates",
    "hexagon_svg",
    "make_bot",
    "move_choices",
    "native_bench",
    "next_question",
    "position_svg",
    "self_play",
    "simulate",
    "split_move",
]

RECORD_FORMAT: str
ACTION_COUNT: int
"""Actions of the fixed encoding (``docs/queens-garden.md``, "Actions")."""
SNAPSHOT_FORMAT: str
OBSERVATION_SIZE: int
"""Length of :meth:`Game.observation`'s vector."""
OBSERVATION_LAYOUT: dict[str, tuple[int, list[int]]]
"""The observation's named segments: name -> ``(offset, shape)``."""
KINDS: list[str]
"""The 36 kinds in kind-id order."""
ATTRIBUTES: list[str]
"""The 12 attributes in index order."""
CELLS: list[str]
"""The 48 cell names in canonical order."""

@final
class Rules:
    """The rules of a Queen's Garden game: players, scoring wheel and joker rewards.

    ``wheel`` is 4 rounds of 3 different categories (colour codes ``"bl"`` .. ``"dp"`` or pattern
    values ``"1"`` .. ``"6"``); the default is a PLACEHOLDER, not the printed wheel (``bl dg 1``,
    ``ye 2 3``, ``lg lp 4``, ``dp 5 6``). ``jokers`` maps ``fountain``, ``statue``, ``bench``,
    ``pavilion`` to the jokers paid when that element is surrounded (0..12); the default
    fountain 1 / statue 2 / bench 2 / pavilion 3 is unverified printed data. Immutable and
    hashable; a bad value raises :class:`~indigo.RulesError`.
    """

    def __new__(
        cls,
        players: int = 2,
        wheel: Sequence[Sequence[str]] | None = None,
        jokers: dict[str, int] | None = None,
    ) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def wheel(self) -> list[list[str]]:
        """The 3 scoring categories of each round 1..4."""
    @property
    def jokers(self) -> dict[str, int]:
        """Jokers paid per surrounded element: ``fountain``, ``statue``, ``bench``, ``pavilion``."""
    @property
    def stack_size(self) -> int:
        """Expansions in each round's stack: 5, 7 or 8 for 2, 3 or 4 players."""
    def to_dict(self) -> dict[str, Any]:
        """The record's ``rules`` object."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Rules], tuple[int, list[list[str]], dict[str, int]]]: ...

@final
class Move:
    """A move in the notation of ``docs/queens-garden.md``; ``str(move)`` is its canonical form.

    ``Move(text)`` is ``Move.parse(text)``. Two moves are equal exactly when their canonical
    forms are (token order is free when parsing). Whether it is legal depends on a position:
    see :attr:`Game.legal_moves`.
    """

    def __new__(cls, text: str) -> Move: ...
    @staticmethod
    def parse(text: str) -> Move:
        """The move ``text`` writes; :class:`~indigo.MoveError` if it is not a move."""
    @property
    def action(self) -> int | None:
        """The move's action number in the fixed encoding, ``None`` for a pass with discards."""
    @staticmethod
    def from_action(action: int) -> Move:
        """The move an action number names; :class:`~indigo.MoveError` if it names none."""
    @property
    def verb(self) -> Verb:
        """The rulebook's verb: ``take``, ``tile``, ``exp``, ``buy`` or ``pass``."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Move], tuple[str]]: ...

@final
class MoveResult:
    """What a move did: the move (canonical), the seat that played it, each seat's score
    change (round and final scoring included) and whether it ended the game."""

    @property
    def move(self) -> Move: ...
    @property
    def seat(self) -> int: ...
    @property
    def points(self) -> list[int]: ...
    @property
    def game_over(self) -> bool: ...

@final
class Game:
    """A Queen's Garden game: the position, its history, undo, records and snapshots.

    ``Game(rules, seed=S)`` sets up from CPython's ``random.Random(S)`` (see
    ``docs/queens-garden.md``); without a seed the operating system picks one.
    """

    def __new__(cls, rules: Rules | None = None, *, seed: int | None = None) -> Game: ...
    @staticmethod
    def from_record(record: str | bytes | Mapping[str, Any]) -> Game:
        """The game a ``queens-garden-record/1`` describes (JSON text, UTF-8 bytes or parsed);
        :class:`~indigo.RecordError` names the first bad field or move."""
    @classmethod
    def from_position(cls, text: str, *, seed: int | None = None) -> Game:
        """The game at the position ``text`` describes (``docs/queens-garden.md``, "Positions
        as text"), with no moves before it; what is hidden is drawn from ``seed``. A bad text
        raises :class:`~indigo.RecordError` naming its field."""
    def position(self) -> str:
        """The position as one line of text (``docs/queens-garden.md``, "Positions as text")."""
    @property
    def rules(self) -> Rules: ...
    @property
    def seed(self) -> int | None:
        """The set-up seed, ``None`` for a game read from a record."""
    @property
    def moves(self) -> list[Move]:
        """The moves played so far, canonical."""
    @property
    def legal_moves(self) -> list[Move]:
        """Every distinct legal move of the seat to move in canonical order, ``pass`` once
        (without discards); empty when the game is over."""
    def is_legal(self, move: str | int | Move) -> bool: ...
    def play(self, move: str | int | Move) -> MoveResult:
        """Plays ``move`` (a move, its text or its action number) for the seat to move and
        says what it did. An illegal move raises :class:`~indigo.IllegalMoveError`, bad
        notation :class:`~indigo.MoveError`; either way nothing changes."""
    def legal_actions(self) -> list[int]:
        """The legal actions of the fixed encoding, ascending (the legal-move list's order)."""
    def apply_action(self, action: int) -> None:
        """Plays the move ``action`` names; a bad or illegal action raises and changes nothing."""
    def is_chance_node(self) -> bool:
        """Always ``False``: the chance happens inside a move (:meth:`chance_outcomes`)."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A mask over the ``ACTION_COUNT`` actions (about 8 MB: prefer :meth:`legal_actions`)."""
    def information_state_string(self, seat: int) -> str:
        """What ``seat`` knows as text; equal exactly when it cannot tell two positions apart."""
    def information_state_hash(self, seat: int) -> int:
        """A stable 64-bit hash (XXH3) of ``information_state_string(seat)``."""
    def observation_string(self, seat: int) -> str:
        """What ``seat`` sees now as text: its seat and the public snapshot."""
    def resample(self, seat: int, *, seed: int | None = None) -> Game:
        """A position drawn from what ``seat`` knows (bag order, unseen expansions and
        refills drawn anew), as a new game without history."""
    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation, laid out as ``OBSERVATION_LAYOUT`` says."""
    def chance_outcomes(self, action: int, chosen: Sequence[int] = ...) -> list[tuple[int, float]]:
        """The next chance step's ``(kind id, probability)`` outcomes of playing ``action``
        once ``chosen`` are the steps before (draws, then reveals); empty when complete."""
    def chance_steps(self, action: int) -> tuple[int, int]:
        """``(draws, reveals)``: the chance steps of playing ``action`` here."""
    def successor(self, action: int, outcomes: Sequence[int]) -> Game:
        """The game after ``action`` with its chance steps given ``outcomes`` (kind ids), as a
        new game without history; bad input raises and changes nothing."""
    @staticmethod
    def first_draw_outcomes(chosen: Sequence[int] = ...) -> list[tuple[int, float]]:
        """The set-up's next draw's ``(kind id, probability)`` outcomes after ``chosen``."""
    @staticmethod
    def with_first_draws(rules: Rules, draws: Sequence[int], *, seed: int | None = None) -> Game:
        """The seeded set-up with round 1's stack top given the 4 kind ids ``draws``."""
    def returns(self, utility: Utility = "points") -> list[float]:
        """Each seat's return: ``"points"`` (so far), ``"win"`` (winners share 1), ``"rank"``
        (share of opponents outscored, ties half) or ``"zero-sum"`` (the win share rescaled to
        sum to 0). All but points are 0 until the game is over."""
    def rewards(self) -> list[int]:
        """Each seat's score change with the last move (zeros before the first)."""
    def greedy_points(self) -> list[int]:
        """Each seat's points as the ``greedy`` bot values them."""
    @property
    def last_result(self) -> MoveResult | None:
        """What the last move did, ``None`` at the start."""
    def undo(self) -> Move:
        """Takes back the last move and returns it; :class:`~indigo.IndigoError` at the start."""
    def clone(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: object, /) -> Game: ...
    def __eq__(self, value: object, /) -> bool:
        """Equal games: the same position, hidden information and source of refills included."""
    def __getstate__(self) -> bytes: ...
    def __setstate__(self, state: bytes | tuple[str, int | None], /) -> None: ...
    def to_record(self) -> dict[str, Any]:
        """The ``queens-garden-record/1`` of the game so far (refills used so far included)."""
    def record_json(self) -> str: ...
    def snapshot(self, *, legal: bool = False) -> dict[str, Any]:
        """The ``queens-garden-snapshot/1`` of the position, with ``legal`` when asked."""
    def snapshot_json(self, *, legal: bool = False) -> str: ...
    @property
    def round(self) -> int:
        """1..4 (4 after the end)."""
    @property
    def phase(self) -> Literal["actions", "end"]: ...
    @property
    def moves_played(self) -> int: ...
    @property
    def to_move(self) -> int | None:
        """The seat to move, ``None`` once the game is over."""
    @property
    def scores(self) -> list[int]: ...
    @property
    def storages(self) -> list[Storage]: ...
    @property
    def gardens(self) -> list[Garden]: ...
    @property
    def stack(self) -> Stack | None:
        """The current round stack, ``None`` once used up."""
    @property
    def display(self) -> list[DisplayExpansion]:
        """The expansions that left the stack this round, by slot."""
    @property
    def bag_size(self) -> int: ...
    @property
    def tower(self) -> list[str]:
        """The tiles in the tower (discard pile), sorted by kind id."""
    @property
    def supply_size(self) -> int:
        """Face-down expansions in the supply."""
    @property
    def refills_used(self) -> int: ...
    @property
    def passed(self) -> list[bool]: ...
    @property
    def start_player(self) -> int: ...
    @property
    def first_passer(self) -> int | None: ...
    @property
    def round_points(self) -> list[list[int]]:
        """Per finished round, each seat's round-scoring points."""
    @property
    def final_scoring(self) -> list[FinalScore] | None:
        """Per seat, the final scoring's storage change, group points and bonus; ``None``
        until the game is over."""
    @property
    def over(self) -> bool: ...
    def _repr_svg_(self) -> str:
        """The position as SVG (:func:`indigo.queens_garden.svg.game_svg`), for Jupyter."""
    @property
    def winners(self) -> list[int]:
        """The seats with the highest score, ascending; empty until the game is over."""

@final
class Bot:
    """A Queen's Garden bot from a spec (:func:`make_bot`)."""

    @property
    def spec(self) -> str:
        """The spec, canonical."""
    def choose(self, game: Game) -> Move:
        """The move for the seat to move; :class:`~indigo.IllegalMoveError` once over."""

def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """A bot from a spec (``random``, ``greedy``, ``playout``, ``ismcts:N``, ...); a bad spec
    raises :class:`~indigo.IndigoError`."""

@final
class SelfPlayBatch(SelfPlayColumns):
    """Results of :func:`self_play`: :class:`~indigo._native.SelfPlayColumns`, and the legal
    actions as lists."""

    @property
    def legal_offsets(self) -> npt.NDArray[np.int64]:
        """Sample ``i``'s legal actions are ``legal_actions[legal_offsets[i]:legal_offsets[i +
        1]]`` (``samples + 1`` offsets)."""
    @property
    def legal_actions(self) -> npt.NDArray[np.uint32]:
        """The legal actions of every sample, ascending within one."""
    @property
    def action(self) -> npt.NDArray[np.uint32]:
        """The action played."""
    @property
    def visit_actions(self) -> npt.NDArray[np.uint32]:
        """Visited actions, ascending within a sample."""

def native_bench(workload: str, rules: Rules, count: int) -> tuple[int, int, float]:
    """A seeded workload of ``indigo bench`` in a plain Rust loop on this thread, the GIL
    released: ``"policy"`` or ``"random"`` plays ``count`` games, ``"legal"`` lists the legal
    moves of a crowded position ``count`` times, ``"opening"`` or ``"midgame"`` runs one
    1-thread ISMCTS search of ``count`` simulations. Returns ``(count, checksum, seconds)``:
    the moves played or listed, or the simulations run."""

def simulate(
    bots: Sequence[str],
    games: int,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    lineups: Sequence[Sequence[int]] | None = None,
    start: int = 0,
    threads: int = 0,
    progress: Callable[[int, int], object] | None = None,
    interval: float = 0.2,
) -> Simulation:
    """Play Queen's Garden games inside Rust as :func:`indigo._native.simulate` plays Indigo's
    (the same arguments but ``deal``, the same results: ``placements`` counts each game's
    moves; game ``i`` is ``Game(rules, seed=game_seeds[i])``)."""

def self_play(
    bots: Sequence[str],
    games: int,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    lineups: Sequence[Sequence[int]] | None = None,
    start: int = 0,
    threads: int = 0,
    progress: Callable[[int, int], object] | None = None,
    interval: float = 0.2,
) -> SelfPlayBatch:
    """Play Queen's Garden games as ``simulate(..., game="queens-garden")`` does (game ``i``
    is the same game), keeping each game's record and a training sample per move."""

COLOUR_FILL: list[str]
"""Each colour's fill, in colour order (``bl`` .. ``dp``)."""
NARROW_SCALE: float
"""How much larger the narrow picture draws each seat."""

def position_svg(
    snapshot: str,
    wheel: list[list[str]] | None = None,
    seats: list[str] | None = None,
    narrow: bool = False,
) -> str:
    """A snapshot (its JSON text) as SVG; :class:`~indigo.IndigoError` names a field it
    cannot draw."""

def hexagon_svg(
    kind: str, x: float, y: float, radius: float, cls: str, data: list[tuple[str, str]]
) -> str:
    """A hexagon of ``kind`` centred on (x, y), with ``data`` as further attributes."""

def attribute_svg(attribute: str) -> str:
    """An attribute's button picture, centred on the origin."""

def move_choices(legal: list[str]) -> dict[str, Any]:
    """The legal moves (notation) grouped for clicks."""

def next_question(moves: list[str]) -> tuple[str, str, list[tuple[str, list[int]]]] | None:
    """The question that splits ``moves``: ``(topic, prompt, [(label, [index, ...])])``."""

def candidates(legal: list[str], text: str) -> list[int]:
    """The indices of the legal moves a partial move may mean."""

def split_move(text: str) -> tuple[list[str], list[str]]:
    """A move's fixed head tokens and its free tokens."""
