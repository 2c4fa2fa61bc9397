"""The type stubs ``python/indigo/_native.pyi`` match the compiled module (mypy's stubtest)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import indigo
import indigo._native

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

ROOT = Path(__file__).resolve().parent.parent
STUBS = ["_native.pyi", "_native/queens_garden.pyi"]
"""The stubs of ``indigo._native`` and of its submodule ``indigo._native.queens_garden``."""
MODULES = ["indigo._native", "indigo._native.queens_garden"]


def test_stub_is_next_to_the_module() -> None:
    """stubtest reads the ``.pyi`` found beside the imported module: make sure it is ours."""
    package_dir = Path(indigo.__file__).resolve().parent
    assert Path(indigo._native.__file__).resolve().parent == package_dir
    for stub_path in STUBS:
        stub = package_dir / stub_path
        assert stub.is_file()
        assert stub.read_text(encoding="utf-8") == (ROOT / "python/indigo" / stub_path).read_text(
            encoding="utf-8"
        )


def test_stubtest() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", *MODULES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    output = (
        f"exit code {result.returncode}\n"
        f"--- stdout ---\n{result.stdout}\n"
        f"--- stderr ---\n{result.stderr}"
    )
    print(output)
    assert result.returncode == 0, output
