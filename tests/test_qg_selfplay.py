"""``indigo selfplay --game queens-garden`` and ``run_selfplay(rules=qg.Rules(...))``: Indigo's
folder layout and columns, the legal actions listed instead of masked."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from indigo import queens_garden as qg
from indigo import simulate
from indigo.cli import main
from indigo.queens_garden import self_play
from indigo.queens_garden.samples import FORMAT, SampleBatch, samples_table
from indigo.samples import FORMAT as INDIGO_FORMAT
from indigo.selfplay import SelfPlayError, load, read_records, run_selfplay, schema

BOTS = ["ismcts:20", "greedy"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("qg-selfplay")
    run = run_selfplay(BOTS, 3, out, rules=qg.Rules(2), seed=4, shard_size=2)
    assert (run.games, run.shards_written, run.shards_skipped) == (3, 2, 0)
    return out


def test_manifest_and_schema(folder: Path) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["format"] == FORMAT != INDIGO_FORMAT
    assert manifest["game"] == "queens-garden"
    assert manifest["rules"] == qg.Rules(2).to_dict()
    indigo_names = schema().names
    names = schema("queens-garden").names
    assert names == [n if n != "legal_mask" else "legal_actions" for n in indigo_names]
    for shard in ["00000", "00001"]:
        table = pq.read_table(folder / f"samples-{shard}.parquet")
        assert table.schema.equals(schema("queens-garden"), check_metadata=True)


def test_samples_describe_every_move_of_the_records(folder: Path) -> None:
    table = pq.read_table(folder / "samples-00000.parquet").to_pydict()
    records = list(read_records(folder))
    assert [r["game"] for r in records] == [0, 1, 2]
    row = 0
    for record in records[:2]:
        game = qg.Game(qg.Rules(2), seed=record["seed"])
        searcher = record["players_names"].index("ismcts:20")
        for mv in record["moves"]:
            seat = game.to_move
            assert seat is not None
            assert (table["game"][row], table["ply"][row], table["seat"][row]) == (
                record["game"],
                game.moves_played,
                seat,
            )
            np.testing.assert_array_equal(table["observation"][row], game.observation(seat))
            assert table["legal_actions"][row] == game.legal_actions()
            action = qg.Move(mv).action
            assert table["action"][row] == action
            assert table["searched"][row] == (seat == searcher)
            if seat == searcher:
                assert sum(table["visit_counts"][row]) == 20
                assert set(table["visit_actions"][row]) <= set(game.legal_actions())
            else:
                assert table["visit_actions"][row] is None
            game.play(mv)
            row += 1
        assert game.over
        assert game.scores == record["result"]["scores"]
        for r in range(row - len(record["moves"]), row):
            seat = table["seat"][r]
            assert table["points"][r] == game.scores[seat]
            assert table["outcome"][r] == pytest.approx(game.returns("win")[seat])
    assert row == len(table["game"])


def test_self_play_plays_the_simulated_games() -> None:
    kwargs = {"rules": qg.Rules(3), "seed": 2, "lineups": [[0, 1, 1], [1, 0, 1]], "start": 5}
    played = self_play(BOTS, 3, **kwargs)  # type: ignore[arg-type]
    simulated = simulate(BOTS, 3, game="queens-garden", **kwargs)  # type: ignore[arg-type]
    assert played.checksum == simulated.checksum
    assert [json.loads(r)["result"]["scores"] for r in played.records] == (
        simulated.scores.tolist()
    )
    table = samples_table(played)
    assert table.num_rows == played.samples == len(played.action)
    assert len(played.legal_offsets) == played.samples + 1


def test_rerun_skips_and_another_game_is_refused(folder: Path) -> None:
    again = run_selfplay(BOTS, 3, folder, rules=qg.Rules(2), seed=4, shard_size=2)
    assert (again.shards_written, again.shards_skipped) == (0, 2)
    with pytest.raises(SelfPlayError, match="differs in"):
        run_selfplay(BOTS, 3, folder, seed=4, shard_size=2)


def test_load_reads_queens_garden_samples_as_lists(folder: Path) -> None:
    tables = [pq.read_table(folder / f"samples-{shard}.parquet") for shard in ["00000", "00001"]]
    stored = pa.concat_tables(tables)
    batches = list(load(folder, batch_size=7))
    assert all(isinstance(b, SampleBatch) for b in batches)
    assert [len(b) for b in batches[:-1]] == [7] * (len(batches) - 1)
    assert sum(len(b) for b in batches) == stored.num_rows
    rows = stored.to_pylist()
    i = 0
    for batch in batches:
        assert isinstance(batch, SampleBatch)
        assert batch.observation.shape == (len(batch), qg.OBSERVATION_SIZE)
        for k in range(len(batch)):
            row = rows[i]
            assert batch.game[k] == row["game"]
            assert batch.ply[k] == row["ply"]
            assert batch.legal_actions[k].tolist() == row["legal_actions"]
            assert batch.action[k] == row["action"] in row["legal_actions"]
            assert batch.visit_actions[k].tolist() == (row["visit_actions"] or [])
            assert batch.visit_counts[k].tolist() == (row["visit_counts"] or [])
            assert bool(batch.searched[k]) == row["searched"] == bool(row["visit_counts"])
            assert batch.observation[k].tolist() == pytest.approx(row["observation"])
            i += 1
    # The legal actions are those of the game's position at that ply (from its record).
    games = {r["game"]: qg.Game.from_record(r) for r in read_records(folder)}
    for game in games.values():
        while game.moves:
            game.undo()
    for row in rows:
        game = games[row["game"]]
        assert game.moves_played == row["ply"]
        assert game.legal_actions() == row["legal_actions"]
        game.apply_action(row["action"])
    assert all(game.over for game in games.values())


def test_selfplay_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--game", "queens-garden", "--bots", "random", "--games", "2"]
    assert main([*argv, "--out", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["games"], summary["shards_written"]) == (2, 1)
    assert summary["samples_written"] == sum(len(r["moves"]) for r in read_records(tmp_path))


def test_python_bots_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with pytest.raises(SelfPlayError, match="Queen's Garden self-play takes bot specs"):
        run_selfplay([lambda game: 0, "random"], 2, out, rules=qg.Rules(2))
    assert not out.exists()
