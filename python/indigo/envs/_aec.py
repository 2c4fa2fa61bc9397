"""The PettingZoo AEC environment of any game of the registry (:class:`GameAEC`), following
the classic games' conventions; ``indigo_v0`` and ``queens_garden_v0`` are its games."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from indigo import Utility
from indigo._extras import require
from indigo.envs import _common

require("pettingzoo", "pettingzoo")
from gymnasium import spaces  # noqa: E402  (after the check that names the extra)
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

__all__ = ["GameAEC", "Observation", "wrap"]

Observation = dict[str, npt.NDArray[Any]]


def wrap(raw: AECEnv[str, Observation, int]) -> AECEnv[str, Observation, int]:
    """``raw`` wrapped as PettingZoo's classic games are: an illegal action ends the game with
    reward -1 for its agent, an action outside the action space fails an assertion, and calls
    out of order are refused."""
    wrapped: AECEnv[str, Observation, int] = wrappers.TerminateIllegalWrapper(
        raw, illegal_reward=-1
    )
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class GameAEC(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """A game of the registry (``entry``) as an AEC game. An illegal action raises
    :class:`indigo.IllegalMoveError` (an out-of-range one :class:`indigo.MoveError`) and
    changes nothing."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": _common.RENDER_MODES,
        "name": "game",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        entry: _common.Entry,
        rules: Any,
        *,
        utility: Utility = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.entry = entry
        self.rules = rules
        self.utility = _common.check_utility(utility)
        self.render_mode = _common.check_render_mode(render_mode)
        self.possible_agents = [f"player_{seat}" for seat in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        parts: dict[str, spaces.Space[Any]] = {
            "observation": _common.observation_space(entry),
            "action_mask": _common.mask_space(entry),
        }
        if entry.action_list is not None:
            parts["legal_actions"] = _common.legal_space(entry)
        self.observation_spaces = {agent: spaces.Dict(parts) for agent in self.possible_agents}
        self.action_spaces = {agent: _common.action_space(entry) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.game = entry.game(self.rules, seed=_common.next_seed(self._seeds))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = seed if seed is not None else _common.next_seed(self._seeds)
        self.game = self.entry.game(self.rules, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.game.to_move or 0]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        seat = self._seat(agent)
        to_move = self.game.to_move == seat
        width = _common.action_width(self.entry)
        mask = _common.action_mask(self.entry, self.game) if to_move else np.zeros(width, np.int8)
        observation: Observation = {
            "observation": self.game.observation(seat),
            "action_mask": mask,
        }
        if self.entry.action_list is not None:
            observation["legal_actions"] = (
                _common.legal_numbers(self.entry, self.game)
                if to_move
                else np.full(width, -1, np.int64)
            )
        return observation

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to move: give an action, not None")
        seat = self._seat(agent)
        self.game.play(_common.played_action(self.entry, self.game, action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.over:
            returns = self.game.returns(self.utility)
            self.rewards = {a: returns[self._seat(a)] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        # Once the game is over the agents step out in seat order from the next one.
        nxt = self.game.to_move
        self.agent_selection = self.possible_agents[
            nxt if nxt is not None else (seat + 1) % len(self.possible_agents)
        ]
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        return _common.render(self.entry, self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release: rendering keeps no window."""
