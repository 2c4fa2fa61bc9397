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

function qgReset() {
  qgPicked = null;
  qgDiscards = null;
  $("#qg-discard").setAttribute("aria-pressed", "false");
  $("#qg-question").hidden = true;
}

// The person's storage and garden in the picture: clicks pick, outline and place.
function qgBoard(svg) {
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
  // Free spaces, and the petals of empty areas (where a stored expansion may go).
  for (const space of svg.querySelectorAll(`polygon[data-seat="${seat}"][data-cell]`)) {
    space.addEventListener("click", () => qgPlace(space));
  }
}

function qgPick(action, node) {
  if (document.body.dataset.state !== "your-turn") return;
  const kind = node.dataset.kind;
  if (qgDiscards !== null) return qgToggleDiscard(action, node);
  const cells = state.choices[action][kind];
  if (!cells) {
    return say(`Your ${action === "exp" ? "expansion" : "tile"} ${qgHexagon(kind)} fits no free space ` +
      "now (or you cannot pay for it).", true);
  }
  qgPicked = { action, kind };
  $("#qg-question").hidden = true;
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
    return label === "nothing" ? "nothing more" : qgAnd(label.split(" ").map(qgDiscard));
  }
  if (topic === "slot") return `slot ${label}`;
  if (topic === "area") return `area ${label.slice(1)}`;
  if (topic === "kind") return qgHexagon(label);
  if (topic === "attribute") return ATTRIBUTE_NAMES[label];
  return label;
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
  if (tree.move) return qgSend(tree.move);
  $("#qg-question").hidden = false;
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
  say(qgPromptWords(tree));
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
    // A disabled button says why (the engine's reason), on hover and to a screen reader.
    if (button.disabled) button.title += `: not now, ${state.take_refusals[attribute]}`;
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
}

function qgShows(attribute) {
  for (const hexagon of document.querySelectorAll("#board g.display-hexagon")) {
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
