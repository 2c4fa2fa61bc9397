"""The web server's limits (``indigo serve`` flags, :func:`indigo.web.app.create_app` arguments).

This module imports nothing of the ``web`` extra, so the CLI can build its parser without it.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

from indigo._native import IndigoError

__all__ = ["ServerLimits", "add_limit_options", "limits_from_args"]


@dataclass(frozen=True)
class ServerLimits:
    """What one server allows; every field must be positive. Defaults are safe for a laptop."""

    max_games: int = 2000
    """Games held at once; one more is refused with 503."""
    max_games_per_client: int = 50
    """Games held at once for one client address; one more is refused with 429."""
    game_ttl: float = 3600.0
    """Seconds a game may go untouched before it is deleted."""
    max_simulations: int = 200_000
    """Most simulations a bot seat may ask for (``ismcts:N``)."""
    max_search_time: float = 5.0
    """Most seconds a bot seat may ask to search for (``ismcts:time=S``), and the most any
    searching seat's move takes: ``ismcts:N`` stops at N simulations or this time."""
    max_bot_threads: int = 2
    """Most threads a bot seat may ask for (``threads=T``)."""
    search_workers: int = 2
    """Searches that run at once, on threads apart from the request handlers."""
    max_searches_per_client: int = 1
    """Bot searches one client address may have running or waiting at once; one more is
    refused with 429 and ``Retry-After``, so that one client cannot take every worker."""

    def __post_init__(self) -> None:
        for spec in dataclasses.fields(self):
            value = getattr(self, spec.name)
            whole = spec.type in (int, "int")
            if (
                isinstance(value, bool)
                or not isinstance(value, int if whole else (int, float))
                or not math.isfinite(value)
                or value <= 0
            ):
                kind = "integer" if whole else "number"
                raise IndigoError(f"{spec.name}: must be a positive {kind}, not {value!r}")


_HELP = {
    "max_games": "games held at once",
    "max_games_per_client": "games held at once for one client address",
    "game_ttl": "seconds a game may go untouched before it is deleted",
    "max_simulations": "most simulations a bot seat may ask for",
    "max_search_time": "most seconds a bot seat may search per move",
    "max_bot_threads": "most threads a bot seat may ask for",
    "search_workers": "bot searches run at once (the search pool)",
    "max_searches_per_client": "bot searches one client address may have running or waiting",
}


def _positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(value) or value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, not {text}")
        return value

    return parse


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    """One ``indigo serve`` flag per :class:`ServerLimits` field."""
    defaults = ServerLimits()
    for spec in dataclasses.fields(ServerLimits):
        whole = spec.type in (int, "int")
        default = getattr(defaults, spec.name)
        parser.add_argument(
            "--" + spec.name.replace("_", "-"),
            type=_positive(int if whole else float),
            default=default,
            metavar="N" if whole else "S",
            help=f"{_HELP[spec.name]} (default: {default})",
        )


def limits_from_args(args: argparse.Namespace) -> ServerLimits:
    """The limits that :func:`add_limit_options`' flags chose."""
    return ServerLimits(**{f.name: getattr(args, f.name) for f in dataclasses.fields(ServerLimits)})
