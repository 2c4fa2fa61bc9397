"""The web page in a real browser (Debian's chromium through playwright): a whole game by clicks.

``.ci/run`` installs ``/usr/bin/chromium``; playwright comes from the test extra and drives that
browser (no ``playwright install``).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

import indigo
from indigo.web.app import TOKEN_HEADER
from web_server import live_server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
OUTPUT = Path(__file__).parent / "output"
IDLE = "body[data-state=your-turn], body[data-state=over]"


@pytest.fixture(scope="module")
def site() -> Any:
    with live_server() as url:
        yield url


@pytest.fixture
def page(site: str) -> Any:
    assert Path(CHROMIUM).is_file(), "chromium is missing: .ci/run installs it with apt-get"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(30_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(site)
        yield page
        assert errors == [], f"JavaScript errors: {errors}"
        browser.close()


def _fetch(url: str, token: str) -> Any:
    request = urllib.request.Request(url, headers={TOKEN_HEADER: token})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _game_id(page: Page) -> str:
    href = page.get_attribute("#download", "href")
    assert href is not None
    return href.split("/")[3]


def _token(page: Page, game_id: str) -> str:
    """The game's token, as the page keeps it for the tab."""
    token = page.evaluate("id => sessionStorage.getItem(`indigo-token:${id}`)", game_id)
    assert isinstance(token, str)
    return token


def test_play_a_whole_game_by_clicking(page: Page, site: str, tmp_path: Path) -> None:
    page.fill("#seed", "11")
    page.fill("#seat-1", "greedy")
    page.click("#start")
    page.wait_for_selector(IDLE)
    page.select_option("#speed", "0.3")  # animations on, but quick
    game_id = _game_id(page)
    token = _token(page, game_id)
    with pytest.raises(urllib.error.HTTPError) as refused:  # the game is the page's alone
        _fetch(f"{site}/api/games/{game_id}", "not the token")
    assert refused.value.code == 404
    clicks = checked_illegal = 0
    while page.get_attribute("body", "data-state") != "over":
        legal = page.locator("#board polygon.cell.legal")
        turns = 0
        while legal.count() == 0:  # this tile fits nowhere at this rotation: turn it
            page.click("#rotate-right")
            turns += 1
            assert turns < 6, "no legal cell at any rotation"
        # Every empty cell is marked legal or illegal, and the marks are the engine's.
        state = _fetch(f"{site}/api/games/{game_id}", token)
        empty = len(indigo.ROUTE_CELLS) - state["moves"]
        illegal = page.locator("#board polygon.cell.illegal")
        assert legal.count() + illegal.count() == empty
        tile = int(page.locator("#hand svg.selected").get_attribute("data-tile") or "-1")
        rotation = int(page.inner_text("#rotation").split()[-1])
        shown = {
            (int(c.get_attribute("data-q") or 0), int(c.get_attribute("data-r") or 0))
            for c in legal.all()
        }
        assert shown == {tuple(c) for c in state["legal"][str(tile)][str(rotation)]}
        if illegal.count() and not checked_illegal:
            illegal.first.click()  # refused by the page: nothing is sent
            assert "error" in (page.get_attribute("#message", "class") or "")
            assert _fetch(f"{site}/api/games/{game_id}", token)["moves"] == state["moves"]
            checked_illegal += 1
        legal.first.click()
        clicks += 1
        page.wait_for_selector(IDLE)
        assert clicks <= 27

    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(tmp_path / "finished.png"))
    page.screenshot(path=str(OUTPUT / "web-finished-game.png"))
    assert (tmp_path / "finished.png").stat().st_size > 10_000

    # What the page shows is what the engine says of the game the server recorded.
    # The page's download link saves the record the server gives once the game is over.
    with page.expect_download() as saving:
        page.click("#download")
    saved = tmp_path / "saved.json"
    saving.value.save_as(saved)
    record = _fetch(f"{site}/api/games/{game_id}/record", token)
    assert json.loads(saved.read_text(encoding="utf-8")) == record
    game = indigo.Game.from_record(record)
    assert game.over
    assert clicks == sum(1 for m in range(len(game.moves)) if m % 2 == 0)
    rows = page.locator("#scores tr")
    assert rows.count() == 2
    shown_scores = [int(rows.nth(i).get_attribute("data-score") or -1) for i in range(2)]
    assert shown_scores == game.scores
    assert [int(rows.nth(i).inner_text().split()[2]) for i in range(2)] == game.scores
    winners = page.get_attribute("#winner", "data-winners") or ""
    assert [int(s) for s in winners.split()] == game.winners
    names = " and ".join(f"P{s}" for s in game.winners)
    assert page.inner_text("#winner").startswith(names)
    board = page.locator("#board svg.indigo-board")
    assert board.get_attribute("data-moves") == str(len(game.moves))
    assert page.locator("#board g.tile").count() == len(game.board)


def test_load_a_record_and_step_through_it(page: Page, tmp_path: Path) -> None:
    game = indigo.Game(indigo.Rules.butterfly_garden(3), seed=4)
    bot = indigo.make_bot("greedy", seed=4)
    for _ in range(5):
        game.play(bot.choose(game))
    path = tmp_path / "record.json"
    path.write_text(game.record_json(), encoding="utf-8")
    page.set_input_files("#record-file", str(path))
    page.click("#load")
    page.wait_for_selector(IDLE)
    board = "#board svg.indigo-board"
    assert page.get_attribute(board, "data-moves") == "5"
    assert page.get_attribute(board, "data-theme") == "butterfly-garden"
    assert page.inner_text("#step-label") == "move 5 / 5"
    page.click("#step-first")
    page.wait_for_selector("body[data-state=viewing]")
    page.wait_for_selector(f'{board}[data-moves="0"]')
    assert page.locator("#board g.tile").count() == 0
    page.click("#step-next")
    page.wait_for_selector(f'{board}[data-moves="1"]')
    assert page.locator("#board g.tile").count() == 1
    assert page.inner_text("#step-label") == "move 1 / 5"
    page.click("#step-live")
    page.wait_for_selector(f'{board}[data-moves="5"]')
    page.wait_for_selector(IDLE)


def test_a_bad_record_file_is_reported(page: Page, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "indigo-record/1", "rules": {"players": 7}}', encoding="utf-8")
    page.set_input_files("#record-file", str(path))
    page.click("#load")
    page.wait_for_selector("#message.error")
    assert "rules.players" in page.inner_text("#message")
    assert page.get_attribute("body", "data-state") == "setup"
