"""PettingZoo AEC environment of Azul: Queen's Garden, following the classic games' conventions.

>>> import numpy as np
>>> from indigo.envs import queens_garden_v0
>>> env = queens_garden_v0.env(players=3)
>>> env.reset(seed=7)
>>> observation, *_ = env.last()
>>> sorted(observation), observation["observation"].shape
(['action_mask', 'legal_actions', 'observation'], (3747,))
>>> legal = observation["legal_actions"]
>>> int(observation["action_mask"].sum()) == int((legal >= 0).sum())
True

Agents are ``player_0`` .. ``player_{n-1}`` for seats 0 .. n-1. Queen's Garden numbers its
moves in 8,053,459 actions, too many for a mask, so an action here is an **index into the
legal actions** of the seat to move (ascending action numbers, the order of
``game.legal_moves``), at most 8,192 of them: ``observation["legal_actions"]`` holds their
action numbers padded with -1 and ``observation["action_mask"]`` (int8) marks the indices in
use, all zero unless the agent is to move. Rewards come at the end: each seat's return under
``utility``. Seeds and rendering are those of ``indigo_v0`` (docs/envs.md).
"""

from __future__ import annotations

from typing import Any, ClassVar

from indigo.envs import _common
from indigo.envs._aec import GameAEC, wrap
from indigo.games import QUEENS_GARDEN
from indigo.queens_garden import Rules
from indigo.types import Utility

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are (see ``indigo_v0.env``);
    ``kwargs`` go to :class:`raw_env`."""
    return wrap(raw_env(**kwargs))


class raw_env(GameAEC):  # noqa: N801
    """Azul: Queen's Garden as an AEC game. An index past the legal actions raises
    :class:`indigo.IllegalMoveError` and changes nothing."""

    metadata: ClassVar[dict[str, Any]] = {**GameAEC.metadata, "name": "queens_garden_v0"}

    def __init__(
        self,
        players: int = 2,
        *,
        rules: Rules | None = None,
        utility: Utility = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            QUEENS_GARDEN,
            _common.game_rules(QUEENS_GARDEN, players, rules),
            utility=utility,
            render_mode=render_mode,
        )
