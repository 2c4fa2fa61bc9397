"""The web page in a real browser (Debian's chromium through playwright): a whole game by clicks.

``.ci/run`` installs ``/usr/bin/chromium``; playwright comes from the test extra and drives that
browser (no ``playwright install``).
"""

from __future__ import annotations

import contextlib
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

import indigo
from indigo.games import GAMES, GameEntry
from indigo.web.app import TOKEN_HEADER
from web_server import live_server

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

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


DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


@contextlib.contextmanager
def _open(site: str, viewport: dict[str, int], *, touch: bool = False) -> Iterator[Page]:
    """A fresh browser showing the page at ``viewport`` (a phone's: touch, no mouse)."""
    assert Path(CHROMIUM).is_file(), "chromium is missing: .ci/run installs it with apt-get"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
        page = context.new_page()
        page.set_default_timeout(30_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(site)
        page.wait_for_selector("#seat-1 option[value=greedy]", state="attached")
        yield page
        assert errors == [], f"JavaScript errors: {errors}"
        browser.close()


@pytest.fixture
def page(site: str) -> Iterator[Page]:
    with _open(site, {"width": 1400, "height": 1000}) as opened:
        yield opened


def _fetch(url: str, token: str, method: str = "GET") -> Any:
    request = urllib.request.Request(url, headers={TOKEN_HEADER: token}, method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _game_id(page: Page) -> str:
    match = re.fullmatch(r".*#/game/([0-9a-f]+)", page.url)
    assert match, page.url
    return match[1]


def _token(page: Page, game_id: str) -> str:
    """The game's token, as the page keeps it in this browser."""
    token = page.evaluate("id => localStorage.getItem(`indigo-token:${id}`)", game_id)
    assert isinstance(token, str)
    return token


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _press(page: Page, selector: str, touch: bool) -> None:
    if touch:
        page.tap(selector)
    else:
        page.click(selector)


def _check_log(page: Page, state: dict[str, Any]) -> None:
    """The page's move log is the server's explanation of every move, in order."""
    items = page.locator("#log li")
    assert items.count() == state["moves"] == len(state["log"])
    if state["moves"]:
        last = items.nth(state["moves"] - 1).inner_text()
        assert last.splitlines()[0] == " ".join(state["log"][-1][0].split())
        assert last.startswith(f"Move {state['moves']}: P")


@pytest.mark.parametrize(
    ("viewport", "touch", "theme", "name"),
    [(DESKTOP, False, "indigo", "desktop"), (PHONE, True, "butterfly-garden", "phone")],
    ids=["1280x720", "390x844"],
)
def test_play_a_whole_game(
    site: str, tmp_path: Path, viewport: dict[str, int], touch: bool, theme: str, name: str
) -> None:
    """A whole game against greedy by clicks (or taps on a phone), with an undo and a reload
    on the way; what the page shows is checked against the server and the engine."""
    with _open(site, viewport, touch=touch) as page:
        page.select_option("#seat-1", "greedy")
        page.select_option("#theme", theme)
        page.fill("#seed", "11")
        _press(page, "#start", touch)
        page.wait_for_selector(IDLE)
        assert page.get_attribute("body", "data-theme") == theme
        page.select_option("#speed", "0.3" if not touch else "0")
        game_id = _game_id(page)
        token = _token(page, game_id)
        with pytest.raises(urllib.error.HTTPError) as refused:  # the game is the page's alone
            _fetch(f"{site}/api/games/{game_id}", "not the token")
        assert refused.value.code == 404

        # The controls of every turn are in sight without scrolling; a phone's are big enough.
        board = _box(page, "#board svg.indigo-board")
        assert board["width"] >= viewport["width"] * (0.9 if touch else 0.5)
        for control in ("#hand svg", "#rotate-right", "#undo"):
            box = _box(page, control)
            if touch:
                assert min(box["height"], box["width"]) >= 44, control
            else:
                assert box["y"] + box["height"] <= viewport["height"], control
        cell = _box(page, "#board polygon.cell.legal")
        if touch:
            assert cell["width"] >= 44, cell  # a hexagon's height is 0.87 of its width
            assert cell["height"] >= 38, cell

        moves_made = checked_illegal = 0
        undone = reloaded = False
        while page.get_attribute("body", "data-state") != "over":
            legal = page.locator("#board polygon.cell.legal")
            turns = 0
            while legal.count() == 0:  # this tile fits nowhere at this rotation: turn it
                _press(page, "#rotate-right", touch)
                turns += 1
                assert turns < 6, "no legal cell at any rotation"
            # Every empty cell is marked, the legal ones outlined; the marks are the engine's.
            state = _fetch(f"{site}/api/games/{game_id}", token)
            _check_log(page, state)
            empty = len(indigo.ROUTE_CELLS) - state["moves"]
            illegal = page.locator("#board polygon.cell.illegal")
            assert legal.count() + illegal.count() == empty
            assert page.locator("#board .legal-mark").count() == legal.count()
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
            if touch:  # the first tap shows the tile there, the second places it
                legal.first.tap()
                assert page.locator("#board .ghost").count() == 1
                assert page.locator("#board .legal-mark.chosen").count() == 1
                assert _fetch(f"{site}/api/games/{game_id}", token)["moves"] == state["moves"]
                legal.first.tap()
            else:
                legal.first.click()
            moves_made += 1
            page.wait_for_selector(IDLE)
            assert moves_made <= 40

            if moves_made == 3 and not undone:  # take back my move and greedy's reply
                before = _fetch(f"{site}/api/games/{game_id}", token)
                if not before["over"]:
                    _press(page, "#undo", touch)
                    page.wait_for_function(
                        f"document.querySelectorAll('#log li').length < {before['moves']}"
                    )
                    page.wait_for_selector(IDLE)
                    after = _fetch(f"{site}/api/games/{game_id}", token)
                    assert after["moves"] == before["moves"] - 2
                    assert after["to_move"] == 0
                    _check_log(page, after)
                    assert "Took back 2 moves" in page.inner_text("#message")
                    undone = True
            if moves_made == 5 and not reloaded:  # a reload resumes the game at its address
                at = _fetch(f"{site}/api/games/{game_id}", token)
                page.screenshot(path=str(OUTPUT / f"web-{name}-midgame.png"))
                page.reload()
                page.wait_for_selector(IDLE)
                assert _game_id(page) == game_id
                board_moves = page.get_attribute("#board svg.indigo-board", "data-moves")
                assert board_moves == str(at["moves"])
                assert "resumed" in page.inner_text("#message")
                _check_log(page, at)
                reloaded = True
        assert undone
        assert reloaded

        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(tmp_path / "finished.png"))
        page.screenshot(path=str(OUTPUT / f"web-{name}-finished.png"), full_page=touch)
        assert (tmp_path / "finished.png").stat().st_size > 10_000

        # What the page shows is what the engine says of the game the server recorded.
        record = _fetch(f"{site}/api/games/{game_id}/record", token)
        game = indigo.Game.from_record(record)
        assert game.over
        final = _fetch(f"{site}/api/games/{game_id}", token)
        _check_log(page, final)
        rows = page.locator("#scores tr")
        assert rows.count() == 2
        shown_scores = [int(rows.nth(i).get_attribute("data-score") or -1) for i in range(2)]
        assert shown_scores == game.scores
        assert [int(rows.nth(i).locator("td.score").inner_text()) for i in range(2)] == game.scores
        winners = page.get_attribute("#winner", "data-winners") or ""
        assert [int(s) for s in winners.split()] == game.winners
        names = " and ".join(f"P{s}" for s in game.winners)
        assert page.inner_text("#winner").startswith(names)
        mine, theirs = game.scores
        verdict = "win" if game.winners == [0] else "lose" if 0 not in game.winners else "share"
        assert page.inner_text("#result").startswith(f"You {verdict}")
        assert page.inner_text("#result").endswith(f"{mine}\N{EN DASH}{theirs}")
        assert "no gem is left on the board" in page.inner_text("#end-reason")
        assert page.locator("#play-again").is_visible()
        board_svg = page.locator("#board svg.indigo-board")
        assert board_svg.get_attribute("data-moves") == str(len(game.moves))
        assert page.locator("#board g.tile").count() == len(game.board)
        # The download link saves the record the server gives once the game is over.
        if not touch:
            with page.expect_download() as saving:
                page.click("#download")
            saved = tmp_path / "saved.json"
            saving.value.save_as(saved)
            assert json.loads(saved.read_text(encoding="utf-8")) == record
        # Play again: a new game with the same seats, at a new address.
        _press(page, "#play-again", touch)
        page.wait_for_selector(IDLE)
        assert _game_id(page) != game_id
        assert page.locator("#log li").count() == 0


def test_a_shared_address_without_the_token_says_whose_game_it_is(site: str) -> None:
    with _open(site, DESKTOP) as page:
        page.click("#start")
        page.wait_for_selector(IDLE)
        address = page.url
    with _open(site, DESKTOP) as stranger:
        stranger.goto(address)
        stranger.wait_for_selector("#message.error")
        assert "belongs to another browser" in stranger.inner_text("#message")
        assert stranger.get_attribute("body", "data-state") == "setup"


def test_a_new_tab_of_the_same_browser_resumes(site: str) -> None:
    with _open(site, DESKTOP) as page:
        page.click("#start")
        page.wait_for_selector(IDLE)
        other = page.context.new_page()
        other.goto(page.url)
        other.wait_for_selector(IDLE)
        assert _game_id(other) == _game_id(page)
        assert "resumed" in other.inner_text("#message")


def test_load_a_record_and_step_through_it(page: Page, tmp_path: Path) -> None:
    game = indigo.Game(indigo.Rules.butterfly_garden(3), seed=4)
    bot = indigo.make_bot("greedy", seed=4)
    for _ in range(5):
        game.play(bot.choose(game))
    path = tmp_path / "record.json"
    record = {**game.to_record(), "players_names": ["Ada", "greedy", "ismcts:800"]}
    path.write_text(json.dumps(record), encoding="utf-8")
    page.set_input_files("#record-file", str(path))
    page.click("#load")
    page.wait_for_selector(IDLE)
    board = "#board svg.indigo-board"
    assert page.get_attribute(board, "data-moves") == "5"
    assert page.get_attribute(board, "data-theme") == "butterfly-garden"
    assert page.inner_text("#step-label") == "After move 5 of 5"
    page.click("#step-first")
    page.wait_for_selector("body[data-state=viewing]")
    page.wait_for_selector(f'{board}[data-moves="0"]')
    assert page.locator("#board g.tile").count() == 0
    page.click("#step-next")
    page.wait_for_selector(f'{board}[data-moves="1"]')
    assert page.locator("#board g.tile").count() == 1
    assert page.inner_text("#step-label") == "After move 1 of 5"
    page.click("#step-live")
    page.wait_for_selector(f'{board}[data-moves="5"]')
    page.wait_for_selector(IDLE)
    # The record's names are kept; the arrow keys step, and the numbering agrees with itself.
    names = [page.inner_text(f"#scores tr[data-seat='{s}']") for s in range(3)]
    assert [n.split()[:2] for n in names] == [["P0", "Ada"], ["P1", "greedy"], ["P2", "ismcts:800"]]
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'{board}[data-moves="4"]')
    assert page.inner_text("#step-label") == "After move 4 of 5"
    assert page.inner_text("#status") == "After move 4 of 5"
    assert "current" in (page.get_attribute("#log li[data-move='4']", "class") or "")
    assert page.inner_text("#message").startswith("Move 4: P0 placed a tile ")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'{board}[data-moves="5"]')
    page.wait_for_selector(IDLE)
    assert page.inner_text("#step-label") == "After move 5 of 5"


def test_a_bad_record_file_is_reported(page: Page, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "indigo-record/1", "rules": {"players": 7}}', encoding="utf-8")
    page.set_input_files("#record-file", str(path))
    page.click("#load")
    page.wait_for_selector("#message.error")
    assert "rules.players" in page.inner_text("#message")
    assert page.get_attribute("body", "data-state") == "setup"


def test_the_form_offers_bots_with_hints_and_exclusive_gates(site: str) -> None:
    with _open(site, DESKTOP) as page:
        assert page.locator("#gates-row").is_hidden()
        options = page.locator("#seat-1 option")
        specs = [options.nth(i).get_attribute("value") for i in range(options.count())]
        assert specs[:3] == ["human", "random", "greedy"]
        assert "ismcts:1000" in specs
        page.select_option("#seat-1", "ismcts:200")
        assert "Greedy 33 games in 40" in page.inner_text("#seat-list")
        page.select_option("#players", "3")
        page.select_option("#gates", "exclusive")
        page.select_option("#seat-2", "random")
        page.click("#start")
        page.wait_for_selector(IDLE)
        state = _fetch(f"{site}/api/games/{_game_id(page)}", _token(page, _game_id(page)))
        assert state["gates"] == "exclusive"
        assert [s["player"] for s in state["seats"]] == ["human", "ismcts:200", "random"]
        page.click("#help-button")
        assert page.locator("#help").is_visible()
        assert "as soon as no gem is left" in page.inner_text("#help")


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_the_page_names_the_chosen_game_and_its_seats(
    site: str, entry: GameEntry[Any, Any, Any]
) -> None:
    with _open(site, DESKTOP) as page:
        page.select_option("#game", entry.name)
        page.wait_for_selector(f'body[data-theme="{entry.name}"]')
        # The heading and the page's title are the registry's title; the welcome is the game's.
        assert page.title() == entry.title
        assert page.inner_text("#title") == entry.title
        welcome = page.inner_text("#welcome h2:visible")
        others = [e for e in GAMES if e is not entry]
        for other in others:
            page.select_option("#game", other.name)
            page.wait_for_selector(f'body[data-theme="{other.name}"]')
            assert page.inner_text("#welcome h2:visible") != welcome
        page.select_option("#game", entry.name)
        page.wait_for_selector(f'body[data-theme="{entry.name}"]')
        page.select_option("#seat-1", "ismcts:1000")
        page.click("#start")
        page.wait_for_selector(IDLE)
        # A bot is named by its menu label, its spec in the tooltip.
        cell = page.locator("#scores tr[data-seat='1'] td").nth(1)
        assert cell.inner_text() == "P1 Search 1000"
        assert cell.get_attribute("title") == "ismcts:1000"
        # One move number: the move to make is 1, the stepper is before it.
        assert page.inner_text("#status") == "Your move (move 1)"
        assert page.inner_text("#step-label") == "Before move 1"


def _finished(entry: GameEntry[Any, Any, Any], players: int = 2) -> dict[str, Any]:
    """The record of a whole game of random bots."""
    game = entry.game(entry.default_rules(players), seed=3)
    bot = entry.make_bot("random", seed=3)
    while not game.over:
        game.play(bot.choose(game))
    record: dict[str, Any] = game.to_record()
    return record


def _load_live(site: str, page: Page, record: dict[str, Any], seats: list[str]) -> str:
    """Load ``record`` as a live game of ``seats`` (``POST /api/games/load``) and show it in
    ``page`` at its address, with its token in the browser; the game's id."""
    body = json.dumps({"record": record, "seats": seats}).encode()
    request = urllib.request.Request(
        f"{site}/api/games/load", body, {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        state = json.loads(response.read())
    page.evaluate(
        "([id, token]) => localStorage.setItem(`indigo-token:${id}`, token)",
        [state["id"], state["token"]],
    )
    page.goto(f"{site}/#/game/{state['id']}")
    page.wait_for_selector(IDLE)
    game_id: str = state["id"]
    return game_id


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_the_end_offers_the_next_bot_level(site: str, entry: GameEntry[Any, Any, Any]) -> None:
    """A finished game against a bot offers the same seats one level up the game's menu."""
    with _open(site, DESKTOP) as page:
        game_id = _load_live(site, page, _finished(entry), ["human", "random"])
        assert page.get_attribute("body", "data-state") == "over"
        assert page.inner_text("#next-level") == "Play the next level: Greedy"
        page.click("#next-level")
        page.wait_for_function(f"location.hash !== '#/game/{game_id}'")
        page.wait_for_selector(IDLE)
        new = _game_id(page)
        seats = _fetch(f"{site}/api/games/{new}", _token(page, new))["seats"]
        assert [s["player"] for s in seats] == ["human", "greedy"]


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_the_move_stepped_to_stays_in_sight_in_the_log(
    site: str, entry: GameEntry[Any, Any, Any]
) -> None:
    """However long the log, the move stepped to is scrolled into the log's view."""
    record = _finished(entry)
    with _open(site, DESKTOP) as page:
        _load_live(site, page, record, ["human", "human"])
        # From the live position (the log scrolled to its end) back to move 1, then on move
        # by move past the log's first screenful.
        page.keyboard.press("Home")
        page.wait_for_selector("#step-label:text-is('Before move 1')")
        for move in range(1, 16):
            page.keyboard.press("ArrowRight")
            page.wait_for_selector(f"#log li.current[data-move='{move}']")
            page.wait_for_selector("body[data-state=viewing]")
            inside = page.evaluate(
                """() => {
                  const log = document.querySelector("#log").getBoundingClientRect();
                  const item = document.querySelector("#log li.current").getBoundingClientRect();
                  return item.top >= log.top - 1 && item.bottom <= log.bottom + 1;
                }"""
            )
            assert inside, move
        assert len(record["moves"]) > 15


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_start_and_close_are_in_sight_on_a_phone(
    site: str, entry: GameEntry[Any, Any, Any]
) -> None:
    """At 390x844 the landing page's Start (with the most seats) and the how-to-play dialog's
    Close are inside the window without scrolling."""
    with _open(site, PHONE, touch=True) as page:
        page.select_option("#game", entry.name)
        page.select_option("#players", "4")
        page.wait_for_selector("#seat-3")
        for selector in ("#start", "#help form button"):
            if selector != "#start":
                page.locator("#help-button").tap()
            box = page.locator(selector).bounding_box()
            assert box is not None
            assert box["y"] >= 0, selector
            assert box["y"] + box["height"] <= PHONE["height"], selector
            assert box["x"] + box["width"] <= PHONE["width"], selector
        page.locator("#help form button").tap()
        assert not page.locator("#help").is_visible()


def _named(page: Page, marks: dict[str, Any]) -> str:
    """The selector of what a move's ``marks`` name on the board: its placed tile (Indigo),
    else its garden cells or its display slots (Queen's Garden)."""
    if "gates" in marks:
        q, r = marks["cells"][0]
        return f'#board g.tile[data-q="{q}"][data-r="{r}"]'
    if marks["cells"]:
        return ", ".join(
            f'#board [data-seat="{marks["seat"]}"][data-cell="{cell}"]' for cell in marks["cells"]
        )
    return ", ".join(f'#board g.slot[data-slot="{slot}"]' for slot in marks["slots"])


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_the_log_points_at_the_board(
    site: str, entry: GameEntry[Any, Any, Any], tmp_path: Path
) -> None:
    """A bot's move is marked on the board; pointing at a log line marks what it names, and
    leaving it unmarks it; each seat's last move is outlined."""
    with _open(site, DESKTOP) as page:
        page.select_option("#game", entry.name)
        page.wait_for_selector(f'body[data-theme="{entry.name}"]')
        page.select_option("#seat-0", "greedy")
        page.select_option("#seat-1", "human")
        page.click("#start")
        page.wait_for_selector(IDLE)
        page.mouse.move(0, 0)  # off the log, which may have come under the pointer
        page.wait_for_selector("#board .named", state="detached")
        state = _fetch(f"{site}/api/games/{_game_id(page)}", _token(page, _game_id(page)))
        assert state["moves"] == 1
        named = _named(page, state["log_marks"][0])
        assert page.locator(named).count() >= 1
        assert page.locator("#board .bot-move").count() == page.locator(named).count()
        assert page.locator("#board .named").count() == 0
        page.hover("#log li >> nth=0")
        page.wait_for_selector("#board .named")
        assert page.locator("#board .named").count() == page.locator(named).count()
        page.mouse.move(0, 0)
        page.wait_for_selector("#board .named", state="detached")

        # A record of eight greedy moves: every line names something that is on the board.
        game = entry.game(entry.default_rules(2), seed=5)
        bot = entry.make_bot("greedy", seed=1)
        for _ in range(8):
            game.play(bot.choose(game))
        path = tmp_path / "record.json"
        path.write_text(json.dumps(game.to_record()), encoding="utf-8")
        page.click("#new-button")
        page.set_input_files("#record-file", str(path))
        page.click("#load")
        page.wait_for_selector(IDLE)
        state = _fetch(f"{site}/api/games/{_game_id(page)}", _token(page, _game_id(page)))
        marks = state["log_marks"]
        assert len(marks) == page.locator("#log li").count() == 8
        for seat in (0, 1):
            last = [m for m in marks if m["seat"] == seat][-1]
            assert page.locator(f"{_named(page, last)}").count() >= 1
            for node in page.locator(_named(page, last)).all():
                assert "seat-last" in (node.get_attribute("class") or "")
        for index, mark in enumerate(marks):
            page.hover(f"#log li >> nth={index}")
            page.wait_for_selector("#board .named")
            for node in page.locator(_named(page, mark)).all():
                assert "named" in (node.get_attribute("class") or ""), (index, mark)
        # A click (a tap on a phone) steps to the position after that move and marks it there.
        page.click("#log li >> nth=3")
        page.wait_for_selector("body[data-state=viewing]")
        assert page.inner_text("#step-label") == "After move 4 of 8"
        for node in page.locator(_named(page, marks[3])).all():
            assert "named" in (node.get_attribute("class") or "")


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_the_coach_of_a_first_game(site: str, entry: GameEntry[Any, Any, Any]) -> None:
    """Asked for (tests see it only so), the coach points at what to do first, beside it and
    in sight, steps on with Next, and once done is marked done for that game; unasked, a
    test's browser never sees it."""
    with _open(site, DESKTOP) as page:
        page.select_option("#game", entry.name)
        page.click("#start")
        page.wait_for_selector(IDLE)
        assert page.locator("#coach").is_hidden()
        page.evaluate("localStorage.setItem('indigo-coach', 'always')")
        page.click("#new-button")
        page.select_option("#game", entry.name)
        page.click("#start")
        page.wait_for_selector("#coach:not([hidden])")
        steps = 0
        while True:
            coach = _box(page, "#coach")
            assert coach["y"] >= 0
            assert coach["y"] + coach["height"] <= DESKTOP["height"]
            assert coach["x"] >= 0
            assert coach["x"] + coach["width"] <= DESKTOP["width"]
            assert page.locator(".coached").count() == 1
            assert page.get_attribute("#coach", "data-step") == str(steps)
            assert not re.search(r"\b[A-Z]{4,}\b", page.inner_text("#coach-text"))  # filled in
            steps += 1
            if page.locator("#coach-next").is_hidden():
                break
            page.click("#coach-next")
        assert steps == 3
        page.click("#coach-done")
        assert page.locator("#coach").is_hidden()
        assert page.locator(".coached").count() == 0
        done = page.evaluate(f"localStorage.getItem('indigo-coached:{entry.name}')")
        assert done == "done"
