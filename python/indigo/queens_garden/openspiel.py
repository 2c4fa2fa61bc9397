"""OpenSpiel game ``python_queens_garden``, registered with pyspiel when this module (or
:mod:`indigo.envs.openspiel`) is imported.

>>> import pyspiel
>>> import indigo.queens_garden.openspiel
>>> game = pyspiel.load_game("python_queens_garden", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), round(state.chance_outcomes()[0][1], 4)
(True, 36, 0.0278)

Parameters: ``players`` (2) and ``utility`` (``"win"``: the winners share 1, or ``"points"``:
the final scores; zeros before the end). Chance is explicit: every tile drawn from the bag
(the set-up's four included) and every expansion turned face up that nobody had seen is a
chance node whose outcomes are kind ids 0..35 (``bl1`` .. ``dp6``): a draw's probabilities
are the bag's counts (after a refill, the bag's and the tower's), a reveal's are uniform over
the kinds nobody has seen. A move's chance nodes follow it, draws first (the engine's
``Game.chance_outcomes``). Player actions are the fixed encoding of
``indigo.queens_garden.ACTION_COUNT`` = 8,053,459 actions (``docs/queens-garden.md``,
"Actions"); ``legal_actions`` lists them, so no dense mask is ever built. Every chance outcome
is seen by every player, so the game is one of perfect information: the information state is
the history, the observation is the public position (``observation_string``) or its tensor
(``indigo.queens_garden.OBSERVATION_LAYOUT``, seats counted from the observer).
"""

from __future__ import annotations

from typing import Any, Final, Literal, cast

import numpy as np

from indigo._extras import require
from indigo._native import IllegalMoveError
from indigo.games import QUEENS_GARDEN
from indigo.queens_garden import (
    ACTION_COUNT,
    KINDS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    Game,
    Move,
    Rules,
)

require("pyspiel", "openspiel")
import pyspiel  # noqa: E402  (after the check that names the extra)

__all__ = ["GAME_TYPE", "QueensGardenGame", "QueensGardenObserver", "QueensGardenState"]

_DEFAULTS: Final[dict[str, Any]] = {"players": 2, "utility": "win"}
_UTILITIES: Final = ("win", "points")
_STACK: Final[dict[int, int]] = {2: 5, 3: 7, 4: 8}
# No score reaches this: at most 54 hexagons of value 6 scoring twice in 4 rounds, twice in
# groups, 18 six-groups, the start and the jokers.
_POINTS_BOUND: Final = 4000
# The hidden order the chance nodes rearrange: any seed gives the same game.
_SEED: Final = 0
_SETUP_DRAWS: Final = 4

GAME_TYPE = pyspiel.GameType(
    short_name=QUEENS_GARDEN.openspiel_name,
    long_name="Python Azul: Queen's Garden",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
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


class QueensGardenGame(pyspiel.Game):  # type: ignore[misc]
    """Queen's Garden for OpenSpiel; ``params`` as in the module docs."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_DEFAULTS, **(params or {})}
        self.rules = Rules(int(settings["players"]))
        utility = str(settings["utility"])
        if utility not in _UTILITIES:
            raise ValueError(f"utility must be 'win' or 'points', not {utility!r}")
        self.utility = cast('Literal["points", "win"]', utility)
        players = self.rules.players
        stack = _STACK[players]
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=len(KINDS),
            num_players=players,
            min_utility=0.0,
            max_utility=float(_POINTS_BOUND if utility == "points" else 1),
            # Section 14's bound on moves.
            max_game_length=4 * (5 * stack + players) + 54 * players,
        )
        super().__init__(GAME_TYPE, info, settings)
        # At most 4 tiles for each of the 4 stacks' tops, and each expansion revealed once.
        self.max_chance = 16 * stack + len(KINDS)

    def new_initial_state(self) -> QueensGardenState:
        return QueensGardenState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.max_chance

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> QueensGardenObserver:
        return QueensGardenObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Played:
    """The game and how it got there: every player action with its chance outcomes (the
    set-up's draws first, as action -1). Pickled (as OpenSpiel serializes a state) as that
    trail and replayed: the trail is the state's OpenSpiel history, chance outcomes included,
    which the native game's own pickle (its position and moves) does not keep."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.game: Game | None = None
        self.trail: list[tuple[int, list[int]]] = []

    def advance(self, action: int, outcomes: list[int]) -> None:
        """Plays ``action`` (-1: the set-up) with its chance ``outcomes``."""
        if self.game is None:
            self.game = Game.with_first_draws(self.rules, outcomes, seed=_SEED)
        elif outcomes:
            self.game = self.game.successor(action, outcomes)
        else:
            self.game.apply_action(action)
        self.trail.append((action, outcomes))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Played:
        copy = _Played(self.rules)
        copy.game = None if self.game is None else self.game.clone()
        copy.trail = list(self.trail)
        return copy

    def __getstate__(self) -> tuple[Rules, list[tuple[int, list[int]]]]:
        return self.rules, self.trail

    def __setstate__(self, state: tuple[Rules, list[tuple[int, list[int]]]]) -> None:
        self.rules, trail = state
        self.game, self.trail = None, []
        for action, outcomes in trail:
            self.advance(action, outcomes)


class QueensGardenState(pyspiel.State):  # type: ignore[misc]
    """A game in progress. ``queens_garden`` is the :class:`indigo.queens_garden.Game`; at a
    chance node ``pending`` is the player action whose
    chance steps are being chosen (``None`` at set-up) and ``chosen`` their outcomes so far."""

    def __init__(self, game: QueensGardenGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.utility = game.utility
        self.pending: int | None = None
        self.steps = _SETUP_DRAWS
        self.draws = _SETUP_DRAWS
        self.chosen: list[int] = []
        self.played = _Played(game.rules)

    @property
    def queens_garden(self) -> Game | None:
        """The game as played so far; ``None`` until the set-up's draws are made."""
        return self.played.game

    @property
    def native_game(self) -> Game | None:
        """:attr:`queens_garden`, under the name every game's state gives its game
        (:class:`indigo.envs.openspiel.IndigoBot` reads it)."""
        return self.played.game

    def _chance(self) -> bool:
        return self.queens_garden is None or self.pending is not None

    def current_player(self) -> int:
        if self._chance():
            return int(pyspiel.PlayerId.CHANCE)
        assert self.queens_garden is not None
        seat = self.queens_garden.to_move
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.queens_garden is not None
        return self.queens_garden.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.queens_garden is None:
            return Game.first_draw_outcomes(self.chosen)
        if self.pending is None:
            return []
        return self.queens_garden.chance_outcomes(self.pending, self.chosen)

    def _apply_action(self, action: int) -> None:
        if self._chance():
            if action not in dict(self.chance_outcomes()):
                raise IllegalMoveError(
                    f"chance outcome {action} is not possible here: the outcomes are kind ids "
                    "with their probabilities in chance_outcomes()"
                )
            self.chosen.append(action)
            if len(self.chosen) < self.steps:
                return
            self.played.advance(-1 if self.pending is None else self.pending, self.chosen)
            self.pending, self.chosen = None, []
            return
        assert self.queens_garden is not None
        self.draws, reveals = self.queens_garden.chance_steps(action)
        self.steps = self.draws + reveals
        if self.steps:
            self.pending = action
        else:
            self.played.advance(action, [])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'draw' if len(self.chosen) < self.draws else 'reveal'} {KINDS[action]}"
        return str(Move.from_action(action))

    def is_terminal(self) -> bool:
        return not self._chance() and self.queens_garden is not None and self.queens_garden.over

    def returns(self) -> list[float]:
        game = self.queens_garden
        if game is None or not self.is_terminal():
            return [0.0] * self.rules.players
        return game.returns(self.utility)

    def __str__(self) -> str:
        if self.queens_garden is None:
            return f"set-up, drawn {[KINDS[k] for k in self.chosen]}"
        text = self.queens_garden.snapshot_json()
        if self.pending is not None:
            move = Move.from_action(self.pending)
            text += f" pending={move} chosen={[KINDS[k] for k in self.chosen]}"
        return text


class QueensGardenObserver:
    """Observer in the PyObserver protocol: the history (perfect recall), else the public
    position as text or as the engine's observation tensor."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_queens_garden observers take no parameters, not {params}")
        if not iig_obs_type.public_info:
            raise ValueError(f"python_queens_garden has no observer for {iig_obs_type}")
        self.perfect_recall: bool = iig_obs_type.perfect_recall
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not self.perfect_recall:
            self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
            for name, (offset, shape) in OBSERVATION_LAYOUT.items():
                size = int(np.prod(shape))
                self.dict[name] = self.tensor[offset : offset + size].reshape(shape)

    def set_from(self, state: QueensGardenState, player: int) -> None:
        if self.tensor is None:
            return
        game = state.queens_garden
        if game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = game.observation(player)

    def string_from(self, state: QueensGardenState, player: int) -> str:
        if self.perfect_recall:
            return f"seat={player} history={state.history_str()}"
        return str(state)


pyspiel.register_game(GAME_TYPE, QueensGardenGame)
