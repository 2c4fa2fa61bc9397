"""A game at a table of people and bots: seats, rules, the bot menu, and undo.

Shared by the terminal (:mod:`indigo.play`), the command line and the web app.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final, Protocol, Self, TypeVar

from indigo import ROUTE_CELLS, Game, Move, Rules, queens_garden
from indigo.bots import split_bot_specs
from indigo.games import find_game

__all__ = [
    "BOT_MENU",
    "HUMAN",
    "QG_BOT_MENU",
    "BotChoice",
    "QgBot",
    "demo_rules",
    "legal_cells",
    "parse_seats",
    "seat_name",
    "undo_to_person",
]

HUMAN: Final = "human"
"""The seat spec of a person."""


@dataclass(frozen=True)
class BotChoice:
    """One entry of the bot menu: the spec, a short label, and how strong it plays."""

    spec: str
    label: str
    hint: str


BOT_MENU: Final[tuple[BotChoice, ...]] = (
    BotChoice("random", "Random", "plays any legal tile: for learning the rules"),
    BotChoice("greedy", "Greedy", "takes the most points this move; beats Random 39 games in 40"),
    BotChoice("ismcts:200", "Search 200", "looks ahead a little; beats Greedy 33 games in 40"),
    BotChoice("ismcts:1000", "Search 1000", "beats Search 200 in 36 games of 40"),
    BotChoice("ismcts:5000", "Search 5000", "beats Search 1000 in 37 games of 40"),
    BotChoice("ismcts:20000", "Search 20000", "beats Search 5000 in 37 games of 40"),
    BotChoice(
        "best:time=0.1",
        "Best",
        "the strongest: search tuned for Indigo, 0.1 s a move; beats untuned search at equal "
        "time in 3 of 4 decisive games",
    ),
)
"""The bots offered by the web page's seat menu; the hints summarise docs/web.md's tournament."""


def demo_rules(
    players: int, theme: str, hand_size: int | None = None, gates: str = "shared"
) -> Rules:
    """The rules of ``indigo demo``: the theme's preset unless a hand size or variant is given."""
    preset = Rules.preset(theme, players)
    if hand_size is None and gates == "shared":
        return preset
    return Rules(
        players,
        preset.hand_size if hand_size is None else hand_size,
        three_player_gates="exclusive" if gates == "exclusive" else "shared",
        theme=preset.theme,
    )


def parse_seats(text: str, *, game: str = "indigo") -> list[str]:
    """``"human,greedy"`` as a checked list of seat specs for ``game`` (a name of
    :data:`indigo.games.GAMES`). Raises :class:`ValueError`."""
    make = find_game(game).make_bot
    specs = [part.lower() for part in split_bot_specs(text)]
    if not 2 <= len(specs) <= 4:
        raise ValueError(f"--players: give 2 to 4 seats separated by commas, not {text!r}")
    for spec in specs:
        if spec != HUMAN:  # each raises ValueError for an unknown spec
            make(spec, seed=0)
    return specs


def legal_cells(game: Game) -> dict[int, dict[int, list[tuple[int, int]]]]:
    """For each tile type the seat to move holds, each rotation 0..5: the cells it may go on."""
    legal = game.legal_moves
    out: dict[int, dict[int, list[tuple[int, int]]]] = {}
    anywhere = ROUTE_CELLS[0]
    for tile in sorted({m.tile for m in legal}):
        out[tile] = {}
        for rotation in range(6):
            canonical = Move(tile, rotation, *anywhere).canonical().rotation
            out[tile][rotation] = [
                m.cell for m in legal if m.tile == tile and m.rotation == canonical
            ]
    return out


class _Undoable(Protocol):
    """What :func:`undo_to_person` needs of a game: both games' ``Game`` classes have it."""

    @property
    def to_move(self) -> int | None: ...
    @property
    def moves(self) -> Sequence[object]: ...
    def undo(self) -> object: ...
    def clone(self) -> Self: ...


_G = TypeVar("_G", bound=_Undoable)


QgBot = queens_garden.Bot
"""A Queen's Garden bot (``choose(game)`` takes a :class:`indigo.queens_garden.Game`)."""

QG_BOT_MENU: Final[tuple[BotChoice, ...]] = (
    BotChoice("random", "Random", "any legal move: for learning the rules"),
    BotChoice("greedy", "Greedy", "the most points this move; beats Random 85 games in 100"),
    BotChoice(
        "ismcts:300", "Search 300", "looks ahead a little; beats Search 100 in 36 games of 60"
    ),
    BotChoice("ismcts:1000", "Search 1000", "beats Greedy in 69 games of 80, Random in 60 of 60"),
    BotChoice(
        "best:time=0.1",
        "Best",
        "the strongest the package has: search for 0.1 s a move (not yet tuned for this game)",
    ),
)
"""The Queen's Garden bots offered by the web page; the hints summarise docs/search.md."""


def seat_name(spec: str) -> str:
    """A seat's name for people: a menu's label of the bot ``spec`` (``"Search 1000"``; the
    menus label a spec alike), else the spec itself."""
    return next((c.label for c in (*BOT_MENU, *QG_BOT_MENU) if c.spec == spec), spec)


def undo_to_person(game: _G, bots: Collection[int]) -> _G | None:
    """A copy of ``game`` taken back to before the last move a person made (the seats not in
    ``bots``), with the bot moves after it; ``None`` if no person has moved."""
    trial = game.clone()
    while trial.moves:
        trial.undo()
        if trial.to_move is not None and trial.to_move not in bots:
            return trial
    return None
