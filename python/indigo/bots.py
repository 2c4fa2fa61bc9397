"""Bots: the `Bot` protocol that any player object follows, and the native bots by spec.

>>> import indigo
>>> bot = indigo.make_bot("ismcts:200", seed=3)
>>> game = indigo.Game(indigo.Rules.indigo(players=2), seed=1)
>>> game.is_legal(bot.choose(game))
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Literal, Protocol, TypeAlias, overload, runtime_checkable

from indigo._native import (
    Game,
    IllegalMoveError,
    IndigoError,
    IsmctsBot,
    Move,
    NetBot,
    Rules,
    normalize_bot_spec,
    seat_seed,
)
from indigo._native.queens_garden import Bot as QgBot
from indigo.games import find_game


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a legal move for the seat to move in ``game``.

    The native bots read only what that seat knows. A bot of your own that must not see hidden
    tiles can search on ``game.resample(game.to_move)`` instead of ``game`` itself.
    """

    def choose(self, game: Game) -> Move:
        """A legal move for ``game.to_move``."""
        ...


Policy: TypeAlias = Callable[[Game], "Move | int"]
"""A callable policy: given the game (the view of the seat to move, ``game.to_move``), it
returns that seat's move as a :class:`Move` or an action number (docs/api.md)."""

BotLike: TypeAlias = "str | Bot | Policy"
"""What every call that takes bots accepts: a spec for :func:`make_bot`, an object with
``choose(game) -> Move`` (:class:`Bot`), or a :data:`Policy` callable."""


class PolicyBot:
    """A :data:`Policy` callable as a :class:`Bot`."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def choose(self, game: Game) -> Move:
        """The policy's move: an action number becomes its :class:`Move`."""
        choice = self.policy(game)
        if isinstance(choice, Move):
            return choice
        if isinstance(choice, int) and not isinstance(choice, bool):
            return Move.from_action(choice)
        raise TypeError(f"a policy returns a Move or an action number, not {type(choice).__name__}")

    def __repr__(self) -> str:
        return f"PolicyBot({bot_name(self.policy)})"


def as_bot(entry: BotLike, *, seed: int | None = None) -> Bot:
    """The bot ``entry`` stands for: a spec is made by :func:`make_bot` with ``seed``; a
    :class:`Bot` is itself (its own seed and state; ``seed`` is not used); a :data:`Policy`
    callable is wrapped in a :class:`PolicyBot`. Anything else raises ``TypeError``; a bad
    spec :class:`indigo.IndigoError`. Every call that takes bots converts them here."""
    if isinstance(entry, str):
        return make_bot(entry, seed=seed)
    if isinstance(entry, Bot):
        return entry
    if callable(entry):
        return PolicyBot(entry)
    raise TypeError(
        "a bot is a spec string, an object with choose(game) or a callable (game) -> Move, "
        f"not {type(entry).__name__}"
    )


def opponent_entries(opponents: BotLike | Sequence[BotLike], others: int) -> list[BotLike]:
    """``opponents`` as one entry per other seat: one entry stands for all ``others`` seats,
    a sequence must hold ``others``. Every entry is checked by :func:`as_bot`, so a bad one
    fails here rather than at the first game."""
    single = isinstance(opponents, str) or not isinstance(opponents, Sequence)
    entries: list[BotLike] = [opponents] * others if single else list(opponents)  # type: ignore[arg-type, list-item]
    if len(entries) != others:
        raise IndigoError(f"give one opponent or {others}, not {len(entries)}")
    for entry in entries:
        as_bot(entry, seed=0)
    return entries


def play_opponents(game: Game, learner: int, bots: Mapping[int, Bot], views: random.Random) -> None:
    """Plays ``bots[seat]``'s moves in ``game`` until ``learner`` is to move or the game is
    over; each bot chooses on ``game.resample(seat)`` (seeded from ``views``), so it sees only
    what its seat knows."""
    while (mover := game.to_move) is not None and mover != learner:
        view = game.resample(mover, seed=views.getrandbits(64))
        game.play(bots[mover].choose(view))


def bot_name(entry: BotLike) -> str:
    """How results name ``entry``: a spec's canonical text, an :class:`IsmctsBot`'s or
    :class:`NetBot`'s spec,
    else the callable's or the class's name."""
    if isinstance(entry, str):
        return normalize_bot_spec(entry)
    if isinstance(entry, (IsmctsBot, NetBot)):
        return entry.spec
    name = getattr(entry, "__name__", None)
    return name if isinstance(name, str) else type(entry).__name__


def play_game(
    bots: Sequence[BotLike],
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    fair: bool = True,
) -> Game:
    """Play one whole game with ``bots[seat]`` choosing for each seat; returns the finished game.

    Native bots, specs, your own bots and policy callables mix freely (:func:`as_bot`). A
    spec's bot is seeded as :func:`indigo.simulate` seeds it, ``seat_seed(seed, seat)``, so
    ``play_game(specs, rules=rules, seed=sim.game_seeds[i])`` is game ``i`` of
    ``simulate(specs, ...)`` with those specs seated as in it (without a seed, from the
    operating system). With ``fair`` (the default) each bot is handed
    ``game.resample(seat)``, a game consistent with what that seat knows, so no bot can read
    the pile or another hidden hand; ``fair=False`` hands it a clone of the true game.
    Raises :class:`indigo.IllegalMoveError` naming the seat whose bot chose an illegal move.
    """
    rules = rules if rules is not None else Rules.indigo(len(bots))
    if len(bots) != rules.players:
        raise IndigoError(f"give one bot per seat ({rules.players}), not {len(bots)}")
    game = Game(rules, seed=seed)
    players = [
        as_bot(entry, seed=None if seed is None else seat_seed(seed, seat))
        for seat, entry in enumerate(bots)
    ]
    views = random.Random(seed)
    while (seat := game.to_move) is not None:
        view = game.resample(seat, seed=views.getrandbits(64)) if fair else game.clone()
        move = players[seat].choose(view)
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
    ``ismcts:N``, ``ismcts:time=0.5``, ``ismcts:N,time=0.5`` (whichever comes first),
    ``ismcts:N,c=0.7,threads=2``, ``best`` or ``best:time=0.5`` (the strongest: ISMCTS tuned
    for the game, docs/search.md), ``net`` (PUCT steered by the game's shipped network, in
    Rust; ``net:N``, ``net:time=0.1``, ``net:file=PATH,threads=2,c=2``), for ``game`` (a name of
    :data:`indigo.games.GAMES`). ``game="queens-garden"`` gives the Queen's Garden bot of the
    same spec (:class:`indigo.queens_garden.Bot`, whose
    ``choose(game)`` takes a :class:`indigo.queens_garden.Game`).

    Raises :class:`indigo.IndigoError` (a ``ValueError``) for a bad spec or game name, or a
    network file that cannot be read or does not fit the game (naming the file).
    """
    bot: Bot | QgBot = find_game(game).make_bot(spec, seed=seed)
    return bot


def split_bot_specs(text: str) -> list[str]:
    """Split ``"ismcts:1000,c=0.5,greedy,random"`` into bot specs.

    A comma-separated part that is a setting (``key=value``, its ``=`` before any ``:``) or
    only a number continues the spec before it, so settings may follow their bot and a
    setting's value may hold a colon (``net,file=C:\\nets\\w.safetensors``).
    """
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        setting = "=" in part.split(":", 1)[0]
        if specs and (setting or part.replace(".", "", 1).isdigit()):
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs
