"""The web server's hardening (issue 15, items 9 to 12).

Games are capabilities (a token per game; a wrong one is a 404 like an unknown id), the server's
limits stop one client from exhausting it (bot specs, caps, expiry, a bounded search pool that
reads and cheap bots never wait for, a prompt Ctrl-C), no malformed request gets a 5xx, and
record bytes are read by one reader, the same in the CLI and on the web.
"""

from __future__ import annotations

import json
import logging
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import indigo
from indigo import Game, IndigoError, Move, RecordError
from indigo.cli import build_parser, main
from indigo.games import GAMES
from indigo.records import MAX_RECORD_BYTES, parse_record, read_record
from indigo.web.app import MAX_BODY, TOKEN_HEADER, ApiError, GameStore, SearchPool, create_app
from indigo.web.limits import ServerLimits, limits_from_args
from web_server import keyed_client, live_server

pytestmark = pytest.mark.slow  # left out of scripts/check --quick


def _store(client: TestClient) -> GameStore:
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    return store


def _create(client: TestClient, *seats: str, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"seats": list(seats or ("human", "human")), **body})
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    return state


def _ids(response: Any) -> set[str]:
    assert response.status_code == 200, response.text
    return {g["id"] for g in response.json()["games"]}


def _keys(value: Any) -> Iterator[str]:
    """Every key of every object inside ``value``."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


# ---------------------------------------------------------------------------------------------
# 9. Games are capabilities

GAME_ROUTES = [
    ("GET", ""),
    ("GET", "/view?move=0"),
    ("GET", "/record"),
    ("POST", "/moves"),
    ("POST", "/advance"),
    ("DELETE", ""),
]
BAD_TOKENS: list[tuple[str, Callable[[dict[str, Any]], bytes | None]]] = [
    ("missing", lambda other: None),
    ("empty", lambda other: b""),
    ("wrong", lambda other: b"x" * 43),
    ("another-games", lambda other: other["token"].encode()),
    ("two-tokens", lambda other: f"{other['token']},{other['token']}".encode()),
    ("latin-1", lambda other: b"\xe9" * 43),
    ("ten-kilobytes", lambda other: b"t" * 10_000),
]


@pytest.mark.parametrize(("method", "suffix"), GAME_ROUTES, ids=[m + s for m, s in GAME_ROUTES])
@pytest.mark.parametrize(("name", "token"), BAD_TOKENS, ids=[n for n, _ in BAD_TOKENS])
def test_a_game_answers_only_its_token(
    method: str, suffix: str, name: str, token: Callable[[dict[str, Any]], bytes | None]
) -> None:
    with keyed_client() as owner:
        mine = _create(owner, "greedy", "greedy", seed=3)
        other = _create(owner, seed=4)
        before = owner.get(f"/api/games/{mine['id']}").json()
        stranger = TestClient(owner.app, client=("10.0.0.9", 1))
        header = token(other)
        headers = {} if header is None else {TOKEN_HEADER: header}
        body = {"seat": 0, "move": "0@0:0,-3", "max": 54}
        refused = stranger.request(
            method, f"/api/games/{mine['id']}{suffix}", json=body, headers=headers
        )  # type: ignore[arg-type]
        unknown = stranger.request(
            method, f"/api/games/{'0' * 12}{suffix}", json=body, headers=headers
        )  # type: ignore[arg-type]
        # The same answer as for an id that does not exist: nothing tells that it does.
        assert refused.status_code == unknown.status_code == 404
        assert refused.json()["error"].replace(mine["id"], "?") == unknown.json()["error"].replace(
            "0" * 12, "?"
        )
        assert owner.get(f"/api/games/{mine['id']}").json() == before


def test_tokens_are_long_random_and_one_per_game() -> None:
    with keyed_client() as client:
        created = [_create(client, seed=1) for _ in range(5)]
        record = Game(indigo.Rules.indigo(2), seed=2).to_record()
        created.append(client.post("/api/games/load", json={"record": record}).json())
        created.append(client.post("/api/games/upload", content=json.dumps(record).encode()).json())
        tokens = [state["token"] for state in created]
        assert len(set(tokens)) == len(tokens)
        assert all(len(t) >= 40 for t in tokens)
        # The token is given once, at creation: no other answer carries it.
        game = f"/api/games/{created[0]['id']}"
        assert "token" not in client.get(game).json()
        assert tokens[0] not in client.get("/api/games").text


def test_the_list_shows_only_the_callers_games() -> None:
    with keyed_client() as alice, keyed_client(alice.app, address="10.0.0.2") as bob:
        hers = _create(alice, "greedy", "greedy")
        his = _create(bob)
        assert _ids(alice.get("/api/games")) == {hers["id"]}
        assert _ids(bob.get("/api/games")) == {his["id"]}
        stranger = TestClient(alice.app)
        assert _ids(stranger.get("/api/games")) == set()
        both = f" {hers['token']} , {his['token']},not-a-token"
        assert _ids(stranger.get("/api/games", headers={TOKEN_HEADER: both})) == {
            hers["id"],
            his["id"],
        }
        too_many = ",".join(["x"] * 257)
        response = stranger.get("/api/games", headers={TOKEN_HEADER: too_many})
        assert response.status_code == 400
        assert "at most 256 tokens" in response.json()["error"]
        # Bob can neither play in, advance, download nor delete Alice's game.
        game = f"/api/games/{hers['id']}"
        assert bob.post(f"{game}/advance", json={"max": 54}).status_code == 404
        assert bob.delete(game).status_code == 404
        assert alice.get(game).json()["moves"] == 0


def test_nothing_shows_the_pile_before_the_end() -> None:
    with keyed_client() as client:
        state = _create(client, "human", "greedy", seed=5)
        game = f"/api/games/{state['id']}"
        move = {"seat": 0, "move": str(_store(client).peek(state["id"]).game.legal_moves[0])}
        answers = [
            client.get(game),
            client.get(f"{game}/view", params={"move": 0}),
            client.post(f"{game}/moves", json=move),
            client.post(f"{game}/advance"),
            client.get("/api/games"),
        ]
        for answer in answers:
            assert answer.status_code == 200, answer.text
            assert not {"pile", "seed", "hands"} & set(_keys(answer.json()))
        # The person's own hand only, when they are to move; no one else's.
        assert answers[2].json()["state"]["hand"] is None
        assert answers[3].json()["state"]["hand"] == client.get(game).json()["hand"]
        record = client.get(f"{game}/record")
        assert record.status_code == 409
        assert "once the game is over" in record.json()["error"]
        assert "pile" not in record.json()
        bots = _create(client, "greedy", "random", seed=6)
        assert client.get(f"/api/games/{bots['id']}/record").status_code == 409
        client.post(f"/api/games/{bots['id']}/advance", json={"max": 54})
        finished = client.get(f"/api/games/{bots['id']}/record").json()
        assert finished["seed"] == 6
        assert Game.from_record(finished).over


# ---------------------------------------------------------------------------------------------
# 10. Denial of service


@pytest.mark.parametrize(
    ("spec", "flag"),
    [
        ("ismcts:1e12", "--max-simulations"),
        ("ismcts:200001", "--max-simulations"),
        ("ismcts:time=1000000", "--max-search-time"),
        ("ismcts:time=5.5", "--max-search-time"),
        ("ismcts:1,threads=1024", "--max-bot-threads"),
        ("ismcts:100,threads=3", "--max-bot-threads"),
    ],
)
def test_bot_specs_over_the_limits_are_refused(spec: str, flag: str) -> None:
    with keyed_client() as client:
        response = client.post("/api/games", json={"seats": ["human", spec]})
        assert response.status_code == 422, response.text
        assert response.json()["error"].startswith("seats[1]: ")
        assert flag in response.json()["error"]
        record = Game(indigo.Rules.indigo(2), seed=1).to_record()
        loading = client.post("/api/games/load", json={"record": record, "seats": [spec, "human"]})
        assert loading.status_code == 422, loading.text
        assert loading.json()["error"].startswith("seats[0]: ")
        assert len(_store(client)) == 0


def test_bot_specs_at_the_limits_are_taken() -> None:
    with keyed_client() as client:
        for spec in ("ismcts:200000", "ismcts:time=5", "ismcts:10,threads=2", "ismcts", "greedy"):
            _create(client, "human", spec)
    with keyed_client(max_simulations=10, max_search_time=0.5, max_bot_threads=1) as client:
        _create(client, "human", "ismcts:10")
        _create(client, "human", "ismcts:time=0.5")
        for spec in ("ismcts:11", "ismcts", "ismcts:time=0.6", "ismcts:5,threads=2"):
            assert client.post("/api/games", json={"seats": ["human", spec]}).status_code == 422


def test_serve_flags_set_the_limits(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    assert limits_from_args(parser.parse_args(["serve"])) == ServerLimits()
    argv = ["serve", "--max-games", "7", "--max-games-per-client", "3", "--game-ttl", "90"]
    argv += ["--max-simulations", "500", "--max-search-time", "0.25", "--max-bot-threads", "1"]
    argv += ["--search-workers", "4"]
    assert limits_from_args(parser.parse_args(argv)) == ServerLimits(7, 3, 90.0, 500, 0.25, 1, 4)
    for bad in (["--max-games", "0"], ["--game-ttl", "nan"], ["--search-workers", "x"]):
        assert main(["serve", *bad]) == 2
        assert "error:" in capsys.readouterr().err
    with pytest.raises(IndigoError, match="max_bot_threads: must be a positive integer"):
        ServerLimits(max_bot_threads=0)


def test_games_per_client_and_in_all_are_capped() -> None:
    with (
        keyed_client(max_games_per_client=2, max_games=3) as alice,
        keyed_client(alice.app, address="10.0.0.2") as bob,
        keyed_client(alice.app, address="10.0.0.3") as carol,
    ):
        first = _create(alice)
        _create(alice)
        refused = alice.post("/api/games", json={"seats": ["human", "human"]})
        assert refused.status_code == 429
        assert "you hold 2 games" in refused.json()["error"]
        _create(bob)
        full = carol.post("/api/games", json={"seats": ["human", "human"]})
        assert full.status_code == 503
        assert "holds 3 games" in full.json()["error"]
        alice.delete(f"/api/games/{first['id']}")
        _create(carol)


def test_idle_games_expire() -> None:
    with keyed_client(game_ttl=60, max_games=1) as client:
        now = [1000.0]
        _store(client).clock = lambda: now[0]
        game = f"/api/games/{_create(client)['id']}"
        for _ in range(3):  # each use keeps it alive for another minute
            now[0] += 59
            assert client.get(game).status_code == 200
        now[0] += 61
        gone = client.get(game)
        assert gone.status_code == 404
        assert "no game" in gone.json()["error"]
        assert _ids(client.get("/api/games")) == set()
        second = _create(client)  # its place is free again
        now[0] += 61  # untouched, then swept when the next game is made
        assert _ids(client.get("/api/games")) == set()
        _create(client)
        assert client.get(f"/api/games/{second['id']}").status_code == 404


class HeldBot:
    """A bot that chooses only when the test lets it."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def choose(self, game: Game) -> Move:
        self.started.set()
        assert self.release.wait(60), "the test never released the bot"
        return game.legal_moves[0]


def test_reads_and_cheap_bots_never_wait_for_a_search() -> None:
    with keyed_client(search_workers=1) as client:
        searching = _create(client, "ismcts:10", "human", seed=1)
        held = HeldBot()
        _store(client).peek(searching["id"]).bots[0] = held
        greedy = _create(client, "greedy", "human", seed=2)
        game = f"/api/games/{searching['id']}"
        answer: dict[str, Any] = {}
        thread = threading.Thread(target=lambda: answer.update(r=client.post(f"{game}/advance")))
        thread.start()
        try:
            assert held.started.wait(60)
            # The one search worker is busy: reads, and a greedy move elsewhere, answer anyway.
            read = client.get(game)
            assert read.status_code == 200
            assert (read.json()["moves"], read.json()["to_move"]) == (0, 0)
            assert client.get(f"{game}/view", params={"move": 0}).status_code == 200
            assert _ids(client.get("/api/games")) == {searching["id"], greedy["id"]}
            again = client.post(f"{game}/advance")
            assert again.status_code == 409
            assert "already choosing" in again.json()["error"]
            moved = client.post(f"/api/games/{greedy['id']}/advance")
            assert moved.status_code == 200, moved.text
            assert moved.json()["state"]["moves"] == 1
            _create(client, "greedy", "human")
        finally:
            held.release.set()
            thread.join(60)
        assert answer["r"].status_code == 200, answer["r"].text
        assert client.get(game).json()["moves"] == 1


def test_a_game_deleted_during_its_search_stays_deleted() -> None:
    with keyed_client() as client:
        state = _create(client, "ismcts:10", "human", seed=1)
        held = HeldBot()
        _store(client).peek(state["id"]).bots[0] = held
        game = f"/api/games/{state['id']}"
        answer: dict[str, Any] = {}
        thread = threading.Thread(target=lambda: answer.update(r=client.post(f"{game}/advance")))
        thread.start()
        try:
            assert held.started.wait(60)
            assert client.delete(game).status_code == 200
        finally:
            held.release.set()
            thread.join(60)
        assert answer["r"].status_code == 404
        assert client.get(game).status_code == 404
        assert len(_store(client)) == 0


def test_the_search_pool_is_bounded() -> None:
    pool = SearchPool(1)
    release = threading.Event()
    move = Game(seed=1).legal_moves[0]

    def slow() -> Move:
        assert release.wait(60)
        return move

    waiting = [pool.submit(slow, f"client-{k}") for k in range(5)]  # one runs, four wait
    with pytest.raises(ApiError) as full:
        pool.submit(slow, "client-5")
    assert full.value.status == 503
    assert "busy with 5 bot searches" in full.value.message
    release.set()
    assert [f.result(timeout=60) for f in waiting] == [move] * 5
    assert pool.submit(lambda: move, "client-6").result(timeout=60) == move
    workers = [t for t in threading.enumerate() if t.name.startswith("indigo-search-")]
    assert workers
    assert all(t.daemon for t in workers)  # never joined at exit
    # Stopping answers the running and the waiting searches at once, and refuses new ones.
    release.clear()
    running, queued = pool.submit(slow, "client-0"), pool.submit(slow, "client-1")
    pool.stop()
    for future in (running, queued):
        with pytest.raises(ApiError, match="the server is stopping"):
            future.result(timeout=60)
    with pytest.raises(ApiError, match="the server is stopping"):
        pool.submit(slow, "client-5")
    release.set()


def test_one_client_cannot_take_every_search_worker() -> None:
    """Two workers, one search per client (the default): a client's second search is 429
    with ``Retry-After`` (the search time limit, rounded up), while another client's search
    runs on the other worker; once the first answers the client may search again."""
    with (
        keyed_client(search_workers=2, max_search_time=2.5) as alice,
        keyed_client(alice.app, address="10.0.0.2") as bob,
    ):
        held = HeldBot()
        first = _create(alice, "ismcts:10", "human", seed=1)
        second = _create(alice, "ismcts:10", "human", seed=2)
        theirs = _create(bob, "ismcts:10", "human", seed=3)
        _store(alice).peek(first["id"]).bots[0] = held
        answer: dict[str, Any] = {}
        path = f"/api/games/{first['id']}/advance"
        thread = threading.Thread(target=lambda: answer.update(r=alice.post(path)))
        thread.start()
        try:
            assert held.started.wait(60)
            refused = alice.post(f"/api/games/{second['id']}/advance")
            assert refused.status_code == 429, refused.text
            assert refused.headers["retry-after"] == "3"
            assert "you have 1 bot searches running or waiting" in refused.json()["error"]
            moved = bob.post(f"/api/games/{theirs['id']}/advance")
            assert moved.status_code == 200, moved.text
        finally:
            held.release.set()
            thread.join(60)
        assert answer["r"].status_code == 200, answer["r"].text
        again = alice.post(f"/api/games/{second['id']}/advance")
        assert again.status_code == 200, again.text


class CountingBot(HeldBot):
    """A held bot that counts the moves asked of it."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def choose(self, game: Game) -> Move:
        self.asked += 1
        return super().choose(game)


def _post(base: str, path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={TOKEN_HEADER: token}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def _leave_during_advance(port: int, game: dict[str, Any]) -> socket.socket:
    """A raw connection that asks ``game`` to advance 54 moves (the caller closes it)."""
    peer = socket.create_connection(("127.0.0.1", port), timeout=30)
    body = b'{"max": 54}'
    peer.sendall(
        f"POST /api/games/{game['id']}/advance HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"{TOKEN_HEADER}: {game['token']}\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    return peer


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_an_advance_stops_when_its_client_leaves() -> None:
    """On a real server: the client of a 54-move advance leaves while the first search runs;
    the advance ends (the game's turn is free again), the move that search finds is not
    played, and no other search is asked for (it went on to move 29 before). A second
    client's advance that waited for the one worker and left never runs at all."""
    app = create_app(search_workers=1, max_searches_per_client=2)
    store: GameStore = app.state.store
    with live_server(app) as base:
        port = int(base.rsplit(":", 1)[1])
        made = [
            _post(base, "/api/games", "", {"seats": ["ismcts:10", "ismcts:10"], "seed": seed})
            for seed in (1, 2)
        ]
        running, waiting = (store.peek(game["id"]) for game in made)
        bots = [CountingBot() for _ in range(4)]
        running.bots = {0: bots[0], 1: bots[1]}
        waiting.bots = {0: bots[2], 1: bots[3]}
        first = _leave_during_advance(port, made[0])
        try:
            assert bots[0].started.wait(60)
            second = _leave_during_advance(port, made[1])
            pool = app.state.search_pool
            _wait_for(lambda: len(pool._live) == 2, "the second search never queued")
            second.close()
            _wait_for(lambda: len(pool._live) == 1, "the waiting search was not cancelled")
        finally:
            first.close()
        _wait_for(lambda: not running.turn.locked(), "the advance did not end")
        bots[0].release.set()
        _wait_for(lambda: not pool._live, "the search did not finish")
        assert [bot.asked for bot in bots] == [1, 0, 0, 0]
        assert (len(running.game.moves), len(waiting.game.moves)) == (0, 0)
        # The game plays on for a client that stays.
        bots[1].release.set()
        moved = _post(base, f"/api/games/{made[0]['id']}/advance", made[0]["token"], {"max": 2})
        assert moved["state"]["moves"] == 2


@pytest.mark.parametrize("game", [entry.name for entry in GAMES])
def test_every_search_stops_at_the_search_time_limit(game: str) -> None:
    """On a real server with ``--max-search-time 1``, a seat ``ismcts:200000`` (within
    ``--max-simulations``; 24 s a move of Queen's Garden before) searches with that time as
    well and answers its move within a few times the limit, in every game."""
    limit = 1.0
    app = create_app(max_search_time=limit)
    store: GameStore = app.state.store
    with live_server(app) as base:
        seats = {"seats": ["ismcts:200000", "human"], "game": game, "seed": 1}
        made = _post(base, "/api/games", "", seats)
        bot = store.peek(made["id"]).bots[0]
        assert bot.spec == "ismcts:200000,time=1"
        started = time.monotonic()
        moved = _post(base, f"/api/games/{made['id']}/advance", made["token"], {"max": 1})
        took = time.monotonic() - started
    assert moved["state"]["moves"] == 1
    assert took < 3 * limit, f"{game}: a move took {took:.1f} s"


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks


def test_ctrl_c_stops_the_server_during_a_search() -> None:
    """``indigo serve`` exits promptly on SIGINT while a minute-long search runs."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "indigo", "serve", "--port", str(port), "--max-search-time", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        body = json.dumps({"seats": ["ismcts:time=60", "human"], "seed": 1}).encode()
        while True:
            try:
                request = urllib.request.Request(f"{base}/api/games", data=body)
                with urllib.request.urlopen(request, timeout=10) as response:
                    state = json.loads(response.read())
                break
            except OSError:
                assert server.poll() is None, server.communicate()[1]
                assert time.monotonic() < deadline, "indigo serve did not answer"
                time.sleep(0.2)
        advance = urllib.request.Request(
            f"{base}/api/games/{state['id']}/advance",
            data=b"{}",
            headers={TOKEN_HEADER: state["token"]},
        )

        answers: list[int] = []

        def search() -> None:
            try:
                urllib.request.urlopen(advance, timeout=120).close()
            except urllib.error.HTTPError as exc:
                answers.append(exc.code)

        searching = threading.Thread(target=search, daemon=True)
        searching.start()
        start = _cpu_seconds(server.pid)
        while _cpu_seconds(server.pid) < start + 0.5:  # the search is burning CPU
            assert time.monotonic() < deadline + 30, "the search did not start"
            time.sleep(0.05)
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)  # the search had about a minute left
        searching.join(timeout=30)
        assert answers == [503]  # told that the server stops, not left hanging
    finally:
        if server.poll() is None:
            server.kill()
        server.communicate(timeout=30)


class _Records(logging.Handler):
    """Keeps every record logged to it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.parametrize(
    ("path", "framing"),
    [
        ("/api/games", b"Content-Length: 100\r\n"),
        ("/api/games/load", b"Content-Length: 100\r\n"),
        ("/api/games/upload", b"Content-Length: 100\r\n"),
        ("/api/games", b"Transfer-Encoding: chunked\r\n"),
    ],
)
def test_a_client_that_leaves_mid_body_is_no_server_error(path: str, framing: bytes) -> None:
    """A body shorter than it said, then a half-close: the client left, nothing is logged at
    ERROR (it was "Exception in ASGI application", starlette's ``ClientDisconnect``), and the
    server serves the next request."""
    records = _Records()
    uvicorn_log = logging.getLogger("uvicorn.error")
    with live_server() as base:
        uvicorn_log.addHandler(records)
        try:
            port = int(base.rsplit(":", 1)[1])
            with socket.create_connection(("127.0.0.1", port), timeout=30) as peer:
                peer.sendall(
                    b"POST " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\n"
                    + framing
                    + b"\r\n"
                    + (b"a\r\n" if b"chunked" in framing else b"")
                    + b'{"seats": '
                )
                peer.shutdown(socket.SHUT_WR)
                while peer.recv(4096):  # until the server closes its side
                    pass
            body = json.dumps({"seats": ["human", "human"]}).encode()
            request = urllib.request.Request(f"{base}/api/games", data=body)
            with urllib.request.urlopen(request, timeout=30) as response:
                assert response.status == 201
        finally:
            uvicorn_log.removeHandler(records)
    assert [r.getMessage() for r in records.records if r.levelno >= logging.ERROR] == []


# ---------------------------------------------------------------------------------------------
# 11. No 5xx from malformed requests

BIG = b"1" * 5000
VALID_MOVE = b'"seat": 0, "move": "0@0:0,-3", "max": 1, "seats": ["human", "human"]'
HOSTILE_BODIES: list[tuple[str, bytes]] = [
    ("huge-int", b'{"seat": ' + BIG + b', "max": ' + BIG + b', "seed": ' + BIG + b"}"),
    ("huge-int-record", b'{"record": {"format": "indigo-record/1", "seed": ' + BIG + b"}}"),
    ("lone-surrogate", b'{"seat": 0, "move": "\\ud800", "seats": ["human", "\\udfff"]}'),
    ("surrogate-key", b'{"\\ud800": 1, "seats": ["human", "human"]}'),
    ("utf8-bom", b"\xef\xbb\xbf{" + VALID_MOVE + b"}"),
    ("utf16", ("{" + VALID_MOVE.decode() + "}").encode("utf-16")),
    ("utf16-no-bom", ("{" + VALID_MOVE.decode() + "}").encode("utf-16-le")),
    ("latin-1", b'{"seat": 0, "move": "\xe9", "seats": ["human", "gr\xe9edy"]}'),
    ("nan", b'{"seat": NaN, "max": Infinity, "seed": -Infinity, "seats": ["human", "human"]}'),
    ("huge-float", b'{"seat": 1e400, "max": 1e400, "seed": 1e400, "hand_size": -0.0}'),
    ("deep", b'{"seats": ' + b"[" * 30_000 + b"]" * 30_000 + b"}"),
    ("array", b"[1, 2]"),
    ("null", b"null"),
    ("empty", b""),
    ("binary", b"\x00\xff\xfe\x00"),
    ("truncated", b'{"seat": 0, "move": "0@0'),
    ("wrong-types", b'{"seat": [], "move": {}, "seats": {}, "record": [], "max": "1"}'),
    ("oversized", b'{"pad": "' + b"x" * MAX_BODY + b'"}'),
]
BODY_ROUTES = [
    "/api/games",
    "/api/games/load",
    "/api/games/upload",
    "/api/games/{human}/moves",
    "/api/games/{bots}/advance",
]
LENGTHS = [("superscript", b"\xb2"), ("5000-digits", b"9" * 5000), ("negative", b"-1")]
VIEW_MOVES = ["\u00b2", "5" * 5000, "\u0663", "-1", "1e3", " 1", "0x1", "99", "%ED%A0%80", "%FF"]
PATH_IDS = ["%00", "a" * 5000, "%C3%A9", "..%2F..", "%ED%A0%80"]


def _hostile() -> list[tuple[str, str, str, dict[str, Any]]]:
    """(name, method, path, request options) of each hostile request."""
    cases: list[tuple[str, str, str, dict[str, Any]]] = []
    for route in BODY_ROUTES:
        for name, body in HOSTILE_BODIES:
            if name == "empty" and route.endswith("/advance"):
                continue  # no body is a valid advance
            cases.append((f"{name}:{route}", "POST", route, {"content": body}))
        for name, length in LENGTHS:
            headers = {"content-length": length}
            cases.append(
                (f"length-{name}:{route}", "POST", route, {"content": b"{}", "headers": headers})
            )
    for move in VIEW_MOVES:  # percent-encoded as they are
        view = "/api/games/{human}/view?move=" + urllib.parse.quote(move, safe="%")
        cases.append((f"view-{move[:8]!r}", "GET", view, {}))
    for game_id in PATH_IDS:
        for method, suffix in GAME_ROUTES:
            path = f"/api/games/{game_id}{suffix}"
            cases.append((f"id-{game_id[:8]}:{method}{suffix}", method, path, {"json": {}}))
    for route in ["/api/bots", "/api/games", "/api/games/{human}", "/api/games/{human}/moves"]:
        cases.append((f"put:{route}", "PUT", route, {}))
    many = {TOKEN_HEADER: ",".join(["\xe9"] * 300).encode("latin-1")}
    cases.append(("list-300-tokens", "GET", "/api/games", {"headers": many}))
    return cases


HOSTILE = _hostile()


@pytest.fixture(scope="module")
def target() -> Iterator[tuple[TestClient, dict[str, dict[str, Any]]]]:
    """One server with a person's game and a bots' game, reused by every hostile request."""
    with keyed_client(raise_server_exceptions=False) as client:
        games = {
            "human": _create(client, seed=1),
            "bots": _create(client, "greedy", "greedy", seed=2),
        }
        yield client, games


@pytest.mark.parametrize(
    ("name", "method", "path", "options"), HOSTILE, ids=[c[0] for c in HOSTILE]
)
def test_hostile_requests_get_a_4xx(
    target: tuple[TestClient, dict[str, dict[str, Any]]],
    name: str,
    method: str,
    path: str,
    options: dict[str, Any],
) -> None:
    client, games = target
    before = {seat: client.get(f"/api/games/{g['id']}").json() for seat, g in games.items()}
    count = len(_store(client))
    url = path.format(**{seat: g["id"] for seat, g in games.items()})
    response = client.request(method, url, **options)
    assert 400 <= response.status_code < 500, (
        f"{name}: {response.status_code} {response.text[:300]}"
    )
    assert response.json()["error"]
    after = {seat: client.get(f"/api/games/{g['id']}").json() for seat, g in games.items()}
    assert after == before
    assert len(_store(client)) == count


def test_enough_hostile_requests() -> None:
    assert len(HOSTILE) >= 140


# ---------------------------------------------------------------------------------------------
# 12. One record reader

RECORD_TEXT = Game(indigo.Rules.indigo(2), seed=8).record_json()
BAD_RECORD_BYTES: list[tuple[str, bytes, str]] = [
    ("utf8-bom", b"\xef\xbb\xbf" + RECORD_TEXT.encode(), "byte-order mark"),
    ("utf16", RECORD_TEXT.encode("utf-16"), "not UTF-8 text (UTF-16"),
    ("utf16-be", b"\xfe\xff" + RECORD_TEXT.encode("utf-16-be"), "not UTF-8 text (UTF-16"),
    ("utf32", RECORD_TEXT.encode("utf-32"), "not UTF-8 text (UTF-32"),
    ("utf16-no-bom", RECORD_TEXT.encode("utf-16-le"), "invalid JSON"),
    ("latin-1", b'{"format": "\xe9"}', "not UTF-8 text (byte 0xe9 at offset 12)"),
    ("not-json", b"{", "invalid JSON: Expecting property name"),
    ("empty", b"", "invalid JSON: Expecting value"),
    ("array", b"[]", "must be a JSON object, not list"),
    ("huge-int", b'{"format": ' + BIG + b"}", "more than 4300 digits"),
    ("nan", b'{"format": NaN}', "NaN is not JSON"),
    ("surrogate", b'{"format": "\\ud800"}', "lone surrogate"),
    ("deep", b"[" * 100_000, "nested too deeply"),
]


@pytest.mark.parametrize(
    ("data", "message"),
    [(d, m) for _, d, m in BAD_RECORD_BYTES],
    ids=[n for n, _, _ in BAD_RECORD_BYTES],
)
def test_cli_and_web_refuse_record_bytes_alike(
    data: bytes, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(data)
    assert info.value.at == "format"
    reason = str(info.value)
    assert reason.startswith("format: ")
    assert message in reason
    path = tmp_path / "record.json"
    path.write_bytes(data)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == f"indigo: error: {path}: {reason}\n"
    with keyed_client() as client:
        if len(data) <= MAX_BODY:
            uploaded = client.post("/api/games/upload", content=data)
            assert uploaded.status_code == 400
            assert uploaded.json()["error"] == f"record: {reason}"
        assert len(_store(client)) == 0


def test_the_json_routes_decode_bodies_by_the_same_rules() -> None:
    body = json.dumps({"record": json.loads(RECORD_TEXT)})
    with keyed_client() as client:
        for data, message in [
            (b"\xef\xbb\xbf" + body.encode(), "byte-order mark"),
            (body.encode("utf-16"), "not UTF-8 text (UTF-16"),
        ]:
            refused = client.post("/api/games/load", content=data)
            assert refused.status_code == 400
            assert message in refused.json()["error"]
        assert len(_store(client)) == 0
        assert client.post("/api/games/load", content=body.encode()).status_code == 201


def test_cli_and_web_take_the_same_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_text(RECORD_TEXT, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    snapshot = json.loads(capsys.readouterr().out)
    with keyed_client() as client:
        state = client.post("/api/games/upload", content=RECORD_TEXT.encode()).json()
        assert [s["score"] for s in state["seats"]] == snapshot["scores"]
        assert _store(client).peek(state["id"]).game == Game.from_record(RECORD_TEXT)


def test_oversized_records_are_read_no_further(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = b" " * MAX_RECORD_BYTES + RECORD_TEXT.encode()
    with pytest.raises(RecordError, match=f"longer than {MAX_RECORD_BYTES} bytes"):
        parse_record(big)
    path = tmp_path / "big.json"
    path.write_bytes(big)
    for source in (str(path), "/dev/zero"):
        assert main(["replay", source]) == 2
        assert f"longer than {MAX_RECORD_BYTES} bytes" in capsys.readouterr().err

    class Endless:
        def __init__(self) -> None:
            self.asked: list[int] = []

        def read(self, size: int = -1) -> bytes:
            self.asked.append(size)
            return b"0" * size

    endless = Endless()
    with pytest.raises(RecordError):
        read_record(endless)  # type: ignore[arg-type]
    assert endless.asked == [MAX_RECORD_BYTES + 1]
    with keyed_client() as client:
        assert client.post("/api/games/upload", content=big).status_code == 413
