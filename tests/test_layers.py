"""The command line is a leaf (issue 16): no module of the library imports :mod:`indigo.cli`.

Each library module is imported in a fresh interpreter, which then lists the ``indigo.cli``
modules loaded; importing the CLI itself afterwards shows that the probe sees it.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import indigo

NAMED = (
    "indigo.web.app",
    "indigo.envs",
    "indigo.envs.gymnasium_env",
    "indigo.envs.indigo_v0",
    "indigo.envs.openspiel",
    "indigo.envs.vector",
    "indigo.queens_garden",
    "indigo.render",
    "indigo.play",
)
"""The modules issue 16 names; every other library module is found by walking the package."""

PROBE = """
import importlib, json, sys
def cli():
    return sorted(m for m in sys.modules if m == "indigo.cli" or m.startswith("indigo.cli."))
for name in sys.argv[1:]:
    importlib.import_module(name)
before = cli()
importlib.import_module("indigo.cli")
print(json.dumps({"library": before, "after_cli": cli()}))
"""


def _is_cli(name: str) -> bool:
    return name in ("indigo.cli", "indigo.__main__") or name.startswith("indigo.cli.")


def library_modules() -> list[str]:
    """Every module of the package but the command line's."""
    walked = [m.name for m in pkgutil.walk_packages(indigo.__path__, "indigo.")]
    return sorted({*NAMED, *(name for name in walked if not _is_cli(name))})


def test_no_library_module_loads_the_cli() -> None:
    modules = library_modules()
    assert set(NAMED) <= set(modules)
    assert {"indigo.records", "indigo.table", "indigo.render.png", "indigo.envs._common"} <= set(
        modules
    )
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *modules],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    loaded = json.loads(run.stdout.splitlines()[-1])
    assert loaded["library"] == []
    assert "indigo.cli" in loaded["after_cli"]
