// The Indigo page: every rule and all state live on the server (docs/web.md); this script
// draws what the server sends, sends the clicks and taps, and animates gems along the paths
// it gets. In the offline page (html[data-mode="offline"], built by scripts/build-web) the
// "server" is the engine compiled to WebAssembly, answering the same routes in a Web Worker
// (offline/worker.js), so nothing but static files is needed. body[data-state] tells what the page is doing: setup, busy, your-turn, viewing or
// over; body[data-theme] the game's theme. A game lives at #/game/ID; its token is kept in
// this browser's localStorage, so a reload or another tab resumes it.
"use strict";

const $ = (selector) => document.querySelector(selector);
const SVG_NS = "http://www.w3.org/2000/svg";
const HUMAN = "human";
const TOKEN_HEADER = "x-game-token";

let state = null; // the live state of the current game, as the server sent it
let tile = null; // the tile type selected in the hand
let picked = 0; // its place in the hand (a hand may hold two tiles of one type)
let rotation = 0;
let viewing = null; // the move number shown while stepping through, or null when live
let occupied = new Set(); // "q,r" of each placed tile in the board on screen
let chosen = null; // the cell a touch chose: a second tap on it places the tile
let lastPointer = "mouse"; // how the last press on the board was made
let menus = { indigo: [], "queens-garden": [] }; // the bots offered per game: [{spec, label, hint}]
let titles = { indigo: "Indigo", "queens-garden": "Azul: Queen's Garden" }; // the registry's
const OFFLINE = document.documentElement.dataset.mode === "offline";
const QG = "queens-garden";
const isQg = () => state !== null && state.game === QG;

// Each game's secret token, kept in this browser: the server answers only those who present it.
const tokenKey = (gameId) => `indigo-token:${gameId}`;
const tokenOf = (url) => {
  const game = /^\/api\/games\/([^/?]+)/.exec(url);
  return game ? localStorage.getItem(tokenKey(game[1])) : null;
};

function setMode(mode) {
  document.body.dataset.state = mode;
  const undo = $("#undo");
  undo.disabled = !(state && state.can_undo && viewing === null &&
    (mode === "your-turn" || mode === "over"));
}

function say(text, error = false) {
  const line = $("#message");
  line.textContent = text;
  line.classList.toggle("error", error);
  $("#turn-message").textContent = text; // the same, in the phone's action bar
  $("#turn-message").classList.toggle("error", error);
}

// The offline page's worker and the requests it has not answered yet, by number.
let worker = null;
const waiting = new Map();
let requests = 0;

function engineWorker() {
  if (worker) return worker;
  worker = new Worker("static/offline/worker.js", { type: "module" });
  worker.addEventListener("message", (event) => {
    const { id, ...answer } = event.data;
    waiting.get(id)(answer);
    waiting.delete(id);
  });
  worker.addEventListener("error", (event) => {
    say(`The engine did not start in this browser: ${event.message || "no Web Worker"}.`, true);
  });
  return worker;
}

function askWorker(method, url, body) {
  const id = ++requests;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    engineWorker().postMessage({ id, method, url, body });
  });
}

// Each offline game, kept in this browser after every change (the worker forgets it on a
// reload): restored in a new worker before its first request there.
const savedKey = (gameId) => `indigo-offline:${gameId}`;

// A request answered by the worker, as a Response like the server's.
async function offlineFetch(method, url, body) {
  let answer = await askWorker(method, url, body);
  const game = /^\/api\/games\/([0-9a-f]+)/.exec(url);
  const kept = game && localStorage.getItem(savedKey(game[1]));
  if (answer.status === 404 && kept) {
    await askWorker("POST", "/api/restore", JSON.parse(kept));
    answer = await askWorker(method, url, body);
  }
  if (answer.saved) localStorage.setItem(savedKey(answer.saved.id), JSON.stringify(answer.saved));
  if (method === "DELETE" && game) localStorage.removeItem(savedKey(game[1]));
  const text = answer.text ?? JSON.stringify(answer.data);
  const type = answer.type ?? "application/json";
  return new Response(text, { status: answer.status, headers: { "content-type": type } });
}

async function request(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = body instanceof Blob ? body : JSON.stringify(body);
    options.headers["content-type"] = "application/json";
  }
  const token = tokenOf(url);
  if (token) options.headers[TOKEN_HEADER] = token;
  const response = OFFLINE ? await offlineFetch(method, url, body) : await fetch(url, options);
  if (response.ok) return response;
  const data = await response.json().catch(() => ({ error: response.statusText }));
  const error = new Error(data.error || response.statusText);
  error.status = response.status;
  throw error;
}

async function api(method, url, body) {
  const data = await (await request(method, url, body)).json();
  if (data.token) localStorage.setItem(tokenKey(data.id), data.token);
  return data;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const key = (q, r) => `${q},${r}`;
const seatName = (seat) => `P${seat}`;
const people = (view) => view.seats.filter((s) => s.player === HUMAN).map((s) => s.seat);

function escapeHtml(text) {
  const span = document.createElement("span");
  span.textContent = text;
  return span.innerHTML;
}

// ---------------------------------------------------------------------------------------------
// Setting up a game

async function fillMenu() {
  const bots = await api("GET", "/api/bots");
  menus = { indigo: bots.menu, [QG]: bots.qg_menu };
  titles = bots.titles;
  for (const option of $("#game").options) option.textContent = titles[option.value];
  seatInputs();
  if (!state) theme($("#game").value === QG ? QG : $("#theme").value);
  else theme(state.theme);
}

function seatInputs() {
  const box = $("#seat-list");
  const count = Number($("#players").value);
  const game = $("#game").value;
  const menu = menus[game];
  for (const field of document.querySelectorAll(".indigo-only")) field.hidden = game === QG;
  const old = [...box.querySelectorAll("select")].map((select) => select.value);
  box.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const row = document.createElement("div");
    row.className = "seat";
    const label = document.createElement("label");
    label.htmlFor = `seat-${seat}`;
    label.textContent = `Seat ${seat}`;
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    const choices = [{ spec: HUMAN, label: "Person", hint: "you, or a friend at this screen" },
      ...menu];
    for (const choice of choices) {
      const option = document.createElement("option");
      option.value = choice.spec;
      option.textContent = choice.label;
      option.title = choice.hint;
      select.append(option);
    }
    // Before the menu arrives every seat but the first asks for greedy, as the menu will.
    const bot = menu.some((c) => c.spec === "greedy") ? "greedy" : menu[0]?.spec ?? "greedy";
    select.value = old[seat] ?? (seat === 0 ? HUMAN : bot);
    if (!select.value) select.value = bot;
    const hint = document.createElement("small");
    hint.className = "hint";
    const showHint = () => {
      hint.textContent = choices.find((c) => c.spec === select.value)?.hint ?? "";
    };
    select.addEventListener("change", showHint);
    showHint();
    row.append(label, select, hint);
    box.append(row);
  }
  $("#gates-row").hidden = count !== 3 || game === QG;
}

function formBody() {
  if ($("#game").value === QG) {
    const seats = [...document.querySelectorAll("#seat-list select")].map((s) => s.value);
    return { game: QG, seats };
  }
  const body = {
    seats: [...document.querySelectorAll("#seat-list select")].map((select) => select.value),
    theme: $("#theme").value,
  };
  if ($("#hand-size").value) body.hand_size = Number($("#hand-size").value);
  if (body.seats.length === 3) body.gates = $("#gates").value;
  return body;
}

async function startGame(event) {
  event.preventDefault();
  const body = formBody();
  const seed = $("#seed").value.trim();
  if (seed) {
    if (!/^\d+$/.test(seed)) return say("The seed must be a whole number (or empty).", true);
    body.seed = Number(seed);
  }
  await begin(body);
}

async function begin(body) {
  await run(async () => {
    show(await api("POST", "/api/games", body));
    const hint = isQg()
      ? "Your move: click a colour or pattern to take, or a stored tile and then a free space."
      : "Your move: choose a tile, then one of the outlined cells.";
    say(humanToMove() ? hint : "");
    await runBots();
    startCoach();
  });
}

function playAgain(seats = state && state.seats.map((s) => s.player)) {
  if (!state) return;
  if (isQg()) return begin({ game: QG, seats });
  const body = {
    seats,
    theme: state.theme,
    hand_size: state.hand_size,
  };
  if (state.players === 3) body.gates = state.gates;
  begin(body);
}

async function loadGame(event) {
  event.preventDefault();
  const file = $("#record-file").files[0];
  if (!file) return say("Choose a record file first.", true);
  await run(async () => {
    // The file's bytes as they are: the server reads them as `indigo replay` reads a file.
    show(await api("POST", "/api/games/upload", file));
    say(`Loaded ${file.name}: ${state.moves} moves. Step through them with the arrows.`);
  });
}

async function download(event) {
  event.preventDefault();
  if (!state) return;
  try {
    const response = await request("GET", `/api/games/${state.id}/record`);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = `${state.theme}-${state.id}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (error) {
    say(error.message, true);
  }
}

// The page's colours and title follow the theme.
function theme(name) {
  document.body.dataset.theme = name;
  if (name === QG) {
    $("#title").textContent = titles[QG];
    $("#subtitle").textContent = "";
    document.title = titles[QG];
    return;
  }
  const garden = name === "butterfly-garden";
  $("#title").textContent = garden ? "Butterfly Garden" : "Indigo";
  $("#subtitle").textContent = garden ? "(Indigo)" : "& Butterfly Garden";
  document.title = garden ? "Butterfly Garden" : "Indigo";
  for (const word of document.querySelectorAll(".gate-word")) {
    word.textContent = garden ? "flowerbeds" : "gateways";
  }
}

function newGame() {
  if (coaching) endCoach();
  if (location.hash) history.pushState(null, "", location.pathname);
  state = null;
  viewing = null;
  $("#board").replaceChildren();
  setMode("setup");
  theme($("#game").value === QG ? QG : $("#theme").value);
  say("");
}

// ---------------------------------------------------------------------------------------------
// Resuming: the game's address is #/game/ID

function gameInAddress() {
  const match = /^#\/game\/([0-9a-f]+)$/.exec(location.hash);
  return match ? match[1] : null;
}

async function route() {
  const gameId = gameInAddress();
  if (gameId === null) {
    if (state) newGame();
    return;
  }
  if (state && state.id === gameId) return;
  if (!localStorage.getItem(tokenKey(gameId))) {
    newGame();
    say(`Game ${gameId} belongs to another browser: only the browser that started it holds ` +
      "its key. Start a new game here.", true);
    return;
  }
  setMode("busy");
  try {
    show(await api("GET", `/api/games/${gameId}`));
  } catch (error) {
    newGame();
    if (error.status === 404) localStorage.removeItem(tokenKey(gameId));
    say(`Game ${gameId} is no longer on the server (an idle game is removed after an hour).`,
      true);
    return;
  }
  say(`Game ${gameId} resumed: ${positionName(state.moves, state.moves).toLowerCase()}.`);
  await run(runBots);
}

// ---------------------------------------------------------------------------------------------
// Showing a position

function show(newState) {
  state = newState;
  viewing = null;
  chosen = null;
  if (gameInAddress() !== state.id) history.replaceState(null, "", `#/game/${state.id}`);
  theme(state.theme);
  drawBoard(pictureOf(state));
  drawScores(state);
  drawHand();
  drawLog(state.log, state.moves);
  markLastMoves(state, state.moves);
  drawEnd(state);
  markCells();
  drawStepper();
  $("#download").hidden = !state.over;
  settle();
}

// The page's mode for the live position on screen.
function settle() {
  setMode(state.over ? "over" : humanToMove() ? "your-turn" : "busy");
}

function humanToMove() {
  return viewing === null && state && !state.over && state.to_move_player === HUMAN;
}

// The picture for this window: a Queen's Garden view also has one for phones (one column).
const NARROW = window.matchMedia("(max-width: 800px)");
// qg.js lays it out anew: folded gardens on a phone, four seats two by two on a wide window.
const pictureOf = (view) =>
  (view.svg_narrow && (NARROW.matches || view.players === 4) ? view.svg_narrow : view.svg);

function drawBoard(svgText, view = state) {
  const board = $("#board");
  board.innerHTML = svgText;
  const svg = board.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  board.classList.toggle("qg", svg.classList.contains("queens-garden"));
  if (board.classList.contains("qg")) return qgBoard(svg, view);
  occupied = new Set(
    [...svg.querySelectorAll("g.tile")].map((g) => key(g.dataset.q, g.dataset.r)),
  );
  for (const cell of svg.querySelectorAll("polygon.cell")) {
    const { q, r } = cell.dataset;
    if (occupied.has(key(q, r))) continue;
    cell.addEventListener("pointerdown", (event) => { lastPointer = event.pointerType; });
    cell.addEventListener("click", () => clickCell(Number(q), Number(r), cell));
    cell.addEventListener("mouseenter", () => { if (lastPointer === "mouse") ghost(cell); });
    cell.addEventListener("mouseleave", () => { if (lastPointer === "mouse") ghost(null); });
  }
}

function seatLabel(view, seat) {
  const info = view.seats[seat];
  const you = people(view).length === 1 && info.player === HUMAN ? " (you)" : "";
  return `${seatName(seat)} ${info.name}${you}`;
}

function drawScores(view) {
  const rows = view.seats.map((seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = seat.seat;
    row.dataset.score = seat.score;
    row.classList.toggle("to-move", view.to_move === seat.seat);
    const gems = Object.entries(view.gems)
      .map(([gem, info]) => `<span class="got" title="${escapeHtml(info.name)}">` +
        `<svg viewBox="-8 -8 16 16" aria-hidden="true">${info.svg}</svg>` +
        `${seat.collected[gem]}</span>`)
      .join("");
    const names = Object.entries(view.gems)
      .map(([gem, info]) => `${info.name} ${seat.collected[gem]}`).join(", ");
    row.innerHTML =
      `<td><span class="swatch" style="background:${seat.colour}"></span></td>` +
      `<td title="${escapeHtml(seat.player)}">` +
      `${escapeHtml(seatLabel(view, seat.seat))}</td>` +
      `<td class="gems" aria-label="${escapeHtml(names)}">${gems}</td>` +
      `<td class="score">${seat.score}</td>`;
    return row;
  });
  $("#scores tbody").replaceChildren(...rows);
  qgScoreCells(view);
  qgFoldButtons(view);
  const at = viewing === null ? "" : ` (viewing move ${view.moves} of ${view.total_moves})`;
  let status;
  if (viewing !== null) status = positionName(view.moves, view.total_moves);
  else if (view.over) status = `Game over after ${view.moves} moves`;
  else if (view.seats[view.to_move].player === HUMAN) {
    status = people(view).length === 1
      ? `Your move (move ${view.moves + 1})`
      : `${seatName(view.to_move)} to move (move ${view.moves + 1})`;
  } else status = `${seatLabel(view, view.to_move)} is thinking… (move ${view.moves + 1})`;
  $("#status").textContent = status;
  $("#status").dataset.viewing = at;
}

function drawEnd(view) {
  const panel = $("#end-panel");
  panel.hidden = !view.over || viewing !== null;
  const winners = view.winners.map(seatName);
  $("#winner").textContent = view.over
    ? `${winners.join(" and ")} ${winners.length === 1 ? "wins" : "win"}!`
    : "";
  $("#winner").dataset.winners = view.winners.join(" ");
  $("#end-reason").textContent = view.over ? `The game ended: ${view.end}.` : "";
  const mine = people(view);
  let result = "";
  if (view.over && mine.length === 1) {
    const me = mine[0];
    const score = view.seats[me].score;
    const best = Math.max(...view.seats.filter((s) => s.seat !== me).map((s) => s.score));
    if (!view.winners.includes(me)) result = `You lose ${score}–${best}`;
    else if (view.winners.length > 1) result = `You share the win ${score}–${best}`;
    else result = `You win ${score}–${best}`;
  } else if (view.over) {
    const top = view.seats[view.winners[0]].score;
    result = `${winners.join(" and ")} ${winners.length === 1 ? "wins" : "win"} with ${top}`;
  }
  $("#result").textContent = result;
  qgBreakdown(view);
  const stronger = view.over && viewing === null ? strongerSeats(view) : null;
  $("#next-level").hidden = stronger === null;
  if (stronger !== null) $("#next-level").textContent = `Play the next level: ${stronger.label}`;
}

// The seats of a game against the next bot level: each bot seat one step up its game's menu
// (`null` when no seat is a person, or every bot is already at the top).
function strongerSeats(view) {
  const menu = menus[view.game === QG ? QG : "indigo"];
  if (!view.seats.some((s) => s.player === HUMAN)) return null;
  let label = null;
  const seats = view.seats.map((s) => {
    const at = menu.findIndex((choice) => choice.spec === s.player);
    if (s.player === HUMAN || at < 0 || at + 1 >= menu.length) return s.player;
    label ??= menu[at + 1].label;
    return menu[at + 1].spec;
  });
  return label === null ? null : { seats, label };
}

function drawLog(log, upTo) {
  const items = log.slice(0, upTo).map((lines, index) => {
    const item = document.createElement("li");
    item.dataset.move = index + 1;
    const [head, ...rest] = lines;
    item.innerHTML = escapeHtml(head) +
      rest.map((line) => `<span class="more">${escapeHtml(line.trim())}</span>`).join("");
    item.addEventListener("click", () => view(index + 1));
    // Pointing at a line marks on the board what it names (leaving it, the move stepped to
    // stays marked); a click or a tap steps to its position.
    const marksOf = (move) => state && state.log_marks && state.log_marks[move - 1];
    item.addEventListener("mouseenter", () => highlight(marksOf(index + 1), "named"));
    item.addEventListener("mouseleave", () => highlight(marksOf(viewing), "named"));
    return item;
  });
  const list = $("#log");
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

function drawHand() {
  const panel = $("#hand-panel");
  $("#qg-panel").hidden = !(isQg() && humanToMove());
  if (isQg()) {
    panel.hidden = true;
    return qgPanel();
  }
  panel.hidden = !humanToMove();
  if (panel.hidden) return;
  if (state.hand[picked] !== tile) {
    picked = Math.max(0, state.hand.indexOf(tile));
    if (state.hand[picked] !== tile) rotation = 0;
    tile = state.hand[picked];
  }
  const pictures = state.hand.map((type, index) => {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "-38 -38 76 76");
    svg.setAttribute("role", "button");
    svg.setAttribute("aria-label", `tile ${type}`);
    svg.dataset.tile = type;
    svg.dataset.index = index;
    svg.innerHTML = `<g class="turn">${state.tiles[type]}</g>`;
    svg.addEventListener("click", () => {
      tile = type;
      picked = index;
      chosen = null;
      drawHand();
      markCells();
    });
    return svg;
  });
  $("#hand").replaceChildren(...pictures);
  turnHand();
}

function turnHand() {
  for (const svg of document.querySelectorAll("#hand svg")) {
    svg.classList.toggle("selected", Number(svg.dataset.index) === picked);
    svg.querySelector("g.turn").style.transform = `rotate(${60 * rotation}deg)`;
  }
  $("#rotation").textContent = `rotation ${rotation}`;
}

function legalHere() {
  if (!humanToMove() || tile === null || isQg()) return null;
  return new Set(state.legal[tile][rotation].map(([q, r]) => key(q, r)));
}

function markCells() {
  const legal = legalHere();
  const svg = $("#board svg");
  if (!svg) return;
  for (const old of svg.querySelectorAll(".legal-marks")) old.remove();
  const marks = document.createElementNS(SVG_NS, "g");
  marks.setAttribute("class", "legal-marks");
  for (const cell of svg.querySelectorAll("polygon.cell")) {
    const here = key(cell.dataset.q, cell.dataset.r);
    const empty = !occupied.has(here);
    const ok = legal !== null && empty && legal.has(here);
    cell.classList.toggle("legal", ok);
    cell.classList.toggle("illegal", legal !== null && empty && !legal.has(here));
    if (ok) {
      const mark = document.createElementNS(SVG_NS, "polygon");
      mark.setAttribute("points", cell.getAttribute("points"));
      // Inset, so that the outline leaves the cell's edges and the gateways in sight.
      const { cx, cy } = cell.dataset;
      mark.setAttribute("transform", `translate(${cx} ${cy}) scale(0.84) translate(${-cx} ${-cy})`);
      mark.setAttribute("class", here === chosen ? "legal-mark chosen" : "legal-mark");
      marks.append(mark);
    }
  }
  svg.append(marks);
  if (legal !== null && legal.size === 0) say("This tile fits nowhere at this rotation: turn it.");
}

function rotate(step) {
  if (!humanToMove() || isQg()) return;
  rotation = (rotation + step + 6) % 6;
  turnHand();
  markCells();
  const cell = chosen && $(`#board polygon.cell[data-q="${chosen.split(",")[0]}"]` +
    `[data-r="${chosen.split(",")[1]}"]`);
  if (cell && cell.classList.contains("legal")) ghost(cell);
  else { chosen = null; ghost(null); }
}

function ghost(cell) {
  for (const old of document.querySelectorAll("#board .ghost")) old.remove();
  if (!cell || !cell.classList.contains("legal")) return;
  const g = document.createElementNS(SVG_NS, "g");
  g.setAttribute("class", "ghost");
  g.setAttribute(
    "transform",
    `translate(${cell.dataset.cx} ${cell.dataset.cy}) rotate(${60 * rotation})`,
  );
  g.innerHTML = state.tiles[tile];
  cell.ownerSVGElement.querySelector("g.tiles").append(g);
}

// ---------------------------------------------------------------------------------------------
// The log linked to the board: a move's marks (view.log_marks, a result's marks) name the
// placed cells, the gates its gems left through (Indigo) and the display slots it took from
// (Queen's Garden).

function marked(marks) {
  const svg = $("#board svg");
  if (!svg || !marks) return [];
  const all = (selector) => [...svg.querySelectorAll(selector)];
  if (svg.classList.contains("queens-garden")) {
    return [
      ...marks.cells.flatMap((cell) => all(`[data-seat="${marks.seat}"][data-cell="${cell}"]`)),
      ...marks.slots.flatMap((slot) => all(`g.slot[data-slot="${slot}"]`)),
    ];
  }
  return [
    ...marks.cells.flatMap(([q, r]) => all(`g.tile[data-q="${q}"][data-r="${r}"]`)),
    ...marks.gates.flatMap((gate) => all(`g.gate[data-gate="${gate}"]`)),
  ];
}

// Marks what `marks` names with class `name` (and nothing else with it).
function highlight(marks, name) {
  for (const old of document.querySelectorAll(`#board .${name}`)) old.classList.remove(name);
  for (const node of marked(marks)) node.classList.add(name);
}

// The last move of every seat among the first `upTo` moves of `view` (a live state, else a
// past position of the live game), outlined in the seat's colour; the very last one, if a bot
// played it, also pulses.
function markLastMoves(view, upTo) {
  const marks = (view.log_marks ?? state?.log_marks ?? []).slice(0, upTo);
  const last = new Map(marks.map((m) => [m.seat, m]));
  for (const [seat, m] of last) {
    for (const node of marked(m)) {
      node.classList.add("seat-last");
      node.style.setProperty("--seat", view.seats[seat].colour);
    }
  }
  const final = marks.at(-1);
  if (final && view.seats[final.seat].player !== HUMAN) highlight(final, "bot-move");
}

// ---------------------------------------------------------------------------------------------
// The coach: on a player's first game of each game in this browser, a few steps point at what
// to do first. Done or dismissed, it is not shown again for that game (localStorage). A
// browser driven by automation (navigator.webdriver: the tests) sees it only when asked, with
// localStorage "indigo-coach" = "always".

const COACH = {
  indigo: [
    ["#hand-panel", "This is your tile. Turn it with the arrows (or the keys Q and E): the " +
      "outlined cells on the board are where it may go, turned as it is."],
    ["#board", "Click an outlined cell (on a phone, tap it twice) to place the tile. The " +
      "GEMS beside it run along its paths; one that leaves through a GATE of your colour " +
      "(the labels round the edge say whose) scores for you."],
    ["#log-panel", "Every move is told here in words. Point at a line to see on the board what " +
      "it names; a bot's move pulses on the board."],
  ],
  [QG]: [
    ["#qg-take", "Start by taking: press a colour or a pattern, and you get one hexagon of " +
      "each kind in the display that shows it (pointing at a button marks them)."],
    ["#board", "Then place: click a tile in your storage (under your garden), then an " +
      "outlined free space. A hexagon costs its value: it pays 1 itself, the rest you pay " +
      "with stored hexagons of its colour or its pattern, or with jokers."],
    ["#log-panel", "Every move is told here in words. Point at a line to see on the board what " +
      "it names; a bot's move pulses on the board. Tiles left in storage cost their value at " +
      "the end."],
  ],
};
const coachedKey = (game) => `indigo-coached:${game}`;
let coaching = null; // {game, step, moves} while the coach is shown: moves when it last stepped

function coachWanted(game) {
  if (localStorage.getItem("indigo-coach") === "always") return true;
  return !navigator.webdriver && !localStorage.getItem(coachedKey(game));
}

function startCoach() {
  const game = isQg() ? QG : "indigo";
  if (!humanToMove() || !coachWanted(game)) return;
  coaching = { game, step: 0, moves: state.moves };
  coachStep();
}

function coachStep() {
  for (const old of document.querySelectorAll(".coached")) old.classList.remove("coached");
  const box = $("#coach");
  const steps = COACH[coaching?.game];
  if (!steps || coaching.step >= steps.length) return endCoach();
  const [selector, text] = steps[coaching.step];
  const target = $(selector);
  target.classList.add("coached");
  target.scrollIntoView({ block: "nearest" });
  // The theme's words: butterflies and flowerbeds in Butterfly Garden.
  const gems = state.theme === "butterfly-garden" ? "butterflies" : "gems";
  $("#coach-text").textContent = text.replace("GEMS", gems).replace("GATE", state.gate_name);
  $("#coach-next").hidden = coaching.step === steps.length - 1;
  box.dataset.step = coaching.step;
  box.hidden = false;
  // Beside what it points at: below it, or above when there is no room, inside the window.
  const at = target.getBoundingClientRect();
  const { width, height } = box.getBoundingClientRect();
  const below = Math.min(at.bottom, at.top + 120) + 8;
  const top = below + height < innerHeight ? below : Math.max(8, at.top - height - 8);
  box.style.top = `${Math.min(top, innerHeight - height - 8)}px`;
  box.style.left = `${Math.max(8, Math.min(at.left, innerWidth - width - 8))}px`;
}

function endCoach() {
  if (coaching) localStorage.setItem(coachedKey(coaching.game), "done");
  coaching = null;
  $("#coach").hidden = true;
  for (const old of document.querySelectorAll(".coached")) old.classList.remove("coached");
}

// ---------------------------------------------------------------------------------------------
// Playing

async function run(action) {
  setMode("busy");
  try {
    await action();
  } catch (error) {
    say(error.message, true);
    if (state) {
      try {
        show(await api("GET", `/api/games/${state.id}`));
      } catch (_) {
        setMode("setup");
      }
    } else {
      setMode("setup");
    }
  }
}

async function clickCell(q, r, cell) {
  if (!humanToMove() || document.body.dataset.state !== "your-turn") return;
  const legal = legalHere();
  if (!legal.has(key(q, r))) {
    say(`Tile ${tile} turned ${rotation} times may not go on (${q},${r}): ` +
      "choose one of the outlined cells.", true);
    return;
  }
  // A touch shows the tile on the cell first; a second tap there places it.
  if (lastPointer === "touch" && chosen !== key(q, r)) {
    chosen = key(q, r);
    markCells();
    ghost(cell);
    say("Tap the cell again to place the tile there, or turn it first.");
    return;
  }
  chosen = null;
  const move = `${tile}@${rotation}:${q},${r}`;
  await run(async () => {
    const answer = await api("POST", `/api/games/${state.id}/moves`, {
      seat: state.to_move,
      move,
    });
    await present(answer.results[0], answer.state);
    show(answer.state);
    await runBots();
  });
}

async function runBots() {
  while (state && !state.over && state.to_move_player !== HUMAN && viewing === null) {
    setMode("busy");
    const answer = await api("POST", `/api/games/${state.id}/advance`, { max: 1 });
    for (const result of answer.results) await present(result, answer.state);
    show(answer.state);
  }
  if (!state) return;
  settle();
  // The coach steps on once the person has moved (and the bots have answered).
  if (coaching && state.moves > coaching.moves) {
    coaching.moves = state.moves;
    coaching.step += 1;
    coachStep();
  }
  if (state.over) say(`Game over: ${$("#result").textContent}.`);
  else if (humanToMove() && people(state).length > 1) say(`${seatName(state.to_move)}: your move.`);
}

async function undoMove() {
  if ($("#undo").disabled) return; // nothing to take back, or a bot is choosing
  await run(async () => {
    const answer = await api("POST", `/api/games/${state.id}/undo`);
    show(answer.state);
    say(`Took back ${answer.undone} ${answer.undone === 1 ? "move" : "moves"}: ` +
      `back to move ${answer.state.moves + 1}.`);
  });
}

// The side panel and the log change as the gems start to run, not after.
function present(result, next) {
  say(result.text.join(" ").replace(/\s+/g, " "));
  drawScores({ ...next, to_move: result.game_over ? null : next.to_move });
  drawLog(next.log, next.moves);
  return animate(result, next);
}

function animate(result, next) {
  drawBoard(pictureOf(next), next);
  markLastMoves(next, next.moves);
  const speed = Number($("#speed").value);
  const svg = $("#board svg");
  if (!speed || !result.paths.length) return Promise.resolve();
  return Promise.all(result.paths.map((path) => moveGem(svg, path, speed, next)));
}

function moveGem(svg, path, speed, next) {
  let resting = [];
  if (path.outcome === "rested") {
    const [q, r, edge] = path.end;
    resting = [...svg.querySelectorAll(
      `g.gems [data-q="${q}"][data-r="${r}"][data-edge="${edge}"]`,
    )];
    for (const mark of resting) mark.style.visibility = "hidden";
  }
  const track = document.createElementNS(SVG_NS, "path");
  track.setAttribute("d", path.d);
  track.setAttribute("fill", "none");
  track.setAttribute("class", "mover");
  const gem = document.createElementNS(SVG_NS, "g");
  gem.setAttribute("class", "mover");
  gem.innerHTML = next.gems[path.gem].svg;
  svg.append(track, gem);
  const length = track.getTotalLength();
  const duration = speed * (350 + 220 * path.steps.length);
  return new Promise((done) => {
    const start = performance.now();
    const frame = (now) => {
      const t = Math.min(1, (now - start) / duration);
      const point = track.getPointAtLength(t * length);
      gem.setAttribute("transform", `translate(${point.x} ${point.y})`);
      if (t < 1) return requestAnimationFrame(frame);
      const fade = path.outcome === "rested" ? 0 : 250 * speed;
      gem.style.transition = `opacity ${fade}ms`;
      gem.style.opacity = path.outcome === "rested" ? "1" : "0";
      sleep(fade).then(() => {
        track.remove();
        gem.remove();
        for (const mark of resting) mark.style.visibility = "";
        done();
      });
    };
    requestAnimationFrame(frame);
  });
}

// ---------------------------------------------------------------------------------------------
// Stepping through the moves

// The position after `at` of `total` moves, numbered as the log and "Your move (move N)" are.
const positionName = (at, total) => (at === 0 ? "Before move 1" : `After move ${at} of ${total}`);

function drawStepper() {
  const total = state ? state.moves : 0;
  const at = viewing === null ? total : viewing;
  $("#step-label").textContent = positionName(at, total);
  const list = $("#log");
  for (const item of list.querySelectorAll("li")) {
    const current = viewing !== null && Number(item.dataset.move) === at;
    item.classList.toggle("current", current);
    // The stepped-to move stays in sight: the log scrolls, the page does not.
    if (current && item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
    else if (current && item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
    }
  }
}

async function view(move) {
  if (!state || document.body.dataset.state === "busy") return;
  const total = state.moves;
  if (move >= total) return run(async () => show(await api("GET", `/api/games/${state.id}`)));
  move = Math.max(0, move);
  await run(async () => {
    const position = await api("GET", `/api/games/${state.id}/view?move=${move}`);
    viewing = move;
    chosen = null;
    drawBoard(pictureOf(position), position);
    markLastMoves(position, move);
    highlight(state.log_marks && state.log_marks[move - 1], "named");
    drawScores(position);
    drawHand();
    drawEnd(position);
    drawStepper();
    setMode("viewing");
    const last = position.last;
    say(last ? last.text.join(" ").replace(/\s+/g, " ") : "Before the first move.");
  });
}

function stepBy(step) {
  const at = viewing === null ? (state ? state.moves : 0) : viewing;
  return view(at + step);
}

// ---------------------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  $("#players").addEventListener("change", seatInputs);
  $("#game").addEventListener("change", () => {
    seatInputs();
    if (!state) theme($("#game").value === QG ? QG : $("#theme").value);
  });
  $("#theme").addEventListener("change", () => {
    if (!state) theme($("#theme").value);
  });
  $("#new-game").addEventListener("submit", startGame);
  $("#load-game").addEventListener("submit", loadGame);
  $("#download").addEventListener("click", download);
  $("#rotate-left").addEventListener("click", () => rotate(-1));
  $("#rotate-right").addEventListener("click", () => rotate(1));
  $("#undo").addEventListener("click", undoMove);
  $("#play-again").addEventListener("click", () => playAgain());
  $("#next-level").addEventListener("click", () => playAgain(strongerSeats(state).seats));
  $("#new-button").addEventListener("click", newGame);
  $("#help-button").addEventListener("click", () => $("#help").showModal());
  $("#welcome-help").addEventListener("click", () => $("#help").showModal());
  $("#step-first").addEventListener("click", () => view(0));
  $("#step-back").addEventListener("click", () => stepBy(-1));
  $("#step-next").addEventListener("click", () => stepBy(1));
  $("#step-live").addEventListener("click", () => view(Infinity));
  $("#coach-next").addEventListener("click", () => {
    coaching.step += 1;
    coachStep();
  });
  $("#coach-done").addEventListener("click", endCoach);
  window.addEventListener("resize", () => { if (coaching) coachStep(); });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, dialog") || event.ctrlKey || event.metaKey) return;
    const keys = {
      q: () => rotate(-1), Q: () => rotate(-1), e: () => rotate(1), E: () => rotate(1),
      r: () => rotate(1), u: undoMove, U: undoMove,
      ArrowLeft: () => stepBy(-1), ArrowRight: () => stepBy(1),
      Home: () => view(0), End: () => view(Infinity),
    };
    if (!keys[event.key] || !state) return;
    event.preventDefault();
    keys[event.key]();
  });
  // The phone's action bar (fixed at the bottom) never covers the end of the page.
  new ResizeObserver(([entry]) => {
    const height = `${Math.ceil(entry.borderBoxSize[0].blockSize)}px`;
    document.documentElement.style.setProperty("--bar", height);
  }).observe($("#turn"));
  window.addEventListener("hashchange", route);
  window.addEventListener("popstate", route);
  seatInputs();
  fillMenu()
    .catch((error) => say(error.message, true))
    .then(route);
});
