"""``indigo play``: play a game in the terminal, people and bots at one table.

Each seat is ``"human"`` or a bot spec for :func:`indigo.make_bot` (seat ``i``'s bot is seeded
with ``seed + i``, as in ``indigo demo``). At a person's turn the board, the scores and the hand
are shown and a prompt reads one line:

``T@R:Q,R``   place tile T at rotation R on cell (q, r) (the move notation)
``T@R``       preview: tile T turned R times, its paths, and the cells where it may go
``undo``      take back your last move (and the bot moves after it)
``board``     draw the board again; ``help``: the commands; ``quit``: stop (the record is saved)

A bad line prints one ``error: ...`` line and asks again; the game is unchanged. Quitting a game
with moves that are not saved (no ``--save``) asks first. The screen shows a person only what
their seat may see: the other seats' hands are ``?`` unless the rules open them
(:meth:`~indigo.Game.visible_hands`); a table of bots alone is watched by spectators, who see all.
Placed tiles are drawn as their paths; ``codes`` shows the ``T@R`` codes instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
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
from indigo.table import HUMAN, legal_cells, parse_seats, undo_to_person

__all__ = [
    "HUMAN",
    "TerminalPlay",
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
  help      this list
  quit      stop now (the record is saved with --save; without it, you are asked first)"""


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


class TerminalPlay:
    """One game at the terminal: reads commands from ``stdin``, writes everything to ``out``."""

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
        self.game = Game(rules, seed=seed)
        self.seats = list(seats)
        self.bots: dict[int, Bot] = {
            seat: make_bot(spec, seed=seed + seat)
            for seat, spec in enumerate(seats)
            if spec != HUMAN
        }
        self.seed = seed
        self.stdin = stdin
        self.out = out
        self.colour = colour
        self.save = save
        self.codes = codes
        people = [s for s in range(rules.players) if s not in self.bots]
        self.viewer: int | None = people[0] if people else None
        """The seat whose view the screen shows: the person who moved last (``None``: no person
        sits at the table, so whoever watches may see everything)."""

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def show(self) -> None:
        self.say(
            "",
            board_text(self.game, colour=self.colour, codes=self.codes),
            status_text(self.game, colour=self.colour, viewer=self.viewer),
        )

    def run(self) -> int:
        """Play until the game ends or a person quits; the exit status."""
        game = self.game
        names = ", ".join(f"P{s} {spec}" for s, spec in enumerate(self.seats))
        self.say(
            f"{game.rules.theme}: {names}; hand size {game.rules.hand_size}, seed {self.seed}",
            legend_text(game.rules, colour=self.colour, codes=self.codes),
            "Type help for the commands.",
        )
        shown = False
        while not self.game.over and self.game.to_move is not None:
            seat = self.game.to_move
            bot = self.bots.get(seat)
            if bot is not None:
                result = self.game.play(bot.choose(self.game))
                self.say(*explain(self.game, result, colour=self.colour))
                shown = False
                continue
            self.viewer = seat
            if not shown:
                self.show()
                shown = True
            line = self._read(seat)
            if line is None or (
                line.strip().lower() in ("quit", "exit", "q") and self._confirm_quit()
            ):
                self.say(f"Stopped after {len(self.game.moves)} moves.")
                return self._finish()
            if line.strip().lower() in ("quit", "exit", "q"):
                continue
            shown = self.command(seat, line.strip())
        self.show()
        self.say("", *result_lines(self.game, colour=self.colour))
        return self._finish()

    def _confirm_quit(self) -> bool:
        """Whether to quit: at once when nothing would be lost, else when the person says so."""
        played = len(self.game.moves)
        if self.save is not None or not played:
            return True
        self.out.write(f"Quit and lose the {played} moves played (no --save)? [y/N] ")
        self.out.flush()
        answer = self.stdin.readline()
        if not _is_tty(self.stdin):
            self.say(answer.rstrip("\n"))
        if not answer:  # end of input: nothing more can be played
            return True
        if answer.strip().lower() in ("y", "yes"):
            return True
        self.say("Not quitting: play on.")
        return False

    def _read(self, seat: int) -> str | None:
        hand = ",".join(map(str, self.game.hand(seat)))
        label = seat_label(self.game.rules, seat, colour=self.colour)
        self.out.write(f"{label} hand {hand} > ")
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            self.say("")
            return None
        if not _is_tty(self.stdin):  # echo piped input, so the transcript reads as typed
            self.say(line.rstrip("\n"))
        return line

    def command(self, seat: int, line: str) -> bool:
        """Carry out one line typed by ``seat``; whether the board on screen is still current."""
        word = line.lower()
        if not word:
            return True
        if word in ("help", "?"):
            self.say(HELP)
            return True
        if word == "board":
            return False
        if word == "codes":
            self.codes = not self.codes
            return False
        if word == "undo":
            return self._undo()
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
        self.say(*explain(self.game, result, colour=self.colour))
        return False

    def _undo(self) -> bool:
        """Undo back to before the last move a person made; an error line if there is none."""
        earlier = undo_to_person(self.game, self.bots)
        if earlier is None:
            self.say("error: no move of yours to undo")
            return True
        self.game = earlier
        self.say(f"Undone: back to move {len(earlier.moves)}.")
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

    def _finish(self) -> int:
        """Save the record if asked (an :class:`OSError` if it cannot be written)."""
        if self.save is not None:
            Path(self.save).write_text(self.game.record_json() + "\n", encoding="utf-8")
            self.say(f"Record saved to {self.save}.")
        return 0


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
