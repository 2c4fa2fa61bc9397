"""What the adapters share, for every game of the registry (:class:`indigo.games.GameEntry`):
rules from keyword arguments, spaces, legal actions, opponents, seeds and rendering."""

from __future__ import annotations

import io
import operator
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast, get_args

import numpy as np
import numpy.typing as npt

from indigo import IllegalMoveError, IndigoError, Rules, Utility
from indigo._extras import require
from indigo.bots import Bot, BotLike, as_bot, opponent_entries
from indigo.games import GameEntry, find_game

if TYPE_CHECKING:
    from gymnasium import spaces

Entry = GameEntry[Any, Any, Any]

RENDER_MODES: Final[list[str]] = ["human", "ansi", "rgb_array"]


def make_rules(players: int, hand_size: int, rules: Rules | None) -> Rules:
    """Indigo's ``rules`` when given, else ``Rules(players, hand_size)``."""
    return rules if rules is not None else Rules(players, hand_size)


def game_rules(entry: Entry, players: int, rules: Any) -> Any:
    """``rules`` when given (they must be ``entry``'s), else the game's default rules."""
    if rules is None:
        return entry.default_rules(players)
    if find_game(rules) is not entry:
        raise IndigoError(f"rules must be {entry.title}'s, not {type(rules).__name__}")
    return rules


def check_utility(utility: str) -> Utility:
    """``utility`` if it names one, else :class:`~indigo.IndigoError`."""
    if utility in get_args(Utility):
        return cast("Utility", utility)
    names = ", ".join(repr(name) for name in get_args(Utility))
    raise IndigoError(f"utility must be one of {names}, not {utility!r}")


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if it is None or one of :data:`RENDER_MODES`, else an error."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise IndigoError(f"render_mode must be None or one of {RENDER_MODES}, not {render_mode!r}")
    return render_mode


def observation_space(entry: Entry) -> spaces.Box:
    """The game's float32 observation tensor."""
    from gymnasium import spaces

    return spaces.Box(0.0, entry.observation_high, (entry.observation_size,), np.float32)


def action_width(entry: Entry) -> int:
    """How many actions the environments offer: the action numbers, or the most legal actions
    a position lists (:attr:`GameEntry.action_list`)."""
    return entry.action_count if entry.action_list is None else entry.action_list


def action_space(entry: Entry) -> spaces.Discrete:
    """One action: a number, or an index into the legal actions."""
    from gymnasium import spaces

    return spaces.Discrete(action_width(entry))


def mask_space(entry: Entry) -> spaces.Box:
    """The int8 action mask."""
    from gymnasium import spaces

    return spaces.Box(0, 1, (action_width(entry),), np.int8)


def legal_space(entry: Entry) -> spaces.Box:
    """The legal action numbers of a listed game, ascending, padded with -1."""
    from gymnasium import spaces

    return spaces.Box(-1, entry.action_count - 1, (action_width(entry),), np.int64)


def listed(entry: Entry, game: Any) -> list[int]:
    """The legal action numbers of a listed game; a position with more than the list holds
    raises :class:`~indigo.IndigoError` (none has been seen: docs/envs.md)."""
    legal: list[int] = game.legal_actions()
    if entry.action_list is not None and len(legal) > entry.action_list:
        raise IndigoError(
            f"this position has {len(legal)} legal actions, more than the environments' "
            f"{entry.action_list}"
        )
    return legal


def action_mask(entry: Entry, game: Any) -> npt.NDArray[np.int8]:
    """1 where the action is legal for the seat to move, as int8 (what ``Discrete.sample``
    takes as a mask): over the action numbers, or the first ``len(legal)`` of a list."""
    if entry.action_list is None:
        return cast("npt.NDArray[np.int8]", game.legal_action_mask().astype(np.int8))
    mask = np.zeros(entry.action_list, np.int8)
    mask[: len(listed(entry, game))] = 1
    return mask


def legal_numbers(entry: Entry, game: Any) -> npt.NDArray[np.int64]:
    """The legal action numbers of a listed game, ascending, padded with -1."""
    legal = np.full(action_width(entry), -1, np.int64)
    numbers = listed(entry, game)
    legal[: len(numbers)] = numbers
    return legal


def action_number(action: object) -> int:
    """``action`` as an int if it is an integer (``__index__``: numpy integers, bools), else the
    ``TypeError`` :meth:`indigo.Game.play` raises: ``int(2.9)`` would play action 2."""
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"an action is an integer, not {type(action).__name__}") from None


def played_action(entry: Entry, game: Any, action: object) -> int:
    """The action number an environment's ``action`` plays: itself, or the legal action at
    that index of a listed game (an index past the list raises
    :class:`~indigo.IllegalMoveError`)."""
    action = action_number(action)
    if entry.action_list is None:
        return action
    legal = listed(entry, game)
    if not 0 <= action < len(legal):
        raise IllegalMoveError(
            f"action {action} is no index of the {len(legal)} legal actions of seat {game.to_move}"
        )
    return legal[action]


def is_legal(entry: Entry, game: Any, action: int) -> bool:
    """Whether the environment's ``action`` is legal for the seat to move."""
    if entry.action_list is None:
        return bool(0 <= action < entry.action_count and game.legal_action_mask()[action])
    return 0 <= action < len(listed(entry, game))


def opponents(entry: Entry, opponents: BotLike | Sequence[BotLike], others: int) -> list[BotLike]:
    """One opponent entry per other seat, checked; a game that only native bots play
    (``python_bots`` false) takes specs only."""
    entries = opponent_entries(opponents, others) if entry.python_bots else None
    if entries is not None:
        return entries
    single = isinstance(opponents, str) or not isinstance(opponents, Sequence)
    specs: list[BotLike] = [opponents] * others if single else list(opponents)  # type: ignore[arg-type, list-item]
    if len(specs) != others:
        raise IndigoError(f"give one opponent or {others}, not {len(specs)}")
    for spec in specs:
        if not isinstance(spec, str):
            raise TypeError(f"{entry.title}'s opponents are bot specs, not {type(spec).__name__}")
        entry.make_bot(spec, seed=0)
    return specs


def opponent_bot(entry: Entry, spec: BotLike, seed: int) -> Bot:
    """The bot of an opponent entry, seeded with ``seed``."""
    if entry.python_bots:
        return as_bot(spec, seed=seed)
    return cast("Bot", entry.make_bot(spec, seed=seed))


def next_seed(seeds: random.Random) -> int:
    """A game seed drawn from ``seeds``."""
    return seeds.getrandbits(63)


def render(entry: Entry, game: Any, mode: str | None) -> Any:
    """``human``: prints the position in colour, returns None; ``ansi``: returns it as plain
    text; ``rgb_array``: the SVG picture as an ``H x W x 3`` uint8 array (needs resvg-py and
    Pillow: the pettingzoo and gymnasium extras bring both)."""
    if mode in ("human", "ansi"):
        colour = mode == "human"
        text = entry.game_text(game, colour=colour)
        if colour:
            print(text, flush=True)
            return None
        return text
    if mode == "rgb_array":
        from indigo.render.png import svg_to_png

        image = require("PIL.Image", "gymnasium")
        with image.open(io.BytesIO(svg_to_png(entry.game_svg(game)))) as picture:
            return np.asarray(picture.convert("RGB"))
    return None
