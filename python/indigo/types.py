"""Names of the literal string types used across the API."""

from typing import Literal

GemName = Literal["amber", "emerald", "sapphire"]
GateVariant = Literal["shared", "exclusive"]
TieBreak = Literal["most-gems", "shared"]
ThemeName = Literal["indigo", "butterfly-garden"]
GemOutcome = Literal["rested", "collected", "collided"]
"""What became of a gem in a placement (:attr:`indigo.GemPath.outcome`); not a game's result."""
ChanceMode = Literal["sampled", "explicit"]
Utility = Literal["points", "win", "rank", "zero-sum"]
"""How a finished game is scored for learning (docs/search.md): ``"zero-sum"`` is +1 / -1 with
0 for a shared result between two players; with more, each loser gets ``-1 / (players - 1)``
and the winners share what the losers give up, so the returns sum to 0."""

__all__ = [
    "ChanceMode",
    "GateVariant",
    "GemName",
    "GemOutcome",
    "ThemeName",
    "TieBreak",
    "Utility",
]
