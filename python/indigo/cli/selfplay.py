"""``indigo selfplay --bots ismcts:800 --games G --out DIR [--backend ray] [--json]``: play
self-play games into records and Parquet training samples; rerun to resume."""

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
    add_bots(selfplay, "ismcts:800 or ismcts:800,greedy")
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
    rules = batch_rules(args)
    with backend(args) as chosen, progress_bar() as report:
        try:
            summary = run_selfplay(
                args.bots,
                args.games,
                args.out,
                rules=rules,
                seed=args.seed,
                shard_size=args.shard_size,
                backend=chosen,
                progress=report,
            )
        except IndigoError as exc:
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
