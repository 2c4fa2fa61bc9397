"""PettingZoo AEC environment, following the classic games' conventions.

>>> from indigo.envs import indigo_v0
>>> env = indigo_v0.env(players=2, hand_size=1)
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = int(observation["action_mask"].nonzero()[0][0])
...     env.step(action)
>>> env.unwrapped.game.over
True

Agents are ``player_0`` .. ``player_{n-1}`` for seats 0 .. n-1. An observation is a dict:
``observation``, the seat's float32 tensor (``indigo.OBSERVATION_LAYOUT``), and
``action_mask``, int8 over the 810 actions, all zero unless the agent is to move. Rewards come
at the end: each seat's return under ``utility`` (``"win"``: the winners share 1; ``"points"``;
``"rank"``; ``"zero-sum"``: +1 / -1, 0 shared). ``reset(seed=s)`` plays ``Game(rules,
seed=s)``; a reset without a seed draws the next game's seed from the last seed given (from the
OS before any). ``render_mode="human"`` prints the board in colour after every reset and move.
"""

from __future__ import annotations

from typing import Any, ClassVar

from indigo import Rules, Utility
from indigo.envs import _common
from indigo.envs._aec import GameAEC, wrap
from indigo.games import INDIGO

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are: an illegal action ends the
    game with reward -1 for its agent, an action outside ``Discrete(810)`` fails an assertion,
    and calls out of order are refused. ``kwargs`` go to :class:`raw_env`."""
    return wrap(raw_env(**kwargs))


class raw_env(GameAEC):  # noqa: N801
    """Indigo as an AEC game. An illegal action raises :class:`indigo.IllegalMoveError` (an
    out-of-range one :class:`indigo.MoveError`) and changes nothing."""

    metadata: ClassVar[dict[str, Any]] = {**GameAEC.metadata, "name": "indigo_v0"}

    def __init__(
        self,
        players: int = 2,
        hand_size: int = 1,
        *,
        rules: Rules | None = None,
        utility: Utility = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            INDIGO,
            _common.make_rules(players, hand_size, rules),
            utility=utility,
            render_mode=render_mode,
        )
