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

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from indigo import ACTION_COUNT, Game, Rules, Utility
from indigo._extras import require
from indigo.envs import _common

require("pettingzoo", "pettingzoo")
from gymnasium import spaces  # noqa: E402  (after the check that names the extra)
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

__all__ = ["env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The environment wrapped as PettingZoo's classic games are: an illegal action ends the
    game with reward -1 for its agent, an action outside ``Discrete(810)`` fails an assertion,
    and calls out of order are refused. ``kwargs`` go to :class:`raw_env`."""
    wrapped: AECEnv[str, Observation, int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # noqa: N801
    """Indigo as an AEC game. An illegal action raises :class:`indigo.IllegalMoveError` (an
    out-of-range one :class:`indigo.MoveError`) and changes nothing."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": _common.RENDER_MODES,
        "name": "indigo_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int = 2,
        hand_size: int = 1,
        *,
        rules: Rules | None = None,
        utility: Utility = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = _common.make_rules(players, hand_size, rules)
        self.utility = _common.check_utility(utility)
        self.render_mode = _common.check_render_mode(render_mode)
        self.possible_agents = [f"player_{seat}" for seat in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        observation = _common.observation_space()
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": _common.mask_space()})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self.game = Game(self.rules, seed=_common.next_seed(self._seeds))

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
        self.game = Game(self.rules, seed=game_seed)
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
        mask = np.zeros(ACTION_COUNT, np.int8)
        if self.game.to_move == seat:
            mask = _common.action_mask(self.game)
        return {"observation": self.game.observation(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to move: give an action, not None")
        seat = self._seat(agent)
        self.game.play(_common.action_number(action))
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
        return _common.render(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release: rendering keeps no window."""
