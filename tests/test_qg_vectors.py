"""The Queen's Garden conformance vectors (``shared/vectors-qg``, copied into
``tests/vectors-qg``) through the Python API and through ``indigo replay``.

Each game is set up from its record, played move by move, and every snapshot compared with the
reference one on the fields QG_FORMATS.md defines (legal lists by content or digest); each bad
record must be rejected with a typed :class:`indigo.RecordError` naming the first offending
field or move, and nothing applied.
"""

from __future__ import annotations

import io
import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import indigo
from indigo import RecordError
from indigo import queens_garden as qg
from indigo.cli import main
from qg_support import GAME_NAMES, check_invariants, check_snapshot, load

BAD_CASES: list[dict[str, Any]] = load("bad-records.json")
BAD_IDS = [case["name"] for case in BAD_CASES]


def test_vector_files_present() -> None:
    assert len(GAME_NAMES) == 12
    assert len(BAD_CASES) >= 12


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_step_by_step(name: str) -> None:
    vector = load(name)
    record, snapshots = vector["record"], vector["snapshots"]
    assert len(snapshots) == len(record["moves"]) + 1
    game = qg.Game.from_record({**record, "moves": []})
    check_snapshot(game.snapshot(legal=True), snapshots[0], f"{name} set-up")
    for i, text in enumerate(record["moves"]):
        legal = [str(m) for m in game.legal_moves]
        move = qg.Move.parse(text)
        assert game.is_legal(text)
        # Passes are listed once, without discards (docs/spec/QUEENS_GARDEN.md 15.3).
        listed = "pass" if move.verb == "pass" else str(move)
        assert listed in legal, f"{name} move {i}: {text!r} is not listed"
        played = game.play(text).move
        assert played == move
        snap = game.snapshot(legal=True)
        check_snapshot(snap, snapshots[i + 1], f"{name} after move {i} {text!r}")
        assert snap["last_move"] == str(played)
        check_invariants(snap)
    assert game.over
    assert game.legal_moves == []


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_record_round_trip(name: str) -> None:
    """The whole record at once gives the last snapshot; the game's own record (canonical
    moves) replays to the same game, and its properties agree with its snapshot."""
    vector = load(name)
    record, last = vector["record"], vector["snapshots"][-1]
    for given in (record, json.dumps(record), json.dumps(record).encode()):
        game = qg.Game.from_record(given)
        check_snapshot(game.snapshot(legal=True), last, f"{name} from {type(given).__name__}")
    written = game.to_record()
    assert written["format"] == qg.RECORD_FORMAT
    assert written["bag"] == record["bag"]
    assert written["expansions"] == record["expansions"]
    assert written["moves"] == [str(qg.Move.parse(m)) for m in record["moves"]]
    assert qg.Game.from_record(written) == game
    assert json.loads(game.record_json()) == written
    assert game.seed is None
    # A record's seed is informational: copies replay the listed refills, never re-deal.
    assert pickle.loads(pickle.dumps(game)) == game
    assert game.rules == qg.Rules(record["rules"]["players"])
    snap = game.snapshot()
    assert (game.round, game.phase, game.moves_played) == (
        snap["round"],
        snap["phase"],
        snap["moves_played"],
    )
    assert game.to_move is None
    assert game.scores == snap["scores"]
    assert game.storages == snap["storage"]
    assert game.gardens == snap["gardens"]
    assert game.stack == snap["stack"]
    assert game.display == snap["display"]
    assert (game.bag_size, game.tower, game.supply_size) == (
        snap["bag"],
        snap["tower"],
        snap["supply"],
    )
    assert game.refills_used == snap["refills"]
    assert game.passed == snap["passed"]
    assert (game.start_player, game.first_passer) == (snap["start_player"], snap["first_passer"])
    assert game.round_points == snap["round_points"]
    assert game.final_scoring == snap["final"]
    assert game.over is True
    assert game.winners == snap["winners"]


@pytest.mark.parametrize("case", BAD_CASES, ids=BAD_IDS)
@pytest.mark.parametrize("form", ["dict", "str", "bytes"])
def test_bad_record_rejected(case: dict[str, Any], form: str) -> None:
    given: Any = case["record"]
    if form != "dict":
        given = json.dumps(given)
    if form == "bytes":
        given = given.encode()
    with pytest.raises(RecordError) as info:
        qg.Game.from_record(given)
    at = case["error_at"]
    assert info.value.at == at  # type: ignore[attr-defined]
    assert isinstance(info.value, indigo.IndigoError)
    assert isinstance(info.value, ValueError)
    if isinstance(at, int):
        assert f"moves[{at}]" in str(info.value)


@pytest.mark.parametrize("case", BAD_CASES, ids=BAD_IDS)
def test_bad_record_leaves_the_argument_alone(case: dict[str, Any]) -> None:
    record = case["record"]
    before = json.dumps(record, sort_keys=True)
    with pytest.raises(RecordError):
        qg.Game.from_record(record)
    assert json.dumps(record, sort_keys=True) == before


# ---------------------------------------------------------------------------------------------
# indigo replay


def _write(tmp_path: Path, value: Any) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", GAME_NAMES)
def test_replay_snapshots(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vector = load(name)
    path = _write(tmp_path, vector["record"])
    assert main(["replay", str(path), "--snapshots", "--legal"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == len(vector["snapshots"])
    for i, (line, expected) in enumerate(zip(lines, vector["snapshots"], strict=True)):
        got = json.loads(line)
        assert line == json.dumps(got, sort_keys=True, separators=(",", ":"))
        check_snapshot(got, expected, f"{name} line {i}")
    # Without --snapshots: the last position only; without --legal: no legal list.
    assert main(["replay", str(path)]) == 0
    final = capsys.readouterr().out.splitlines()
    assert len(final) == 1
    got = json.loads(final[0])
    assert "legal" not in got
    assert got["scores"] == vector["snapshots"][-1]["scores"]
    assert main(["replay", str(path), "--snapshots"]) == 0
    assert all("legal" not in json.loads(x) for x in capsys.readouterr().out.splitlines())


@pytest.mark.parametrize("case", BAD_CASES, ids=BAD_IDS)
def test_replay_bad_record(
    case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    at = case["error_at"]
    where = f"moves[{at}]" if isinstance(at, int) else at
    path = _write(tmp_path, case["record"])
    for extra in ([], ["--snapshots", "--legal"]):
        assert main(["replay", str(path), *extra]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        lines = err.splitlines()
        assert len(lines) == 1, err
        assert f"error: {where}: " in lines[0]
        if where == "format":  # the message names both formats replay reads
            assert "indigo-record/1" in lines[0]
            assert qg.RECORD_FORMAT in lines[0]


def test_replay_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    vector = load(GAME_NAMES[5])
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(vector["record"])))
    assert main(["replay", "-", "--snapshots"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(vector["snapshots"])
    assert json.loads(lines[-1])["scores"] == vector["snapshots"][-1]["scores"]


def test_python_m_indigo_replay(tmp_path: Path) -> None:
    """The installed command line end to end: exit statuses and streams."""
    vector = load(GAME_NAMES[0])
    env_path = str(Path(indigo.__file__).resolve().parent.parent)
    good = _write(tmp_path, vector["record"])
    result = subprocess.run(
        [sys.executable, "-m", "indigo", "replay", str(good), "--snapshots", "--legal"],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": env_path, "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == len(vector["snapshots"])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(BAD_CASES[-1]["record"]), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "indigo", "replay", str(bad)],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": env_path, "PATH": ""},
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert f"moves[{BAD_CASES[-1]['error_at']}]" in result.stderr
