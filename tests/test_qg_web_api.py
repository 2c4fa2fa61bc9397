"""The web API for Queen's Garden games: the same tokens, turns, undo and errors as Indigo's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from indigo import IllegalMoveError
from indigo import queens_garden as qg
from indigo.queens_garden.choices import move_choices
from indigo.web.app import TOKEN_HEADER
from web_server import keyed_client


@pytest.fixture
def client() -> TestClient:
    return keyed_client()


def _create(client: TestClient, seats: list[str], seed: int = 3) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": "queens-garden", "seats": seats, "seed": seed})
    assert answer.status_code == 201, answer.text
    state: dict[str, Any] = answer.json()
    return state


def test_create_shows_the_position_and_the_choices(client: TestClient) -> None:
    state = _create(client, ["human", "random"])
    assert state["game"] == "queens-garden"
    assert state["to_move"] == 0
    assert state["to_move_player"] == "human"
    game = qg.Game(qg.Rules(2), seed=3)
    assert state["snapshot"] == game.snapshot()
    assert state["choices"] == json.loads(json.dumps(move_choices(game.legal_moves)))
    assert state["svg"].startswith('<svg xmlns="http://www.w3.org/2000/svg" class="queens-garden"')
    assert state["svg_narrow"].startswith('<svg xmlns="http://www.w3.org/2000/svg" class="qu')
    assert 'viewBox="0 0 390 ' in state["svg_narrow"]
    assert [s["score"] for s in state["seats"]] == [15, 15]
    assert state["log"] == []
    assert set(state["attributes"]) == set(qg.ATTRIBUTES)
    assert 'class="glyph"' in state["attributes"]["4"]
    assert ">bl</text>" in state["attributes"]["bl"]
    assert state["can_undo"] is False
    assert len(state["token"]) == 43
    listed = client.get("/api/games").json()["games"]
    assert listed == [
        {
            "id": state["id"],
            "seats": ["human", "random"],
            "moves": 0,
            "over": False,
            "theme": "queens-garden",
        }
    ]
    bots = client.get("/api/bots").json()
    assert [c["spec"] for c in bots["qg_menu"]] == [
        "random",
        "greedy",
        "ismcts:300",
        "ismcts:1000",
        "best:time=0.1",
    ]


def test_the_token_guards_the_game(client: TestClient) -> None:
    state = _create(client, ["human", "random"])
    route = f"/api/games/{state['id']}"
    stranger = TestClient(client.app)
    for method, path in [("GET", route), ("POST", f"{route}/moves"), ("POST", f"{route}/undo")]:
        answer = stranger.request(method, path, headers={TOKEN_HEADER: "wrong"}, json={})
        assert answer.status_code == 404
        assert answer.json() == {"error": f"no game '{state['id']}' on this server for this token"}


def test_moves_bots_undo_and_the_record(client: TestClient) -> None:
    state = _create(client, ["human", "random"], seed=7)
    route = f"/api/games/{state['id']}"
    answer = client.post(f"{route}/moves", json={"seat": 0, "move": "take ye"})
    assert answer.status_code == 200, answer.text
    result = answer.json()["results"][0]
    assert result == {
        "move": "take ye",
        "seat": 0,
        "points": [0, 0],
        "game_over": False,
        "paths": [],
        "text": ["Move 1: P0 took the yellow hexagons: yellow 2 and yellow 5 from slot 0"],
        "marks": {"seat": 0, "cells": [], "slots": [0]},
    }
    after = answer.json()["state"]
    assert after["to_move"] == 1
    assert after["choices"] is None
    assert after["log"] == [result["text"]]
    assert after["log_marks"] == [result["marks"]]
    assert client.post(f"{route}/moves", json={"seat": 1, "move": "pass"}).status_code == 409
    answer = client.post(f"{route}/advance")
    assert answer.status_code == 200
    assert [r["seat"] for r in answer.json()["results"]] == [1]
    assert answer.json()["state"]["can_undo"] is True
    assert client.get(f"{route}/record").status_code == 409  # not over yet
    undone = client.post(f"{route}/undo").json()
    assert undone["undone"] == 2
    assert undone["state"]["moves"] == 0
    assert client.post(f"{route}/undo").status_code == 409
    # Play to the end: the person passes, the bot plays on; the record replays to the same end.
    state = undone["state"]
    while not state["over"]:
        if state["to_move_player"] == "human":
            answer = client.post(f"{route}/moves", json={"seat": state["to_move"], "move": "pass"})
        else:
            answer = client.post(f"{route}/advance", json={"max": 54})
        assert answer.status_code == 200, answer.text
        state = answer.json()["state"]
    record = client.get(f"{route}/record")
    assert record.status_code == 200
    assert "queens-garden-" in record.headers["content-disposition"]
    game = qg.Game.from_record(record.json())
    assert game.scores == [s["score"] for s in state["seats"]]
    assert game.winners == state["winners"]
    assert state["end"]
    assert len(state["log"]) == game.moves_played
    view = client.get(f"{route}/view?move=1").json()
    assert view["moves"] == 1
    assert view["total_moves"] == game.moves_played
    assert view["last"]["move"] == str(game.moves[0])


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"seat": 0, "move": "take bl"}, 422, "selection is empty"),
        ({"seat": 0, "move": "tile bl9 f0"}, 400, "move: "),
        ({"seat": 0, "move": "3@0:0,-3"}, 400, "move: "),
        ({"seat": 0, "move": 5}, 400, "must be a string"),
        ({"seat": 1, "move": "pass"}, 409, "not to move"),
        ({"seat": 2, "move": "pass"}, 400, "seats 0 to 1"),
        ({"move": "pass"}, 400, "seat: the seat"),
    ],
)
def test_bad_moves_change_nothing(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    state = _create(client, ["human", "human"], seed=3)
    route = f"/api/games/{state['id']}"
    answer = client.post(f"{route}/moves", json=body)
    assert answer.status_code == status
    assert message in answer.json()["error"]
    assert client.get(route).json()["moves"] == 0


def test_bad_games_and_seats(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "chess", "seats": ["human", "random"]})
    assert answer.status_code == 400
    assert "game: must be one of indigo, queens-garden" in answer.json()["error"]
    answer = client.post("/api/games", json={"game": "queens-garden", "seats": ["human", "nobot"]})
    assert answer.status_code == 400
    answer = client.post(
        "/api/games", json={"game": "queens-garden", "seats": ["human", "ismcts:50"], "seed": 2}
    )
    assert answer.status_code == 201
    route = f"/api/games/{answer.json()['id']}"
    assert client.post(f"{route}/moves", json={"seat": 0, "move": "pass"}).status_code == 200
    moved = client.post(f"{route}/advance").json()  # a searching bot, on the search pool
    assert moved["results"][0]["seat"] == 1
    answer = client.post(
        "/api/games", json={"game": "queens-garden", "seats": ["human", "ismcts:1e12"]}
    )
    assert answer.status_code == 422
    assert "max-simulations" in answer.json()["error"]


def test_load_and_upload_a_queens_garden_record(client: TestClient) -> None:
    game = qg.Game(qg.Rules(3), seed=5)
    bot = qg.make_bot("random", seed=5)
    for _ in range(12):
        game.play(bot.choose(game))
    record = {**game.to_record(), "players_names": ["Ada", "Bo", "Cy"]}
    loaded = client.post("/api/games/load", json={"record": record, "seats": ["human"] * 3})
    assert loaded.status_code == 201, loaded.text
    assert loaded.json()["moves"] == 12
    assert [s["name"] for s in loaded.json()["seats"]] == ["Ada", "Bo", "Cy"]
    uploaded = client.post("/api/games/upload", content=json.dumps(record).encode())
    assert uploaded.status_code == 201
    assert uploaded.json()["snapshot"] == game.snapshot()
    bad = {**record, "moves": ["take zz"]}
    answer = client.post("/api/games/load", json={"record": bad})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("record: ")


def test_each_attribute_that_may_not_be_taken_says_why(client: TestClient) -> None:
    state = _create(client, ["human", "human"], seed=9)
    headers = {TOKEN_HEADER: state["token"]}
    game = qg.Game(qg.Rules(2), seed=9)
    seen: set[str] = set()
    for turn in range(120):
        if game.over:
            break
        refusals = state["take_refusals"]
        assert set(refusals) == set(qg.ATTRIBUTES) - set(state["choices"]["take"])
        for attribute, reason in refusals.items():
            with pytest.raises(IllegalMoveError, match="is illegal: ") as refused:
                game.clone().play(f"take {attribute}")
            assert reason
            assert str(refused.value).endswith(f" is illegal: {reason}")
            seen.add(reason.split(":")[0])
        move = str(game.legal_moves[(7 * turn) % len(game.legal_moves)])
        answer = client.post(
            f"/api/games/{state['id']}/moves",
            json={"seat": game.to_move, "move": move},
            headers=headers,
        )
        assert answer.status_code == 200, answer.text
        game.play(move)
        state = answer.json()["state"]
    # Both reasons a take is refused: nothing shows the attribute, or it does not fit.
    assert any(r.startswith("no hexagon in the display shows") for r in seen), seen
    assert "the selection does not fit the storage" in seen, seen
