"""OpenSpiel game ``python_indigo``, registered with pyspiel when this module is imported.

>>> import pyspiel
>>> import indigo.envs.openspiel
>>> game = pyspiel.load_game("python_indigo", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), [round(p, 3) for _, p in state.chance_outcomes()]
(True, [0.259, 0.111, 0.259, 0.259, 0.111])

Parameters: ``players`` (2), ``hand_size`` (1) and ``utility`` (``"win"``, ``"points"`` or
``"rank"``: what ``returns()`` gives at the end; zeros before). Every draw, the deal included,
is a chance node whose outcomes are the tile types 0..4 left in the pile (``indigo.Game`` with
``chance="explicit"``). Player actions are indigo's 810 actions. Information states and
observations come from the core: ``information_state_string`` (perfect recall),
``observation_string`` and ``observation_tensor`` (``indigo.OBSERVATION_LAYOUT``, also as the
observer's ``dict``); there is no information-state tensor. ``resample_from_infostate`` replays
the history with hidden draws resampled by ``indigo.Game.resample``.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from indigo import (
    ACTION_COUNT,
    GEM_POINTS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    ROUTE_CELLS,
    TILE_COUNTS,
    Game,
    Move,
    Rules,
)
from indigo._extras import require
from indigo.envs import _common

require("pyspiel", "openspiel")
import pyspiel  # noqa: E402  (after the check that names the extra)

__all__ = ["GAME_TYPE", "IndigoGame", "IndigoObserver", "IndigoState"]

_DEFAULTS: Final[dict[str, Any]] = {"players": 2, "hand_size": 1, "utility": "win"}

GAME_TYPE = pyspiel.GameType(
    short_name="python_indigo",
    long_name="Python Indigo",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    # Constant-sum under "win", not under "points": one registration covers both.
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

# Six ambers, five emeralds and one sapphire: the most points one seat can score.
_MAX_POINTS: Final[int] = (
    6 * GEM_POINTS["amber"] + 5 * GEM_POINTS["emerald"] + GEM_POINTS["sapphire"]
)


class IndigoGame(pyspiel.Game):  # type: ignore[misc]
    """Indigo for OpenSpiel; ``params`` as in the module docs."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_DEFAULTS, **(params or {})}
        self.rules = Rules(int(settings["players"]), int(settings["hand_size"]))
        self.utility = _common.check_utility(str(settings["utility"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=len(TILE_COUNTS),
            num_players=self.rules.players,
            min_utility=0.0,
            max_utility=float(_MAX_POINTS if self.utility == "points" else 1),
            max_game_length=len(ROUTE_CELLS),
        )
        super().__init__(GAME_TYPE, info, settings)

    def new_initial_state(self) -> IndigoState:
        return IndigoState(self)

    def max_chance_nodes_in_history(self) -> int:
        return sum(TILE_COUNTS)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> IndigoObserver:
        return IndigoObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class IndigoState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: ``indigo_game`` is the :class:`indigo.Game` (explicit chance)."""

    def __init__(self, game: IndigoGame) -> None:
        super().__init__(game)
        self.indigo_game = Game(game.rules, chance="explicit")
        self.utility = game.utility

    def current_player(self) -> int:
        game = self.indigo_game
        if game.to_move is not None:
            return game.to_move
        return int(pyspiel.PlayerId.CHANCE if game.is_chance_node() else pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        return self.indigo_game.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.indigo_game.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.indigo_game.is_chance_node():
            self.indigo_game.apply_chance(action)
        else:
            self.indigo_game.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action}"
        return str(Move.from_action(action))

    def is_terminal(self) -> bool:
        return self.indigo_game.over

    def returns(self) -> list[float]:
        if not self.indigo_game.over:
            return [0.0] * self.indigo_game.rules.players
        return self.indigo_game.returns(self.utility)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> IndigoState:
        """A state with ``player_id``'s information state and the same history, the hidden
        draws resampled (seeded from ``probability_sampler``, a uniform sampler)."""
        seed = int(probability_sampler() * 2**53)
        draws = iter(self.indigo_game.resample(player_id, seed=seed).pile)
        state: IndigoState = self.get_game().new_initial_state()
        for action in self.history():
            state.apply_action(next(draws) if state.is_chance_node() else action)
        return state

    def __str__(self) -> str:
        game = self.indigo_game
        return f"{game.public_information_string()} hands={game.hands}"


class IndigoObserver:
    """Observer in the PyObserver protocol: the core's observation tensor and strings."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_indigo observers take no parameters, not {params}")
        private = iig_obs_type.private_info
        self.perfect_recall: bool = iig_obs_type.perfect_recall
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"python_indigo has no observer for {iig_obs_type}")
        if not self.private and not self.perfect_recall:
            raise ValueError("python_indigo has no public observation without perfect recall")
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not self.perfect_recall:
            self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
            for name, (offset, shape) in OBSERVATION_LAYOUT.items():
                size = int(np.prod(shape))
                self.dict[name] = self.tensor[offset : offset + size].reshape(shape)

    def set_from(self, state: IndigoState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state.indigo_game.observation(player)

    def string_from(self, state: IndigoState, player: int) -> str:
        game = state.indigo_game
        if not self.private:
            return game.public_information_string()
        if self.perfect_recall:
            return game.information_state_string(player)
        return game.observation_string(player)


pyspiel.register_game(GAME_TYPE, IndigoGame)
from indigo.envs import openspiel_queens_garden as _queens_garden  # noqa: E402, F401  (registers python_queens_garden)
