// Queen's Garden on the page (loaded after app.js, whose state, api, run, show, runBots and say
// it uses). The rules stay on the server (or the offline page's worker): state.choices holds the
// legal moves grouped for clicks (the queens-garden crate's move_choices, through
// indigo.queens_garden.choices or the WebAssembly module's Garden.moveChoices): take ->
// attribute -> tree, tile/exp -> kind -> cell -> tree,
// where a tree is {move} or {prompt, options: [{label, ...tree}]}: the questions still to ask.
// A take is a click on an attribute; a placement a click on a stored tile (or expansion) and
// then on an outlined free space; then any question (slot, payment) is answered by a button.
"use strict";

const ATTRIBUTES = ["bl", "ye", "lg", "dg", "lp", "dp", "1", "2", "3", "4", "5", "6"];
const ATTRIBUTE_NAMES = {
  bl: "blue", ye: "yellow", lg: "light green", dg: "dark green", lp: "light purple",
  dp: "dark purple", 1: "tree", 2: "bird", 3: "butterfly", 4: "flower", 5: "plant", 6: "lily",
};
let qgPicked = null; // {action: "tile" | "exp", kind} once a stored hexagon is clicked
let qgDiscards = null; // while choosing what a pass discards: [{kind, expansion, node}]
let qgPaying = null; // while a payment is asked: {tree, picked: [{token, node}]}

function qgReset() {
  qgPicked = null;
  qgDiscards = null;
  qgEndPayment();
  $("#qg-discard").setAttribute("aria-pressed", "false");
  $("#qg-question").hidden = true;
  $("#qg-cancel").hidden = true; // shown while something is picked or asked
  delete $("#qg-panel").dataset.picking;
}

// A stored hexagon's token in a payment's notation: a tile's kind, an expansion's kind and
// "x", a joker "*".
const qgToken = (node) => (node.classList.contains("joker") ? "*"
  : node.classList.contains("stored-expansion") ? `${node.dataset.kind}x` : node.dataset.kind);
const qgTokens = (label) => (label === "nothing" ? [] : label.split(" "));

// Whether multiset `part` lies in multiset `whole` (lists of tokens).
function qgWithin(part, whole) {
  const left = [...whole];
  return part.every((token) => {
    const at = left.indexOf(token);
    if (at >= 0) left.splice(at, 1);
    return at >= 0;
  });
}

// The seats in the picture, laid out for the window. The picture drawn for phones (one
// column: the display, the piles and the wheel on top, then one seat under another) serves
// both: on a phone a seat's garden folds away (its button in the score table); on a wide
// window four seats stand two by two beside the display, so that they fill the board's space.
const qgFolded = new Map(); // by game id: the seats whose gardens are folded away on a phone

function qgLayout(svg, view) {
  const seats = [...svg.querySelectorAll("g.seat")];
  if (seats.length < 2 || (!NARROW.matches && seats.length !== 4)) return; // drawn as wanted
  const at = seats.map((g) => /translate\(([-\d.]+) ([-\d.]+)\) scale\(([\d.]+)\)/
    .exec(g.getAttribute("transform")).slice(1).map(Number));
  const [left, top, scale] = at[0];
  const step = at[1][1] - top;
  const box = svg.viewBox.baseVal;
  let width = box.width;
  let height = top;
  if (!NARROW.matches) { // two by two, to the right of the display and the wheel
    seats.forEach((g, i) => {
      const x = width + (i % 2) * (box.width - 2 * left);
      const y = left + Math.floor(i / 2) * step;
      g.setAttribute("transform", `translate(${x} ${y}) scale(${scale})`);
    });
    height = Math.max(top, left + 2 * step);
    width += 2 * (box.width - 2 * left);
  } else {
    const folded = qgFolded.get(view.id) ?? new Set();
    for (const [i, g] of seats.entries()) {
      g.style.display = folded.has(i) ? "none" : "";
      if (folded.has(i)) continue;
      g.setAttribute("transform", `translate(${left} ${height}) scale(${scale})`);
      height += step;
    }
  }
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const back = svg.querySelector(":scope > rect");
  back.setAttribute("width", width);
  back.setAttribute("height", height);
}

// The score table's fold buttons (phones): a seat's garden shown or folded away.
function qgFoldButtons(view) {
  if (view.game !== QG || !NARROW.matches) return;
  if (!qgFolded.has(view.id)) { // at first, the bots' gardens are folded
    qgFolded.set(view.id, new Set(view.seats.filter((s) => s.player !== HUMAN).map((s) => s.seat)));
  }
  const folded = qgFolded.get(view.id);
  for (const row of document.querySelectorAll("#scores tr")) {
    const seat = Number(row.dataset.seat);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "fold";
    button.dataset.seat = seat;
    button.setAttribute("aria-expanded", String(!folded.has(seat)));
    button.textContent = folded.has(seat) ? "show" : "hide";
    button.title = `${folded.has(seat) ? "show" : "fold away"} ${seatName(seat)}'s garden`;
    button.addEventListener("click", () => {
      if (folded.has(seat)) folded.delete(seat);
      else folded.add(seat);
      const svg = $("#board svg.queens-garden");
      if (svg) qgLayout(svg, view);
      qgFoldButtons(view);
    });
    const cell = document.createElement("td");
    cell.className = "fold";
    cell.append(button);
    row.querySelector("td.fold")?.remove();
    row.append(cell);
  }
}

// The person's storage and garden in the picture: clicks pick, outline and place.
function qgBoard(svg, view) {
  qgLayout(svg, view);
  qgReset();
  if (!humanToMove()) return;
  const seat = String(state.to_move);
  const choices = state.choices;
  for (const [cls, action] of [["stored-tile", "tile"], ["stored-expansion", "exp"]]) {
    for (const node of svg.querySelectorAll(`g.${cls}[data-seat="${seat}"]`)) {
      node.classList.add("pickable");
      node.addEventListener("click", () => qgPick(action, node));
    }
  }
  for (const joker of svg.querySelectorAll(`g.joker[data-seat="${seat}"]`)) {
    joker.addEventListener("click", () => { if (qgPaying !== null) qgTapPayment(joker); });
  }
  // Free spaces, and the petals of empty areas (where a stored expansion may go).
  for (const space of svg.querySelectorAll(`polygon[data-seat="${seat}"][data-cell]`)) {
    space.addEventListener("click", () => qgPlace(space));
  }
}

// A payment by taps: the stored hexagons some payment uses are highlighted; each tap takes one
// (or gives it back), the buttons left are the payments that still hold every one taken, and
// once the taken ones are a payment it is made. The buttons stay, for keyboards and readers.
function qgOfferPayment(tree) {
  qgEndPayment();
  qgPaying = { tree, picked: [] };
  const offered = new Set(tree.options.flatMap((option) => qgTokens(option.label)));
  const seat = String(state.to_move);
  const stored = `#board [data-seat="${seat}"]:is(g.stored-tile, g.stored-expansion, g.joker)`;
  for (const node of document.querySelectorAll(stored)) {
    node.classList.toggle("offered", offered.has(qgToken(node)));
  }
}

function qgEndPayment() {
  qgPaying = null;
  for (const node of document.querySelectorAll("#board .offered")) {
    node.classList.remove("offered", "paying");
  }
}

function qgTapPayment(node) {
  if (!node.classList.contains("offered")) {
    return say("That one pays for none of the choices: tap a highlighted hexagon.", true);
  }
  const picked = qgPaying.picked;
  const at = picked.findIndex((p) => p.node === node);
  if (at >= 0) picked.splice(at, 1);
  else picked.push({ token: qgToken(node), node });
  node.classList.toggle("paying", at < 0);
  const tokens = picked.map((p) => p.token);
  const fits = qgPaying.tree.options.filter((o) => qgWithin(tokens, qgTokens(o.label)));
  const exact = fits.find((o) => qgTokens(o.label).length === tokens.length);
  if (exact) return qgFollow(exact);
  if (!fits.length) {
    picked.pop();
    node.classList.remove("paying");
    return say("No payment holds that one with the others: tap another.", true);
  }
  const labels = new Set(fits.map((o) => o.label));
  for (const button of document.querySelectorAll("#qg-options button")) {
    button.hidden = !labels.has(button.dataset.option);
  }
  say(`${fits.length} ${fits.length === 1 ? "payment holds" : "payments hold"} those: ` +
    "tap more, or press one.");
}

function qgPick(action, node) {
  if (document.body.dataset.state !== "your-turn") return;
  const kind = node.dataset.kind;
  if (qgPaying !== null) return qgTapPayment(node);
  if (qgDiscards !== null) return qgToggleDiscard(action, node);
  const cells = state.choices[action][kind];
  if (!cells) {
    return say(`Your ${action === "exp" ? "expansion" : "tile"} ${qgHexagon(kind)} fits no free space ` +
      "now (or you cannot pay for it).", true);
  }
  qgPicked = { action, kind };
  $("#qg-question").hidden = true;
  $("#qg-cancel").hidden = false;
  $("#qg-panel").dataset.picking = action; // a phone's bar makes room for the garden
  if (NARROW.matches) {
    node.closest("g.seat").querySelector("g.garden").scrollIntoView({ block: "nearest" });
  }
  const svg = $("#board svg");
  for (const old of svg.querySelectorAll(".chosen")) old.classList.remove("chosen");
  node.classList.add("chosen");
  const seat = String(state.to_move);
  for (const space of svg.querySelectorAll(`polygon[data-seat="${seat}"][data-cell]`)) {
    const ok = space.dataset.cell in cells;
    space.classList.toggle("legal", ok);
    space.classList.toggle("dimmed", !ok);
  }
  say(`${qgHexagon(kind)}: click an outlined free space (${Object.keys(cells).length} possible).`);
}

function qgPlace(space) {
  if (document.body.dataset.state !== "your-turn") return;
  if (qgPicked === null) return say("First click a tile or an expansion in your storage.", true);
  const tree = state.choices[qgPicked.action][qgPicked.kind][space.dataset.cell];
  if (!tree) return say(`The ${qgHexagon(qgPicked.kind)} may not go there.`, true);
  qgFollow(tree);
}

function qgToggleDiscard(action, node) {
  const at = qgDiscards.findIndex((d) => d.node === node);
  if (at >= 0) {
    qgDiscards.splice(at, 1);
    node.classList.remove("chosen");
  } else {
    qgDiscards.push({ kind: node.dataset.kind, expansion: action === "exp", node });
    node.classList.add("chosen");
  }
  const names = qgDiscards.map((d) => d.kind + (d.expansion ? "x" : ""));
  say(names.length ? `Pass discards ${qgAnd(names.map(qgDiscard))}: press Pass.`
    : "Nothing to discard.");
}

// A hexagon, a discard and a question's option in words, as indigo.queens_garden.narration
// words them in the log ("yellow 3", "the yellow 3 expansion", "a joker", "slot 2").
const qgHexagon = (kind) => `${ATTRIBUTE_NAMES[kind.slice(0, 2)]} ${kind[2]}`;
const qgDiscard = (token) => (token === "*" ? "a joker" : token.endsWith("x")
  ? `the ${qgHexagon(token.slice(0, 3))} expansion` : `a ${qgHexagon(token)}`);
const qgAnd = (parts) => (parts.length <= 1 ? parts.join("")
  : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`);

function qgOptionWords(topic, label) {
  if (topic === "payment") {
    if (label === "nothing") return "nothing more";
    // Jokers counted, last, as the log says them ("a dark green 6 and 2 jokers").
    const tokens = label.split(" ");
    const jokers = tokens.filter((t) => t === "*").length;
    const parts = tokens.filter((t) => t !== "*").map(qgDiscard);
    if (jokers) parts.push(jokers === 1 ? "a joker" : `${jokers} jokers`);
    return qgAnd(parts);
  }
  if (topic === "slot") return `slot ${label}`;
  if (topic === "area") return `area ${label.slice(1)}`;
  if (topic === "kind") return qgHexagon(label);
  if (topic === "attribute") return ATTRIBUTE_NAMES[label];
  return label;
}

// The engine's reason a take is refused, in words where it names an attribute by its code.
function qgRefusalWords(reason) {
  const empty = /^no hexagon in the display shows (\w+): the selection is empty$/.exec(reason);
  if (empty && empty[1] in ATTRIBUTE_NAMES) {
    return `no ${ATTRIBUTE_NAMES[empty[1]]} hexagon is in the display`;
  }
  return reason;
}

function qgPromptWords(tree) {
  const take = /^take (\w{3}) from which slot\?$/.exec(tree.prompt);
  if (take) return `Take the ${qgHexagon(take[1])} from which slot?`;
  if (tree.topic === "payment") return "Pay with which?";
  return tree.prompt[0].toUpperCase() + tree.prompt.slice(1);
}

// A tree of questions: ask until one move is left, then play it. The buttons are words; the
// notation stays in each one's title and data-option.
function qgFollow(tree) {
  qgEndPayment();
  if (tree.move) return qgSend(tree.move);
  if (tree.topic === "payment") qgOfferPayment(tree);
  $("#qg-question").hidden = false;
  $("#qg-cancel").hidden = false;
  $("#qg-prompt").textContent = qgPromptWords(tree);
  const buttons = tree.options.map((option) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = qgOptionWords(tree.topic, option.label);
    button.title = option.label;
    button.dataset.option = option.label;
    button.addEventListener("click", () => qgFollow(option));
    return button;
  });
  $("#qg-options").replaceChildren(...buttons);
  say(qgPaying === null ? qgPromptWords(tree)
    : "Pay: tap the highlighted stored hexagons, or press a payment.");
}

async function qgSend(move) {
  qgReset();
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

// The side panel: the attributes that may be taken, buy and pass.
function qgPanel() {
  if (!humanToMove()) return;
  const choices = state.choices;
  const buttons = ATTRIBUTES.map((attribute) => {
    const button = document.createElement("button");
    button.type = "button";
    button.innerHTML = `<svg viewBox="-13 -13 26 26" aria-hidden="true">` +
      `${state.attributes[attribute]}</svg>`;
    button.title = `take ${ATTRIBUTE_NAMES[attribute]}`;
    button.dataset.attribute = attribute;
    button.disabled = !(attribute in choices.take);
    // A disabled button says why (the engine's reason, in words), on hover and to a screen
    // reader.
    if (button.disabled) button.title += `: not now, ${qgRefusalWords(state.take_refusals[attribute])}`;
    button.setAttribute("aria-label", button.title);
    button.addEventListener("click", () => {
      qgPicked = null;
      qgFollow(choices.take[attribute]);
    });
    // Pointing at an attribute marks the display's hexagons that show it.
    button.addEventListener("mouseenter", () => qgShows(attribute));
    button.addEventListener("mouseleave", () => qgShows(null));
    button.addEventListener("focus", () => qgShows(attribute));
    button.addEventListener("blur", () => qgShows(null));
    return button;
  });
  $("#qg-take").replaceChildren(...buttons);
  $("#qg-buy").disabled = choices.buy.length === 0;
  $("#qg-pass").disabled = !choices.pass;
  qgDisplayCopy();
}

// The display, copied beside the take buttons (shown on narrow screens, where the picture's
// display is out of sight once the garden is): the slots that hold something, in one row.
function qgDisplayCopy() {
  const copy = $("#qg-display");
  const slots = [...document.querySelectorAll("#board svg g.display g.slot")]
    .filter((slot) => ["top", "down", "up"].includes(slot.dataset.state));
  let x = 0;
  let height = 0;
  const placed = slots.map((slot) => {
    const box = slot.getBBox();
    const g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("transform", `translate(${x - box.x} ${-box.y})`);
    g.append(slot.cloneNode(true));
    x += box.width + 6;
    height = Math.max(height, box.height);
    return g;
  });
  copy.setAttribute("viewBox", `-2 -2 ${Math.max(x - 2, 1)} ${height + 4}`);
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", "display");
  group.append(...placed);
  copy.replaceChildren(group);
  copy.toggleAttribute("hidden", placed.length === 0);
}

function qgShows(attribute) {
  const hexagons = "#board g.display-hexagon, #qg-display g.display-hexagon";
  for (const hexagon of document.querySelectorAll(hexagons)) {
    const kind = hexagon.dataset.kind;
    const shows = attribute !== null && (kind.slice(0, 2) === attribute || kind[2] === attribute);
    hexagon.classList.toggle("chosen", shows);
  }
}

function qgBuy() {
  if (!isQg() || !humanToMove()) return;
  const areas = state.choices.buy;
  if (areas.length === 1) return qgSend(`buy ${areas[0]}`); // nothing to ask
  qgFollow({
    topic: "area",
    prompt: "buy into which area?",
    options: areas.map((area) => ({ label: area, move: `buy ${area}` })),
  });
}

function qgDiscardMode() {
  if (!isQg() || !humanToMove()) return;
  const on = qgDiscards === null;
  for (const old of document.querySelectorAll("#board .chosen")) old.classList.remove("chosen");
  qgPicked = null;
  qgDiscards = on ? [] : null;
  $("#qg-discard").setAttribute("aria-pressed", String(on));
  $("#qg-cancel").hidden = !on;
  if (on) $("#qg-panel").dataset.picking = "discards";
  else delete $("#qg-panel").dataset.picking;
  say(on ? "Click the stored tiles and expansions to discard, then press Pass." : "");
}

function qgPass() {
  if (!isQg() || !humanToMove()) return;
  const discards = (qgDiscards || []).map((d) => d.kind + (d.expansion ? "x" : ""));
  qgSend(["pass", ...discards].join(" "));
}

document.addEventListener("DOMContentLoaded", () => {
  $("#qg-buy").addEventListener("click", qgBuy);
  $("#qg-discard").addEventListener("click", qgDiscardMode);
  $("#qg-pass").addEventListener("click", qgPass);
  $("#qg-cancel").addEventListener("click", () => {
    qgReset();
    if (state) show(state);
    say("");
  });
});

// ---------------------------------------------------------------------------------------------
// Scoring explained: what the storage will cost at the end, and the breakdown of every score.

const qgValue = (kind) => Number(kind[2]); // a kind's pattern is its value
const qgSigned = (points) => (points < 0 ? `−${-points}` : points > 0 ? `+${points}` : "0");

// What seat `seat`'s storage would change at the end if the game ended now: +1 a joker, minus
// the value of each stored tile and expansion (QG 12; the score never drops below 0).
function qgStorageEnd(snapshot, seat) {
  const storage = snapshot.storage[seat];
  const values = [...storage.tiles, ...storage.expansions].reduce((n, k) => n + qgValue(k), 0);
  return { jokers: storage.jokers, values, points: storage.jokers - values };
}

// The score table's Queen's Garden column: "storage at the end: −N", live.
function qgScoreCells(view) {
  if (view.game !== QG) return;
  for (const row of document.querySelectorAll("#scores tr")) {
    const seat = Number(row.dataset.seat);
    const end = qgStorageEnd(view.snapshot, seat);
    const cell = row.querySelector("td.gems");
    cell.className = "storage-end";
    cell.dataset.points = end.points;
    cell.textContent = `storage at the end: ${qgSigned(end.points)}`;
    cell.title = `${end.jokers} jokers (+1 each) and stored hexagons worth ${end.values} ` +
      "(each costs its value) at the end of the game";
    cell.removeAttribute("aria-label");
  }
}

const qgCategory = (c) => ATTRIBUTE_NAMES[c] ?? c;

// Every seat's score, part by part: the start with the rounds' buys, passes and discards, each
// round's scoring (its wheel categories), and at the end the storage, groups and bonus; the
// parts add up to the score shown.
function qgBreakdown(view) {
  const panel = $("#breakdown-panel");
  const snapshot = view.game === QG ? view.snapshot : null;
  panel.hidden = snapshot === null || (!snapshot.round_points.length && !snapshot.final);
  if (panel.hidden) return;
  const seats = view.seats.map((s) => s.seat);
  const rounds = snapshot.round_points.map((points, r) => ({
    part: `round-${r + 1}`,
    label: `Round ${r + 1}: ${view.rules.wheel[r].map(qgCategory).join(", ")}`,
    points,
  }));
  const final = snapshot.final;
  const ending = final === null ? [] : [
    ["storage", "Storage left: jokers +1, hexagons −value"],
    ["groups", "Groups of 3 or more alike"],
    ["bonus", "Groups of 6 (+6 each)"],
  ].map(([part, label]) => ({ part, label, points: final.map((f) => f[part]) }));
  // What the rounds and the end scored; the rest is the start and the moves' points.
  const scored = seats.map((s) => [...rounds, ...ending].reduce((n, r) => n + r.points[s], 0));
  const rows = [{
    part: "play",
    label: "Start (15), less buys, first passes, discards",
    points: seats.map((s) => snapshot.scores[s] - scored[s]),
  }, ...rounds, ...ending];
  const head = document.createElement("tr");
  head.innerHTML = "<th></th>" + seats.map((s) => `<th>${seatName(s)}</th>`).join("");
  const body = rows.map((row) => {
    const tr = document.createElement("tr");
    tr.dataset.part = row.part;
    tr.innerHTML = `<th scope="row">${escapeHtml(row.label)}</th>` + seats
      .map((s) => `<td data-seat="${s}" data-points="${row.points[s]}">${row.points[s]}</td>`)
      .join("");
    return tr;
  });
  const total = document.createElement("tr");
  total.className = "total";
  total.innerHTML = `<th scope="row">${final === null ? "Score so far" : "Final score"}</th>` +
    seats.map((s) => `<td data-seat="${s}" data-total="${snapshot.scores[s]}">` +
      `${snapshot.scores[s]}</td>`).join("");
  $("#breakdown thead").replaceChildren(head);
  $("#breakdown tbody").replaceChildren(...body, total);
  $("#breakdown-title").textContent = final === null ? "Scoring so far" : "Final scoring";
  const jokers = Object.entries(view.rules.jokers).map(([e, n]) => `${e} ${n}`).join(", ");
  $("#breakdown-note").textContent = "The rounds' categories come from the scoring wheel and " +
    "the jokers an element pays when surrounded are settings of the game (by default the " +
    "wheel is a placeholder, not the printed one, and the jokers are fountain 1, statue 2, " +
    `bench 2, pavilion 3). This game: jokers ${jokers}.`;
}
