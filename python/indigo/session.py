"""What every terminal game session shares, whichever the game: the seats and their bots, the
prompt loop, quitting, undo and saving the record.

:class:`indigo.play.TerminalPlay` (Indigo) and :class:`indigo.queens_garden.play.TerminalPlay`
(Queen's Garden) fill in what differs: how the position is drawn, what a bot's move prints and
what a typed line means.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final, Generic, Protocol, Self, TextIO, TypeVar

from indigo import IndigoError
from indigo.table import HUMAN, undo_to_person

__all__ = ["QUIT_WORDS", "InputNotTextError", "SessionGame", "TerminalSession"]

QUIT_WORDS: Final = ("quit", "exit", "q")
"""The words that stop a session (asking first when moves would be lost)."""


class SessionGame(Protocol):
    """What a session needs of a game: both games' ``Game`` classes have it."""

    @property
    def to_move(self) -> int | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def moves(self) -> Sequence[object]: ...
    def undo(self) -> object: ...
    def clone(self) -> Self: ...
    def record_json(self) -> str: ...


class InputNotTextError(IndigoError):
    """A line of the people's input that is not UTF-8 text: the session stops, as at the end
    of the input (saving with ``save``), then raises this."""


GameT = TypeVar("GameT", bound=SessionGame)
BotT = TypeVar("BotT")


class TerminalSession(ABC, Generic[GameT, BotT]):
    """One game at the terminal: reads lines from ``stdin``, writes everything to ``out``.

    Seat ``i`` is a person (``"human"``) or the bot ``make_bot(spec, seed=seed + i)``.
    """

    def __init__(
        self,
        game: GameT,
        seats: Sequence[str],
        make_bot: Callable[..., BotT],
        *,
        seed: int,
        stdin: TextIO,
        out: TextIO,
        colour: bool,
        save: str | None,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.bots: Mapping[int, BotT] = {
            seat: make_bot(spec, seed=seed + seat)
            for seat, spec in enumerate(seats)
            if spec != HUMAN
        }
        self.seed = seed
        self.stdin = stdin
        self.out = out
        self.colour = colour
        self.save = save
        self.saved_moves = 0
        """How many moves the last ``save`` wrote (unsaved moves make quitting ask first)."""

    help_text: str
    """What ``help`` prints: the game's commands."""

    @abstractmethod
    def intro(self) -> list[str]:
        """The lines printed before the first move."""

    @abstractmethod
    def show(self) -> None:
        """Draw the position for the person about to move (or, at the end, for everyone)."""

    @abstractmethod
    def play_bot(self, seat: int, bot: BotT) -> None:
        """Play ``bot``'s move for ``seat`` and say what it did."""

    @abstractmethod
    def prompt(self, seat: int) -> str:
        """The prompt before a person's line."""

    @abstractmethod
    def game_command(self, seat: int, word: str, rest: str, line: str) -> bool:
        """Carry out a line whose first word (lower case) is none of the shared commands: the
        game's own commands and moves. Whether the screen is still current."""

    @abstractmethod
    def result(self) -> list[str]:
        """The lines printed when the game is over."""

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        """One stripped line from ``stdin`` after ``prompt`` (echoed when piped, so the
        transcript reads as typed); ``None`` at the end of input."""
        self.out.write(prompt)
        self.out.flush()
        try:
            line = self.stdin.readline()
            line.encode("utf-8")  # undecodable bytes read with surrogateescape are surrogates
        except UnicodeError:
            self.say("")
            raise InputNotTextError(
                f"the input after move {len(self.game.moves)} is not UTF-8 text"
            ) from None
        if not line:
            self.say("")
            return None
        if not is_tty(self.stdin):
            self.say(line.rstrip("\n"))
        return line.strip()

    def run(self) -> int:
        """Play until the game ends or a person quits; the exit status. Input that is not text
        stops the game as the end of the input does, then raises :class:`InputNotTextError`."""
        try:
            return self._play()
        except InputNotTextError:
            self.say(f"Stopped after {len(self.game.moves)} moves.")
            self.finish()
            raise

    def _play(self) -> int:
        self.say(*self.intro(), "Type help for the commands.")
        shown = False
        while not self.game.over and self.game.to_move is not None:
            seat = self.game.to_move
            bot = self.bots.get(seat)
            if bot is not None:
                self.play_bot(seat, bot)
                shown = False
                continue
            self.on_turn(seat)
            if not shown:
                self.show()
                shown = True
            line = self.ask(self.prompt(seat))
            if line is None or (line.lower() in QUIT_WORDS and self.confirm_quit()):
                self.say(f"Stopped after {len(self.game.moves)} moves.")
                return self.finish()
            if line.lower() not in QUIT_WORDS:
                shown = self.command(seat, line)
        self.show()
        self.say("", *self.result())
        return self.finish()

    def command(self, seat: int, line: str) -> bool:
        """Carry out one stripped line typed by ``seat``: ``help``, ``board``, ``undo`` and
        ``save [FILE]`` for both games, anything else by :meth:`game_command`. Whether the
        screen is still current."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not word:
            return True
        if word in ("help", "?"):
            self.say(self.help_text)
            return True
        if word == "board":
            return False
        if word == "undo":
            return self.undo()
        if word == "save":
            self.write(rest.strip() or self.save)
            return True
        return self.game_command(seat, word, rest, line)

    def on_turn(self, seat: int) -> None:
        """Called when ``seat``, a person, is about to move (before the position is drawn)."""

    def unsaved(self) -> int:
        """Moves that quitting now would lose (none when ``--save`` will write them)."""
        return 0 if self.save is not None else len(self.game.moves) - self.saved_moves

    def confirm_quit(self) -> bool:
        """Whether to quit: at once when nothing would be lost, else when the person says so."""
        unsaved = self.unsaved()
        if unsaved <= 0:
            return True
        answer = self.ask(f"Quit and lose {unsaved} unsaved moves (save FILE keeps them)? [y/N] ")
        if answer is None or answer.lower() in ("y", "yes"):
            return True
        self.say("Not quitting: play on.")
        return False

    def undo(self) -> bool:
        """Undo back to before the last move a person made; an error line if there is none."""
        earlier = undo_to_person(self.game, self.bots)
        if earlier is None:
            self.say("error: no move of yours to undo")
            return True
        self.game = earlier
        self.say(f"Undone: back to move {len(earlier.moves)}.")
        return False

    def save_record(self, path: str) -> None:
        """Write the record to ``path`` (raises :class:`OSError` naming ``path``)."""
        try:
            Path(path).write_text(self.game.record_json() + "\n", encoding="utf-8")
        except OSError as exc:
            exc.filename = exc.filename or path  # a failed write or close names no file
            raise
        self.saved_moves = len(self.game.moves)
        self.say(f"Record saved to {path}.")

    def write(self, path: str | None) -> None:
        """The ``save [FILE]`` command: an error line if there is no path or writing fails."""
        if path is None:
            self.say("error: save FILE (no --save file was given)")
            return
        try:
            self.save_record(path)
        except OSError as exc:
            self.say(f"error: {path}: {exc.strerror or exc}")

    def finish(self) -> int:
        """Save the record if ``--save`` asked (an :class:`OSError` if it cannot be written)."""
        if self.save is not None:
            self.save_record(self.save)
        return 0


def is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
