"""What the commands share: the error they report, the parser class, argument types, record
reading, and the bot, rules and backend options of ``tournament`` and ``selfplay``."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn, TextIO

from indigo import IndigoError, RecordError, Rules
from indigo import queens_garden as qg
from indigo._native import normalize_bot_spec
from indigo.bots import SEED_LIMIT, split_bot_specs
from indigo.distributed import LocalBackend, RayBackend, make_backend
from indigo.games import GAMES, find_game
from indigo.records import read_record as read_record_stream

PROG = "indigo"


class CliError(Exception):
    """A user error of a command: reported as one line on stderr, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse with each error on one line, ``indigo COMMAND: error: ...``, status 2 (the
    subcommands' parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {text} (see {self.prog} --help)\n")


# ---------------------------------------------------------------------------------------------
# Argument types: each raises ArgumentTypeError, which the parser reports as a usage error.


def seed(text: str) -> int:
    """A seed ``0 <= seed < SEED_LIMIT``."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"must be 0 .. 2**63-1, not {value}")
    return value


def count(text: str) -> int:
    """An integer ``>= 0``."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, not {value}")
    return value


def positive(text: str) -> int:
    """An integer ``>= 1``."""
    value = count(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def port(text: str) -> int:
    """A TCP port, 0 to 65535."""
    value = count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be 0 to 65535, not {value}")
    return value


def output_file(text: str) -> str:
    """A file to write in a folder that exists (checked before any work, so that a game is not
    played for nothing); whether it may be written shows only when it is."""
    if not text:
        raise argparse.ArgumentTypeError("empty: name a file")
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: it is a folder")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: {path.parent} is not a folder")
    return text


def bot_spec(text: str) -> str:
    """A bot spec in its canonical text."""
    try:
        return normalize_bot_spec(text)
    except IndigoError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def bot_specs(text: str) -> list[str]:
    """Comma-separated bot specs (ismcts settings may follow their bot)."""
    return [bot_spec(spec) for spec in split_bot_specs(text)]


# ---------------------------------------------------------------------------------------------
# Records


def read_record(path: str, stdin: TextIO | None = None) -> dict[str, Any]:
    """The parsed JSON object in ``path`` (``-``: standard input), read by
    :func:`indigo.records.read_record` (size cap, UTF-8 only). Raises :class:`CliError`."""
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            stream = stdin or sys.stdin
            return read_record_stream(getattr(stream, "buffer", stream))
        with open(path, "rb") as f:
            return read_record_stream(f)
    except OSError as exc:
        raise CliError(f"{name}: {exc.strerror or exc}") from None
    except RecordError as exc:
        raise CliError(f"{name}: {exc}") from None


def record_error(exc: RecordError) -> CliError:
    """One message that starts with the offending field or move."""
    where = f"moves[{exc.at}]" if isinstance(exc.at, int) else str(exc.at)
    message = str(exc)
    if not message.startswith(where):
        message = f"{where}: {message}"
    return CliError(message)


# ---------------------------------------------------------------------------------------------
# The options of the commands that play many games (tournament, selfplay)


def add_bots(command: argparse.ArgumentParser, example: str, *, required: bool = True) -> None:
    command.add_argument(
        "--bots",
        type=bot_specs,
        required=required,
        metavar="SPECS",
        help=f"comma-separated bots, e.g. {example} "
        "(ismcts settings may follow: ismcts:500,c=0.5,threads=2)",
    )


def add_rules(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--game",
        choices=[entry.name for entry in GAMES],
        default=GAMES[0].name,
        help="the game; --hand-size and --gates are Indigo's and do not apply to "
        "queens-garden (default: indigo)",
    )
    command.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    command.add_argument("--hand-size", type=int, choices=(1, 2), default=1)
    command.add_argument("--gates", choices=("shared", "exclusive"), default="shared")
    command.add_argument("--seed", type=seed, default=0, help="(default: 0)")


def batch_rules(args: argparse.Namespace) -> Rules | qg.Rules:
    """The rules that ``--game``, ``--players``, ``--hand-size`` and ``--gates`` name."""
    rules: Rules | qg.Rules = find_game(args.game).table_rules(
        args.players, "indigo", args.hand_size, args.gates
    )
    return rules


def add_backend(command: argparse.ArgumentParser, batch_help: str | None) -> None:
    command.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where games run: every core of this machine, or tasks on a Ray cluster "
        "(needs the 'ray' extra) (default: local)",
    )
    command.add_argument(
        "--address",
        help="the Ray cluster to join, e.g. 127.0.0.1:6379 or auto (default: RAY_ADDRESS, "
        "else a Ray started on this machine)",
    )
    command.add_argument(
        "--workers",
        type=positive,
        help="Ray tasks at once, one CPU each (default: the cluster's CPUs)",
    )
    command.add_argument(
        "--threads",
        type=count,
        default=0,
        help="local worker threads (default: 0, every core)",
    )
    if batch_help is not None:
        command.add_argument("--batch-size", type=positive, metavar="GAMES", help=batch_help)


@contextlib.contextmanager
def backend(args: argparse.Namespace) -> Iterator[LocalBackend | RayBackend]:
    """The backend the arguments name, connected while in use; a missing Ray says how to
    install it, a cluster that cannot be reached is one line."""
    try:
        chosen = make_backend(
            args.backend, address=args.address, workers=args.workers, threads=args.threads
        )
        if isinstance(chosen, RayBackend):
            chosen.connect()
    except (ImportError, ValueError) as exc:  # RunError is a ValueError
        raise CliError(str(exc)) from None
    with chosen if isinstance(chosen, RayBackend) else contextlib.nullcontext():
        yield chosen


def silence_stdout() -> None:
    """Point standard output at the null device (its reader went away)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
