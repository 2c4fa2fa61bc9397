"""The OpenSpiel adapter against OpenSpiel's own checks: ``random_sim_test`` with serialization,
``generate_playthrough``, observers, the information-state tensor, ``undo_action``, every rules
option as a parameter, and native bots as ``pyspiel.Bot`` in ``evaluate_bots`` (for every game
of the registry)."""

from __future__ import annotations

import importlib
import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import generate_playthrough, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
from open_spiel.python.observation import make_observation

import indigo
from indigo import CELLS, OBSERVATION_SIZE, Rules
from indigo.envs.openspiel import INFORMATION_STATE_LAYOUT, INFORMATION_STATE_SIZE, IndigoBot
from indigo.games import GAMES, GameEntry

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

OPTIONS: list[dict[str, Any]] = [
    {},
    {"players": 3, "hand_size": 2, "three_player_gates": "exclusive", "utility": "zero-sum"},
    {"players": 4, "open_hands": True, "tie_break": "shared", "utility": "rank"},
    {"players": 2, "hand_size": 2, "theme": "butterfly-garden", "utility": "points"},
]


def random_step(state: pyspiel.State, rng: random.Random) -> int:
    """A random chance outcome (by its probability) or legal action."""
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(outcomes, probs)[0])
    return int(rng.choice(state.legal_actions()))


def same_state(a: pyspiel.State, b: pyspiel.State) -> None:
    """Everything a caller reads agrees."""
    assert a.history() == b.history()
    assert a.move_number() == b.move_number()
    assert a.history_str() == b.history_str()
    assert a.current_player() == b.current_player()
    assert str(a) == str(b)
    assert a.indigo_game == b.indigo_game
    assert a.draws == b.draws
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    elif not a.is_terminal():
        assert a.legal_actions() == b.legal_actions()
    assert a.returns() == b.returns()
    for player in range(a.num_players()):
        assert a.information_state_string(player) == b.information_state_string(player)
        assert a.information_state_tensor(player) == b.information_state_tensor(player)
        assert a.observation_string(player) == b.observation_string(player)


@pytest.mark.parametrize("params", OPTIONS)
def test_random_sim_test_with_serialization(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_indigo", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", OPTIONS)
def test_every_rules_option_is_a_parameter(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_indigo", params)
    settings = {k: v for k, v in params.items() if k != "utility"}
    assert game.new_initial_state().indigo_game.rules == Rules(**settings)
    assert set(game.get_type().parameter_specification) == {
        "players",
        "hand_size",
        "three_player_gates",
        "tie_break",
        "open_hands",
        "theme",
        "utility",
    }
    with pytest.raises(indigo.IndigoError):
        pyspiel.load_game("python_indigo", {**params, "tie_break": "coin"})


@pytest.mark.parametrize(
    ("utility", "kind", "low", "total"),
    [
        ("win", pyspiel.GameType.Utility.CONSTANT_SUM, 0.0, 1.0),
        ("rank", pyspiel.GameType.Utility.CONSTANT_SUM, 0.0, 1.5),
        ("zero-sum", pyspiel.GameType.Utility.ZERO_SUM, -0.5, 0.0),
        ("points", pyspiel.GameType.Utility.GENERAL_SUM, 0.0, None),
    ],
)
def test_the_game_type_follows_the_utility(
    utility: str, kind: Any, low: float, total: float | None
) -> None:
    game = pyspiel.load_game("python_indigo", {"players": 3, "utility": utility})
    assert game.get_type().utility == kind
    assert game.min_utility() == low
    assert (game.utility_sum() if total is not None else None) == total


def test_states_survive_serialization_and_cloning_at_every_step() -> None:
    """At a draw too: the same player, the same draws, the same history."""
    rng = random.Random(4)
    for params in OPTIONS[:3]:
        game = pyspiel.load_game("python_indigo", params)
        state = game.new_initial_state()
        while True:
            _, back = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, state)
            )
            same_state(state, back)
            same_state(state, pickle.loads(pickle.dumps(state)))
            same_state(state, state.clone())
            if state.is_terminal():
                break
            state.apply_action(random_step(state, rng))


def test_generate_playthrough_runs_with_every_observer() -> None:
    text = generate_playthrough.playthrough(
        "python_indigo(players=3,utility=zero-sum)", action_sequence=None, seed=5
    )
    lines = text.splitlines()
    assert (
        "InformationStateTensorShape() = observation: [2127], placed_at: [61], draws: [4, 54, 5]"
        in lines
    )
    assert any(line.startswith("PublicObservationString() = ") for line in lines)
    assert any(line.startswith('PrivateObservationString(2) = "seat=2 hand=') for line in lines)
    assert any(line.startswith("InformationStateTensor(1).draws") for line in lines)
    assert lines[-1].startswith("Returns() = ")
    returns = [float(v) for v in lines[-1].split("= ")[1].strip("[]").split(", ")]
    assert sum(returns) == pytest.approx(0.0)
    assert "IsTerminal() = True" in lines


def test_observers_split_public_and_private() -> None:
    game = pyspiel.load_game("python_indigo", {"players": 3, "hand_size": 2})
    kinds = {
        (recall, public, private): make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=recall,
                public_info=public,
                private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
                if private
                else pyspiel.PrivateInfoType.NONE,
            ),
        )
        for recall in (False, True)
        for public, private in ((True, True), (True, False), (False, True))
    }
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        state.apply_action(random_step(state, rng))
    core = state.indigo_game
    for player in range(3):
        observation = core.observation_string(player)
        assert kinds[False, True, True].string_from(state, player) == observation
        assert kinds[False, True, False].string_from(state, player) == observation.split(" | ")[0]
        assert kinds[False, False, True].string_from(state, player) == observation.split(" | ")[1]
        assert kinds[True, True, True].string_from(state, player) == core.information_state_string(
            player
        )
        assert (
            kinds[True, True, False].string_from(state, player) == core.public_information_string()
        )
        assert kinds[True, False, True].string_from(
            state, player
        ) == core.private_information_string(player)
    assert kinds[False, True, False].tensor is None
    with pytest.raises(ValueError, match="sees nothing"):
        make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.NONE
            ),
        )


@pytest.mark.parametrize("open_hands", [False, True])
def test_information_state_tensor_holds_the_history(open_hands: bool) -> None:
    game = pyspiel.load_game(
        "python_indigo", {"players": 3, "hand_size": 2, "open_hands": open_hands}
    )
    assert game.information_state_tensor_size() == INFORMATION_STATE_SIZE
    state = game.new_initial_state()
    rng = random.Random(8)
    while not state.is_terminal():
        core = state.indigo_game
        for player in range(3):
            tensor = np.asarray(state.information_state_tensor(player), np.float32)
            parts = {
                name: tensor[offset : offset + int(np.prod(shape))].reshape(shape)
                for name, (offset, shape) in INFORMATION_STATE_LAYOUT.items()
            }
            np.testing.assert_array_equal(parts["observation"], core.observation(player))
            assert parts["observation"].shape == (OBSERVATION_SIZE,)
            order = [CELLS.index(move.cell) for move in core.moves]
            assert parts["placed_at"][order].tolist() == list(range(1, len(order) + 1))
            assert np.count_nonzero(parts["placed_at"]) == len(order)
            # The tiles each seat drew, in order, as the core's private strings list them;
            # the others' only with open hands.
            for k in range(3):
                seat = (player + k) % 3
                rows = parts["draws"][k]
                if k and not open_hands:
                    assert not rows.any()
                    continue
                drawn = core.private_information_string(seat).split("draws=")[1]
                assert rows.sum() == len(drawn)
                assert "".join(str(int(t)) for t in rows[: len(drawn)].argmax(axis=1)) == drawn
        state.apply_action(random_step(state, rng))


def test_undo_action_restores_the_state_before() -> None:
    game = pyspiel.load_game("python_indigo", {"players": 3, "hand_size": 2})
    state = game.new_initial_state()
    rng = random.Random(6)
    while not state.is_terminal():
        before = state.clone()
        player, action = state.current_player(), random_step(state, rng)
        state.apply_action(action)
        after = state.clone()
        state.undo_action(player, action)
        same_state(state, before)
        _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        same_state(back, before)
        state.apply_action(action)
        same_state(state, after)
    last = state.full_history()[-1]
    with pytest.raises(indigo.IllegalMoveError, match="the last action is"):
        state.undo_action(last.player, last.action + 1)
    assert state.is_terminal()
    state.undo_action(last.player, last.action)
    assert not state.is_terminal()
    fresh = game.new_initial_state()
    with pytest.raises(indigo.IllegalMoveError):
        fresh.undo_action(pyspiel.PlayerId.CHANCE, 0)
    assert fresh.is_initial_state()


def test_native_bots_play_openspiels_bots_in_evaluate_bots() -> None:
    game = pyspiel.load_game("python_indigo", {"utility": "zero-sum"})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    theirs = mcts.MCTSBot(game, 1.4, 8, evaluator, solve=False, random_state=rng)
    for bots in ([IndigoBot("ismcts:50", seed=1), theirs], [theirs, IndigoBot("greedy", seed=2)]):
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    three = pyspiel.load_game("python_indigo", {"players": 3, "hand_size": 2})
    policy_bot = IndigoBot(lambda view: view.legal_actions()[0], fair=False)
    returns = evaluate_bots(
        three.new_initial_state(), [IndigoBot("greedy", seed=4), policy_bot, theirs3(three)], rng
    )
    assert sum(returns) == pytest.approx(1.0)


def theirs3(game: pyspiel.Game, seat: int = 2) -> pyspiel.Bot:
    """OpenSpiel's uniform random bot for ``seat`` (2 unless told)."""
    return pyspiel.make_uniform_random_bot(seat, 7)


def test_indigo_bot_steps_as_the_native_bot_chooses() -> None:
    game = pyspiel.load_game("python_indigo")
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        if not state.is_chance_node():
            wrapped = IndigoBot("greedy", seed=11, fair=False)
            native = indigo.make_bot("greedy", seed=11)
            action = wrapped.step(state)
            assert action == native.choose(state.indigo_game).action
            assert action in state.legal_actions()
        state.apply_action(random_step(state, rng))
    illegal = IndigoBot(lambda view: indigo.Move(0, 0, 0, 0))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(random_step(state, rng))
    with pytest.raises(indigo.IllegalMoveError, match="seat 0's bot"):
        illegal.step(state)


GAME_IDS = [entry.name for entry in GAMES]
SPECS = ["random", "greedy", "playout", "ismcts:20"]
"""A spec of every kind of native bot."""


def openspiel_game(entry: GameEntry[Any, Any, Any]) -> pyspiel.Game:
    importlib.import_module(entry.openspiel)
    return pyspiel.load_game(entry.openspiel_name)


@pytest.mark.parametrize("entry", GAMES, ids=GAME_IDS)
def test_indigo_bot_plays_every_game_with_every_spec_in_evaluate_bots(
    entry: GameEntry[Any, Any, Any],
) -> None:
    game = openspiel_game(entry)
    rng = np.random.RandomState(5)
    for first, second in zip(SPECS, SPECS[1:] + SPECS[:1], strict=True):
        bots = [IndigoBot(first, seed=1), IndigoBot(second, seed=2)]
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        assert sum(returns) == pytest.approx(1.0)  # the winners share 1
        assert bots[0].spec == first  # canonical already
    # A bot object of every game, against OpenSpiel's own random bot.
    puct = IndigoBot(indigo.PuctBot("rollout", 8, seed=3))
    returns = evaluate_bots(game.new_initial_state(), [puct, theirs3(game, 1)], rng)
    assert sum(returns) == pytest.approx(1.0)


@pytest.mark.parametrize("entry", GAMES, ids=GAME_IDS)
def test_indigo_bot_steps_as_every_games_native_bot_chooses(
    entry: GameEntry[Any, Any, Any],
) -> None:
    state = openspiel_game(entry).new_initial_state()
    rng = random.Random(2)
    steps = 0
    while not state.is_terminal() and steps < 12:
        if not state.is_chance_node():
            wrapped = IndigoBot("ismcts:30", seed=11, fair=False)
            native = entry.make_bot("ismcts:30", seed=11)
            action = wrapped.step(state)
            assert action == native.choose(state.native_game).action
            assert action in state.legal_actions()
            steps += 1
        state.apply_action(random_step(state, rng))
    assert steps == 12
    while not state.is_chance_node():
        state.apply_action(random_step(state, rng))
    with pytest.raises(indigo.IllegalMoveError, match="chance node"):
        IndigoBot("greedy").step(state)
