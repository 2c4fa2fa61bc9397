"""What the adapters share: rules from keyword arguments, spaces, masks, seeds and rendering."""

from __future__ import annotations

import io
import operator
import random
from typing import TYPE_CHECKING, Any, Final, cast, get_args

import numpy as np
import numpy.typing as npt

from indigo import ACTION_COUNT, OBSERVATION_SIZE, TILE_COUNTS, Game, IndigoError, Rules, Utility
from indigo._extras import require

if TYPE_CHECKING:
    from gymnasium import spaces

OBSERVATION_HIGH: Final[float] = float(sum(TILE_COUNTS))
"""No value of the observation tensor exceeds the 54 tiles of the box (scores are at most 19)."""

RENDER_MODES: Final[list[str]] = ["human", "ansi", "rgb_array"]


def make_rules(players: int, hand_size: int, rules: Rules | None) -> Rules:
    """``rules`` when given, else ``Rules(players, hand_size)``."""
    return rules if rules is not None else Rules(players, hand_size)


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


def observation_space() -> spaces.Box:
    """The float32 observation tensor (docs/search.md gives its layout)."""
    from gymnasium import spaces

    return spaces.Box(0.0, OBSERVATION_HIGH, (OBSERVATION_SIZE,), np.float32)


def mask_space() -> spaces.Box:
    """The int8 action mask of the PettingZoo observation."""
    from gymnasium import spaces

    return spaces.Box(0, 1, (ACTION_COUNT,), np.int8)


def action_mask(game: Game) -> npt.NDArray[np.int8]:
    """1 where the action is legal for the seat to move, as int8 (what ``Discrete.sample``
    takes as a mask)."""
    return game.legal_action_mask().astype(np.int8)


def action_number(action: object) -> int:
    """``action`` as an int if it is an integer (``__index__``: numpy integers, bools), else the
    ``TypeError`` :meth:`indigo.Game.play` raises: ``int(2.9)`` would play action 2."""
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"an action is an integer, not {type(action).__name__}") from None


def next_seed(seeds: random.Random) -> int:
    """A game seed drawn from ``seeds``."""
    return seeds.getrandbits(63)


def render(game: Game, mode: str | None) -> Any:
    """``human``: prints the board and status in colour, returns None; ``ansi``: returns them as
    plain text; ``rgb_array``: the SVG picture as an ``H x W x 3`` uint8 array (needs resvg-py
    and Pillow: the pettingzoo and gymnasium extras bring both)."""
    if mode in ("human", "ansi"):
        from indigo.render.terminal import board_text, status_text

        colour = mode == "human"
        text = f"{board_text(game, colour=colour)}\n{status_text(game, colour=colour)}\n"
        if colour:
            print(text, flush=True)
            return None
        return text
    if mode == "rgb_array":
        from indigo.render.png import svg_to_png
        from indigo.render.svg import game_svg

        image = require("PIL.Image", "gymnasium")
        with image.open(io.BytesIO(svg_to_png(game_svg(game)))) as picture:
            return np.asarray(picture.convert("RGB"))
    return None
