"""The adapters in ``indigo.envs``: each library's own conformance checks, and full games through
each adapter against the core ``indigo.Game`` with the same seed and moves."""

from __future__ import annotations

import functools
import importlib
import random
import subprocess
import sys
import warnings
from typing import Any, Literal

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation
from pettingzoo.test import api_test, render_test, seed_test

import indigo
import indigo.envs.openspiel
from indigo import ACTION_COUNT, OBSERVATION_SIZE, Game, Rules, VectorGames
from indigo.envs import GYMNASIUM_ID, _common, indigo_v0
from indigo.envs.gymnasium_env import IndigoEnv
from indigo.envs.vector import IndigoVectorEnv
from indigo.games import GAMES, INDIGO, QUEENS_GARDEN, GameEntry, find_game

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

RULES = [Rules.indigo(2), Rules(3, 2), Rules(4, 1)]


def replay(rules: Rules, seed: int, moves: list[indigo.Move]) -> Game:
    """The core game with the same seed and moves."""
    game = Game(rules, seed=seed)
    for move in moves:
        game.play(move)
    return game


# --- PettingZoo ---------------------------------------------------------------------------


# api_test warns about dict observations unless the env is one of PettingZoo's own classic games.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_pettingzoo_api_test(rules: Rules) -> None:
    api_test(indigo_v0.env(rules=rules), num_cycles=300)
    api_test(indigo_v0.raw_env(rules=rules, utility="points"), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(indigo_v0.env, num_cycles=300)
    seed_test(lambda: indigo_v0.env(players=3, hand_size=2), num_cycles=300)


def test_pettingzoo_reset_seeds() -> None:
    env = indigo_v0.raw_env()
    env.reset(seed=5)
    assert env.game.pile == Game(seed=5).pile
    env.reset()
    second = env.game.pile
    env.reset(seed=5)
    env.reset()
    assert env.game.pile == second != Game(seed=5).pile


def test_pettingzoo_illegal_actions() -> None:
    raw = indigo_v0.raw_env()
    raw.reset(seed=2)
    illegal = int(np.flatnonzero(raw.observe("player_0")["action_mask"] == 0)[0])
    before = raw.game.clone()
    with pytest.raises(indigo.IllegalMoveError):
        raw.step(illegal)
    with pytest.raises(indigo.MoveError):
        raw.step(ACTION_COUNT)
    assert raw.game == before
    assert raw.agent_selection == "player_0"
    # The classic wrapper ends the game instead, the mover losing.
    env = indigo_v0.env()
    env.reset(seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}


@pytest.mark.parametrize("action", [2.9, np.float64(2.0), np.float32(1.5)])
def test_adapters_refuse_a_non_integer_action_as_the_game_does(action: object) -> None:
    """``int(2.9)`` would play action 2: each adapter raises the ``TypeError`` ``Game.play``
    raises and changes nothing (OpenSpiel's binding refuses a float itself)."""
    game = Game(seed=1)
    with pytest.raises(TypeError):
        game.play(action)  # type: ignore[arg-type]
    raw = indigo_v0.raw_env()
    raw.reset(seed=1)
    before = raw.game.clone()
    with pytest.raises(TypeError, match="integer"):
        raw.step(action)  # type: ignore[arg-type]
    assert raw.game == before
    assert raw.agent_selection == "player_0"
    env = IndigoEnv(illegal_reward=-1.0)
    env.reset(seed=1)
    before = env.game.clone()
    with pytest.raises(TypeError, match="integer"):
        env.step(action)  # type: ignore[arg-type]
    assert env.game == before
    state = pyspiel.load_game("python_indigo").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(TypeError):
        state.apply_action(state.legal_actions()[0] + 0.5)


def test_pettingzoo_render() -> None:
    env = indigo_v0.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str)
    assert "corner" in text
    assert "pile 52 left" in text
    env = indigo_v0.env(render_mode="rgb_array")
    env.reset(seed=1)
    picture = env.render()
    assert picture.dtype == np.uint8
    assert picture.ndim == 3
    assert picture.shape[2] == 3
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 10
    with pytest.raises(indigo.IndigoError, match="render_mode"):
        indigo_v0.env(render_mode="window")


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(indigo_v0.env, {"ansi": lambda text: "pile" in text})
    assert "\x1b[" in capsys.readouterr().out  # human mode printed the board in colour


# --- Gymnasium ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"players": 3, "seat": None, "opponents": ["random", "ismcts:30"], "utility": "rank"},
        {"render_mode": "ansi", "hand_size": 2},
        {"render_mode": "human", "seat": 1},
    ],
)
def test_gymnasium_check_env(kwargs: dict[str, object]) -> None:
    env = gymnasium.make(GYMNASIUM_ID, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_gymnasium_full_game_matches_the_core(seat: int) -> None:
    env = IndigoEnv(players=3, seat=seat, opponents="greedy", utility="points")
    observation, info = env.reset(seed=21)
    assert env.game.pile == Game(Rules.indigo(3), seed=21).pile
    picks = random.Random(seat)
    terminated, reward = False, 0.0
    while not terminated:
        game = env.game
        assert game.to_move == seat
        np.testing.assert_array_equal(observation, game.observation(seat))
        legal = np.flatnonzero(info["action_mask"]).tolist()
        assert legal == game.legal_actions()
        observation, reward, terminated, truncated, info = env.step(picks.choice(legal))
        assert not truncated
    core = replay(Rules.indigo(3), 21, env.game.moves)
    assert core.over
    assert core.scores == env.game.scores
    assert reward == core.returns("points")[seat]
    assert not info["action_mask"].any()
    with pytest.raises(indigo.IndigoError, match="reset"):
        env.step(0)


def test_gymnasium_opponents_are_seeded_bots() -> None:
    def moves(seed: int) -> list[indigo.Move]:
        env = IndigoEnv(opponents="ismcts:20", seat=1)
        env.reset(seed=seed)
        return env.game.moves

    assert moves(4) == moves(4)
    assert len(moves(4)) == 1
    # Each reply of a greedy opponent gains most for itself, then least for the learner.
    env = IndigoEnv(opponents="greedy", seat=0)
    _, info = env.reset(seed=8)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
        before = env.game.clone()
        reply = before.undo()

        def value(move: indigo.Move, before: Game = before) -> int:
            after = before.clone()
            after.play(move)
            return after.rewards()[1] * 1000 - after.rewards()[0]

        assert value(reply) == max(value(m) for m in before.legal_moves)


def test_gymnasium_illegal_action() -> None:
    env = IndigoEnv()
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.clone()
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert env.game == before
    strict = IndigoEnv(illegal_reward=None)
    strict.reset(seed=3)
    with pytest.raises(indigo.IllegalMoveError):
        strict.step(illegal)
    assert strict.game == before
    with pytest.raises(indigo.IndigoError, match="opponent"):
        IndigoEnv(players=3, opponents=["greedy"])
    with pytest.raises(indigo.IndigoError, match="bad bot"):
        IndigoEnv(opponents="perfect")


def test_gymnasium_registration_and_render() -> None:
    env = gymnasium.make(GYMNASIUM_ID, render_mode="rgb_array")
    env.reset(seed=1)
    picture = env.render()
    assert isinstance(picture, np.ndarray)
    assert picture.shape[2] == 3
    assert gymnasium.spec(GYMNASIUM_ID).entry_point == "indigo.envs.gymnasium_env:IndigoEnv"


def test_gymnasium_action_masks() -> None:
    env = gymnasium.make(GYMNASIUM_ID, players=3, opponents="random", seat=2).unwrapped
    assert not env.action_masks().any()  # before the first reset
    _, info = env.reset(seed=6)
    terminated = False
    while not terminated:
        masks = env.action_masks()
        assert masks.dtype == np.bool_
        np.testing.assert_array_equal(masks, info["action_mask"].astype(np.bool_))
        np.testing.assert_array_equal(masks, env.game.legal_action_mask())
        _, _, terminated, _, info = env.step(int(np.flatnonzero(masks)[-1]))
    assert not env.action_masks().any()


# --- vector -------------------------------------------------------------------------------


def legal_choices(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row (0 for a row without one)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_vector_equals_separate_games(rules: Rules, copy: bool) -> None:
    n, seed = 3, 17
    vector = VectorGames(n, rules, seed=seed, utility="rank", copy=copy)
    observations, masks, to_play = vector.reset()
    seeds = indigo.simulate(["random"], 3 * n, rules=rules, seed=seed).game_seeds.tolist()
    assert vector.game_seeds == seeds[:n]
    games = [Game(rules, seed=s) for s in vector.game_seeds]
    ended = [False] * n
    games_last_mover: list[int | None] = [None] * n
    rng = np.random.default_rng(0)
    steps = 0
    while min(vector.episodes) < 2:
        for i, game in enumerate(games):
            view = game.to_move if game.to_move is not None else games_last_mover[i]
            assert to_play[i] == view
            np.testing.assert_array_equal(observations[i], game.observation(view))
            np.testing.assert_array_equal(masks[i], game.legal_action_mask())
        actions = legal_choices(masks, rng)
        games_last_mover = [g.to_move for g in games]
        observations, masks, rewards, terminations, to_play = vector.step(actions)
        steps += 1
        for i in range(n):
            if ended[i]:
                games[i] = Game(rules, seed=seeds[vector.episodes[i] * n + i])
                games_last_mover[i] = None
                assert not terminations[i]
                assert not rewards[i].any()
            else:
                games[i].play(int(actions[i]))
                assert terminations[i] == games[i].over
                want = games[i].returns("rank") if games[i].over else [0.0] * rules.players
                np.testing.assert_array_equal(rewards[i], np.float32(want))
            ended[i] = bool(terminations[i])
    assert vector.game_seeds == [seeds[e * n + i] for i, e in enumerate(vector.episodes)]
    assert steps > 2 * 40


def test_vector_uint8_observations_hold_the_same_counts() -> None:
    full = VectorGames(4, Rules.tactical(4), seed=5)
    compact = VectorGames(4, Rules.tactical(4), seed=5, observation_dtype="uint8")
    assert (full.observation_dtype, compact.observation_dtype) == ("float32", "uint8")
    wide, masks, _ = full.reset()
    small, compact_masks, _ = compact.reset()
    rng = np.random.default_rng(2)
    for _ in range(80):
        assert small.dtype == np.uint8
        assert wide.dtype == np.float32
        np.testing.assert_array_equal(small.astype(np.float32), wide)
        np.testing.assert_array_equal(compact_masks, masks)
        actions = legal_choices(masks, rng)
        wide, masks, rewards, terminations, _ = full.step(actions)
        small, compact_masks, compact_rewards, compact_terminations, _ = compact.step(actions)
        np.testing.assert_array_equal(compact_rewards, rewards)
        np.testing.assert_array_equal(compact_terminations, terminations)
    with pytest.raises(indigo.IndigoError, match="observation_dtype"):
        VectorGames(1, observation_dtype="float64")  # type: ignore[arg-type]


def test_vector_without_copies_overwrites_its_own_read_only_arrays() -> None:
    kept = VectorGames(3, Rules(3, 2), seed=4, copy=False, observation_dtype="uint8")
    fresh = VectorGames(3, Rules(3, 2), seed=4, observation_dtype="uint8")
    assert (kept.copy, fresh.copy) == (False, True)
    first = kept.reset()
    np.testing.assert_array_equal(first[0], fresh.reset()[0])
    rng = np.random.default_rng(3)
    for _ in range(120):
        actions = legal_choices(first[1], rng)
        got = kept.step(actions)
        want = fresh.step(actions)
        assert got[0] is first[0]
        assert got[1] is first[1]
        assert got[4] is first[2]
        for array, expected in zip(got, want, strict=True):
            assert not array.flags.writeable
            np.testing.assert_array_equal(array, expected)
    with pytest.raises(ValueError, match="read-only"):
        first[0][0, 0] = 1


def test_vector_kept_arrays_are_the_vectors_buffers() -> None:
    """docs/envs.md: with ``copy=False`` a write made after ``setflags(write=True)`` stays in
    later results where the step does not rewrite, a copy taken before does not change, and
    the games are untouched (an illegal action is still refused, the records agree)."""
    kept = VectorGames(2, seed=1, copy=False)
    fresh = VectorGames(2, seed=1)
    observations, masks, to_play = kept.reset()
    _, fresh_masks, _ = fresh.reset()
    copied = np.array(observations)
    for array in (observations, masks, to_play):
        array.setflags(write=True)
    observations[:] = 99
    masks[:] = True
    illegal = int(np.flatnonzero(~fresh_masks[0])[0])
    with pytest.raises(indigo.IllegalMoveError):
        kept.step([illegal, int(fresh_masks[1].argmax())])
    actions = fresh_masks.argmax(axis=1)
    got, want = kept.step(actions), fresh.step(actions)
    assert got[0] is observations
    assert (got[0] == 99).any()
    assert got[1].sum() > want[1].sum()
    assert not np.array_equal(got[0], want[0])
    assert not (copied == 99).any()
    assert kept.record(0) == fresh.record(0)
    assert kept.record(1) == fresh.record(1)


def test_vector_reset_is_reproducible() -> None:
    vector = VectorGames(2, seed=3)
    first = vector.reset()[0]
    vector.step(legal_choices(vector.reset()[1], np.random.default_rng(1)))
    np.testing.assert_array_equal(vector.reset()[0], first)
    other = vector.reset(seed=4)[0]
    assert not np.array_equal(other, first)
    assert vector.game_seeds == VectorGames(2, seed=4).game_seeds


def test_vector_refuses_bad_actions_and_changes_nothing() -> None:
    vector = VectorGames(2, seed=1)
    _, masks, _ = vector.reset()
    legal = int(np.flatnonzero(masks[0])[0])
    illegal = int(np.flatnonzero(~masks[1])[0])
    for bad in ([legal, illegal], [legal, -1], [legal, ACTION_COUNT], [legal, 2**64 - 1]):
        with pytest.raises(indigo.IllegalMoveError, match="game 1"):
            vector.step(np.array(bad, dtype=np.uint64) if bad[1] > 0 else bad)
    with pytest.raises(TypeError, match="integers"):
        vector.step([legal, 2**70])  # not an int64 or uint64 array
    with pytest.raises(indigo.IndigoError, match="actions must hold 2"):
        vector.step([legal])
    with pytest.raises(TypeError, match="integers"):
        vector.step([0.5, 1.0])
    with pytest.raises(TypeError, match="integers"):
        vector.step([[legal, legal]])
    with pytest.raises(indigo.IndigoError, match="num_envs"):
        VectorGames(0)
    with pytest.raises(indigo.IndigoError, match="utility"):
        VectorGames(1, utility="score")
    # Nothing moved: the same legal actions give what a fresh vector gives.
    both = [legal, int(np.flatnonzero(masks[1])[0])]
    after = vector.step(both)
    fresh = VectorGames(2, seed=1)
    fresh.reset()
    for got, want in zip(after, fresh.step(np.array(both, np.int32)), strict=True):
        np.testing.assert_array_equal(got, want)


def test_vector_gymnasium_env() -> None:
    envs = IndigoVectorEnv(4, players=2, seed=9, utility="points")
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    observations, infos = envs.reset()
    assert observations in envs.observation_space
    rng = np.random.default_rng(2)
    mover = infos["to_play"]
    total = np.zeros((4, 2))
    finished = 0
    while finished < 4:
        actions = legal_choices(infos["action_mask"], rng)
        assert actions in envs.action_space
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        assert not truncations.any()
        np.testing.assert_array_equal(rewards, infos["rewards"][np.arange(4), mover])
        total += infos["rewards"]
        finished += int(terminations.sum())
        mover = infos["to_play"]
    assert (total.sum(axis=1) > 0).all()


# --- OpenSpiel ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params", [{}, {"players": 3, "hand_size": 2, "utility": "points"}, {"players": 4}]
)
def test_openspiel_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_indigo", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_states_agree_with_the_core() -> None:
    game = pyspiel.load_game("python_indigo", {"players": 3})
    observer = make_observation(game)
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE),
    )
    state = game.new_initial_state()
    rng = random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while not state.is_terminal():
        if state.is_chance_node():
            tiles, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(tiles, probs)[0])
            continue
        core = state.indigo_game
        for player in range(3):
            tensor = np.asarray(state.observation_tensor(player), np.float32)
            np.testing.assert_array_equal(tensor, core.observation(player))
            assert state.observation_string(player) == core.observation_string(player)
            info = state.information_state_string(player)
            assert info == core.information_state_string(player)
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == info
            assert other.current_player() == state.current_player()
            assert other.indigo_game.moves == core.moves
            assert len(other.history()) == len(state.history())
            assert other.indigo_game.hand(player) == core.hand(player)
        observer.set_from(state, 1)
        assert observer.dict["own_hand"].tolist() == [core.hand(1).count(t) for t in range(5)]
        assert public.string_from(state, 2) == core.public_information_string()
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.returns() == state.indigo_game.returns("win")
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]


def play_openspiel(game: pyspiel.Game, bots: list[pyspiel.Bot], pile: list[int]) -> pyspiel.State:
    """One game with chance drawing ``pile`` in order (``bots[p]`` None: random legal)."""
    state = game.new_initial_state()
    draws = iter(pile)
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(next(draws))
        elif (bot := bots[state.current_player()]) is not None:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def core_game(state: pyspiel.State, seed: int) -> Game:
    """The sampled core game with ``seed`` and the moves of ``state``."""
    moves = state.indigo_game.moves
    draws = sum(indigo.TILE_COUNTS) - state.indigo_game.pile_left
    assert len(moves) == len(state.history()) - draws
    return replay(state.indigo_game.rules, seed, moves)


def test_openspiel_mcts_and_ismcts_play_complete_games() -> None:
    game = pyspiel.load_game("python_indigo")
    random_state = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    mcts_bot = mcts.MCTSBot(game, 1.4, 8, evaluator, solve=False, random_state=random_state)
    ismcts_bot = ismcts.ISMCTSBot(game, evaluator, 1.4, 8, random_state=random_state)
    for seed, bots in [(31, [mcts_bot, ismcts_bot]), (32, [ismcts_bot, mcts_bot])]:
        state = play_openspiel(game, bots, Game(seed=seed).pile)
        core = core_game(state, seed)
        assert core.over
        assert core.scores == state.indigo_game.scores
        assert state.returns() == core.returns("win")
        assert sum(state.returns()) == 1.0


@pytest.mark.parametrize("params", [{"utility": "points"}, {"players": 3, "hand_size": 2}])
def test_openspiel_explicit_draws_give_the_sampled_game(params: dict[str, object]) -> None:
    """Chance fed the seeded pile in order deals the core's sampled game."""
    game = pyspiel.load_game("python_indigo", params)
    state = play_openspiel(game, [None] * game.num_players(), Game(seed=44).pile)
    core = core_game(state, 44)
    assert core.over
    assert state.indigo_game.scores == core.scores
    assert state.returns() == core.returns(params.get("utility", "win"))  # type: ignore[arg-type]


def test_openspiel_illegal_action_changes_nothing() -> None:
    game = pyspiel.load_game("python_indigo")
    state = game.new_initial_state()
    with pytest.raises(indigo.MoveError):
        state.apply_action(9)  # not a tile type: 0..4 are the chance outcomes
    state.apply_action(0)
    state.apply_action(0)
    history = state.history()
    illegal = next(a for a in range(ACTION_COUNT) if a not in state.legal_actions())
    with pytest.raises(indigo.IllegalMoveError):
        state.apply_action(illegal)
    assert state.history() == history
    with pytest.raises(indigo.RulesError):
        pyspiel.load_game("python_indigo", {"players": 5})


# --- without the extras -------------------------------------------------------------------


def test_extras_are_optional() -> None:
    code = """
import sys
for name in ("gymnasium", "pettingzoo", "pyspiel"):
    sys.modules[name] = None
import indigo, indigo.envs
for module in ("indigo_v0", "gymnasium_env", "vector", "openspiel"):
    try:
        __import__("indigo.envs." + module)
    except ImportError as exc:
        print(module, "indigo-tiles[" in str(exc))
"""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == [
        "indigo_v0",
        "True",
        "gymnasium_env",
        "True",
        "vector",
        "True",
        "openspiel",
        "True",
    ]


def test_openspiel_serialises_a_state_waiting_for_a_draw() -> None:
    """A state at a chance node comes back at that node, with the same player and draws."""
    game = pyspiel.load_game("python_indigo", {"players": 3})
    state = game.new_initial_state()
    while not state.is_chance_node() or state.move_number() < 8:
        actions = state.chance_outcomes() if state.is_chance_node() else state.legal_actions()
        first = actions[-1]
        state.apply_action(first[0] if isinstance(first, tuple) else first)
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert back.current_player() == state.current_player() == pyspiel.PlayerId.CHANCE
    assert back.chance_outcomes() == state.chance_outcomes()
    assert back.history() == state.history()
    assert back.indigo_game == state.indigo_game


def test_vector_opponents_move_inside_rust() -> None:
    rules = Rules.indigo(3)
    vector = VectorGames(3, rules, seed=5, opponents=["greedy", "ismcts:10"], seat=1, copy=False)
    assert vector.seat == 1
    assert VectorGames(3, rules).seat is None
    observations, masks, to_play = vector.reset()
    rng = np.random.default_rng(4)
    learned: list[list[int]] = [[] for _ in range(3)]
    finished = 0
    while finished < 3:
        assert (to_play == 1).all()
        for i in range(3):
            game = vector.game(i)
            assert game.seed == vector.game_seeds[i]
            assert game.moves == replay(rules, game.seed, game.moves).moves
            assert vector.record(i) == game.to_record()
            np.testing.assert_array_equal(observations[i], game.observation(1))
            np.testing.assert_array_equal(masks[i], game.legal_action_mask())
            assert game.over or game.to_move == 1
            # The learner's moves are the actions given; the bots' lie between them.
            mine = [m.action for turn, m in enumerate(game.moves) if turn % 3 == 1]
            assert mine == learned[i]
        actions = legal_choices(masks, rng)
        for i in range(3):
            if masks[i].any():
                learned[i].append(int(actions[i]))
            else:
                learned[i] = []
        observations, masks, rewards, terminations, to_play = vector.step(actions)
        for i in np.flatnonzero(terminations):
            game = vector.game(int(i))
            assert game.over
            np.testing.assert_array_equal(rewards[i], np.float32(game.returns("win")))
        finished += int(terminations.sum())
    with pytest.raises(indigo.IndigoError, match="opponent spec or 2"):
        VectorGames(1, rules, opponents=["greedy"])
    with pytest.raises(indigo.IndigoError, match="bad bot"):
        VectorGames(1, opponents="perfect")
    with pytest.raises(indigo.IndigoError, match="seat"):
        VectorGames(1, opponents="greedy", seat=2)
    with pytest.raises(TypeError, match="a bot is a spec"):
        VectorGames(1, opponents=3)  # type: ignore[arg-type]
    with pytest.raises(indigo.IndigoError, match="no game 3"):
        vector.game(3)


def test_vector_partial_reset_restarts_only_the_marked_games() -> None:
    vector = VectorGames(3, Rules(3, 2), seed=8)
    observations, masks, _ = vector.reset()
    actions = legal_choices(masks, np.random.default_rng(1))
    observations, masks, _, _, to_play = vector.step(actions)
    seeds = vector.game_seeds
    again, again_masks, again_to_play = vector.reset(mask=[False, True, False])
    assert vector.episodes == [0, 1, 0]
    assert vector.game_seeds[0::2] == seeds[0::2]
    batch = indigo.simulate(["random"], 6, rules=Rules(3, 2), seed=8).game_seeds.tolist()
    assert vector.game_seeds[1] == batch[1 * 3 + 1]  # episode 1 of game 1
    fresh = Game(Rules(3, 2), seed=vector.game_seeds[1])
    np.testing.assert_array_equal(again[1], fresh.observation(0))
    for i in (0, 2):
        np.testing.assert_array_equal(again[i], observations[i])
        np.testing.assert_array_equal(again_masks[i], masks[i])
        assert again_to_play[i] == to_play[i]
        assert len(vector.game(i).moves) == 1
    assert vector.game(1).moves == []
    with pytest.raises(indigo.IndigoError, match="not both"):
        vector.reset(seed=1, mask=[True, True, True])
    with pytest.raises(indigo.IndigoError, match="reset mask must hold 3"):
        vector.reset(mask=[True])


def test_make_vec_builds_learners_against_bots_with_seat_statistics() -> None:
    envs = gymnasium.make_vec(
        GYMNASIUM_ID, num_envs=3, vectorization_mode="vector_entry_point", players=2
    )
    assert isinstance(envs, IndigoVectorEnv)
    assert envs.games.seat == 0
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(envs)
    _, infos = wrapped.reset(seed=3)
    rng = np.random.default_rng(5)
    ended = 0
    while ended < 3:
        np.testing.assert_array_equal(envs.action_masks(), infos["action_mask"])
        actions = legal_choices(envs.action_masks(), rng)
        _, rewards, terminations, _, infos = wrapped.step(actions)
        np.testing.assert_array_equal(rewards, infos["rewards"][:, 0])
        if terminations.any():
            done = infos["_seat_episode"]
            np.testing.assert_array_equal(done, terminations)
            returns = infos["seat_episode"]["r"][done]
            np.testing.assert_array_equal(returns, infos["rewards"][done])
            np.testing.assert_array_equal(returns.sum(axis=1), 1.0)  # "win" shares one
            np.testing.assert_array_equal(infos["episode"]["r"][done], returns[:, 0])
            np.testing.assert_array_equal(
                infos["episode"]["l"][done], infos["seat_episode"]["l"][done]
            )
            for i in np.flatnonzero(done):
                game = envs.games.game(int(i))
                assert game.over
                # The learner (seat 0) opens, so it made the odd moves' half rounded up.
                assert infos["seat_episode"]["l"][i] == (len(game.moves) + 1) // 2
        ended += int(terminations.sum())
    episodes = envs.games.episodes
    envs.reset(options={"reset_mask": np.array([True, False, False])})
    assert envs.games.episodes == [episodes[0] + 1, *episodes[1:]]
    assert gymnasium.spec(GYMNASIUM_ID).vector_entry_point == "indigo.envs.vector:make_vector_env"


def run_vector(vector: VectorGames, steps: int) -> list[np.ndarray]:
    """Every array a vector returns over ``steps`` first-legal steps, a partial reset midway."""
    observations, masks, to_play = vector.reset()
    arrays = [observations.copy(), masks.copy(), to_play.copy()]
    for step in range(steps):
        outputs = vector.step(masks.argmax(axis=1))
        arrays += [array.copy() for array in outputs]
        masks = outputs[1]
        if step == steps // 2:
            reset = vector.reset(mask=[True] + [False] * (len(vector) - 1))
            arrays += [array.copy() for array in reset]
            masks = reset[1]
    return arrays


@pytest.mark.parametrize(
    ("players", "seat", "dtype", "copy"),
    [(2, 1, "float32", True), (3, 0, "uint8", False), (4, 2, "float32", False)],
)
def test_python_opponents_give_the_native_episodes(
    players: int, seat: int, dtype: Literal["float32", "uint8"], copy: bool
) -> None:
    # The same specs played in Python (seeded as the native vector seeds them) make the same
    # moves, so every array, seed, episode and record must agree, through autoresets.
    kwargs: dict[str, Any] = {"seed": 5, "opponents": "greedy", "seat": seat}
    native = VectorGames(3, Rules.indigo(players), observation_dtype=dtype, copy=copy, **kwargs)
    python = indigo.PolicyVectorGames(
        3, Rules.indigo(players), observation_dtype=dtype, copy=copy, **kwargs
    )
    native_arrays, python_arrays = run_vector(native, 90), run_vector(python, 90)
    assert len(native_arrays) == len(python_arrays)
    for ours, theirs in zip(python_arrays, native_arrays, strict=True):
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)
    assert python.episodes == native.episodes
    assert min(python.episodes) >= 2  # autoresets happened
    assert python.game_seeds == native.game_seeds
    assert python.seat == native.seat == seat
    for i in range(3):
        assert python.record(i) == native.record(i)
    with pytest.raises(indigo.IndigoError, match="no game 3"):
        python.game(3)


def first_legal(game: Game) -> int:
    return game.legal_actions()[0]


class LastLegal:
    """A bot object: the last legal move."""

    def __init__(self) -> None:
        self.views: list[Game] = []

    def choose(self, game: Game) -> indigo.Move:
        self.views.append(game)
        return indigo.Move.from_action(game.legal_actions()[-1])


def test_vector_takes_bot_objects_and_callables() -> None:
    rules = Rules.indigo(3)
    last = LastLegal()
    vector = VectorGames(3, rules, seed=2, opponents=[first_legal, last], seat=1)
    assert isinstance(vector, indigo.PolicyVectorGames)
    assert isinstance(vector, VectorGames)
    assert type(VectorGames(3, rules, opponents="greedy")) is VectorGames
    assert vector.seat == 1
    assert vector.copy
    observations, masks, to_play = vector.reset()
    rng = np.random.default_rng(3)
    learned: list[list[int]] = [[] for _ in range(3)]
    finished = 0
    while finished < 4:
        assert (to_play == 1).all()
        for i in range(3):
            # A manual replay: the learner's actions, the first legal move at seat 0 and the
            # last at seat 2.
            game = Game(rules, seed=vector.game_seeds[i])
            mine = iter(learned[i])
            while not game.over:
                legal = game.legal_actions()
                if game.to_move == 0:
                    game.play(legal[0])
                elif game.to_move == 2:
                    game.play(legal[-1])
                elif (action := next(mine, None)) is not None:
                    game.play(action)
                else:
                    break
            assert vector.record(i) == game.to_record()
            np.testing.assert_array_equal(observations[i], game.observation(1))
            np.testing.assert_array_equal(masks[i], game.legal_action_mask())
        actions = legal_choices(masks, rng)
        for i in range(3):
            learned[i] = [*learned[i], int(actions[i])] if masks[i].any() else []
        observations, masks, rewards, terminations, to_play = vector.step(actions)
        for i in np.flatnonzero(terminations):
            game = vector.game(int(i))
            assert game.over
            np.testing.assert_array_equal(rewards[i], np.float32(game.returns("win")))
        finished += int(terminations.sum())
    # The bot object chose on resampled views, never on the games themselves.
    assert last.views
    assert all(view.seed != seed for view in last.views for seed in vector.game_seeds)


def test_vector_python_opponents_refuse_bad_input_and_change_nothing() -> None:
    vector = VectorGames(2, Rules.indigo(2), seed=1, opponents=first_legal)
    _, masks, _ = vector.reset()
    records = [vector.record(i) for i in range(2)]
    illegal = masks.argmax(axis=1)
    illegal[1] = int(np.flatnonzero(~masks[1])[0])
    with pytest.raises(indigo.IllegalMoveError, match="game 1"):
        vector.step(illegal)
    with pytest.raises(TypeError, match="integers"):
        vector.step(np.zeros(2))
    with pytest.raises(indigo.IndigoError, match="hold 2"):
        vector.step([0])
    assert [vector.record(i) for i in range(2)] == records
    with pytest.raises(indigo.IndigoError, match="opponent or 2"):
        VectorGames(1, Rules.indigo(3), opponents=[first_legal])
    with pytest.raises(TypeError, match="a bot is"):
        VectorGames(1, Rules.indigo(3), opponents=[first_legal, 3])  # type: ignore[list-item]
    with pytest.raises(indigo.IndigoError, match="seat"):
        VectorGames(1, opponents=first_legal, seat=2)


def test_vector_env_with_python_opponents_matches_the_native_env() -> None:
    native = IndigoVectorEnv(3, players=2, opponents="greedy", seat=1, seed=4)
    python = IndigoVectorEnv(3, players=2, opponents="greedy", seat=1, seed=4)
    python.games = indigo.PolicyVectorGames(3, Rules(2, 1), seed=4, opponents="greedy", seat=1)
    assert isinstance(IndigoVectorEnv(2, opponents=first_legal).games, indigo.PolicyVectorGames)
    results = [native.reset(), python.reset()]
    ended = 0
    while ended < 4:
        (n_obs, n_info), (p_obs, p_info) = results[-2:]
        np.testing.assert_array_equal(p_obs, n_obs)
        assert p_info.keys() == n_info.keys()
        for key in n_info:
            if key == "seat_episode":
                for part in ("r", "l"):
                    np.testing.assert_array_equal(p_info[key][part], n_info[key][part])
            else:
                np.testing.assert_array_equal(p_info[key], n_info[key])
        actions = n_info["action_mask"].argmax(axis=1)
        n_step, p_step = native.step(actions), python.step(actions)
        for ours, theirs in zip(p_step[:4], n_step[:4], strict=True):
            np.testing.assert_array_equal(ours, theirs)
        results += [(n_step[0], n_step[4]), (p_step[0], p_step[4])]
        ended += int(n_step[2].sum())
    np.testing.assert_array_equal(python.action_masks(), native.action_masks())


# --- Every game of the registry ----------------------------------------------------------


def aec_module(entry: GameEntry[Any, Any, Any]) -> Any:
    """The game's PettingZoo module (``env``, ``raw_env``)."""
    return importlib.import_module(entry.pettingzoo)


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("entry", GAMES, ids=str)
def test_every_game_passes_pettingzoo_api_seed_and_render_tests(
    entry: GameEntry[Any, Any, Any], players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    module = aec_module(entry)
    api_test(module.env(players=players), num_cycles=300)
    seed_test(functools.partial(module.env, players=players), num_cycles=300)
    render_test(functools.partial(module.env, players=players), {"ansi": lambda text: text != ""})
    assert "\x1b[" in capsys.readouterr().out  # human mode printed the position in colour


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("entry", GAMES, ids=str)
def test_every_game_passes_gymnasium_check_env(
    entry: GameEntry[Any, Any, Any], players: int
) -> None:
    for kwargs in ({}, {"seat": None, "render_mode": "ansi"}):
        env = gymnasium.make(entry.gymnasium_id, players=players, **kwargs)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(env.unwrapped)


def legal_of(entry: GameEntry[Any, Any, Any], observation: dict[str, Any]) -> list[int]:
    """The action numbers an AEC observation offers: the masked numbers, or the list."""
    if entry.action_list is None:
        return [int(a) for a in observation["action_mask"].nonzero()[0]]
    legal = observation["legal_actions"]
    assert (observation["action_mask"] == (legal >= 0)).all()
    return [int(a) for a in legal[legal >= 0]]


# Every game of the registry at 2 to 4 seats, and Indigo with hands of 2.
WHOLE_GAMES = [(e, e.default_rules(p)) for e in GAMES for p in (2, 3, 4)] + [(INDIGO, Rules(3, 2))]


@pytest.mark.parametrize("utility", ["win", "points", "rank"])
@pytest.mark.parametrize(
    ("entry", "rules"), WHOLE_GAMES, ids=[f"{e.name}-{r!r}" for e, r in WHOLE_GAMES]
)
def test_every_game_plays_a_whole_pettingzoo_game_as_the_core(
    entry: GameEntry[Any, Any, Any], rules: Any, utility: indigo.Utility
) -> None:
    env = aec_module(entry).env(rules=rules, utility=utility)
    env.reset(seed=11)
    picks = random.Random(1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    played = []
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        seat = env.possible_agents.index(agent)
        game = env.unwrapped.game
        np.testing.assert_array_equal(observation["observation"], game.observation(seat))
        if termination or truncation:
            assert not observation["action_mask"].any()
            env.step(None)
            continue
        assert game.to_move == seat
        legal = legal_of(entry, observation)
        assert legal == game.legal_actions()
        index = picks.randrange(len(legal))
        played.append(legal[index])
        env.step(legal[index] if entry.action_list is None else index)
    core = entry.game(rules, seed=11)
    for action in played:
        core.play(action)
    assert core.over
    assert core.scores == env.unwrapped.game.scores
    returns = core.returns(utility)
    assert [totals[a] for a in env.possible_agents] == returns
    assert sum(returns) > 0


def test_listed_actions_refuse_an_index_past_the_list_and_change_nothing() -> None:
    raw = aec_module(QUEENS_GARDEN).raw_env()
    raw.reset(seed=2)
    before = raw.game.clone()
    count = len(raw.game.legal_actions())
    with pytest.raises(indigo.IllegalMoveError, match="no index"):
        raw.step(count)
    assert raw.game == before
    env = gymnasium.make(QUEENS_GARDEN.gymnasium_id, illegal_reward=None)
    _, info = env.reset(seed=2)
    assert env.unwrapped.action_masks().sum() == (info["legal_actions"] >= 0).sum()
    with pytest.raises(indigo.IllegalMoveError):
        env.step(int(info["action_mask"].sum()))


def vector_legal(vector: VectorGames, legal: np.ndarray, i: int) -> list[int]:
    """Game ``i``'s legal action numbers in a vector's result, whatever its legal form."""
    row = legal[i]
    if vector.legal_form == "mask":
        return [int(a) for a in np.flatnonzero(row)]
    assert (row[: (row >= 0).sum()] >= 0).all()  # the list comes first, then the padding
    return [int(a) for a in row[row >= 0]]


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("entry", GAMES, ids=str)
def test_vector_of_every_game_equals_separate_games(
    entry: GameEntry[Any, Any, Any], copy: bool
) -> None:
    n, seed, rules = 3, 17, entry.default_rules(3)
    vector = VectorGames(n, rules, seed=seed, utility="rank", copy=copy)
    assert find_game(vector.rules) is entry
    observations, legal, to_play = vector.reset()
    seeds = entry.simulate(["random"], 3 * n, rules=rules, seed=seed).game_seeds.tolist()
    assert vector.game_seeds == seeds[:n]
    games = [entry.game(rules, seed=s) for s in vector.game_seeds]
    ended = [False] * n
    last_mover: list[int | None] = [None] * n
    rng = random.Random(0)
    while min(vector.episodes) < 1:
        for i, game in enumerate(games):
            view = game.to_move if game.to_move is not None else last_mover[i]
            assert to_play[i] == view
            np.testing.assert_array_equal(observations[i], game.observation(view))
            assert vector_legal(vector, legal, i) == game.legal_actions()
        actions = [rng.choice(g.legal_actions()) if not g.over else 0 for g in games]
        last_mover = [g.to_move for g in games]
        observations, legal, rewards, terminations, to_play = vector.step(actions)
        for i in range(n):
            if ended[i]:
                games[i] = entry.game(rules, seed=seeds[vector.episodes[i] * n + i])
                last_mover[i] = None
                assert not terminations[i]
            else:
                games[i].play(actions[i])
                assert terminations[i] == games[i].over
                want = games[i].returns("rank") if games[i].over else [0.0] * rules.players
                np.testing.assert_array_equal(rewards[i], np.float32(want))
            ended[i] = bool(terminations[i])
            assert vector.game(i).scores == games[i].scores
    with pytest.raises(indigo.IllegalMoveError, match="not legal in game 0"):
        vector.step([-1] * n)


def test_queens_garden_vector_refuses_uint8_and_python_opponents() -> None:
    rules = QUEENS_GARDEN.default_rules(2)
    with pytest.raises(indigo.IndigoError, match="above 255"):
        VectorGames(2, rules, observation_dtype="uint8")
    with pytest.raises(TypeError, match="bot specs"):
        VectorGames(2, rules, opponents=[lambda game: game.legal_moves[0]])
    with pytest.raises(TypeError, match="Rules of a game"):
        VectorGames(2, "queens-garden")  # type: ignore[arg-type]
    bots = VectorGames(2, rules, seed=4, opponents="greedy", seat=1)
    _, legal, to_play = bots.reset()
    assert bots.legal_form == "list"
    assert legal.dtype == np.int32
    assert to_play.tolist() == [1, 1]
    assert [bots.game(i).to_move for i in range(2)] == [1, 1]  # greedy opened


@pytest.mark.parametrize("entry", GAMES, ids=str)
def test_make_vec_of_every_game_plays_learners_against_bots(
    entry: GameEntry[Any, Any, Any],
) -> None:
    envs = gymnasium.make_vec(
        entry.gymnasium_id, num_envs=2, vectorization_mode="vector_entry_point", players=2
    )
    assert envs.single_action_space == _common.action_space(entry)
    _, infos = envs.reset(seed=3)
    rng = np.random.default_rng(5)
    ended = 0
    while ended < 2:
        np.testing.assert_array_equal(envs.action_masks(), infos["action_mask"])
        actions = legal_choices(envs.action_masks(), rng)
        if entry.action_list is not None:
            rows = np.arange(2)
            numbers = infos["legal_actions"][rows, actions]
            for i in range(2):
                game = envs.games.game(i)
                if not game.over:
                    assert int(numbers[i]) in game.legal_actions()
        _, rewards, terminations, _, infos = envs.step(actions)
        np.testing.assert_array_equal(rewards, infos["rewards"][:, 0])
        for i in np.flatnonzero(terminations):
            assert envs.games.game(int(i)).over
        ended += int(terminations.sum())
