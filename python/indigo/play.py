"""``indigo play``: play a game in the terminal, people and bots at one table.

Each seat is ``"human"`` or a bot spec for :func:`indigo.make_bot` (seat ``i``'s bot is seeded
with ``seed + i``, as in ``indigo demo``). At a person's turn the board, the scores and the hand
are shown and a prompt reads one line:

``T@R:Q,R``   place tile T at rotation R on cell (q, r) (the move notation)
``T@R``       preview: tile T turned R times, its paths, and the cells where it may go
``undo``      take back your last move (and the bot moves after it)
``save [FILE]`` write the record (to ``--save`` without a file)
``board``     draw the board again; ``help``: the commands; ``quit``: stop (the record is saved)

A bad line prints one ``error: ...`` line and asks again; the game is unchanged. Quitting a game
with moves that are not saved (no ``--save``, no ``save FILE`` since) asks first. The screen
shows a person only what their seat may see: the other seats' hands are ``?`` unless the rules
open them (:meth:`~indigo.Game.visible_hands`); a table of bots alone is watched by spectators,
who see all.
Placed tiles are drawn as their paths; ``codes`` shows the ``T@R`` codes instead.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from typing import Final, TextIO

from indigo import TILE_PATHS, Game, IndigoError, Move, Rules, make_bot
from indigo.bots import Bot
from indigo.narration import explain, result_lines
from indigo.render.terminal import (
    EDGE_NAMES,
    board_text,
    legend_text,
    seat_label,
    status_text,
)
from indigo.session import TerminalSession
from indigo.table import HUMAN, demo_rules, legal_cells, parse_seats

__all__ = [
    "HUMAN",
    "TerminalPlay",
    "demo",
    "demo_bots",
    "legal_cells",
    "parse_seats",
    "path_kind",
    "tile_picture",
]

_PREVIEW = re.compile(r"^\s*(\d+)\s*@\s*(\d+)\s*:?\s*$")
HELP: Final = """\
  T@R:Q,R   place tile T (from your hand) turned R x 60 degrees clockwise on cell (Q,R),
            e.g. 3@2:0,-3; the empty cells show their Q,R on the board
  T@R       preview tile T at rotation R: its paths and the cells where it may go
  undo      take back your last move (and the bot moves after it)
  board     draw the board again
  codes     show placed tiles as their T@R codes, or again as paths
  save [FILE]  write the record (default: the --save file)
  help      this list
  quit      stop now (asks first if moves are unsaved)"""


def path_kind(a: int, b: int) -> str:
    """``"straight"``, ``"sharp curve"`` or ``"wide curve"``: the shape joining edges a and b."""
    sep = (b - a) % 6
    return "straight" if sep == 3 else "sharp curve" if sep in (1, 5) else "wide curve"


def tile_picture(tile: int, rotation: int) -> str:
    """Tile ``tile`` at ``rotation`` as a small hexagon: edges joined by a path share a letter."""
    label = [" "] * 6
    pairs = [((a + rotation) % 6, (b + rotation) % 6) for a, b in TILE_PATHS[tile]]
    for letter, (a, b) in zip("abc", pairs, strict=True):
        label[a] = label[b] = letter
    name = f"{tile}@{rotation}"
    lines = [
        f"     ____{label[0]}____",
        "    /         \\",
        f"   {label[5]}   {name:^5}   {label[1]}",
        "  /             \\",
        "  \\             /",
        f"   {label[4]}           {label[2]}",
        f"    \\____{label[3]}____/",
    ]
    joins = ", ".join(
        f"{letter}: {EDGE_NAMES[a]}-{EDGE_NAMES[b]} {path_kind(a, b)}"
        for letter, (a, b) in zip("abc", pairs, strict=True)
    )
    return "\n".join([*lines, f"  {joins}"])


class TerminalPlay(TerminalSession[Game, Bot]):
    """One Indigo game at the terminal: reads commands from ``stdin``, writes to ``out``."""

    help_text = HELP

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[str],
        *,
        seed: int,
        stdin: TextIO,
        out: TextIO,
        colour: bool = False,
        save: str | None = None,
        codes: bool = False,
    ) -> None:
        if len(seats) != rules.players:
            raise ValueError(f"{len(seats)} seats for {rules.players} players")
        super().__init__(
            Game(rules, seed=seed),
            seats,
            make_bot,
            seed=seed,
            stdin=stdin,
            out=out,
            colour=colour,
            save=save,
        )
        self.codes = codes
        people = [s for s in range(rules.players) if s not in self.bots]
        self.viewer: int | None = people[0] if people else None
        """The seat whose view the screen shows: the person who moved last (``None``: no person
        sits at the table, so whoever watches may see everything)."""

    def intro(self) -> list[str]:
        rules = self.game.rules
        names = ", ".join(f"P{s} {spec}" for s, spec in enumerate(self.seats))
        return [
            f"{rules.theme}: {names}; hand size {rules.hand_size}, seed {self.seed}",
            legend_text(rules, colour=self.colour, codes=self.codes),
        ]

    def show(self) -> None:
        self.say(
            "",
            board_text(self.game, colour=self.colour, codes=self.codes),
            status_text(self.game, colour=self.colour, viewer=self.viewer),
        )

    def play_bot(self, seat: int, bot: Bot) -> None:
        result = self.game.play(bot.choose(self.game))
        self.say(*explain(self.game, result, colour=self.colour, notation=True))

    def on_turn(self, seat: int) -> None:
        self.viewer = seat

    def prompt(self, seat: int) -> str:
        hand = ",".join(map(str, self.game.hand(seat)))
        return f"{seat_label(self.game.rules, seat, colour=self.colour)} hand {hand} > "

    def result(self) -> list[str]:
        return result_lines(self.game, colour=self.colour)

    def game_command(self, seat: int, word: str, rest: str, line: str) -> bool:
        if word == "codes":
            self.codes = not self.codes
            return False
        preview = _PREVIEW.match(line)
        if preview:
            self._preview(seat, int(preview.group(1)), int(preview.group(2)))
            return True
        try:
            move = Move.parse(line)
        except IndigoError as exc:
            self.say(f"error: {exc} (type help for the commands)")
            return True
        try:
            result = self.game.play(move)
        except IndigoError as exc:
            self.say(f"error: {exc}")
            return True
        self.say(*explain(self.game, result, colour=self.colour, notation=True))
        return False

    def _preview(self, seat: int, tile: int, rotation: int) -> None:
        if not (0 <= tile < len(TILE_PATHS) and 0 <= rotation < 6):
            self.say("error: a preview is T@R with tile type T 0..4 and rotation R 0..5")
            return
        self.say(tile_picture(tile, rotation))
        cells = legal_cells(self.game).get(tile)
        if cells is None:
            hand = ",".join(map(str, self.game.hand(seat)))
            self.say(f"  you hold no tile {tile} (hand {hand})")
            return
        where = " ".join(f"{q},{r}" for q, r in cells[rotation])
        self.say(f"  may go on {len(cells[rotation])} cells: {where}")


def demo_bots(spec: str, players: int, seed: int) -> list[Bot]:
    """One bot per seat; seat ``i``'s is seeded with ``seed + i``."""
    return [make_bot(spec, seed=seed + seat) for seat in range(players)]


def demo(args: argparse.Namespace, seed: int, *, colour: bool, delay: float) -> int:
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
        print("\n".join(explain(game, result, colour=colour, notation=True)), file=out)
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
