"""indigo: an exact, fast engine for the board game Indigo and its re-theme Butterfly Garden.

>>> import indigo
>>> game = indigo.Game(indigo.Rules.indigo(players=2), seed=1)
>>> result = game.play(game.legal_moves[0])
"""

from indigo._native import (
    CELLS,
    CENTRE,
    CORNERS,
    GATE_CELLS,
    GEM_POINTS,
    ROUTE_CELLS,
    TILE_COUNTS,
    TILE_PATHS,
    Game,
    GemPath,
    GreedyBot,
    IllegalMoveError,
    IndigoError,
    Move,
    MoveError,
    MoveResult,
    RandomBot,
    RecordError,
    Rules,
    RulesError,
    __version__,
)
from indigo.bots import Bot, make_bot
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
    "Bot",
    "Game",
    "GateVariant",
    "GemName",
    "GemPath",
    "GreedyBot",
    "IllegalMoveError",
    "IndigoError",
    "Move",
    "MoveError",
    "MoveResult",
    "Outcome",
    "RandomBot",
    "RecordError",
    "Rules",
    "RulesError",
    "ThemeName",
    "TieBreak",
    "__version__",
    "make_bot",
]
