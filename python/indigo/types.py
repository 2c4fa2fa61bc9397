"""Names of the literal string types used across the API."""

from typing import TYPE_CHECKING, Any, Literal

GemName = Literal["amber", "emerald", "sapphire"]
GateVariant = Literal["shared", "exclusive"]
TieBreak = Literal["most-gems", "shared"]
ThemeName = Literal["indigo", "butterfly-garden"]
GemOutcome = Literal["rested", "collected", "collided"]
"""What became of a gem in a placement (:attr:`indigo.GemPath.outcome`); not a game's result."""
ChanceMode = Literal["sampled", "explicit"]
Utility = Literal["points", "win", "rank"]

__all__ = [
    "ChanceMode",
    "GateVariant",
    "GemName",
    "GemOutcome",
    "ThemeName",
    "TieBreak",
    "Utility",
]

if TYPE_CHECKING:
    Outcome = GemOutcome
    """Deprecated (until 0.3.0): :data:`GemOutcome`."""
else:

    def __getattr__(name: str) -> Any:
        if name == "Outcome":
            from indigo._deprecation import warn

            warn(f"{__name__}.Outcome", f"{__name__}.GemOutcome")
            return GemOutcome
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
