"""Queen's Garden on the web page in a real browser (Debian's chromium through playwright): a
whole game against the random bot by clicks (desktop) and taps (phone). Every turn the page's
choices are checked against the server's legal moves."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from indigo import queens_garden as qg
from indigo.queens_garden.narration import ATTRIBUTE_WORDS, move_lines
from indigo.queens_garden.svg import game_at
from test_web_browser import (
    DESKTOP,
    IDLE,
    OUTPUT,
    PHONE,
    _fetch,
    _game_id,
    _load_live,
    _open,
    _token,
)
from web_server import live_server

pytestmark = pytest.mark.slow  # left out of scripts/check --quick


@pytest.fixture(scope="module")
def site() -> Any:
    with live_server() as url:
        yield url


def _press(page: Page, selector: str, touch: bool) -> None:
    locator = page.locator(selector).first
    locator.scroll_into_view_if_needed()
    if touch:
        locator.tap()
    else:
        locator.click()


def _answer_questions(page: Page, rng: random.Random, touch: bool) -> None:
    """Answer every question the page asks (slots, payments) by a random option."""
    while (
        page.get_attribute("body", "data-state") == "your-turn"
        and page.locator("#qg-question").is_visible()
    ):
        options = page.locator("#qg-options button")
        count = options.count()
        assert count >= 2
        _press(page, f"#qg-options button >> nth={rng.randrange(count)}", touch)


def _one_turn(
    page: Page, state: dict[str, Any], rng: random.Random, touch: bool, prefer_exp: bool
) -> str:
    """Make one move by clicks (an expansion's placement first when ``prefer_exp``); what kind
    of move it was."""
    seat = state["to_move"]
    choices = state["choices"]
    enabled = {
        b.get_attribute("data-attribute")
        for b in page.locator("#qg-take button").all()
        if b.is_enabled()
    }
    assert enabled == set(choices["take"])
    for attribute, reason in state["take_refusals"].items():  # a disabled button says why
        title = page.get_attribute(f'#qg-take button[data-attribute="{attribute}"]', "title")
        assert title is not None
        empty = f"no hexagon in the display shows {attribute}: the selection is empty"
        words = f"no {ATTRIBUTE_WORDS[attribute]} hexagon is in the display"
        assert title.endswith(f": not now, {words if reason == empty else reason}")
    roll = rng.random()
    placements = [(a, k) for a in ("tile", "exp") for k in choices[a]]
    if choices["exp"] and prefer_exp:
        action, kind = "exp", sorted(choices["exp"])[0]
    elif placements and roll < 0.55:
        action, kind = rng.choice(placements)
    else:
        action = ""
    if action:
        node = "stored-tile" if action == "tile" else "stored-expansion"
        _press(page, f'#board g.{node}[data-seat="{seat}"][data-kind="{kind}"]', touch)
        outlined = {
            c.get_attribute("data-cell")
            for c in page.locator(f'#board polygon.legal[data-seat="{seat}"]').all()
        }
        assert outlined == set(choices[action][kind]), (action, kind)
        cell = rng.choice(sorted(outlined))
        _press(page, f'#board polygon[data-seat="{seat}"][data-cell="{cell}"]', touch)
        _answer_questions(page, rng, touch)
        return action
    if choices["take"] and roll < 0.9:
        attribute = rng.choice(sorted(choices["take"]))
        _press(page, f'#qg-take button[data-attribute="{attribute}"]', touch)
        _answer_questions(page, rng, touch)
        return "take"
    if choices["buy"] and roll < 0.93:
        _press(page, "#qg-buy", touch)
        _answer_questions(page, rng, touch)
        return "buy"
    stored = page.locator(f'#board g.stored-tile[data-seat="{seat}"]')
    if stored.count() and rng.random() < 0.5:  # pass discarding one stored tile
        _press(page, "#qg-discard", touch)
        _press(page, f'#board g.stored-tile[data-seat="{seat}"] >> nth=0', touch)
    _press(page, "#qg-pass", touch)
    return "pass"


@pytest.mark.parametrize(
    ("viewport", "touch", "name"),
    [(DESKTOP, False, "desktop"), (PHONE, True, "phone")],
    ids=["1280x720", "390x844"],
)
def test_play_a_whole_queens_garden_game(
    site: str, viewport: dict[str, int], touch: bool, name: str
) -> None:
    rng = random.Random(17)
    with _open(site, viewport, touch=touch) as page:
        page.select_option("#game", "queens-garden")
        page.wait_for_selector("#seat-1 option[value=random]", state="attached")
        page.select_option("#seat-1", "random")
        page.fill("#seed", "12")
        _press(page, "#start", touch)
        page.wait_for_selector(IDLE)
        assert page.get_attribute("body", "data-theme") == "queens-garden"
        page.select_option("#speed", "0")
        game_id = _game_id(page)
        token = _token(page, game_id)
        if not touch:  # the turn's controls are in sight without scrolling
            for control in ("#qg-take button", "#qg-pass", "#undo"):
                box = page.locator(control).first.bounding_box()
                assert box is not None
                assert box["y"] + box["height"] <= viewport["height"], control
        else:  # big enough to tap; the narrow picture fills the width, one seat under another
            for control in ("#qg-take button", "#qg-pass", "#undo"):
                box = page.locator(control).first.bounding_box()
                assert box is not None
                assert min(box["width"], box["height"]) >= 44, control
            board = page.locator("#board svg.queens-garden").bounding_box()
            assert board is not None
            assert viewport["width"] * 0.9 <= board["width"] <= viewport["width"]
            space = page.locator('#board polygon.free[data-seat="0"]').first.bounding_box()
            assert space is not None
            assert space["width"] >= 42, space  # a hexagon: 45 units at 390 units to ~380 px

        made: dict[str, int] = {}
        undone = reloaded = offered_exp = False
        turns = 0
        while page.get_attribute("body", "data-state") != "over":
            state = _fetch(f"{site}/api/games/{game_id}", token)
            assert page.locator("#log li").count() == state["moves"]
            offered_exp = offered_exp or bool(state["choices"]["exp"])
            kind = _one_turn(page, state, rng, touch, prefer_exp=not made.get("exp"))
            page.wait_for_selector(IDLE)
            after = _fetch(f"{site}/api/games/{game_id}", token)
            assert after["moves"] > state["moves"], f"the {kind} was not played"
            made[kind] = made.get(kind, 0) + 1
            turns += 1
            assert turns < 300
            if turns == 4 and not undone and not after["over"]:
                _press(page, "#undo", touch)
                page.wait_for_function(
                    f"document.querySelectorAll('#log li').length < {after['moves']}"
                )
                page.wait_for_selector(IDLE)
                back = _fetch(f"{site}/api/games/{game_id}", token)
                assert back["moves"] < after["moves"]
                assert back["to_move"] == 0
                assert "Took back" in page.inner_text("#message")
                undone = True
            if turns == 8 and not reloaded and not after["over"]:
                OUTPUT.mkdir(exist_ok=True)
                page.screenshot(path=str(OUTPUT / f"web-qg-{name}-midgame.png"))
                page.reload()
                page.wait_for_selector(IDLE)
                assert _game_id(page) == game_id
                shown = page.get_attribute("#board svg.queens-garden", "data-moves")
                assert shown == str(after["moves"])
                assert "resumed" in page.inner_text("#message")
                reloaded = True
        assert undone
        assert reloaded
        assert made.get("take", 0) > 0
        assert made.get("tile", 0) > 0
        assert made.get("pass", 0) >= 4
        assert offered_exp  # and then placed on a petal of an empty area:
        assert made.get("exp", 0) >= 1
        page.screenshot(path=str(OUTPUT / f"web-qg-{name}-finished.png"), full_page=touch)

        # The end the page shows is the engine's replay of the server's record.
        record = _fetch(f"{site}/api/games/{game_id}/record", token)
        game = qg.Game.from_record(record)
        assert game.over
        rows = page.locator("#scores tr")
        assert [int(rows.nth(i).get_attribute("data-score") or -1) for i in range(2)] == game.scores
        winners = page.get_attribute("#winner", "data-winners") or ""
        assert [int(s) for s in winners.split()] == game.winners
        verdict = "win" if game.winners == [0] else "lose" if 0 not in game.winners else "share"
        assert page.inner_text("#result").startswith(f"You {verdict}")
        assert page.locator("#play-again").is_visible()
        assert page.locator("#log li").count() == game.moves_played


def test_load_a_queens_garden_record_and_step_through_it(site: str, tmp_path: Path) -> None:
    game = qg.Game(qg.Rules(3), seed=4)
    bot = qg.make_bot("random", seed=4)
    for _ in range(6):
        game.play(bot.choose(game))
    path = tmp_path / "record.json"
    path.write_text(game.record_json(), encoding="utf-8")
    with _open(site, DESKTOP) as page:
        page.set_input_files("#record-file", str(path))
        page.click("#load")
        page.wait_for_selector(IDLE)
        board = "#board svg.queens-garden"
        assert page.get_attribute(board, "data-moves") == "6"
        assert page.get_attribute("body", "data-theme") == "queens-garden"
        assert page.locator("#scores tr").count() == 3
        assert page.locator("#qg-panel").is_visible()  # all seats are people: P0 is to move
        page.click("#step-first")
        page.wait_for_selector(f'{board}[data-moves="0"]')
        assert page.locator("#board g.tile").count() == 0
        assert not page.locator("#qg-panel").is_visible()
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'{board}[data-moves="1"]')
        told = move_lines(1, game_at(game, 0), game.moves[0], game_at(game, 1))
        assert page.inner_text("#message").startswith(" ".join(told[0].split()))
        page.click("#step-live")
        page.wait_for_selector(f'{board}[data-moves="6"]')
        page.wait_for_selector(IDLE)


# ---------------------------------------------------------------------------------------------
# On a phone (390x844, taps): the turn is an action bar fixed at the bottom of the window.


def _in_view(page: Page, selector: str) -> list[str]:
    """The visible elements of ``selector`` that are not wholly inside the viewport as the page
    stands (nothing is scrolled to find them): each as its text."""
    outside: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
          .filter((e) => e.getClientRects().length > 0)
          .filter((e) => {
            const r = e.getBoundingClientRect();
            return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth;
          })
          .map((e) => e.id || e.textContent.trim() || e.outerHTML.slice(0, 60))""",
        selector,
    )
    return outside


def _tap_in_page(page: Page, selector: str) -> None:
    """Tap an element of the page itself (the board), brought to the top of the window first,
    clear of the action bar."""
    locator = page.locator(selector).first
    locator.evaluate("(e) => { e.scrollIntoView({block: 'start'}); scrollBy(0, -8); }")
    locator.tap()


def _tap_payment(page: Page, seat: int, label: str) -> None:
    """Pay ``label`` (a payment's notation) by tapping the highlighted stored hexagons."""
    for token in label.split():
        if token == "*":
            node = f'#board g.joker.offered[data-seat="{seat}"]:not(.paying)'
        elif token.endswith("x"):
            node = (
                f'#board g.stored-expansion.offered[data-seat="{seat}"][data-kind="{token[:-1]}"]'
            )
        else:
            node = f'#board g.stored-tile.offered[data-seat="{seat}"][data-kind="{token}"]'
        _tap_in_page(page, f"{node}:not(.paying)")


def test_a_whole_queens_garden_game_by_taps_on_a_phone(site: str) -> None:
    """Every question and its buttons are inside the window without scrolling; payments are
    made by tapping the offered stored hexagons; the final breakdown adds up to the scores."""
    rng = random.Random(5)
    with _open(site, PHONE, touch=True) as page:
        page.select_option("#game", "queens-garden")
        page.wait_for_selector("#seat-1 option[value=random]", state="attached")
        assert _in_view(page, "#start") == []  # the landing page's Start, without scrolling
        page.locator("#welcome-help").tap()
        assert _in_view(page, "#help form button") == []  # and the help's Close
        page.locator("#help form button").tap()
        page.select_option("#seat-1", "random")
        page.fill("#seed", "21")
        page.locator("#start").tap()
        page.wait_for_selector(IDLE)
        game_id = _game_id(page)
        token = _token(page, game_id)
        seat = 0
        questions = paid_by_taps = turns = since_pass = 0
        while page.get_attribute("body", "data-state") != "over":
            state = _fetch(f"{site}/api/games/{game_id}", token)
            choices = state["choices"]
            page.evaluate("scrollTo(0, document.body.scrollHeight * Math.random())")
            assert _in_view(page, "#status, #qg-panel button, #undo") == []
            # Placements, those that ask how to pay first.
            placements = sorted(
                ((a, k, c) for a in ("tile", "exp") for k in choices[a] for c in choices[a][k]),
                key=lambda p: (choices[p[0]][p[1]][p[2]].get("topic") != "payment", rng.random()),
            )
            if placements and (rng.random() < 0.5 or since_pass >= 6):
                action, kind, cell = placements[0]
                node = "stored-tile" if action == "tile" else "stored-expansion"
                _tap_in_page(page, f'#board g.{node}[data-seat="{seat}"][data-kind="{kind}"]')
                _tap_in_page(page, f'#board polygon[data-seat="{seat}"][data-cell="{cell}"]')
            elif choices["take"] and since_pass < 6:
                attribute = rng.choice(sorted(choices["take"]))
                page.locator(f'#qg-take button[data-attribute="{attribute}"]').tap()
            else:
                page.locator("#qg-pass").tap()
                since_pass = -1
            since_pass += 1
            while (
                page.get_attribute("body", "data-state") == "your-turn"
                and page.locator("#qg-question").is_visible()
            ):  # a question: it and its buttons are in sight as they stand
                questions += 1
                assert _in_view(page, "#qg-prompt, #qg-options button:not([hidden])") == []
                labels = [
                    b.get_attribute("data-option") or ""
                    for b in page.locator("#qg-options button").all()
                ]
                label = rng.choice(labels)
                if page.locator("#board .offered").count() and label != "nothing":
                    _tap_payment(page, seat, label)
                    paid_by_taps += 1
                else:
                    page.locator(f'#qg-options button[data-option="{label}"]').tap()
            page.wait_for_selector(IDLE)
            turns += 1
            assert turns < 400
        assert questions > 0
        assert paid_by_taps > 0

        # The end: the breakdown's parts add up to each final score, which is the engine's.
        record = _fetch(f"{site}/api/games/{game_id}/record", token)
        game = qg.Game.from_record(record)
        final = game.final_scoring
        assert final is not None
        assert page.locator("#breakdown tbody tr[data-part^=round]").count() == 4
        for s in range(2):
            parts = page.locator(f"#breakdown tbody tr:not(.total) td[data-seat='{s}']")
            points = [
                int(parts.nth(i).get_attribute("data-points") or "x") for i in range(parts.count())
            ]
            total = page.get_attribute(f"#breakdown tr.total td[data-seat='{s}']", "data-total")
            shown = page.get_attribute(f"#scores tr[data-seat='{s}']", "data-score")
            assert sum(points) == int(total or "x") == int(shown or "x") == game.scores[s]
            storage = f"#breakdown tr[data-part=storage] td[data-seat='{s}']"
            assert int(page.get_attribute(storage, "data-points") or "x") == final[s]["storage"]
        assert _in_view(page, "#result, #play-again, #next-level") == []
        assert page.inner_text("#next-level") == "Play the next level: Greedy"
        page.locator("#next-level").tap()
        page.wait_for_selector(IDLE)
        assert (
            _fetch(f"{site}/api/games/{_game_id(page)}", _token(page, _game_id(page)))["seats"][1][
                "player"
            ]
            == "greedy"
        )


def _four_seats(site: str, page: Page) -> None:
    """A four-player game 20 moves in (seeded random bots), loaded with a person in seat 0
    to move and bots in the others, shown in ``page``."""
    game = qg.Game(qg.Rules(4), seed=8)
    bot = qg.make_bot("random", seed=8)
    while game.moves_played < 20 or game.to_move != 0:
        game.play(bot.choose(game))
    _load_live(site, page, game.to_record(), ["human", "random", "greedy", "random"])
    # The page may report its turn a frame before it has drawn the loaded game's four seats.
    page.wait_for_function("() => document.querySelectorAll('#board g.seat').length === 4")


def _seat_boxes(page: Page) -> list[dict[str, float] | None]:
    return [page.locator(f"#board g.seat[data-seat='{s}']").bounding_box() for s in range(4)]


def test_four_seats_two_by_two_on_a_laptop(site: str) -> None:
    with _open(site, {"width": 1366, "height": 768}) as page:
        _four_seats(site, page)
        boxes = _seat_boxes(page)
        assert all(b is not None for b in boxes)
        at = [  # where each seat is drawn, in the picture's units
            page.evaluate(
                "(s) => { const m = document.querySelector(`#board g.seat[data-seat='${s}']`)"
                ".transform.baseVal.consolidate().matrix; return [m.e, m.f]; }",
                s,
            )
            for s in range(4)
        ]
        xs = sorted({round(x) for x, _ in at})
        ys = sorted({round(y) for _, y in at})
        assert len(xs) == 2, xs  # two by two
        assert len(ys) == 2, ys
        board = page.locator("#board").bounding_box()
        assert board is not None
        for b in boxes:  # inside the board's space, nothing to scroll
            assert b is not None
            assert b["y"] + b["height"] <= board["y"] + board["height"] + 1
            assert b["x"] + b["width"] <= board["x"] + board["width"] + 1
        # Bigger than in one row (a seat 250 units wide, four of them in 1060).
        assert boxes[0] is not None
        assert boxes[0]["width"] > board["width"] * 250 / 1060
        assert not page.locator("#qg-display").is_visible()  # the picture's display is in sight


def test_bots_gardens_fold_away_on_a_phone(site: str) -> None:
    with _open(site, PHONE, touch=True) as page:
        _four_seats(site, page)
        for s in range(1, 4):  # folded once the page has laid the phone's board out
            page.wait_for_selector(f"#board g.seat[data-seat='{s}']", state="hidden")
        shown = [page.locator(f"#board g.seat[data-seat='{s}']").is_visible() for s in range(4)]
        assert shown == [True, False, False, False]
        height = page.evaluate("document.querySelector('#board svg').viewBox.baseVal.height")
        button = page.locator("#scores tr[data-seat='2'] button.fold")
        assert button.get_attribute("aria-expanded") == "false"
        button.tap()
        assert page.locator("#board g.seat[data-seat='2']").is_visible()
        assert page.evaluate("document.querySelector('#board svg').viewBox.baseVal.height") > height
        assert (
            page.get_attribute("#scores tr[data-seat='2'] button.fold", "aria-expanded") == "true"
        )
        # The display beside the take buttons: the slots that hold something.
        slots = page.locator("#qg-display g.slot")
        assert (
            slots.count()
            == page.locator(
                "#board g.display g.slot:is([data-state=top], [data-state=down], [data-state=up])"
            ).count()
        )
