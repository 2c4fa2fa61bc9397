"""indigo: an exact, fast engine for the board game Indigo and its re-theme Butterfly Garden,
and for Azul: Queen's Garden (:mod:`indigo.queens_garden`).

>>> import indigo
>>> game = indigo.Game(indigo.Rules.indigo(players=2), seed=1)
>>> result = game.play(game.legal_moves[0])
>>> garden = indigo.queens_garden.Game(indigo.queens_garden.Rules(players=2), seed=1)
"""

from typing import TYPE_CHECKING, Any

from indigo import queens_garden
from indigo._native import (
    ACTION_COUNT,
    CELLS,
    CENTRE,
    CORNERS,
    GATE_CELLS,
    GEM_POINTS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    ROUTE_CELLS,
    TILE_COUNTS,
    TILE_PATHS,
    EvaluatorError,
    Game,
    GemPath,
    GreedyBot,
    IllegalMoveError,
    IndigoError,
    IsmctsBot,
    Move,
    MoveError,
    MoveResult,
    PlayoutBot,
    PuctBot,
    PuctSearchResult,
    RandomBot,
    RecordError,
    Rules,
    RulesError,
    SearchResult,
    SelfPlayBatch,
    Simulation,
    __version__,
    seat_seed,
)
from indigo.bots import Bot, BotLike, Policy, as_bot, make_bot, play_game
from indigo.policies import PolicySelfPlayBatch, PolicySimulation, self_play, simulate
from indigo.policy_vector import PolicyVectorGames, VectorGames
from indigo.types import (
    ChanceMode,
    GateVariant,
    GemName,
    GemOutcome,
    ThemeName,
    TieBreak,
    Utility,
)

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
    "Bot",
    "BotLike",
    "ChanceMode",
    "EvaluatorError",
    "Game",
    "GateVariant",
    "GemName",
    "GemOutcome",
    "GemPath",
    "GreedyBot",
    "IllegalMoveError",
    "IndigoError",
    "IsmctsBot",
    "Move",
    "MoveError",
    "MoveResult",
    "PlayoutBot",
    "Policy",
    "PolicySelfPlayBatch",
    "PolicySimulation",
    "PolicyVectorGames",
    "PuctBot",
    "PuctSearchResult",
    "RandomBot",
    "RecordError",
    "Rules",
    "RulesError",
    "SearchResult",
    "SelfPlayBatch",
    "Simulation",
    "ThemeName",
    "TieBreak",
    "Utility",
    "VectorGames",
    "__version__",
    "as_bot",
    "make_bot",
    "play_game",
    "queens_garden",
    "seat_seed",
    "self_play",
    "simulate",
]

if TYPE_CHECKING:
    from indigo.types import Outcome as Outcome  # deprecated until 0.3.0: GemOutcome
else:

    def __getattr__(name: str) -> Any:
        if name == "Outcome":
            from indigo._deprecation import warn

            warn("indigo.Outcome", "indigo.GemOutcome")
            return GemOutcome
        raise AttributeError(f"module 'indigo' has no attribute {name!r}")
