"""Figures for docs/envs.md: adapter throughput, and our ISMCTS against OpenSpiel's on the adapter.

Run (one core, as the note's figures were made):
    nice -n 19 python benches/envs.py throughput [--envs 256] [--seconds 5]
    nice -n 19 python benches/envs.py match [--games 200] [--time 0.05] [--seed 1]
    nice -n 19 python benches/envs.py step [--envs 1024] [--steps 300] [--dtype uint8] [--no-copy]
    nice -n 19 python benches/envs.py lockstep --before OTHER/_native.so [--dtype uint8] [--no-copy]
    nice -n 19 python benches/envs.py opponents [--envs 64] [--steps 300]

``throughput`` steps ``indigo.VectorGames`` (one Rust call per step for all games, random legal
actions picked with numpy) and the PettingZoo env ``indigo_v0.env()`` (random legal actions from
the observation's mask, one Python call per move) and prints one JSON object: moves per second
of each and their ratio (the vector loop includes picking the actions with numpy; the rate of
its ``step`` calls alone is given too). ``match`` plays seat-balanced 2-player games of
``indigo.IsmctsBot`` (``time=T``, one thread) against OpenSpiel's Python ``ISMCTSBot`` on
``python_indigo`` with the same wall time per move; each pair of games shares a deal with the
seats swapped. It prints the settings, the mean seconds per move of each bot, and our win share
with a Wilson 95% interval. ``lockstep`` steps this build's ``VectorGames`` and another
build's (``--before``: its ``indigo/_native*.so``, with fresh arrays) in one process with the
same actions, alternating which goes first, and prints each run's ratio of their step calls'
thread CPU time (before over this build) and the median. ``opponents`` steps ``VectorGames``
against ``"greedy"`` inside Rust and :class:`indigo.PolicyVectorGames` against the same spec
and a Python callable, and prints the moves (the bots' included) per second of each.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import indigo
import indigo.envs.openspiel
from indigo.envs import indigo_v0
from indigo.tournament import wilson_interval


def vector_rate(envs: int, seconds: float) -> tuple[float, float]:
    """Moves per second of ``VectorGames`` (steps that start a new episode not counted): of the
    whole loop, and of the ``step`` calls alone (without picking the actions in numpy)."""
    games = indigo.VectorGames(envs, seed=1)
    _, masks, _ = games.reset()
    rng = np.random.default_rng(1)
    moves = 0
    stepping = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        # A random legal action per game: the legal action with the largest random key.
        actions = np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)
        moves += int(masks.any(axis=1).sum())
        t0 = time.perf_counter()
        _, masks, _, _, _ = games.step(actions)
        stepping += time.perf_counter() - t0
    return moves / (time.perf_counter() - start), moves / stepping


def step_rate(envs: int, steps: int, dtype: str, copy: bool) -> dict[str, Any]:
    """Moves per second of thread CPU time of ``VectorGames.step`` calls alone (and of the whole
    loop), ``steps`` steps of ``envs`` games with random legal actions: the figure of issue 18.
    Works on builds without ``copy`` (then only ``copy=True`` is measured)."""
    options: dict[str, Any] = {} if dtype == "float32" else {"observation_dtype": dtype}
    if not copy:
        options["copy"] = False
    games = indigo.VectorGames(envs, seed=1, **options)
    _, masks, _ = games.reset()
    rng = np.random.default_rng(1)
    moves = 0
    stepping = 0.0
    start = time.thread_time()
    for _ in range(steps):
        actions = np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)
        moves += int(masks.any(axis=1).sum())
        t0 = time.thread_time()
        _, masks, _, _, _ = games.step(actions)
        stepping += time.thread_time() - t0
    return {
        "module": indigo.__file__,
        "envs": envs,
        "dtype": dtype,
        "copy": copy,
        "step_calls_moves_per_s": round(moves / stepping),
        "loop_moves_per_s": round(moves / (time.thread_time() - start)),
    }


def lockstep_ratios(
    before_path: str, envs: int, steps: int, dtype: str, copy: bool, runs: int
) -> dict[str, Any]:
    """``runs`` runs of ``steps`` steps of this build's ``VectorGames`` and ``before_path``'s
    (an ``indigo._native`` extension file of another build, with its default fresh arrays) side
    by side on the same games and actions; the ratio of their step calls' thread CPU time."""
    spec = importlib.util.spec_from_file_location("before_build._native", before_path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"not an extension module: {before_path}")
    before = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(before)
    options: dict[str, Any] = {} if dtype == "float32" else {"observation_dtype": dtype}
    ratios = []
    for run in range(runs):
        sides = [before.VectorGames(envs, seed=1, **options)]
        sides.append(indigo.VectorGames(envs, seed=1, copy=copy, **options))
        masks = [side.reset()[1] for side in sides]
        seconds = [0.0, 0.0]
        rng = np.random.default_rng(run)
        for index in range(steps):
            actions = np.argmax(np.where(masks[1], rng.random(masks[1].shape), -1.0), axis=1)
            for side in (0, 1) if index % 2 else (1, 0):
                t0 = time.thread_time()
                masks[side] = sides[side].step(actions)[1]
                seconds[side] += time.thread_time() - t0
            assert (masks[0] == masks[1]).all(), "the two builds play different games"
        ratios.append(round(seconds[0] / seconds[1], 3))
    return {
        "before": before_path,
        "envs": envs,
        "dtype": dtype,
        "copy": copy,
        "ratios": ratios,
        "median_ratio": statistics.median(ratios),
    }


def pettingzoo_rate(seconds: float) -> float:
    """Moves per second of the PettingZoo env, observing before every move as agents do."""
    env = indigo_v0.env()
    rng = np.random.default_rng(1)
    moves = 0
    start = time.perf_counter()
    episode = 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=episode)
        episode += 1
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            moves += 1
    return moves / (time.perf_counter() - start)


class _OutOfTimeError(Exception):
    """Raised inside OpenSpiel's search loop when the move's time is up."""


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot searching for ``seconds`` per move instead of a fixed count."""

    def __init__(self, seconds: float, **kwargs: Any) -> None:
        super().__init__(max_simulations=sys.maxsize, **kwargs)
        self.seconds = seconds
        self.deadline = 0.0
        self.simulations = 0

    def run_search(self, state: pyspiel.State) -> Any:
        self.deadline = time.perf_counter() + self.seconds
        try:
            return super().run_search(state)
        except _OutOfTimeError:
            return self.get_final_policy(state, self._root_node)

    def sample_root_state(self, state: pyspiel.State) -> pyspiel.State:
        if time.perf_counter() >= self.deadline and self._root_node.total_visits > 0:
            raise _OutOfTimeError
        self.simulations += 1
        return super().sample_root_state(state)


def match(games: int, seconds: float, seed: int) -> dict[str, Any]:
    game = pyspiel.load_game("python_indigo")
    random_state = np.random.RandomState(seed)
    settings = {
        "uct_c": 0.7,
        "max_world_samples": ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        "final_policy_type": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        "child_selection_policy": ismcts.ChildSelectionPolicy.UCT,
        "use_observation_string": False,
        "allow_inconsistent_action_sets": False,
    }
    theirs = TimedISMCTSBot(
        seconds,
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(1, random_state),
        random_state=random_state,
        **settings,
    )
    score = wins = ties = 0.0
    thinking = {"ours": [0.0, 0], "openspiel": [0.0, 0]}
    started = time.perf_counter()
    for index in range(games):
        pair, their_seat = divmod(index, 2)
        pile = iter(indigo.Game(seed=seed * 10**6 + pair).pile)  # the pair's deal
        ours = indigo.IsmctsBot(time=seconds, exploration=0.7, threads=1, seed=seed + index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(next(pile))
                continue
            t0 = time.perf_counter()
            if state.current_player() == their_seat:
                action = theirs.step(state)
                who = "openspiel"
            else:
                action = ours.choose(state.indigo_game).action
                who = "ours"
            thinking[who][0] += time.perf_counter() - t0
            thinking[who][1] += 1
            state.apply_action(action)
        share = state.returns()[1 - their_seat]
        score += share
        wins += share == 1.0
        ties += 0.0 < share < 1.0
        print(f"game {index + 1}/{games}: our share {share}", file=sys.stderr, flush=True)
    low, high = wilson_interval(score, games)  # type: ignore[arg-type]  # ties count half
    return {
        "games": games,
        "seconds_per_move": seconds,
        "our_win_share": score / games,
        "ci95": [low, high],
        "wins": int(wins),
        "ties": int(ties),
        "losses": games - int(wins) - int(ties),
        "mean_move_seconds": {k: v[0] / max(v[1], 1) for k, v in thinking.items()},
        "openspiel_simulations_per_move": theirs.simulations / max(thinking["openspiel"][1], 1),
        "openspiel_settings": {k: getattr(v, "name", v) for k, v in settings.items()}
        | {"evaluator": "RandomRolloutEvaluator(n_rollouts=1)"},
        "ours": f"IsmctsBot(time={seconds}, exploration=0.7, threads=1)",
        "wall_seconds": time.perf_counter() - started,
    }


def first_legal(game: indigo.Game) -> int:
    """A policy callable: the first legal action."""
    return game.legal_actions()[0]


def opponents_rate(envs: int, steps: int) -> dict[str, Any]:
    """Moves per second (the learner's and the opponents') of ``envs`` 2-player games stepped
    ``steps`` times with first-legal actions, against native and Python opponents."""
    makers: dict[str, Any] = {
        "native_greedy": lambda: indigo.VectorGames(envs, seed=1, opponents="greedy"),
        "python_greedy": lambda: indigo.PolicyVectorGames(envs, seed=1, opponents="greedy"),
        "python_callable": lambda: indigo.VectorGames(envs, seed=1, opponents=first_legal),
    }
    result: dict[str, Any] = {"envs": envs, "steps": steps}
    for name, make in makers.items():
        games = make()
        _, masks, _ = games.reset()
        moves = 0
        start = time.perf_counter()
        for _ in range(steps):
            _, masks, _, ended, _ = games.step(masks.argmax(axis=1))
            moves += sum(len(games.game(int(i)).moves) for i in np.flatnonzero(ended))
        elapsed = time.perf_counter() - start
        moves += sum(len(games.game(i).moves) for i in range(envs))
        result[f"{name}_moves_per_s"] = round(moves / elapsed)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rate = sub.add_parser("throughput")
    rate.add_argument("--envs", type=int, default=256)
    rate.add_argument("--seconds", type=float, default=5.0)
    step = sub.add_parser("step")
    step.add_argument("--envs", type=int, default=1024)
    step.add_argument("--steps", type=int, default=300)
    step.add_argument("--dtype", choices=["float32", "uint8"], default="float32")
    step.add_argument("--no-copy", action="store_true", help="VectorGames(copy=False)")
    paired = sub.add_parser("lockstep")
    paired.add_argument("--before", required=True, help="another build's indigo/_native*.so")
    paired.add_argument("--envs", type=int, default=1024)
    paired.add_argument("--steps", type=int, default=300)
    paired.add_argument("--runs", type=int, default=3)
    paired.add_argument("--dtype", choices=["float32", "uint8"], default="float32")
    paired.add_argument("--no-copy", action="store_true", help="this build with copy=False")
    against = sub.add_parser("opponents")
    against.add_argument("--envs", type=int, default=64)
    against.add_argument("--steps", type=int, default=300)
    duel = sub.add_parser("match")
    duel.add_argument("--games", type=int, default=200)
    duel.add_argument("--time", type=float, default=0.05)
    duel.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.command == "throughput":
        vector, step_only = vector_rate(args.envs, args.seconds)
        pettingzoo = pettingzoo_rate(args.seconds)
        result: dict[str, Any] = {
            "vector_envs": args.envs,
            "vector_moves_per_s": vector,
            "vector_step_calls_only_moves_per_s": step_only,
            "pettingzoo_moves_per_s": pettingzoo,
            "ratio": vector / pettingzoo,
        }
    elif args.command == "step":
        result = step_rate(args.envs, args.steps, args.dtype, copy=not args.no_copy)
    elif args.command == "lockstep":
        result = lockstep_ratios(
            args.before, args.envs, args.steps, args.dtype, not args.no_copy, args.runs
        )
    elif args.command == "opponents":
        result = opponents_rate(args.envs, args.steps)
    else:
        result = match(args.games, args.time, args.seed)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
