"""Every Python example in the README and docs/ runs as written.

A page's ```python (and ```pycon) blocks run in order in one namespace, so a block may build on
an earlier one: ``>>>`` examples are doctests and must print what the page says; other blocks
run as scripts. A block that cannot run here says so in its fence, ```python no-run: REASON,
and is left to the test its reason names. Blocks in other languages are not run here (the Rust
blocks of docs/api.md and docs/search.md are rustdoc tests: the core crate includes both pages).
"""

from __future__ import annotations

import doctest
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

ROOT = Path(__file__).parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [ROOT / "README.md", *DOCS]
PYTHON = {"python", "pycon"}
NO_RUN = re.compile(r"no-run: \S")
OPTIONS = doctest.ELLIPSIS


@dataclass(frozen=True)
class Block:
    """One fenced code block: its language, the rest of its info string, the file line of its
    opening fence (1-based) and its text."""

    language: str
    flags: str
    line: int
    code: str


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of ``page`` in order."""
    found = []
    for token in MarkdownIt().parse(page.read_text(encoding="utf-8")):
        if token.type == "fence" and token.map is not None:
            language, _, flags = token.info.strip().partition(" ")
            found.append(Block(language, flags.strip(), token.map[0] + 1, token.content))
    return found


def unspelled_errors(examples: list[doctest.Example]) -> list[str]:
    """The examples whose expected exception has no message: a bare ``...`` documents nothing."""
    return [
        example.source.strip()
        for example in examples
        if example.exc_msg is not None and example.exc_msg.partition(":")[2].strip() == "..."
    ]


def run_page(page: Path) -> tuple[int, list[str]]:
    """Run the Python blocks of ``page`` in one namespace: how many blocks ran, and a report of
    each failure."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    parser = doctest.DocTestParser()
    failures: list[str] = []
    ran = 0
    for block in blocks(page):
        if block.language not in PYTHON or block.flags.startswith("no-run"):
            continue
        where = f"{page.name}:{block.line}"
        if ">>>" in block.code:
            test = parser.get_doctest(block.code, namespace, where, str(page), block.line)
            test.globs = namespace  # DocTest copies its globals: share the page's instead
            unspelled = unspelled_errors(test.examples)
            failures += [f"{where}: {source}: no message" for source in unspelled]
            report: list[str] = []
            runner = doctest.DocTestRunner(optionflags=OPTIONS)
            if runner.run(test, out=report.append, clear_globs=False).failed:
                failures.append("".join(report))
        else:
            # Blank lines first, so that a traceback names the page's own line numbers.
            code = compile("\n" * block.line + block.code, str(page), "exec")
            try:
                exec(code, namespace)
            except Exception as error:
                failures.append(f"{where}: {type(error).__name__}: {error}")
        ran += 1
    return ran, failures


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


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_python_blocks_run(page: Path) -> None:
    ran, failures = run_page(page)
    assert not failures, "\n".join(failures)
    if page.name != "rules.md":
        assert ran > 0


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_example_is_in_a_python_block(page: Path) -> None:
    """Nothing that looks like an example goes unrun: every ``>>>`` line is in a Python block,
    every Python block without ``>>>`` is ```python, and every block left out says why."""
    text = page.read_text(encoding="utf-8")
    in_python = {
        number
        for block in blocks(page)
        if block.language in PYTHON
        for number in range(block.line + 1, block.line + 1 + block.code.count("\n"))
    }
    stray = [
        number
        for number, line in enumerate(text.splitlines(), 1)
        if line.lstrip().startswith(">>>") and number not in in_python
    ]
    assert stray == []
    for block in blocks(page):
        if block.language == "pycon":
            assert ">>>" in block.code, f"{page.name}:{block.line}: a pycon block without >>>"
        if block.flags.startswith("no-run"):
            assert NO_RUN.match(block.flags), f"{page.name}:{block.line}: no-run without a reason"


def test_an_unspelled_error_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```pycon\n>>> 1 / 0\nTraceback (most recent call last):\n...\n"
        "ZeroDivisionError: ...\n```\n"
        "```python\nvalue = 1\n```\n"
        "```python no-run: would fail here\nraise SystemExit\n```\n"
        "```python\nassert value == 2\n```\n",
        encoding="utf-8",
    )
    ran, failures = run_page(page)
    assert ran == 3
    assert [failure.split(": ", 1)[0] for failure in failures] == ["page.md:1", "page.md:13"]
    assert "no message" in failures[0]
    assert "AssertionError" in failures[1]


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
    result = doctest.testmod(module, optionflags=OPTIONS)
    assert result.failed == 0
    assert result.attempted > 0
    examples = [e for test in doctest.DocTestFinder().find(module) for e in test.examples]
    assert unspelled_errors(examples) == []


IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.png)\)")


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_image_shown_exists_and_is_small(page: Path) -> None:
    """The screenshots a page shows (docs/web.md's, by scripts/screenshots) are committed PNGs
    of at most 400 kB."""
    for name in IMAGE.findall(page.read_text(encoding="utf-8")):
        image = page.parent / name
        assert image.is_file(), f"{page.name} shows {name}, which is missing"
        assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert image.stat().st_size <= 400_000, name


def test_web_md_shows_both_games_on_both_sizes() -> None:
    shown = set(IMAGE.findall((ROOT / "docs" / "web.md").read_text(encoding="utf-8")))
    for game in ("indigo", "queens-garden"):
        for size in ("phone", "laptop"):
            for moment in ("start", "midgame", "end"):
                assert f"images/web-{game}-{size}-{moment}.png" in shown
