"""``indigo demo [--game G] [--players N] [--seed S] [--theme T] [--hand-size H] [--bot B] ...``:
watch a whole game of Indigo or Azul: Queen's Garden between bots in the terminal."""

from __future__ import annotations

import argparse
import math
import random
import sys
from typing import Any

from indigo.cli import _common
from indigo.games import GAMES, find_game
from indigo.render.terminal import use_colour

MAX_DELAY = 3600.0
"""The longest pause ``indigo demo --delay`` takes, in seconds."""
DEMO_BOT = "best:1000"
"""Every seat's bot in ``indigo demo``: the strongest, on a simulation budget (reproducible)."""
DEMO_PACE = 0.8
"""The pause after each move of ``indigo demo`` on a terminal, in seconds."""


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_DELAY:
        raise argparse.ArgumentTypeError(f"must be 0 to {MAX_DELAY:g} seconds, not {text}")
    return value


def add_parser(sub: Any) -> None:
    demo = sub.add_parser(
        "demo",
        help="watch a game between bots",
        description="Play a whole game between bots and show it: each move, what the gems "
        "did, the board, and the result. Seat i's bot is seeded with SEED + i and the pile "
        "with SEED, so a seed replays the same game. With --game queens-garden: Azul: Queen's "
        "Garden, set up from SEED; it uses the default scoring wheel, which is a PLACEHOLDER, "
        "not the printed wheel, and the unverified default jokers (fountain 1, statue 2, "
        "bench 2, pavilion 3). The Indigo options (--theme, --hand-size, --gates, "
        "--board-every) do not apply.",
    )
    demo.add_argument(
        "--game",
        choices=[entry.name for entry in GAMES],
        default=GAMES[0].name,
        help="indigo, or queens-garden (its scoring wheel is a placeholder, not the printed "
        "wheel) (default: indigo)",
    )
    demo.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    demo.add_argument(
        "--seed",
        type=_common.seed,
        default=None,
        help="seed of the pile and the bots (default: random)",
    )
    demo.add_argument("--theme", choices=("indigo", "butterfly-garden"), default="indigo")
    demo.add_argument(
        "--hand-size",
        type=int,
        choices=(1, 2),
        default=None,
        help="tiles in hand (default: 1 for Indigo, 2 for Butterfly Garden)",
    )
    demo.add_argument(
        "--gates",
        choices=("shared", "exclusive"),
        default="shared",
        help="three players: shared gates (standard) or one gate each (variant)",
    )
    demo.add_argument(
        "--bot",
        type=_common.bot_spec,
        default=DEMO_BOT,
        help="every seat's bot: random, greedy, ismcts, ismcts:N, ismcts:time=SECONDS, "
        f"best, best:time=SECONDS (default: {DEMO_BOT}: the strongest bot, searching a "
        "fixed number of simulations so that a seed replays the same game)",
    )
    demo.add_argument(
        "--delay",
        type=_delay,
        default=None,
        metavar="SECONDS",
        help=f"pause after each move (default: {DEMO_PACE:g} on a terminal, 0 when piped)",
    )
    demo.add_argument("--fast", action="store_true", help="no pause: the same as --delay 0")
    demo.add_argument(
        "--codes", action="store_true", help="show placed tiles as T@R codes, not their paths"
    )
    demo.add_argument(
        "--board-every",
        type=_common.count,
        default=1,
        metavar="N",
        help="draw the board after every N moves (0: only at the start and the end)",
    )
    demo.add_argument(
        "--no-colour",
        "--no-color",
        dest="no_colour",
        action="store_true",
        help="plain text (also when stdout is not a terminal or NO_COLOR is set)",
    )
    demo.set_defaults(run=run)


def _demo_delay(args: argparse.Namespace) -> float:
    """The demo's pause after each move: as asked, else a pace a person can follow on a
    terminal and none when the output goes elsewhere."""
    if args.fast:
        return 0.0
    if args.delay is not None:
        return float(args.delay)
    try:
        return DEMO_PACE if sys.stdout.isatty() else 0.0
    except (AttributeError, ValueError):
        return 0.0


def run(args: argparse.Namespace) -> int:
    """A whole game between bots, narrated."""
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    demo = find_game(args.game).demo
    return int(demo(args, seed, colour=use_colour(args.no_colour), delay=_demo_delay(args)))
