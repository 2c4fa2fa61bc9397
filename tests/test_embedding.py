"""Embedding (docs/embedding.md): the C ABI driven from C and from ``ctypes``, and the engine
protocol driven as a subprocess through whole games and hostile lines."""

from __future__ import annotations

import ctypes
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from indigo import Game, Rules
from indigo import queens_garden as qg
from indigo.games import GAMES, GameEntry

ROOT = Path(__file__).resolve().parent.parent
PREFIX = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")).resolve() / "c-example"
"""Where ``scripts/c-example`` installs the library (``scripts/c-install``)."""
LIBRARY = PREFIX / "lib" / ("libindigo.dylib" if sys.platform == "darwin" else "libindigo.so")


@pytest.fixture(scope="module")
def c_example() -> str:
    """The output of ``scripts/c-example``, which installs the library and runs the C example."""
    done = subprocess.run(
        [str(ROOT / "scripts" / "c-example"), "11"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_c_example_plays_a_whole_game(c_example: str) -> None:
    position, first, final, *searches = c_example.strip().splitlines()
    assert len(searches) == len(GAMES)
    # After ten moves the position's text, read back by the C example to the same text.
    text = position.removeprefix("after 10 moves: ")
    assert Game.from_position(text, seed=1).position() == text
    header = re.fullmatch(r"indigo \S+, seed 11: (\d+) moves, record of \d+ bytes", first)
    assert header is not None
    assert int(header[1]) > 20
    scores = re.fullmatch(r"final: ismcts:200 (\d+), greedy (\d+), winners( \d)+", final)
    assert scores is not None
    assert int(scores[1]) + int(scores[2]) > 0


def test_the_ctypes_sketch_in_the_docs_plays_a_whole_game(c_example: str) -> None:
    page = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")
    sketch = re.search(r"```python no-run: [^\n]*\n(.*?)```", page, re.S)
    assert sketch is not None
    done = subprocess.run(
        [sys.executable, "-c", sketch[1]],
        capture_output=True,
        text=True,
        check=False,
        env={"INDIGO_LIB": str(LIBRARY)},
    )
    assert done.returncode == 0, done.stderr
    final = re.fullmatch(r"final: \[(\d+), (\d+)\] (\d+) bytes of record\n", done.stdout)
    assert final is not None, done.stdout
    assert int(final[1]) + int(final[2]) > 0
    assert int(final[3]) > 1000


def test_a_c_abi_game_from_a_seed_is_the_python_game(c_example: str) -> None:
    lib = ctypes.CDLL(str(LIBRARY))
    lib.indigo_game_record_string.restype = ctypes.c_void_p
    lib.indigo_garden_record_string.restype = ctypes.c_void_p
    lib.indigo_string_free.argtypes = [ctypes.c_void_p]
    rules = (ctypes.c_uint8 * 6)(3, 2, 0, 0, 0, 0)
    game = ctypes.c_void_p()
    assert lib.indigo_game_new(rules, ctypes.c_uint64(123), ctypes.byref(game)) == 0
    assert lib.indigo_game_play(game, b"not a move") == 2
    text = lib.indigo_game_record_string(game)
    record = json.loads(ctypes.string_at(text).decode())
    lib.indigo_string_free(ctypes.c_void_p(text))
    lib.indigo_game_free(game)
    assert record == Game(Rules(players=3, hand_size=2), seed=123).to_record()

    garden = ctypes.c_void_p()
    assert lib.indigo_garden_new(ctypes.c_uint8(3), ctypes.c_uint64(45), ctypes.byref(garden)) == 0
    played = lib.indigo_garden_play(garden, b"take ye")
    text = lib.indigo_garden_record_string(garden)
    record = json.loads(ctypes.string_at(text).decode())
    lib.indigo_string_free(ctypes.c_void_p(text))
    lib.indigo_garden_free(garden)
    python_game = qg.Game(qg.Rules(3), seed=45)
    assert played == (0 if python_game.is_legal("take ye") else 3)
    if played == 0:
        python_game.play("take ye")
    assert record == python_game.to_record()


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_the_search_in_c_plays_whole_games_of_legal_moves(
    c_example: str, entry: GameEntry[Any, Any, Any]
) -> None:
    line = next(
        line for line in c_example.splitlines() if line.startswith(f"search {entry.name}: ")
    )
    found = re.fullmatch(
        rf"search {entry.name}: (\d+) moves, (\d+) by the search, all legal; "
        r"observation of (\d+) values; flat-mc:\d+ (\d+), random (\d+), winners((?: \d)+)",
        line,
    )
    assert found is not None, line
    moves, searched, size = int(found[1]), int(found[2]), int(found[3])
    assert 0 < searched < moves
    game = entry.game(entry.default_rules(2), seed=1)
    assert size == len(game.observation(0))
    assert {int(seat) for seat in found[6].split()} <= {0, 1}


def test_pkg_config_gives_the_installed_library_s_flags(c_example: str) -> None:
    env = {**os.environ, "PKG_CONFIG_PATH": str(PREFIX / "lib" / "pkgconfig")}

    def pkg_config(*args: str) -> str:
        done = subprocess.run(
            ["pkg-config", *args, "indigo"], capture_output=True, text=True, check=True, env=env
        )
        return done.stdout.strip()

    assert pkg_config("--cflags").split() == [f"-I{PREFIX / 'include'}"]
    assert pkg_config("--libs").split() == [f"-L{PREFIX / 'lib'}", "-lindigo"]
    header = (PREFIX / "include" / "indigo.h").read_bytes()
    assert header == (ROOT / "rust" / "capi" / "include" / "indigo.h").read_bytes()
    lib = ctypes.CDLL(str(LIBRARY))
    lib.indigo_version.restype = ctypes.c_char_p
    assert pkg_config("--modversion") == lib.indigo_version().decode()


class CGame:
    """A game of ``entry`` in the C ABI, through its calls (``entry.c_prefix``), loaded from
    the record of a Python game."""

    def __init__(self, entry: GameEntry[Any, Any, Any], game: Any) -> None:
        self.lib = ctypes.CDLL(str(LIBRARY))
        self.lib.indigo_last_error.restype = ctypes.c_char_p
        self.prefix = entry.c_prefix
        self.handle = ctypes.c_void_p()
        record = json.dumps(game.to_record()).encode()
        self.check(self.call("from_record", record, ctypes.byref(self.handle)))

    def call(self, name: str, *args: Any) -> int:
        function = getattr(self.lib, f"{self.prefix}_{name}")
        return int(function(*args))

    def check(self, status: int) -> None:
        assert status == 0, self.lib.indigo_last_error().decode()

    def array(self, name: str, kind: Any, *args: Any) -> list[Any]:
        """An array out: the size asked with a null buffer, then filled."""
        count = ctypes.c_size_t()
        self.call(name, self.handle, *args, None, ctypes.c_size_t(0), ctypes.byref(count))
        out = (kind * count.value)()
        self.check(self.call(name, self.handle, *args, out, count, ctypes.byref(count)))
        return list(out)

    def text(self, name: str, *args: Any) -> str:
        length = ctypes.c_size_t()
        self.call(name, self.handle, *args, None, ctypes.c_size_t(0), ctypes.byref(length))
        out = ctypes.create_string_buffer(length.value + 1)
        self.check(self.call(name, self.handle, *args, out, len(out), ctypes.byref(length)))
        return out.value.decode()

    def turn(self) -> int:
        turn = ctypes.c_int32()
        self.check(self.call("turn", self.handle, ctypes.byref(turn)))
        return turn.value

    def resample(self, seat: int, seed: int) -> CGame:
        drawn = object.__new__(CGame)
        drawn.lib, drawn.prefix, drawn.handle = self.lib, self.prefix, ctypes.c_void_p()
        self.check(
            self.call(
                "resample",
                self.handle,
                ctypes.c_uint8(seat),
                ctypes.c_uint64(seed),
                ctypes.byref(drawn.handle),
            )
        )
        return drawn

    def free(self) -> None:
        self.call("free", self.handle)


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_the_c_search_calls_give_what_python_gives(
    c_example: str, entry: GameEntry[Any, Any, Any]
) -> None:
    game = entry.game(entry.default_rules(3), seed=21)
    for k in range(9):
        game.apply_action(game.legal_actions()[(k * 37) % len(game.legal_actions())])
    c = CGame(entry, game)
    assert c.turn() == game.to_move
    assert c.array("legal_actions", ctypes.c_uint32) == list(game.legal_actions())
    for seat in range(3):
        assert c.array("observation", ctypes.c_float, ctypes.c_uint8(seat)) == list(
            game.observation(seat)
        )
        assert c.text("information_state", ctypes.c_uint8(seat)) == (
            game.information_state_string(seat)
        )
        drawn = c.resample(seat, 99)
        assert drawn.text("position") == game.resample(seat, seed=99).position()
        drawn.free()
    # Played by action number to the end: the same game as Python's, the same returns.
    while game.to_move is not None:
        action = game.legal_actions()[-1]
        c.check(c.call("play_action", c.handle, ctypes.c_uint32(action)))
        game.apply_action(action)
    assert c.turn() == -1
    assert json.loads(c.text("record")) == game.to_record()
    assert c.array("returns", ctypes.c_double) == game.returns("win")
    c.free()


class Engine:
    """``python -m indigo engine`` as a subprocess, one line at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "indigo", "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def send(self, line: str) -> list[str]:
        """The answer to ``line``: every line before the ``readyok`` of an ``isready`` sent
        after it."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(line + "\nisready\n")
        self.process.stdin.flush()
        answer = []
        while (reply := self.process.stdout.readline().rstrip("\n")) != "readyok":
            assert reply, "the engine stopped"
            answer.append(reply)
        return answer

    def quit(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        return self.process.wait(timeout=60)


def status(engine: Engine) -> str:
    (line,) = engine.send("status")
    return line


def test_the_engine_plays_a_whole_indigo_game() -> None:
    engine = Engine()
    assert engine.send("indigo")[-1] == "indigook"
    assert engine.send("rules players=2 hand_size=2") == []
    assert engine.send("position seed 9") == []
    turn = 0
    while status(engine).startswith("status to-move"):
        go = "go simulations 20" if turn % 2 == 0 else "go bot greedy"
        (best,) = engine.send(f"{go} seed {turn}")
        move = best.removeprefix("bestmove ")
        (legal,) = engine.send("legal")
        assert move in legal.removeprefix("legal ").split("; ")
        assert engine.send(f"play {move}") == []
        turn += 1
    final = status(engine)
    assert re.fullmatch(r"status over scores \d+ \d+ winners [01]( 1)?", final)
    (record,) = engine.send("record")
    game = Game.from_record(record.removeprefix("record "))
    assert game.over
    assert len(game.moves) == turn
    (moves,) = engine.send("moves")
    assert moves == "moves " + "; ".join(map(str, game.moves))
    assert engine.send("go bot random") == ["error the game is over: there is no move to find"]
    # The record read back, one move taken back, and a search by time from there.
    assert engine.send("position seed 1") == []
    assert engine.send(record.replace("record ", "position record ", 1)) == []
    assert engine.send("moves") == [moves]
    assert engine.send("undo") == []
    (best,) = engine.send("go time 0.05")
    best = best.removeprefix("bestmove ")
    (legal,) = engine.send("legal")
    assert best in legal.removeprefix("legal ").split("; ")
    assert engine.send("play " + best) == []
    assert engine.send("moves") == [moves.rsplit("; ", 1)[0] + "; " + best]
    assert engine.quit() == 0


def test_the_engine_plays_a_whole_queens_garden_game() -> None:
    engine = Engine()
    assert engine.send("game queens-garden") == []
    assert engine.send("position seed 4") == []
    turn = 0
    while status(engine).startswith("status to-move"):
        (best,) = engine.send(f"go bot random seed {turn}")
        assert engine.send("play " + best.removeprefix("bestmove ")) == []
        turn += 1
    (record,) = engine.send("record")
    game = qg.Game.from_record(record.removeprefix("record "))
    assert game.over
    assert len(game.moves) == turn
    assert status(engine) == (
        f"status over scores {' '.join(map(str, game.scores))} "
        f"winners {' '.join(map(str, game.winners))}"
    )
    assert engine.send("undo") == []
    assert status(engine).startswith("status to-move")
    # Any bot spec plays Queen's Garden, the registry's make_bot making it.
    (best,) = engine.send("go simulations 10")
    assert best.startswith("bestmove ")
    assert engine.send("play " + best.removeprefix("bestmove ")) == []
    assert engine.quit() == 0


@pytest.mark.parametrize("entry", GAMES, ids=[entry.name for entry in GAMES])
def test_the_engine_searches_every_game_with_ismcts(entry: GameEntry[Any, Any, Any]) -> None:
    """Every game of the registry, to the end: ``go simulations N`` and ``go bot ismcts:...``
    by turns, each answer legal, the record replaying to the engine's final status."""
    engine = Engine()
    assert engine.send(f"game {entry.name}") == []
    assert engine.send("position seed 6") == []
    turn = 0
    while status(engine).startswith("status to-move"):
        go = "go simulations 20" if turn % 2 == 0 else "go bot ismcts:15,c=0.7"
        (best,) = engine.send(f"{go} seed {turn}")
        move = best.removeprefix("bestmove ")
        (legal,) = engine.send("legal")
        assert move in legal.removeprefix("legal ").split("; ")
        assert engine.send(f"play {move}") == []
        turn += 1
    (record,) = engine.send("record")
    game = entry.game.from_record(record.removeprefix("record "))
    assert game.over
    assert len(game.moves) == turn
    assert status(engine) == (
        f"status over scores {' '.join(map(str, game.scores))} "
        f"winners {' '.join(map(str, game.winners))}"
    )
    assert engine.send("undo") == []
    (best,) = engine.send("go time 0.05 seed 1")
    assert engine.send("play " + best.removeprefix("bestmove ")) == []
    assert engine.quit() == 0


HOSTILE = [
    b"foo",
    b"\xff\xfe\x00\x01 binary",
    b"x" * (2 << 20),
    b"position seed -1",
    b"position seed 1e99",
    b"position seed 99999999999999999999999",
    b"position seed nine",
    b"position",
    b"position record {",
    b"position record [1, 2]",
    b"position seed 1 moves nonsense",
    b"go simulations 0",
    b"go simulations 1.5",
    b"go simulations 99999999999999999999999999",
    b"go time -1",
    b"go time inf",
    b"go bot",
    b"go bot nobody",
    b"go simulations 5 seed -3",
    b"rules players=9",
    b"rules players=x",
    b"rules colour=blue",
    b"rules hand_size",
    b"game chess",
    b"play",
    b"play 0@0:0,0",
    b"undo",
    b"moves\x00",
]


def test_hostile_lines_get_one_error_line_each_and_change_nothing() -> None:
    script = b"position seed 2\n"
    for line in HOSTILE:
        script += line + b"\nisready\n"
    script += b"\n   \n\t\nisready\nmoves\nstatus\nquit\nisready\n"
    done = subprocess.run(
        [sys.executable, "-m", "indigo", "engine"],
        input=script,
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0
    assert done.stderr == b""
    answers = done.stdout.decode().split("readyok\n")
    # One error line per hostile line, the blank lines ignored, nothing after quit.
    assert len(answers) == len(HOSTILE) + 2
    for line, answer in zip(HOSTILE, answers, strict=False):
        assert re.fullmatch(r"error [^\n]+\n", answer), (line[:40], answer)
        assert "internal error" not in answer
    assert answers[-2] == ""
    assert answers[-1] == "moves\nstatus to-move 0 scores 0 0\n"
