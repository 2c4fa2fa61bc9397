"""Every route of the web app, with good and bad input (Starlette's TestClient, no network)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

import indigo
from indigo import Game, Move
from indigo.games import GAMES
from indigo.table import BOT_MENU, QG_BOT_MENU
from indigo.web.app import MAX_BODY, GameStore
from web_server import keyed_client


@pytest.fixture
def client() -> Iterator[TestClient]:
    """A client that keeps each game's token and sends it, as the page does."""
    with keyed_client() as c:
        yield c


def _new(client: TestClient, **body: Any) -> dict[str, Any]:
    """A new game's state (its token, kept by the client, taken out)."""
    body.setdefault("seats", ["human", "greedy"])
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    assert len(state.pop("token")) >= 32
    return state


def _error(response: Any, status: int, text: str) -> None:
    assert response.status_code == status, response.text
    assert text in response.json()["error"]


def _engine(client: TestClient, game_id: str) -> Game:
    """A copy of the server's game (a record is only given once the game is over)."""
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    return store.peek(game_id).game.clone()


def _human_move(state: dict[str, Any]) -> str:
    tile = state["hand"][0]
    q, r = state["legal"][str(tile)]["0"][0] if state["legal"][str(tile)]["0"] else (None, None)
    if q is None:
        rotation = next(int(k) for k, cells in state["legal"][str(tile)].items() if cells)
        q, r = state["legal"][str(tile)][str(rotation)][0]
        return f"{tile}@{rotation}:{q},{r}"
    return f"{tile}@0:{q},{r}"


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    for name in ("app.js", "style.css"):
        # Relative, so that the offline build works from any folder (scripts/build-web).
        assert f'"static/{name}"' in page.text
        assert client.get(f"/static/{name}").status_code == 200
    _error(client.get("/static/nothing.js"), 404, "Not Found")


def test_bots_lists_the_factory_names(client: TestClient) -> None:
    kinds = client.get("/api/bots").json()
    assert kinds["human"] == "human"
    assert {"random", "greedy"} <= set(kinds["bots"])
    for name in kinds["bots"]:
        indigo.make_bot(name, seed=1)


def test_create_and_read_a_game(client: TestClient) -> None:
    state = _new(client, seats=["human", "random", "greedy"], theme="butterfly-garden", seed=12)
    game = Game(indigo.Rules.butterfly_garden(3), seed=12)
    assert state["players"] == 3
    assert state["hand_size"] == 2
    assert state["theme"] == "butterfly-garden"
    assert state["to_move"] == 0
    assert state["to_move_player"] == "human"
    assert state["hand"] == game.hand(0)
    assert [s["player"] for s in state["seats"]] == ["human", "random", "greedy"]
    assert state["svg"].startswith("<svg")
    assert set(state["tiles"]) == {str(t) for t in game.hand(0)}
    # The legal cells are exactly the engine's, for every tile in hand and every rotation.
    for tile, by_rotation in state["legal"].items():
        for rotation, cells in by_rotation.items():
            shown = {tuple(c) for c in cells}
            for q, r in indigo.ROUTE_CELLS:
                assert ((q, r) in shown) == game.is_legal(Move(int(tile), int(rotation), q, r))
    again = client.get(f"/api/games/{state['id']}").json()
    assert again == state
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [state["id"]]
    assert listed[0]["moves"] == 0


def test_options_choose_the_rules(client: TestClient) -> None:
    state = _new(client, seats=["human"] * 3, hand_size=2, gates="exclusive", seed=3)
    rules = _engine(client, state["id"]).rules
    assert (rules.hand_size, rules.three_player_gates, rules.theme) == (2, "exclusive", "indigo")
    assert _new(client, seed=3)["hand_size"] == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"seats": "human,greedy"}, "seats: must be a list"),
        ({"seats": ["human"]}, "2 to 4 seats needed, not 1"),
        ({"seats": ["human"] * 5}, "2 to 4 seats needed, not 5"),
        ({"seats": ["human", 3]}, "seats: must be a list of strings"),
        ({"seats": ["human", "chess"]}, 'seats[1]: bad bot "chess": unknown bot "chess"'),
        ({"seats": ["human", "x" * 100]}, "seats[1]: longer than"),
        ({"seats": ["human", "human"], "theme": "chess"}, "theme: must be one of"),
        ({"seats": ["human", "human"], "gates": 1}, "gates: must be one of"),
        ({"seats": ["human", "human"], "hand_size": 3}, "hand_size: must be an integer from 1"),
        ({"seats": ["human", "human"], "hand_size": True}, "hand_size: must be an integer"),
        ({"seats": ["human", "human"], "hand_size": "1"}, "hand_size: must be an integer"),
        ({"seats": ["human", "human"], "seed": -1}, "seed: must be an integer from 0"),
        ({"seats": ["human", "human"], "seed": 2**63}, "seed: must be an integer"),
        ({"seats": ["human", "human"], "seed": 1.5}, "seed: must be an integer"),
    ],
)
def test_create_rejects_bad_options(client: TestClient, body: Any, message: str) -> None:
    _error(client.post("/api/games", json=body), 400, message)
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{seats", "invalid JSON"),
        (b"\xff\xfe", "invalid JSON"),
        (b"[1, 2]", "must be a JSON object, not list"),
        (b"", "invalid JSON"),
        (b"[" * 100_000, "request body over"),
    ],
)
def test_bad_bodies(client: TestClient, content: bytes, message: str) -> None:
    response = client.post("/api/games", content=content)
    _error(response, 413 if len(content) > MAX_BODY else 400, message)


def test_oversized_bodies_get_413(client: TestClient) -> None:
    big = json.dumps({"seats": ["human", "human"], "pad": "x" * MAX_BODY})
    _error(client.post("/api/games", content=big), 413, "request body over")

    def chunks() -> Iterator[bytes]:  # no content-length: counted as it streams
        yield b'{"seats": ["human", "human"], "pad": "'
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"x" * 1024
        yield b'"}'

    _error(client.post("/api/games", content=chunks()), 413, "request body over")
    lying = {"content-length": "not a number"}
    _error(client.post("/api/games", content=b"{}", headers=lying), 413, "request body")
    assert client.get("/api/games").json()["games"] == []
    _new(client)  # and the server goes on


def test_human_move_then_bot(client: TestClient) -> None:
    state = _new(client, seed=5)
    game_id = state["id"]
    move = _human_move(state)
    answer = client.post(f"/api/games/{game_id}/moves", json={"seat": 0, "move": move})
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert [r["move"] for r in results] == [move]
    after = answer.json()["state"]
    assert after["moves"] == 1
    assert after["to_move"] == 1
    assert after["to_move_player"] == "greedy"
    assert after["hand"] is None
    assert after["legal"] is None
    _error(
        client.post(f"/api/games/{game_id}/moves", json={"seat": 1, "move": move}),
        409,
        "played by the bot 'greedy'",
    )
    bot = client.post(f"/api/games/{game_id}/advance")
    assert bot.status_code == 200, bot.text
    assert len(bot.json()["results"]) == 1
    assert bot.json()["results"][0]["seat"] == 1
    assert bot.json()["state"]["to_move"] == 0
    _error(client.post(f"/api/games/{game_id}/advance", json={}), 409, "seat 0 is a person")
    game = _engine(client, game_id)
    assert [str(m) for m in game.moves][:1] == [move]
    assert len(game.moves) == 2
    assert bot.json()["state"]["seats"][0]["score"] == game.scores[0]


def test_move_paths_carry_svg_tracks(client: TestClient) -> None:
    state = _new(client, seats=["human", "human"], seed=1)
    # 1@0 next to the centre (docs/spec/RULES.md 10) releases an emerald, if the hand holds a 1.
    game = _engine(client, state["id"])
    while game.hand(game.to_move or 0)[0] != 1 or not game.is_legal("1@0:0,-1"):
        game.play(next(m for m in game.legal_moves if m.cell not in {(0, -1), (0, -2)}))
    for move in game.moves:
        seat = client.get(f"/api/games/{state['id']}").json()["to_move"]
        client.post(f"/api/games/{state['id']}/moves", json={"seat": seat, "move": str(move)})
    seat = client.get(f"/api/games/{state['id']}").json()["to_move"]
    answer = client.post(
        f"/api/games/{state['id']}/moves", json={"seat": seat, "move": "1@0:0,-1"}
    ).json()
    (path,) = answer["results"][0]["paths"]
    assert path["gem"] == "emerald"
    assert path["start"] == [0, 0, 0]
    assert path["outcome"] in ("rested", "collected", "collided")
    assert path["d"].startswith("M")
    assert path["colour"] == "#2e9e4f"


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"move": "3@0:0,-3"}, 400, "seat: the seat that moves is required"),
        ({"seat": "0", "move": "3@0:0,-3"}, 400, "seat: must be an integer"),
        ({"seat": 9, "move": "3@0:0,-3"}, 400, "seat: must be an integer from 0 to 3"),
        ({"seat": 2, "move": "3@0:0,-3"}, 400, "this game has seats 0 to 1"),
        ({"seat": 1, "move": "3@0:0,-3"}, 409, "seat 1 is not to move: seat 0 is"),
        ({"seat": 0}, 400, "move: must be a string"),
        ({"seat": 0, "move": 7}, 400, "move: must be a string"),
        ({"seat": 0, "move": "hello"}, 400, "cannot read move"),
        ({"seat": 0, "move": "0@0:0,0"}, 422, "is illegal"),
        ({"seat": 0, "move": "0@0:0,-4"}, 422, "is illegal"),
    ],
)
def test_bad_moves_change_nothing(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    state = _new(client, seats=["human", "human"], seed=2)
    game_id = state["id"]
    _error(client.post(f"/api/games/{game_id}/moves", json=body), status, message)
    assert client.get(f"/api/games/{game_id}").json() == state


def test_an_illegal_move_of_the_hand(client: TestClient) -> None:
    state = _new(client, seats=["human", "human"], seed=2)
    held = state["hand"][0]
    other = next(t for t in range(5) if t != held)
    answer = client.post(
        f"/api/games/{state['id']}/moves", json={"seat": 0, "move": f"{other}@0:0,-3"}
    )
    _error(answer, 422, f"holds no tile of type {other}")


def test_bots_alone_and_a_finished_game(client: TestClient) -> None:
    state = _new(client, seats=["greedy", "random"], seed=7)
    assert state["hand"] is None
    game_id = state["id"]
    _error(client.post(f"/api/games/{game_id}/advance", json={"max": 0}), 400, "max: must be")
    _error(client.post(f"/api/games/{game_id}/advance", content=b"{"), 400, "invalid JSON")
    answer = client.post(f"/api/games/{game_id}/advance", json={"max": 54}).json()
    final = answer["state"]
    assert final["over"]
    game = _engine(client, game_id)
    assert len(answer["results"]) == len(game.moves)
    assert [s["score"] for s in final["seats"]] == game.scores
    assert final["winners"] == game.winners
    # The same seeds give the same game as make_bot does outside the server.
    replay = Game(game.rules, seed=7)
    bots = [indigo.make_bot("greedy", seed=7), indigo.make_bot("random", seed=8)]
    while not replay.over:
        replay.play(bots[replay.to_move or 0].choose(replay))
    assert replay.moves == game.moves
    _error(client.post(f"/api/games/{game_id}/advance"), 409, "the game is over")
    move = {"seat": 0, "move": "0@0:0,-3"}
    _error(client.post(f"/api/games/{game_id}/moves", json=move), 409, "the game is over")


def test_view_steps_through_the_moves(client: TestClient) -> None:
    state = _new(client, seats=["random", "random"], seed=4)
    game_id = state["id"]
    client.post(f"/api/games/{game_id}/advance", json={"max": 6})
    game = _engine(client, game_id)
    for n in (0, 3, 6):
        view = client.get(f"/api/games/{game_id}/view", params={"move": n}).json()
        assert view["moves"] == n
        assert view["total_moves"] == 6
        assert f'data-moves="{n}"' in view["svg"]
        earlier = Game(game.rules, pile=game.pile)
        for move in game.moves[:n]:
            earlier.play(move)
        assert [s["score"] for s in view["seats"]] == earlier.scores
        assert view["to_move"] == earlier.to_move
    for bad in ("7", "-1", "x", ""):
        _error(
            client.get(f"/api/games/{game_id}/view", params={"move": bad}),
            400,
            "move: must be an integer from 0 to 6",
        )


def test_record_download_and_load(client: TestClient) -> None:
    state = _new(client, seats=["greedy", "greedy", "greedy", "greedy"], seed=9)
    client.post(f"/api/games/{state['id']}/advance", json={"max": 10})
    # Mid-game the record would show the pile (every future draw): it waits for the end.
    _error(client.get(f"/api/games/{state['id']}/record"), 409, "once the game is over")
    client.post(f"/api/games/{state['id']}/advance", json={"max": 54})
    response = client.get(f"/api/games/{state['id']}/record")
    assert response.headers["content-disposition"].startswith("attachment;")
    record = response.json()
    assert len(record["moves"]) == len(_engine(client, state["id"]).moves)
    assert record["seed"] == 9
    loaded = client.post("/api/games/load", json={"record": record})
    assert loaded.status_code == 201, loaded.text
    copy = loaded.json()
    assert copy["id"] != state["id"]
    listed = {g["id"] for g in client.get("/api/games").json()["games"]}
    assert listed == {state["id"], copy["id"]}
    assert copy["over"]
    assert [s["player"] for s in copy["seats"]] == ["human"] * 4
    assert _engine(client, copy["id"]) == _engine(client, state["id"])
    # An unfinished record of one's own loads and goes on.
    early = Game(indigo.Rules.indigo(4), seed=9)
    for _ in range(10):
        early.play(early.legal_moves[0])
    seats = {"record": early.to_record(), "seats": ["human", "greedy", "random", "greedy"]}
    loaded = client.post("/api/games/load", json=seats)
    assert loaded.status_code == 201, loaded.text
    assert _engine(client, loaded.json()["id"]) == early


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "record: must be an indigo-record/1 JSON object"),
        ({"record": "text"}, "record: must be an indigo-record/1 JSON object"),
        ({"record": {"format": "indigo-record/9"}}, "format"),
        ({"record": {"format": "indigo-record/1", "rules": {"players": 7}}}, "rules.players"),
    ],
)
def test_load_rejects_bad_records(client: TestClient, body: Any, message: str) -> None:
    _error(client.post("/api/games/load", json=body), 400, message)


def test_load_rejects_seats_that_do_not_fit(client: TestClient) -> None:
    record = Game(indigo.Rules.indigo(3), seed=1).to_record()
    body = {"record": record, "seats": ["human", "greedy"]}
    _error(client.post("/api/games/load", json=body), 400, "seats: 3 seats needed, not 2")


def test_unknown_games_routes_and_methods(client: TestClient) -> None:
    for method, path in [
        ("GET", "/api/games/nope"),
        ("DELETE", "/api/games/nope"),
        ("GET", "/api/games/nope/view?move=0"),
        ("GET", "/api/games/nope/record"),
        ("POST", "/api/games/nope/moves"),
        ("POST", "/api/games/nope/advance"),
    ]:
        _error(
            client.request(method, path, json={"seat": 0, "move": "0@0:0,-3"}),
            404,
            "no game 'nope' on this server for this token",
        )
    _error(client.get("/api/nothing"), 404, "Not Found")
    _error(client.put("/api/games"), 405, "Method Not Allowed")


def test_delete(client: TestClient) -> None:
    state = _new(client)
    assert client.delete(f"/api/games/{state['id']}").json() == {"deleted": state["id"]}
    _error(client.get(f"/api/games/{state['id']}"), 404, "no game")
    _error(client.delete(f"/api/games/{state['id']}"), 404, "no game")


def test_the_store_is_bounded() -> None:
    with keyed_client(max_games=3) as client:
        ids = [_new(client)["id"] for _ in range(3)]
        _error(client.post("/api/games", json={"seats": ["human", "human"]}), 503, "3 games")
        client.delete(f"/api/games/{ids[0]}")
        _new(client)


def test_indigo_serve_command() -> None:
    """``indigo serve`` starts uvicorn with the app; stopped by the test once it answers."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "indigo", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/bots", timeout=5) as r:
                    assert "greedy" in json.loads(r.read())["bots"]
                break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "indigo serve did not answer"
                time.sleep(0.2)
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=30)
    assert f"serving on http://127.0.0.1:{port}/" in out


def test_undo_takes_back_the_person_and_the_bot_replies(client: TestClient) -> None:
    state = _new(client, seats=["human", "greedy", "random"], seed=7)
    game_id = state["id"]
    _error(client.post(f"/api/games/{game_id}/undo"), 409, "no move of a person to undo")
    assert state["can_undo"] is False
    first = _human_move(state)
    client.post(f"/api/games/{game_id}/moves", json={"seat": 0, "move": first})
    after = client.post(f"/api/games/{game_id}/advance", json={"max": 2}).json()["state"]
    assert after["moves"] == 3
    assert after["can_undo"] is True
    before = _engine(client, game_id)
    undone = client.post(f"/api/games/{game_id}/undo")
    assert undone.status_code == 200, undone.text
    assert undone.json()["undone"] == 3
    back = undone.json()["state"]
    assert (back["moves"], back["to_move"], back["log"]) == (0, 0, [])
    assert back["hand"] == Game(indigo.Rules.indigo(3), seed=7).hand(0)
    assert _engine(client, game_id) == Game(indigo.Rules.indigo(3), seed=7)
    # The same move again gives the same position: undo changed nothing else.
    client.post(f"/api/games/{game_id}/moves", json={"seat": 0, "move": first})
    assert _engine(client, game_id).moves == before.moves[:1]
    # Without the token, undo is refused as an unknown game is, and the game is unchanged.
    foreign = client.post(f"/api/games/{game_id}/undo", headers={"x-game-token": "wrong"})
    _error(foreign, 404, "no game")
    assert len(_engine(client, game_id).moves) == 1


def test_undo_waits_for_a_choosing_bot(client: TestClient) -> None:
    state = _new(client, seats=["human", "ismcts:10"], seed=3)
    game_id = state["id"]
    client.post(f"/api/games/{game_id}/moves", json={"seat": 0, "move": _human_move(state)})
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    session = store.peek(game_id)
    held = threading.Event()
    release = threading.Event()

    class Held:
        def choose(self, game: Game) -> Move:
            held.set()
            assert release.wait(60)
            return game.legal_moves[0]

    session.bots[1] = Held()  # type: ignore[assignment]
    answer: dict[str, Any] = {}
    thread = threading.Thread(
        target=lambda: answer.update(r=client.post(f"/api/games/{game_id}/advance"))
    )
    thread.start()
    try:
        assert held.wait(60)
        _error(client.post(f"/api/games/{game_id}/undo"), 409, "choosing a move")
        assert len(_engine(client, game_id).moves) == 1
    finally:
        release.set()
        thread.join(60)
    assert answer["r"].status_code == 200
    assert client.post(f"/api/games/{game_id}/undo").json()["state"]["moves"] == 0


def test_moves_in_words_and_the_log(client: TestClient) -> None:
    state = _new(client, seats=["greedy", "greedy"], theme="butterfly-garden", seed=4)
    game_id = state["id"]
    results = client.post(f"/api/games/{game_id}/advance", json={"max": 54}).json()["results"]
    final = client.get(f"/api/games/{game_id}").json()
    game = _engine(client, game_id)
    assert final["over"]
    assert [r["text"] for r in results] == final["log"]
    assert [r["marks"] for r in results] == final["log_marks"]
    assert [m["cells"] for m in final["log_marks"]] == [[[m.q, m.r]] for m in game.moves]
    assert len(final["log"]) == len(game.moves)
    for number, (lines, move) in enumerate(zip(final["log"], game.moves, strict=True), 1):
        assert lines[0].startswith(f"Move {number}: P{(number - 1) % 2} placed a tile ")
        assert str(move) not in "".join(lines)  # words, not notation
        assert "\x1b" not in "".join(lines)
    told = "\n".join(line for lines in final["log"] for line in lines)
    assert "butterfly" in told
    assert "flowerbed" in told
    assert "amber" not in told  # the theme's names
    collected = sum(n for seat in game.collected for n in seat.values())
    assert 0 < told.count("left through") <= collected
    assert told.count("'s flowerbed ") == told.count("left through")
    assert final["end"].startswith("no gem is left on the board")
    assert final["can_undo"] is False  # nobody sits at this table
    view = client.get(f"/api/games/{game_id}/view", params={"move": 3}).json()
    assert view["last"]["text"] == final["log"][2]
    assert view["end"] == ""


def test_the_bot_menu_and_loaded_names(client: TestClient) -> None:
    menu = client.get("/api/bots").json()["menu"]
    assert [m["spec"] for m in menu][:2] == ["random", "greedy"]
    for choice in menu:
        indigo.make_bot(choice["spec"], seed=1)
        assert choice["label"]
        assert choice["hint"]
    game = Game(indigo.Rules.indigo(3), seed=2)
    record = {**game.to_record(), "players_names": ["Ada", 7, "  Bo  b "]}
    loaded = client.post("/api/games/upload", content=json.dumps(record).encode())
    assert loaded.status_code == 201, loaded.text
    assert [s["name"] for s in loaded.json()["seats"]] == ["Ada", "human", "Bo b"]
    plain = _new(client, seats=["human", "ismcts"])
    # A bot's name is its menu label; the spec stays its `player`.
    assert [s["name"] for s in plain["seats"]] == ["human", "Search 1000"]
    assert [s["player"] for s in plain["seats"]] == ["human", "ismcts:1000"]
    # The menus label a spec alike (one name per bot, whichever game).
    labels: dict[str, str] = {}
    for choice in (*BOT_MENU, *QG_BOT_MENU):
        assert labels.setdefault(choice.spec, choice.label) == choice.label
    # The page's headings are the registry's titles.
    assert client.get("/api/bots").json()["titles"] == {e.name: e.title for e in GAMES}
    # A server with lower limits offers only the bots it lets a seat play.
    with keyed_client(max_simulations=1000) as small:
        offered = [m["spec"] for m in small.get("/api/bots").json()["menu"]]
    # (a time budget is held to --max-search-time, not to --max-simulations)
    assert offered == ["random", "greedy", "ismcts:200", "ismcts:1000", "best:time=0.1"]
