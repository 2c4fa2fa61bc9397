"""``indigo play``: a game at the terminal, fed through its input stream."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import indigo
from indigo import Game, Rules
from indigo.cli import main
from indigo.play import TerminalPlay, legal_cells, parse_seats, tile_picture


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
