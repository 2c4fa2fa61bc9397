"""``indigo play``: a game at the terminal, fed through its input stream."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import indigo
from indigo import Game, Rules
from indigo.cli import main
from indigo.play import TerminalPlay, legal_cells, parse_seats, tile_picture
from indigo.render.terminal import board_text, tile_braille


def _session(
    seats: list[str], lines: list[str], seed: int, tmp_path: Path, rules: Rules | None = None
) -> tuple[TerminalPlay, str, Path]:
    save = tmp_path / "game.json"
    out = io.StringIO()
    session = TerminalPlay(
        rules or Rules.indigo(len(seats)),
        seats,
        seed=seed,
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
        save=str(save),
    )
    assert session.run() == 0
    return session, out.getvalue(), save


def _script(rules: Rules, seats: list[str], seed: int) -> tuple[Game, list[str]]:
    """The game TerminalPlay will play when each person types the first legal move."""
    game = Game(rules, seed=seed)
    bots = {
        s: indigo.make_bot(spec, seed=seed + s) for s, spec in enumerate(seats) if spec != "human"
    }
    typed: list[str] = []
    while not game.over:
        seat = game.to_move
        assert seat is not None
        if seat in bots:
            game.play(bots[seat].choose(game))
        else:
            move = game.legal_moves[0]
            typed.append(str(move))
            game.play(move)
    return game, typed


def test_a_whole_game_against_a_bot(tmp_path: Path) -> None:
    rules = Rules.indigo(2)
    expected, typed = _script(rules, ["human", "greedy"], seed=21)
    held = Game(rules, seed=21).hand(0)[0]
    noise = ["", "help", "nonsense", "9@0:0,0", f"{held}@0:0,0", "0@7", "board"]
    lines = [*noise, typed[0], *typed[1:]]
    session, out, save = _session(["human", "greedy"], lines, 21, tmp_path, rules)
    game = Game.from_record(json.loads(save.read_text()))
    # The bad lines changed nothing: the game is the one the typed moves make.
    assert game.moves == expected.moves
    assert game.scores == expected.scores
    assert game.winners == expected.winners
    assert session.game.over
    assert 'cannot read move "nonsense"' in out
    assert "error: tile must be a type 0..4, not 9" in out
    assert "is the centre" in out  # the engine's reason, on one line
    assert "error: a preview is T@R with tile type T 0..4 and rotation R 0..5" in out
    assert "undo      take back your last move" in out  # help
    assert "Final scores:" in out
    assert "Record saved to" in out
    for seat in game.winners:
        assert f"P{seat}: {game.scores[seat]} point" in out
    assert sum(line.startswith("error: ") for line in out.splitlines()) == 4


def test_preview_shows_paths_and_legal_cells(tmp_path: Path) -> None:
    game = Game(Rules.indigo(2), seed=5)
    tile = game.hand(0)[0]
    other = next(t for t in range(5) if t != tile)
    _, out, save = _session(["human", "random"], [f"{tile}@1", f"{other}@0", "quit"], 5, tmp_path)
    assert tile_picture(tile, 1) in out
    cells = legal_cells(game)[tile][1]
    assert f"may go on {len(cells)} cells: " + " ".join(f"{q},{r}" for q, r in cells) in out
    assert f"you hold no tile {other}" in out
    assert json.loads(save.read_text())["moves"] == []


def test_tile_picture_letters_join_path_ends() -> None:
    picture = tile_picture(1, 0)  # three straights: N-S, NE-SW, SE-NW
    assert "a: N-S straight, b: NE-SW straight, c: SE-NW straight" in picture
    top, bottom = picture.splitlines()[0], picture.splitlines()[6]
    assert top.strip("_ ") == "a"
    assert "a" in bottom


def test_legal_cells_are_the_engines() -> None:
    game = Game(Rules.tactical(3), seed=2)
    for _ in range(20):
        game.play(game.legal_moves[-1])
    cells = legal_cells(game)
    assert set(cells) == set(game.hand(game.to_move or 0))
    for tile, by_rotation in cells.items():
        for rotation in range(6):
            for q, r in indigo.ROUTE_CELLS:
                allowed = game.is_legal(indigo.Move(tile, rotation, q, r))
                assert ((q, r) in by_rotation[rotation]) == allowed


def test_undo_takes_back_the_bot_reply_too(tmp_path: Path) -> None:
    first = str(Game(Rules.indigo(2), seed=8).legal_moves[3])
    _, out, save = _session(
        ["human", "greedy"], ["undo", first, "undo", first, "quit"], 8, tmp_path
    )
    assert "error: no move of yours to undo" in out
    assert "Undone: back to move 0." in out
    record = json.loads(save.read_text())
    assert len(record["moves"]) == 2  # the second try, and the bot's reply
    assert record["moves"][0] == indigo.Move.parse(first).to_dict()
    assert "Stopped after 2 moves." in out


def test_end_of_input_stops_and_saves(tmp_path: Path) -> None:
    _, out, save = _session(["human", "human"], [], 3, tmp_path)
    assert "Stopped after 0 moves." in out
    assert json.loads(save.read_text())["moves"] == []


def test_bots_alone_play_to_the_end(tmp_path: Path) -> None:
    rules = Rules.butterfly_garden(3)
    expected, typed = _script(rules, ["greedy", "random", "greedy"], seed=4)
    assert typed == []
    _, out, save = _session(["greedy", "random", "greedy"], [], 4, tmp_path, rules)
    game = Game.from_record(json.loads(save.read_text()))
    assert game.moves == expected.moves
    assert game.over
    assert "blue butterfly" in out  # the theme's names


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("human", "give 2 to 4 seats"),
        ("human,greedy,random,random,human", "give 2 to 4 seats"),
        ("human,chess", 'unknown bot "chess"'),
    ],
)
def test_parse_seats_rejects(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_seats(text)
    assert parse_seats(" Human , GREEDY") == ["human", "greedy"]


def test_cli_bad_players_is_one_line(capsys: Any) -> None:
    assert main(["play", "--players", "human,chess"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("indigo: error: ")
    assert 'unknown bot "chess"' in lines[0]


def test_cli_play_through_a_pipe(tmp_path: Path) -> None:
    save = tmp_path / "piped.json"
    first = str(Game(Rules.butterfly_garden(2), seed=6).legal_moves[0])
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "indigo",
            "play",
            "--players",
            "human,random",
            "--seed",
            "6",
            "--theme",
            "butterfly-garden",
            "--save",
            str(save),
        ],
        input=f"bad\n{first}\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "\x1b[" not in result.stdout  # no colour into a pipe
    assert f"> {first}" in result.stdout  # piped input is echoed
    record = json.loads(save.read_text())
    assert record["theme"] == "butterfly-garden"
    assert record["rules"]["hand_size"] == 2
    assert len(record["moves"]) == 2


def _hands_shown(out: str, seat: int) -> list[str]:
    """Every hand the transcript shows for ``seat`` in a status line."""
    return re.findall(rf"^  P{seat}  score .* hand (\S+)", out, re.M)


def test_a_person_never_sees_a_hidden_tile(tmp_path: Path) -> None:
    rules = Rules.tactical(3)  # two tiles each, hands private
    seats = ["human", "greedy", "random"]
    _, typed = _script(rules, seats, seed=13)
    session, out, _ = _session(seats, [*typed[:6], "board", "undo", "quit"], 13, tmp_path, rules)
    game = session.game
    assert not rules.open_hands
    for bot in (1, 2):
        shown = _hands_shown(out, bot)
        assert len(shown) >= 6
        assert all(set(hand.split(",")) <= {"?", "-"} for hand in shown), shown
    mine = _hands_shown(out, 0)
    assert all(hand != "-" and "?" not in hand for hand in mine[:-1])
    # The prompt shows only the person's own hand.
    assert re.findall(r"^P\d hand", out, re.M) == ["P0 hand"] * len(re.findall(r"> ", out))
    assert game.moves  # the game went on before the quit


def test_open_hands_are_shown_to_a_person(tmp_path: Path) -> None:
    rules = Rules(2, 2, open_hands=True)
    game = Game(rules, seed=5)
    _, out, _ = _session(["human", "greedy"], ["quit"], 5, tmp_path, rules)
    assert _hands_shown(out, 1) == [",".join(map(str, game.hand(1)))]


def test_spectators_of_bots_see_every_hand(capsys: Any) -> None:
    assert main(["demo", "--seed", "6", "--hand-size", "2", "--players", "3"]) == 0
    out = capsys.readouterr().out
    for seat in range(3):
        shown = _hands_shown(out, seat)
        assert len(shown) > 20
        assert all("?" not in hand for hand in shown)
        assert any(re.fullmatch(r"\d,\d", hand) for hand in shown)
    session = TerminalPlay(
        Rules.indigo(2),
        ["greedy", "greedy"],
        seed=2,
        stdin=io.StringIO(""),
        out=io.StringIO(),
    )
    assert session.viewer is None


def test_quitting_unsaved_moves_asks_first() -> None:
    rules = Rules.indigo(2)
    _, typed = _script(rules, ["human", "greedy"], seed=9)
    out = io.StringIO()
    lines = [typed[0], "q", "n", "quit", "yes"]
    session = TerminalPlay(
        rules,
        ["human", "greedy"],
        seed=9,
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
    )
    assert session.run() == 0
    text = out.getvalue()
    assert text.count("Quit and lose 2 unsaved moves (save FILE keeps them)? [y/N]") == 2
    assert "Not quitting: play on." in text
    assert "Stopped after 2 moves." in text
    # Nothing played yet: quit at once.
    quiet = io.StringIO()
    fresh = TerminalPlay(rules, ["human", "greedy"], seed=9, stdin=io.StringIO("q\n"), out=quiet)
    assert fresh.run() == 0
    assert "Quit and lose" not in quiet.getvalue()
    assert "Stopped after 0 moves." in quiet.getvalue()


def test_tiles_are_drawn_as_paths_unless_codes_are_asked_for(tmp_path: Path) -> None:
    rules = Rules.indigo(2)
    _, typed = _script(rules, ["human", "greedy"], seed=3)
    session, out, _ = _session(["human", "greedy"], [typed[0], "codes", "quit"], 3, tmp_path)
    game = session.game
    assert len(game.board) == 2
    paths = board_text(game, colour=False, codes=False)
    codes = board_text(game, colour=False, codes=True)
    before, after = out.split("> codes")
    assert paths in before
    assert codes in after
    assert "@" not in paths  # no codes: the paths are drawn
    for tile, rotation in game.board.values():
        assert f"{tile}@{rotation}" in codes
        assert set(tile_braille(tile, rotation).values()) <= set(paths)
    assert paths.count("*") == 1  # the last move's mark
    assert "a placed tile shows its three paths" in out


@pytest.mark.parametrize("tile", range(5))
def test_tile_braille_is_the_tile_turned(tile: int) -> None:
    drawings: dict[int, dict[tuple[int, int], str]] = {}
    for rotation in range(6):
        canonical = indigo.Move(tile, rotation, 0, -1).canonical().rotation
        drawn = tile_braille(tile, rotation)
        assert all(0x2800 < ord(ch) <= 0x28FF for ch in drawn.values())
        assert drawings.setdefault(canonical, drawn) == drawn
    # Placements that differ look different.
    assert len({tuple(sorted(d.items())) for d in drawings.values()}) == len(drawings)


def test_save_command_writes_the_record_and_quitting_then_asks_nothing(tmp_path: Path) -> None:
    rules = Rules.indigo(2)
    _, typed = _script(rules, ["human", "greedy"], seed=9)
    record = tmp_path / "kept.json"
    out = io.StringIO()
    lines = ["save", f"save {record}", typed[0], f"save {record}", "q"]
    session = TerminalPlay(
        rules,
        ["human", "greedy"],
        seed=9,
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
    )
    assert session.run() == 0
    text = out.getvalue()
    assert "error: save FILE (no --save file was given)" in text
    assert text.count(f"Record saved to {record}.") == 2
    assert "Quit and lose" not in text
    assert len(Game.from_record(json.loads(record.read_text(encoding="utf-8"))).moves) == 2


def _indigo(
    argv: list[str], stdin: bytes, cwd: Path, errors: str = "surrogateescape"
) -> subprocess.CompletedProcess[str]:
    """``python -m indigo ARGV`` fed ``stdin`` as bytes, decoded as UTF-8 with ``errors``
    (a C or POSIX locale's ``surrogateescape``, or ``strict``)."""
    result = subprocess.run(
        [sys.executable, "-m", "indigo", *argv],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": f"utf-8:{errors}"},
        timeout=120,
        check=False,
    )
    return subprocess.CompletedProcess(
        result.args,
        result.returncode,
        result.stdout.decode("utf-8", "replace"),
        result.stderr.decode("utf-8", "replace"),
    )


@pytest.mark.parametrize("errors", ["surrogateescape", "strict"])
@pytest.mark.parametrize("game", ["indigo", "queens-garden"])
def test_input_that_is_not_text_stops_the_game_with_one_error_line(
    game: str, errors: str, tmp_path: Path
) -> None:
    """Bytes that are not UTF-8 end the session as the end of input does (the record is
    saved), then one ``indigo: error:`` line and status 2, not a traceback."""
    save = tmp_path / "record.json"
    argv = ["play", "--game", game, "--players", "human,random", "--seed", "1"]
    result = _indigo([*argv, "--save", str(save)], b"\xff\n", tmp_path, errors)
    assert result.returncode == 2, result.stderr
    assert result.stderr == "indigo: error: the input after move 0 is not UTF-8 text\n"
    assert "Stopped after 0 moves." in result.stdout
    assert json.loads(save.read_text())["moves"] == []


def test_a_record_that_cannot_be_written_is_one_error_line(tmp_path: Path) -> None:
    """``--save /dev/full``: the write fails at the end (a full device names no file)."""
    result = _indigo(
        ["play", "--players", "human,random", "--seed", "1", "--save", "/dev/full"],
        b"quit\n",
        tmp_path,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr == "indigo: error: /dev/full: No space left on device\n"
