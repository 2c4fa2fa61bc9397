"""OpenSpiel game ``python_indigo``, registered with pyspiel when this module is imported,
with every other game of :data:`indigo.games.GAMES` (``python_queens_garden``,
:mod:`indigo.queens_garden.openspiel`).

>>> import pyspiel
>>> import indigo.envs.openspiel
>>> game = pyspiel.load_game("python_indigo", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), [round(p, 3) for _, p in state.chance_outcomes()]
(True, [0.259, 0.111, 0.259, 0.259, 0.111])

Parameters: every rules option, ``players`` (2), ``hand_size`` (1), ``three_player_gates``
(``"shared"``), ``tie_break`` (``"most-gems"``), ``open_hands`` (false) and ``theme``
(``"indigo"``), as :class:`indigo.Rules` takes them, and ``utility`` (``"win"``,
``"points"``, ``"rank"`` or ``"zero-sum"``: what ``returns()`` gives at the end; zeros
before). Every draw, the deal included, is a chance node whose outcomes are the tile types
0..4 left in the pile (``indigo.Game`` with ``chance="explicit"``). Player actions are indigo's
810 actions.

Observers (``make_py_observer``), by ``pyspiel.IIGObservationType``:

* private info of one player, public info, no perfect recall (the default): the core's
  observation, ``observation_string`` and ``observation_tensor`` (the segments of
  ``indigo.OBSERVATION_LAYOUT`` in ``dict``);
* the same with perfect recall: ``information_state_string`` and an information-state tensor,
  the observation followed by ``placed_at`` (per cell of ``indigo.CELLS``, the number of the
  move that placed its tile, 1 for the first; 0 if empty) and ``draws`` (per seat, counted
  from the player as the observation counts them, one-hot, the tiles it drew: the dealt hand
  by type, then each draw in order, as ``information_state_string`` lists them; the other
  seats' only when the rules open the hands), which with the observation fix the player's
  history;
* public info only: the public part of either string (no tensor);
* one player's private info only: the private part (no tensor).

``resample_from_infostate`` replays the history with hidden draws resampled by
``indigo.Game.resample``. ``undo_action(player, action)`` takes back the last action (see
:meth:`IndigoState.undo_action` for what OpenSpiel lets a Python game undo).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from indigo import (
    ACTION_COUNT,
    CELLS,
    GEM_POINTS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    ROUTE_CELLS,
    TILE_COUNTS,
    Game,
    IllegalMoveError,
    Move,
    Rules,
)
from indigo._extras import require
from indigo._native import normalize_bot_spec
from indigo.bots import BotLike, as_bot
from indigo.envs import _common
from indigo.games import GAMES, INDIGO, find_game

require("pyspiel", "openspiel")
import pyspiel  # noqa: E402  (after the check that names the extra)

__all__ = [
    "GAME_TYPE",
    "INFORMATION_STATE_LAYOUT",
    "INFORMATION_STATE_SIZE",
    "IndigoBot",
    "IndigoGame",
    "IndigoObserver",
    "IndigoState",
    "PlayerAction",
    "game_type",
]

_DEFAULTS: Final[dict[str, Any]] = {
    "players": 2,
    "hand_size": 1,
    "three_player_gates": "shared",
    "tie_break": "most-gems",
    "open_hands": False,
    "theme": "indigo",
    "utility": "win",
}

_UTILITY_KINDS: Final[dict[str, Any]] = {
    "win": pyspiel.GameType.Utility.CONSTANT_SUM,
    "rank": pyspiel.GameType.Utility.CONSTANT_SUM,
    "zero-sum": pyspiel.GameType.Utility.ZERO_SUM,
    "points": pyspiel.GameType.Utility.GENERAL_SUM,
}


def game_type(utility: str = "win") -> Any:
    """The game type under ``utility``: what ``get_type()`` gives (the registered one is the
    default's, ``"win"``)."""
    return pyspiel.GameType(
        short_name=INDIGO.openspiel_name,
        long_name="Python Indigo",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY_KINDS[utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=True,
        parameter_specification=_DEFAULTS,
    )


GAME_TYPE = game_type()

# Six ambers, five emeralds and one sapphire: the most points one seat can score.
_MAX_POINTS: Final[int] = (
    6 * GEM_POINTS["amber"] + 5 * GEM_POINTS["emerald"] + GEM_POINTS["sapphire"]
)
_TILES: Final[int] = sum(TILE_COUNTS)
_CELL_INDEX: Final[dict[tuple[int, int], int]] = {cell: i for i, cell in enumerate(CELLS)}
_SEATS: Final[int] = OBSERVATION_LAYOUT["to_move"][1][0]  # the most seats, as the observation has
INFORMATION_STATE_LAYOUT: Final[dict[str, tuple[int, list[int]]]] = {
    "observation": (0, [OBSERVATION_SIZE]),
    "placed_at": (OBSERVATION_SIZE, [len(CELLS)]),
    "draws": (OBSERVATION_SIZE + len(CELLS), [_SEATS, _TILES, len(TILE_COUNTS)]),
}
"""The information-state tensor's segments, ``name -> (offset, shape)``."""
INFORMATION_STATE_SIZE: Final[int] = (
    OBSERVATION_SIZE + len(CELLS) + _SEATS * _TILES * len(TILE_COUNTS)
)


def _utility_range(utility: str, players: int) -> tuple[float, float, float | None]:
    """``(min, max, sum)`` of the returns under ``utility`` (``None``: no constant sum)."""
    if utility == "points":
        return 0.0, float(_MAX_POINTS), None
    if utility == "zero-sum":
        return -1.0 / (players - 1), 1.0, 0.0
    # Rank: every pair of seats shares 1, so the returns sum to half the seats.
    return 0.0, 1.0, 1.0 if utility == "win" else players / 2


@dataclass(frozen=True)
class PlayerAction:
    """An entry of :meth:`IndigoState.full_history`, read as ``pyspiel.PlayerAction`` is (which
    Python cannot make)."""

    player: int
    action: int


class IndigoGame(pyspiel.Game):  # type: ignore[misc]
    """Indigo for OpenSpiel; ``params`` as in the module docs."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_DEFAULTS, **(params or {})}
        self.rules = Rules(
            int(settings["players"]),
            int(settings["hand_size"]),
            three_player_gates=str(settings["three_player_gates"]),  # type: ignore[arg-type]
            tie_break=str(settings["tie_break"]),  # type: ignore[arg-type]
            open_hands=bool(settings["open_hands"]),
            theme=str(settings["theme"]),  # type: ignore[arg-type]
        )
        self.utility = _common.check_utility(str(settings["utility"]))
        low, high, total = _utility_range(self.utility, self.rules.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=len(TILE_COUNTS),
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=len(ROUTE_CELLS),
        )
        super().__init__(game_type(self.utility), info, settings)

    def new_initial_state(self) -> IndigoState:
        return IndigoState(self)

    def max_chance_nodes_in_history(self) -> int:
        return _TILES

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> IndigoObserver:
        return IndigoObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class IndigoState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: ``indigo_game`` is the :class:`indigo.Game` (explicit chance);
    ``draws[p]`` the tile types seat ``p`` drew, in order; ``actions`` every ``(player,
    action)`` so far, which ``history()`` and its kin read (so that :meth:`undo_action` can
    shorten them)."""

    def __init__(self, game: IndigoGame) -> None:
        super().__init__(game)
        self.indigo_game = Game(game.rules, chance="explicit")
        self.utility = game.utility
        self.draws: list[list[int]] = [[] for _ in range(game.rules.players)]
        self.actions: list[tuple[int, int]] = []

    def history(self) -> list[int]:
        return [action for _, action in self.actions]

    def full_history(self) -> list[PlayerAction]:
        return [PlayerAction(player, action) for player, action in self.actions]

    def history_str(self) -> str:
        return ", ".join(str(action) for _, action in self.actions)

    def move_number(self) -> int:
        return len(self.actions)

    def is_initial_state(self) -> bool:
        return not self.actions

    @property
    def native_game(self) -> Game:
        """:attr:`indigo_game`, under the name every game's state gives its game
        (:class:`IndigoBot` reads it)."""
        return self.indigo_game

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
        game = self.indigo_game
        if game.is_chance_node():
            seat = game.chance_seat
            game.apply_action(action)
            if seat is not None:
                self.draws[seat].append(action)
            self.actions.append((int(pyspiel.PlayerId.CHANCE), action))
        else:
            mover = self.current_player()
            game.play(action)
            self.actions.append((mover, action))

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, ``action`` by ``player`` (``PlayerId.CHANCE`` for a
        draw); anything else raises :class:`indigo.IllegalMoveError` and changes nothing.

        OpenSpiel (2.0) keeps a Python game's history in C++, gives Python no way to shorten
        it and does not route C++ ``UndoAction`` to Python. So this state keeps its own
        ``actions``, which ``history()``, ``full_history()``, ``history_str()``,
        ``move_number()`` and ``is_initial_state()`` read, and an undo replays them but the
        last into a fresh state and takes over its attributes: everything read from Python is
        then the state before ``action``. OpenSpiel's C++ code (its own ``History()``) still
        counts the undone action.
        """
        last = self.actions[-1] if self.actions else None
        if last != (player, action):
            raise IllegalMoveError(
                f"undo_action({player}, {action}): the last action is {last}, not that one"
            )
        earlier: IndigoState = self.get_game().new_initial_state()
        for _, earlier_action in self.actions[:-1]:
            earlier.apply_action(earlier_action)
        self.__dict__.update(earlier.__dict__)

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
    """Observer in the PyObserver protocol (the observers of the module docs)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_indigo observers take no parameters, not {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"python_indigo has no observer for {iig_obs_type}")
        self.perfect_recall: bool = iig_obs_type.perfect_recall
        self.public: bool = iig_obs_type.public_info
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not self.public and not self.private:
            raise ValueError("python_indigo has no observer that sees nothing")
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if self.public and self.private:
            layout = INFORMATION_STATE_LAYOUT if self.perfect_recall else OBSERVATION_LAYOUT
            size = INFORMATION_STATE_SIZE if self.perfect_recall else OBSERVATION_SIZE
            self.tensor = np.zeros(size, np.float32)
            for name, (offset, shape) in layout.items():
                length = int(np.prod(shape))
                self.dict[name] = self.tensor[offset : offset + length].reshape(shape)

    def set_from(self, state: IndigoState, player: int) -> None:
        if self.tensor is None:
            return
        game = state.indigo_game
        observation = game.observation(player)
        if not self.perfect_recall:
            self.tensor[:] = observation
            return
        self.tensor.fill(0.0)
        self.dict["observation"][:] = observation
        for number, move in enumerate(game.moves, 1):
            self.dict["placed_at"][_CELL_INDEX[move.cell]] = number
        # Seat k after the player, as in the observation; the others' draws only when the
        # rules open the hands (then the core's public history lists them).
        rules = game.rules
        for k in range(rules.players if rules.open_hands else 1):
            drawn = state.draws[(player + k) % rules.players]
            # The dealt hand is a set (the core's information state sorts it), later draws
            # a sequence.
            draws = sorted(drawn[: rules.hand_size]) + drawn[rules.hand_size :]
            self.dict["draws"][k, np.arange(len(draws)), draws] = 1.0

    def string_from(self, state: IndigoState, player: int) -> str:
        game = state.indigo_game
        if self.perfect_recall:
            public, private = (
                game.public_information_string(),
                game.private_information_string(player),
            )
            whole = game.information_state_string(player)
        else:
            whole = game.observation_string(player)
            public, _, private = whole.partition(" | ")
        if self.public and self.private:
            return whole
        return public if self.public else private


class IndigoBot(pyspiel.Bot):  # type: ignore[misc]
    """Any indigo bot as a ``pyspiel.Bot`` for the states of every game's OpenSpiel game
    (``python_indigo``, ``python_queens_garden``: :data:`indigo.games.GAMES`), so that
    OpenSpiel's ``evaluate_bots`` pits the native bots against its own.

    ``bot`` is a spec, a bot object or a policy callable (:func:`indigo.bots.as_bot`). A
    spec's bot is that game's native bot of the spec (the game's ``make_bot``), made for the
    first state of each game it steps, seeded with ``seed``. With ``fair`` (the default) it
    chooses on ``game.resample(seat)``, as :func:`indigo.play_game` hands it (the native bots
    read only what their seat knows either way); else on a copy of the true game. The game is
    the state's ``native_game``.

    >>> import numpy as np
    >>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    >>> game = pyspiel.load_game("python_indigo", {"utility": "zero-sum"})
    >>> bots = [IndigoBot("greedy", seed=1), IndigoBot("random", seed=2)]
    >>> sorted(evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3)))
    [-1.0, 1.0]
    """

    def __init__(self, bot: BotLike, *, seed: int | None = None, fair: bool = True) -> None:
        pyspiel.Bot.__init__(self)
        self.spec = normalize_bot_spec(bot) if isinstance(bot, str) else None
        """The bot's spec, canonical; ``None`` for a bot object or a policy."""
        self.bot = None if self.spec is not None else as_bot(bot)
        """The bot object (a policy wrapped); ``None`` for a spec."""
        self.fair = fair
        self._seed = seed
        self._views = random.Random(seed)
        self._made: dict[str, Any] = {}

    def _bot_for(self, game: Any) -> Any:
        """The bot that plays ``game``: the bot object, or the spec's native bot of its game."""
        if self.spec is None:
            return self.bot
        entry = find_game(game)
        if entry.name not in self._made:
            self._made[entry.name] = entry.make_bot(self.spec, seed=self._seed)
        return self._made[entry.name]

    def step(self, state: Any) -> int:
        """The bot's action for the player to move in ``state`` (a state of any game's
        OpenSpiel game). Raises :class:`indigo.IllegalMoveError` at a chance node or the end,
        or when the bot chose an illegal move."""
        game = state.native_game
        seat = None if game is None else game.to_move
        if seat is None or state.is_chance_node():
            raise IllegalMoveError("no player is to move: a chance node or the game's end")
        view = game.resample(seat, seed=self._views.getrandbits(64)) if self.fair else game.clone()
        move = self._bot_for(game).choose(view)
        if not game.is_legal(move) or move.action is None:
            raise IllegalMoveError(f"seat {seat}'s bot chose {move}, which is not legal")
        action: int = move.action
        return action

    def restart_at(self, state: Any) -> None:
        """Nothing to reset: the bot reads each state afresh."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to learn: the bot reads each state afresh."""

    def provides_policy(self) -> bool:
        return False


pyspiel.register_game(GAME_TYPE, IndigoGame)
for _entry in GAMES:  # importing this module registers every game's OpenSpiel game
    importlib.import_module(_entry.openspiel)
