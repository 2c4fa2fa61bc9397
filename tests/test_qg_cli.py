"""``indigo demo --game queens-garden``, the help texts, and the terminal picture of a position."""

from __future__ import annotations

import re
from typing import Any

import pytest

from indigo import queens_garden as qg
from indigo.cli import main
from indigo.queens_garden.terminal import final_text, garden_text, position_text
from qg_support import GAME_NAMES, hexagons, load, position

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _api_game(players: int, seed: int) -> qg.Game:
    """The game the demo plays: set up from the seed, one ``random`` bot seeded alike."""
    game = qg.Game(qg.Rules(players), seed=seed)
    bots = [qg.make_bot("random", seed=seed + seat) for seat in range(players)]
    while not game.over:
        assert game.to_move is not None
        game.play(bots[game.to_move].choose(game))
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_demo_plays_a_whole_game(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    seed = 20 + players
    argv = ["demo", "--game", "queens-garden", "--players", str(players), "--seed", str(seed)]
    assert main([*argv, "--bot", "random"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "\x1b" not in out  # captured stdout is not a terminal
    assert "placeholder" in out
    game = _api_game(players, seed)
    # Every move is narrated in canonical notation.
    for number, move in enumerate(game.moves, start=1):
        assert f"Move {number}: P" in out
        assert str(move) in out
    assert out.count("Round ") >= 4
    # The final breakdown, one line per seat, adds up to the final score.
    tail = out[out.rindex("Final scoring") :]
    assert game.final_scoring is not None
    for seat, part in enumerate(game.final_scoring):
        before = game.scores[seat] - part["storage"] - part["groups"] - part["bonus"]
        line = (
            f"P{seat}: {before} {part['storage']:+d} storage {part['groups']:+d} groups "
            f"{part['bonus']:+d} bonus = {game.scores[seat]}"
        )
        assert line in tail
    winners = " and ".join(f"P{s}" for s in game.winners)
    assert re.search(rf"^Winners?: {winners}$", tail, re.M)


def test_demo_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    # The default bot (best:1000) searches a fixed number of simulations: a seed replays.
    argv = ["demo", "--game", "queens-garden", "--seed", "5"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert first.startswith("Azul: Queen's Garden: 2 players, best:1000 bots, seed 5")
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    assert main(["demo", "--game", "queens-garden", "--seed", "6", "--bot", "random"]) == 0
    assert capsys.readouterr().out != first


def test_demo_help_says_the_wheel_is_a_placeholder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "queens-garden" in text
    assert "placeholder, not the printed wheel" in text.lower()


@pytest.mark.parametrize("argv", [["demo", "--game", "azul"], ["demo", "--game"]])
def test_demo_bad_game(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "--game" in err


def free_spaces(garden: dict[str, Any]) -> list[str]:
    """The garden's spaces a tile may still go on: the fountain ring and every placed
    expansion's area (its centre too while face down), less the tiles and printed hexagons."""
    cells = [f"f{d}" for d in range(6)]
    for area, piece in enumerate(garden["areas"]):
        if piece is not None:
            cells += [f"a{area}{p}" for p in range(6)]
            cells += [f"a{area}c"] if piece["face"] == "down" else []
    taken = hexagons(garden)
    return [cell for cell in cells if position(cell) not in taken]


def test_garden_picture_shows_every_hexagon() -> None:
    snap = qg.Game.from_record(load(GAME_NAMES[4])["record"]).snapshot()
    for garden in snap["gardens"]:
        rows = garden_text(garden)
        assert len(rows) == 17
        assert len({len(row) for row in rows}) == 1
        text = "\n".join(rows)
        placed = hexagons(garden)
        printed = [p["kind"] for p in garden["areas"] if p is not None and p["face"] == "up"]
        assert sorted(re.findall(r"\b[a-z]{2}[1-6]\b", text)) == sorted(garden["tiles"].values())
        assert sorted(re.findall(r"\b[A-Z]{2}[1-6]\b", text)) == sorted(k.upper() for k in printed)
        assert text.count("(F)") == 1
        assert text.count("(S)") == 3
        assert text.count("(B)") == 3
        assert text.count("(P)") == len(printed)
        # Every free space carries the name moves give it, where its cell lies.
        free = free_spaces(garden)
        assert sorted(re.findall(r"\b(f[0-5]|a[0-5][0-5c])\b", text)) == sorted(free)
        for cell in free:
            q, r = position(cell)
            assert rows[2 * r + q + 8][4 * (q + 4) : 4 * (q + 4) + 3].strip() == cell
        # Each tile is drawn where its cell lies: column q, row 2r + q.
        for cell, kind in garden["tiles"].items():
            q, r = position(cell)
            row = rows[2 * r + q + 8]
            assert row[4 * (q + 4) : 4 * (q + 4) + 3] == kind
        assert len(placed) == len(garden["tiles"]) + len(printed)


def test_position_and_final_text() -> None:
    game = qg.Game.from_record(load(GAME_NAMES[8])["record"])
    snap = game.snapshot()
    text = position_text(snap)
    assert text.startswith("Round 4, game over")
    for seat in range(4):
        assert f"P{seat} garden" in text
        assert f"P{seat} score {snap['scores'][seat]:>3}" in text
    coloured = position_text(snap, colour=True)
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == text
    final = final_text(snap)
    assert [line.split(":")[0] for line in final.splitlines()[1:5]] == [
        f"  P{seat}" for seat in range(4)
    ]
    start = qg.Game(qg.Rules(2), seed=1).snapshot()
    shown = position_text(start)
    assert "P0 to move" in shown
    assert "stack: slot 0 on top with" in shown
