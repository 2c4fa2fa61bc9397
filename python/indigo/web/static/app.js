// The Indigo page: every rule and all state live on the server (docs/web.md); this script
// draws what the server sends, sends the clicks, and animates gems along the paths it gets.
// body[data-state] tells what the page is doing: setup, busy, your-turn, viewing or over.
"use strict";

const $ = (selector) => document.querySelector(selector);
const SVG_NS = "http://www.w3.org/2000/svg";
const HUMAN = "human";

let state = null; // the live state of the current game, as the server sent it
let tile = null; // the tile type selected in the hand
let rotation = 0;
let viewing = null; // the move number shown while stepping through, or null when live
let occupied = new Set(); // "q,r" of each placed tile in the board on screen
const TOKEN_HEADER = "x-game-token";

// Each game's secret token, kept for this tab: the server answers only those who present it.
const tokenKey = (gameId) => `indigo-token:${gameId}`;
const tokenOf = (url) => {
  const game = /^\/api\/games\/([^/?]+)/.exec(url);
  return game ? sessionStorage.getItem(tokenKey(game[1])) : null;
};

function setMode(mode) {
  document.body.dataset.state = mode;
}

function say(text, error = false) {
  const line = $("#message");
  line.textContent = text;
  line.classList.toggle("error", error);
}

async function request(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = body instanceof Blob ? body : JSON.stringify(body);
    options.headers["content-type"] = "application/json";
  }
  const token = tokenOf(url);
  if (token) options.headers[TOKEN_HEADER] = token;
  const response = await fetch(url, options);
  if (response.ok) return response;
  const data = await response.json().catch(() => ({ error: response.statusText }));
  throw new Error(data.error || response.statusText);
}

async function api(method, url, body) {
  const data = await (await request(method, url, body)).json();
  if (data.token) sessionStorage.setItem(tokenKey(data.id), data.token);
  return data;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const key = (q, r) => `${q},${r}`;
const seatName = (seat) => `P${seat}`;

// ---------------------------------------------------------------------------------------------
// Setting up a game

async function fillPlayerKinds() {
  const kinds = await api("GET", "/api/bots");
  const list = $("#player-kinds");
  for (const name of [kinds.human, ...kinds.bots]) {
    const option = document.createElement("option");
    option.value = name;
    list.append(option);
  }
}

function seatInputs() {
  const box = $("#seat-list");
  const count = Number($("#players").value);
  const old = [...box.querySelectorAll("input")].map((input) => input.value);
  box.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${seat}`;
    const input = document.createElement("input");
    input.id = `seat-${seat}`;
    input.setAttribute("list", "player-kinds");
    input.value = old[seat] ?? (seat === 0 ? HUMAN : "greedy");
    label.append(input);
    box.append(label);
  }
}

async function startGame(event) {
  event.preventDefault();
  const body = {
    seats: [...document.querySelectorAll("#seat-list input")].map((input) => input.value.trim()),
    theme: $("#theme").value,
  };
  if ($("#hand-size").value) body.hand_size = Number($("#hand-size").value);
  const seed = $("#seed").value.trim();
  if (seed) {
    if (!/^\d+$/.test(seed)) return say("The seed must be a whole number (or empty).", true);
    body.seed = Number(seed);
  }
  await run(async () => {
    show(await api("POST", "/api/games", body));
    say(`New game ${state.id}.`);
    await runBots();
  });
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
    link.download = `indigo-${state.id}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (error) {
    say(error.message, true);
  }
}

// ---------------------------------------------------------------------------------------------
// Showing a position

function show(newState) {
  state = newState;
  viewing = null;
  $("#game-panel").hidden = false;
  drawBoard(state.svg);
  drawScores(state);
  drawHand();
  markCells();
  drawStepper();
  const link = $("#download");
  link.href = `/api/games/${state.id}/record`;
  link.download = `indigo-${state.id}.json`;
  setMode(state.over ? "over" : humanToMove() ? "your-turn" : "busy");
}

function humanToMove() {
  return viewing === null && state && !state.over && state.to_move_player === HUMAN;
}

function drawBoard(svgText) {
  const board = $("#board");
  board.innerHTML = svgText;
  const svg = board.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  occupied = new Set(
    [...svg.querySelectorAll("g.tile")].map((g) => key(g.dataset.q, g.dataset.r)),
  );
  for (const cell of svg.querySelectorAll("polygon.cell")) {
    const { q, r } = cell.dataset;
    if (occupied.has(key(q, r))) continue;
    cell.addEventListener("click", () => clickCell(Number(q), Number(r)));
    cell.addEventListener("mouseenter", () => ghost(cell));
    cell.addEventListener("mouseleave", () => ghost(null));
  }
}

function drawScores(view) {
  const rows = view.seats.map((seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = seat.seat;
    row.dataset.score = seat.score;
    row.classList.toggle("to-move", view.to_move === seat.seat);
    const gems = Object.entries(view.gems)
      .map(([gem, info]) => `${info.name} ${seat.collected[gem]}`)
      .join(", ");
    row.innerHTML =
      `<td><span class="swatch" style="background:${seat.colour}"></span></td>` +
      `<td>${seatName(seat.seat)} <small>${escapeHtml(seat.player)}</small></td>` +
      `<td class="score">${seat.score}</td><td><small>${gems}</small></td>`;
    return row;
  });
  $("#scores tbody").replaceChildren(...rows);
  const winners = view.winners.map(seatName);
  $("#winner").textContent = view.over
    ? `${winners.join(" and ")} ${winners.length === 1 ? "wins" : "win"}!`
    : "";
  $("#winner").dataset.winners = view.winners.join(" ");
  const where = viewing === null ? "" : ` (viewing move ${view.moves} of ${view.total_moves})`;
  $("#status").textContent = view.over
    ? `Game over after ${view.moves} moves${where}`
    : `Move ${view.moves + 1}: ${seatName(view.to_move)} ` +
      `(${view.seats[view.to_move].player}) to move${where}`;
}

function escapeHtml(text) {
  const span = document.createElement("span");
  span.textContent = text;
  return span.innerHTML;
}

function drawHand() {
  const panel = $("#hand-panel");
  panel.hidden = !humanToMove();
  if (panel.hidden) return;
  if (!state.hand.includes(tile)) {
    tile = state.hand[0];
    rotation = 0;
  }
  const pictures = state.hand.map((type, index) => {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "-38 -38 76 76");
    svg.dataset.tile = type;
    svg.dataset.index = index;
    svg.innerHTML = `<g class="turn">${state.tiles[type]}</g>`;
    svg.addEventListener("click", () => {
      tile = type;
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
    svg.classList.toggle("selected", Number(svg.dataset.tile) === tile);
    svg.querySelector("g.turn").style.transform = `rotate(${60 * rotation}deg)`;
  }
  $("#rotation").textContent = `rotation ${rotation}`;
}

function legalHere() {
  if (!humanToMove() || tile === null) return null;
  return new Set(state.legal[tile][rotation].map(([q, r]) => key(q, r)));
}

function markCells() {
  const legal = legalHere();
  for (const cell of document.querySelectorAll("#board polygon.cell")) {
    const here = key(cell.dataset.q, cell.dataset.r);
    const empty = !occupied.has(here);
    cell.classList.toggle("legal", legal !== null && empty && legal.has(here));
    cell.classList.toggle("illegal", legal !== null && empty && !legal.has(here));
  }
  if (legal !== null && legal.size === 0) say("This tile fits nowhere at this rotation: rotate it.");
}

function rotate(step) {
  if (!humanToMove()) return;
  rotation = (rotation + step + 6) % 6;
  turnHand();
  markCells();
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

async function clickCell(q, r) {
  if (!humanToMove() || document.body.dataset.state !== "your-turn") return;
  const legal = legalHere();
  if (!legal.has(key(q, r))) {
    say(`Tile ${tile} at rotation ${rotation} may not go on (${q},${r}).`, true);
    return;
  }
  const move = `${tile}@${rotation}:${q},${r}`;
  say(`${seatName(state.to_move)} plays ${move}.`);
  await run(async () => {
    const answer = await api("POST", `/api/games/${state.id}/moves`, {
      seat: state.to_move,
      move,
    });
    await animate(answer.results[0], answer.state);
    show(answer.state);
    await runBots();
  });
}

async function runBots() {
  while (state && !state.over && state.to_move_player !== HUMAN && viewing === null) {
    setMode("busy");
    const answer = await api("POST", `/api/games/${state.id}/advance`, { max: 1 });
    for (const result of answer.results) {
      say(`${seatName(result.seat)} (${state.seats[result.seat].player}) plays ${result.move}.`);
      await animate(result, answer.state);
    }
    show(answer.state);
  }
  if (state && state.over) say(`Game over: ${$("#winner").textContent}`);
}

function animate(result, next) {
  drawBoard(next.svg);
  const speed = Number($("#speed").value);
  const svg = $("#board svg");
  if (!speed || !result.paths.length) return Promise.resolve();
  return Promise.all(result.paths.map((path) => moveGem(svg, path, speed)));
}

function moveGem(svg, path, speed) {
  let resting = null;
  if (path.outcome === "rested") {
    const [q, r, edge] = path.end;
    resting = svg.querySelector(
      `circle.gem.resting[data-q="${q}"][data-r="${r}"][data-edge="${edge}"]`,
    );
    if (resting) resting.style.visibility = "hidden";
  }
  const track = document.createElementNS(SVG_NS, "path");
  track.setAttribute("d", path.d);
  track.setAttribute("fill", "none");
  track.setAttribute("class", "mover");
  const gem = document.createElementNS(SVG_NS, "circle");
  gem.setAttribute("r", "7");
  gem.setAttribute("fill", path.colour);
  gem.setAttribute("stroke", "#111");
  gem.setAttribute("class", "mover");
  svg.append(track, gem);
  const length = track.getTotalLength();
  const duration = speed * (350 + 220 * path.steps.length);
  return new Promise((done) => {
    const start = performance.now();
    const frame = (now) => {
      const t = Math.min(1, (now - start) / duration);
      const point = track.getPointAtLength(t * length);
      gem.setAttribute("cx", point.x);
      gem.setAttribute("cy", point.y);
      if (t < 1) return requestAnimationFrame(frame);
      const fade = path.outcome === "rested" ? 0 : 250 * speed;
      gem.style.transition = `opacity ${fade}ms`;
      gem.style.opacity = path.outcome === "rested" ? "1" : "0";
      sleep(fade).then(() => {
        track.remove();
        gem.remove();
        if (resting) resting.style.visibility = "";
        done();
      });
    };
    requestAnimationFrame(frame);
  });
}

// ---------------------------------------------------------------------------------------------
// Stepping through the moves

function drawStepper() {
  const total = state ? state.moves : 0;
  const at = viewing === null ? total : viewing;
  $("#step-label").textContent = `move ${at} / ${total}`;
}

async function view(move) {
  if (!state) return;
  const total = state.moves;
  if (move >= total) return run(async () => show(await api("GET", `/api/games/${state.id}`)));
  move = Math.max(0, move);
  await run(async () => {
    const position = await api("GET", `/api/games/${state.id}/view?move=${move}`);
    viewing = move;
    drawBoard(position.svg);
    drawScores(position);
    drawHand();
    drawStepper();
    setMode("viewing");
  });
}

function stepBy(step) {
  const at = viewing === null ? (state ? state.moves : 0) : viewing;
  return view(at + step);
}

// ---------------------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  $("#players").addEventListener("change", seatInputs);
  $("#new-game").addEventListener("submit", startGame);
  $("#load-game").addEventListener("submit", loadGame);
  $("#download").addEventListener("click", download);
  $("#rotate-left").addEventListener("click", () => rotate(-1));
  $("#rotate-right").addEventListener("click", () => rotate(1));
  $("#step-first").addEventListener("click", () => view(0));
  $("#step-back").addEventListener("click", () => stepBy(-1));
  $("#step-next").addEventListener("click", () => stepBy(1));
  $("#step-live").addEventListener("click", () => view(Infinity));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select")) return;
    if (event.key === "q" || event.key === "Q") rotate(-1);
    if (event.key === "e" || event.key === "E" || event.key === "r") rotate(1);
  });
  seatInputs();
  fillPlayerKinds().catch((error) => say(error.message, true));
});
