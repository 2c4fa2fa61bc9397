"""The SVG picture (``indigo.render.svg``) and ``indigo render``."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import indigo
from indigo import Game, Rules
from indigo.cli import main
from indigo.render.svg import (
    cell_centre,
    edge_point,
    game_svg,
    gem_path_d,
    gem_point,
    route_d,
    tile_markup,
)

NS = "{http://www.w3.org/2000/svg}"
D = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]


def _played(rules: Rules, seed: int, moves: int | None) -> Game:
    """A game after ``moves`` greedy moves (``None``: to the end)."""
    game = Game(rules, seed=seed)
    bot = indigo.make_bot("greedy", seed=seed)
    while not game.over and (moves is None or len(game.moves) < moves):
        game.play(bot.choose(game))
    return game


def _classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def _all(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if cls in _classes(e)]


POSITIONS = [
    (Rules.indigo(2), 1, 0),
    (Rules.indigo(2), 1, 12),
    (Rules.tactical(3), 2, 25),
    (Rules(3, three_player_gates="exclusive"), 3, 7),
    (Rules.indigo(4), 4, None),
    (Rules.butterfly_garden(2), 5, 30),
    (Rules.butterfly_garden(3), 6, None),
    (Rules.butterfly_garden(4), 7, 18),
]


@pytest.mark.parametrize(
    ("rules", "seed", "moves"),
    POSITIONS,
    ids=[f"{r.theme}-{r.players}p-{m}" for r, _, m in POSITIONS],
)
def test_svg_draws_the_position(rules: Rules, seed: int, moves: int | None) -> None:
    game = _played(rules, seed, moves)
    svg = game_svg(game)
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag == NS + "svg"
    assert root.get("data-theme") == rules.theme
    assert root.get("data-moves") == str(len(game.moves))

    tiles = _all(root, "g", "tile")
    assert len(tiles) == len(game.board)
    drawn = {
        (int(t.get("data-q", "")), int(t.get("data-r", ""))): (
            int(t.get("data-tile", "")),
            int(t.get("data-rotation", "")),
        )
        for t in tiles
    }
    assert drawn == game.board
    for t in tiles:
        assert len(_all(t, "path", "route")) == 3
    assert len(_all(root, "polygon", "cell")) == len(indigo.ROUTE_CELLS)
    assert len(_all(root, "g", "corner")) == 6
    assert len(_all(root, "g", "centre")) == 1

    resting = _all(root, "circle", "resting")
    waiting = _all(root, "circle", "waiting")
    assert len(_all(root, "circle", "gem")) == len(game.gems) + len(game.centre)
    assert sorted(
        (
            g.get("data-gem"),
            int(g.get("data-q", "")),
            int(g.get("data-r", "")),
            int(g.get("data-edge", "")),
        )
        for g in resting
    ) == sorted(game.gems)
    assert [g.get("data-gem") for g in waiting] == game.centre
    for gem in (*resting, *waiting):
        name = gem.get("data-gem")
        assert gem.get("fill") == rules.gem_colour(name)  # type: ignore[arg-type]
        assert gem.findtext(NS + "title") == rules.gem_name(name)  # type: ignore[arg-type]

    gates = _all(root, "g", "gate")
    assert len(gates) == 6
    for gate in gates:
        k = int(gate.get("data-gate", ""))
        owners = rules.gate_owners(k)
        assert [int(s) for s in gate.get("data-owners", "").split()] == owners
        exits = _all(gate, "line", "exit")
        assert len(exits) == 6
        assert {(int(e.get("data-q", "")), int(e.get("data-r", ""))) for e in exits} == set(
            indigo.GATE_CELLS[k]
        )
        assert {e.get("stroke") for e in exits} == {rules.seat_colour(s) for s in owners}
    assert len(_all(root, "line", "exit")) == 36

    last = _all(root, "polygon", "last-move")
    if game.moves:
        assert [(int(p.get("data-q", "")), int(p.get("data-r", ""))) for p in last] == [
            game.moves[-1].cell
        ]
        result = game.last_result
        assert result is not None
        assert len(_all(root, "path", "trail")) == sum(1 for p in result.paths if p.steps)
    else:
        assert last == []

    scores = _all(root, "g", "score")
    assert [int(s.get("data-score", "")) for s in scores] == game.scores
    assert [int(s.get("data-seat", "")) for s in scores if s.get("data-winner")] == game.winners
    assert bool(game.winners) == game.over


def test_svg_after_move_n_is_that_position() -> None:
    game = _played(Rules.tactical(2), 9, 20)
    earlier = Game(game.rules, pile=game.pile)
    for move in game.moves[:8]:
        earlier.play(move)
    assert game_svg(game, move=8) == game_svg(earlier)
    assert game_svg(game, move=20) == game_svg(game)
    assert len(game.moves) == 20  # drawing an earlier position leaves the game alone
    for bad in (-1, 21):
        with pytest.raises(indigo.IndigoError, match=r"move must be 0\.\.20"):
            game_svg(game, move=bad)


def test_repr_svg_is_game_svg() -> None:
    game = _played(Rules.butterfly_garden(2), 3, 5)
    assert game._repr_svg_() == game_svg(game)


def test_edges_meet_their_neighbours() -> None:
    """Edge e of a cell is drawn where edge e+3 of its neighbour is (docs/spec/RULES.md
    section 2)."""
    for q, r in indigo.CELLS:
        for e, (dq, dr) in enumerate(D):
            a = edge_point(q, r, e)
            b = edge_point(q + dq, r + dr, (e + 3) % 6)
            assert math.dist(a, b) < 1e-9
    # Edge 0 is north (up), edge 2 south-east: y grows downwards.
    x, y = cell_centre(0, 0)
    assert edge_point(0, 0, 0)[1] < y
    assert edge_point(0, 0, 2)[0] > x
    assert edge_point(0, 0, 2)[1] > y


def _numbers(d: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]


@pytest.mark.parametrize("pair", [(0, 1), (0, 2), (0, 3), (5, 1), (4, 0), (3, 2)])
def test_route_joins_edge_midpoints(pair: tuple[int, int]) -> None:
    a, b = pair
    numbers = _numbers(route_d(1, -2, a, b))
    assert math.dist(numbers[:2], edge_point(1, -2, a)) < 0.01
    assert math.dist(numbers[-2:], edge_point(1, -2, b)) < 0.01


def test_gem_paths_run_from_start_to_rest() -> None:
    # docs/spec/RULES.md 10: 4@0 at (0,-3) carries the north amber to ((0,-3), 5).
    pile = [t for t in range(5) for _ in range(indigo.TILE_COUNTS[t])]
    pile.remove(4)
    pile.remove(1)
    game = Game(Rules.indigo(4), pile=[4, 1, *pile])
    path = game.play("4@0:0,-3").paths[0]
    d = _numbers(gem_path_d(path))
    assert math.dist(d[:2], gem_point(0, -4, 3)) < 0.01
    assert math.dist(d[-2:], gem_point(0, -3, 5)) < 0.01
    # Then it leaves through gate 5: the trail ends outside the board.
    out = game.play("1@0:-1,-3").paths[0]
    assert out.outcome == "collected"
    end = _numbers(gem_path_d(out))[-2:]
    assert math.dist(end, cell_centre(0, 0)) > math.dist(edge_point(-1, -3, 5), cell_centre(0, 0))


def test_tile_markup_rotates_the_paths() -> None:
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{tile_markup(3, 2)}</svg>')
    edges = sorted(
        tuple(sorted(int(x) for x in p.get("data-edges", "").split()))
        for p in _all(root, "path", "route")
    )
    assert edges == indigo.Move(3, 2, 0, -3).paths()


# ---------------------------------------------------------------------------------------------
# indigo render


def _record(tmp_path: Path, moves: int = 9) -> Path:
    game = _played(Rules.butterfly_garden(3), 8, moves)
    path = tmp_path / "record.json"
    path.write_text(game.record_json(), encoding="utf-8")
    return path


def _one_line_error(rc: int, err: str, where: str) -> None:
    assert rc == 2
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("indigo: error: ")
    assert where in lines[0]


def test_render_svg_file(tmp_path: Path, capsys: Any) -> None:
    record = _record(tmp_path)
    out = tmp_path / "board.svg"
    assert main(["render", str(record), "-o", str(out)]) == 0
    root = ET.parse(out).getroot()
    assert root.get("data-moves") == "9"
    assert root.get("data-theme") == "butterfly-garden"
    assert len(_all(root, "g", "tile")) == 9
    assert main(["render", str(record), "--move", "4", "-o", str(out)]) == 0
    assert len(_all(ET.parse(out).getroot(), "g", "tile")) == 4
    assert capsys.readouterr().err == ""


def test_render_to_stdout(tmp_path: Path, capsys: Any) -> None:
    assert main(["render", str(_record(tmp_path)), "--move", "0"]) == 0
    root = ET.fromstring(capsys.readouterr().out)
    assert root.get("data-moves") == "0"


def test_render_png(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    assert main(["render", str(_record(tmp_path)), "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 500
    assert height > 500


def test_render_bad_move(tmp_path: Path, capsys: Any) -> None:
    record = str(_record(tmp_path))
    rc = main(["render", record, "--move", "10"])
    out, err = capsys.readouterr()
    assert out == ""
    _one_line_error(rc, err, "--move: move must be 0..9, not 10")
    assert main(["render", record, "--move", "-1"]) == 2  # an argparse usage error
    assert "must be >= 0" in capsys.readouterr().err


def test_render_bad_record(tmp_path: Path, capsys: Any) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "indigo-record/1", "rules": {"players": 9}}))
    rc = main(["render", str(bad), "-o", str(tmp_path / "x.svg")])
    _one_line_error(rc, capsys.readouterr().err, "rules.players")
    assert not (tmp_path / "x.svg").exists()
    rc = main(["render", str(tmp_path / "missing.json")])
    _one_line_error(rc, capsys.readouterr().err, "missing.json")
    # A folder that does not exist: an argument error, before the record is read.
    rc = main(["render", str(tmp_path / "missing.json"), "-o", str(tmp_path / "no" / "dir.svg")])
    assert rc == 2
    assert capsys.readouterr().err.startswith(
        f"indigo render: error: argument -o/--output: cannot write {tmp_path / 'no' / 'dir.svg'}"
    )


@pytest.mark.parametrize("name", ["x.jpg", "board", "board.svg.txt"])
def test_render_refuses_an_extension_it_cannot_write(
    tmp_path: Path, capsys: Any, name: str
) -> None:
    out = tmp_path / name
    rc = main(["render", str(_record(tmp_path)), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 2
    assert len(err.splitlines()) == 1
    assert "the extension must be .svg or .png" in err
    assert not out.exists()
