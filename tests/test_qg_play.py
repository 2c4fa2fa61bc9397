"""Queen's Garden moves completed by questions (``indigo.queens_garden.choices``) and its
``TerminalPlay``."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from indigo import queens_garden as qg
from indigo.cli import main
from indigo.queens_garden import svg as qg_svg
from indigo.queens_garden.choices import candidates, move_choices, next_question, split_move
from indigo.queens_garden.play import TerminalPlay
from indigo.queens_garden.terminal import LEGEND
from indigo.table import parse_seats


def _played(seed: int, moves: int) -> qg.Game:
    game = qg.Game(qg.Rules(2), seed=seed)
    bot = qg.make_bot("random", seed=seed)
    while not game.over and game.moves_played < moves:
        game.play(bot.choose(game))
    return game


def _answer_all(moves: list[qg.Move], pick: random.Random) -> qg.Move:
    """Follow the questions to one move, picking answers at random."""
    question = next_question(moves)
    while question is not None:
        moves = list(pick.choice(question.options).moves)
        question = next_question(moves)
    assert len({str(m) for m in moves}) == 1
    return moves[0]


def test_the_spec_example_takes_need_their_slot() -> None:
    """QUEENS_GARDEN.md 16.1: after ``take bl``, the birds are at slots 0 and 1 for ye2."""
    game = qg.Game(qg.Rules(2), seed=7)
    legal = game.legal_moves
    takes = candidates(legal, "take")
    assert {m.verb for m in takes} == {"take"}
    question = next_question(takes)
    assert question is not None
    assert question.topic == "attribute"
    assert [o.label for o in question.options] == sorted(
        {split_move(m)[0][1] for m in takes}, key=qg.ATTRIBUTES.index
    )
    assert candidates(legal, "take y") == [qg.Move("take ye")]
    assert candidates(legal, "tile") == [m for m in legal if m.verb == "tile"]
    assert candidates(legal, "nonsense") == []


def test_questions_reach_every_legal_move_exactly() -> None:
    """From the whole list, every path of answers ends at one legal move, and every legal
    move is reached by some path (the options partition the moves)."""
    for seed, moves in [(1, 10), (2, 25), (3, 50), (5, 70)]:
        game = _played(seed, moves)
        legal = game.legal_moves
        reached: list[str] = []

        def walk(moves_left: list[qg.Move], out: list[str] = reached) -> None:
            question = next_question(moves_left)
            if question is None:
                out.append(str(moves_left[0]))
                return
            assert len(question.options) >= 2
            parts = [m for o in question.options for m in o.moves]
            assert sorted(map(str, parts)) == sorted(map(str, moves_left))
            for option in question.options:
                walk(list(option.moves))

        walk(legal)
        assert sorted(reached) == sorted(str(m) for m in legal)


def test_slot_and_payment_questions_appear() -> None:
    topics: set[str] = set()
    for seed in range(1, 12):
        game = qg.Game(qg.Rules(2), seed=seed)
        bot = qg.make_bot("random", seed=seed)
        while not game.over:
            legal = game.legal_moves
            for move in legal:
                head = " ".join(split_move(move)[0])
                question = next_question(candidates(legal, head))
                if question is not None:
                    topics.add(question.topic)
            game.play(bot.choose(game))
        if {"slot", "payment"} <= topics:
            break
    assert {"slot", "payment"} <= topics


def _leaves(tree: dict[str, Any]) -> list[str]:
    if "move" in tree:
        return [tree["move"]]
    assert len(tree["options"]) >= 2
    return [m for option in tree["options"] for m in _leaves(option)]


def test_move_choices_group_every_legal_move() -> None:
    for seed, moves in [(3, 50), (4, 20), (8, 80)]:
        game = _played(seed, moves)
        legal = [str(m) for m in game.legal_moves]
        grouped = move_choices(game.legal_moves)
        listed = [m for tree in grouped["take"].values() for m in _leaves(tree)]
        for action in ("tile", "exp"):
            for cells in grouped[action].values():
                listed += [m for tree in cells.values() for m in _leaves(tree)]
        listed += [f"buy {a}" for a in grouped["buy"]]
        listed += ["pass"] if grouped["pass"] else []
        assert sorted(listed) == sorted(legal)


class _Typist(io.StringIO):
    """Stdin that answers the terminal's prompts by looking at what it last wrote: numbered
    questions by a random option number, the move prompt by the script first, then by random
    starts of legal moves (a head, a prefix, or the whole move)."""

    def __init__(self, play: TerminalPlay, out: io.StringIO, script: list[str], seed: int) -> None:
        super().__init__()
        self.play = play
        self.out = out
        self.script = list(script)
        self.rng = random.Random(seed)
        self.lines = 0

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        assert self.lines < 5000, "the terminal keeps asking"
        prompt = self.out.getvalue().rsplit("\n", 1)[-1]
        if "(empty: cancel)" in prompt:
            count = int(prompt.split("1-")[1].split(" ")[0])
            return f"{self.rng.randint(1, count)}\n"
        if "[y/N]" in prompt:
            return "y\n"
        if self.script:
            return self.script.pop(0) + "\n"
        game = self.play.game
        if game.moves_played > 60:
            return "pass\n"
        move = self.rng.choice(game.legal_moves)
        head, _rest = split_move(move)
        style = self.rng.randrange(3)
        text = " ".join(head) if style == 0 else head[0] if style == 1 else str(move)
        return text + "\n"


def _session(
    tmp_path: Path, script: list[str], *, save: str | None = None
) -> tuple[TerminalPlay, io.StringIO]:
    out = io.StringIO()
    play = TerminalPlay(
        qg.Rules(2), ["human", "random"], seed=5, stdin=io.StringIO(), out=out, save=save
    )
    play.stdin = _Typist(play, out, script, seed=9)
    return play, out


def test_a_whole_game_with_prompts_undo_save_and_bad_input(tmp_path: Path) -> None:
    saved = tmp_path / "mid.json"
    script = [
        "help",
        "moves",
        "bogus words",
        "tile zz9 f9",
        "pass zz1",
        "undo",  # nothing to undo yet
        "take",  # asks for the attribute (and slots)
        "undo",
        "take",
        f"save {saved}",
        "",
        "board",
    ]
    play, out = _session(tmp_path, script)
    assert play.run() == 0
    text = out.getvalue()
    assert "take ATTR" in text  # help
    assert "error: no legal move is or starts with 'bogus words'" in text
    assert "error: no legal move is or starts with 'tile zz9 f9'" in text
    assert "error: no move of yours to undo" in text
    assert "Undone: back to move 0." in text
    assert "take which attribute" in text
    # Each numbered answer is in words, its notation beside it in brackets.
    options = re.findall(r"^    \d+\) (.*)$", text, re.M)
    assert options
    for line in options:
        words, _, notation = line.rpartition(" [")
        assert notation.endswith("]"), line
        assert words, line
        assert not re.fullmatch(r"[a-z]{2}\d?|\d|\*|f\d|a\d", words), line
    assert any(re.search(r"\) (blue|yellow|light|dark) .*\[", line) for line in text.splitlines())
    assert "Final scoring" in text
    assert play.game.over
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert qg.Game.from_record(record).moves_played >= 2
    # The game on screen is the engine's: replaying the moves gives the same final position.
    replay = qg.Game(qg.Rules(2), seed=5)
    for move in play.game.moves:
        replay.play(move)
    assert replay == play.game


def test_quitting_asks_when_moves_are_unsaved(tmp_path: Path) -> None:
    out = io.StringIO()
    stdin = io.StringIO("take\n1\n1\n1\nquit\nn\nquit\ny\n")
    play = TerminalPlay(qg.Rules(2), ["human", "random"], seed=5, stdin=stdin, out=out)
    assert play.run() == 0
    text = out.getvalue()
    assert "unsaved moves" in text
    assert "Not quitting: play on." in text
    assert "Stopped after" in text


def test_quitting_with_save_writes_the_record(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    out = io.StringIO()
    stdin = io.StringIO("take\n1\n1\n1\nquit\n")
    play = TerminalPlay(
        qg.Rules(2), ["human", "random"], seed=5, stdin=stdin, out=out, save=str(target)
    )
    assert play.run() == 0
    assert "[y/N]" not in out.getvalue()
    assert qg.Game.from_record(target.read_text(encoding="utf-8")).moves == play.game.moves


def test_a_pass_with_discards_and_end_of_input() -> None:
    out = io.StringIO()
    stdin = io.StringIO("take ye\ntake bl\npass ye9\npass dp6\npass ye5 ye2\n")
    play = TerminalPlay(qg.Rules(2), ["human", "human"], seed=7, stdin=stdin, out=out)
    assert play.run() == 0
    assert [str(m) for m in play.game.moves] == ["take ye", "take bl", "pass ye2 ye5"]
    assert 'error: "pass ye9" is not a move' in out.getvalue()
    assert "error: pass dp6 is not legal" in out.getvalue()
    assert "Stopped after 3 moves." in out.getvalue()


def test_moves_lists_the_legal_moves_that_start_so() -> None:
    out = io.StringIO()
    stdin = io.StringIO("moves take d\nmoves zz\n")
    play = TerminalPlay(qg.Rules(2), ["human", "human"], seed=7, stdin=stdin, out=out)
    play.run()
    text = out.getvalue()
    expected = [str(m) for m in play.game.legal_moves if str(m).startswith("take d")]
    assert f"  {', '.join(expected)}\n" in text
    assert "moves zz\n  none\n" in text


def test_bots_by_spec() -> None:
    seats = parse_seats("human,random,greedy,ismcts:50", game="queens-garden")
    assert seats == ["human", "random", "greedy", "ismcts:50"]
    with pytest.raises(ValueError, match="nobot"):
        parse_seats("human,nobot", game="queens-garden")
    game = qg.Game(qg.Rules(2), seed=1)
    for spec in ("random", "greedy", "ismcts:20"):
        assert game.is_legal(qg.make_bot(spec, seed=1).choose(game))
    with pytest.raises(ValueError, match="seats for"):
        TerminalPlay(
            qg.Rules(3), ["human", "random"], seed=1, stdin=io.StringIO(), out=io.StringIO()
        )


def test_cli_play_queens_garden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("take\n1\n1\n1\nmoves\nquit\n"))
    argv = ["play", "--game", "queens-garden", "--seed", "5", "--save", str(target)]
    assert main([*argv, "--no-colour"]) == 0
    out = capsys.readouterr().out
    assert "Queen's Garden: P0 human, P1 greedy; seed 5" in out
    assert LEGEND in out  # the glyphs and free-space names explained once, at the start
    assert "take which attribute" in out
    game = qg.Game.from_record(target.read_text(encoding="utf-8"))
    assert game.moves_played >= 1
    assert game.moves[0].verb == "take"


def test_cli_play_queens_garden_bad_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "queens-garden", "--players", "human,chess"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("indigo: error: ")
    assert "chess" in err[0]


def test_cli_render_a_queens_garden_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _played(6, 40)
    path = tmp_path / "record.json"
    path.write_text(game.record_json(), encoding="utf-8")
    assert main(["render", str(path)]) == 0
    assert capsys.readouterr().out == qg_svg.game_svg(qg.Game.from_record(game.to_record()))
    assert main(["render", str(path), "--move", "10", "-o", str(tmp_path / "ten.svg")]) == 0
    ten = (tmp_path / "ten.svg").read_text(encoding="utf-8")
    assert 'data-moves="10"' in ten
    assert main(["render", str(path), "-o", str(tmp_path / "end.png")]) == 0
    assert (tmp_path / "end.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert main(["render", str(path), "--move", "41"]) == 2
    assert "--move: move must be from 0 to 40" in capsys.readouterr().err
    bad = {**game.to_record(), "moves": ["take zz"]}
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert main(["render", str(path)]) == 2
    assert capsys.readouterr().err.startswith("indigo: error: ")
