""":class:`indigo.VectorGames` as a Gymnasium ``VectorEnv``: self-play in ``num_envs`` games, or
one learning seat against native bots stepped inside Rust.

>>> import numpy as np
>>> from indigo.envs.vector import IndigoVectorEnv
>>> envs = IndigoVectorEnv(4, seed=1)
>>> observations, infos = envs.reset()
>>> first_legal = infos["action_mask"].argmax(axis=1)
>>> observations, rewards, terminations, truncations, infos = envs.step(first_legal)
>>> observations.shape, rewards.shape, infos["rewards"].shape
((4, 2127), (4,), (4, 2))

In each game the seat to move acts, and the observation is the next mover's view (at a
terminal step, the view of the seat that moved). With ``opponents`` (one bot spec, or one per
other seat) the actions are always seat ``seat``'s, the bots move inside the step between its
turns, and every observation is its view. Specs are stepped inside Rust; bot objects and policy
callables on the slower Python path of :class:`indigo.PolicyVectorGames` (the same episodes).
``rewards`` is the acting seat's reward;
``infos["rewards"]`` has every seat's (``num_envs x players``), ``infos["action_mask"]`` the
legal actions (bool) and ``infos["to_play"]`` whose view each row is. On a step that ends
games, ``infos["seat_episode"]`` holds each seat's return ``"r"`` (``num_envs x players``) and
the episode's steps ``"l"``, valid where ``infos["_seat_episode"]`` is true. Rewards are 0
until the step that ends a game. Autoreset is ``AutoresetMode.NEXT_STEP``: the step after a
game ends ignores its action and returns the first observation of its next episode; a reset
with ``options={"reset_mask": mask}`` starts only the marked games' next episodes. Nothing
truncates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from indigo import ACTION_COUNT, Rules, Utility, VectorGames
from indigo._extras import require
from indigo.bots import BotLike
from indigo.envs import _common

require("gymnasium", "gymnasium")
from gymnasium import spaces  # noqa: E402  (after the check that names the extra)
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

__all__ = ["IndigoVectorEnv", "make_vector_env"]

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
        opponents: BotLike | Sequence[BotLike] | None = None,
        seat: int = 0,
        copy: bool = True,
    ) -> None:
        self.games = VectorGames(
            num_envs,
            _common.make_rules(players, hand_size, rules),
            seed=seed,
            utility=_common.check_utility(utility),
            copy=copy,
            opponents=opponents,
            seat=seat,
        )
        self.num_envs = num_envs
        self.single_observation_space = _common.observation_space()
        self.single_action_space = spaces.Discrete(ACTION_COUNT)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._to_play = np.zeros(num_envs, np.int8)
        self._masks = np.zeros((num_envs, ACTION_COUNT), np.bool_)
        self._lengths = np.zeros(num_envs, np.int64)
        self._ended = np.zeros(num_envs, np.bool_)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """Start every game's first episode (from ``seed``, else the last seed given), or with
        ``options={"reset_mask": mask}`` the next episode of each marked game."""
        mask = (options or {}).get("reset_mask")
        if mask is None:
            observations, self._masks, to_play = self.games.reset(seed=seed)
            restarted = np.ones(self.num_envs, np.bool_)
        else:
            restarted = np.asarray(mask, np.bool_)
            observations, self._masks, to_play = self.games.reset(seed=seed, mask=restarted)
        self._to_play = to_play.copy()
        self._lengths[restarted] = 0
        self._ended[restarted] = False
        return observations, {"action_mask": self._masks, "to_play": self._to_play.copy()}

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        observations, self._masks, rewards, terminations, to_play = self.games.step(actions)
        acted = rewards[np.arange(self.num_envs), self._to_play]
        self._to_play = to_play.copy()
        # A game that ended on the last step started its next episode in this one.
        self._lengths[self._ended] = 0
        self._lengths[~self._ended] += 1
        self._ended = terminations.copy()
        infos: dict[str, Any] = {
            "action_mask": self._masks,
            "to_play": to_play.copy(),
            "rewards": rewards,
        }
        if self._ended.any():
            infos["seat_episode"] = {"r": rewards.copy(), "l": self._lengths.copy()}
            infos["_seat_episode"] = self._ended.copy()
        truncations = np.zeros(self.num_envs, np.bool_)
        return observations, acted, terminations, truncations, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Each game's legal actions now (``num_envs x ACTION_COUNT``), as maskable PPO asks."""
        return np.array(self._masks, np.bool_)


def make_vector_env(
    num_envs: int,
    players: int = 2,
    hand_size: int = 1,
    *,
    rules: Rules | None = None,
    opponents: BotLike | Sequence[BotLike] = "greedy",
    seat: int = 0,
    utility: Utility = "win",
    copy: bool = True,
) -> IndigoVectorEnv:
    """``indigo/Indigo-v0``'s ``vector_entry_point``: ``num_envs`` games of the learner at
    ``seat`` against ``opponents``, with the single environment's defaults."""
    return IndigoVectorEnv(
        num_envs,
        players,
        hand_size,
        rules=rules,
        utility=utility,
        opponents=opponents,
        seat=seat,
        copy=copy,
    )
