"""The offline page in a real browser: a whole Indigo game with the engine in WebAssembly.

``scripts/build-web`` builds the page into a folder of static files; a plain static file server
(``python -m http.server``, no indigo server anywhere) serves it on a free loopback port, and
Debian's chromium (through playwright, as in ``test_web_browser.py``) plays a whole game by
clicks against a searching bot, which runs in the page's Web Worker. The record the page saves
is then replayed by the native engine: both engines must agree on every move and the result.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

import indigo
from web_server import keyed_client

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
IDLE = "body[data-state=your-turn], body[data-state=over]"
SEED = 11


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
        # Queen's Garden needs the server: the offline form offers Indigo only.
        assert page.locator("#game option[value='queens-garden']").count() == 0
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
