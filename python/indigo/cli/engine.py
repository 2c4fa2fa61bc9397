"""``indigo engine``: answer the engine protocol (:mod:`indigo.engine`) on standard input and
output until ``quit``; the protocol is in ``docs/embedding.md``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from indigo.engine import serve


def add_parser(sub: Any) -> None:
    engine = sub.add_parser(
        "engine",
        help="drive the bots over a line protocol on stdin/stdout (like UCI)",
        description="Read protocol lines on standard input and answer on standard output: "
        "indigo, isready, game, rules, position, moves, legal, status, record, go, play, undo, "
        "quit. See docs/embedding.md.",
    )
    engine.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return serve(sys.stdin.buffer, sys.stdout)
