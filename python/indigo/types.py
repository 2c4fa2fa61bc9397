"""Names of the literal string types used across the API."""

from typing import Literal

GemName = Literal["amber", "emerald", "sapphire"]
GateVariant = Literal["shared", "exclusive"]
TieBreak = Literal["most-gems", "shared"]
ThemeName = Literal["indigo", "butterfly-garden"]
Outcome = Literal["rested", "collected", "collided"]
ChanceMode = Literal["sampled", "explicit"]
Utility = Literal["points", "win", "rank"]

__all__ = [
    "ChanceMode",
    "GateVariant",
    "GemName",
    "Outcome",
    "ThemeName",
    "TieBreak",
    "Utility",
]
