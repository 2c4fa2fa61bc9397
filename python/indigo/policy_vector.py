""":class:`indigo.VectorGames`, which also takes Python bots as opponents.

``VectorGames(..., opponents=...)`` steps spec bots inside Rust. When an opponent is a bot
object or a policy callable (:data:`indigo.bots.BotLike`), it makes a
:class:`PolicyVectorGames` instead: the same interface and the same episodes (game ``env``'s
episode ``k`` has the native vector's seed, a spec's bot the native seed
``seat_seed(game_seed, seat)``), with each game a :class:`indigo.Game` stepped here and the
opponents' moves played in Python, each on ``game.resample(seat)`` as the Gymnasium
environment plays them. It is slower (docs/envs.md). Its native part, games without
opponents, checks the arguments and keeps the seeds and episode numbers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal, Self, cast

import numpy as np
import numpy.typing as npt

from indigo import _native
from indigo._native import (
    ACTION_COUNT,
    OBSERVATION_SIZE,
    Game,
    IllegalMoveError,
    IndigoError,
    Rules,
    seat_seed,
)
from indigo.bots import Bot, BotLike, as_bot, opponent_entries, play_opponents
from indigo.games import GAMES, find_game
from indigo.types import Utility

__all__ = ["PolicyVectorGames", "VectorGames"]

Array = npt.NDArray[Any]


class VectorGames(_native.VectorGames):
    """``num_envs`` games stepped together (:class:`indigo._native.VectorGames`, docs/envs.md).
    ``opponents`` is one entry or one per other seat, each a bot spec, a bot object or a
    policy callable (:data:`indigo.bots.BotLike`): with only specs the bots move inside Rust;
    otherwise the games are a :class:`PolicyVectorGames`, the slower Python path. Without
    ``rules``, the games are the registry's default game's (:data:`indigo.games.GAMES` first)
    with two players."""

    def __new__(
        cls,
        num_envs: int,
        rules: Any = None,
        *,
        seed: int | None = None,
        utility: Utility = "win",
        observation_dtype: Literal["float32", "uint8"] = "float32",
        copy: bool = True,
        opponents: BotLike | Sequence[BotLike] | None = None,
        seat: int = 0,
    ) -> Self:
        if rules is None:
            rules = GAMES[0].default_rules(2)
        entries = opponents if isinstance(opponents, Sequence) else [opponents]
        only_specs = isinstance(opponents, str) or all(
            entry is None or isinstance(entry, str) for entry in entries
        )
        if only_specs and not issubclass(cls, PolicyVectorGames):
            return super().__new__(
                cls,
                num_envs,
                rules,
                seed=seed,
                utility=utility,
                observation_dtype=observation_dtype,
                copy=copy,
                opponents=opponents,  # type: ignore[arg-type]
                seat=seat,
            )
        entry = find_game(rules)
        if not entry.python_bots:
            raise TypeError(f"{entry.title}'s opponents are bot specs, not {opponents!r}")
        # The Python path: native games without opponents check the arguments and keep the
        # episodes' seeds.
        python_path = cast("type[Self]", PolicyVectorGames if cls is VectorGames else cls)
        return super().__new__(
            python_path,
            num_envs,
            rules,
            seed=seed,
            utility=utility,
            observation_dtype=observation_dtype,
            seat=seat,
        )


class PolicyVectorGames(VectorGames):
    """``num_envs`` games of ``seat`` against Python ``opponents`` (see the module docs)."""

    def __init__(
        self,
        num_envs: int,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        utility: Utility = "win",
        observation_dtype: Literal["float32", "uint8"] = "float32",
        copy: bool = True,
        opponents: BotLike | Sequence[BotLike] | None = None,
        seat: int = 0,
    ) -> None:
        if opponents is None:
            raise IndigoError("PolicyVectorGames needs opponents")
        self._copy = copy
        self._seat = seat
        others = [s for s in range(self.rules.players) if s != seat]
        self._opponents = dict(zip(others, opponent_entries(opponents, len(others)), strict=True))
        self._games: list[Game] = [Game(self.rules, seed=0)] * num_envs
        self._bots_of: list[dict[int, Bot]] = [{}] * num_envs
        self._views_of = [random.Random(0)] * num_envs
        self._ended = np.zeros(num_envs, np.bool_)
        self._kept: tuple[Array, ...] | None = None
        self._start(np.ones(num_envs, np.bool_))

    @property
    def seat(self) -> int:
        """The learner's seat."""
        return self._seat

    @property
    def copy(self) -> bool:
        """Whether each call returns fresh arrays (see :attr:`indigo.VectorGames.copy`)."""
        return self._copy

    def __repr__(self) -> str:
        return (
            f"<PolicyVectorGames num_envs={self.num_envs} players={self.rules.players} "
            f"utility={self.utility}>"
        )

    def game(self, env: int) -> Game:
        """Game ``env`` as a :class:`Game`: its seed and this episode's moves, the bots'."""
        super().game(env)  # the native vector's error for a game out of range
        return self._games[env].clone()

    def record(self, env: int) -> dict[str, Any]:
        """Game ``env``'s record, as :meth:`Game.to_record` gives it."""
        return self.game(env).to_record()

    def _start(self, marked: npt.NDArray[np.bool_]) -> None:
        """Starts the current episode of each marked game: its bots, and their moves until the
        learner is to move."""
        seeds = self.game_seeds
        for env in np.flatnonzero(marked).tolist():
            game_seed = seeds[env]
            game = Game(self.rules, seed=game_seed)
            bots: dict[int, Bot] = {
                s: as_bot(entry, seed=seat_seed(game_seed, s))
                for s, entry in self._opponents.items()
            }
            views = random.Random(game_seed)
            play_opponents(game, self.seat, bots, views)
            self._games[env] = game
            self._bots_of[env] = bots
            self._views_of[env] = views
        self._ended[marked] = False

    def reset(
        self, *, seed: int | None = None, mask: Sequence[bool] | npt.NDArray[np.bool_] | None = None
    ) -> tuple[Array, npt.NDArray[np.bool_], npt.NDArray[np.int8]]:
        """Starts every game's first episode from ``seed`` (default: the last seed given), or
        with ``mask`` only the marked games' next episodes; returns ``(observations, masks,
        to_play)``."""
        super().reset(seed=seed, mask=mask)
        marked = np.ones(self.num_envs, np.bool_) if mask is None else np.asarray(mask, np.bool_)
        self._start(marked)
        observations, masks, _, _, to_play = self._views(np.zeros(self.num_envs, np.bool_))
        return observations, masks, to_play

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Array, npt.NDArray[np.bool_], npt.NDArray[np.float32], npt.NDArray[np.bool_], Array]:
        """Plays ``actions[env]`` for the learner in each game, then the opponents until the
        learner is to move (a game that ended on the last step starts its next episode)."""
        array = np.asarray(actions)
        if array.dtype.kind not in "iu" or array.ndim != 1:
            raise TypeError(f"actions must be a 1-d sequence of integers, not {array.dtype}")
        if len(array) != self.num_envs:
            raise IndigoError(f"actions must hold {self.num_envs} values, not {len(array)}")
        for env, action in enumerate(array.tolist()):
            game = self._games[env]
            if not self._ended[env] and not (
                0 <= action < ACTION_COUNT and game.legal_action_mask()[action]
            ):
                raise IllegalMoveError(
                    f"action {action} is not legal for seat {self.seat} in game {env}"
                )
        restarted = self._ended.copy()
        if restarted.any():
            super().reset(mask=restarted)
            self._start(restarted)
        for env in np.flatnonzero(~restarted).tolist():
            game = self._games[env]
            game.play(int(array[env]))
            play_opponents(game, self.seat, self._bots_of[env], self._views_of[env])
        self._ended = np.array([game.over for game in self._games]) & ~restarted
        return self._views(self._ended)

    def _views(
        self, ended: npt.NDArray[np.bool_]
    ) -> tuple[Array, npt.NDArray[np.bool_], npt.NDArray[np.float32], npt.NDArray[np.bool_], Array]:
        """Every game's view for the learner, and rewards where ``ended``."""
        players = self.rules.players
        if self._kept is None or self._copy:
            dtype = np.uint8 if self.observation_dtype == "uint8" else np.float32
            arrays: tuple[Array, ...] = (
                np.zeros((self.num_envs, OBSERVATION_SIZE), dtype),
                np.zeros((self.num_envs, ACTION_COUNT), np.bool_),
                np.zeros((self.num_envs, players), np.float32),
                np.zeros(self.num_envs, np.bool_),
                np.full(self.num_envs, self.seat, np.int8),
            )
            if not self._copy:
                self._kept = arrays
        else:
            arrays = self._kept
        observations, masks, rewards, terminations, _ = arrays
        for env, game in enumerate(self._games):
            observations[env] = game.observation(self.seat)
            masks[env] = game.legal_action_mask()
            rewards[env] = game.returns(self.utility) if ended[env] else 0.0
        terminations[:] = ended
        if self._copy:
            return arrays  # type: ignore[return-value]
        views = []
        for array in arrays:
            view = array.view()
            view.setflags(write=False)
            views.append(view)
        return tuple(views)  # type: ignore[return-value]
