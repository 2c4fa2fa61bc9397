"""Self-play data for learned agents: games written as records and as Parquet training samples.

A run plays games ``0..games-1`` with the given bots (seats rotating as in a tournament), in
shards of ``shard_size`` games, on a backend (this machine or a Ray cluster). Game ``i`` is the
game ``indigo tournament`` and :func:`indigo.simulate` play with the same seed. The output
folder holds:

* ``manifest.json``: the run's settings (``"format": "indigo-selfplay/1"``, or
  ``"queens-garden-selfplay/1"`` with ``"game": "queens-garden"``);
* ``records-NNNNN.jsonl``: shard ``NNNNN``'s games, one ``indigo-record/1`` (or
  ``queens-garden-record/1``) per line in game order, with ``seed``, ``result``,
  ``players_names`` (each seat's bot spec) and ``game`` (its index);
* ``samples-NNNNN.parquet``: one row per move of those games, with the columns of
  :func:`schema` (docs/distributed.md describes each).

Each game's samples are its registry entry's ``samples`` module's (:mod:`indigo.games`):
Indigo's :mod:`indigo.samples`; Queen's Garden (``rules=indigo.queens_garden.Rules(...)``)
writes the same files and columns, except that its 8,053,459 actions do not fit a mask
(:mod:`indigo.queens_garden.samples`: the legal actions listed, actions ``uint32``).
:func:`load` reads each run as its game's ``SampleBatch`` batches.

A shard's files are written whole or not at all (to a temporary name, then renamed; the
Parquet file last), so a rerun with the same folder and settings skips finished shards. It
trusts a shard only when both files are whole (the records file holds the shard's games, one
per line, and the Parquet footer reads, with one row per move of those games); a damaged shard
is played again, to the same bytes. :func:`load` reads the samples back as numpy batches.
Needs the ``selfplay`` extra (pyarrow).

>>> import tempfile
>>> from indigo.selfplay import load, run_selfplay
>>> folder = tempfile.mkdtemp()
>>> run = run_selfplay(["ismcts:50", "greedy"], 4, folder, seed=1, shard_size=2)
>>> run.games, run.shards_written, run.shards_skipped
(4, 2, 0)
>>> batch = next(load(folder, batch_size=64))
>>> batch.observation.shape, batch.legal_mask.shape, batch.policy.shape
((64, 2127), (64, 810), (64, 810))
>>> bool(batch.legal_mask[range(64), batch.action].all())
True
>>> run_selfplay(["ismcts:50", "greedy"], 4, folder, seed=1, shard_size=2).shards_skipped
2
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, BinaryIO, Final

from indigo import queens_garden as qg
from indigo._extras import require
from indigo._native import IndigoError, PuctBot, Rules, normalize_bot_spec
from indigo.bots import BotLike, bot_name
from indigo.distributed import (
    MAX_GAMES,
    Backend,
    LocalBackend,
    RunSettings,
    Span,
    check_local,
    spans,
)
from indigo.games import GAMES, GameEntry, find_game
from indigo.records import MAX_RECORD_BYTES
from indigo.tournament import lineups

require("pyarrow.parquet", "selfplay")

import pyarrow as pa  # noqa: E402  (after the check that names the extra)
import pyarrow.parquet as pq  # noqa: E402

__all__ = [
    "MAX_SHARDS",
    "RunSummary",
    "SelfPlayError",
    "load",
    "read_records",
    "run_selfplay",
    "schema",
]

MANIFEST: Final = "manifest.json"

MAX_SHARDS: Final = 100_000
"""The most shards a run may have (each is two files in one folder)."""

MAX_MANIFEST_BYTES: Final = 64 * 2**20
"""The largest manifest read (one at the seating cap takes about 5 MB)."""


class SelfPlayError(IndigoError):
    """A run that cannot be: bad settings, an output folder that cannot be written, holds
    another run or is not a self-play folder, or a damaged shard."""


def schema(game: str = "indigo") -> pa.Schema:
    """The Parquet schema of the samples of ``game`` (a name of :data:`indigo.games.GAMES`):
    one row per move, as its ``samples`` module (:mod:`indigo.samples`,
    :mod:`indigo.queens_garden.samples`) defines it."""
    samples = find_game(game).load("samples")
    expected: pa.Schema = samples.schema()
    return expected


@dataclass(frozen=True)
class Shard:
    """One shard as a worker made it: the files' contents, so workers need no shared disk."""

    samples: bytes
    records: str
    rows: int


def _play_shard(
    run: RunSettings, span: Span, threads: int, report: Callable[[int], object] | None
) -> Shard:
    """One shard's games, encoded (module level, so Ray can ship it by reference)."""
    arguments = run.arguments(span, threads, report)
    samples = find_game(arguments.pop("game")).load("samples")
    return _shard_of(samples, samples.play(run.bots, span.games, **arguments))


def _play_puct_shard(
    bot: PuctBot,
    in_flight: int,
    run: RunSettings,
    span: Span,
    threads: int,
    report: Callable[[int], object] | None,
) -> Shard:
    """One shard's games with ``bot`` in every seat, ``in_flight`` at a time, encoded (the
    evaluator is called from this thread)."""
    del threads, report  # the evaluator's batches are the parallelism
    batch = bot.self_play(
        span.games, rules=run.rules, seed=run.seed, start=span.start, in_flight=in_flight
    )
    return _shard_of(find_game(run.rules).load("samples"), batch)


def _shard_of(samples: Any, batch: Any) -> Shard:
    """A self-play batch as a shard's files, its table made by its game's ``samples`` module."""
    sink = pa.BufferOutputStream()
    pq.write_table(samples.samples_table(batch), sink, compression="zstd")
    return Shard(
        samples=sink.getvalue().to_pybytes(),
        records="".join(record + "\n" for record in batch.records),
        rows=batch.samples,
    )


@dataclass(frozen=True)
class RunSummary:
    """What :func:`run_selfplay` did."""

    games: int
    """Games in the run, finished shards included."""
    shards_written: int
    shards_skipped: int
    """Shards that were already finished."""
    samples_written: int
    """Samples in the shards written now."""
    folder: str

    def to_json(self) -> dict[str, Any]:
        """The object ``indigo selfplay --json`` prints."""
        return asdict(self)


def _shard_paths(folder: Path, shard: int) -> tuple[Path, Path]:
    return folder / f"samples-{shard:05d}.parquet", folder / f"records-{shard:05d}.jsonl"


def _write_atomically(path: Path, data: bytes) -> None:
    temporary = path.with_name(path.name + ".partial")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise SelfPlayError(f"cannot write {path}: {exc.strerror or exc}") from None


def _manifest(
    bots: list[str], rules: Rules | qg.Rules, seed: int, games: int, shard_size: int
) -> dict[str, Any]:
    head: dict[str, Any] = find_game(rules).load("samples").manifest(rules)
    return {
        **head,
        "bots": bots,
        "seed": seed,
        "games": games,
        "shard_size": shard_size,
        "lineups": lineups(len(bots), rules.players),
    }


def _read_manifest(folder: Path) -> dict[str, Any] | None:
    """The folder's manifest as read, or ``None`` if it has none. Raises
    :class:`SelfPlayError` when it is not a file holding a JSON object."""
    path = folder / MANIFEST
    try:
        if not path.is_file():
            if path.exists():
                raise SelfPlayError(f"{path} is not a file")
            return None
        data = bytearray()
        with path.open("rb") as file:  # by the MiB: read(n) would hold n bytes at once
            while len(data) <= MAX_MANIFEST_BYTES and (chunk := file.read(2**20)):
                data += chunk
    except OSError as exc:
        raise SelfPlayError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_MANIFEST_BYTES:
        raise SelfPlayError(
            f"{path} is not a self-play manifest: over {MAX_MANIFEST_BYTES:,} bytes"
        )
    try:
        found = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise SelfPlayError(f"{path} is not a self-play manifest: not UTF-8 text") from None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise SelfPlayError(f"{path} is not a self-play manifest: invalid JSON ({exc})") from None
    if not isinstance(found, dict):
        raise SelfPlayError(
            f"{path} is not a self-play manifest: it holds a JSON {type(found).__name__}"
        )
    formats = [entry.load("samples").FORMAT for entry in GAMES]
    if found.get("format") not in formats:
        raise SelfPlayError(
            f"{path} is not {' or '.join(formats)}: its format is {found.get('format')!r}"
        )
    return found


def _game_of(manifest: dict[str, Any]) -> GameEntry[Any, Any, Any]:
    """The game of a manifest :func:`_read_manifest` accepted, by its ``format``."""
    return next(e for e in GAMES if manifest["format"] == e.load("samples").FORMAT)


def _claim(folder: Path, manifest: dict[str, Any]) -> None:
    """Writes the manifest, or checks that the folder's is the same run."""
    if folder.exists() and not folder.is_dir():
        raise SelfPlayError(f"{folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SelfPlayError(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    found = _read_manifest(folder)
    if found is not None:
        if found != manifest:
            changed = sorted(
                k for k in manifest.keys() | found.keys() if found.get(k) != manifest.get(k)
            )
            raise SelfPlayError(
                f"{folder} holds another self-play run (it differs in {', '.join(changed)}): "
                "rerun with the same settings to resume it, or choose a new folder"
            )
    else:
        _write_atomically(folder / MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())


def _shard_spans(games: int, shard_size: int) -> list[Span]:
    """The run's shards. Raises :class:`SelfPlayError` for counts no run may have."""
    if not 0 <= games <= MAX_GAMES:
        raise SelfPlayError(f"games must be 0 to {MAX_GAMES:,}, not {games:,}")
    if shard_size < 1:
        raise SelfPlayError(f"shard_size must be at least 1, not {shard_size}")
    count = -(-games // shard_size)
    if count > MAX_SHARDS:
        raise SelfPlayError(
            f"{games:,} games in shards of {shard_size:,} would make {count:,} shards; the "
            f"cap is {MAX_SHARDS:,}: choose a larger shard size"
        )
    return spans(games, shard_size)


def run_selfplay(
    bots: Sequence[BotLike] | PuctBot,
    games: int,
    folder: str | os.PathLike[str],
    *,
    rules: Rules | qg.Rules | None = None,
    seed: int = 0,
    shard_size: int = 100,
    backend: Backend | None = None,
    progress: Callable[[int, int], object] | None = None,
    in_flight: int = 1,
) -> RunSummary:
    """Plays ``games`` self-play games into ``folder`` in shards of ``shard_size`` games on
    ``backend`` (default: every core of this machine), skipping shards already finished
    there. ``progress(done, total)`` hears the games played so far of those still to play.
    ``rules`` may be Queen's Garden's (module docs). Reproducible with simulation budgets:
    ``ismcts:time=...`` depends on the clock.
    Everything is checked before anything is written; a shard whose files are damaged is
    played again. Bot objects and policy callables (:data:`indigo.bots.BotLike`) play in
    Python (:func:`indigo.self_play`) on the local backend only, named in the manifest by
    :func:`indigo.bots.bot_name`.

    ``bots`` may instead be one :class:`indigo.PuctBot`: AlphaZero self-play, that search in
    every seat with its evaluator, on the local backend (the evaluator lives in this
    process). The manifest names it by :attr:`~indigo.PuctBot.spec`, which does not name the
    evaluator: write each network's games to a folder of their own. ``in_flight`` games of a
    shard are played at a time, their searches sharing each evaluator call
    (:meth:`indigo.PuctBot.self_play`); it is not part of the manifest, since for an evaluator
    that answers each leaf alike in any batch it does not change the games.
    """
    if not os.fspath(folder):
        raise SelfPlayError("the output folder is empty: name a folder (. for this one)")
    every = _shard_spans(games, shard_size)
    if isinstance(bots, PuctBot):
        puct: PuctBot | None = bots
        names = [bots.spec]
        entries: list[BotLike] = list(names)
        if not isinstance(backend, LocalBackend | None):
            raise SelfPlayError(
                "a PuctBot's evaluator is a Python object of this process: use the local backend"
            )
    else:
        if in_flight != 1:
            raise SelfPlayError(f"in_flight applies to a PuctBot, not to bot specs: {in_flight}")
        puct = None
        check_local(bots, backend)
        names = [bot_name(b) for b in bots]
        entries = [normalize_bot_spec(b) if isinstance(b, str) else b for b in bots]
    rules = rules if rules is not None else GAMES[0].default_rules(2)
    entry = find_game(rules)
    if puct is not None:
        puct.self_play(0, rules=rules, in_flight=in_flight)  # checks in_flight, plays nothing
    if not entry.python_bots and not all(isinstance(b, str) for b in entries):
        raise SelfPlayError(
            "Queen's Garden self-play takes bot specs (random, greedy, ismcts:N) or a PuctBot; "
            "bot objects and callables play Indigo only"
        )
    seatings = lineups(len(names), rules.players)
    out = Path(folder)
    _claim(out, _manifest(names, rules, seed, games, shard_size))
    expected = entry.load("samples").schema()
    todo = [s for s in every if not _intact(out, s.start // shard_size, s, expected)]
    settings = RunSettings(entries, rules, seed, seatings)
    work = (
        functools.partial(_play_shard, settings)
        if puct is None
        else functools.partial(_play_puct_shard, puct, in_flight, settings)
    )
    total = sum(s.games for s in todo)
    samples = 0
    backend = backend if backend is not None else LocalBackend()
    for span, shard in backend.map(
        work, todo, None if progress is None else lambda done: progress(done, total)
    ):
        parquet, jsonl = _shard_paths(out, span.start // shard_size)
        _write_atomically(jsonl, shard.records.encode())
        _write_atomically(parquet, shard.samples)
        samples += shard.rows
    return RunSummary(
        games=games,
        shards_written=len(todo),
        shards_skipped=len(every) - len(todo),
        samples_written=samples,
        folder=str(out),
    )


def _finished(folder: Path, shard: int) -> bool:
    parquet, jsonl = _shard_paths(folder, shard)
    return parquet.exists() and jsonl.exists()


def _record_lines(file: BinaryIO) -> Iterator[bytes]:
    """The records file's lines, newlines kept, read as a stream: a line over
    :data:`~indigo.records.MAX_RECORD_BYTES` raises ``ValueError`` after that many bytes."""
    while line := file.readline(MAX_RECORD_BYTES + 1):
        if len(line) > MAX_RECORD_BYTES:
            raise ValueError(f"a line over {MAX_RECORD_BYTES:,} bytes")
        yield line


def _intact(folder: Path, shard: int, span: Span, expected: pa.Schema) -> bool:
    """Whether the shard's files are whole: both are regular files, the records file holds
    the span's games in order, one per line, and the samples file's footer reads, with the
    schema, one row per move of those games, and those games' indices. A file cut short
    fails one of these. At most ``span.games + 1`` lines are read, each at most
    :data:`~indigo.records.MAX_RECORD_BYTES` (docs/distributed.md says what is checked)."""
    parquet, jsonl = _shard_paths(folder, shard)
    try:
        if not (jsonl.is_file() and parquet.is_file()):  # a device or a pipe is not a shard
            return False
        moves = 0
        index = span.start
        with jsonl.open("rb") as file:
            for line in _record_lines(file):
                if index == span.start + span.games or not line.endswith(b"\n"):
                    return False
                record = json.loads(line.decode("utf-8"))
                if record["game"] != index:
                    return False
                moves += len(record["moves"])
                index += 1
        if index != span.start + span.games:
            return False
        with pq.ParquetFile(parquet) as samples:
            footer = samples.metadata
            if footer.num_rows != moves or not samples.schema_arrow.equals(
                expected, check_metadata=True
            ):
                return False
            # The games the rows belong to, from the footer's statistics of the game column.
            column = samples.schema_arrow.get_field_index("game")
            stats = [
                footer.row_group(g).column(column).statistics for g in range(footer.num_row_groups)
            ]
        if not stats or not all(s is not None and s.has_min_max for s in stats):
            return False
        first, last = min(s.min for s in stats), max(s.max for s in stats)
        return (first, last) == (span.start, span.start + span.games - 1)
    except (OSError, ValueError, RecursionError, LookupError, TypeError, pa.ArrowException):
        return False


def _shards(folder: str | os.PathLike[str]) -> tuple[Path, list[int]]:
    """The folder and its finished shards in order."""
    out = Path(folder)
    manifest = _read_manifest(out)
    if manifest is None:
        raise SelfPlayError(f"{out} is not a self-play folder: it has no {MANIFEST}")
    games, shard_size = manifest.get("games"), manifest.get("shard_size")
    if type(games) is not int or type(shard_size) is not int:
        raise SelfPlayError(f"{out / MANIFEST}: games and shard_size must be integers")
    count = len(_shard_spans(games, shard_size))
    return out, [k for k in range(count) if _finished(out, k)]


def read_records(folder: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Every finished shard's records, in game order: ``Game.from_record`` replays each.
    Raises :class:`SelfPlayError` naming a records file that does not read."""
    out, shards = _shards(folder)
    for k in shards:
        yield from _records(_shard_paths(out, k)[1])


def _damaged(path: Path, error: Exception) -> SelfPlayError:
    return SelfPlayError(f"{path} is damaged ({error}): rerun the self-play to write it again")


def _records(path: Path) -> Iterator[dict[str, Any]]:
    """The records file's records, read a line at a time. Raises :class:`SelfPlayError`
    naming the file if it does not read, is not a regular file, or holds a line over
    :data:`~indigo.records.MAX_RECORD_BYTES`."""
    try:
        if not path.is_file():
            raise ValueError("not a regular file")
        with path.open("rb") as file:
            for line in _record_lines(file):
                yield json.loads(line.decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise _damaged(path, exc) from None


def _parts(path: Path, batch_size: int) -> Iterator[pa.RecordBatch]:
    """The samples file's rows, ``batch_size`` at a time. Raises :class:`SelfPlayError`
    naming the file if it does not read."""
    try:
        with pq.ParquetFile(path) as samples:
            yield from samples.iter_batches(batch_size)
    except (OSError, pa.ArrowException) as exc:
        raise _damaged(path, exc) from None


def load(folder: str | os.PathLike[str], batch_size: int = 1024) -> Iterator[Any]:
    """The finished shards' samples in game order, ``batch_size`` rows at a time (the last
    batch may be shorter), as the ``SampleBatch`` of the run's game: an Indigo run's are
    :class:`indigo.samples.SampleBatch`, a Queen's Garden run's
    :class:`indigo.queens_garden.samples.SampleBatch`. Raises :class:`SelfPlayError` naming
    a samples file that does not read."""
    if batch_size < 1:
        raise SelfPlayError(f"batch_size must be at least 1, not {batch_size}")

    out, shards = _shards(folder)
    manifest = _read_manifest(out)
    assert manifest is not None  # _shards found it
    to_batch: Callable[[pa.Table], Any] = _game_of(manifest).load("samples").to_batch
    pending: list[pa.RecordBatch] = []
    held = 0
    for k in shards:
        for part in _parts(_shard_paths(out, k)[0], batch_size):
            pending.append(part)
            held += part.num_rows
            while held >= batch_size:
                table = pa.Table.from_batches(pending)
                yield to_batch(table.slice(0, batch_size))
                rest = table.slice(batch_size)
                pending, held = rest.to_batches(), rest.num_rows
    if held:
        yield to_batch(pa.Table.from_batches(pending))
