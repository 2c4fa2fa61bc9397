"""The ``indigo`` command line, one module per command:

``indigo replay RECORD.json [--snapshots] [--legal]`` (:mod:`indigo.cli.replay`)
    Check a record of either game and print its positions as snapshot JSON.
``indigo demo [--game G] [--players N] [--seed S] ...`` (:mod:`indigo.cli.demo`)
    Watch a whole game of Indigo or Azul: Queen's Garden between bots in the terminal.
``indigo tournament --bots ismcts:1000,greedy,random ...`` (:mod:`indigo.cli.tournament`)
    Play bots against each other in every seat and report win rates, here or on Ray.
``indigo selfplay --bots ismcts:800 --games G --out DIR ...`` (:mod:`indigo.cli.selfplay`)
    Play self-play games into records and Parquet training samples; rerun to resume.
``indigo bench [--json] [--quick]`` (:mod:`indigo.cli.bench`)
    Time a fixed, seeded workload at every layer; print the figures and a checksum.
``indigo render RECORD.json [--move N] [-o OUT]`` (:mod:`indigo.cli.render`)
    Draw a record's position as SVG or PNG.
``indigo play --players human,greedy ...`` (:mod:`indigo.cli.play`)
    Play in the terminal, people and bots at one table.
``indigo serve [--host H] [--port P]`` (:mod:`indigo.cli.serve`)
    The web app.
``indigo engine`` (:mod:`indigo.cli.engine`)
    Drive the bots over a line protocol on stdin/stdout, in the spirit of UCI.

Errors in the input (a bad record, an unreadable file, invalid JSON, a value out of range, a
place that cannot be written) print one line ``indigo: error: ...`` on standard error and exit
with status 2, as do bad arguments (``indigo COMMAND: error: ...``).

The command line is a leaf: no other module of the package imports it.
"""

from __future__ import annotations

import argparse
import sys

from indigo import __version__
from indigo.cli import bench, demo, engine, play, render, replay, selfplay, serve, tournament
from indigo.cli._common import PROG, CliError, Parser, silence_stdout

__all__ = ["CliError", "build_parser", "main"]

COMMANDS = (replay, demo, tournament, selfplay, bench, render, play, serve, engine)
"""Each command's module, in the order of ``indigo --help``: ``add_parser(sub)`` adds its
subcommand, whose ``run(args)`` carries it out."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``indigo`` command."""
    parser = Parser(
        prog=PROG,
        description="Indigo (and Butterfly Garden) and Azul: Queen's Garden: replay game "
        "records, watch bots play.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``indigo`` command with ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        status: int = args.run(args)
    except CliError as exc:
        message = " ".join(str(exc).split())
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        silence_stdout()
        return 1
    except KeyboardInterrupt:
        return 130
    return status
