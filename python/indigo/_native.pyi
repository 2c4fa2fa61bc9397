"""Type stubs for the private native module ``indigo._native`` (built from ``rust/python``).

Import from :mod:`indigo`, not from here. ``tests/test_stubs.py`` checks these stubs against the
compiled module with mypy's ``stubtest``.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Self, SupportsIndex, final, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from indigo._native import queens_garden as queens_garden
from indigo.types import ChanceMode, GateVariant, GemName, GemOutcome, ThemeName, TieBreak, Utility

__all__ = [
    "ACTION_COUNT",
    "CELLS",
    "CENTRE",
    "CORNERS",
    "GATE_CELLS",
    "GEM_POINTS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "ROUTE_CELLS",
    "TILE_COUNTS",
    "TILE_PATHS",
    "EvaluatorError",
    "Game",
    "GemPath",
    "GreedyBot",
    "IllegalMoveError",
    "IndigoError",
    "IsmctsBot",
    "Move",
    "MoveError",
    "MoveResult",
    "NetBot",
    "PlayoutBot",
    "PuctBot",
    "PuctSearchResult",
    "RandomBot",
    "RecordError",
    "Rules",
    "RulesError",
    "SearchResult",
    "SelfPlayBatch",
    "SelfPlayColumns",
    "Simulation",
    "VectorGames",
    "__version__",
    "make_bot",
    "native_call_costs",
    "native_playouts",
    "normalize_bot_spec",
    "queens_garden",
    "seat_seed",
    "self_play",
    "simulate",
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
ACTION_COUNT: int
"""Number of actions (810): 15 distinct tile orientations x 54 route cells; see docs/search.md."""
OBSERVATION_SIZE: int
"""Length of :meth:`Game.observation`'s tensor (2127)."""
OBSERVATION_LAYOUT: dict[str, tuple[int, list[int]]]
"""Each observation segment's ``name -> (offset, shape)``; see docs/search.md."""

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

class EvaluatorError(IndigoError):
    """An evaluator's answer that the PUCT search cannot use: not ``(priors, values)``, a wrong
    shape, a negative or non-finite prior, or a value outside [-1, 1]."""

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
    @staticmethod
    def preset(theme: str, players: int = 2) -> Rules:
        """A theme's preset: ``indigo`` for "indigo", ``butterfly_garden`` for
        "butterfly-garden"."""
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
    @property
    def action(self) -> int | None:
        """This placement's action number (rotation made canonical); ``None`` off route cells."""
    @staticmethod
    def from_action(action: int) -> Move:
        """The placement an action number plays. Raises :class:`MoveError` out of range."""
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
    def outcome(self) -> GemOutcome: ...
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
        chance: ChanceMode = "sampled",
    ) -> Game: ...
    @staticmethod
    def from_record(record: str | bytes | Mapping[str, Any]) -> Game:
        """Replay an ``indigo-record/1`` (JSON text or parsed). Raises :class:`RecordError`."""
    @classmethod
    def from_position(cls, text: str, *, seed: int | None = None) -> Game:
        """The game at the position ``text`` describes (``docs/notation.md``, "Positions as
        text"), with no moves before it; the pile's order is drawn from ``seed``. A bad text
        raises :class:`RecordError` naming its field. A game from a mid-game position has no
        record: :meth:`to_record`, :meth:`record_json` and pickling raise :class:`IndigoError`."""
    def position(self) -> str:
        """The position as one line of text (``docs/notation.md``, "Positions as text")."""
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
        """The whole pile, front first (hidden information). With explicit chance: the tiles
        drawn so far in order, then the rest by type."""
    @property
    def to_move(self) -> int | None:
        """The seat to move; ``None`` once the game is over."""
    @property
    def moves_played(self) -> int:
        """Moves played so far (each places one tile)."""
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
    def over(self) -> bool:
        """Whether the game has ended."""
    @property
    def winners(self) -> list[int]:
        """Winning seats, ascending; empty until the game is over."""
    @property
    def legal_moves(self) -> list[Move]:
        """Each distinct legal placement once (smallest rotation), sorted."""
    def is_legal(self, move: Move | str | SupportsIndex) -> bool:
        """Whether ``move`` (or an equivalent rotation of it) may be played now."""
    def play(self, move: Move | str | SupportsIndex) -> MoveResult:
        """Play a move (a :class:`Move`, its text or its action number).

        Raises :class:`IllegalMoveError` (and changes nothing) if it is not legal now.
        """
    def undo(self) -> Move:
        """Take back the last move and return it. Raises :class:`IndigoError` if none."""
    @property
    def moves(self) -> list[Move]:
        """The moves played so far, as given."""
    @property
    def last_result(self) -> MoveResult | None: ...
    def clone(self) -> Game:
        """An independent copy (also ``copy.copy`` and ``copy.deepcopy``)."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: object) -> Game: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getstate__(self) -> str: ...
    def __setstate__(self, state: str) -> None: ...
    @property
    def explicit_chance(self) -> bool:
        """Whether draws are chance nodes the caller applies (``chance="explicit"``)."""
    def is_chance_node(self) -> bool:
        """Whether a draw waits for its outcome, given to :meth:`apply_action` (explicit chance
        only)."""
    @property
    def chance_seat(self) -> int | None:
        """The seat that draws at a chance node, else ``None``."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, each tile type in the pile with its probability (count / pile)."""
    def apply_action(self, action: int) -> None:
        """OpenSpiel's ``apply_action``: at a chance node ``action`` is the tile type drawn
        (the drawing seat takes it), else the placement's action number. Bad or illegal
        actions raise a typed error and change nothing."""
    def legal_actions(self) -> list[int]:
        """The legal action numbers, ascending (the order of :attr:`legal_moves`)."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean array of ``ACTION_COUNT`` entries, true where the action is legal."""
    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s view as a float32 array laid out as ``OBSERVATION_LAYOUT`` says."""
    def observation_string(self, seat: int) -> str:
        """``seat``'s current view as text: the public part, ``|``, its own hand."""
    def public_information_string(self) -> str:
        """The public part of every information state: rules, moves, draws made, the board."""
    def private_information_string(self, seat: int) -> str:
        """The private part of ``seat``'s information state: the tiles it has taken, in order."""
    def information_state_string(self, seat: int) -> str:
        """``seat``'s information state (perfect recall): public part, ``|``, private part."""
    def information_state_hash(self, seat: int) -> int:
        """A stable 64-bit hash (XXH3) of :meth:`information_state_string`."""
    def resample(self, seat: int, *, seed: int | None = None) -> Game:
        """A game consistent with what ``seat`` knows: same moves, its own tiles, every public
        fact; the hidden tiles drawn at random from those it has not seen (never read)."""
    def returns(self, utility: Utility = "points") -> list[float]:
        """Each seat's return: ``"points"`` (so far), ``"win"`` (winners share 1), ``"rank"``
        (share of opponents beaten, ties half) or ``"zero-sum"`` (+1 / -1, 0 for a shared
        result; with more players each loser gets ``-1 / (players - 1)`` and the winners share
        what the losers give up). All but points are 0 until the game is over."""
    def rewards(self) -> list[int]:
        """The points each seat gained with the last move (zeros before the first)."""
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

@final
class PlayoutBot:
    """The benchmarks' playout policy: a uniformly random empty route cell, then a uniformly
    random legal rotation of a random tile in hand. Cheaper than :class:`RandomBot`, and not
    uniform over placements; without a seed, seeded by the OS."""

    def __new__(cls, seed: int | None = None) -> PlayoutBot: ...
    def choose(self, game: Game) -> Move: ...

@final
class SearchResult:
    """What one ISMCTS search found."""

    @property
    def best(self) -> Move:
        """The most visited move."""
    @property
    def visits(self) -> dict[int, int]:
        """Root visits per action number."""
    @property
    def simulations(self) -> int: ...
    @property
    def value(self) -> float:
        """The mover's mean win share over the best move's visits."""
    def policy(self) -> npt.NDArray[np.float32]:
        """Root visits as a distribution over all ``ACTION_COUNT`` actions."""

@final
class NetBot:
    """PUCT steered by a network evaluated in Rust: ``make_bot("net")`` (the game's shipped
    network) or ``make_bot("net:file=PATH")``; ``net:N``, ``net:time=S``, ``threads=``,
    ``c=`` (c_puct) as specs write them (docs/search.md). A search answers Ctrl-C."""

    @property
    def spec(self) -> str:
        """The spec naming these settings, e.g. ``"net:200"``."""
    def choose(self, game: Game) -> Move:
        """The move for the seat to move, from what that seat knows; a network trained for
        another seat count raises :class:`IndigoError`."""

@final
class IsmctsBot:
    """Information-set MCTS: each simulation samples the hidden tiles from what the mover has
    not seen, so it never reads the pile. ``simulations`` (default 1000), ``time`` in
    seconds, or both (it stops at whichever comes first: ``"ismcts:N,time=S"``); ``threads``
    grow separate trees whose root visits are summed. With a seed and a simulation budget (no
    time) its choices are reproducible for a given thread count. Settings are checked with the
    same bounds as specs (docs/search.md); a search answers Ctrl-C."""

    def __new__(
        cls,
        simulations: int | None = None,
        *,
        time: float | None = None,
        exploration: float = 0.7,
        threads: int = 1,
        seed: int | None = None,
    ) -> IsmctsBot: ...
    @property
    def spec(self) -> str:
        """The spec naming these settings, e.g. ``"ismcts:1000"``."""
    def choose(self, game: Game) -> Move:
        """The move for the seat to move (GIL released while searching)."""
    def search(self, game: Game) -> SearchResult:
        """The whole search result (GIL released while searching)."""

_Evaluator = (
    Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], tuple[npt.ArrayLike, npt.ArrayLike]]
    | Literal["rollout"]
)
"""``evaluator(observations, masks) -> (priors, values)`` for :class:`PuctBot`, or
``"rollout"``."""

@final
class PuctSearchResult:
    """What one PUCT search found."""

    @property
    def best(self) -> Move | queens_garden.Move:
        """The move chosen, of the game searched: the most visited at temperature 0, else
        drawn by the visits."""
    @property
    def visits(self) -> dict[int, int]:
        """Root visits per action number."""
    @property
    def simulations(self) -> int:
        """Simulations run."""
    @property
    def evaluations(self) -> int:
        """Evaluator calls made, the root's included."""
    @property
    def value(self) -> float:
        """The mover's mean value over the chosen move's visits, in [-1, 1]."""
    def policy(self) -> npt.NDArray[np.float32]:
        """Root visits as a distribution over all the game's ``ACTION_COUNT`` actions: the
        policy target."""

@final
class PuctBot:
    """PUCT search (AlphaZero's) for every game, steered by ``evaluator(observations,
    masks)``: it receives a batch of leaves, ``observations`` float32 ``(batch,
    OBSERVATION_SIZE)`` (each leaf as its mover sees it) and ``masks`` bool ``(batch,
    ACTION_COUNT)`` (its legal actions), both sizes those of the game searched, and returns
    ``(priors, values)``: ``priors`` ``(batch, ACTION_COUNT)``, non-negative weights (those of
    legal actions are used, renormalised), or ``(batch, 0)`` for uniform priors; ``values``
    ``(batch, players)`` in [-1, 1], column ``k`` for the seat ``k`` places after the leaf's
    mover. ``"rollout"`` in place of a function: uniform priors and one random playout per
    leaf, in Rust. Each simulation samples what the mover cannot see, as ISMCTS does; leaves
    are gathered ``batch_size`` at a time with a virtual loss. The GIL is released between
    evaluator calls and Ctrl-C is looked for before each; the evaluator's exceptions
    propagate, and an answer it cannot use raises :class:`EvaluatorError`.
    ``dirichlet_fraction`` mixes Dirichlet(``dirichlet_alpha``) noise into the root's priors
    (0: none); ``temperature`` 0 plays the most visited move, above it draws a move with odds
    ``visits ** (1 / temperature)``. ``playout_mix`` values each leaf
    ``(1 - playout_mix) * value + playout_mix * z``, ``z`` one playout's result from it
    (AlphaGo's mixed evaluation; 0: the evaluator's value alone); a leaf is evaluated at its
    ``expansion``-th visit, each simulation ending there before valued by a playout alone (1:
    at its first). ``simulations`` (default 200), ``time`` in seconds, or
    both (whichever comes first); ``threads`` grows that many trees side by side (root
    parallelism), with ``"rollout"`` only (a Python evaluator takes 1). docs/alphazero.md."""

    def __new__(
        cls,
        evaluator: _Evaluator,
        simulations: int | None = None,
        *,
        time: float | None = None,
        threads: int = 1,
        batch_size: int = 8,
        c_puct: float = 1.5,
        dirichlet_alpha: float = 0.3,
        dirichlet_fraction: float = 0.0,
        temperature: float = 0.0,
        playout_mix: float = 0.0,
        expansion: int = 1,
        seed: int | None = None,
    ) -> PuctBot: ...
    @property
    def evaluator(self) -> _Evaluator:
        """The evaluator: the function given, or ``"rollout"``."""
    @property
    def spec(self) -> str:
        """The settings as text, e.g. ``"puct:200,batch=8,c=1.5"`` (ending ``",rollout"``
        with the rollout evaluator): a name for records, not a spec :func:`make_bot` reads."""
    @overload
    def choose(self, game: Game) -> Move:
        """The move for the seat to move, from what that seat knows."""
    @overload
    def choose(self, game: queens_garden.Game) -> queens_garden.Move: ...
    def search(self, game: Game | queens_garden.Game) -> PuctSearchResult:
        """The whole search result."""
    @overload
    def self_play(
        self,
        games: int,
        *,
        rules: Rules | None = None,
        seed: int | None = None,
        start: int = 0,
        in_flight: int = 1,
    ) -> SelfPlayBatch:
        """Games ``start..start + games`` of ``rules``' game (default: Indigo's) with this
        search in every seat, kept as that game's ``self_play`` keeps them (visits are this
        search's). Game ``i`` starts as that ``self_play``'s game ``i``; its searches are
        seeded from ``seed`` and ``i``. With a Python evaluator, ``in_flight`` games (1 to
        4096) are played at a time, their searches sharing each evaluator call (up to
        ``in_flight * batch_size`` leaves): for an evaluator that answers each leaf the same
        way whatever else its batch holds, the same games as one at a time."""
    @overload
    def self_play(
        self,
        games: int,
        *,
        rules: queens_garden.Rules,
        seed: int | None = None,
        start: int = 0,
        in_flight: int = 1,
    ) -> queens_garden.SelfPlayBatch: ...
    @overload
    def self_play(
        self,
        games: int,
        *,
        rules: Rules | queens_garden.Rules | None = None,
        seed: int | None = None,
        start: int = 0,
        in_flight: int = 1,
    ) -> SelfPlayBatch | queens_garden.SelfPlayBatch: ...

@final
class Simulation:
    """Results of :func:`simulate`, one row per game."""

    @property
    def bots(self) -> list[str]: ...
    @property
    def scores(self) -> npt.NDArray[np.int32]:
        """Points, games x players."""
    @property
    def winners(self) -> npt.NDArray[np.bool_]:
        """Whether each seat won, games x players (a shared win marks several)."""
    @property
    def placements(self) -> npt.NDArray[np.int32]:
        """Tiles placed per game."""
    @property
    def seats(self) -> npt.NDArray[np.int32]:
        """Which bot (index into :attr:`bots`) sat in each seat, games x players."""
    @property
    def game_seeds(self) -> npt.NDArray[np.uint64]:
        """Each game's seed: with deal ``"python"``, ``Game(rules, seed=...)`` deals the same
        pile."""
    @property
    def deal(self) -> Literal["python", "pcg"] | None:
        """How piles were shuffled from game seeds; ``None`` for a game without a pile, whose
        games are set up from their seeds alone."""
    @property
    def checksum(self) -> int:
        """A 64-bit fingerprint of every game's outcome in order: equal runs, equal checksums."""
    @property
    def game(self) -> Literal["indigo", "queens-garden"]:
        """The game played, as its registry entry (:attr:`indigo.games.GameEntry.name`) names it."""
    def pile(self, index: int) -> list[int]:
        """Game ``index``'s pile, front first: ``Game(rules, pile=...)`` deals it."""
    @property
    def start(self) -> int:
        """Index of the first game."""
    def __len__(self) -> int: ...

@disjoint_base
class SelfPlayColumns:
    """The columns every game's self-play batch has: each game's record, and one training
    sample per move as numpy columns (row ``i`` of every column is sample ``i``). Each game's
    ``SelfPlayBatch`` adds its legal actions."""

    @property
    def records(self) -> list[str]:
        """Each game's record as one line of JSON, in game order, with ``players_names`` (each
        seat's bot spec) and ``game`` (its index) added."""
    @property
    def checksum(self) -> int:
        """A fingerprint of every game's outcome in order, as :attr:`Simulation.checksum`."""
    @property
    def samples(self) -> int:
        """How many samples (moves) the games hold."""
    @property
    def game(self) -> npt.NDArray[np.uint64]:
        """Each sample's game index."""
    @property
    def ply(self) -> npt.NDArray[np.uint16]:
        """Each sample's move number in its game, from 0."""
    @property
    def seat(self) -> npt.NDArray[np.uint8]:
        """The mover."""
    @property
    def observation(self) -> npt.NDArray[np.float32]:
        """The mover's observation, samples x the game's ``OBSERVATION_SIZE``."""
    @property
    def action(self) -> npt.NDArray[np.unsignedinteger[Any]]:
        """The action played (uint16 for Indigo, uint32 for Queen's Garden)."""
    @property
    def searched(self) -> npt.NDArray[np.bool_]:
        """Whether the mover searched, so that the sample has root visits."""
    @property
    def visit_offsets(self) -> npt.NDArray[np.int64]:
        """Sample ``i``'s visits are ``visit_actions[visit_offsets[i]:visit_offsets[i + 1]]``
        (``samples + 1`` offsets)."""
    @property
    def visit_actions(self) -> npt.NDArray[np.unsignedinteger[Any]]:
        """Visited actions, ascending within a sample (as ``action``)."""
    @property
    def visit_counts(self) -> npt.NDArray[np.uint32]:
        """Root visits of each visited action."""
    @property
    def outcome(self) -> npt.NDArray[np.float32]:
        """The mover's final result: the winners share 1, the others get 0."""
    @property
    def points(self) -> npt.NDArray[np.uint16]:
        """The mover's final points."""
    def __len__(self) -> int: ...

@final
class SelfPlayBatch(SelfPlayColumns):
    """Results of :func:`self_play`: :class:`SelfPlayColumns`, and the legal actions as
    masks."""

    @property
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """The legal actions, samples x ``ACTION_COUNT``."""
    @property
    def action(self) -> npt.NDArray[np.uint16]:
        """The action played."""
    @property
    def visit_actions(self) -> npt.NDArray[np.uint16]:
        """Visited actions, ascending within a sample."""

@disjoint_base
class VectorGames:
    """``num_envs`` (1 to 65536) games of the game whose ``rules`` are given (Indigo's
    :class:`Rules` or :class:`queens_garden.Rules`) stepped together with one call into Rust per
    step (GIL released); docs/envs.md gives the semantics. Game ``env``'s episode ``k`` is set
    up from the seed of game ``k * num_envs + env`` of :func:`simulate` with the same
    ``seed``. Autoreset is Gymnasium's ``NEXT_STEP``: the step after a game ends ignores its
    action and starts its next episode."""

    def __new__(
        cls,
        num_envs: int,
        rules: Rules | queens_garden.Rules,
        *,
        seed: int | None = None,
        utility: Utility = "win",
        observation_dtype: Literal["float32", "uint8"] = "float32",
        copy: bool = True,
        opponents: str | Sequence[str] | None = None,
        seat: int = 0,
    ) -> Self:
        """With ``opponents`` (a bot spec such as ``"greedy"`` or ``"ismcts:50"``, or one per
        other seat in seat order), native bots play every seat but ``seat`` inside each step
        and reset: the actions are always ``seat``'s and every observation is its view."""
    @property
    def num_envs(self) -> int: ...
    @property
    def copy(self) -> bool:
        """``True``: every call returns fresh arrays. ``False``: every call returns the same
        read-only arrays, which the vector owns and overwrites in place at the next call
        (writing only what changed: faster; copy what you keep). They are the vector's own
        buffers: numpy lets ``setflags(write=True)`` make them writeable, and what is written
        then stays in later results wherever a step does not rewrite it (the games are not
        changed: legality is checked on the games)."""
    @property
    def observation_dtype(self) -> Literal["float32", "uint8"]:
        """The observations' dtype: ``"uint8"`` holds the same counts in a quarter of the
        memory (docs/envs.md gives the costs)."""
    @property
    def rules(self) -> Any:
        """The rules of every game, of the game's own ``Rules`` class."""
    @property
    def legal_form(self) -> Literal["mask", "list"]:
        """How the legal actions come: ``"mask"``, ``num_envs x ACTION_COUNT`` bool (Indigo);
        ``"list"``, ``num_envs x width`` int32 action numbers, ascending, padded with -1 to the
        longest row of the call (Queen's Garden, whose 8,053,459 actions fit no mask)."""
    @property
    def seat(self) -> int | None:
        """The learner's seat when bots play the others, else ``None`` (self-play)."""
    def game(self, env: int) -> Any:
        """Game ``env`` as its game's ``Game``: its seed and this episode's moves, the bots'
        included."""
    def record(self, env: int) -> dict[str, Any]:
        """Game ``env``'s record, as :meth:`Game.to_record` gives it."""
    @property
    def utility(self) -> Utility:
        """What the step that ends a game rewards each seat (see :meth:`Game.returns`)."""
    @property
    def game_seeds(self) -> list[int]:
        """Each game's current seed: ``Game(rules, seed=...)`` deals the same pile."""
    @property
    def episodes(self) -> list[int]:
        """Each game's episode number, from 0."""
    def __len__(self) -> int: ...
    def reset(
        self, *, seed: int | None = None, mask: Sequence[bool] | npt.NDArray[np.bool_] | None = None
    ) -> tuple[
        npt.NDArray[np.float32] | npt.NDArray[np.uint8],
        npt.NDArray[np.bool_] | npt.NDArray[np.int32],
        npt.NDArray[np.int8],
    ]:
        """Start every game's first episode from ``seed`` (default: the last seed given), or
        with ``mask`` (one bool per game, no seed) only the marked games' next episodes.
        Returns ``(observations, legal, to_play)``: ``num_envs x OBSERVATION_SIZE`` float32
        (or uint8), the legal actions (:attr:`legal_form`) and the seat whose view each row
        is."""
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32] | npt.NDArray[np.uint8],
        npt.NDArray[np.bool_] | npt.NDArray[np.int32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int8],
    ]:
        """Play ``actions[env]`` (action numbers) for the seat to move in each game. Returns
        ``(observations, legal, rewards, terminations, to_play)``; ``rewards`` is ``num_envs x
        players``, zero except on the step that ends a game. An illegal action raises
        :class:`IllegalMoveError` and steps no game; a non-integer array, ``TypeError``."""

def make_bot(
    spec: str, *, seed: int | None = None
) -> RandomBot | GreedyBot | PlayoutBot | IsmctsBot | NetBot:
    """A bot from a spec: ``random``, ``greedy``, ``playout``, ``ismcts``, ``ismcts:1000``,
    ``ismcts:time=0.5``, ``ismcts:1000,time=0.5`` (whichever comes first),
    ``ismcts:1000,c=0.7,threads=2``, ``best`` or ``best:time=0.5`` (ISMCTS at Indigo's tuned
    exploration), ``net``, ``net:time=0.1`` or ``net:file=PATH,400,threads=2`` (PUCT with a
    network in Rust). Raises :class:`IndigoError`, naming a network file it refuses."""

def seat_seed(game_seed: int, seat: int) -> int:
    """The seed :func:`simulate` gives seat ``seat``'s bot in the game seeded ``game_seed`` (an
    entry of :attr:`Simulation.game_seeds`): ``make_bot(spec, seed=seat_seed(g, s))``."""

def normalize_bot_spec(spec: str) -> str:
    """The canonical text of a spec (``"ismcts"`` becomes ``"ismcts:1000"``)."""

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
    deal: Literal["python", "pcg"] = "python",
) -> Simulation:
    """Play ``games`` complete games inside Rust on ``threads`` threads (0: every core), the GIL
    released. Game ``start + i`` seats ``lineups[(start + i) % len(lineups)]`` (bot indices per
    seat; default: ``bots`` in seat order, or one bot everywhere) and depends only on ``seed``
    and its index. ``progress(done, total)`` is called every ``interval`` seconds and at the
    end; an exception in it, or Ctrl-C, stops the batch. ``deal="python"`` shuffles each pile
    as ``Game(rules, seed=game_seed)`` does; ``"pcg"`` is 25 times cheaper (about 0.15 us
    against 4 us a game), for batches of fast bots such as ``"playout"``. Queen's Garden's is
    :func:`queens_garden.simulate`."""

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
    """Play games as :func:`simulate` does (with the same arguments, game ``i`` is the same
    game) and keep each game's record and a training sample per move. Piles are dealt as
    ``Game(rules, seed=game_seed)`` does."""

def native_playouts(
    rules: Rules, seed: int, games: int, *, start: int = 0
) -> tuple[int, int, int, float]:
    """Random playouts in a plain Rust loop on this thread, the GIL released: the games
    ``simulate(["playout"], games, rules=rules, seed=seed, start=start, deal="pcg")`` plays.
    Returns ``(games, placements, checksum, seconds)``."""

def native_call_costs(rules: Rules, seed: int, games: int, rounds: int) -> dict[str, float]:
    """Mean nanoseconds per core call (keys ``legal_moves_ns``, ``legal_action_set_ns``,
    ``play_ns`` (on a copy, the copy included) and ``clone_ns``) over the positions of
    ``games`` seeded playouts, each timed ``rounds`` times over."""
