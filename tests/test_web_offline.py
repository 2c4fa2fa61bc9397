"""The offline page in a real browser: whole games of every game with the engine in WebAssembly.

``scripts/build-web`` builds the page into a folder of static files; a plain static file server
(``python -m http.server``, no indigo server anywhere) serves it on a free loopback port, and
Debian's chromium (through playwright, as in ``test_web_browser.py``) plays a whole Indigo game
and a whole Queen's Garden game by clicks against searching bots, which run in the page's Web
Worker. The record the page saves is then replayed by the native engine: both engines must
agree on every move and the result.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

import indigo
from indigo import queens_garden as qg
from indigo.games import GAMES, QUEENS_GARDEN
from indigo.table import QG_BOT_MENU
from test_qg_web_browser import _one_turn
from web_server import keyed_client

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
IDLE = "body[data-state=your-turn], body[data-state=over]"
SEED = 11
QG_SEED = 12  # a deal where the page is offered an expansion to place


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The offline page, freshly built from this checkout (cargo rebuilds only what changed)."""
    out = tmp_path_factory.mktemp("web")
    subprocess.run(
        [str(ROOT / "scripts" / "build-web"), str(out)],
        check=True,
        env={**os.environ, "PYTHON": sys.executable},
    )
    return out


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def static_site(bundle: Path) -> Iterator[str]:
    """``bundle`` served by ``python -m http.server``: static files and nothing else."""
    port = _free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    server = subprocess.Popen(
        [*command, "--directory", str(bundle)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(url + "/", timeout=5) as response:
                    assert response.status == 200
                break
            assert time.monotonic() < deadline, "the static server did not start"
            time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextlib.contextmanager
def _open(url: str) -> Iterator[Page]:
    assert Path(CHROMIUM).is_file(), "chromium is missing: scripts/setup installs it"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(
            viewport={"width": 1400, "height": 1000}, accept_downloads=True
        )
        page = context.new_page()
        page.set_default_timeout(60_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url + "/")
        page.wait_for_selector("#seat-1 option[value='ismcts:200']", state="attached")
        yield page
        assert errors == [], f"JavaScript errors: {errors}"
        browser.close()


def test_the_static_server_has_no_api(static_site: str) -> None:
    """Nothing answers the server's routes: whatever the page plays, it plays by itself."""
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(static_site + "/api/bots", timeout=10)
    assert missing.value.code in (404, 501)


def test_a_bad_move_is_refused_with_the_engines_message(static_site: str) -> None:
    """The worker answers an illegal request as the server would: a 4xx and the reason."""
    with _open(static_site) as page:
        page.select_option("#seat-1", "greedy")
        page.fill("#seed", str(SEED))
        page.click("#start")
        page.wait_for_selector(IDLE)
        answer = page.evaluate(
            """async () => {
                const game = location.hash.split("/").pop();
                const response = await offlineFetch("POST", `/api/games/${game}/moves`,
                    {seat: 0, move: "0@0:9,9"});
                return [response.status, (await response.json()).error];
            }"""
        )
        assert answer[0] == 400
        assert "9" in answer[1]  # the engine's words on the cell off the board
        assert page.locator("#log li").count() == 0


def test_play_a_whole_game_offline(static_site: str, tmp_path: Path) -> None:
    """A whole game against ISMCTS by clicks, with an undo and a reload on the way; the record
    the page saves replays in the native engine to the same position, scores and winners."""
    with _open(static_site) as page:
        assert page.get_attribute("html", "data-mode") == "offline"
        for entry in GAMES:  # the offline form offers every game, as the server's does
            assert page.locator(f"#game option[value='{entry.name}']").count() == 1
        page.select_option("#seat-1", "ismcts:200")
        page.fill("#seed", str(SEED))
        page.click("#start")
        page.wait_for_selector(IDLE)
        page.select_option("#speed", "0")
        moves_made = 0
        undone = reloaded = False
        while page.get_attribute("body", "data-state") != "over":
            legal = page.locator("#board polygon.cell.legal")
            turns = 0
            while legal.count() == 0:  # this tile fits nowhere at this rotation: turn it
                page.click("#rotate-right")
                turns += 1
                assert turns < 6, "no legal cell at any rotation"
            before = page.locator("#log li").count()
            legal.first.click()
            moves_made += 1
            page.wait_for_selector(IDLE)
            after = page.locator("#log li").count()
            assert after > before  # my move, and the bot's reply unless the game ended
            assert moves_made <= 40
            if (
                moves_made == 3
                and not undone
                and page.get_attribute("body", "data-state") != "over"
            ):
                page.click("#undo")
                page.wait_for_function(f"document.querySelectorAll('#log li').length < {after}")
                page.wait_for_selector(IDLE)
                assert "Took back 2 moves" in page.inner_text("#message")
                assert page.locator("#log li").count() == after - 2
                undone = True
            if moves_made == 5 and not reloaded:  # a reload restores the game the page kept
                shown = page.locator("#log li").count()
                page.reload()
                page.wait_for_selector(IDLE)
                assert "resumed" in page.inner_text("#message")
                assert page.locator("#log li").count() == shown
                reloaded = True
        assert undone
        assert reloaded

        with page.expect_download() as saving:
            page.click("#download")
        saved = tmp_path / "offline.json"
        saving.value.save_as(saved)
        record = json.loads(saved.read_text(encoding="utf-8"))

        # The native engine replays the browser's game: the same deal, moves and result.
        game = indigo.Game.from_record(record)
        assert game.over
        assert record["seed"] == SEED
        assert game.pile == indigo.Game(game.rules, seed=SEED).pile
        rows = page.locator("#scores tr")
        shown = [int(rows.nth(i).get_attribute("data-score") or -1) for i in range(2)]
        assert shown == game.scores
        winners = page.get_attribute("#winner", "data-winners") or ""
        assert [int(s) for s in winners.split()] == game.winners
        assert page.locator("#log li").count() == len(game.moves)
        board = page.locator("#board svg.indigo-board")
        assert board.get_attribute("data-moves") == str(len(game.moves))
        assert page.locator("#board g.tile").count() == len(game.board)
        assert "no gem is left on the board" in page.inner_text("#end-reason")


NODE_SCRIPT = """
import { readFileSync } from "node:fs";
const pkg = process.argv[2];
const w = await import(pkg + "/indigo_wasm.js");
await w.default({ module_or_path: readFileSync(pkg + "/indigo_wasm_bg.wasm") });
const out = {};
const game = new w.Game(w.Rules.preset("indigo", 2), 3);
const legal = game.legalMoves();
// A time budget reads the host's clock (Instant::now would trap on wasm32).
out.timed = new w.Bot("ismcts:time=0.05", 1).choose(game);
out.timed_legal = legal.includes(out.timed);
const errors = (f) => {
  try { f(); return null; } catch (e) { return [e instanceof Error, e.message]; }
};
out.bad_cell = errors(() => game.play("1@0:9,9"));
out.bad_spec = errors(() => new w.Bot("wizard", 1));
out.threads = errors(() => new w.Bot("ismcts:100,threads=2", 1));
out.bad_seed = errors(() => new w.Game(w.Rules.preset("indigo", 2), 1.5));
out.no_undo = errors(() => game.undo());
const bots = [new w.Bot("greedy", 5), new w.Bot("ismcts:50", 6)];
while (!game.over) game.play(bots[game.toMove].choose(game));
out.record = game.record();
out.scores = [...game.scores];
const garden = new w.Garden(2, 4);
const gardenBot = new w.GardenBot("greedy", 2);
while (!garden.over) garden.play(gardenBot.choose(garden));
out.garden_record = garden.record();
out.garden_scores = [...garden.scores];
console.log(JSON.stringify(out));
"""


def test_the_module_under_node(bundle: Path, tmp_path: Path) -> None:
    """The WebAssembly module driven from node: a time budget ends, refusals are Errors with
    the engine's messages, and whole games of both games replay natively to the same scores."""
    script = tmp_path / "drive.mjs"
    script.write_text(NODE_SCRIPT, encoding="utf-8")
    pkg = bundle / "static" / "offline" / "pkg"
    done = subprocess.run(
        ["node", str(script), str(pkg)], check=True, capture_output=True, text=True, timeout=300
    )
    out = json.loads(done.stdout)
    assert out["timed_legal"] is True
    assert out["bad_cell"] == [True, "cell (9,9) is not on the board"]
    assert out["bad_spec"][0] is True
    assert out["bad_spec"][1].startswith('bad bot "wizard": unknown bot')
    assert out["threads"] == [
        True,
        'bad bot "ismcts:100,threads=2": threads must be 1 in WebAssembly (it runs on one thread)',
    ]
    assert out["bad_seed"] == [True, "seed must be a whole number from 0 to 2^53 - 1, not 1.5"]
    assert out["no_undo"] == [True, "no move to undo"]
    game = indigo.Game.from_record(out["record"])
    assert game.over
    assert game.pile == indigo.Game(game.rules, seed=3).pile
    assert game.scores == out["scores"]
    garden = indigo.queens_garden.Game.from_record(out["garden_record"])
    assert garden.over
    assert garden.scores == out["garden_scores"]


SAME_JSON_SCRIPT = """
import { readFileSync } from "node:fs";
const [bundle, request] = process.argv.slice(2);
const offline = bundle + "/static/offline";
const wasm = await import(offline + "/pkg/indigo_wasm.js");
await wasm.default({ module_or_path: readFileSync(offline + "/pkg/indigo_wasm_bg.wasm") });
const { OfflineServer } = await import(offline + "/engine.js");
const server = new OfflineServer(wasm, JSON.parse(readFileSync(offline + "/data.json")));
const answers = [];
let created = await server.handle("POST", "/api/games", JSON.parse(request));
answers.push(created.data);
const id = created.data.id;
let state = created.data;
while (!state.over) {
  const tile = Object.keys(state.legal)[0];
  const rotation = Object.keys(state.legal[tile]).find((r) => state.legal[tile][r].length);
  const [q, r] = state.legal[tile][rotation][0];
  const bad = {seat: state.to_move, move: "0@0:9,9"};  // refused, and now and then compared
  const refused = await server.handle("POST", `/api/games/${id}/moves`, bad);
  if (state.log.length % 7 === 3) answers.push(refused.data);
  const played = await server.handle(
    "POST", `/api/games/${id}/moves`, {seat: state.to_move, move: `${tile}@${rotation}:${q},${r}`});
  answers.push(played.data);
  state = played.data.state;
}
answers.push((await server.handle("GET", `/api/games/${id}/view?move=5`)).data);
answers.push((await server.handle("POST", `/api/games/${id}/undo`)).data);
console.log(JSON.stringify(answers));
"""


def _without_ids(value: object) -> object:
    """``value`` with each game's ``id`` and ``token`` left out (random on both sides)."""
    if isinstance(value, dict):
        return {k: _without_ids(v) for k, v in value.items() if k not in ("id", "token")}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


@pytest.mark.parametrize(
    "request_body",
    [
        {"seats": ["human", "human"], "seed": 7},
        {"seats": ["human"] * 3, "seed": 8, "theme": "butterfly-garden", "gates": "exclusive"},
    ],
    ids=["indigo-2", "garden-3-exclusive"],
)
def test_the_worker_answers_as_the_server(
    bundle: Path, tmp_path: Path, request_body: dict[str, object]
) -> None:
    """A whole game of people through the offline server and through the real one: every
    answer (states, board pictures, logs, results, a refusal, a past view, an undo) is the
    same JSON but for the games' random ids and tokens."""
    script = tmp_path / "same.mjs"
    script.write_text(SAME_JSON_SCRIPT, encoding="utf-8")
    done = subprocess.run(
        ["node", str(script), str(bundle), json.dumps(request_body)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    offline = json.loads(done.stdout)

    client = keyed_client()
    answers: list[object] = []
    state = client.post("/api/games", json=request_body).json()
    answers.append(state)
    game_id = state["id"]
    while not state["over"]:
        tile = next(iter(state["legal"]))
        rotation = next(r for r, cells in state["legal"][tile].items() if cells)
        q, r = state["legal"][tile][rotation][0]
        bad = client.post(
            f"/api/games/{game_id}/moves", json={"seat": state["to_move"], "move": "0@0:9,9"}
        )
        if len(state["log"]) % 7 == 3:
            answers.append(bad.json())
        move = f"{tile}@{rotation}:{q},{r}"
        played = client.post(
            f"/api/games/{game_id}/moves", json={"seat": state["to_move"], "move": move}
        ).json()
        answers.append(played)
        state = played["state"]
    answers.append(client.get(f"/api/games/{game_id}/view?move=5").json())
    answers.append(client.post(f"/api/games/{game_id}/undo").json())
    assert len(offline) == len(answers) > 20
    for mine, theirs in zip(offline, answers, strict=True):
        assert _without_ids(mine) == _without_ids(theirs)


def _offline_state(page: Page, game_id: str) -> Any:
    """The game's state as the page's worker answers it."""
    return page.evaluate(
        """async (id) => (await offlineFetch("GET", `/api/games/${id}`)).json()""", game_id
    )


def test_play_a_whole_queens_garden_game_offline(static_site: str, tmp_path: Path) -> None:
    """A whole Queen's Garden game against ISMCTS by clicks (takes, placements with their
    questions, an expansion, buys, passes), with an undo and a reload on the way, the bot menu
    the server's; the record the page saves replays natively to the same scores and winners."""
    rng = random.Random(17)
    with _open(static_site) as page:
        page.select_option("#game", QUEENS_GARDEN.name)
        offered = page.locator("#seat-1 option").evaluate_all("os => os.map((o) => o.value)")
        assert offered == ["human", *(choice.spec for choice in QG_BOT_MENU)]
        page.select_option("#seat-1", "ismcts:300")
        page.fill("#seed", str(QG_SEED))
        page.click("#start")
        page.wait_for_selector(IDLE)
        assert page.get_attribute("body", "data-theme") == QUEENS_GARDEN.name
        page.select_option("#speed", "0")
        game_id = page.url.rsplit("/", 1)[-1]
        made: dict[str, int] = {}
        undone = reloaded = offered_exp = False
        turns = 0
        while page.get_attribute("body", "data-state") != "over":
            state = _offline_state(page, game_id)
            assert page.locator("#log li").count() == state["moves"]
            offered_exp = offered_exp or bool(state["choices"]["exp"])
            kind = _one_turn(page, state, rng, False, prefer_exp=not made.get("exp"))
            page.wait_for_selector(IDLE)
            after = _offline_state(page, game_id)
            assert after["moves"] > state["moves"], f"the {kind} was not played"
            made[kind] = made.get(kind, 0) + 1
            turns += 1
            assert turns < 300
            if turns == 4 and not undone and not after["over"]:
                page.click("#undo")
                page.wait_for_function(
                    f"document.querySelectorAll('#log li').length < {after['moves']}"
                )
                page.wait_for_selector(IDLE)
                back = _offline_state(page, game_id)
                assert back["moves"] < after["moves"]
                assert back["to_move"] == 0
                assert "Took back" in page.inner_text("#message")
                undone = True
            if turns == 8 and not reloaded and not after["over"]:
                page.reload()  # the worker forgets; the page restores the game it kept
                page.wait_for_selector(IDLE)
                shown = page.get_attribute("#board svg.queens-garden", "data-moves")
                assert shown == str(after["moves"])
                assert "resumed" in page.inner_text("#message")
                reloaded = True
        assert undone
        assert reloaded
        assert made.get("take", 0) > 0
        assert made.get("tile", 0) > 0
        assert offered_exp  # and then placed on a petal of an empty area:
        assert made.get("exp", 0) >= 1
        assert made.get("pass", 0) >= 4

        with page.expect_download() as saving:
            page.click("#download")
        saved = tmp_path / "offline-qg.json"
        saving.value.save_as(saved)
        record = json.loads(saved.read_text(encoding="utf-8"))

        # The native engine replays the browser's game: the same deal, moves and result.
        game = qg.Game.from_record(record)
        assert game.over
        assert record["seed"] == QG_SEED
        assert record["bag"] == qg.Game(qg.Rules(2), seed=QG_SEED).to_record()["bag"]
        rows = page.locator("#scores tr")
        shown_scores = [int(rows.nth(i).get_attribute("data-score") or -1) for i in range(2)]
        assert shown_scores == game.scores
        winners = page.get_attribute("#winner", "data-winners") or ""
        assert [int(s) for s in winners.split()] == game.winners
        assert page.locator("#log li").count() == game.moves_played
        board = page.locator("#board svg.queens-garden")
        assert board.get_attribute("data-moves") == str(game.moves_played)
        assert page.locator("#board g.tile").count() == sum(len(g["tiles"]) for g in game.gardens)


QG_SAME_JSON_SCRIPT = """
import { readFileSync } from "node:fs";
const [bundle, request] = process.argv.slice(2);
const offline = bundle + "/static/offline";
const wasm = await import(offline + "/pkg/indigo_wasm.js");
await wasm.default({ module_or_path: readFileSync(offline + "/pkg/indigo_wasm_bg.wasm") });
const { OfflineServer } = await import(offline + "/engine.js");
const server = new OfflineServer(wasm, JSON.parse(readFileSync(offline + "/data.json")));
// Move n: option (7 n) of every placement, take, buy and pass, then answer n of each question.
function pick(choices, n) {
  const options = [];
  for (const action of ["tile", "exp"]) {
    for (const kind of Object.keys(choices[action]).sort()) {
      const cells = choices[action][kind];
      for (const cell of Object.keys(cells).sort()) options.push(cells[cell]);
    }
  }
  for (const attribute of Object.keys(choices.take).sort()) options.push(choices.take[attribute]);
  for (const area of choices.buy) options.push({ move: `buy ${area}` });
  if (choices.pass) options.push({ move: "pass" });
  let tree = options[(n * 7) % options.length];
  while (tree.move === undefined) tree = tree.options[n % tree.options.length];
  return tree.move;
}
const answers = [];
const created = await server.handle("POST", "/api/games", JSON.parse(request));
answers.push(created.data);
const id = created.data.id;
let state = created.data;
while (!state.over) {
  const n = state.moves;
  const games = `/api/games/${id}/moves`;
  if (n % 37 === 3) {  // refused: text that is no move, and an illegal move
    for (const move of ["tile bl1 zz", "exp bl1 f0"]) {
      answers.push((await server.handle("POST", games, { seat: state.to_move, move })).data);
    }
  }
  const move = pick(state.choices, n);
  const played = await server.handle("POST", games, { seat: state.to_move, move });
  answers.push(played.data);
  state = played.data.state;
}
answers.push((await server.handle("GET", `/api/games/${id}/view?move=5`)).data);
answers.push((await server.handle("POST", `/api/games/${id}/undo`)).data);
console.log(JSON.stringify(answers));
"""


def _pick(choices: dict[str, Any], n: int) -> str:
    """The move ``QG_SAME_JSON_SCRIPT``'s ``pick`` makes."""
    options: list[dict[str, Any]] = [
        choices[action][kind][cell]
        for action in ("tile", "exp")
        for kind in sorted(choices[action])
        for cell in sorted(choices[action][kind])
    ]
    options += [choices["take"][attribute] for attribute in sorted(choices["take"])]
    options += [{"move": f"buy {area}"} for area in choices["buy"]]
    options += [{"move": "pass"}] if choices["pass"] else []
    tree = options[(n * 7) % len(options)]
    while "move" not in tree:
        tree = tree["options"][n % len(tree["options"])]
    move: str = tree["move"]
    return move


@pytest.mark.parametrize("players", [2, 3])
def test_the_worker_answers_queens_garden_as_the_server(
    bundle: Path, tmp_path: Path, players: int
) -> None:
    """A whole Queen's Garden game of people through the offline server and through the real
    one: every answer (states with their pictures, choices and attribute buttons, logs,
    results, refusals, a past view, an undo) is the same JSON but for the random ids and
    tokens, so both pages draw and ask with the same code."""
    request_body = {"game": QUEENS_GARDEN.name, "seats": ["human"] * players, "seed": 5}
    script = tmp_path / "same-qg.mjs"
    script.write_text(QG_SAME_JSON_SCRIPT, encoding="utf-8")
    done = subprocess.run(
        ["node", str(script), str(bundle), json.dumps(request_body)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    offline = json.loads(done.stdout)

    client = keyed_client()
    answers: list[object] = []
    state = client.post("/api/games", json=request_body).json()
    answers.append(state)
    game_id = state["id"]
    while not state["over"]:
        n = state["moves"]
        games = f"/api/games/{game_id}/moves"
        if n % 37 == 3:
            for move in ("tile bl1 zz", "exp bl1 f0"):
                refused = client.post(games, json={"seat": state["to_move"], "move": move})
                answers.append(refused.json())
        played = client.post(
            games, json={"seat": state["to_move"], "move": _pick(state["choices"], n)}
        ).json()
        answers.append(played)
        state = played["state"]
    answers.append(client.get(f"/api/games/{game_id}/view?move=5").json())
    answers.append(client.post(f"/api/games/{game_id}/undo").json())
    assert len(offline) == len(answers) > 20
    for mine, theirs in zip(offline, answers, strict=True):
        assert _without_ids(mine) == _without_ids(theirs)
