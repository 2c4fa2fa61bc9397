"""Bots: the `Bot` protocol and a factory from short specs such as ``"greedy"``.

>>> import indigo
>>> bot = indigo.make_bot("greedy", seed=3)
>>> game = indigo.Game(indigo.Rules.indigo(players=2), seed=1)
>>> game.is_legal(bot.choose(game))
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from indigo._native import Game, GreedyBot, Move, RandomBot


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a legal move for the seat to move in ``game``."""

    def choose(self, game: Game) -> Move:
        """A legal move for ``game.to_move``."""
        ...


BOT_NAMES = ("random", "greedy")


def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """A bot from a spec: ``"random"`` or ``"greedy"``.

    Raises ``ValueError`` for an unknown spec.
    """
    name = spec.strip().lower()
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    raise ValueError(f"unknown bot {spec!r}: expected one of {', '.join(BOT_NAMES)}")
