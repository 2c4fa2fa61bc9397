"""A bounded load and abuse test against a real uvicorn server on a free loopback port.

Concurrent clients play many games to the end (a person's move, then the bot's), while others
send oversized bodies, malformed JSON and unknown ids. Every answer must be the expected one,
and afterwards every game must still be there with the right moves. The figures go to
``tests/output/web-load.json``.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

import indigo
from indigo.web.app import MAX_BODY, TOKEN_HEADER
from web_server import live_server

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

GAMES = 40
CLIENTS = 20
ABUSE_PER_GAME = 6
TIME_LIMIT = 300.0
OUTPUT = Path(__file__).parent / "output"


class Tally:
    def __init__(self) -> None:
        self.requests = 0
        self.rejected = 0
        self.unexpected: list[str] = []

    async def send(
        self, client: httpx2.AsyncClient, method: str, url: str, expect: int, **kw: Any
    ) -> Any:
        response = await client.request(method, url, **kw)
        self.requests += 1
        if response.status_code != expect:
            self.unexpected.append(f"{method} {url}: {response.status_code} {response.text[:200]}")
            raise AssertionError(self.unexpected[-1])
        if expect >= 400:
            self.rejected += 1
            assert "error" in response.json()
            return None
        return response.json()


async def _abuse(
    client: httpx2.AsyncClient, tally: Tally, game_id: str, token: str, rng: random.Random
) -> None:
    kind = rng.randrange(4)
    if kind == 0:
        await tally.send(client, "POST", "/api/games", 413, content=b"x" * (MAX_BODY + 1))
    elif kind == 1:
        bad = b'{"seat": 0,'
        mine = {TOKEN_HEADER: token}
        await tally.send(
            client, "POST", f"/api/games/{game_id}/moves", 400, content=bad, headers=mine
        )
    elif kind == 2:
        await tally.send(client, "GET", f"/api/games/{game_id}", 404)  # no token
    else:
        body = {"seat": 0, "move": "0@0:0,0"}
        await tally.send(client, "POST", "/api/games/unknown/moves", 404, json=body)


async def _play_one(
    client: httpx2.AsyncClient,
    tally: Tally,
    seed: int,
    played: dict[str, int],
    tokens: dict[str, str],
) -> None:
    rng = random.Random(seed)
    body = {"seats": ["human", rng.choice(["greedy", "random"])], "seed": seed}
    if seed % 3 == 0:
        body["theme"] = "butterfly-garden"
    state = await tally.send(client, "POST", "/api/games", 201, json=body)
    game_id = state["id"]
    state_token = tokens[game_id] = state["token"]
    mine = {TOKEN_HEADER: state_token}
    played[game_id] = 0
    abuse_at = set(rng.sample(range(20), ABUSE_PER_GAME))
    turn = 0
    while not state["over"]:
        if state["to_move_player"] == "human":
            options = [
                f"{tile}@{rotation}:{q},{r}"
                for tile, by_rotation in state["legal"].items()
                for rotation, cells in by_rotation.items()
                for q, r in cells
            ]
            move = {"seat": state["to_move"], "move": rng.choice(options)}
            url = f"/api/games/{game_id}/moves"
        else:
            move = {"max": 1}
            url = f"/api/games/{game_id}/advance"
        answer = await tally.send(client, "POST", url, 200, json=move, headers=mine)
        played[game_id] += len(answer["results"])
        state = answer["state"]
        if turn in abuse_at:
            await _abuse(client, tally, game_id, state_token, rng)
        turn += 1


async def _load(base: str) -> dict[str, Any]:
    tally = Tally()
    played: dict[str, int] = {}
    tokens: dict[str, str] = {}
    seeds = asyncio.Queue[int]()
    for seed in range(GAMES):
        seeds.put_nowait(1000 + seed)
    limits = httpx2.Limits(max_connections=CLIENTS)
    start = time.monotonic()
    async with httpx2.AsyncClient(base_url=base, timeout=60, limits=limits) as client:

        async def worker() -> None:
            while not seeds.empty():
                await _play_one(client, tally, seeds.get_nowait(), played, tokens)

        await asyncio.wait_for(
            asyncio.gather(*(worker() for _ in range(CLIENTS))), timeout=TIME_LIMIT
        )
        elapsed = time.monotonic() - start
        # No game lost: each is listed and holds exactly the moves its client saw played.
        everyone = {TOKEN_HEADER: ",".join(tokens.values())}
        listed = await tally.send(client, "GET", "/api/games", 200, headers=everyone)
        assert {g["id"]: g["moves"] for g in listed["games"]} == played
        for game_id, moves in played.items():
            headers = {TOKEN_HEADER: tokens[game_id]}
            response = await client.get(f"/api/games/{game_id}/record", headers=headers)
            tally.requests += 1
            game = indigo.Game.from_record(response.text)
            assert len(game.moves) == moves
            assert game.over
    return {
        "games": len(played),
        "clients": CLIENTS,
        "requests": tally.requests,
        "rejected_as_expected": tally.rejected,
        "unexpected": tally.unexpected,
        "seconds": round(elapsed, 2),
        "requests_per_second": round(tally.requests / elapsed, 1),
    }


def test_load_and_abuse() -> None:
    with live_server(max_games_per_client=GAMES) as base:  # every client is 127.0.0.1
        figures = asyncio.run(_load(base))
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / "web-load.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(figures)
    assert figures["unexpected"] == []
    assert figures["games"] == GAMES
    assert figures["requests"] >= 2000
    assert figures["rejected_as_expected"] == GAMES * ABUSE_PER_GAME
