"""The web app: play Indigo or Azul: Queen's Garden in the browser against people at the same
screen and bots (each game's JSON views are its registry entry's ``web`` module).

A Starlette app (:func:`create_app`) that keeps every game in memory on the server and serves
a plain HTML/CSS/JS page from ``static/``. ``indigo serve`` runs it on uvicorn. The routes and
their JSON are in ``docs/web.md``.

Games are capabilities: creating one answers with a secret ``token``, and every route of that
game wants it in the ``X-Game-Token`` header; a missing or wrong token is answered exactly as an
unknown id (404). Every request is checked: a bad body, an unknown game, an illegal move or a
move out of turn is answered with a 4xx status and ``{"error": "..."}``, and the game is
unchanged. Request bodies over :data:`MAX_BODY` bytes get 413; bodies are decoded by
:mod:`indigo.records` (UTF-8 only, strict JSON).

The server's limits (:class:`~indigo.web.limits.ServerLimits`) bound what a seat's bot may ask
for and how long any of its searches runs, how many games are held (in all and per client
address) and for how long they may idle.
Searching bots (a spec with settings, such as ``ismcts:1000``) choose on a :class:`SearchPool`
of a few daemon threads, on a copy of the game; one-step bots (``random``, ``greedy``,
``playout``) choose at once. The game itself is only touched on the event loop, between awaits,
so reads never wait for a search.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import hmac
import math
import queue
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, Final, cast

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from indigo import (
    Game,
    IllegalMoveError,
    IndigoError,
    Move,
    RecordError,
)
from indigo import queens_garden as qg
from indigo._native import normalize_bot_spec
from indigo.bots import BOT_NAMES, SEED_LIMIT, Bot
from indigo.games import GAMES, find_game, record_game, titles
from indigo.records import JsonInputError, decode_json_object, parse_record
from indigo.table import (
    BOT_MENU,
    HUMAN,
    QG_BOT_MENU,
    QgBot,
    seat_name,
    undo_to_person,
)
from indigo.web.limits import ServerLimits

__all__ = [
    "MAX_BODY",
    "TOKEN_HEADER",
    "ApiError",
    "GameStore",
    "SearchPool",
    "ServerLimits",
    "create_app",
    "serve",
]

AnyMove = Move | qg.Move
"""A move of either game."""
STATIC: Final = Path(__file__).parent / "static"
MAX_BODY: Final = 64 * 1024
"""Largest request body accepted, in bytes (a whole game record is about 4 KiB)."""
MAX_SPEC: Final = 64
"""Longest seat spec accepted."""
TOKEN_HEADER: Final = "x-game-token"
"""The request header that carries a game's token (several, comma-separated, to list games)."""
MAX_NAME: Final = 40
"""Longest seat name kept from a loaded record's ``players_names``."""
MAX_LISTED_TOKENS: Final = 256
"""Most tokens one ``GET /api/games`` may present."""
SEARCH_BACKLOG: Final = 4
"""Searches that may wait per search worker; more are refused with 503."""
SHUTDOWN_GRACE: Final = 1
"""Seconds ``indigo serve`` lets requests finish after Ctrl-C (a search is not waited for)."""


class ApiError(Exception):
    """A request the server refuses: answered as ``{"error": message}`` with ``status``, and a
    ``Retry-After`` header of ``retry_after`` seconds when it is given."""

    def __init__(self, status: int, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def _no_game(game_id: str) -> ApiError:
    """The one answer to an unknown id, a missing or wrong token, and a deleted game."""
    return ApiError(404, f"no game {game_id[:40]!r} on this server for this token")


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()


_NO_GAME: Final = _digest(secrets.token_urlsafe(32))
"""Compared against when the id is unknown, so that both refusals take the same work."""


@dataclass(eq=False)
class Session:
    """One game on the server: the game, who sits where, its owner, and its token's digest."""

    id: str
    token_digest: bytes
    client: str
    game: Game | qg.Game
    seats: list[str]
    bots: dict[int, Bot | QgBot]
    used: float
    names: list[str]
    """Each seat's name shown: its spec, or the name a loaded record gives it."""
    turn: anyio.Lock = field(default_factory=anyio.Lock)
    """Held by ``/advance`` while its bots choose: one advance at a time per game."""
    gone: bool = False


class GameStore:
    """Every game, by id, within the limits; the dict is guarded by a lock.

    ``clock`` (seconds, monotonic) times idleness; tests may replace it.
    """

    def __init__(self, limits: ServerLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._games: dict[str, Session] = {}
        self._lock = threading.Lock()

    def _expired(self, session: Session, now: float) -> bool:
        return now - session.used > self.limits.game_ttl

    def _forget(self, session: Session) -> None:
        session.gone = True
        self._games.pop(session.id, None)

    def add(
        self,
        game: Game | qg.Game,
        seats: list[str],
        seed: int,
        client: str,
        names: list[str] | None = None,
    ) -> tuple[Session, str]:
        """Hold ``game`` for ``client``; the session and its secret token. 503/429 when full.

        ``names`` are the seats' names to show (default: :func:`seat_name` of their specs)."""
        limits = self.limits
        make = find_game(game).make_bot
        try:
            bots: dict[int, Bot | QgBot] = {
                s: make(_timed(spec, limits), seed=seed + s)
                for s, spec in enumerate(seats)
                if spec != HUMAN
            }
        except ValueError as exc:  # the specs were checked; only if the factory disagrees
            raise ApiError(400, f"seats: {exc}") from None
        with self._lock:
            now = self.clock()
            for old in [s for s in self._games.values() if self._expired(s, now)]:
                self._forget(old)
            if len(self._games) >= limits.max_games:
                raise ApiError(503, f"the server holds {limits.max_games} games: try again later")
            mine = sum(1 for s in self._games.values() if s.client == client)
            if mine >= limits.max_games_per_client:
                raise ApiError(
                    429, f"you hold {limits.max_games_per_client} games: delete some first"
                )
            game_id = secrets.token_hex(6)
            while game_id in self._games:
                game_id = secrets.token_hex(6)
            token = secrets.token_urlsafe(32)
            shown = [seat_name(spec) for spec in seats] if names is None else names
            session = Session(game_id, _digest(token), client, game, seats, bots, now, shown)
            self._games[game_id] = session
            return session, token

    def get(self, game_id: str, token: str | None) -> Session:
        """The game ``game_id`` if ``token`` is its token; 404 otherwise, or once it expired."""
        digest = _digest(token or "")
        with self._lock:
            session = self._games.get(game_id)
            match = hmac.compare_digest(
                digest, _NO_GAME if session is None else session.token_digest
            )
            if session is not None and match:
                now = self.clock()
                if not self._expired(session, now):
                    session.used = now
                    return session
                self._forget(session)
        raise _no_game(game_id)

    def remove(self, game_id: str, token: str | None) -> None:
        session = self.get(game_id, token)
        with self._lock:
            self._forget(session)

    def owned(self, tokens: list[str]) -> list[Session]:
        """The live games whose token is among ``tokens``."""
        digests = {_digest(t) for t in tokens}
        with self._lock:
            now = self.clock()
            return [
                s
                for s in self._games.values()
                if s.token_digest in digests and not self._expired(s, now)
            ]

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)

    def peek(self, game_id: str) -> Session:
        """The game ``game_id`` without its token: for code in the server's own process."""
        with self._lock:
            return self._games[game_id]


class SearchPool:
    """Runs bot searches on ``workers`` daemon threads, apart from the request handlers.

    At most ``workers * (1 + SEARCH_BACKLOG)`` searches run or wait, and at most
    ``per_client`` of them for one client; one more is refused with 503 (429 for the
    client's), with ``Retry-After: retry_after``. A search cancelled while it waits (its
    client left) never runs and counts no more. The threads are never joined (a search is
    bounded by the server's time and simulation limits); :meth:`stop` answers every search at
    once with 503, so stopping the server waits for none.
    """

    def __init__(self, workers: int, *, per_client: int = 1, retry_after: int = 5) -> None:
        self.workers = workers
        self.per_client = per_client
        self.retry_after = retry_after
        self._jobs: queue.SimpleQueue[tuple[Callable[[], AnyMove], Future[AnyMove]]] = (
            queue.SimpleQueue()
        )
        self._lock = threading.Lock()
        self._threads = 0
        self._live: dict[Future[AnyMove], str] = {}
        """Each search running or waiting, and its client."""
        self._stopped = False

    def submit(self, search: Callable[[], AnyMove], client: str) -> Future[AnyMove]:
        """Queue ``search`` for ``client``; its future. Raises :class:`ApiError` when the pool
        (503) or the client's share (429) is full."""
        future: Future[AnyMove] = Future()
        with self._lock:
            if self._stopped:
                raise ApiError(503, "the server is stopping")
            if len(self._live) >= self.workers * (1 + SEARCH_BACKLOG):
                raise ApiError(
                    503,
                    f"the server is busy with {len(self._live)} bot searches: try again soon",
                    retry_after=self.retry_after,
                )
            if sum(1 for owner in self._live.values() if owner == client) >= self.per_client:
                raise ApiError(
                    429,
                    f"you have {self.per_client} bot searches running or waiting: try again "
                    "once one has answered",
                    retry_after=self.retry_after,
                )
            self._live[future] = client
            if self._threads < self.workers:
                self._threads += 1
                name = f"indigo-search-{self._threads}"
                threading.Thread(target=self._work, name=name, daemon=True).start()
        future.add_done_callback(self._forget)
        self._jobs.put((search, future))
        return future

    def _forget(self, future: Future[AnyMove]) -> None:
        """Counts a search no more once it is answered, failed or cancelled."""
        with self._lock:
            self._live.pop(future, None)

    def stop(self) -> None:
        """Refuse new searches, and answer the running and waiting ones with 503 now."""
        with self._lock:
            self._stopped = True
            live = list(self._live)
        for future in live:
            with contextlib.suppress(InvalidStateError):  # finished meanwhile
                future.set_exception(ApiError(503, "the server is stopping"))

    def _work(self) -> None:
        while True:
            search, future = self._jobs.get()
            try:  # false if its client left
                runs = future.set_running_or_notify_cancel()
            except RuntimeError:  # answered by stop() meanwhile
                runs = False
            if runs:
                try:
                    move = search()
                except BaseException as exc:  # handed to the request that waits
                    with contextlib.suppress(InvalidStateError):
                        future.set_exception(exc)
                else:
                    with contextlib.suppress(InvalidStateError):
                        future.set_result(move)


# ---------------------------------------------------------------------------------------------
# Request checking


async def read_body(request: Request) -> bytes:
    """The request's body; 413 over :data:`MAX_BODY` bytes (counted as it streams), 400 if
    the client leaves before sending all of it (the answer goes nowhere: nothing is logged)."""
    length = request.headers.get("content-length")
    if length is not None and (
        not (length.isascii() and length.isdigit()) or len(length) > 9 or int(length) > MAX_BODY
    ):
        raise ApiError(413, f"request body over {MAX_BODY} bytes")
    body = bytearray()
    try:
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > MAX_BODY:
                raise ApiError(413, f"request body over {MAX_BODY} bytes")
    except ClientDisconnect:
        raise ApiError(400, "the client closed the connection before the whole body") from None
    return bytes(body)


async def read_json(request: Request, *, empty_ok: bool = False) -> dict[str, Any]:
    """The request's JSON object (:func:`indigo.records.decode_json_object`); 400 if it is not
    one, 413 over :data:`MAX_BODY` bytes."""
    body = await read_body(request)
    if not body.strip() and empty_ok:
        return {}
    try:
        return decode_json_object(body, limit=MAX_BODY)
    except JsonInputError as exc:
        raise ApiError(400, f"the body: {exc}") from None


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


def _searches(spec: str) -> bool:
    """Whether the bot ``spec`` (normalised) searches: one with settings, such as ``ismcts:N``."""
    return ":" in spec


def _check_bot(seat: int, spec: str, limits: ServerLimits) -> str:
    """``spec`` normalised by the package's parser, within the server's limits (else 422)."""
    try:
        spec = normalize_bot_spec(spec)
    except ValueError as exc:
        raise ApiError(400, f"seats[{seat}]: {exc}") from None
    _, _, settings = spec.partition(":")
    asked: dict[str, float] = {}
    for item in filter(None, settings.split(",")):
        key, equals, value = item.partition("=")
        name, number = (key, value) if equals else ("simulations", key)
        if name in ("simulations", "time", "threads"):
            try:
                asked[name] = float(number)
            except ValueError:  # the parser's own text: not expected
                raise ApiError(400, f"seats[{seat}]: cannot read {item!r} of {spec}") from None
    bounds = [
        ("simulations", limits.max_simulations, "max-simulations"),
        ("time", limits.max_search_time, "max-search-time"),
        ("threads", limits.max_bot_threads, "max-bot-threads"),
    ]
    for name, most, flag in bounds:
        if asked.get(name, 0) > most:
            raise ApiError(
                422,
                f"seats[{seat}]: {spec} asks for {name} {asked[name]:g}; this server allows "
                f"at most {most:g} (indigo serve --{flag})",
            )
    return spec


def _timed(spec: str, limits: ServerLimits) -> str:
    """``spec`` (normalised) stopped after ``--max-search-time`` a move if it searches: a
    simulation count without a time (``ismcts:200000``) gets that time too, the search
    stopping at whichever comes first, in every game (the specs are the same for all)."""
    if not _searches(spec) or "time=" in spec:
        return spec
    return normalize_bot_spec(f"{spec},time={limits.max_search_time!r}")


def _seats(body: dict[str, Any], limits: ServerLimits, players: int | None = None) -> list[str]:
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
        out.append(name if name == HUMAN else _check_bot(seat, name, limits))
    return out


# ---------------------------------------------------------------------------------------------
# JSON views


# ---------------------------------------------------------------------------------------------
# JSON views: each game's own (indigo.web.views, indigo.queens_garden.web)


def view_json(session: Session, game: Game | qg.Game) -> dict[str, Any]:
    """What anyone may see of ``game`` (a position of ``session``): board picture, scores."""
    total = len(session.game.moves)
    view: dict[str, Any] = _views(game).view_json(
        session.id, session.seats, session.names, game, total
    )
    return view


def state_json(session: Session) -> dict[str, Any]:
    """The live position, and for a person to move what they may play."""
    game = session.game
    can_undo = undo_to_person(game, session.bots) is not None
    state: dict[str, Any] = _views(game).state_json(
        session.id, session.seats, session.names, game, can_undo
    )
    return state


# ---------------------------------------------------------------------------------------------
# Routes


def _store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


def _client(request: Request) -> str:
    """Who asks, for the per-client cap: the peer's address."""
    return request.client.host if request.client is not None else "unknown"


def _session(request: Request) -> Session:
    """The game of the route, if the request carries its token (else 404, as for no game)."""
    token = request.headers.get(TOKEN_HEADER)
    return _store(request).get(request.path_params["game_id"], token)


def _created(session: Session, token: str) -> Response:
    return JSONResponse({**state_json(session), "token": token}, status_code=201)


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def list_bots(request: Request) -> Response:
    limits = _store(request).limits
    menu = [dataclasses.asdict(c) for c in BOT_MENU if _within(c.spec, limits)]
    qg_menu = [dataclasses.asdict(c) for c in QG_BOT_MENU if _within(c.spec, limits)]
    return JSONResponse(
        {
            "human": HUMAN,
            "bots": list(BOT_NAMES),
            "menu": menu,
            "qg_menu": qg_menu,
            "titles": titles(),
        }
    )


def _within(spec: str, limits: ServerLimits) -> bool:
    """Whether this server lets a seat play ``spec`` (the menu offers only those)."""
    try:
        _check_bot(0, spec, limits)
    except ApiError:
        return False
    return True


async def list_games(request: Request) -> Response:
    """The games whose tokens the request presents (comma-separated in the token header)."""
    tokens = [t.strip() for t in request.headers.get(TOKEN_HEADER, "").split(",") if t.strip()]
    if len(tokens) > MAX_LISTED_TOKENS:
        raise ApiError(400, f"{TOKEN_HEADER}: at most {MAX_LISTED_TOKENS} tokens")
    games = [
        {
            "id": s.id,
            "seats": s.seats,
            "moves": len(s.game.moves),
            "over": s.game.over,
            "theme": _theme(s.game),
        }
        for s in _store(request).owned(tokens)
    ]
    return JSONResponse({"games": games})


def _views(game: Game | qg.Game) -> Any:
    """The module of ``game``'s JSON views (:attr:`indigo.games.GameEntry.web`)."""
    return find_game(game).load("web")


def _theme(game: Game | qg.Game) -> str:
    theme: str = _views(game).theme(game)
    return theme


async def create_game(request: Request) -> Response:
    body = await read_json(request)
    store = _store(request)
    seats = _seats(body, store.limits)
    names = tuple(entry.name for entry in GAMES)
    entry = find_game(_choice(body, "game", names, names[0]))
    rules = entry.load("web").rules_from_body(body, len(seats), _choice, _int)
    seed = _int(body, "seed", 0, SEED_LIMIT - 1, None)
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    game = entry.game(rules, seed=seed)
    return _created(*store.add(game, seats, seed, _client(request)))


def _game_of(record: dict[str, Any]) -> Game | qg.Game:
    try:
        game: Game | qg.Game = record_game(record).game.from_record(record)
        return game
    except (ValueError, TypeError) as exc:  # a RecordError, or anything else it rejects
        raise ApiError(400, f"record: {exc}") from None


def _names(record: dict[str, Any], seats: list[str]) -> list[str]:
    """The record's ``players_names`` where they are short strings, else :func:`seat_name`."""
    given = record.get("players_names")
    if not isinstance(given, list) or len(given) != len(seats):
        return [seat_name(spec) for spec in seats]
    return [
        " ".join(name.split())[:MAX_NAME]
        if isinstance(name, str) and name.strip()
        else seat_name(spec)
        for name, spec in zip(given, seats, strict=True)
    ]


def _hold_loaded(
    request: Request, game: Game | qg.Game, seats: list[str], record: dict[str, Any]
) -> Response:
    seed = game.seed if game.seed is not None and game.seed < SEED_LIMIT else 0
    names = _names(record, seats)
    return _created(*_store(request).add(game, seats, seed, _client(request), names))


async def load_game(request: Request) -> Response:
    body = await read_json(request)
    record = body.get("record")
    if not isinstance(record, dict):
        raise ApiError(400, "record: must be an indigo-record/1 JSON object")
    game = _game_of(record)
    seats = _seats(body, _store(request).limits, game.rules.players)
    return _hold_loaded(request, game, seats, record)


async def upload_record(request: Request) -> Response:
    """A record file's bytes as the body, read as ``indigo replay`` reads a file; all human."""
    try:
        record = parse_record(await read_body(request), limit=MAX_BODY)
    except RecordError as exc:
        raise ApiError(400, f"record: {exc}") from None
    game = _game_of(record)
    return _hold_loaded(request, game, [HUMAN] * game.rules.players, record)


async def get_game(request: Request) -> Response:
    return JSONResponse(state_json(_session(request)))


async def view_game(request: Request) -> Response:
    session = _session(request)
    text = request.query_params.get("move", "")
    total = len(session.game.moves)
    # isdigit() alone takes "²" and any length, which int() then refuses.
    if not (text.isascii() and text.isdigit()) or len(text) > 3 or int(text) > total:
        raise ApiError(400, f"move: must be an integer from 0 to {total}, not {text[:20]!r}")
    game = session.game
    shown = _views(game).game_at(game, int(text))
    return JSONResponse(view_json(session, shown))


async def get_record(request: Request) -> Response:
    session = _session(request)
    if not session.game.over:
        raise ApiError(
            409, "the record is given once the game is over: it holds the pile and the seed"
        )
    name = f"{_theme(session.game)}-{session.id}.json"
    return Response(
        session.game.record_json() + "\n",
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


async def delete_game(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    _store(request).remove(game_id, request.headers.get(TOKEN_HEADER))
    return JSONResponse({"deleted": game_id})


async def play_move(request: Request) -> Response:
    session = _session(request)
    body = await read_json(request)
    seat = _int(body, "seat", 0, 3, None)
    move = body.get("move")
    if seat is None:
        raise ApiError(400, "seat: the seat that moves is required")
    if not isinstance(move, str):
        raise ApiError(400, 'move: must be a string in the game\'s notation, such as "4@0:0,-3"')
    if session.gone:
        raise _no_game(session.id)
    game = session.game
    _check_turn(session, seat)
    if session.seats[seat] != HUMAN:
        raise ApiError(409, f"seat {seat} is played by the bot {session.seats[seat]!r}")
    try:
        result = _play(game, move)
    except IllegalMoveError as exc:
        raise ApiError(422, str(exc)) from None
    except IndigoError as exc:  # text that is not a move
        raise ApiError(400, f"move: {exc}") from None
    return JSONResponse({"results": [result], "state": state_json(session)})


def _play(game: Game | qg.Game, move: str | Move | qg.Move) -> dict[str, Any]:
    """Play ``move`` for the seat to move; its result as JSON. Raises as ``Game.play`` does."""
    result: dict[str, Any] = _views(game).play_json(game, move)
    return result


def _check_turn(session: Session, seat: int) -> None:
    game = session.game
    if game.over or game.to_move is None:
        raise ApiError(409, "the game is over")
    if seat >= game.rules.players:
        raise ApiError(400, f"seat: this game has seats 0 to {game.rules.players - 1}")
    if seat != game.to_move:
        raise ApiError(409, f"seat {seat} is not to move: seat {game.to_move} is")


def _bot_move(bot: Bot | QgBot, game: Game | qg.Game) -> Move | qg.Move:
    """The move ``bot`` chooses in ``game`` (a bot of that game: the session made it so)."""
    move: Move | qg.Move = cast(Any, bot).choose(game)
    return move


async def _choose(request: Request, session: Session, seat: int) -> Move | qg.Move:
    """Seat ``seat``'s bot's move in a copy of the game: at once for a one-step bot, else on
    the search pool."""
    bot = session.bots[seat]
    view = session.game.clone()
    if not _searches(session.seats[seat]):
        return _bot_move(bot, view)
    pool: SearchPool = request.app.state.search_pool
    return await _unless_gone(request, pool.submit(lambda: _bot_move(bot, view), _client(request)))


async def _gone(request: Request) -> None:
    """Returns when the client disconnects (the body was read: nothing else is received)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _unless_gone(request: Request, search: Future[AnyMove]) -> AnyMove:
    """The move ``search`` answers, unless the client leaves first: then a search still
    waiting is cancelled (it never runs), a running one's move is not played, and the request
    ends (400; nobody reads it)."""
    answer = asyncio.wrap_future(search)
    left = asyncio.ensure_future(_gone(request))
    either: list[asyncio.Future[Any]] = [answer, left]
    try:
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    finally:
        left.cancel()
    if not answer.done():
        search.cancel()
        answer.cancel()
        raise ApiError(400, "the client left before the bot moved")
    return answer.result()


async def advance(request: Request) -> Response:
    """Play up to ``max`` moves of the bots, while a bot is to move."""
    session = _session(request)
    body = await read_json(request, empty_ok=True)
    limit = _int(body, "max", 1, 54, 1) or 1
    if session.turn.locked():
        raise ApiError(409, "a bot of this game is already choosing a move")
    results: list[dict[str, Any]] = []
    async with session.turn:
        game = session.game
        for _ in range(limit):
            seat = game.to_move
            if seat is None or seat not in session.bots:
                break
            move = await _choose(request, session, seat)
            if session.gone:  # deleted or expired meanwhile
                raise _no_game(session.id)
            results.append(_play(game, move))
        if not results:
            who = "the game is over" if game.over else f"seat {game.to_move} is a person"
            raise ApiError(409, f"no bot to move: {who}")
        return JSONResponse({"results": results, "state": state_json(session)})


async def undo(request: Request) -> Response:
    """Take back the last move a person made and the bot moves after it (not while a bot of
    the game is choosing: 409)."""
    session = _session(request)
    await read_json(request, empty_ok=True)
    if session.turn.locked():
        raise ApiError(409, "a bot of this game is choosing a move: undo once it has moved")
    earlier = undo_to_person(session.game, session.bots)
    if earlier is None:
        raise ApiError(409, "no move of a person to undo")
    undone = len(session.game.moves) - len(earlier.moves)
    session.game = earlier
    return JSONResponse({"undone": undone, "state": state_json(session)})


# ---------------------------------------------------------------------------------------------
# The app


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    headers = None if exc.retry_after is None else {"retry-after": str(exc.retry_after)}
    return JSONResponse({"error": exc.message}, status_code=exc.status, headers=headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse(
        {"error": exc.detail}, status_code=exc.status_code, headers=exc.headers or None
    )


def create_app(limits: ServerLimits | None = None, **overrides: Any) -> Starlette:
    """A new app with an empty game store, within ``limits`` (default :class:`ServerLimits`)
    with any field replaced by a keyword, e.g. ``create_app(max_games=3)``."""
    limits = dataclasses.replace(limits or ServerLimits(), **overrides)
    game_route = "/api/games/{game_id:str}"
    routes = [
        Route("/", index),
        Route("/api/bots", list_bots),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/load", load_game, methods=["POST"]),
        Route("/api/games/upload", upload_record, methods=["POST"]),
        Route(game_route, get_game, methods=["GET"]),
        Route(game_route, delete_game, methods=["DELETE"]),
        Route(game_route + "/view", view_game, methods=["GET"]),
        Route(game_route + "/record", get_record, methods=["GET"]),
        Route(game_route + "/moves", play_move, methods=["POST"]),
        Route(game_route + "/advance", advance, methods=["POST"]),
        Route(game_route + "/undo", undo, methods=["POST"]),
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
    app.state.store = GameStore(limits)
    app.state.search_pool = SearchPool(
        limits.search_workers,
        per_client=limits.max_searches_per_client,
        retry_after=math.ceil(limits.max_search_time),
    )
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, limits: ServerLimits | None = None) -> int:
    """Run the app on uvicorn until interrupted (``indigo serve``).

    Ctrl-C answers the running searches with 503 (:meth:`SearchPool.stop`) and stops the
    server; requests get at most :data:`SHUTDOWN_GRACE` seconds to finish.
    """
    import uvicorn

    app = create_app(limits)
    pool: SearchPool = app.state.search_pool

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            pool.stop()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
        proxy_headers=False,  # a client is its peer: X-Forwarded-For could dodge the caps
    )
    print(f"indigo: serving on http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
    Server(config).run()
    return 0
