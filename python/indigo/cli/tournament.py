"""``indigo tournament --bots ismcts:1000,greedy,random [--players N] [--games G] [--json]``:
play bots against each other in every seat and report win rates, on this machine or on a Ray
cluster (``--backend ray [--address A]``)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from indigo import IndigoError
from indigo.cli._common import (
    CliError,
    add_backend,
    add_bots,
    add_rules,
    backend,
    batch_rules,
    positive,
)
from indigo.tournament import print_table, run_with_progress, tournament_games


def add_parser(sub: Any) -> None:
    tournament = sub.add_parser(
        "tournament",
        help="play bots against each other and compare them",
        description="Play bots against each other inside Rust on every core. Seats rotate so "
        "that every bot plays every seat equally often (the game count is rounded up to whole "
        "rotations), and game i depends only on the seed and i. Reports each bot's win rate "
        "with a Wilson 95 %% confidence interval, its mean points and its mean points by seat. "
        "A shared win counts as a win for each winner.",
    )
    add_bots(tournament, "ismcts:1000,greedy,random")
    tournament.add_argument("--games", type=positive, default=100, help="(default: 100)")
    add_rules(tournament)
    add_backend(
        tournament,
        "games per task (default: all games locally; on Ray a quarter of the games per worker)",
    )
    tournament.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object instead: {"games", "players", "results": [{"bot", "wins", '
        '"win_rate", "ci95", "mean_points", "mean_points_by_seat", "games"}]}',
    )
    tournament.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The results table, or one JSON object with ``--json``."""
    rules = batch_rules(args)
    try:
        # Before connecting to anything: a lineup too large to play, or too many games.
        tournament_games(args.games, len(args.bots), args.players)
        with backend(args) as chosen:
            result = run_with_progress(
                args.bots,
                players=args.players,
                games=args.games,
                rules=rules,
                seed=args.seed,
                backend=chosen,
                span=args.batch_size,
            )
    except IndigoError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print_table(result)
    return 0
