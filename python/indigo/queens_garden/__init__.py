"""Azul: Queen's Garden (Michael Kiesling, Plan B Games 2021), played exactly by the Rust engine.

The rules are ``docs/spec/QUEENS_GARDEN.md`` in our words in ``docs/queens-garden.md``; the
records and snapshots are ``docs/spec/QG_FORMATS.md``. A game from a seed:

>>> from indigo import queens_garden as qg
>>> game = qg.Game(qg.Rules(players=2), seed=7)
>>> game.round, game.to_move, game.scores
(1, 0, [15, 15])
>>> game.stack["tiles"]  # round 1's stack top and its four tiles
['ye2', 'ye5', 'dg2', 'dp1']
>>> result = game.play("take ye")
>>> str(result.move), game.storages[0]["tiles"], game.to_move
('take ye', ['ye2', 'ye5'], 1)
>>> qg.Move.parse("tile bl3 f0 * ye3") == qg.Move.parse("tile bl3 f0 ye3 *")
True

Kinds are written colour code + pattern value (``bl3``); cells ``f0``..``f5`` (the fountain
board), ``aAc`` and ``aAP`` (area ``A``'s centre and petal ``P``); moves in the notation of
``docs/queens-garden.md``. Errors are the package's: :class:`~indigo.RulesError`,
:class:`~indigo.MoveError`, :class:`~indigo.IllegalMoveError`, :class:`~indigo.RecordError`
(all :class:`~indigo.IndigoError`, a ``ValueError``).
"""

from __future__ import annotations

from typing import Any, Final, Literal, TypedDict

from indigo._native import IndigoError, Simulation
from indigo._native import queens_garden as _qg
from indigo._native.queens_garden import (
    Bot,
    Game,
    Move,
    MoveResult,
    Rules,
    SelfPlayBatch,
    make_bot,
    self_play,
)

__all__ = [
    "ACTION_COUNT",
    "ATTRIBUTES",
    "CELLS",
    "COLOURS",
    "DEFAULT_JOKERS",
    "DEFAULT_WHEEL",
    "ELEMENTS",
    "KINDS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "PATTERNS",
    "RECORD_FORMAT",
    "SNAPSHOT_FORMAT",
    "Area",
    "Bot",
    "DisplayExpansion",
    "FinalScore",
    "Game",
    "Garden",
    "Move",
    "MoveResult",
    "Rules",
    "SelfPlayBatch",
    "Stack",
    "Storage",
    "Verb",
    "kind_colour",
    "kind_value",
    "make_bot",
    "self_play",
    "simulate",
    "table_rules",
]

ACTION_COUNT: Final = _qg.ACTION_COUNT
"""Actions of the fixed encoding (``docs/queens-garden.md``, "Actions for search")."""
OBSERVATION_SIZE: Final = _qg.OBSERVATION_SIZE
"""Length of :meth:`Game.observation`'s float32 vector."""
OBSERVATION_LAYOUT: Final = _qg.OBSERVATION_LAYOUT
"""The observation's named segments: name -> ``(offset, shape)`` (``docs/queens-garden.md``,
"Observation tensor")."""
RECORD_FORMAT: Final = _qg.RECORD_FORMAT
"""``format`` of a game record: ``queens-garden-record/1``."""
SNAPSHOT_FORMAT: Final = _qg.SNAPSHOT_FORMAT
"""``format`` of a position snapshot: ``queens-garden-snapshot/1``."""
ATTRIBUTES: Final[tuple[str, ...]] = tuple(_qg.ATTRIBUTES)
"""The 12 attributes in index order, what ``take`` names and the wheel's categories: the colour
codes ``bl ye lg dg lp dp`` (blue, yellow, light green, dark green, light purple, dark purple),
then the pattern values ``1``..``6``."""
COLOURS: Final[tuple[str, ...]] = ATTRIBUTES[:6]
"""The colour codes in their fixed order (index 0..5)."""
PATTERNS: Final[tuple[str, ...]] = ATTRIBUTES[6:]
"""The pattern values as written (tree, bird, butterfly, flower, and two whose names are
unverified labels); a pattern's value is its cost and its points."""
KINDS: Final[tuple[str, ...]] = tuple(_qg.KINDS)
"""The 36 hexagon kinds in kind-id order (``bl1`` = 0 .. ``dp6`` = 35)."""
CELLS: Final[tuple[str, ...]] = tuple(_qg.CELLS)
"""The 48 cell names in canonical order (``f0``..``f5``, then ``a0c a00 .. a05 a1c ..``)."""
_DEFAULT_RULES: Final = Rules(2)
DEFAULT_WHEEL: Final[tuple[tuple[str, ...], ...]] = tuple(map(tuple, _DEFAULT_RULES.wheel))
"""The engine's default scoring wheel, rounds 1..4: a PLACEHOLDER, not the printed wheel (no
public source lists it): ``bl dg 1``, ``ye 2 3``, ``lg lp 4``, ``dp 5 6``."""
DEFAULT_JOKERS: Final[dict[str, int]] = _DEFAULT_RULES.jokers
"""The engine's default jokers per surrounded element (fountain 1, statue 2, bench 2, pavilion
3): unverified printed data."""
ELEMENTS: Final[tuple[str, ...]] = tuple(DEFAULT_JOKERS)
"""The garden elements that pay jokers when their ring is surrounded (``Rules.jokers`` keys)."""


def kind_colour(kind: str) -> str:
    """The colour code of a kind: ``kind_colour("lg4") == "lg"``."""
    return kind[:2]


def kind_value(kind: str) -> int:
    """The pattern value of a kind (its cost and points): ``kind_value("lg4") == 4``."""
    return int(kind[2])


def simulate(bots: list[str], games: int, *, deal: str = "python", **arguments: Any) -> Simulation:
    """:func:`indigo._native.queens_garden.simulate` in the form :func:`indigo.simulate` calls
    every game's: ``deal`` chooses Indigo's pile shuffle, and a Queen's Garden game is set up
    from its seed only (``"python"``, CPython's ``random.Random``)."""
    if deal != "python":
        raise IndigoError(
            f"deal={deal!r} is for Indigo's piles; a Queen's Garden game is set up from its seed "
            "only"
        )
    return _qg.simulate(bots, games, **arguments)


def table_rules(players: int, theme: str, hand_size: int | None, gates: str) -> Rules:
    """The rules a table's options name (:attr:`indigo.games.GameEntry.table_rules`): only
    ``players``; the theme, hand size and gate variant are Indigo's."""
    del theme, hand_size, gates
    return Rules(players)


Verb = Literal["take", "tile", "exp", "buy", "pass"]
"""The rulebook's verb of a :class:`Move` (``Move.verb``)."""


class Storage(TypedDict):
    """A seat's storage: tiles (sorted by kind id, with repeats), jokers, stored expansions."""

    tiles: list[str]
    jokers: int
    expansions: list[str]


class Area(TypedDict, total=False):
    """An expansion in a garden area: face down, or face up with its printed kind on petal."""

    face: Literal["up", "down"]
    kind: str
    petal: int


class Garden(TypedDict):
    """A seat's garden: cell name -> placed tile kind, and the six areas (``None`` when empty)."""

    tiles: dict[str, str]
    areas: list[Area | None]


class Stack(TypedDict):
    """The current round stack: its top's slot and tiles, and how many expansions lie below."""

    slot: int
    tiles: list[str]
    below: int


class DisplayExpansion(TypedDict, total=False):
    """An expansion that left the stack: face down with tiles, or face up showing its kind."""

    slot: int
    face: Literal["up", "down"]
    tiles: list[str]
    kind: str


class FinalScore(TypedDict):
    """One seat's final scoring: the storage step's change, group points, six-group bonus."""

    storage: int
    groups: int
    bonus: int
