"""``indigo play --game queens-garden``: Queen's Garden in the terminal, people and bots.

Each seat is ``"human"`` or a bot spec (``random``, ``greedy``, ``ismcts:N``, ...:
:func:`indigo.queens_garden.make_bot`; seat ``i``'s bot is seeded with ``seed + i``). At a
person's turn the position is shown and a prompt reads a move in the notation of
``docs/queens-garden.md``, or a part of one: what is missing is asked for
(:mod:`indigo.queens_garden.choices`), one question at a time, with numbered answers:

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

import argparse
import sys
import textwrap
import time
from collections.abc import Sequence
from typing import Final, TextIO

from indigo import IndigoError
from indigo.queens_garden import Bot, Game, Move, Rules, make_bot
from indigo.queens_garden.choices import Question, candidates, next_question
from indigo.queens_garden.narration import move_lines, option_words
from indigo.queens_garden.terminal import LEGEND, final_text, position_text
from indigo.session import TerminalSession

__all__ = ["HELP", "TerminalPlay", "demo", "terminal_play"]

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


class TerminalPlay(TerminalSession[Game, Bot]):
    """One Queen's Garden game at the terminal: commands from ``stdin``, text to ``out``."""

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

    def intro(self) -> list[str]:
        names = ", ".join(f"P{s} {spec}" for s, spec in enumerate(self.seats))
        return [f"Queen's Garden: {names}; seed {self.seed}", LEGEND]

    def show(self) -> None:
        self.say("", position_text(self.game.snapshot(), colour=self.colour))

    def play_bot(self, seat: int, bot: Bot) -> None:
        before = self.game.clone()
        played = self.game.play(bot.choose(self.game))
        self.say(*told(before, played.move, self.game))

    def prompt(self, seat: int) -> str:
        return f"P{seat} ({self.game.scores[seat]} points) > "

    def result(self) -> list[str]:
        return [final_text(self.game.snapshot())]

    def game_command(self, seat: int, word: str, rest: str, line: str) -> bool:
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
        move = self._complete(line)
        if move is None:
            return True
        before = self.game.clone()
        try:
            played = self.game.play(move)
        except IndigoError as exc:
            self.say(f"error: {exc}")
            return True
        self.say(*told(before, played.move, self.game))
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
            words = option_words(question.topic, option.label)
            self.say(
                f"    {number}) {words} [{option.label}]"
                if words != option.label
                else f"    {number}) {words}"
            )
        while True:
            answer = self.ask(f"  1-{len(options)} (empty: cancel) > ")
            if not answer:
                return None
            for number, option in enumerate(options, 1):
                if answer in (str(number), option.label):
                    return option.moves
            self.say(f"error: answer a number from 1 to {len(options)}")


def terminal_play(
    rules: Rules,
    seats: Sequence[str],
    *,
    seed: int,
    stdin: TextIO,
    out: TextIO,
    colour: bool = False,
    save: str | None = None,
    codes: bool = False,
) -> TerminalPlay:
    """``indigo play``'s session (:attr:`indigo.games.GameEntry.terminal_play`); ``codes`` is
    Indigo's (tiles drawn as codes): Queen's Garden's moves are always written out."""
    del codes
    return TerminalPlay(rules, seats, seed=seed, stdin=stdin, out=out, colour=colour, save=save)


def told(before: Game, move: Move, after: Game) -> list[str]:
    """The move in words (:func:`indigo.queens_garden.narration.move_lines`), its notation
    after the head line as it is typed here: ``[take ye]``."""
    head, *rest = move_lines(after.moves_played, before, move, after)
    return [f"{head} [{move}]", *rest]


def demo(args: argparse.Namespace, seed: int, *, colour: bool, delay: float) -> int:
    """``indigo demo --game queens-garden`` (``args.players`` seats): set up from ``seed``,
    ``args.bot`` in every seat (seat ``i``'s seeded with ``seed + i``, as Indigo's demo seeds
    them), the position after each round, then the final scoring, pausing ``delay`` seconds
    after each move."""
    players = args.players
    game = Game(Rules(players), seed=seed)
    bots = [make_bot(args.bot, seed=seed + seat) for seat in range(players)]
    out = sys.stdout
    print(
        f"Azul: Queen's Garden: {players} players, {args.bot} bots, seed {seed} "
        "(scoring wheel: a placeholder, not the printed wheel)",
        file=out,
    )
    print(LEGEND, file=out)
    print(position_text(game.snapshot(), colour=colour), file=out)
    while not game.over and game.to_move is not None:
        seat, round_number, before = game.to_move, game.round, game.clone()
        move = bots[seat].choose(game)
        game.play(move)
        print(told(before, move, game)[0], file=out)
        if game.over or game.round != round_number:
            points = "  ".join(f"P{s} +{p}" for s, p in enumerate(game.round_points[-1]))
            print(f"\nRound {round_number} scored: {points}", file=out)
            print(position_text(game.snapshot(), colour=colour), file=out)
        out.flush()
        if delay:
            time.sleep(delay)
    print(file=out)
    print(final_text(game.snapshot()), file=out)
    return 0
