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

``QueensGardenVectorEnv`` (``gymnasium.make_vec("indigo/QueensGarden-v0", ...)``) is the same
for Azul: Queen's Garden, whose actions are indices into each game's legal actions (as its
single environment's): ``infos["legal_actions"]`` holds their action numbers (``num_envs x
8192``, padded with -1) and ``infos["action_mask"]`` marks the indices in use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from indigo import IllegalMoveError, IndigoError, Rules, Utility, VectorGames
from indigo._extras import require
from indigo.bots import BotLike
from indigo.envs import _common
from indigo.games import INDIGO, QUEENS_GARDEN

require("gymnasium", "gymnasium")
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402  (after the check)
from gymnasium.vector.utils import batch_space  # noqa: E402

__all__ = [
    "GameVectorEnv",
    "IndigoVectorEnv",
    "QueensGardenVectorEnv",
    "make_garden_vector_env",
    "make_vector_env",
]

Array = npt.NDArray[Any]


class GameVectorEnv(VectorEnv[Array, Array, Array]):
    """``num_envs`` games of a game of the registry (``entry``) stepped by one call into Rust
    (see the module docs)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (Gymnasium's instance attribute)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        entry: _common.Entry,
        num_envs: int,
        rules: Any,
        *,
        utility: Utility = "win",
        seed: int | None = None,
        opponents: BotLike | Sequence[BotLike] | None = None,
        seat: int = 0,
        copy: bool = True,
    ) -> None:
        self.entry = entry
        self.games = VectorGames(
            num_envs,
            rules,
            seed=seed,
            utility=_common.check_utility(utility),
            copy=copy,
            opponents=opponents,
            seat=seat,
        )
        self.num_envs = num_envs
        self.single_observation_space = _common.observation_space(entry)
        self.single_action_space = _common.action_space(entry)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        width = _common.action_width(entry)
        self._to_play = np.zeros(num_envs, np.int8)
        self._masks = np.zeros((num_envs, width), np.bool_)
        self._legal = np.full((num_envs, width), -1, np.int32)
        self._lengths = np.zeros(num_envs, np.int64)
        self._ended = np.zeros(num_envs, np.bool_)

    def _keep_legal(self, legal: Array) -> None:
        """Keeps the legal actions a call returned: the masks, or the lists widened to the
        environments' width."""
        if self.entry.action_list is None:
            self._masks = legal
            return
        if legal.shape[1] > self.entry.action_list:
            raise IndigoError(
                f"a position has {legal.shape[1]} legal actions, more than the environments' "
                f"{self.entry.action_list}"
            )
        self._legal = np.full_like(self._legal, -1)
        self._legal[:, : legal.shape[1]] = legal
        self._masks = self._legal >= 0

    def _infos(self) -> dict[str, Any]:
        infos: dict[str, Any] = {"action_mask": self._masks, "to_play": self._to_play.copy()}
        if self.entry.action_list is not None:
            infos["legal_actions"] = self._legal
        return infos

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """Start every game's first episode (from ``seed``, else the last seed given), or with
        ``options={"reset_mask": mask}`` the next episode of each marked game."""
        mask = (options or {}).get("reset_mask")
        if mask is None:
            observations, legal, to_play = self.games.reset(seed=seed)
            restarted = np.ones(self.num_envs, np.bool_)
        else:
            restarted = np.asarray(mask, np.bool_)
            observations, legal, to_play = self.games.reset(seed=seed, mask=restarted)
        self._keep_legal(legal)
        self._to_play = to_play.copy()
        self._lengths[restarted] = 0
        self._ended[restarted] = False
        return observations, self._infos()

    def _numbers(self, actions: Array) -> Array:
        """The action numbers of ``actions``: themselves, or the legal actions at those
        indices (an ended game's action is ignored)."""
        if self.entry.action_list is None:
            return actions
        indices = np.asarray(actions)
        if indices.dtype.kind not in "iu" or indices.shape != (self.num_envs,):
            raise TypeError(f"actions must be {self.num_envs} integers, not {indices!r}")
        live = ~self._ended
        bad = live & ~((indices >= 0) & (indices < self._masks.sum(axis=1)))
        if bad.any():
            env = int(np.flatnonzero(bad)[0])
            raise IllegalMoveError(
                f"action {int(indices[env])} is no index of the legal actions of game {env}: "
                "no game was stepped"
            )
        rows = np.arange(self.num_envs)
        return np.where(live, self._legal[rows, np.where(live, indices, 0)], 0)

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        observations, legal, rewards, terminations, to_play = self.games.step(
            self._numbers(actions)
        )
        self._keep_legal(legal)
        acted = rewards[np.arange(self.num_envs), self._to_play]
        self._to_play = to_play.copy()
        # A game that ended on the last step started its next episode in this one.
        self._lengths[self._ended] = 0
        self._lengths[~self._ended] += 1
        self._ended = terminations.copy()
        infos = self._infos()
        infos["rewards"] = rewards
        if self._ended.any():
            infos["seat_episode"] = {"r": rewards.copy(), "l": self._lengths.copy()}
            infos["_seat_episode"] = self._ended.copy()
        truncations = np.zeros(self.num_envs, np.bool_)
        return observations, acted, terminations, truncations, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Each game's legal actions now (``num_envs x`` the action width), as maskable PPO
        asks."""
        return np.array(self._masks, np.bool_)


class IndigoVectorEnv(GameVectorEnv):
    """``num_envs`` games of Indigo stepped by one call into Rust (see the module docs)."""

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
        super().__init__(
            INDIGO,
            num_envs,
            _common.make_rules(players, hand_size, rules),
            utility=utility,
            seed=seed,
            opponents=opponents,
            seat=seat,
            copy=copy,
        )


class QueensGardenVectorEnv(GameVectorEnv):
    """``num_envs`` games of Azul: Queen's Garden stepped by one call into Rust."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        *,
        rules: Any = None,
        utility: Utility = "win",
        seed: int | None = None,
        opponents: str | Sequence[str] | None = None,
        seat: int = 0,
        copy: bool = True,
    ) -> None:
        super().__init__(
            QUEENS_GARDEN,
            num_envs,
            _common.game_rules(QUEENS_GARDEN, players, rules),
            utility=utility,
            seed=seed,
            opponents=opponents,
            seat=seat,
            copy=copy,
        )


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


def make_garden_vector_env(
    num_envs: int,
    players: int = 2,
    *,
    rules: Any = None,
    opponents: str | Sequence[str] = "greedy",
    seat: int = 0,
    utility: Utility = "win",
    copy: bool = True,
) -> QueensGardenVectorEnv:
    """``indigo/QueensGarden-v0``'s ``vector_entry_point``, as :func:`make_vector_env`."""
    return QueensGardenVectorEnv(
        num_envs,
        players,
        rules=rules,
        utility=utility,
        opponents=opponents,
        seat=seat,
        copy=copy,
    )
