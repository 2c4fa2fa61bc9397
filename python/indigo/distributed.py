"""Where seeded batches of games run: on this machine, or as tasks on a Ray cluster.

Work is split into :class:`Span`\\ s of game indices. Game ``i`` depends only on the seed and
``i``, so the results do not depend on the backend, the number of workers or the span size.

* :class:`LocalBackend` runs the spans one after another, each on every core of this machine
  through the batch API.
* :class:`RayBackend` runs each span as a Ray task on one CPU of a cluster (the ``ray`` extra):
  the task plays its span inside Rust with the GIL released. Ray retries a task whose worker
  died, and a span always gives the same result, so a retried run is identical.

>>> from indigo.distributed import LocalBackend, spans
>>> spans(10, 4)
[Span(start=0, games=4), Span(start=4, games=4), Span(start=8, games=2)]
>>> def count(span, threads, report):
...     return span.games
>>> [games for _, games in LocalBackend().map(count, spans(10, 4))]
[4, 4, 2]
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType, TracebackType
from typing import Any, Final, Protocol, TypeVar

import indigo
from indigo._extras import require
from indigo._native import IndigoError, Rules
from indigo._native import queens_garden as _qg
from indigo.bots import BotLike
from indigo.games import find_game

__all__ = [
    "CONNECT_TIMEOUT",
    "MAX_GAMES",
    "MAX_THREADS",
    "Backend",
    "LocalBackend",
    "RayBackend",
    "RunError",
    "RunSettings",
    "Span",
    "Work",
    "check_local",
    "default_span",
    "make_backend",
    "spans",
]

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

MAX_GAMES: Final = 2**32
"""The most games a run may play: as many as one call of the batch API takes."""

MAX_THREADS: Final = 1024
"""The most threads a local run may use: as many as the batch API takes."""


CONNECT_TIMEOUT: Final = 60.0
"""Seconds :class:`RayBackend` waits for a cluster to take its connection before
:class:`RunError` (Ray itself retries for ever)."""


class RunError(IndigoError):
    """Settings no run can take: too many games, seatings or threads; or a Ray cluster that
    cannot be reached."""


class _NotMainThreadWarning(logging.Filter):
    """Drops Ray's warning that a connection made off the main thread sets no SIGTERM
    handler: :meth:`RayBackend.connect` does so on purpose (SIGTERM keeps its default)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "SIGTERM handler is not set" not in record.getMessage()


def _host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``HOST:PORT``, ``[V6]:PORT`` or ``ray://HOST:PORT``; ``None`` for
    another form (``auto``), which only Ray reads."""
    host, colon, port = address.rpartition("://")[2].rpartition(":")
    if not colon or not port.isascii() or not port.isdigit() or not host:
        return None
    return host.removeprefix("[").removesuffix("]"), int(port)


@dataclass(frozen=True)
class Span:
    """Games ``start`` to ``start + games - 1`` of a run."""

    start: int
    games: int


def spans(total: int, size: int) -> list[Span]:
    """``total`` games cut into spans of ``size`` (the last may be shorter)."""
    if total < 0 or size < 1:
        raise ValueError(f"need games >= 0 and a span size >= 1, not {total} and {size}")
    return [Span(start, min(size, total - start)) for start in range(0, total, size)]


@dataclass(frozen=True)
class RunSettings:
    """What every span of a run shares: the bots, the rules, the seed and the seatings (game
    ``i`` seats ``seatings[i % len(seatings)]``)."""

    bots: Sequence[BotLike]
    rules: Rules | _qg.Rules
    seed: int
    seatings: list[list[int]]

    @property
    def game(self) -> str:
        """The game the rules are for (its :data:`indigo.games.GAMES` name)."""
        return find_game(self.rules).name

    def arguments(
        self, span: Span, threads: int, report: Callable[[int], object] | None
    ) -> dict[str, Any]:
        """The keyword arguments of :func:`~indigo.simulate` that play ``span`` of these
        games (self-play takes them without ``game``)."""
        arguments: dict[str, Any] = {
            "rules": self.rules,
            "seed": self.seed,
            "lineups": self.seatings,
            "start": span.start,
            "threads": threads,
            "progress": None if report is None else lambda done, _total: report(done),
            "game": self.game,
        }
        return arguments


def check_local(bots: Sequence[BotLike], backend: object) -> None:
    """Raises :class:`RunError` when ``backend`` is Ray and a bot is a Python object (a Ray
    worker cannot be handed one; specs travel as text)."""
    if isinstance(backend, RayBackend) and not all(isinstance(b, str) for b in bots):
        raise RunError("Python bots play on the local backend only: give Ray specs")


class Work(Protocol[R_co]):
    """Plays one span on ``threads`` threads (0: every core), calling ``report(done)`` with
    the games of the span done so far when ``report`` is given. Must be picklable (a
    module-level function, or a :func:`functools.partial` of one) to run on Ray."""

    def __call__(
        self, span: Span, threads: int, report: Callable[[int], object] | None
    ) -> R_co: ...


class Backend(Protocol):
    """Runs work over spans and yields each span's result as it finishes."""

    name: str

    def map(
        self,
        work: Work[R],
        spans: Sequence[Span],
        progress: Callable[[int], object] | None = None,
    ) -> Iterator[tuple[Span, R]]:
        """``(span, work(span, ...))`` for every span, in the order they finish;
        ``progress(done)`` hears the games done so far."""
        ...


class LocalBackend:
    """Spans one after another, each on ``threads`` threads of this machine (0: every core)."""

    name = "local"

    def __init__(self, threads: int = 0) -> None:
        if not 0 <= threads <= MAX_THREADS:
            raise RunError(f"threads must be 0 to {MAX_THREADS}, not {threads}")
        self.threads = threads

    def map(
        self,
        work: Work[R],
        spans: Sequence[Span],
        progress: Callable[[int], object] | None = None,
    ) -> Iterator[tuple[Span, R]]:
        """Each span's result in span order; progress is reported within spans too."""
        finished = 0
        for span in spans:
            report = None if progress is None else _offset(progress, finished)
            yield span, work(span, self.threads, report)
            finished += span.games
            if progress is not None:
                progress(finished)


def _offset(progress: Callable[[int], object], base: int) -> Callable[[int], object]:
    return lambda done: progress(base + done)


def _run_task(work: Work[R], span: Span, version: str) -> R:
    """One Ray task: ``span`` on one thread, on a worker with the driver's indigo."""
    if indigo.__version__ != version:
        raise RuntimeError(
            f"this Ray worker has indigo {indigo.__version__} but the driver has {version}: "
            "install the same version on every node"
        )
    return work(span, 1, None)


class RayBackend:
    """Each span a Ray task on one CPU, at most ``workers`` at once (default: as many as the
    cluster has CPUs). ``address`` is a running cluster's (``"127.0.0.1:6379"``, ``"auto"``,
    ``"ray://..."``); without it ``ray.init()`` joins ``RAY_ADDRESS`` or starts Ray on this
    machine. A task whose worker dies is retried up to ``max_retries`` times. A cluster that
    has not taken the connection within ``connect_timeout`` seconds (:data:`CONNECT_TIMEOUT`)
    is a :class:`RunError`, and so at once is a ``HOST:PORT`` where nothing listens.

    Use it as a context manager, or call :meth:`close`, to disconnect when done; a
    connection that was open before is left open.
    """

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        *,
        workers: int | None = None,
        max_retries: int = 3,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be at least 0, not {max_retries}")
        if not 0 < connect_timeout <= 86_400:
            raise ValueError(
                f"connect_timeout must be above 0 and at most 86400 s, not {connect_timeout}"
            )
        self.ray: ModuleType = require("ray", "ray")
        self.address = address
        self.workers = workers
        self.max_retries = max_retries
        self.connect_timeout = connect_timeout
        self._connected_here = False

    def connect(self) -> None:
        """Connects to the cluster unless Ray is already initialised in this process. Raises
        :class:`RunError` if the cluster cannot be reached within ``connect_timeout`` (Ray
        started here, without an address or ``RAY_ADDRESS``, is waited for without a bound).

        ``ray.init`` runs on a thread of its own: it waits in native code, where neither
        Ctrl-C nor its own SIGTERM handler can stop it, and retries for ever. This thread only
        waits, so Ctrl-C (``KeyboardInterrupt``) and SIGTERM stop it at any time."""
        if self.ray.is_initialized():
            return
        deadline = time.monotonic() + self.connect_timeout
        # As ray.init reads it: RAY_ADDRESS stands for no address and for "auto". Without
        # either, ray.init starts Ray here: there is no cluster to wait for.
        joined = self.address
        if self.address in (None, "auto") and os.environ.get("RAY_ADDRESS"):
            joined = os.environ["RAY_ADDRESS"]
        starts_here = joined is None
        where = str(joined)
        target = None if joined is None else _host_port(joined)
        if target is not None:  # a refused connection is known at once
            try:
                socket.create_connection(target, timeout=self.connect_timeout).close()
            except OSError as exc:
                raise RunError(
                    f"cannot reach the Ray cluster at {where}: {exc.strerror or exc}"
                ) from None
        options: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
        if self.address is None:
            options["include_dashboard"] = False
        failure: list[BaseException] = []

        def init() -> None:
            try:
                self.ray.init(address=self.address, **options)
            except BaseException as exc:  # handed to the waiting thread
                failure.append(exc)

        quiet = _NotMainThreadWarning()
        ray_worker_log = logging.getLogger("ray._private.worker")
        ray_worker_log.addFilter(quiet)
        try:
            thread = threading.Thread(target=init, name="indigo-ray-connect", daemon=True)
            thread.start()
            while thread.is_alive() and (starts_here or time.monotonic() < deadline):
                thread.join(0.1)
        finally:
            ray_worker_log.removeFilter(quiet)
        if thread.is_alive():
            raise RunError(
                f"the Ray cluster at {where} did not take the connection within "
                f"{self.connect_timeout:g} s: is it a Ray head node's address, and running?"
            )
        if failure:
            if isinstance(failure[0], ConnectionError):
                raise RunError(f"cannot reach the Ray cluster at {where}: {failure[0]}") from None
            raise failure[0]
        self._connected_here = True

    def close(self) -> None:
        """Disconnects if :meth:`connect` opened the connection."""
        if self._connected_here:
            self.ray.shutdown()
            self._connected_here = False

    def __enter__(self) -> RayBackend:
        self.connect()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def cpus(self) -> int:
        """The CPUs of the cluster."""
        self.connect()
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def map(
        self,
        work: Work[R],
        spans: Sequence[Span],
        progress: Callable[[int], object] | None = None,
    ) -> Iterator[tuple[Span, R]]:
        """Each span's result as its task finishes; at most ``workers`` tasks run at once."""
        self.connect()
        ray = self.ray
        task = ray.remote(num_cpus=1, max_retries=self.max_retries, retry_exceptions=False)(
            _run_task
        )
        # Twice the CPUs in flight keeps every CPU busy while results travel back; a set
        # number of workers is a hard limit.
        limit = self.workers or 2 * self.cpus()
        waiting = list(reversed(spans))
        running: dict[Any, Span] = {}
        finished = 0
        try:
            while waiting or running:
                while waiting and len(running) < limit:
                    span = waiting.pop()
                    running[task.remote(work, span, indigo.__version__)] = span
                (ready,), _ = ray.wait(list(running), num_returns=1)
                span = running.pop(ready)
                result: R = ray.get(ready)
                finished += span.games
                if progress is not None:
                    progress(finished)
                yield span, result
        finally:
            for ref in running:
                ray.cancel(ref, force=True)


def make_backend(
    name: str, *, address: str | None = None, workers: int | None = None, threads: int = 0
) -> LocalBackend | RayBackend:
    """The backend ``indigo tournament`` and ``indigo selfplay`` name with ``--backend``."""
    if name == "local":
        if address is not None or workers is not None:
            raise ValueError("--address and --workers are for --backend ray")
        return LocalBackend(threads)
    if name == "ray":
        return RayBackend(address, workers=workers)
    raise ValueError(f"unknown backend {name!r}: expected 'local' or 'ray'")


def default_span(backend: Backend, games: int) -> int:
    """A span size that keeps every worker busy: on Ray about four spans per worker; else
    all games in one span (the batch API spreads them over the cores)."""
    if not isinstance(backend, RayBackend):
        return max(1, games)
    workers = backend.workers or backend.cpus()
    return max(1, math.ceil(games / (4 * workers)))
