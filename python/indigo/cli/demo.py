"""``indigo demo [--game G] [--players N] [--seed S] [--theme T] [--hand-size H] [--bot B] ...``:
watch a whole game of Indigo or Azul: Queen's Garden between bots in the terminal."""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from typing import Any

from indigo import Game
from indigo.bots import Bot, make_bot
from indigo.cli import _common
from indigo.games import GAMES, find_game
from indigo.narration import explain, result_lines
from indigo.render.terminal import board_text, legend_text, status_text, use_colour
from indigo.table import demo_rules

MAX_DELAY = 3600.0
"""The longest pause ``indigo demo --delay`` takes, in seconds."""
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
        "Garden between two simple random bots (one seeded rng for all seats), set up from "
        "SEED; it uses the default scoring wheel, which is a PLACEHOLDER, not the printed wheel, "
        "and the unverified default jokers (fountain 1, statue 2, bench 2, pavilion 3). The "
        "Indigo options (--theme, --hand-size, --gates, --bot, --board-every) do not apply.",
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
        default="greedy",
        help="every seat's bot: random, greedy, ismcts, ismcts:N, ismcts:time=SECONDS "
        "(default: greedy)",
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


def demo_bots(spec: str, players: int, seed: int) -> list[Bot]:
    """One bot per seat; seat ``i``'s is seeded with ``seed + i``."""
    return [make_bot(spec, seed=seed + seat) for seat in range(players)]


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


def indigo_demo(args: argparse.Namespace, seed: int, *, colour: bool, delay: float) -> int:
    """``indigo demo`` of Indigo: ``args.bot`` in every seat, each move narrated, the board
    every ``args.board_every`` moves (and every move when the screen is cleared)."""
    rules = demo_rules(args.players, args.theme, args.hand_size, args.gates)
    game = Game(rules, seed=seed)
    bots = demo_bots(args.bot, rules.players, seed)
    clear = delay > 0 and colour
    codes = args.codes
    out = sys.stdout

    title = "Butterfly Garden" if rules.theme == "butterfly-garden" else "Indigo"
    gates = f", {rules.three_player_gates} gates" if rules.players == 3 else ""
    header = (
        f"{title}: {rules.players} players, hands of {rules.hand_size}{gates}, "
        f"{args.bot} bots, seed {seed}"
    )
    print(header, file=out)
    print(legend_text(rules, colour=colour, codes=codes), file=out)
    print(file=out)
    print(board_text(game, colour=colour, codes=codes), file=out)
    print(status_text(game, colour=colour), file=out)
    out.flush()

    while not game.over and game.to_move is not None:
        seat = game.to_move
        move = bots[seat].choose(game)
        result = game.play(move)
        if clear:
            out.write("\x1b[H\x1b[2J")
            print(header, file=out)
        print(file=out)
        print("\n".join(explain(game, result, colour=colour)), file=out)
        every = args.board_every
        if clear or game.over or (every and len(game.moves) % every == 0):
            print(board_text(game, colour=colour, codes=codes), file=out)
        print(status_text(game, colour=colour), file=out)
        out.flush()
        if delay:
            time.sleep(delay)

    print(file=out)
    print("\n".join(result_lines(game, colour=colour)), file=out)
    return 0
