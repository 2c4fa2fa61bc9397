"""Every ``>>>`` example in docs/ runs and prints what the page says."""

import doctest
from pathlib import Path

import pytest

DOCS = sorted((Path(__file__).parent.parent / "docs").glob("*.md"))


def test_docs_exist() -> None:
    assert {p.name for p in DOCS} >= {"rules.md", "notation.md", "api.md"}


@pytest.mark.parametrize("page", DOCS, ids=[p.name for p in DOCS])
def test_examples_run(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if page.name != "rules.md":
        assert result.attempted > 0
