"""Bots: the `Bot` protocol that any player object follows, and the native bots by spec.

>>> import indigo
>>> bot = indigo.make_bot("ismcts:200", seed=3)
>>> game = indigo.Game(indigo.Rules.indigo(players=2), seed=1)
>>> game.is_legal(bot.choose(game))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, Literal, Protocol, overload, runtime_checkable

from indigo._native import Game, IllegalMoveError, IndigoError, Move, Rules
from indigo._native import make_bot as _make_native_bot
from indigo._native.queens_garden import Bot as QgBot
from indigo._native.queens_garden import make_bot as _make_qg_bot


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a legal move for the seat to move in ``game``.

    The native bots read only what that seat knows. A bot of your own that must not see hidden
    tiles can search on ``game.resample(game.to_move)`` instead of ``game`` itself.
    """

    def choose(self, game: Game) -> Move:
        """A legal move for ``game.to_move``."""
        ...


def play_game(
    bots: Sequence[Bot],
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    fair: bool = True,
) -> Game:
    """Play one whole game with ``bots[seat]`` choosing for each seat; returns the finished game.

    Native bots and your own mix freely. With ``fair`` (the default) each bot is handed
    ``game.resample(seat)``, a game consistent with what that seat knows, so no bot can read
    the pile or another hidden hand; ``fair=False`` hands it a clone of the true game.
    Raises :class:`indigo.IllegalMoveError` naming the seat whose bot chose an illegal move.
    """
    rules = rules if rules is not None else Rules.indigo(len(bots))
    if len(bots) != rules.players:
        raise IndigoError(f"give one bot per seat ({rules.players}), not {len(bots)}")
    game = Game(rules, seed=seed)
    views = random.Random(seed)
    while (seat := game.to_move) is not None:
        view = game.resample(seat, seed=views.getrandbits(64)) if fair else game.clone()
        move = bots[seat].choose(view)
        if not game.is_legal(move):
            raise IllegalMoveError(f"seat {seat}'s bot chose {move}, which is not legal")
        game.play(move)
    return game


SEED_LIMIT: Final = 2**63
"""Table seeds are 0 <= seed < SEED_LIMIT, so that every seat's bot seed (seed + seat) fits in
64 bits."""

BOT_NAMES = ("random", "greedy", "ismcts:200", "ismcts:1000")
"""Bot specs offered by name in menus (the web app's seat choices); any spec works anywhere."""


@overload
def make_bot(spec: str, *, seed: int | None = None, game: Literal["indigo"] = "indigo") -> Bot: ...
@overload
def make_bot(spec: str, *, seed: int | None = None, game: Literal["queens-garden"]) -> QgBot: ...
@overload
def make_bot(spec: str, *, seed: int | None = None, game: str) -> Bot | QgBot: ...
def make_bot(spec: str, *, seed: int | None = None, game: str = "indigo") -> Bot | QgBot:
    """A native bot from a spec: ``random``, ``greedy``, ``playout``, ``ismcts`` (1000 simulations),
    ``ismcts:N``, ``ismcts:time=0.5``, ``ismcts:N,c=0.7,threads=2``. ``game="queens-garden"``
    gives the Queen's Garden bot of the same spec (:class:`indigo.queens_garden.Bot`, whose
    ``choose(game)`` takes a :class:`indigo.queens_garden.Game`).

    Raises :class:`indigo.IndigoError` (a ``ValueError``) for a bad spec or game name.
    """
    if game == "queens-garden":
        return _make_qg_bot(spec, seed=seed)
    if game != "indigo":
        raise IndigoError(f'unknown game {game!r}: expected "indigo" or "queens-garden"')
    bot: Bot = _make_native_bot(spec, seed=seed)
    return bot


def split_bot_specs(text: str) -> list[str]:
    """Split ``"ismcts:1000,c=0.5,greedy,random"`` into bot specs.

    A comma-separated part holding ``=`` or only a number continues the spec before it, so
    ``ismcts`` settings may follow their bot.
    """
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        continues = "=" in part or part.replace(".", "", 1).isdigit()
        if specs and continues and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs
