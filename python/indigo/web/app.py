"""The web app: play Indigo in the browser against people at the same screen and bots.

A Starlette app (:func:`create_app`) that keeps every game in memory on the server and serves
a plain HTML/CSS/JS page from ``static/``. ``indigo serve`` runs it on uvicorn. The routes and
their JSON are in ``docs/web.md``.

Every request is checked: a bad body, an unknown game, an illegal move or a move out of turn is
answered with a 4xx status and ``{"error": "..."}``, and the game is unchanged. Request bodies
over :data:`MAX_BODY` bytes get 413. Bots choose in a worker thread, on a copy of the game.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from indigo import (
    Game,
    GemPath,
    IllegalMoveError,
    IndigoError,
    MoveResult,
    RecordError,
    Rules,
    make_bot,
)
from indigo.bots import BOT_NAMES, Bot
from indigo.cli import SEED_LIMIT, demo_rules
from indigo.play import HUMAN, legal_cells
from indigo.render.svg import game_at, game_svg, gem_path_d, tile_markup
from indigo.render.terminal import GEMS

__all__ = ["MAX_BODY", "MAX_GAMES", "ApiError", "GameStore", "create_app", "serve"]

STATIC: Final = Path(__file__).parent / "static"
MAX_BODY: Final = 64 * 1024
"""Largest request body accepted, in bytes (a whole game record is about 4 KiB)."""
MAX_GAMES: Final = 2000
"""Games held at once; creating one more is refused with 503."""
MAX_SPEC: Final = 64
"""Longest seat spec accepted."""


class ApiError(Exception):
    """A request the server refuses: answered as ``{"error": message}`` with ``status``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Session:
    """One game on the server: the game, who sits where, and the lock that orders its changes."""

    id: str
    game: Game
    seats: list[str]
    bots: dict[int, Bot]
    created: float = field(default_factory=time.time)
    lock: anyio.Lock = field(default_factory=anyio.Lock)


class GameStore:
    """Every game, by id; the dict is guarded by a lock, each game by its own."""

    def __init__(self, max_games: int = MAX_GAMES) -> None:
        self.max_games = max_games
        self._games: dict[str, Session] = {}
        self._lock = threading.Lock()

    def add(self, game: Game, seats: list[str], seed: int) -> Session:
        bots = {s: make_bot(spec, seed=seed + s) for s, spec in enumerate(seats) if spec != HUMAN}
        with self._lock:
            if len(self._games) >= self.max_games:
                raise ApiError(503, f"the server holds {self.max_games} games: delete some first")
            game_id = secrets.token_hex(6)
            while game_id in self._games:
                game_id = secrets.token_hex(6)
            session = Session(game_id, game, seats, bots)
            self._games[game_id] = session
            return session

    def get(self, game_id: str) -> Session:
        with self._lock:
            session = self._games.get(game_id)
        if session is None:
            raise ApiError(404, f"no game {game_id!r} on this server")
        return session

    def remove(self, game_id: str) -> None:
        with self._lock:
            if self._games.pop(game_id, None) is None:
                raise ApiError(404, f"no game {game_id!r} on this server")

    def all(self) -> list[Session]:
        with self._lock:
            return list(self._games.values())


# ---------------------------------------------------------------------------------------------
# Request checking


async def read_json(request: Request, *, empty_ok: bool = False) -> dict[str, Any]:
    """The request's JSON object; 413 over :data:`MAX_BODY` bytes, 400 if it is not an object."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ApiError(413, f"request body over {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > MAX_BODY:
            raise ApiError(413, f"request body over {MAX_BODY} bytes")
    if not body.strip() and empty_ok:
        return {}
    try:
        value = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApiError(400, f"invalid JSON: {exc}") from None
    except RecursionError:
        raise ApiError(400, "invalid JSON: nested too deeply") from None
    if not isinstance(value, dict):
        raise ApiError(400, f"the body must be a JSON object, not {type(value).__name__}")
    return value


def _int(body: dict[str, Any], key: str, low: int, high: int, default: int | None) -> int | None:
    value = body.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"{key}: must be an integer from {low} to {high}, not {value!r}")
    return value


def _choice(body: dict[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    value = body.get(key, default)
    if value not in choices:
        raise ApiError(400, f"{key}: must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def _seats(body: dict[str, Any], players: int | None = None) -> list[str]:
    seats = body.get("seats")
    if seats is None and players is not None:
        return [HUMAN] * players
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ApiError(400, 'seats: must be a list of strings such as ["human", "greedy"]')
    if not 2 <= len(seats) <= 4 or (players is not None and len(seats) != players):
        want = "2 to 4" if players is None else str(players)
        raise ApiError(400, f"seats: {want} seats needed, not {len(seats)}")
    out: list[str] = []
    for seat, spec in enumerate(seats):
        name = spec.strip().lower()
        if len(name) > MAX_SPEC:
            raise ApiError(400, f"seats[{seat}]: longer than {MAX_SPEC} characters")
        if name != HUMAN:
            try:
                make_bot(name, seed=0)
            except ValueError as exc:
                raise ApiError(400, f"seats[{seat}]: {exc}") from None
        out.append(name)
    return out


# ---------------------------------------------------------------------------------------------
# JSON views


def _path_json(rules: Rules, path: GemPath) -> dict[str, Any]:
    return {
        "gem": path.gem,
        "colour": rules.gem_colour(path.gem),
        "start": path.start,
        "steps": path.steps,
        "outcome": path.outcome,
        "end": path.end,
        "gate": path.gate,
        "owners": path.owners,
        "collided_with": path.collided_with,
        "d": gem_path_d(path),
    }


def result_json(rules: Rules, result: MoveResult) -> dict[str, Any]:
    """A move's effects, with an SVG path ``d`` for each gem to animate along."""
    return {
        "move": str(result.move),
        "seat": result.seat,
        "points": result.points,
        "game_over": result.game_over,
        "paths": [_path_json(rules, p) for p in result.paths],
    }


def view_json(session: Session, game: Game) -> dict[str, Any]:
    """What anyone may see of ``game`` (a position of ``session``): board picture, scores."""
    rules = game.rules
    return {
        "id": session.id,
        "theme": rules.theme,
        "players": rules.players,
        "hand_size": rules.hand_size,
        "gate_name": rules.gate_name,
        "gems": {g: {"name": rules.gem_name(g), "colour": rules.gem_colour(g)} for g in GEMS},
        "seats": [
            {
                "seat": seat,
                "player": session.seats[seat],
                "colour": rules.seat_colour(seat),
                "score": game.scores[seat],
                "collected": game.collected[seat],
                "tiles_in_hand": len(game.hands[seat]),
            }
            for seat in range(rules.players)
        ],
        "moves": len(game.moves),
        "total_moves": len(session.game.moves),
        "to_move": game.to_move,
        "over": game.over,
        "winners": game.winners,
        "pile_left": game.pile_left,
        "centre": game.centre,
        "removed": game.removed,
        "last": None if game.last_result is None else result_json(rules, game.last_result),
        "svg": game_svg(game),
    }


def state_json(session: Session) -> dict[str, Any]:
    """The live position, and for a person to move: their hand and where each tile may go."""
    game = session.game
    out = view_json(session, game)
    seat = game.to_move
    human = seat is not None and session.seats[seat] == HUMAN
    out["to_move_player"] = None if seat is None else session.seats[seat]
    out["hand"] = game.hand(seat) if human and seat is not None else None
    out["legal"] = legal_cells(game) if human else None
    out["tiles"] = (
        {t: tile_markup(t, theme=game.rules.theme) for t in set(game.hand(seat))}
        if human and seat is not None
        else None
    )
    return out


# ---------------------------------------------------------------------------------------------
# Routes


def _store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def list_bots(request: Request) -> Response:
    return JSONResponse({"human": HUMAN, "bots": list(BOT_NAMES)})


async def list_games(request: Request) -> Response:
    games = [
        {
            "id": s.id,
            "seats": s.seats,
            "moves": len(s.game.moves),
            "over": s.game.over,
            "theme": s.game.rules.theme,
        }
        for s in _store(request).all()
    ]
    return JSONResponse({"games": games})


async def create_game(request: Request) -> Response:
    body = await read_json(request)
    seats = _seats(body)
    theme = _choice(body, "theme", ("indigo", "butterfly-garden"), "indigo")
    gates = _choice(body, "gates", ("shared", "exclusive"), "shared")
    hand_size = _int(body, "hand_size", 1, 2, None)
    seed = _int(body, "seed", 0, SEED_LIMIT - 1, None)
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    game = Game(demo_rules(len(seats), theme, hand_size, gates), seed=seed)
    session = _store(request).add(game, seats, seed)
    return JSONResponse(state_json(session), status_code=201)


async def load_game(request: Request) -> Response:
    body = await read_json(request)
    record = body.get("record")
    if not isinstance(record, dict):
        raise ApiError(400, "record: must be an indigo-record/1 JSON object")
    try:
        game = Game.from_record(record)
    except RecordError as exc:
        raise ApiError(400, f"record: {exc}") from None
    except IndigoError as exc:  # anything else the engine rejects a record with
        raise ApiError(400, f"record: {exc}") from None
    seats = _seats(body, game.rules.players)
    seed = game.seed if game.seed is not None and game.seed < SEED_LIMIT else 0
    session = _store(request).add(game, seats, seed)
    return JSONResponse(state_json(session), status_code=201)


async def get_game(request: Request) -> Response:
    session = _store(request).get(request.path_params["game_id"])
    async with session.lock:
        return JSONResponse(state_json(session))


async def view_game(request: Request) -> Response:
    session = _store(request).get(request.path_params["game_id"])
    text = request.query_params.get("move", "")
    async with session.lock:
        total = len(session.game.moves)
        if not text.isdigit() or int(text) > total:
            raise ApiError(400, f"move: must be an integer from 0 to {total}, not {text!r}")
        return JSONResponse(view_json(session, game_at(session.game, int(text))))


async def get_record(request: Request) -> Response:
    session = _store(request).get(request.path_params["game_id"])
    async with session.lock:
        text = session.game.record_json()
    name = f"indigo-{session.id}.json"
    return Response(
        text + "\n",
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


async def delete_game(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    _store(request).remove(game_id)
    return JSONResponse({"deleted": game_id})


async def play_move(request: Request) -> Response:
    session = _store(request).get(request.path_params["game_id"])
    body = await read_json(request)
    seat = _int(body, "seat", 0, 3, None)
    move = body.get("move")
    if seat is None:
        raise ApiError(400, "seat: the seat that moves is required")
    if not isinstance(move, str):
        raise ApiError(400, 'move: must be a string in the notation T@R:Q,R such as "4@0:0,-3"')
    async with session.lock:
        game = session.game
        _check_turn(session, seat)
        if session.seats[seat] != HUMAN:
            raise ApiError(409, f"seat {seat} is played by the bot {session.seats[seat]!r}")
        try:
            result = game.play(move)
        except IllegalMoveError as exc:
            raise ApiError(422, str(exc)) from None
        except IndigoError as exc:  # text that is not a move
            raise ApiError(400, f"move: {exc}") from None
        return JSONResponse(
            {"results": [result_json(game.rules, result)], "state": state_json(session)}
        )


def _check_turn(session: Session, seat: int) -> None:
    game = session.game
    if game.over or game.to_move is None:
        raise ApiError(409, "the game is over")
    if seat >= game.rules.players:
        raise ApiError(400, f"seat: this game has seats 0 to {game.rules.players - 1}")
    if seat != game.to_move:
        raise ApiError(409, f"seat {seat} is not to move: seat {game.to_move} is")


async def advance(request: Request) -> Response:
    """Play up to ``max`` moves of the bots, while a bot is to move."""
    session = _store(request).get(request.path_params["game_id"])
    body = await read_json(request, empty_ok=True)
    limit = _int(body, "max", 1, 54, 1) or 1
    results: list[dict[str, Any]] = []
    async with session.lock:
        game = session.game
        for _ in range(limit):
            seat = game.to_move
            bot = None if seat is None else session.bots.get(seat)
            if bot is None:
                break
            # Off the event loop, on a copy: the session lock keeps the game as it is meanwhile.
            move = await anyio.to_thread.run_sync(bot.choose, game.clone())
            results.append(result_json(game.rules, game.play(move)))
        if not results:
            who = "the game is over" if game.over else f"seat {game.to_move} is a person"
            raise ApiError(409, f"no bot to move: {who}")
        return JSONResponse({"results": results, "state": state_json(session)})


# ---------------------------------------------------------------------------------------------
# The app


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse(
        {"error": exc.detail}, status_code=exc.status_code, headers=exc.headers or None
    )


def create_app(*, max_games: int = MAX_GAMES) -> Starlette:
    """A new app with an empty game store."""
    game_route = "/api/games/{game_id:str}"
    routes = [
        Route("/", index),
        Route("/api/bots", list_bots),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/load", load_game, methods=["POST"]),
        Route(game_route, get_game, methods=["GET"]),
        Route(game_route, delete_game, methods=["DELETE"]),
        Route(game_route + "/view", view_game, methods=["GET"]),
        Route(game_route + "/record", get_record, methods=["GET"]),
        Route(game_route + "/moves", play_move, methods=["POST"]),
        Route(game_route + "/advance", advance, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        ApiError: _api_error,
        HTTPException: _http_error,
    }
    app = Starlette(
        routes=routes,
        exception_handlers=handlers,
        middleware=[Middleware(GZipMiddleware, minimum_size=2048)],
    )
    app.state.store = GameStore(max_games)
    return app


def serve(host: str = "127.0.0.1", port: int = 8000) -> int:
    """Run the app on uvicorn until interrupted (``indigo serve``)."""
    import uvicorn

    print(f"indigo: serving on http://{host}:{port}/ (Ctrl-C to stop)")
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
    return 0
