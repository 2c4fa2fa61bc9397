"""Self-play data: records, Parquet shards of samples, the loader, resuming, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from indigo import ACTION_COUNT, OBSERVATION_SIZE, Game, Rules, self_play, simulate
from indigo.cli import main
from indigo.samples import FORMAT, samples_table
from indigo.selfplay import SelfPlayError, load, read_records, run_selfplay, schema
from indigo.tournament import lineups

BOTS = ["ismcts:40", "greedy", "random"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("selfplay")
    run = run_selfplay(BOTS, 14, out, rules=Rules.indigo(3), seed=9, shard_size=5)
    assert (run.games, run.shards_written, run.shards_skipped) == (14, 3, 0)
    return out


def test_folder_layout_and_manifest(folder: Path) -> None:
    names = sorted(p.name for p in folder.iterdir())
    assert names == [
        "manifest.json",
        *(f"records-{k:05d}.jsonl" for k in range(3)),
        *(f"samples-{k:05d}.parquet" for k in range(3)),
    ]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["format"] == FORMAT
    assert manifest["bots"] == ["ismcts:40", "greedy", "random"]
    assert manifest["rules"]["players"] == 3
    assert (manifest["games"], manifest["shard_size"], manifest["seed"]) == (14, 5, 9)


def test_shards_have_the_documented_schema_and_counts(folder: Path) -> None:
    records = list(read_records(folder))
    assert [r["game"] for r in records] == list(range(14))
    for k, games in enumerate((5, 5, 4)):
        table = pq.read_table(folder / f"samples-{k:05d}.parquet")
        assert table.schema.equals(schema(), check_metadata=True)
        in_shard = [r for r in records if k * 5 <= r["game"] < k * 5 + games]
        assert len(in_shard) == games
        assert table.num_rows == sum(len(r["moves"]) for r in in_shard)
        assert sorted(set(table.column("game").to_pylist())) == [r["game"] for r in in_shard]
    assert all(f.metadata[b"doc"] for f in schema())


def test_records_replay_to_the_stored_outcomes(folder: Path) -> None:
    by_game = {r["game"]: r for r in read_records(folder)}
    rows = [row for batch in load(folder, batch_size=100) for row in _rows(batch)]
    assert len(rows) == sum(len(r["moves"]) for r in by_game.values())
    seatings = lineups(3, 3)
    for record in by_game.values():
        game = Game.from_record(record)
        assert game.over
        assert game.scores == record["result"]["scores"]
        assert game.winners == record["result"]["winners"]
        assert record["players_names"] == [BOTS[b] for b in seatings[record["game"] % 6]]
        assert Game(Rules.indigo(3), seed=record["seed"]).pile == record["pile"]
    replays = {g: Game(Rules.indigo(3), pile=r["pile"]) for g, r in by_game.items()}
    for game_index, ply, seat, action, outcome, points, observation, mask in rows:
        replay = replays[game_index]
        assert len(replay.moves) == ply
        assert replay.to_move == seat
        assert np.array_equal(replay.observation(seat), observation)
        assert np.array_equal(replay.legal_action_mask(), mask)
        final = by_game[game_index]["result"]
        assert points == final["scores"][seat]
        won = seat in final["winners"]
        assert outcome == pytest.approx(1 / len(final["winners"]) if won else 0.0)
        replay.play(action)


def _rows(batch):  # type: ignore[no-untyped-def]
    return zip(
        batch.game.tolist(),
        batch.ply.tolist(),
        batch.seat.tolist(),
        batch.action.tolist(),
        batch.outcome.tolist(),
        batch.points.tolist(),
        batch.observation,
        batch.legal_mask,
        strict=True,
    )


def test_loader_batches_policies_and_masks(folder: Path) -> None:
    batches = list(load(folder, batch_size=128))
    total = sum(len(b) for b in batches)
    assert [len(b) for b in batches[:-1]] == [128] * (len(batches) - 1)
    assert 0 < len(batches[-1]) <= 128
    whole = next(load(folder, batch_size=total))
    assert len(whole) == total
    merged = np.concatenate([b.observation for b in batches])
    assert np.array_equal(merged, whole.observation)
    assert whole.observation.shape == (total, OBSERVATION_SIZE)
    assert whole.observation.dtype == np.float32
    assert whole.legal_mask.shape == whole.policy.shape == (total, ACTION_COUNT)
    assert whole.legal_mask[np.arange(total), whole.action].all()
    searched = whole.searched
    assert 0 < searched.sum() < total, "ISMCTS, greedy and random all moved"
    assert np.allclose(whole.policy[searched].sum(axis=1), 1.0)
    assert not whole.policy[~searched].any()
    assert not (whole.policy > 0)[~whole.legal_mask].any(), "visits only to legal actions"
    # 40 simulations a search: each visit is 1/40 of the distribution.
    assert np.allclose(whole.policy[searched] * 40, np.round(whole.policy[searched] * 40))


def test_samples_table_matches_the_native_batch() -> None:
    batch = self_play(["ismcts:30", "random"], 3, seed=4, lineups=[[0, 1], [1, 0]])
    table = samples_table(batch)
    assert table.num_rows == batch.samples == len(batch.action)
    assert table.column("visit_actions").null_count == int((~batch.searched).sum())
    row = int(np.argmax(batch.searched))
    start, end = batch.visit_offsets[row], batch.visit_offsets[row + 1]
    assert table.column("visit_actions")[row].as_py() == batch.visit_actions[start:end].tolist()
    assert table.column("visit_counts")[row].as_py() == batch.visit_counts[start:end].tolist()
    assert sum(table.column("visit_counts")[row].as_py()) == 30


def test_self_play_plays_the_tournament_games() -> None:
    kwargs = {"seed": 12, "lineups": [[0, 1], [1, 0]], "start": 7}
    played = self_play(["ismcts:30", "greedy"], 6, **kwargs)  # type: ignore[arg-type]
    simulated = simulate(["ismcts:30", "greedy"], 6, **kwargs)  # type: ignore[arg-type]
    assert played.checksum == simulated.checksum
    scores = [json.loads(r)["result"]["scores"] for r in played.records]
    assert scores == simulated.scores.tolist()


def test_rerun_skips_finished_shards(tmp_path: Path) -> None:
    settings = {"rules": Rules.indigo(2), "seed": 3, "shard_size": 4}
    first = run_selfplay(["ismcts:20", "greedy"], 10, tmp_path, **settings)  # type: ignore[arg-type]
    assert (first.shards_written, first.shards_skipped) == (3, 0)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    # A run cut short: shard 1's samples never landed, and a temporary file was left behind.
    (tmp_path / "samples-00001.parquet").unlink()
    (tmp_path / "samples-00001.parquet.partial").write_bytes(b"torn")
    again = run_selfplay(["ismcts:20", "greedy"], 10, tmp_path, **settings)  # type: ignore[arg-type]
    assert (again.shards_written, again.shards_skipped) == (1, 2)
    assert again.samples_written == pq.read_metadata(tmp_path / "samples-00001.parquet").num_rows
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    assert set(after) == set(before)
    for name, (data, mtime) in before.items():
        assert after[name][0] == data, f"{name} was rewritten differently"
        if "00001" not in name:
            assert after[name][1] == mtime, f"finished {name} was rewritten"
    done = run_selfplay(["ismcts:20", "greedy"], 10, tmp_path, **settings)  # type: ignore[arg-type]
    assert (done.shards_written, done.shards_skipped) == (0, 3)


def test_another_run_in_the_same_folder_is_refused(tmp_path: Path) -> None:
    run_selfplay(["greedy"], 2, tmp_path, seed=1, shard_size=2)
    with pytest.raises(SelfPlayError, match="differs in games, seed"):
        run_selfplay(["greedy"], 3, tmp_path, seed=2, shard_size=2)
    with pytest.raises(SelfPlayError, match=r"no manifest\.json"):
        next(load(tmp_path / "nothing"))
    with pytest.raises(SelfPlayError, match="shard_size must be at least 1"):
        run_selfplay(["greedy"], 3, tmp_path / "x", shard_size=0)


def test_selfplay_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    argv = ["selfplay", "--bots", "ismcts:20,random", "--games", "5", "--out", str(out)]
    assert main([*argv, "--shard-size", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary == {
        "games": 5,
        "shards_written": 3,
        "shards_skipped": 0,
        "samples_written": sum(len(b) for b in load(out)),
        "folder": str(out),
    }
    assert main([*argv, "--shard-size", "2"]) == 0
    assert "0 shards written (0 samples), 3 already finished" in capsys.readouterr().out
    assert main([*argv, "--shard-size", "3"]) == 2
    assert "differs in shard_size" in capsys.readouterr().err


def _cut(path: Path, keep: int | None = None) -> None:
    """Cut ``path`` short: to ``keep`` bytes, by default half."""
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 if keep is None else keep])


def test_damaged_shards_are_played_again_to_the_same_bytes(tmp_path: Path) -> None:
    settings = {"rules": Rules.indigo(2), "seed": 5, "shard_size": 3}
    bots = ["ismcts:20", "greedy"]
    first = run_selfplay(bots, 15, tmp_path, **settings)  # type: ignore[arg-type]
    assert first.shards_written == 5
    clean = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    samples = "samples-{:05d}.parquet".format
    records = "records-{:05d}.jsonl".format
    _cut(tmp_path / samples(1))  # a Parquet file without its footer
    _cut(tmp_path / records(2))  # records cut mid-line
    lines = (tmp_path / records(3)).read_bytes().splitlines(keepends=True)
    (tmp_path / records(3)).write_bytes(b"".join(lines[:-1]))  # cut at a line boundary
    (tmp_path / samples(4)).write_bytes((tmp_path / samples(0)).read_bytes())  # other rows
    with pytest.raises(SelfPlayError, match=r"samples-00001\.parquet is damaged"):
        sum(len(batch) for batch in load(tmp_path))
    with pytest.raises(SelfPlayError, match=r"records-00002\.jsonl is damaged"):
        list(read_records(tmp_path))

    again = run_selfplay(bots, 15, tmp_path, **settings)  # type: ignore[arg-type]
    assert (again.shards_written, again.shards_skipped) == (4, 1)
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    assert set(after) == set(clean)
    for name, (data, mtime) in clean.items():
        assert after[name][0] == data, f"{name} differs from the clean run"
        if "00000" in name or name == "manifest.json":
            assert after[name][1] == mtime, f"intact {name} was rewritten"
    assert sum(len(batch) for batch in load(tmp_path)) == sum(
        len(r["moves"]) for r in read_records(tmp_path)
    )


BOUNDED_RESUME = """
import re, resource, sys
from pathlib import Path
from indigo.selfplay import SelfPlayError, read_records, run_selfplay

out, megabytes, headroom = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
run_selfplay(["greedy"], 6, out / "warm", shard_size=2)  # threads and allocators made
list(read_records(out / "warm"))
status = Path("/proc/self/status").read_text()
size = int(re.search(r"VmSize:\\s+(\\d+) kB", status)[1]) * 1024
resource.setrlimit(resource.RLIMIT_AS, (size + headroom * 2**20, resource.RLIM_INFINITY))
try:
    list(read_records(out))
except SelfPlayError as exc:
    print(exc)
run = run_selfplay(["greedy"], 6, out, shard_size=2)
print(run.shards_written, run.shards_skipped)
"""


def test_resume_reads_records_as_a_bounded_stream(tmp_path: Path) -> None:
    """A records file of 24 MB without a newline, and one linked to ``/dev/zero``, under a
    memory limit of 12 MB more than the process holds: each is read no further than a line's
    bound (or not at all: not a regular file), reported by ``read_records``, and its shard is
    played again to the same bytes (it read them whole: a ``MemoryError``, or forever)."""
    out = tmp_path / "run"
    run_selfplay(["greedy"], 6, out, shard_size=2)
    clean = {p.name: p.read_bytes() for p in out.iterdir()}
    (out / "records-00000.jsonl").write_bytes(b"x" * 24 * 2**20)
    (out / "records-00001.jsonl").unlink()
    (out / "records-00001.jsonl").symlink_to("/dev/zero")
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(BOUNDED_RESUME), str(out), "24", "12"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    damaged, written = result.stdout.splitlines()
    assert damaged.endswith(
        "records-00000.jsonl is damaged (a line over 1,048,576 bytes): rerun the self-play "
        "to write it again"
    )
    assert written == "2 1"
    assert not (out / "records-00001.jsonl").is_symlink()
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == clean


def test_a_damaged_manifest_is_reported_by_the_loader(tmp_path: Path) -> None:
    run_selfplay(["greedy"], 2, tmp_path, shard_size=1)
    (tmp_path / "manifest.json").write_bytes(b"\x00\xff")
    with pytest.raises(SelfPlayError, match=r"manifest\.json is not a self-play manifest"):
        next(load(tmp_path))
    with pytest.raises(SelfPlayError, match=r"manifest\.json is not a self-play manifest"):
        run_selfplay(["greedy"], 2, tmp_path, shard_size=1)


def test_an_empty_folder_name_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``""`` would be the current folder: refused, and nothing written there."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SelfPlayError, match="output folder is empty"):
        run_selfplay(["greedy"], 2, "")
    assert list(tmp_path.iterdir()) == []
    assert main(["selfplay", "--bots", "greedy", "--games", "2", "--out", ""]) == 2
    assert list(tmp_path.iterdir()) == []
