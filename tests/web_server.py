"""Helpers for the web tests: a real uvicorn server on a free loopback port, and a test client
that keeps the games' tokens as the page does."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import uvicorn
from starlette.applications import Starlette
from starlette.testclient import TestClient

from indigo.web.app import TOKEN_HEADER, create_app

_GAME_PATH = re.compile(r"^/api/games/([^/]+)")


class Keyring:
    """The tokens a client was given, by game id; sent with each request of that game, and all
    of them when listing games (as the page keeps them in sessionStorage)."""

    def __init__(self) -> None:
        self.tokens: dict[str, str] = {}

    def send(self, request: httpx.Request) -> None:
        if TOKEN_HEADER in request.headers:
            return
        path = request.url.path
        game = _GAME_PATH.match(path)
        if game is not None and game[1] in self.tokens:
            request.headers[TOKEN_HEADER] = self.tokens[game[1]]
        elif path == "/api/games" and request.method == "GET" and self.tokens:
            request.headers[TOKEN_HEADER] = ",".join(self.tokens.values())

    def keep(self, response: httpx.Response) -> None:
        if response.status_code == 201:
            response.read()
            body: dict[str, Any] = response.json()
            self.tokens[body["id"]] = body["token"]


def keyed_client(
    app: Starlette | None = None,
    *,
    address: str = "testclient",
    raise_server_exceptions: bool = True,
    **app_options: float,
) -> TestClient:
    """A TestClient from ``address`` (of ``app``, or a fresh app with ``app_options``) that
    keeps and sends its tokens."""
    keyring = Keyring()
    client = TestClient(
        app if app is not None else create_app(**app_options),
        client=(address, 50000),
        raise_server_exceptions=raise_server_exceptions,
    )
    client.event_hooks = {"request": [keyring.send], "response": [keyring.keep]}
    return client


@contextlib.contextmanager
def live_server(app: Starlette | None = None, **app_options: float) -> Iterator[str]:
    """Serve ``app`` (or a fresh app with ``app_options``) in a thread; yields its base URL
    and stops the server afterwards."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app if app is not None else create_app(**app_options),
        log_level="warning",
        lifespan="off",
        backlog=512,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive(), "the server thread died"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()
        assert not thread.is_alive(), "the server did not stop"
