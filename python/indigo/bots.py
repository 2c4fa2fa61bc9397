"""Bots: the `Bot` protocol that any player object follows, and the native bots by spec.

>>> import indigo
>>> bot = indigo.make_bot("ismcts:200", seed=3)
>>> game = indigo.Game(indigo.Rules.indigo(players=2), seed=1)
>>> game.is_legal(bot.choose(game))
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from indigo._native import Game, Move
from indigo._native import make_bot as _make_native_bot


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a legal move for the seat to move in ``game``.

    The native bots read only what that seat knows. A bot of your own that must not see hidden
    tiles can search on ``game.resample(game.to_move)`` instead of ``game`` itself.
    """

    def choose(self, game: Game) -> Move:
        """A legal move for ``game.to_move``."""
        ...


BOT_SPECS = ("random", "greedy", "ismcts", "ismcts:N", "ismcts:time=SECONDS")


def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """A native bot from a spec: ``random``, ``greedy``, ``ismcts`` (1000 simulations),
    ``ismcts:N``, ``ismcts:time=0.5``, ``ismcts:N,c=0.7,threads=2``.

    Raises :class:`indigo.IndigoError` (a ``ValueError``) for a bad spec.
    """
    bot: Bot = _make_native_bot(spec, seed=seed)
    return bot
