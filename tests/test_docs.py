"""Every ``>>>`` example in docs/ runs and prints what the page says."""

import doctest
import importlib
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

DOCS = sorted((Path(__file__).parent.parent / "docs").glob("*.md"))


def test_docs_exist() -> None:
    assert {p.name for p in DOCS} >= {
        "rules.md",
        "notation.md",
        "api.md",
        "search.md",
        "envs.md",
        "queens-garden.md",
        "embedding.md",
    }


@pytest.mark.parametrize("page", DOCS, ids=[p.name for p in DOCS])
def test_examples_run(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if page.name != "rules.md":
        assert result.attempted > 0


MODULES = [
    "indigo",
    "indigo.bots",
    "indigo.policies",
    "indigo.tournament",
    "indigo.bench",
    "indigo.distributed",
    "indigo.selfplay",
    "indigo.envs.indigo_v0",
    "indigo.envs.gymnasium_env",
    "indigo.envs.vector",
    "indigo.envs.openspiel",
    "indigo.games",
    "indigo.queens_garden.openspiel",
    "indigo.queens_garden",
    "indigo.queens_garden.choices",
]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
