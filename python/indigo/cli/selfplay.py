"""``indigo selfplay --bots ismcts:800 --games G --out DIR [--backend ray] [--json]``: play
self-play games into records and Parquet training samples; rerun to resume.
``--puct MODULE:FUNCTION`` plays them with :class:`indigo.PuctBot` steered by that evaluator
instead (docs/alphazero.md)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from indigo import IndigoError, PuctBot
from indigo.cli._common import (
    CliError,
    add_backend,
    add_bots,
    add_rules,
    backend,
    batch_rules,
    positive,
)
from indigo.tournament import progress_bar


def add_parser(sub: Any) -> None:
    selfplay = sub.add_parser(
        "selfplay",
        help="play self-play games into records and Parquet training samples",
        description="Play games between bots (seats rotating as in a tournament; one bot "
        "plays every seat) and write each shard of games as indigo-record/1 (or "
        "queens-garden-record/1) lines "
        "(records-NNNNN.jsonl) and training samples (samples-NNNNN.parquet: observation, "
        "legal mask (Queen's Garden: the legal actions listed), ISMCTS visit counts, final "
        "outcome for the mover; docs/distributed.md). "
        "Rerunning with the same folder and settings skips finished shards.",
    )
    add_bots(selfplay, "ismcts:800 or ismcts:800,greedy", required=False)
    selfplay.add_argument(
        "--puct",
        metavar="MODULE:FUNCTION",
        help="instead of --bots: AlphaZero self-play, indigo.PuctBot in every seat steered by "
        "this evaluator(observations, masks) -> (priors, values), imported from the current "
        "folder or the Python path (docs/alphazero.md)",
    )
    selfplay.add_argument(
        "--simulations",
        type=positive,
        default=200,
        help="with --puct: simulations per move (default: 200; noise 0.25, temperature 1)",
    )
    selfplay.add_argument(
        "--in-flight",
        type=positive,
        default=1,
        metavar="K",
        help="with --puct: games played at a time, their searches sharing each evaluator call "
        "(default: 1; the same games for an evaluator that answers each position alike in any "
        "batch)",
    )
    selfplay.add_argument("--games", type=positive, required=True)
    selfplay.add_argument("--out", required=True, metavar="DIR", help="the output folder")
    selfplay.add_argument(
        "--shard-size", type=positive, default=100, metavar="GAMES", help="(default: 100)"
    )
    add_rules(selfplay)
    add_backend(selfplay, None)
    selfplay.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object at the end: {"games", "shards_written", "shards_skipped", '
        '"samples_written", "folder"}',
    )
    selfplay.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Shards into ``--out``; a summary line, or JSON with ``--json``."""
    try:  # the selfplay extra (pyarrow)
        from indigo.selfplay import run_selfplay
    except ImportError as exc:
        raise CliError(str(exc)) from None
    if (args.bots is None) == (args.puct is None):
        raise CliError("give --bots or --puct (an evaluator), one of them")
    rules = batch_rules(args)
    with backend(args) as chosen, progress_bar() as report:
        try:
            summary = run_selfplay(
                args.bots if args.puct is None else puct_bot(args.puct, args),
                args.games,
                args.out,
                rules=rules,
                seed=args.seed,
                shard_size=args.shard_size,
                backend=chosen,
                progress=report,
                in_flight=args.in_flight,
            )
        except IndigoError as exc:
            raise CliError(str(exc)) from None
        except EvaluatorFailedError as exc:
            raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(
            f"{summary.games} games in {summary.folder}: {summary.shards_written} shards "
            f"written ({summary.samples_written} samples), {summary.shards_skipped} "
            "already finished"
        )
    return 0


EVALUATOR_SHAPE = (
    "it must be a function evaluator(observations, masks) -> (priors, values) (docs/alphazero.md)"
)


class EvaluatorFailedError(Exception):
    """The ``--puct`` evaluator raised: the object named is not an evaluator, or it failed."""


def evaluator(name: str) -> Callable[..., Any]:
    """The function ``MODULE:FUNCTION`` names (the current folder is searched first), whose
    exceptions become :class:`EvaluatorFailedError` naming it and what it must be."""
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise CliError(f"--puct {name!r}: give MODULE:FUNCTION, e.g. mynet:evaluate")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        found: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise CliError(f"--puct {name!r}: {exc}") from None
    if not callable(found):
        raise CliError(f"--puct {name!r} is not a function; {EVALUATOR_SHAPE}")

    def evaluate(observations: Any, masks: Any) -> Any:
        try:
            return found(observations, masks)
        except Exception as exc:
            raise EvaluatorFailedError(
                f"--puct {name!r} raised {type(exc).__name__}: {exc}; {EVALUATOR_SHAPE}"
            ) from exc

    return evaluate


def puct_bot(name: str, args: argparse.Namespace) -> PuctBot:
    """Self-play's PUCT bot: noise at the root, moves drawn by their visits."""
    return PuctBot(
        evaluator(name),
        args.simulations,
        dirichlet_fraction=0.25,
        temperature=1.0,
        seed=args.seed,
    )
