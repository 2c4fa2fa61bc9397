"""The engine protocol: a line protocol on standard input and output, in the spirit of chess
engines' UCI, so that any program can set up a game of Indigo or Azul: Queen's Garden, ask the
bots for moves and play them. ``indigo engine`` runs it (:func:`serve`); the protocol is in
``docs/embedding.md``.

>>> engine = Engine()
>>> engine.handle("isready")
['readyok']
>>> engine.handle("position seed 1 moves 0@0:4,-2")
[]
>>> engine.handle("status")
['status to-move 1 scores 0 0']
>>> engine.handle("go bot greedy seed 2")
['bestmove ...']
>>> engine.handle("play 3@0:0,0")
['error 3@0:0,0 is illegal: cell (0,0) is the centre: ...']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import BinaryIO, Final, TextIO, TypeVar

from indigo import __version__, queens_garden
from indigo._native import Game, Rules
from indigo.games import GAMES as ENTRIES
from indigo.games import find_game
from indigo.types import GateVariant, ThemeName, TieBreak

GAMES: Final = tuple(entry.name for entry in ENTRIES)
"""The games the engine plays, as ``game`` names them (:data:`indigo.games.GAMES`)."""
MAX_LINE: Final = 1 << 20
"""Bytes in the longest line read (records of whole games fit many times over); a longer line
is refused whole."""
SEPARATOR: Final = ";"
"""Separates moves in lists: Queen's Garden moves hold spaces (``take ye``)."""
SEED_LIMIT: Final = 2**64
"""Seeds are whole numbers from 0 below this."""

AnyGame = Game | queens_garden.Game
Choice = TypeVar("Choice", bound=str)


class ProtocolError(Exception):
    """A line the engine refuses; its message becomes the ``error`` reply."""


def _number(text: str, what: str, convert: Callable[[str], float]) -> float:
    try:
        return convert(text)
    except ValueError:
        raise ProtocolError(f"{what} must be a number, not {_show(text)}") from None


def _seed(text: str) -> int:
    seed = int(_number(text, "seed", int))
    if not 0 <= seed < SEED_LIMIT:
        raise ProtocolError(f"seed must be a whole number from 0 to 2**64 - 1, not {seed}")
    return seed


def _show(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error line, cut to ``limit`` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _move_list(text: str) -> list[str]:
    return [m.strip() for m in text.split(SEPARATOR) if m.strip()]


def _flag(key: str, value: str) -> bool:
    if value.lower() in ("1", "true", "yes"):
        return True
    if value.lower() in ("0", "false", "no"):
        return False
    raise ProtocolError(f"{key} must be true or false, not {_show(value)}")


def _choice(settings: dict[str, str], key: str, choices: tuple[Choice, ...]) -> Choice:
    """The value of ``key`` in ``settings`` (default: the first choice), one of ``choices``."""
    value = settings.get(key, choices[0])
    for choice in choices:
        if value == choice:
            return choice
    raise ProtocolError(f"{key} must be {' or '.join(choices)}, not {_show(value)}")


def _refuse_unknown(settings: dict[str, str], allowed: tuple[str, ...]) -> None:
    unknown = sorted(settings.keys() - set(allowed))
    if unknown:
        raise ProtocolError(f"unknown rule {_show(unknown[0])}: the rules are {', '.join(allowed)}")


def indigo_rules(settings: dict[str, str]) -> Rules:
    """Indigo's rules from ``rules`` words (:attr:`indigo.games.GameEntry.engine_rules`)."""
    _refuse_unknown(settings, ("players", "hand_size", "gates", "tie_break", "open_hands", "theme"))
    gates: GateVariant = _choice(settings, "gates", ("shared", "exclusive"))
    tie_break: TieBreak = _choice(settings, "tie_break", ("most-gems", "shared"))
    theme: ThemeName = _choice(settings, "theme", ("indigo", "butterfly-garden"))
    return Rules(
        players=int(_number(settings.get("players", "2"), "players", int)),
        hand_size=int(_number(settings.get("hand_size", "1"), "hand_size", int)),
        three_player_gates=gates,
        tie_break=tie_break,
        open_hands=_flag("open_hands", settings.get("open_hands", "false")),
        theme=theme,
    )


def garden_rules(settings: dict[str, str]) -> queens_garden.Rules:
    """Queen's Garden's rules from ``rules`` words: ``players`` only."""
    _refuse_unknown(settings, ("players",))
    return queens_garden.Rules(int(_number(settings.get("players", "2"), "players", int)))


class Engine:
    """The protocol's state: which game, its rules and the game in progress. :meth:`handle`
    answers one line; nothing it is given changes the state unless the whole line is good."""

    def __init__(self) -> None:
        self.game_name = ENTRIES[0].name
        self.settings: dict[str, str] = {}
        self.game: AnyGame = self._new_game(0)

    def _new_game(
        self, seed: int, settings: dict[str, str] | None = None, game_name: str | None = None
    ) -> AnyGame:
        """A game from ``seed`` under ``settings`` of ``game_name`` (default: the current)."""
        settings = self.settings if settings is None else settings
        entry = find_game(game_name or self.game_name)
        game: AnyGame = entry.game(entry.engine_rules(settings), seed=seed)
        return game

    def _from_record(self, text: str) -> AnyGame:
        game: AnyGame = find_game(self.game_name).game.from_record(text)
        return game

    def handle(self, line: str) -> list[str] | None:
        """The reply lines to ``line`` (none for a blank line or a command that succeeded
        silently), one ``error ...`` line for a line refused; ``None`` for ``quit``."""
        command, _, rest = line.strip().partition(" ")
        if not command:
            return []
        if command == "quit":
            return None
        handler = self._COMMANDS.get(command)
        try:
            if handler is None:
                raise ProtocolError(
                    f"unknown command {_show(command)}: commands are "
                    f"{', '.join(self._COMMANDS)}, quit"
                )
            return handler(self, rest.strip())
        except (ProtocolError, ValueError, OverflowError) as exc:  # IndigoError is a ValueError
            return ["error " + " ".join(str(exc).split())]

    def _identify(self, rest: str) -> list[str]:
        return [
            "id name indigo",
            f"id version {__version__}",
            f"games {' '.join(GAMES)}",
            *(f"option rules {entry.engine_options}" for entry in ENTRIES),
            "option go simulations N | time SECONDS | bot SPEC [seed S]",
            "indigook",
        ]

    def _isready(self, rest: str) -> list[str]:
        return ["readyok"]

    def _game(self, rest: str) -> list[str]:
        if rest not in GAMES:
            raise ProtocolError(f"game must be {' or '.join(GAMES)}, not {_show(rest)}")
        self.game = self._new_game(0, {}, rest)
        self.game_name, self.settings = rest, {}
        return []

    def _rules(self, rest: str) -> list[str]:
        settings: dict[str, str] = {}
        for word in rest.split():
            key, equals, value = word.partition("=")
            if not equals or not value:
                raise ProtocolError(f"rules are KEY=VALUE words, not {_show(word)}")
            settings[key] = value
        self.game = self._new_game(0, settings)
        self.settings = settings
        return []

    def _position(self, rest: str) -> list[str]:
        kind, _, rest = rest.partition(" ")
        if kind == "record":
            self.game = self._from_record(rest)
            return []
        if kind != "seed":
            raise ProtocolError(
                "expected position seed N [moves M1; M2; ...] or position record JSON"
            )
        seed_text, _, rest = rest.strip().partition(" ")
        game = self._new_game(_seed(seed_text))
        rest = rest.strip()
        if rest:
            keyword, _, moves = rest.partition(" ")
            if keyword != "moves":
                raise ProtocolError(f"expected moves after the seed, not {_show(keyword)}")
            for move in _move_list(moves):
                game.play(move)
        self.game = game
        return []

    def _moves(self, rest: str) -> list[str]:
        return [" ".join(["moves", f"{SEPARATOR} ".join(map(str, self.game.moves))]).strip()]

    def _legal(self, rest: str) -> list[str]:
        return [" ".join(["legal", f"{SEPARATOR} ".join(map(str, self.game.legal_moves))]).strip()]

    def _status(self, rest: str) -> list[str]:
        game = self.game
        scores = " ".join(map(str, game.scores))
        if game.over:
            return [f"status over scores {scores} winners {' '.join(map(str, game.winners))}"]
        return [f"status to-move {game.to_move} scores {scores}"]

    def _record(self, rest: str) -> list[str]:
        return ["record " + self.game.record_json()]

    def _go(self, rest: str) -> list[str]:
        words = rest.split()
        seed = 0
        if len(words) == 4 and words[2] == "seed":
            seed = _seed(words[3])
            words = words[:2]
        if len(words) != 2:
            raise ProtocolError("expected go simulations N | time SECONDS | bot SPEC [seed S]")
        kind, value = words
        if kind == "simulations":
            spec = f"ismcts:{int(_number(value, 'simulations', int))}"
        elif kind == "time":
            spec = f"ismcts:time={_number(value, 'time', float)!r}"
        elif kind == "bot":
            spec = value
        else:
            raise ProtocolError(f"go takes simulations, time or bot, not {_show(kind)}")
        if self.game.over:
            raise ProtocolError("the game is over: there is no move to find")
        move = str(find_game(self.game).make_bot(spec, seed=seed).choose(self.game))
        return [f"bestmove {move}"]

    def _play(self, rest: str) -> list[str]:
        if not rest:
            raise ProtocolError("expected play MOVE")
        self.game.play(rest)
        return []

    def _undo(self, rest: str) -> list[str]:
        self.game.undo()
        return []

    _COMMANDS: Final[dict[str, Callable[[Engine, str], list[str]]]] = {
        "indigo": _identify,
        "isready": _isready,
        "game": _game,
        "rules": _rules,
        "position": _position,
        "moves": _moves,
        "legal": _legal,
        "status": _status,
        "record": _record,
        "go": _go,
        "play": _play,
        "undo": _undo,
    }


def _lines(stream: BinaryIO) -> Sequence[str] | None:
    """The next line of ``stream`` as text (bad UTF-8 replaced), ``[]`` for a line longer than
    :data:`MAX_LINE` (skipped to its end), ``None`` at the end."""
    raw = stream.readline(MAX_LINE + 1)
    if not raw:
        return None
    if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
        while (more := stream.readline(MAX_LINE)) and not more.endswith(b"\n"):
            pass
        return []
    return [raw.decode("utf-8", errors="replace")]


def serve(stdin: BinaryIO, stdout: TextIO) -> int:
    """Answer the lines of ``stdin`` on ``stdout`` until ``quit`` or the end; the exit status."""
    engine = Engine()
    while (lines := _lines(stdin)) is not None:
        if not lines:
            replies = [f"error line longer than {MAX_LINE} bytes"]
        else:
            try:
                answer = engine.handle(lines[0])
            except Exception as exc:  # a bug must not end the session
                answer = ["error internal error: " + " ".join(str(exc).split())]
            if answer is None:
                return 0
            replies = answer
        for reply in replies:
            stdout.write(reply + "\n")
        stdout.flush()
    return 0
