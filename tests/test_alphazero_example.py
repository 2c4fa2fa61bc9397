"""examples/alphazero.py runs end to end at toy size (docs/alphazero.md)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "alphazero.py"


def test_the_alphazero_loop_runs_at_toy_size(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    spec = importlib.util.spec_from_file_location("alphazero_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example  # dataclasses look their module up
    spec.loader.exec_module(example)
    out = tmp_path / "run"
    toy = [
        "--batch-size",
        "8",
        "--iterations",
        "2",
        "--games",
        "2",
        "--simulations",
        "8",
        "--hidden",
        "16",
        "--eval-games",
        "2",
    ]
    result = example.main([*toy, "--out", str(out)])
    assert [step["iteration"] for step in result["training"]] == [0, 1]
    # The second iteration trains on both iterations' samples (the window is 3).
    first, second = result["training"]
    assert second["samples"] > first["samples"] > 0
    for score in (result["trained_vs_ismcts"], result["untrained_vs_ismcts"]):
        assert score in (0.0, 0.25, 0.5, 0.75, 1.0)
    assert json.loads((out / "result.json").read_text())["training"] == result["training"]
    manifest = json.loads((out / "iteration-0" / "manifest.json").read_text())
    assert manifest["bots"] == ["puct:8,batch=8,c=1.5,alpha=0.3,noise=0.25,temperature=1"]
