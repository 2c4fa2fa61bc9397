"""Python policies everywhere (``indigo.bots.as_bot`` behind every call that takes bots) and the
zero-sum utility."""

from __future__ import annotations

import json
import random
from typing import Any

import gymnasium
import numpy as np
import pytest

import indigo
import indigo.envs
from indigo import Game, Move, Rules
from indigo.bots import PolicyBot, as_bot, bot_name, play_game
from indigo.distributed import RayBackend, RunError
from indigo.envs import GYMNASIUM_ID, indigo_v0
from indigo.policies import PolicySelfPlayBatch, PolicySimulation
from indigo.selfplay import load, read_records, run_selfplay
from indigo.tournament import run_tournament


def first_legal(game: Game) -> int:
    """A policy callable: the first legal action."""
    return game.legal_actions()[0]


def last_legal_move(game: Game) -> Move:
    """A policy callable returning a Move."""
    return game.legal_moves[-1]


def finished(rules: Rules, seed: int) -> Game:
    """A game played to the end by random moves."""
    game = Game(rules, seed=seed)
    choices = random.Random(seed)
    while not game.over:
        game.play(choices.choice(game.legal_moves))
    return game


# --- the conversion -----------------------------------------------------------------------


def test_as_bot_takes_specs_bots_and_callables() -> None:
    assert isinstance(as_bot("greedy", seed=1), indigo.GreedyBot)
    assert as_bot("ismcts:30", seed=1).spec == "ismcts:30"  # type: ignore[attr-defined]
    bot = indigo.RandomBot(4)
    assert as_bot(bot) is bot
    wrapped = as_bot(first_legal)
    assert isinstance(wrapped, PolicyBot)
    game = Game(seed=2)
    assert wrapped.choose(game) == Move.from_action(game.legal_actions()[0])
    assert as_bot(last_legal_move).choose(game) == game.legal_moves[-1]
    with pytest.raises(TypeError, match="spec string, an object with choose"):
        as_bot(5)  # type: ignore[arg-type]
    with pytest.raises(indigo.IndigoError, match="expected random"):
        as_bot("minimax")
    with pytest.raises(TypeError, match="Move or an action number, not str"):
        as_bot(lambda game: "3@0:0,1").choose(game)  # type: ignore[arg-type, return-value]
    assert [bot_name(b) for b in ("ismcts", first_legal, bot)] == [
        "ismcts:1000",
        "first_legal",
        "RandomBot",
    ]


def test_play_game_takes_specs_and_plays_simulates_games() -> None:
    rules = Rules.indigo(3)
    specs = ["greedy", "random", "ismcts:30"]
    sim = indigo.simulate(specs, 4, rules=rules, seed=4, lineups=[[0, 1, 2], [2, 0, 1]])
    assert isinstance(sim, indigo.Simulation)  # every bot a spec: the native path
    for i in range(4):
        seated = [specs[b] for b in sim.seats[i]]
        game = play_game(seated, rules=rules, seed=int(sim.game_seeds[i]))
        assert game.scores == sim.scores[i].tolist()
        assert len(game.moves) == sim.placements[i]


def test_play_game_names_the_seat_of_an_illegal_policy() -> None:
    with pytest.raises(indigo.IllegalMoveError, match="seat 1's bot"):
        play_game(["greedy", lambda game: Move(0, 0, 0, 0)], seed=1)


# --- simulate, self_play, tournaments, self-play runs ---------------------------------------


def test_simulate_takes_a_bot_object() -> None:
    sim = indigo.simulate([indigo.GreedyBot(3)], 3, seed=2)
    assert isinstance(sim, PolicySimulation)
    assert len(sim) == 3
    assert sim.bots == ["GreedyBot"]
    assert (sim.seats == 0).all()
    assert sim.scores.shape == (3, 2)
    assert (sim.winners.sum(axis=1) >= 1).all()


def test_simulate_with_policies_plays_the_seeded_games() -> None:
    reports: list[tuple[int, int]] = []
    kwargs = {"seed": 9, "lineups": [[0, 1], [1, 0]], "start": 5}
    sim = indigo.simulate(
        ["greedy", first_legal], 4, progress=lambda *r: reports.append(r), **kwargs
    )  # type: ignore[arg-type]
    assert isinstance(sim, PolicySimulation)
    plan = indigo.simulate(["random", "random"], 4, **kwargs)  # type: ignore[arg-type]
    np.testing.assert_array_equal(sim.game_seeds, plan.game_seeds)
    np.testing.assert_array_equal(sim.seats, plan.seats)
    assert sim.start == 5
    assert reports[-1] == (4, 4)
    for i in range(4):
        seated = [["greedy", first_legal][b] for b in sim.seats[i]]
        game = play_game(seated, seed=int(sim.game_seeds[i]))
        assert game.scores == sim.scores[i].tolist()
        assert sim.winners[i].nonzero()[0].tolist() == game.winners
        assert sim.placements[i] == len(game.moves)
        # The callable's seat played the first legal action every time.
        replay = Game(seed=int(sim.game_seeds[i]))
        for move in game.moves:
            if sim.seats[i][replay.to_move] == 1:
                assert move.action == replay.legal_actions()[0]
            replay.play(move)


def test_python_bots_refuse_what_only_specs_take() -> None:
    with pytest.raises(indigo.IndigoError, match="specs only"):
        indigo.simulate([first_legal], 2, deal="pcg")
    with pytest.raises(indigo.IndigoError, match="Indigo only"):
        indigo.simulate([first_legal], 2, game="queens-garden")
    with pytest.raises(indigo.IndigoError):
        indigo.simulate([first_legal, "greedy"], 2, lineups=[[0, 2]])
    with pytest.raises(TypeError):
        indigo.simulate([first_legal, 7], 2)  # type: ignore[list-item]


def test_self_play_with_a_policy_keeps_records_and_samples() -> None:
    kwargs = {"seed": 3, "lineups": [[0, 1], [1, 0]]}
    batch = indigo.self_play(["ismcts:20", first_legal], 3, **kwargs)  # type: ignore[arg-type]
    assert isinstance(batch, PolicySelfPlayBatch)
    sim = indigo.simulate(["ismcts:20", first_legal], 3, **kwargs)  # type: ignore[arg-type]
    rows = 0
    for i, text in enumerate(batch.records):
        record = json.loads(text)
        game = Game.from_record(record)
        assert record["game"] == i
        assert game.scores == sim.scores[i].tolist() == record["result"]["scores"]
        assert record["players_names"] == [["ismcts:20", "first_legal"][b] for b in sim.seats[i]]
        replay = Game(seed=record["seed"])
        for ply, move in enumerate(game.moves):
            seat = replay.to_move
            assert seat is not None
            assert (batch.game[rows], batch.ply[rows], batch.seat[rows]) == (i, ply, seat)
            np.testing.assert_array_equal(batch.observation[rows], replay.observation(seat))
            np.testing.assert_array_equal(batch.legal_mask[rows], replay.legal_action_mask())
            assert batch.action[rows] == move.action
            searched = sim.seats[i][seat] == 0
            assert batch.searched[rows] == searched
            start, end = batch.visit_offsets[rows], batch.visit_offsets[rows + 1]
            assert batch.visit_counts[start:end].sum() == (20 if searched else 0)
            if searched:
                assert move.action in batch.visit_actions[start:end]
            assert batch.outcome[rows] == game.returns("win")[seat]
            assert batch.points[rows] == game.scores[seat]
            replay.play(move)
            rows += 1
    assert rows == batch.samples == len(batch.action)


def test_python_bots_stay_off_ray(tmp_path: object) -> None:
    backend = RayBackend()  # not connected: the bots are refused first
    with pytest.raises(RunError, match="local backend only"):
        run_tournament(["greedy", first_legal], players=2, games=2, backend=backend)
    with pytest.raises(RunError, match="local backend only"):
        run_selfplay([first_legal], 2, f"{tmp_path}/ray", backend=backend)


def test_seat_seed_seeds_simulates_bots() -> None:
    sim = indigo.simulate(["ismcts:40", "greedy"], 2, seed=6)
    game = Game(seed=int(sim.game_seeds[1]))
    bots = [
        indigo.make_bot(s, seed=indigo.seat_seed(int(sim.game_seeds[1]), k))
        for k, s in enumerate(["ismcts:40", "greedy"])
    ]
    while not game.over:
        game.play(bots[game.to_move].choose(game))  # type: ignore[index]
    assert game.scores == sim.scores[1].tolist()
    with pytest.raises(indigo.IndigoError, match="seat"):
        indigo.seat_seed(1, 4)


def test_tournament_and_selfplay_runs_take_python_bots(tmp_path: object) -> None:
    result = run_tournament(["greedy", first_legal, indigo.RandomBot(3)], players=2, games=6)
    assert [r.bot for r in result.results] == ["greedy", "first_legal", "RandomBot"]
    assert [r.games for r in result.results] == [4, 4, 4]
    folder = f"{tmp_path}/run"
    summary = run_selfplay(["greedy", first_legal], 4, folder, seed=2, shard_size=2)
    assert (summary.shards_written, summary.games) == (2, 4)
    records = list(read_records(folder))
    assert [r["game"] for r in records] == [0, 1, 2, 3]
    batch = next(load(folder, batch_size=10_000))
    assert len(batch) == sum(len(r["moves"]) for r in records)
    assert not batch.searched.any()


# --- Gymnasium opponents ----------------------------------------------------------------------


def test_gymnasium_opponents_may_be_policies_and_bots() -> None:
    env = gymnasium.make(GYMNASIUM_ID, players=3, opponents=[indigo.GreedyBot(1), first_legal])
    env.reset(seed=4)
    done = False
    choices = random.Random(1)
    while not done:
        mask = env.unwrapped.game.legal_action_mask()  # type: ignore[attr-defined]
        action = choices.choice(np.flatnonzero(mask).tolist())
        _, _, done, _, _ = env.step(action)
    game = env.unwrapped.game  # type: ignore[attr-defined]
    replay = Game(Rules.indigo(3), seed=4)
    for move in game.moves:
        if replay.to_move == 2:  # the callable's seat
            assert move.action == replay.legal_actions()[0]
        replay.play(move)
    assert replay.scores == game.scores
    single = gymnasium.make(GYMNASIUM_ID, opponents=first_legal, seat=1)
    single.reset(seed=2)
    assert single.unwrapped.game.moves[0].action == Game(seed=2).legal_actions()[0]  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        gymnasium.make(GYMNASIUM_ID, opponents=5)
    # An opponent sees its own information, never the true pile or the learner's hand.
    seen: list[tuple[bool, bool]] = []
    env = gymnasium.make(GYMNASIUM_ID, opponents=lambda view: spy(view, seen, env))
    env.reset(seed=6)
    done = False
    while not done:
        mask = env.unwrapped.game.legal_action_mask()  # type: ignore[attr-defined]
        _, _, done, _, _ = env.step(int(np.flatnonzero(mask)[0]))
    assert all(same_information for same_information, _ in seen)
    assert not all(same_pile for _, same_pile in seen)
    with pytest.raises(indigo.IndigoError, match="one opponent or 2"):
        gymnasium.make(GYMNASIUM_ID, players=3, opponents=[first_legal])


def spy(view: Game, seen: list[tuple[bool, bool]], env: gymnasium.Env[Any, Any]) -> int:
    """A policy noting whether its view holds its seat's information and the true pile."""
    true = env.unwrapped.game  # type: ignore[attr-defined]
    seat = true.to_move
    seen.append(
        (
            view.information_state_string(seat) == true.information_state_string(seat),
            view.pile == true.pile,
        )
    )
    return view.legal_actions()[0]


# --- the zero-sum utility ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(2), Rules(3, 2), Rules(4), Rules(2, tie_break="shared")])
def test_zero_sum_returns(rules: Rules) -> None:
    n = rules.players
    for seed in range(12):
        game = Game(rules, seed=seed)
        assert game.returns("zero-sum") == [0.0] * n
        game = finished(rules, seed)
        returns = game.returns("zero-sum")
        assert sum(returns) == pytest.approx(0.0)
        winners = game.winners
        for seat, value in enumerate(returns):
            if seat not in winners:
                assert value == pytest.approx(-1 / (n - 1))
            else:
                assert value == pytest.approx((n - len(winners)) / (len(winners) * (n - 1)))
        if n == 2:
            assert returns in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_zero_sum_is_zero_for_a_shared_result() -> None:
    rules = Rules(2, tie_break="shared")
    shared = next(game for seed in range(2000) if len((game := finished(rules, seed)).winners) == 2)
    assert shared.returns("zero-sum") == [0.0, 0.0]
    assert shared.returns("win") == [0.5, 0.5]


def test_zero_sum_reaches_the_environments() -> None:
    games = indigo.VectorGames(3, Rules(3), seed=1, utility="zero-sum")
    assert games.utility == "zero-sum"
    _, masks, _ = games.reset()
    ended = np.zeros(3, np.bool_)
    while not ended.all():
        _, masks, rewards, terminations, _ = games.step(masks.argmax(axis=1))
        for row in np.flatnonzero(terminations & ~ended):
            assert rewards[row].sum() == pytest.approx(0.0)
            assert sorted(rewards[row].tolist())[-1] > 0 > sorted(rewards[row].tolist())[0]
        ended |= terminations
    env = indigo_v0.env(players=3, utility="zero-sum")
    env.reset(seed=3)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        action = (
            None
            if termination or truncation
            else int(np.flatnonzero(observation["action_mask"])[0])
        )
        env.step(action)
    game = env.unwrapped.game
    assert list(rewards.values()) == game.returns("zero-sum")
    assert sum(rewards.values()) == pytest.approx(0.0)
    with pytest.raises(indigo.IndigoError, match="'zero-sum'"):
        indigo_v0.env(utility="draw")
