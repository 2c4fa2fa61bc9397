"""``indigo bench`` and the pieces it times: the playout bot, PCG deals, native playouts.

Speed is never asserted here (that belongs to the benchmark itself); these tests check that the
benchmark measures the work it names and that its checksum pins the games.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import indigo
from indigo import _native, reference
from indigo.bench import GARDEN_WORKLOADS, SEED, TARGETS, report, run
from indigo.cli import main

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

# The keys issue 4 asks `indigo bench --json` for.
REQUIRED = {
    "native_placements_per_s",
    "batch_placements_per_s",
    "python_loop_placements_per_s",
    "play_call_ns",
    "legal_moves_call_ns",
    "clone_call_ns",
    "reference_placements_per_s",
    "ismcts_sims_per_s",
    "threads_speedup_2",
    "checksum",
    # Queen's Garden, issue 31.
    "queens_garden_policy_games_per_s_2p",
    "queens_garden_policy_games_per_s_4p",
    "queens_garden_random_moves_per_s",
    "queens_garden_crowded_lists_per_s",
    "queens_garden_ismcts_sims_per_s",
    "queens_garden_ismcts_midgame_sims_per_s",
}


@pytest.fixture(scope="module")
def quick() -> dict[str, object]:
    return run(quick=True, repeat=1)


def test_cli_prints_one_json_object_with_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures.keys() >= REQUIRED
    assert set(GARDEN_WORKLOADS) <= REQUIRED
    for name in REQUIRED - {"checksum"}:
        assert isinstance(figures[name], float)
        assert figures[name] > 0, name
    assert len(figures["checksum"]) == 16
    int(figures["checksum"], 16)
    assert set(figures["targets"]) == set(TARGETS)
    assert all(isinstance(t["met"], bool) for t in figures["targets"].values())
    assert figures["workload"]["quick"] is True


def test_checksum_is_the_same_on_every_run(quick: dict[str, object]) -> None:
    again = run(quick=True, repeat=1)
    assert again["checksum"] == quick["checksum"]
    assert again["native_checksum"] == quick["native_checksum"]
    # The batch API and the native loop played the same games.
    assert quick["batch_checksum"] == quick["native_checksum"]


def test_garden_checksums_are_pinned(quick: dict[str, object]) -> None:
    # The quick run's games, lists and searches; the crate pins the same workloads at other
    # counts (queens_garden::bench's tests). They change only with the engine or the search.
    assert quick["queens_garden_checksums"] == {
        "queens_garden_policy_games_2p": "69eec2ec6ca7483f",
        "queens_garden_policy_games_4p": "2e6120f6b847ca31",
        "queens_garden_random_moves": "f852d0346201dda9",
        "queens_garden_crowded_lists": "bb8675e28048f26a",
        "queens_garden_ismcts_sims": "af6bedabfaa5d94b",
        "queens_garden_ismcts_midgame_sims": "b3d54998aa28a153",
    }


@pytest.mark.parametrize(
    ("workload", "players", "count", "done", "checksum"),
    [
        ("policy", 2, 200, 9496, 0x6F370FFFE27702D5),
        ("policy", 4, 200, 18_966, 0x5E3FE9F92A5BECCE),
        ("random", 2, 200, 16_486, 0x3DF6475576E8A96E),
        ("legal", 2, 20, 11_060, 0xBB8675E28048F26A),
        ("opening", 2, 1000, 1000, 0xAF6BEDABFAA5D94B),
        ("midgame", 2, 1000, 1000, 0xB3D54998AA28A153),
    ],
)
def test_garden_native_bench_runs_the_crate_s_workloads(
    workload: str, players: int, count: int, done: int, checksum: int
) -> None:
    # The same pins as the crate's test: the binding only converts.
    result = _native.queens_garden.native_bench(
        workload, _native.queens_garden.Rules(players), count
    )
    assert result[:2] == (done, checksum)
    assert result[2] > 0


def test_garden_native_bench_refuses_bad_input() -> None:
    rules = _native.queens_garden.Rules(2)
    with pytest.raises(indigo.IndigoError, match='unknown workload "mid": policy, random'):
        _native.queens_garden.native_bench("mid", rules, 10)
    with pytest.raises(indigo.IndigoError, match="count"):
        _native.queens_garden.native_bench("policy", rules, 0)


def test_report_shows_each_figure_with_its_unit(quick: dict[str, object]) -> None:
    text = report(quick)
    lines = {line.split()[0]: line for line in text.splitlines() if line.strip()}
    assert lines["native_placements_per_s"].split()[2] == "/s"
    assert lines["play_call_ns"].split()[2] == "ns"
    assert lines["threads_speedup_2"].split()[2] == "x"
    assert "target >= 2e+07" in lines["native_placements_per_s"]
    assert quick["checksum"] in lines["checksum"]


def test_native_playouts_are_the_batch_games_of_playout_bots() -> None:
    rules = indigo.Rules.indigo(2)
    games, placements, checksum, seconds = _native.native_playouts(rules, SEED, 300, start=7)
    batch = indigo.simulate(
        ["playout"], 300, rules=rules, seed=SEED, start=7, threads=2, deal="pcg"
    )
    assert games == 300
    assert seconds > 0
    assert placements == int(batch.placements.sum())
    assert checksum == batch.checksum
    # Another seed, or other games, give another checksum.
    assert _native.native_playouts(rules, SEED + 1, 300, start=7)[2] != checksum
    assert _native.native_playouts(rules, SEED, 300, start=8)[2] != checksum


def test_simulation_checksum_follows_the_outcomes() -> None:
    rules = indigo.Rules.tactical(3)
    one = indigo.simulate(["greedy", "random", "playout"], 30, rules=rules, seed=3)
    two = indigo.simulate(["greedy", "random", "playout"], 30, rules=rules, seed=3, threads=1)
    other = indigo.simulate(["greedy", "random", "playout"], 30, rules=rules, seed=4)
    assert one.checksum == two.checksum
    assert one.checksum != other.checksum


def test_piles_replay_with_either_deal() -> None:
    rules = indigo.Rules.indigo(2)
    python = indigo.simulate(["random"], 5, rules=rules, seed=9)
    pcg = indigo.simulate(["random"], 5, rules=rules, seed=9, deal="pcg")
    assert (python.deal, pcg.deal) == ("python", "pcg")
    assert python.game_seeds.tolist() == pcg.game_seeds.tolist()
    box = sorted(indigo.Game(rules, seed=0).pile)
    for i, seed in enumerate(python.game_seeds.tolist()):
        assert python.pile(i) == list(indigo.Game(rules, seed=seed).pile)
        assert sorted(pcg.pile(i)) == box
        assert pcg.pile(i) != python.pile(i)
        # The random bot's game depends on the pile: replaying the pile plays a full game.
        game = indigo.Game(rules, pile=pcg.pile(i))
        assert game.pile_left == 52
    with pytest.raises(indigo.IndigoError, match="index must be 0 to 4"):
        pcg.pile(5)
    with pytest.raises(indigo.IndigoError, match="unknown deal"):
        indigo.simulate(["random"], 1, deal="mt")  # type: ignore[arg-type]


def test_playout_bot_plays_legal_moves_to_the_end() -> None:
    for rules in (indigo.Rules.indigo(2), indigo.Rules.tactical(4)):
        bots = [indigo.make_bot("playout", seed=s) for s in range(rules.players)]
        assert all(isinstance(b, indigo.PlayoutBot) for b in bots)
        game = indigo.Game(rules, seed=5)
        while not game.over:
            move = bots[game.to_move].choose(game)
            assert game.is_legal(move)
            game.play(move)
        assert game.gems == []
    assert _native.normalize_bot_spec("playout") == "playout"
    with pytest.raises(indigo.IndigoError, match="playout takes no settings"):
        indigo.make_bot("playout:3")


def test_reference_engine_imports_nothing_else_from_indigo() -> None:
    source = Path(reference.__file__).read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert imported
    assert not {name for name in imported if name.split(".")[0] == "indigo"}
