"""Backends: the same games on this machine and on a real Ray cluster that the tests start on
127.0.0.1 (2 CPUs) and stop afterwards."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pyarrow.parquet as pq
import pytest

# Ray moves a node's loopback address to the machine's outward one unless its multi-node mode
# is off; off, both the cluster and this driver stay on 127.0.0.1. Read when ray is imported.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
# Token authentication, with a token of the test's own that the cluster (started with this
# environment) and the driver share: otherwise Ray turns it on or off depending on whether
# ~/.ray/auth_token happens to exist.
os.environ["RAY_AUTH_MODE"] = "token"
os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)

import ray

from indigo import Rules
from indigo.cli import main
from indigo.distributed import (
    LocalBackend,
    RayBackend,
    Span,
    _run_task,
    default_span,
    make_backend,
    spans,
)
from indigo.selfplay import run_selfplay
from indigo.tournament import lineups, play_games, run_tournament

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

RAY = [sys.executable, "-m", "ray.scripts.scripts"]
TASK_TITLE = "ray::_run_task"
"""The process title Ray gives a worker while it runs one of our tasks."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A Ray head node on 127.0.0.1 with 2 CPUs; its address."""
    assert not ray.is_initialized()
    port = _free_port()
    start = [
        *RAY,
        "start",
        "--head",
        "--node-ip-address=127.0.0.1",
        f"--port={port}",
        "--num-cpus=2",
        "--object-store-memory=300000000",  # 300 MB: results are small
        "--include-dashboard=false",
        "--disable-usage-stats",
    ]
    started = subprocess.run(start, check=False, capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run([*RAY, "stop", "--force"], check=False, capture_output=True, timeout=120)


KW = {"rules": Rules.indigo(2), "seed": 21, "seatings": lineups(3, 2)}
BOTS = ["ismcts:60", "greedy", "random"]


def test_spans_cover_the_games_once() -> None:
    assert spans(0, 3) == []
    assert spans(7, 7) == [Span(0, 7)]
    cut = spans(23, 5)
    assert [s.start for s in cut] == [0, 5, 10, 15, 20]
    assert sum(s.games for s in cut) == 23
    with pytest.raises(ValueError, match="span size"):
        spans(4, 0)


def test_local_spans_do_not_change_the_games() -> None:
    whole = play_games(BOTS, 30, **KW)  # type: ignore[arg-type]
    for span in (1, 4, 29):
        assert play_games(BOTS, 30, span=span, **KW).equals(whole)  # type: ignore[arg-type]
    heard: list[int] = []
    play_games(BOTS, 30, span=7, progress=heard.append, **KW)  # type: ignore[arg-type]
    assert heard[-1] == 30
    assert heard == sorted(heard)


@pytest.mark.parametrize("workers", [1, 2])
def test_tournament_on_ray_equals_the_local_backend(cluster: str, workers: int) -> None:
    local = play_games(BOTS, 36, **KW)  # type: ignore[arg-type]
    heard: list[int] = []
    with RayBackend(cluster, workers=workers) as backend:
        assert backend.cpus() == 2
        assert default_span(backend, 36) == -(-36 // (4 * workers))  # a ceiling
        remote = play_games(BOTS, 36, backend=backend, span=5, progress=heard.append, **KW)  # type: ignore[arg-type]
        result = run_tournament(BOTS, players=2, games=36, seed=21, backend=backend)
    assert remote.equals(local)
    assert heard[-1] == 36
    assert result == run_tournament(BOTS, players=2, games=36, seed=21)
    assert not ray.is_initialized(), "the backend disconnects what it connected"


def test_without_an_address_ray_joins_ray_address(
    cluster: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAY_ADDRESS", cluster)
    with RayBackend() as backend:
        assert backend.cpus() == 2
        remote = play_games(BOTS, 12, backend=backend, **KW)  # type: ignore[arg-type]
    assert remote.equals(play_games(BOTS, 12, **KW))  # type: ignore[arg-type]


def test_tournament_cli_on_ray_prints_the_local_json(
    cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "--bots", "greedy,random", "--games", "30", "--seed", "4", "--json"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    ray_args = ["--backend", "ray", "--address", cluster, "--workers", "2", "--batch-size", "4"]
    assert main([*argv, *ray_args]) == 0
    assert json.loads(capsys.readouterr().out) == local


def test_selfplay_on_ray_writes_the_local_shards(cluster: str, tmp_path: Path) -> None:
    settings = {"rules": Rules.indigo(3), "seed": 8, "shard_size": 3}
    bots = ["ismcts:30", "greedy"]
    local = run_selfplay(bots, 8, tmp_path / "local", **settings)  # type: ignore[arg-type]
    with RayBackend(cluster, workers=2) as backend:
        remote = run_selfplay(bots, 8, tmp_path / "ray", backend=backend, **settings)  # type: ignore[arg-type]
        # Resuming on Ray: a lost shard is played again, the others are skipped.
        (tmp_path / "ray" / "samples-00002.parquet").unlink()
        again = run_selfplay(bots, 8, tmp_path / "ray", backend=backend, **settings)  # type: ignore[arg-type]
    assert (remote.shards_written, remote.samples_written) == (3, local.samples_written)
    assert (again.shards_written, again.shards_skipped) == (1, 2)
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "ray").iterdir())
    for name in names:
        mine, theirs = tmp_path / "local" / name, tmp_path / "ray" / name
        if name.endswith(".parquet"):
            assert pq.read_table(mine).equals(pq.read_table(theirs), check_metadata=True)
        else:
            assert mine.read_text() == theirs.read_text(), name


def _kill_first_task(killed: list[int], stop: threading.Event) -> None:
    """SIGKILLs the first worker seen running one of our tasks."""
    while not stop.is_set():
        for process in psutil.process_iter(["cmdline"]):
            cmdline = process.info["cmdline"] or [""]
            if cmdline[0].startswith(TASK_TITLE):
                process.kill()
                killed.append(process.pid)
                return
        time.sleep(0.02)


def test_a_killed_worker_is_retried_and_the_results_are_identical(cluster: str) -> None:
    bots = ["ismcts:1500", "greedy"]
    settings = {"rules": Rules.indigo(2), "seed": 33, "seatings": lineups(2, 2)}
    local = play_games(bots, 16, **settings)  # type: ignore[arg-type]
    killed: list[int] = []
    stop = threading.Event()
    killer = threading.Thread(target=_kill_first_task, args=(killed, stop))
    killer.start()
    try:
        with RayBackend(cluster, workers=2) as backend:
            remote = play_games(bots, 16, backend=backend, span=2, **settings)  # type: ignore[arg-type]
    finally:
        stop.set()
        killer.join()
    assert len(killed) == 1, "a worker was killed while it ran a task"
    assert not psutil.pid_exists(killed[0]) or psutil.Process(killed[0]).status() == "zombie"
    assert len(remote.scores) == 16
    assert remote.equals(local)


def test_a_worker_with_another_indigo_refuses_work() -> None:
    with pytest.raises(RuntimeError, match="install the same version on every node"):
        _run_task(lambda span, threads, report: span, Span(0, 1), "0.0.0-other")


def test_without_ray_the_backend_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install 'indigo-tiles\[ray\]'"):
        RayBackend()
    argv = ["tournament", "--bots", "greedy,random", "--backend", "ray"]
    assert main(argv) == 2
    assert "pip install 'indigo-tiles[ray]'" in capsys.readouterr().err
    # The local backend needs no Ray.
    assert main(["tournament", "--bots", "greedy,random", "--games", "2", "--json"]) == 0


def test_backend_arguments_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "greedy", "--address", "127.0.0.1:1"]) == 2
    assert (
        capsys.readouterr().err == "indigo: error: --address and --workers are for --backend ray\n"
    )
    assert isinstance(make_backend("local", threads=1), LocalBackend)
    with pytest.raises(ValueError, match="for --backend ray"):
        make_backend("local", address="127.0.0.1:1")
    with pytest.raises(ValueError, match="unknown backend"):
        make_backend("dask")
    with pytest.raises(ValueError, match="workers must be at least 1"):
        RayBackend(workers=0)


class _SilentListener:
    """A loopback port that accepts connections and never answers: not a Ray cluster."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0), backlog=64)
        self.port = int(self.socket.getsockname()[1])
        self.accepted: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):  # closed by the test
            while True:
                self.accepted.append(self.socket.accept()[0])

    def close(self) -> None:
        self.socket.close()
        for peer in self.accepted:
            peer.close()


def _indigo(argv: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "indigo", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("command", ["tournament", "selfplay"])
def test_a_cluster_where_nothing_listens_is_one_line_at_once(command: str, tmp_path: Path) -> None:
    """``--address`` naming a loopback port with nothing on it: one line and status 2 (it hung
    for minutes, deaf to Ctrl-C and SIGTERM), and no self-play folder made."""
    address = f"127.0.0.1:{_free_port()}"
    out = tmp_path / "run"
    games = ["--games", "2"] + (["--out", str(out)] if command == "selfplay" else [])
    child = _indigo([command, "--bots", "greedy", *games, "--backend", "ray", "--address", address])
    stdout, stderr = child.communicate(timeout=120)
    assert (child.returncode, stdout) == (2, "")
    assert (
        stderr == f"indigo: error: cannot reach the Ray cluster at {address}: Connection refused\n"
    )
    assert not out.exists()


def test_a_cluster_that_does_not_answer_is_a_run_error_after_the_timeout() -> None:
    """A listener that is not Ray: ``ray.init`` would wait for ever; the backend gives up
    after ``connect_timeout`` with a RunError naming the address and the bound."""
    listener = _SilentListener()
    address = f"127.0.0.1:{listener.port}"
    script = (
        "from indigo.distributed import RayBackend, RunError\n"
        f"backend = RayBackend({address!r}, connect_timeout=3)\n"
        "try:\n"
        "    backend.connect()\n"
        "except RunError as exc:\n"
        "    print(exc)\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
        )
    finally:
        listener.close()
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"the Ray cluster at {address} did not take the connection within 3 s: is it a Ray "
        "head node's address, and running?\n"
    )
    assert "SIGTERM handler is not set" not in done.stderr


@pytest.mark.parametrize(
    ("sent", "status"),
    [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM)],
    ids=["SIGINT", "SIGTERM"],
)
def test_ctrl_c_and_sigterm_stop_a_connection_that_waits(sent: int, status: int) -> None:
    """While ``ray.init`` waits on a listener that never answers (the probe and Ray's own
    connection accepted), SIGINT ends ``indigo tournament`` with status 130 and no traceback,
    SIGTERM with its default action: both were ignored."""
    listener = _SilentListener()
    address = f"127.0.0.1:{listener.port}"
    child = _indigo(["tournament", "--bots", "greedy", "--backend", "ray", "--address", address])
    try:
        deadline = time.monotonic() + 60
        while len(listener.accepted) < 2:
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "Ray never connected"
            time.sleep(0.05)
        child.send_signal(sent)
        _, stderr = child.communicate(timeout=30)  # the backend's own bound is 60 s
        assert child.returncode == status, stderr
        assert "Traceback" not in stderr
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
        listener.close()
