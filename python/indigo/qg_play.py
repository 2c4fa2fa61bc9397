"""``indigo play --game queens-garden``: Queen's Garden in the terminal, people and bots.

Each seat is ``"human"`` or a bot spec (``random``, ``greedy``, ``ismcts:N``, ...:
:func:`indigo.queens_garden.make_bot`; seat ``i``'s bot is seeded with ``seed + i``). At a
person's turn the position is shown and a prompt reads a move in the notation of
``docs/queens-garden.md``, or a part of one: what is missing is asked for
(:mod:`indigo.qg_choices`), one question at a time, with numbered answers:

``take 2``          take the birds; for a kind at several slots, which slot is asked
``tile bl3 f0``     place a tile; which payment is asked, from the legal ones
``tile bl``         any typed start narrows the legal moves; ``exp``, ``buy`` alike
``pass ye3 dg4x``   pass, discarding those hexagons (``pass`` alone discards nothing)
``moves [START]``   the legal moves (that start so); ``board``: the position again
``undo``            take back your last move (and the bot moves after it)
``save [FILE]``     write the record (to ``--save`` without a file)
``quit``            stop (asks first when moves are not saved)

A bad line prints one ``error: ...`` line and asks again; the game is unchanged.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Final, TextIO

from indigo import IndigoError
from indigo.play import _is_tty
from indigo.qg_choices import Question, candidates, next_question
from indigo.queens_garden import Game, Move, Rules
from indigo.render.queens_garden import final_text, position_text
from indigo.table import HUMAN, QgBot, make_qg_bot, undo_to_person

__all__ = ["HELP", "QgTerminalPlay"]

HELP: Final = """\
  take ATTR       take every kind showing ATTR (bl ye lg dg lp dp, or a pattern 1..6); a kind
                  at several slots: the slot is asked (or type KIND@SLOT, e.g. take 2 ye2@0)
  tile KIND CELL  place a stored tile on a free space (f0..f5, a0c, a03, ...); the payment
                  is asked (or type it: KIND a tile, KINDx a stored expansion, * a joker)
  exp KIND CELL   place a stored expansion, its printed hexagon on CELL (a petal)
  buy AREA        buy a face-down expansion into area a0..a5 for 6 points
  pass [HEX...]   pass, discarding the stored hexagons named (-1 each per value point)
  Any start of a move (tile bl, take) lists what it may mean and asks.
  moves [START]   the legal moves (those that start so, e.g. moves tile bl)
  board           the position again
  undo            take back your last move (and the bot moves after it)
  save [FILE]     write the record (default: the --save file)
  help            this list              quit     stop (asks if moves are unsaved)"""
_QUIT: Final = ("quit", "exit", "q")


class QgTerminalPlay:
    """One Queen's Garden game at the terminal: commands from ``stdin``, text to ``out``."""

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
    ) -> None:
        if len(seats) != rules.players:
            raise ValueError(f"{len(seats)} seats for {rules.players} players")
        self.game = Game(rules, seed=seed)
        self.seats = list(seats)
        self.bots: dict[int, QgBot] = {
            seat: make_qg_bot(spec, seed=seed + seat)
            for seat, spec in enumerate(seats)
            if spec != HUMAN
        }
        self.seed = seed
        self.stdin = stdin
        self.out = out
        self.colour = colour
        self.save = save
        self.saved_moves = 0
        """How many moves the last save wrote (unsaved moves make quitting ask first)."""

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def show(self) -> None:
        self.say("", position_text(self.game.snapshot(), colour=self.colour))

    def _ask(self, prompt: str) -> str | None:
        """One line from ``stdin`` after ``prompt`` (echoed when piped); ``None`` at its end."""
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            self.say("")
            return None
        if not _is_tty(self.stdin):  # echo piped input, so the transcript reads as typed
            self.say(line.rstrip("\n"))
        return line.strip()

    def run(self) -> int:
        """Play until the game ends or a person quits; the exit status."""
        names = ", ".join(f"P{s} {spec}" for s, spec in enumerate(self.seats))
        self.say(f"Queen's Garden: {names}; seed {self.seed}", "Type help for the commands.")
        shown = False
        while not self.game.over and self.game.to_move is not None:
            seat = self.game.to_move
            bot = self.bots.get(seat)
            if bot is not None:
                move = self.game.play(bot.choose(self.game))
                self.say(f"P{seat} ({self.seats[seat]}): {move}")
                shown = False
                continue
            if not shown:
                self.show()
                shown = True
            line = self._ask(f"P{seat} ({self.game.scores[seat]} points) > ")
            if line is None or (line.lower() in _QUIT and self._confirm_quit()):
                self.say(f"Stopped after {self.game.moves_played} moves.")
                return self._finish()
            if line.lower() not in _QUIT:
                shown = self.command(line)
        self.show()
        self.say("", final_text(self.game.snapshot()))
        return self._finish()

    def _unsaved(self) -> int:
        return 0 if self.save is not None else self.game.moves_played - self.saved_moves

    def _confirm_quit(self) -> bool:
        """Whether to quit: at once when nothing would be lost, else when the person says so."""
        unsaved = self._unsaved()
        if unsaved <= 0:
            return True
        answer = self._ask(f"Quit and lose {unsaved} unsaved moves (save FILE keeps them)? [y/N] ")
        if answer is None or answer.lower() in ("y", "yes"):
            return True
        self.say("Not quitting: play on.")
        return False

    def command(self, line: str) -> bool:
        """Carry out one typed line; whether the position on screen is still current."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not word:
            return True
        if word in ("help", "?"):
            self.say(HELP)
            return True
        if word == "board":
            return False
        if word == "moves":
            # Whole moves per line: a move's own spaces are no-break while wrapping.
            moves = [str(m).replace(" ", "\xa0") for m in candidates(self.game.legal_moves, rest)]
            text = textwrap.fill(
                ", ".join(moves) or "none",
                width=96,
                initial_indent="  ",
                subsequent_indent="  ",
                break_on_hyphens=False,
            )
            self.say(text.replace("\xa0", " "))
            return True
        if word == "undo":
            return self._undo()
        if word == "save":
            self._write(rest.strip() or self.save)
            return True
        move = self._complete(line)
        if move is None:
            return True
        seat = self.game.to_move
        try:
            played = self.game.play(move)
        except IndigoError as exc:
            self.say(f"error: {exc}")
            return True
        self.say(f"P{seat}: {played}")
        return False

    def _complete(self, line: str) -> Move | None:
        """The move ``line`` means, asking for what it leaves open; ``None`` (after an error
        line, or when the person cancels) if there is none."""
        game = self.game
        if line.split()[0] == "pass":
            try:
                move = Move.parse(line)
            except IndigoError as exc:
                self.say(f"error: {exc}")
                return None
            if not game.is_legal(move):
                self.say(f"error: {move} is not legal: a pass discards stored tiles/expansions")
                return None
            return move
        moves = candidates(game.legal_moves, line)
        if not moves:
            self.say(f"error: no legal move is or starts with {line!r} (moves lists them)")
            return None
        question = next_question(moves)
        while question is not None:
            chosen = self._choose(question)
            if chosen is None:
                self.say("Cancelled.")
                return None
            moves = list(chosen)
            question = next_question(moves)
        return moves[0]

    def _choose(self, question: Question) -> tuple[Move, ...] | None:
        """The moves of the option the person picks (by number or text); ``None`` to cancel."""
        options = question.options
        self.say(f"  {question.prompt}")
        for number, option in enumerate(options, 1):
            self.say(f"    {number}) {option.label}")
        while True:
            answer = self._ask(f"  1-{len(options)} (empty: cancel) > ")
            if not answer:
                return None
            for number, option in enumerate(options, 1):
                if answer in (str(number), option.label):
                    return option.moves
            self.say(f"error: answer a number from 1 to {len(options)}")

    def _undo(self) -> bool:
        earlier = undo_to_person(self.game, self.bots)
        if earlier is None:
            self.say("error: no move of yours to undo")
            return True
        self.game = earlier
        self.say(f"Undone: back to move {earlier.moves_played}.")
        return False

    def _save_record(self, path: str) -> None:
        """Write the record to ``path`` (raises :class:`OSError`)."""
        Path(path).write_text(self.game.record_json() + "\n", encoding="utf-8")
        self.saved_moves = self.game.moves_played
        self.say(f"Record saved to {path}.")

    def _write(self, path: str | None) -> None:
        """Write the record to ``path``; an error line if there is no path or it fails."""
        if path is None:
            self.say("error: save FILE (no --save file was given)")
            return
        try:
            self._save_record(path)
        except OSError as exc:
            self.say(f"error: {path}: {exc.strerror or exc}")

    def _finish(self) -> int:
        """Save the record if asked (an :class:`OSError` if it cannot be written)."""
        if self.save is not None:
            self._save_record(self.save)
        return 0
