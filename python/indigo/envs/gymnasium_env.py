"""Gymnasium environment: one learning seat against native bots.

>>> import gymnasium
>>> import indigo.envs
>>> env = gymnasium.make("indigo/Indigo-v0", opponents="greedy")
>>> observation, info = env.reset(seed=3)
>>> observation.shape, bool(info["action_mask"].any())
((2127,), True)

The observation is the learning seat's float32 tensor (``indigo.OBSERVATION_LAYOUT``); the
action is one of the 810 actions and ``info["action_mask"]`` (int8) marks the legal ones. The
other seats are played between the learner's turns by ``opponents``: one for all, or one per
other seat, each a spec, a bot object or a policy callable (``indigo.bots.BotLike``; a spec's
bot is remade and reseeded every episode, an object keeps its own state). Each opponent chooses
on ``game.resample(seat)``, a game consistent with what its seat knows (as
:func:`indigo.play_game` hands it), so no opponent can read the pile or the learner's hand. The
reward is 0 until the game ends, then the learner's return under ``utility``. An illegal action
ends the episode with reward ``illegal_reward`` and ``info["illegal_action"]`` true, the game
unchanged; with ``illegal_reward=None`` it raises :class:`indigo.IllegalMoveError` instead.

Seeds: ``reset(seed=s)`` plays ``Game(rules, seed=s)`` and seeds the bots (and a random seat)
from ``s``; a reset without a seed draws all of them from the environment's generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from indigo import Bot, IllegalMoveError, IndigoError, Rules, Utility
from indigo._extras import require
from indigo.bots import BotLike, play_opponents
from indigo.envs import _common
from indigo.games import INDIGO, QUEENS_GARDEN

require("gymnasium", "gymnasium")
import gymnasium  # noqa: E402  (after the check that names the extra)

__all__ = ["GameEnv", "IndigoEnv", "QueensGardenEnv"]


class GameEnv(gymnasium.Env[npt.NDArray[Any], Any]):
    """A game of the registry (``entry``) for one learning seat (``seat``; ``None``: a random
    seat each episode) against ``opponents``."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (Gymnasium's instance attribute)
        "render_modes": _common.RENDER_MODES,
        "render_fps": 1,
    }

    def __init__(
        self,
        entry: _common.Entry,
        rules: Any,
        *,
        opponents: BotLike | Sequence[BotLike] = "greedy",
        seat: int | None = 0,
        utility: Utility = "win",
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.entry = entry
        self.rules = rules
        specs = _common.opponents(entry, opponents, self.rules.players - 1)
        if seat is not None and seat not in range(self.rules.players):
            raise IndigoError(f"seat must be None or 0..{self.rules.players - 1}, not {seat}")
        self.opponents = specs
        self.fixed_seat = seat
        self.utility = _common.check_utility(utility)
        self.illegal_reward = illegal_reward
        self.render_mode = _common.check_render_mode(render_mode)
        self.observation_space = _common.observation_space(entry)
        self.action_space = _common.action_space(entry)
        self.seat = 0 if seat is None else seat
        self.game = entry.game(self.rules, seed=0)
        self._bots: dict[int, Bot] = {}
        self._views = random.Random(0)
        self._ended = True

    def _seed(self) -> int:
        return int(self.np_random.integers(2**63))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed if seed is not None else self._seed()
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.rules.players))
        others = [s for s in range(self.rules.players) if s != self.seat]
        self._bots = {
            s: _common.opponent_bot(self.entry, spec, self._seed())
            for s, spec in zip(others, self.opponents, strict=True)
        }
        self.game = self.entry.game(self.rules, seed=game_seed)
        self._views = random.Random(game_seed)
        self._ended = False
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self.game.observation(self.seat), self._info()

    def _play_opponents(self) -> None:
        play_opponents(self.game, self.seat, self._bots, self._views)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        if self.entry.action_list is not None:
            info["legal_actions"] = self._legal()
        return info

    def _mask(self) -> npt.NDArray[np.int8]:
        if self.game.over:
            return np.zeros(_common.action_width(self.entry), np.int8)
        return _common.action_mask(self.entry, self.game)

    def _legal(self) -> npt.NDArray[np.int64]:
        if self.game.over:
            return np.full(_common.action_width(self.entry), -1, np.int64)
        return _common.legal_numbers(self.entry, self.game)

    def step(
        self, action: int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self._ended:
            raise IndigoError("the episode has ended: call reset()")
        action = _common.action_number(action)
        if not _common.is_legal(self.entry, self.game, action):
            if self.illegal_reward is None:
                raise IllegalMoveError(f"action {action} is not legal for seat {self.seat}")
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return self.game.observation(self.seat), float(self.illegal_reward), True, False, info
        self.game.play(_common.played_action(self.entry, self.game, action))
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        self._ended = self.game.over
        reward = self.game.returns(self.utility)[self.seat] if self._ended else 0.0
        return self.game.observation(self.seat), reward, self._ended, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, as maskable PPO (sb3-contrib) asks: all false once
        the episode has ended."""
        if self._ended:
            return np.zeros(_common.action_width(self.entry), np.bool_)
        return self._mask().astype(np.bool_)

    def render(self) -> Any:
        return _common.render(self.entry, self.game, self.render_mode)


class IndigoEnv(GameEnv):
    """Indigo for one learning seat (see the module docs)."""

    def __init__(
        self,
        players: int = 2,
        hand_size: int = 1,
        *,
        rules: Rules | None = None,
        opponents: BotLike | Sequence[BotLike] = "greedy",
        seat: int | None = 0,
        utility: Utility = "win",
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            INDIGO,
            _common.make_rules(players, hand_size, rules),
            opponents=opponents,
            seat=seat,
            utility=utility,
            illegal_reward=illegal_reward,
            render_mode=render_mode,
        )


class QueensGardenEnv(GameEnv):
    """Azul: Queen's Garden for one learning seat: an action is an index into the learner's
    legal actions, ``info["legal_actions"]`` their action numbers (docs/envs.md)."""

    def __init__(
        self,
        players: int = 2,
        *,
        rules: Any = None,
        opponents: str | Sequence[str] = "greedy",
        seat: int | None = 0,
        utility: Utility = "win",
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            QUEENS_GARDEN,
            _common.game_rules(QUEENS_GARDEN, players, rules),
            opponents=opponents,
            seat=seat,
            utility=utility,
            illegal_reward=illegal_reward,
            render_mode=render_mode,
        )
