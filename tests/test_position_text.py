"""Positions as text (docs/notation.md and docs/queens-garden.md, "Positions as text"), through
the Python API: every position of every vector game of both games reads back to the same text,
the game read back plays on, and a bad text raises :class:`indigo.RecordError` naming its field.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from indigo import Game, IndigoError, Move, RecordError
from indigo import queens_garden as qg

VECTORS = Path(__file__).parent / "vectors"
VECTORS_QG = Path(__file__).parent / "vectors-qg"


def record_of(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text())["record"]
    return record


@pytest.mark.parametrize("name", [f"game-{i:02}.json" for i in range(1, 9)])
def test_every_indigo_position_reads_back(name: str) -> None:
    record = record_of(VECTORS / name)
    moves = record["moves"]
    game = Game.from_record({**record, "moves": []})
    final = Game.from_record(record)
    for i, m in enumerate([None, *moves]):
        if m is not None:
            game.play(Move(m["tile"], m["rotation"], m["q"], m["r"]))
        text = game.position()
        copy = Game.from_position(text, seed=i)
        assert copy.position() == text, f"{name} after {i} moves"
        assert copy.legal_moves == game.legal_moves
    assert game.position() == final.position()
    assert game.scores == final.scores


@pytest.mark.parametrize("name", [f"game-{i:02}.json" for i in range(1, 13)])
def test_every_queens_garden_position_reads_back(name: str) -> None:
    record = record_of(VECTORS_QG / name)
    game = qg.Game.from_record({**record, "moves": []})
    for i, m in enumerate([None, *record["moves"]]):
        if m is not None:
            game.play(m)
        text = game.position()
        copy = qg.Game.from_position(text, seed=i)
        assert copy.position() == text, f"{name} after {i} moves"
        assert copy.legal_moves == game.legal_moves
    assert game.position() == qg.Game.from_record(record).position()


def test_a_game_read_from_a_position_plays_to_the_end() -> None:
    game = Game.from_position(Game(seed=3).position(), seed=4)
    while game.legal_moves:
        game.play(game.legal_moves[0])
    assert game.position().endswith(" -")
    garden = qg.Game.from_position(qg.Game(seed=3).position())
    while garden.legal_moves:
        garden.play(garden.legal_moves[0])
    assert garden.position().split(" ")[1] == "over"


def field_of(error: pytest.ExceptionInfo[RecordError]) -> object:
    return error.value.at


def test_bad_indigo_positions_raise_naming_the_field() -> None:
    fields = Game(seed=7).position().split(" ")
    for k, bad, at in [
        (0, "indigo,5,1,shared,most-gems,closed", "rules"),
        (2, "a@6:0,-4", "gems"),
        (4, "2", "removed"),
        (6, "0/4", "pile"),
        (8, "1", "turn"),
    ]:
        text = " ".join([*fields[:k], bad, *fields[k + 1 :]])
        with pytest.raises(RecordError) as error:
            Game.from_position(text, seed=1)
        assert field_of(error) == at, str(error.value)
        assert str(error.value).startswith(f"{at}: ")
    with pytest.raises(RecordError, match=r"^position: must be 9 fields"):
        Game.from_position("indigo", seed=1)


def test_bad_queens_garden_positions_raise_naming_the_field() -> None:
    fields = qg.Game(seed=7).position().split(" ")
    for k, bad, at in [
        (0, "5;x;1,1,1,1", "rules"),
        (2, "3", "turn"),
        (4, "PP", "passed"),
        (12, "99", "supply"),
        (15, "3", "moves"),
    ]:
        text = " ".join([*fields[:k], bad, *fields[k + 1 :]])
        with pytest.raises(RecordError) as error:
            qg.Game.from_position(text, seed=1)
        assert field_of(error) == at, str(error.value)
    with pytest.raises(RecordError, match=r"^position: must be 16 fields"):
        qg.Game.from_position("2", seed=1)


def test_a_game_from_a_mid_game_position_has_no_record() -> None:
    start = Game.from_position(Game(seed=5).position(), seed=6)
    assert Game.from_record(start.record_json()).position() == start.position()
    assert pickle.loads(pickle.dumps(start)) == start
    game = Game(seed=5)
    game.play(game.legal_moves[0])
    mid = Game.from_position(game.position(), seed=6)
    for write in (mid.to_record, mid.record_json, lambda: pickle.dumps(mid)):
        with pytest.raises(IndigoError, match="has no record"):
            write()
    assert mid.clone().position() == mid.position()
