"""The ``indigo`` command line (``replay``, ``demo``) and the terminal board picture."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import indigo
from indigo import Game, GreedyBot, RandomBot, Rules, make_bot
from indigo.cli import main
from indigo.cli.demo import DEMO_BOT
from indigo.render import board_text, legend_text, status_text
from indigo.render.terminal import GEM_GLYPHS

ROOT = Path(__file__).resolve().parent.parent
_VECTOR_DIRS = [
    ROOT / "tests" / "vectors",
    ROOT.parent / "shared" / "vectors",
    Path("/work/shared/vectors"),
]
VECTORS = next((d for d in _VECTOR_DIRS if (d / "bad-records.json").is_file()), None)
GAME_FILES = sorted(VECTORS.glob("game-*.json")) if VECTORS else []
BAD_RECORDS: list[dict[str, Any]] = (
    json.loads((VECTORS / "bad-records.json").read_text(encoding="utf-8")) if VECTORS else []
)
needs_vectors = pytest.mark.skipif(VECTORS is None, reason="conformance vectors not found")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _env() -> dict[str, str]:
    """The environment for ``python -m indigo``, able to import this package."""
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    src = str(Path(indigo.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


def _write_json(tmp_path: Path, name: str, value: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def _restricted(got: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    assert set(expected) <= set(got), f"missing keys {set(expected) - set(got)}"
    return {key: got[key] for key in expected}


def _check_error(rc: int, out: str, err: str, where: str) -> None:
    assert rc == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("indigo: error: ")
    assert where in lines[0]


# ---------------------------------------------------------------------------------------------
# replay


@needs_vectors
@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_replay_snapshots_match_vectors(path: Path, tmp_path: Path, capsys) -> None:
    vector = json.loads(path.read_text(encoding="utf-8"))
    record = _write_json(tmp_path, "record.json", vector["record"])
    rc = main(["replay", str(record), "--snapshots", "--legal"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert err == ""
    lines = out.splitlines()
    expected = vector["snapshots"]
    assert len(lines) == len(expected)
    for i, (line, want) in enumerate(zip(lines, expected, strict=True)):
        got = json.loads(line)
        assert list(got) == sorted(got), "keys are not sorted"
        assert _restricted(got, want) == want, f"snapshot {i}"


@needs_vectors
@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_replay_prints_final_snapshot(path: Path, tmp_path: Path, capsys) -> None:
    vector = json.loads(path.read_text(encoding="utf-8"))
    record = _write_json(tmp_path, "record.json", vector["record"])
    final = vector["snapshots"][-1]

    assert main(["replay", str(record), "--legal"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    assert _restricted(json.loads(lines[0]), final) == final

    assert main(["replay", str(record)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    got = json.loads(lines[0])
    assert "legal" not in got
    without_legal = {k: v for k, v in final.items() if k != "legal"}
    assert _restricted(got, without_legal) == without_legal


@needs_vectors
def test_replay_reads_stdin(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    vector = json.loads(GAME_FILES[0].read_text(encoding="utf-8"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(vector["record"])))
    assert main(["replay", "-", "--snapshots"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(vector["snapshots"])
    assert json.loads(lines[-1])["scores"] == vector["snapshots"][-1]["scores"]


@needs_vectors
@pytest.mark.parametrize("case", BAD_RECORDS, ids=lambda c: str(c["name"]))
def test_replay_rejects_bad_record(case: dict[str, Any], tmp_path: Path, capsys) -> None:
    at = case["error_at"]
    where = f"moves[{at}]" if isinstance(at, int) else at
    record = _write_json(tmp_path, "bad.json", case["record"])
    for extra in ([], ["--snapshots", "--legal"]):
        rc = main(["replay", str(record), *extra])
        out, err = capsys.readouterr()
        _check_error(rc, out, err, where)


def test_replay_missing_file(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "no-such-record.json"
    rc = main(["replay", str(missing)])
    out, err = capsys.readouterr()
    _check_error(rc, out, err, str(missing))


@pytest.mark.parametrize(
    "text",
    # 5000 digits: json.loads raises a plain ValueError, not a JSONDecodeError.
    ["{", '{"format": "indigo-record/1",}', "", "\x00", '{"format": ' + "1" * 5000 + "}"],
)
def test_replay_invalid_json(text: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    rc = main(["replay", str(path)])
    out, err = capsys.readouterr()
    _check_error(rc, out, err, "invalid JSON")


@pytest.mark.parametrize("value", [[], 3, "indigo-record/1", None])
def test_replay_not_an_object(value: Any, tmp_path: Path, capsys) -> None:
    rc = main(["replay", str(_write_json(tmp_path, "r.json", value))])
    out, err = capsys.readouterr()
    _check_error(rc, out, err, "format")


def test_replay_not_utf8(tmp_path: Path, capsys) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"format": "\xe9"}')
    rc = main(["replay", str(path)])
    out, err = capsys.readouterr()
    _check_error(rc, out, err, "UTF-8")


# ---------------------------------------------------------------------------------------------
# arguments


def test_no_command_prints_help(capsys) -> None:
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert "usage: indigo" in out + err
    assert "replay" in out + err
    assert "demo" in out + err


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate"],
        ["replay"],
        ["demo", "--players", "5"],
        ["demo", "--seed", "-1"],
        ["demo", "--seed", "x"],
        ["demo", "--theme", "chess"],
        ["demo", "--hand-size", "3"],
        ["demo", "--delay", "-1"],
        ["demo", "--delay", "nan"],
        ["demo", "--bot", "smart"],
    ],
)
def test_bad_arguments_exit_2(argv: list[str], capsys) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith("indigo")
    assert ": error: " in err
    assert err.rstrip().endswith("--help)"), "points to the command's help"


def test_help_and_version_exit_0(capsys) -> None:
    assert main(["--help"]) == 0
    assert "replay" in capsys.readouterr().out
    assert main(["demo", "--help"]) == 0
    assert "--players" in capsys.readouterr().out
    assert main(["--version"]) == 0
    assert indigo.__version__ in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# demo


def _api_game(theme: str, players: int, seed: int, bot: str = DEMO_BOT) -> Game:
    """The game ``indigo demo`` plays, rebuilt through the API as its help describes."""
    rules = (
        Rules.butterfly_garden(players) if theme == "butterfly-garden" else Rules.indigo(players)
    )
    game = Game(rules, seed=seed)
    bots = [make_bot(bot, seed=seed + seat) for seat in range(players)]
    while not game.over:
        seat = game.to_move
        assert seat is not None
        game.play(bots[seat].choose(game))
    return game


def _final_block(out: str) -> tuple[dict[int, int], list[int], str]:
    """Scores and winners from the demo's closing lines, and the closing text."""
    tail = out[out.rindex("Final scores:") :]
    scores = {int(s): int(p) for s, p in re.findall(r"^\s*P(\d+): (\d+) points?,", tail, re.M)}
    match = re.search(r"^Winners?: (.*)$", tail, re.M)
    assert match, tail
    winners = [int(s) for s in re.findall(r"P(\d+)", match.group(1))]
    return scores, winners, tail


@pytest.mark.parametrize("theme", ["indigo", "butterfly-garden"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_demo_matches_api(theme: str, players: int, capsys) -> None:
    seed = 11 + players
    argv = ["demo", "--seed", str(seed), "--players", str(players), "--theme", theme]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "\x1b" not in out  # captured stdout is not a terminal
    game = _api_game(theme, players, seed)
    scores, winners, tail = _final_block(out)
    assert scores == dict(enumerate(game.scores))
    assert winners == game.winners
    assert f"after {len(game.moves)} moves" in out
    for seat, got in enumerate(game.collected):
        for gem, n in got.items():
            assert f"{game.rules.gem_name(gem)} {n}" in tail.splitlines()[seat + 1]
    if theme == "butterfly-garden":
        assert "hands of 2" in out
        assert "blue butterfly" in tail
        assert "flowerbed" in out
    else:
        assert "hands of 1" in out
        assert "amber" in tail
    # Every move is narrated in notation.
    for number, move in enumerate(game.moves, start=1):
        notation = f"{move.tile}@{move.rotation}:{move.q},{move.r}"
        assert f"Move {number}: P" in out
        assert notation in out


def test_demo_options(capsys) -> None:
    argv = ["demo", "--seed", "3", "--bot", "random", "--hand-size", "2", "--board-every", "0"]
    assert main([*argv, "--players", "3", "--gates", "exclusive"]) == 0
    out = capsys.readouterr().out
    assert "hands of 2, exclusive gates, random bots, seed 3" in out
    rules = Rules(3, 2, three_player_gates="exclusive")
    game = Game(rules, seed=3)
    bots = [RandomBot(3 + seat) for seat in range(3)]
    while not game.over:
        seat = game.to_move
        assert seat is not None
        game.play(bots[seat].choose(game))
    scores, winners, _ = _final_block(out)
    assert scores == dict(enumerate(game.scores))
    assert winners == game.winners
    # Boards only at the start and the end.
    assert out.count("/corner \\") == 2 * 6


class _FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_demo_colour_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    for extra, coloured in (([], True), (["--no-colour"], False), (["--no-color"], False)):
        fake = _FakeTerminal()
        monkeypatch.setattr(sys, "stdout", fake)
        assert main(["demo", "--seed", "2", "--fast", *extra]) == 0
        assert ("\x1b[" in fake.getvalue()) is coloured
    monkeypatch.setenv("NO_COLOR", "1")
    fake = _FakeTerminal()
    monkeypatch.setattr(sys, "stdout", fake)
    assert main(["demo", "--seed", "2", "--fast"]) == 0
    assert "\x1b" not in fake.getvalue()


# ---------------------------------------------------------------------------------------------
# through the interpreter


@needs_vectors
def test_python_m_indigo(tmp_path: Path) -> None:
    vector = json.loads(GAME_FILES[-1].read_text(encoding="utf-8"))
    record = _write_json(tmp_path, "record.json", vector["record"])
    run = subprocess.run(
        [sys.executable, "-m", "indigo", "replay", str(record), "--snapshots", "--legal"],
        capture_output=True,
        text=True,
        env=_env(),
        check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(vector["snapshots"])
    for line, want in zip(lines, vector["snapshots"], strict=True):
        assert _restricted(json.loads(line), want) == want

    case = BAD_RECORDS[0]
    at = case["error_at"]
    bad = _write_json(tmp_path, "bad.json", case["record"])
    run = subprocess.run(
        [sys.executable, "-m", "indigo", "replay", str(bad)],
        capture_output=True,
        text=True,
        env=_env(),
        check=False,
    )
    _check_error(
        run.returncode, run.stdout, run.stderr, f"moves[{at}]" if isinstance(at, int) else at
    )


def test_python_m_indigo_demo_and_usage() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "indigo", "demo", "--seed", "4", "--players", "3"],
        capture_output=True,
        text=True,
        env=_env(),
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "\x1b" not in run.stdout
    scores, winners, _ = _final_block(run.stdout)
    game = _api_game("indigo", 3, 4)
    assert scores == dict(enumerate(game.scores))
    assert winners == game.winners

    run = subprocess.run(
        [sys.executable, "-m", "indigo"], capture_output=True, text=True, env=_env(), check=False
    )
    assert run.returncode == 2
    assert "usage: indigo" in run.stderr
    assert "Traceback" not in run.stderr


# ---------------------------------------------------------------------------------------------
# the board picture


def _positions(rules: Rules, seed: int) -> list[Game]:
    """Every position of a random game, as clones."""
    game = Game(rules, seed=seed)
    bot = RandomBot(seed)
    out = [game.clone()]
    while not game.over:
        game.play(bot.choose(game))
        out.append(game.clone())
    return out


def _glyph_counts(text: str) -> dict[str, int]:
    return {gem: text.count(glyph) for gem, glyph in GEM_GLYPHS.items()}


@pytest.mark.parametrize(
    "rules",
    [Rules.indigo(2), Rules.butterfly_garden(3), Rules(3, 1, three_player_gates="exclusive")],
    ids=["indigo-2", "garden-3", "exclusive-3"],
)
def test_board_text_shows_every_resting_gem(rules: Rules) -> None:
    for game in _positions(rules, seed=21):
        want = dict.fromkeys(GEM_GLYPHS, 0)
        for gem, _, _, _ in game.gems:
            want[gem] += 1
        plain = board_text(game, colour=False)
        assert "\x1b" not in plain
        assert _glyph_counts(plain) == want
        coloured = board_text(game)
        assert ANSI.sub("", coloured) == plain
        assert _glyph_counts(ANSI.sub("", coloured)) == want


def test_board_text_layout() -> None:
    game = Game(Rules.indigo(4), seed=5)
    plain = board_text(game, colour=False)
    lines = plain.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert len(lines) <= 40
    assert plain.count("corner") == 6
    assert "centre" in plain
    assert "eeeees" in plain
    for gate in range(6):
        owners = "+".join(f"P{s}" for s in game.rules.gate_owners(gate))
        assert f"{gate}:{owners}" in plain
    # Empty cells show their coordinates; nothing is highlighted before the first move.
    assert "-2,3" in plain
    assert "[" not in plain

    move = game.legal_moves[0]
    game.play(move)
    plain = board_text(game, colour=False)
    assert f"[{move.tile}@{move.canonical().rotation}]" in plain
    assert plain.count("[") == 1
    game.play(game.legal_moves[0])
    assert board_text(game, colour=False).count("[") == 1
    # An explicit highlight replaces the default; the centre has no tile to mark.
    assert "[" not in board_text(game, colour=False, highlight=(0, 0))


def test_board_text_colours_come_from_the_theme() -> None:
    game = Game(Rules.butterfly_garden(2), seed=8)
    coloured = board_text(game)
    red, green, blue = (int(game.rules.gem_colour("amber")[i : i + 2], 16) for i in (1, 3, 5))
    assert f"38;2;{red};{green};{blue}" in coloured
    red, green, blue = (int(game.rules.seat_colour(0)[i : i + 2], 16) for i in (1, 3, 5))
    assert f"48;2;{red};{green};{blue}" in coloured


def test_status_and_legend() -> None:
    game = Game(Rules.butterfly_garden(3), seed=9)
    bot = GreedyBot(1)
    for _ in range(10):
        game.play(bot.choose(game))
    status = status_text(game, colour=False)
    assert "\x1b" not in status
    lines = status.splitlines()
    for seat in range(3):
        assert lines[seat].lstrip().startswith(f"P{seat}")
        assert re.search(rf"score +{game.scores[seat]}\b", lines[seat])
        assert ("to move" in lines[seat]) == (game.to_move == seat)
    assert f"pile {game.pile_left} left" in status
    # Gems are counted by the theme's names ("blue 0, pink 1, ..."), not Indigo's letters.
    for gem, glyph in GEM_GLYPHS.items():
        word = game.rules.gem_name(gem).split()[0]
        assert re.search(rf"\b{word} {game.collected[0][gem]}\b", lines[0])
        assert f"{glyph}:" not in status
    legend = legend_text(game.rules, colour=False)
    for gem in ("amber", "emerald", "sapphire"):
        assert game.rules.gem_name(gem) in legend
    assert "flowerbed" in legend
    for text in (status, legend, legend_text(Rules.indigo(4), colour=False)):
        assert max(len(line) for line in text.splitlines()) <= 80


def test_demo_paces_itself_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import indigo.cli.demo
    import indigo.play

    slept: list[float] = []
    monkeypatch.setattr(indigo.play.time, "sleep", slept.append)  # the demo's pause
    monkeypatch.setenv("NO_COLOR", "1")
    for stdout, extra, pause in (
        (_FakeTerminal(), [], indigo.cli.demo.DEMO_PACE),
        (_FakeTerminal(), ["--fast"], None),
        (_FakeTerminal(), ["--delay", "0.25"], 0.25),
        (io.StringIO(), [], None),  # piped: full speed
        (io.StringIO(), ["--delay", "0.5"], 0.5),
    ):
        slept.clear()
        monkeypatch.setattr(sys, "stdout", stdout)
        assert main(["demo", "--seed", "4", *extra]) == 0
        moves = stdout.getvalue().count("\nMove ")
        assert moves > 20
        assert slept == ([] if pause is None else [pause] * moves), extra
    # The boards draw the tiles' paths, or with --codes their T@R codes.
    cell_code = re.compile(r" \[?\d@\d\]? ")
    for extra, coded in (([], False), (["--codes"], True)):
        stdout = io.StringIO()
        monkeypatch.setattr(sys, "stdout", stdout)
        assert main(["demo", "--seed", "4", *extra]) == 0
        assert bool(cell_code.search(stdout.getvalue())) is coded
        assert (max(stdout.getvalue()) > "\u2800") is not coded  # braille
