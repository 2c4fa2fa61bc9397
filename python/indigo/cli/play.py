"""``indigo play [--game G] --players human,greedy[,...] [--save FILE] ...``: play in the
terminal, people and bots at one table (:class:`indigo.play.TerminalPlay`; Queen's Garden:
:class:`indigo.queens_garden.play.TerminalPlay`)."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

from indigo.bots import SEED_LIMIT
from indigo.cli import _common
from indigo.cli._common import CliError, output_file
from indigo.games import GAMES, find_game
from indigo.render.terminal import use_colour
from indigo.session import InputNotTextError, TerminalSession
from indigo.table import parse_seats


def add_parser(sub: Any) -> None:
    play = sub.add_parser(
        "play",
        help="play a game in the terminal against bots or people",
        description="Play in the terminal. Each seat is 'human' or a bot spec (random, "
        "greedy, ...). Type a move as T@R:Q,R (Queen's Garden: in its notation, or any start "
        "of one); type 'help' at the prompt for more.",
    )
    play.add_argument(
        "--game",
        choices=[entry.name for entry in GAMES],
        default=GAMES[0].name,
        help="indigo, or queens-garden (its scoring wheel is a placeholder)",
    )
    play.add_argument("--players", default="human,greedy", metavar="SEAT,SEAT[,...]")
    play.add_argument("--hand-size", type=int, choices=(1, 2), default=None)
    play.add_argument("--theme", choices=("indigo", "butterfly-garden"), default="indigo")
    play.add_argument("--seed", type=_common.seed, default=None)
    play.add_argument(
        "--save", type=output_file, default=None, metavar="FILE", help="write the record here"
    )
    play.add_argument("--no-colour", "--no-color", dest="no_colour", action="store_true")
    play.add_argument(
        "--codes", action="store_true", help="show placed tiles as T@R codes, not their paths"
    )
    play.set_defaults(run=run)


def run(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    """Play with the parsed arguments, reading the people's lines from ``stdin``."""
    try:
        seats = parse_seats(args.players, game=args.game)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    seed = args.seed if args.seed is not None else random.randrange(SEED_LIMIT)
    entry = find_game(args.game)
    session: TerminalSession[Any, Any] = entry.terminal_play(
        entry.table_rules(len(seats), args.theme, args.hand_size, "shared"),
        seats,
        seed=seed,
        stdin=stdin or sys.stdin,
        out=sys.stdout,
        colour=use_colour(args.no_colour),
        save=args.save,
        codes=args.codes,
    )
    return _run(session, args.save)


def _run(session: TerminalSession[Any, Any], save: str | None) -> int:
    """Play ``session``; a record that cannot be written to ``save``, or input that is not
    text, is a :class:`CliError`."""
    try:
        return session.run()
    except InputNotTextError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        if save is None or exc.filename != save:
            raise
        raise CliError(f"{save}: {exc.strerror or exc}") from None
