"""Cost of the Python surface, and native playout rate for comparison, in one run.

Run: python benches/python_api.py [--games N]
Prints one JSON object; figures from one run on a shared machine are best read as ratios.
"""

from __future__ import annotations

import argparse
import json
import time

import indigo


def recorded_games(n: int) -> list[tuple[indigo.Game, list[indigo.Move]]]:
    """``n`` seeded random games: the fresh game and the moves that were played in it."""
    out = []
    for seed in range(n):
        game = indigo.Game(indigo.Rules.indigo(2), seed=seed)
        bot = indigo.RandomBot(seed)
        fresh = game.clone()
        while not game.over:
            game.play(bot.choose(game))
        out.append((fresh, game.moves))
    return out


def per_call(games: list[tuple[indigo.Game, list[indigo.Move]]]) -> dict[str, float]:
    play_s = legal_s = clone_s = 0.0
    calls = 0
    for fresh, moves in games:
        game = fresh.clone()
        for move in moves:
            t0 = time.perf_counter()
            game.legal_moves  # noqa: B018 - the property call is what is measured
            t1 = time.perf_counter()
            game.clone()
            t2 = time.perf_counter()
            game.play(move)
            t3 = time.perf_counter()
            legal_s += t1 - t0
            clone_s += t2 - t1
            play_s += t3 - t2
            calls += 1
    return {
        "play_call_ns": play_s / calls * 1e9,
        "legal_moves_call_ns": legal_s / calls * 1e9,
        "clone_call_ns": clone_s / calls * 1e9,
        "calls": calls,
    }


def python_loop_rate(games: list[tuple[indigo.Game, list[indigo.Move]]]) -> float:
    """Placements per second of a plain Python loop: legal moves, pick one, play."""
    placements = 0
    t0 = time.perf_counter()
    for fresh, _ in games:
        game = fresh.clone()
        while not game.over:
            moves = game.legal_moves
            game.play(moves[placements % len(moves)])
            placements += 1
    return placements / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    games = recorded_games(args.games)
    figures = per_call(games)
    figures["python_loop_placements_per_s"] = python_loop_rate(games)
    print(json.dumps({k: round(v, 1) for k, v in figures.items()}, indent=2))


if __name__ == "__main__":
    main()
