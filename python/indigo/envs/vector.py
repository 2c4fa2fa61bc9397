""":class:`indigo.VectorGames` as a Gymnasium ``VectorEnv``: self-play in ``num_envs`` games.

>>> import numpy as np
>>> from indigo.envs.vector import IndigoVectorEnv
>>> envs = IndigoVectorEnv(4, seed=1)
>>> observations, infos = envs.reset()
>>> first_legal = infos["action_mask"].argmax(axis=1)
>>> observations, rewards, terminations, truncations, infos = envs.step(first_legal)
>>> observations.shape, rewards.shape, infos["rewards"].shape
((4, 2127), (4,), (4, 2))

In each game the seat to move acts, and the observation is the next mover's view (at a
terminal step, the view of the seat that moved). ``rewards`` is the acting seat's reward;
``infos["rewards"]`` has every seat's (``num_envs x players``), ``infos["action_mask"]`` the
legal actions (bool) and ``infos["to_play"]`` whose view each row is. Rewards are 0 until the
step that ends a game. Autoreset is ``AutoresetMode.NEXT_STEP``: the step after a game ends
ignores its action and returns the first observation of its next episode. Nothing truncates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from indigo import ACTION_COUNT, Rules, Utility, VectorGames
from indigo._extras import require
from indigo.envs import _common

require("gymnasium", "gymnasium")
from gymnasium import spaces  # noqa: E402  (after the check that names the extra)
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

__all__ = ["IndigoVectorEnv"]

Array = npt.NDArray[Any]


class IndigoVectorEnv(VectorEnv[Array, Array, Array]):
    """``num_envs`` games of Indigo stepped by one call into Rust (see the module docs)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (Gymnasium's instance attribute)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        hand_size: int = 1,
        *,
        rules: Rules | None = None,
        utility: Utility = "win",
        seed: int | None = None,
    ) -> None:
        self.games = VectorGames(
            num_envs,
            _common.make_rules(players, hand_size, rules),
            seed=seed,
            utility=_common.check_utility(utility),
        )
        self.num_envs = num_envs
        self.single_observation_space = _common.observation_space()
        self.single_action_space = spaces.Discrete(ACTION_COUNT)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._to_play = np.zeros(num_envs, np.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """Start every game's first episode (from ``seed``, else the last seed given)."""
        observations, masks, self._to_play = self.games.reset(seed=seed)
        return observations, {"action_mask": masks, "to_play": self._to_play.copy()}

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        observations, masks, rewards, terminations, to_play = self.games.step(actions)
        acted = rewards[np.arange(self.num_envs), self._to_play]
        self._to_play = to_play
        infos = {"action_mask": masks, "to_play": to_play.copy(), "rewards": rewards}
        truncations = np.zeros(self.num_envs, np.bool_)
        return observations, acted, terminations, truncations, infos
