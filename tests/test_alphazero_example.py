"""examples/alphazero.py runs end to end at toy size for every game of the registry and writes
an ``indigo-net/1`` network file (docs/alphazero.md)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from indigo.games import GAMES, GameEntry

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "alphazero.py"


def example() -> Any:
    pytest.importorskip("pyarrow")
    pytest.importorskip("safetensors")
    spec = importlib.util.spec_from_file_location("alphazero_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_the_recipe_runs_at_toy_size_and_writes_a_network(
    entry: GameEntry[Any, Any, Any], tmp_path: Path
) -> None:
    from safetensors import safe_open
    from safetensors.numpy import load_file

    out = tmp_path / "run"
    toy = ["--game", entry.name, "--distill-rounds", "1", "--distill-games", "3"]
    toy += ["--distill-bot", "ismcts:8"]
    toy += ["--iterations", "1", "--games", "1", "--simulations", "4", "--batch-size", "4"]
    toy += ["--in-flight", "2"]
    toy += ["--hidden", "16,8", "--distill-epochs", "2", "--epochs", "1", "--eval-games", "2"]
    result = example().main([*toy, "--out", str(out)], log=lambda _: None)

    first, second = result["training"]
    assert (first["iteration"], first["self_play"]) == (0, "ismcts:8")
    assert (second["iteration"], second["self_play"]) == (1, "puct")
    # The second iteration trains on both iterations' samples (the window is 3).
    assert second["samples"] > first["samples"] > 0
    # Up to four points of the loss curves per epoch, the last at the last epoch's end.
    for step, epochs in ((first, 2), (second, 1)):
        marks = [point["epoch"] for point in step["epochs"]]
        assert marks == sorted(marks)
        assert marks[-1] == epochs
        assert epochs <= len(marks) <= 4 * epochs
    for step in result["training"]:
        strength = step["strength"]
        assert strength["opponent"] == "ismcts:4"
        assert strength["wins"] + strength["losses"] + strength["shared"] == 2
        assert step["value_loss"] > 0
    assert json.loads((out / "result.json").read_text())["training"] == result["training"]
    assert (out / "losses.svg").read_text().startswith("<svg")
    manifest = json.loads((out / "iteration-1" / "manifest.json").read_text())
    assert manifest["bots"] == ["puct:4,batch=4,c=1.5,alpha=0.3,noise=0.25,temperature=1"]

    path = out / "network.safetensors"
    tensors = load_file(path)
    policy = entry.action_list is None  # Queen's Garden's 8 million actions: value only
    shapes = {
        "w1": (entry.observation_size, 16),
        "b1": (16,),
        "w2": (16, 8),
        "b2": (8,),
        "wv": (8, 1),
        "bv": (1,),
    }
    if policy:
        shapes |= {"wp": (8, entry.action_count), "bp": (entry.action_count,)}
    assert {k: v.shape for k, v in tensors.items()} == shapes
    assert {v.dtype for v in tensors.values()} == {np.dtype(np.float32)}
    with safe_open(path, "np") as opened:
        metadata = opened.metadata()
    trained = metadata.pop("trained")
    assert metadata == {
        "format": "indigo-net/1",
        "game": entry.name,
        "players": "2",
        "input": "log1p",
        "observation_size": str(entry.observation_size),
        "action_count": str(entry.action_count),
    }
    assert trained.startswith(f"python examples/alphazero.py --game {entry.name} ")
    assert "2 iterations (1 distilling ismcts:8 self-play, 1 of PUCT self-play)" in trained
    assert "4 games" in trained


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_expert_iteration_rounds_are_taught_by_the_network_trained_so_far(
    entry: GameEntry[Any, Any, Any], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    toy = ["--game", entry.name, "--distill-rounds", "2", "--distill-games", "2"]
    toy += ["--distill-bot", "net:4,file={network}", "--distill-target", "visits"]
    toy += ["--simulations", "4", "--batch-size", "4", "--hidden", "8", "--eval-games", "2"]
    result = example().main([*toy, "--out", str(out)], log=lambda _: None)

    network = out / "network.safetensors"
    assert [step["self_play"] for step in result["training"]] == [f"net:4,file={network}"] * 2
    for iteration in range(2):
        manifest = json.loads((out / f"iteration-{iteration}" / "manifest.json").read_text())
        assert manifest["bots"] == [f"net:4,file={network}"] * 2
    assert network.exists()
