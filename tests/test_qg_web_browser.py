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
from indigo.queens_garden.narration import move_lines
from indigo.queens_garden.svg import game_at
from test_web_browser import DESKTOP, IDLE, OUTPUT, PHONE, _fetch, _game_id, _open, _token
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
        assert title.endswith(f": not now, {reason}")
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
