"""The OpenSpiel game ``python_queens_garden``: OpenSpiel's own conformance test, its MCTS to
the end, explicit chance nodes (draws and reveals) against the engine, observations."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from open_spiel.python.observation import make_observation

import indigo.envs.openspiel  # registers both games
from indigo import IllegalMoveError, IndigoError
from indigo import queens_garden as qg
from indigo.queens_garden.openspiel import QueensGardenState

pytestmark = pytest.mark.slow  # left out of scripts/check --quick


def test_the_indigo_adapter_registers_queens_garden_too() -> None:
    assert indigo.envs.openspiel.GAME_TYPE.short_name == "python_indigo"
    names = pyspiel.registered_names()
    assert "python_queens_garden" in names
    assert "python_indigo" in names


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test(players: int) -> None:
    game = pyspiel.load_game("python_queens_garden", {"players": players})
    # The legal-action mask test builds an 8-million-entry mask per state: once is enough.
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False, mask_test=players == 2)


def sample_chance(state: pyspiel.State, rng: np.random.RandomState) -> None:
    """Applies one chance outcome drawn by its probability, checking the distribution."""
    outcomes = state.chance_outcomes()
    actions, probabilities = zip(*outcomes, strict=True)
    assert list(actions) == sorted(actions)
    assert set(actions) <= set(range(36))
    assert sum(probabilities) == pytest.approx(1.0, abs=1e-12)
    state.apply_action(int(rng.choice(actions, p=probabilities)))


def test_openspiel_mcts_plays_to_the_end() -> None:
    game = pyspiel.load_game("python_queens_garden")
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(1, rng, max_length=12)
    bot = mcts.MCTSBot(game, 1.4, 6, evaluator, solve=False, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            sample_chance(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    played = state.queens_garden
    assert played is not None
    assert played.over
    assert played.moves_played == moves
    assert sum(state.returns()) == 1.0
    assert state.returns() == played.returns("win")


def test_chance_nodes_are_the_draws_and_reveals_the_display_shows() -> None:
    game = pyspiel.load_game("python_queens_garden", {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.queens_garden is None
    assert state.chance_outcomes() == [(k, 3 / 108) for k in range(36)]
    for kind in [0, 0, 7]:
        state.apply_action(kind)
    assert dict(state.chance_outcomes())[0] == pytest.approx(1 / 105)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 35) == "draw dp6"
    state.apply_action(35)
    played = state.queens_garden
    assert played is not None
    assert played.stack["tiles"] == ["bl1", "bl1", "ye2", "dp6"]
    take = played.legal_actions()[0]
    assert state.action_to_string(0, take) == str(qg.Move.from_action(take))
    state.apply_action(take)
    # A take from the stack top moves it: the new top's four tiles are chance nodes.
    assert state.is_chance_node()
    assert state.pending == take
    chosen = [kind for kind, _ in state.chance_outcomes()[-4:]]
    for kind in chosen:
        state.apply_action(kind)
    assert not state.is_chance_node()
    played = state.queens_garden
    assert played is not None
    assert played.stack["tiles"] == [qg.KINDS[k] for k in sorted(chosen)]
    # Reveals: play on until an expansion nobody has seen turns face up.
    rng = np.random.RandomState(3)
    revealed = False
    while not revealed and not state.is_terminal():
        if not state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
            continue
        if len(state.chosen) >= state.draws:
            assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0).startswith("reveal")
            outcomes = state.chance_outcomes()
            assert len({p for _, p in outcomes}) == 1  # uniform over the unseen kinds
            before = {d["slot"] for d in state.queens_garden.display if d["face"] == "up"}
            kind = outcomes[0][0]
            state.apply_action(kind)
            while state.is_chance_node():
                sample_chance(state, rng)
            after = [d for d in state.queens_garden.display if d["face"] == "up"]
            assert qg.KINDS[kind] in [d["kind"] for d in after if d["slot"] not in before]
            revealed = True
        else:
            sample_chance(state, rng)
    assert revealed


def test_impossible_chance_outcomes_and_illegal_actions_change_nothing() -> None:
    game = pyspiel.load_game("python_queens_garden")
    state = game.new_initial_state()
    for kind in [4, 4, 4]:
        state.apply_action(kind)
    with pytest.raises(IllegalMoveError, match="not possible"):
        state.apply_action(4)  # the bag holds three of each kind
    assert state.history() == [4, 4, 4]
    assert state.chosen == [4, 4, 4]
    state.apply_action(5)
    played = state.queens_garden
    assert played is not None
    with pytest.raises(IllegalMoveError):
        state.apply_action(qg.Move("buy a0").action - 6)  # a tile placement
    with pytest.raises(IndigoError):
        state.apply_action(qg.ACTION_COUNT)
    assert state.queens_garden.moves_played == 0
    assert not state.is_chance_node()


def test_serialized_and_pickled_states_replay_their_chance() -> None:
    game = pyspiel.load_game("python_queens_garden", {"utility": "points"})
    state = game.new_initial_state()
    rng = np.random.RandomState(11)
    for _ in range(60):
        if state.is_chance_node():
            sample_chance(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for copy in [
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
        pickle.loads(pickle.dumps(state)),
        state.clone(),
    ]:
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        assert copy.legal_actions() == state.legal_actions() or state.is_chance_node()
    while not state.is_terminal():
        if state.is_chance_node():
            sample_chance(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    played = state.queens_garden
    assert played is not None
    assert state.returns() == [float(s) for s in played.scores]


def test_observations_are_the_engines() -> None:
    game = pyspiel.load_game("python_queens_garden", {"players": 3})
    observation = make_observation(game)
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    histories = set()
    for _ in range(40):
        if state.is_chance_node():
            sample_chance(state, rng)
            continue
        played = state.queens_garden
        assert played is not None
        for seat in range(3):
            observation.set_from(state, seat)
            np.testing.assert_array_equal(observation.tensor, played.observation(seat))
            assert observation.dict["scores"][0] == played.scores[seat]
            np.testing.assert_array_equal(state.observation_tensor(seat), played.observation(seat))
        histories.add(state.information_state_string(0))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(histories) == len([a for a in state.full_history() if a.player >= 0])
    assert game.observation_tensor_shape() == [qg.OBSERVATION_SIZE]


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="utility"):
        pyspiel.load_game("python_queens_garden", {"utility": "rank"})
    with pytest.raises(IndigoError):
        pyspiel.load_game("python_queens_garden", {"players": 5})
    assert isinstance(
        pyspiel.load_game("python_queens_garden").new_initial_state(), QueensGardenState
    )
