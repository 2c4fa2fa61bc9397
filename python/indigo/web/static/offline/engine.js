// The offline page's server: the routes of python/indigo/web/app.py, answered in the browser
// (in offline/worker.js) with the same JSON, from the engine compiled to WebAssembly
// (rust/wasm). Every rule and check is the engine's; what is here is the server's part: seats
// and bots, the JSON views, Indigo's board picture (as indigo.render.svg draws it) and its
// moves in words (as indigo.narration words them). Queen's Garden's views are in garden.js
// (its picture and click choices are the queens-garden crate's, as on the server). The menus,
// themes and names come from the Python package at build time (data.json, written by
// scripts/build-web).

import { GardenViews } from "./garden.js";

const HUMAN_DEFAULT = "human";
const SIZE = 36.0;
const APOTHEM = (SIZE * Math.sqrt(3)) / 2;
const GEM_RADIUS = 6.5;
const GEM_INSET = 0.7;
const EXIT_OUT = 0.9;
const MARGIN = 58.0;
const BOARD_MARGIN = 60.0;
const GEMS = ["amber", "emerald", "sapphire"];
const CENTRE = [0, 0];
const MAX_NAME = 40;
const MAX_SPEC = 64;

/** A refused request: answered as {error} with `status`, as the server does. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// ---------------------------------------------------------------------------------------------
// The picture (indigo.render.svg)

function fmt(value) {
  const text = value.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
  return text === "-0" ? "0" : text;
}

function escapeXml(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function attr(value) {
  return `"${escapeXml(value).replace(/"/g, "&quot;")}"`;
}

function direction(edge) {
  const angle = ((-90 + 60 * edge) * Math.PI) / 180;
  return [Math.cos(angle), Math.sin(angle)];
}

function cellCentre(q, r) {
  return [1.5 * SIZE * q, Math.sqrt(3) * SIZE * (r + q / 2)];
}

function edgePoint(q, r, edge, depth = 1.0) {
  const [x, y] = cellCentre(q, r);
  const [dx, dy] = direction(edge);
  return [x + depth * APOTHEM * dx, y + depth * APOTHEM * dy];
}

const gemPoint = (q, r, edge) => edgePoint(q, r, edge, GEM_INSET);

function hexPoints(x, y, radius = SIZE) {
  const corners = [];
  for (let i = 0; i < 6; i++) {
    const angle = (60 * i * Math.PI) / 180;
    corners.push(`${fmt(x + radius * Math.cos(angle))},${fmt(y + radius * Math.sin(angle))}`);
  }
  return corners.join(" ");
}

// The path command (without its start) along a tile's path from edge a to edge b.
function arc(q, r, a, b) {
  const [bx, by] = edgePoint(q, r, b);
  const sep = (((b - a) % 6) + 6) % 6;
  if (sep === 3) return `L${fmt(bx)},${fmt(by)}`;
  const [x, y] = cellCentre(q, r);
  let radius;
  let cx;
  let cy;
  if (sep === 1 || sep === 5) {
    radius = SIZE / 2;
    const first = sep === 1 ? a : b;
    const angle = ((-60 + 60 * first) * Math.PI) / 180;
    cx = x + SIZE * Math.cos(angle);
    cy = y + SIZE * Math.sin(angle);
  } else {
    radius = 1.5 * SIZE;
    const middle = sep === 2 ? (a + 1) % 6 : (b + 1) % 6;
    const [dx, dy] = direction(middle);
    cx = x + 2 * APOTHEM * dx;
    cy = y + 2 * APOTHEM * dy;
  }
  const [ax, ay] = edgePoint(q, r, a);
  const cross = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx);
  const sweep = cross > 0 ? 1 : 0;
  return `A${fmt(radius)},${fmt(radius)} 0 0 ${sweep} ${fmt(bx)},${fmt(by)}`;
}

function routeD(q, r, a, b) {
  const [ax, ay] = edgePoint(q, r, a);
  return `M${fmt(ax)},${fmt(ay)} ${arc(q, r, a, b)}`;
}

/** Where a gem went in a move, as SVG path data (indigo.render.svg.gem_path_d). */
function gemPathD(path) {
  const [q, r, edge] = path.start;
  const [sx, sy] = gemPoint(q, r, edge);
  const [mx, my] = edgePoint(q, r, edge);
  const parts = [`M${fmt(sx)},${fmt(sy)}`, `L${fmt(mx)},${fmt(my)}`];
  for (const [sq, sr, entry, exit] of path.steps) parts.push(arc(sq, sr, entry, exit));
  if (path.outcome === "rested" && path.end !== null) {
    const [ex, ey] = gemPoint(...path.end);
    parts.push(`L${fmt(ex)},${fmt(ey)}`);
  } else if (path.outcome === "collected" && path.steps.length) {
    const [lq, lr, , exit] = path.steps[path.steps.length - 1];
    const [ox, oy] = edgePoint(lq, lr, exit, 1 + EXIT_OUT);
    parts.push(`L${fmt(ox)},${fmt(oy)}`);
  }
  return parts.join(" ");
}

function butterfly(colour) {
  const wings = [];
  for (const side of [-1, 1]) {
    for (const [cx, cy, rx, ry, turn] of [[3.6, -2.4, 4.4, 3.2, 35], [2.9, 2.8, 3.1, 2.3, -30]]) {
      wings.push(`<ellipse cx="${side * cx}" cy="${cy}" rx="${rx}" ry="${ry}" ` +
        `transform="rotate(${side * turn} ${side * cx} ${cy})"/>`);
    }
  }
  return `<g fill="${colour}" stroke="#1d1d1d" stroke-width="0.8">${wings.join("")}</g>` +
    '<ellipse rx="1.1" ry="4.6" fill="#1d1d1d"/>' +
    '<path d="M-0.5,-4.2 L-2.2,-7.2 M0.5,-4.2 L2.2,-7.2" stroke="#1d1d1d" ' +
    'stroke-width="0.7" fill="none"/>';
}

/** The drawing helpers for one game: its rules (Rules.toJSON()), the board and the themes. */
class Painter {
  constructor(rules, geometry, themes) {
    this.rules = rules;
    this.geometry = geometry;
    this.colours = themes[rules.theme];
    this.garden = rules.theme === "butterfly-garden";
  }

  gemColour(gem) {
    return this.rules.gems[gem].colour;
  }

  gemMarkup(gem) {
    const colour = this.gemColour(gem);
    if (this.garden) return `<g class="butterfly">${butterfly(colour)}</g>`;
    return `<circle r="${GEM_RADIUS}" fill="${colour}" stroke="#111" stroke-width="1.2"/>`;
  }

  tileMarkup(tile, rotation = 0, [q, r] = CENTRE) {
    const colours = this.colours;
    const [x, y] = cellCentre(q, r);
    const parts = [
      `<g class="tile" data-q="${q}" data-r="${r}" data-tile="${tile}" ` +
        `data-rotation="${rotation}">`,
      `<polygon points="${hexPoints(x, y)}" fill="${colours.tile}" ` +
        `stroke="${colours.tile_line}" stroke-width="1.5"/>`,
    ];
    for (const [a0, b0] of this.geometry.tile_paths[tile]) {
      const a = (a0 + rotation) % 6;
      const b = (b0 + rotation) % 6;
      const d = routeD(q, r, a, b);
      parts.push(`<path d="${d}" fill="none" stroke="${colours.route_under}" stroke-width="9"/>` +
        `<path class="route" data-edges="${a} ${b}" d="${d}" fill="none" ` +
        `stroke="${colours.route}" stroke-width="5" stroke-linecap="butt"/>`);
    }
    parts.push("</g>");
    return parts.join("");
  }

  gem(gem, x, y, kind, data) {
    const extra = Object.entries(data).map(([k, v]) => ` data-${k}="${v}"`).join("");
    const colour = this.gemColour(gem);
    let wings = "";
    let look = 'stroke="#111" stroke-width="1.2"';
    if (this.garden) {
      wings = `<g class="wings" transform="translate(${fmt(x)} ${fmt(y)})"${extra}>` +
        `${butterfly(colour)}</g>`;
      look = 'fill-opacity="0" stroke="none"';
    }
    return `${wings}<circle class="gem ${kind}" data-gem="${gem}"${extra} cx="${fmt(x)}" ` +
      `cy="${fmt(y)}" r="${GEM_RADIUS}" fill="${colour}" ${look}>` +
      `<title>${escapeXml(this.rules.gems[gem].name)}</title></circle>`;
  }

  centre(snapshot) {
    const colours = this.colours;
    const [x, y] = cellCentre(...CENTRE);
    const out = [
      '<g class="treasure centre" data-q="0" data-r="0">',
      `<polygon points="${hexPoints(x, y)}" fill="${colours.treasure}" ` +
        `stroke="${colours.tile_line}" stroke-width="1.5"/>`,
      `<polygon points="${hexPoints(x, y, SIZE * 0.62)}" fill="none" ` +
        `stroke="${colours.ink}" stroke-opacity="0.35"/>`,
    ];
    snapshot.centre.forEach((gem, i) => {
      const angle = ((-90 + 60 * i) * Math.PI) / 180;
      const gx = x + 0.42 * SIZE * Math.cos(angle);
      const gy = y + 0.42 * SIZE * Math.sin(angle);
      out.push(this.gem(gem, gx, gy, "waiting", { order: i }));
    });
    out.push("</g>");
    return out;
  }

  corners() {
    const colours = this.colours;
    return this.geometry.corners.map(([q, r], d) => {
      const [x, y] = cellCentre(q, r);
      const arrow = (d + 3) % 6;
      const tip = edgePoint(q, r, arrow, 0.95);
      const left = edgePoint(q, r, (arrow + 1) % 6, 0.3);
      const right = edgePoint(q, r, (arrow + 5) % 6, 0.3);
      const triangle = [tip, left, right].map(([px, py]) => `${fmt(px)},${fmt(py)}`).join(" ");
      const a = (d + 2) % 6;
      const b = (d + 4) % 6;
      return `<g class="treasure corner" data-corner="${d}" data-q="${q}" data-r="${r}">` +
        `<polygon points="${hexPoints(x, y)}" fill="${colours.treasure}" ` +
        `stroke="${colours.tile_line}" stroke-width="1.5"/>` +
        `<polygon class="arrow" points="${triangle}" fill="${colours.ink}" ` +
        'fill-opacity="0.35"/>' +
        `<path class="route" data-edges="${a} ${b}" d="${routeD(q, r, a, b)}" fill="none" ` +
        `stroke="${colours.route}" stroke-width="5"/></g>`;
    });
  }

  gates() {
    const rules = this.rules;
    const out = [];
    for (let gate = 0; gate < 6; gate++) {
      const owners = rules.gate_owners[gate];
      const names = owners.map((s) => `P${s}`).join("+");
      out.push(`<g class="gate" data-gate="${gate}" data-owners="${owners.join(" ")}">` +
        `<title>${escapeXml(`${rules.gate_name} ${gate}: ${names}`)}</title>`);
      for (const [q, r] of this.geometry.gate_cells[gate]) {
        const [x, y] = cellCentre(q, r);
        for (const [edge, seat] of [[gate, owners[0]], [(gate + 1) % 6, owners.at(-1)]]) {
          const a = ((-120 + 60 * edge) * Math.PI) / 180;
          const b = ((-60 + 60 * edge) * Math.PI) / 180;
          const ends = `x1="${fmt(x + SIZE * Math.cos(a))}" y1="${fmt(y + SIZE * Math.sin(a))}" ` +
            `x2="${fmt(x + SIZE * Math.cos(b))}" y2="${fmt(y + SIZE * Math.sin(b))}"`;
          out.push(`<line ${ends} stroke="#7a7a7a" stroke-width="9" stroke-linecap="round"/>` +
            `<line class="exit" data-q="${q}" data-r="${r}" data-edge="${edge}" ${ends} ` +
            `stroke="${rules.seat_colours[seat]}" stroke-width="6" stroke-linecap="round"/>`);
        }
      }
      const [mq, mr] = this.geometry.gate_cells[gate][1];
      const [lx, ly] = edgePoint(mq, mr, gate, 1.0);
      const [dx, dy] = direction(gate);
      const [ex, ey] = direction((gate + 1) % 6);
      const tx = lx + 0.9 * APOTHEM * (dx + ex);
      const ty = ly + 0.9 * APOTHEM * (dy + ey);
      out.push(`<text class="gate-label" x="${fmt(tx)}" y="${fmt(ty)}" text-anchor="middle" ` +
        `dominant-baseline="middle" font-size="12" fill="${this.colours.ink}">` +
        `${gate}: ${escapeXml(names)}</text></g>`);
    }
    return out;
  }

  trails(paths) {
    const out = ['<g class="trails" fill="none" stroke-width="2.5" stroke-dasharray="5 4">'];
    paths.forEach((path, i) => {
      if (!path.steps.length) return;
      out.push(`<path class="trail" data-gem="${path.gem}" data-outcome="${path.outcome}" ` +
        `data-index="${i}" d="${gemPathD(path)}" stroke="${this.gemColour(path.gem)}"/>`);
    });
    out.push("</g>");
    return out;
  }

  /** The position as indigo.render.svg.game_svg draws it for the page (no score panel). */
  board(snapshot, moves, last) {
    const colours = this.colours;
    const halfW = 1.5 * SIZE * 4 + SIZE + BOARD_MARGIN;
    const halfH = 4 * Math.sqrt(3) * SIZE + APOTHEM + MARGIN;
    const width = 2 * halfW;
    const height = 2 * halfH;
    const parts = [
      '<svg xmlns="http://www.w3.org/2000/svg" class="indigo-board" ' +
        `data-theme="${this.rules.theme}" data-players="${this.rules.players}" ` +
        `data-moves="${moves.length}" viewBox="${fmt(-halfW)} ${fmt(-halfH)} ${fmt(width)} ` +
        `${fmt(height)}" width="${fmt(width)}" height="${fmt(height)}" ` +
        'font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">',
      `<title>${escapeXml(colours.title)}</title>`,
      `<rect x="${fmt(-halfW)}" y="${fmt(-halfH)}" width="${fmt(width)}" ` +
        `height="${fmt(height)}" fill="${colours.background}"/>`,
      '<g class="cells">',
    ];
    for (const [q, r] of this.geometry.route_cells) {
      const [x, y] = cellCentre(q, r);
      parts.push(`<polygon class="cell" data-q="${q}" data-r="${r}" data-cx="${fmt(x)}" ` +
        `data-cy="${fmt(y)}" points="${hexPoints(x, y)}" fill="${colours.cell}" ` +
        `stroke="${colours.cell_line}" stroke-width="1.5"/>`);
    }
    parts.push("</g>", ...this.gates(), '<g class="tiles">');
    for (const placed of snapshot.board) {
      parts.push(this.tileMarkup(placed.tile, placed.rotation, [placed.q, placed.r]));
    }
    parts.push("</g>", ...this.corners(), ...this.centre(snapshot));
    if (moves.length) {
      const [q, r] = parseMove(moves.at(-1)).cell;
      const [x, y] = cellCentre(q, r);
      parts.push(`<polygon class="last-move" data-q="${q}" data-r="${r}" ` +
        `points="${hexPoints(x, y, SIZE - 2)}" fill="none" stroke="${colours.highlight}" ` +
        'stroke-width="3.5"/>');
      if (last !== null) parts.push(...this.trails(last.paths));
    }
    parts.push('<g class="gems">');
    for (const { gem, q, r, edge } of snapshot.gems) {
      const [x, y] = gemPoint(q, r, edge);
      parts.push(this.gem(gem, x, y, "resting", { q, r, edge }));
    }
    parts.push("</g>", "</svg>");
    return `${parts.join("\n")}\n`;
  }
}

/** A move's notation `T@R:Q,R` as its parts. */
function parseMove(text) {
  const [tile, rotation, q, r] = text.match(/-?\d+/g).map(Number);
  return { tile, rotation, cell: [q, r] };
}

// ---------------------------------------------------------------------------------------------
// Moves in words (indigo.narration, plain text)

const DIRECTIONS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];
const RINGS = ["", "beside the centre", "the inner ring", "the outer ring"];
const ring = (q, r) => Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
const tiles = (n) => (n === 1 ? "1 tile" : `${n} tiles`);

class Narrator {
  constructor(rules, geometry, data) {
    this.rules = rules;
    this.corners = new Set(geometry.corners.map(([q, r]) => `${q},${r}`));
    this.gateOf = new Map();
    geometry.gate_cells.forEach((cells, gate) => {
      cells.forEach(([q, r], end) => this.gateOf.set(`${q},${r}`, [gate, end]));
    });
    this.edgeNames = data.edge_names;
    this.gemPoints = data.gem_points;
  }

  /** Where on its ring a cell lies: a direction (N) or between two (N-NE). */
  bearing(q, r) {
    const k = ring(q, r);
    for (let i = 0; i < 6; i++) {
      const [dq, dr] = DIRECTIONS[i];
      const [sq, sr] = DIRECTIONS[(i + 2) % 6];
      for (let step = 0; step < k; step++) {
        if (dq * k + sq * step !== q || dr * k + sr * step !== r) continue;
        const [name, next] = [this.edgeNames[i], this.edgeNames[(i + 1) % 6]];
        if (step === 0) return name;
        if (2 * step === k) return `${name}-${next}`;
        return `${name}-${next}, nearer ${2 * step < k ? name : next}`;
      }
    }
    throw new Error(`(${q},${r}) is not on the board`);
  }

  /** A cell as the board shows it (indigo.narration.place_name). */
  place(q, r) {
    if (q === CENTRE[0] && r === CENTRE[1]) return "the centre";
    if (this.corners.has(`${q},${r}`)) return `the ${this.bearing(q, r)} corner`;
    const edge = this.gateOf.get(`${q},${r}`);
    if (edge !== undefined) {
      const [gate, end] = edge;
      const along = [`${this.edgeNames[gate]} end`, "middle", `${this.edgeNames[(gate + 1) % 6]} end`];
      return `the edge by ${this.rules.gate_name} ${gate} (${along[end]})`;
    }
    return `${RINGS[ring(q, r)]} (${this.bearing(q, r)})`;
  }

  /** A place after its preposition (narration._at). */
  at(place) {
    if (place.startsWith("beside")) return place;
    if (place.startsWith("the inner") || place.startsWith("the outer")) return `in ${place}`;
    return place.startsWith("the edge") ? `on ${place}` : `at ${place}`;
  }

  origin(path) {
    const start = this.place(path.start[0], path.start[1]);
    if (start === "the centre" || start.endsWith("corner")) return `from ${start}`;
    return `waiting ${this.at(start)}`;
  }

  gemName(gem) {
    return this.rules.gems[gem].name;
  }

  /** Move `number` (its effects) in words: the placement, then one line per gem. */
  explain(number, effects) {
    const gains = effects.points.map((p, s) => (p ? `P${s} +${p}` : null)).filter(Boolean);
    const { cell } = parseMove(effects.move);
    let head = `Move ${number}: P${effects.seat} placed a tile ${this.at(this.place(...cell))}`;
    if (gains.length) head += `  (${gains.join(", ")})`;
    const lines = [head];
    const told = new Set();
    effects.paths.forEach((path, i) => {
      if (told.has(i)) return;
      told.add(i);
      lines.push(`  ${this.pathText(path, effects.paths, told)}`);
    });
    if (!effects.paths.length) lines.push("  no gem moved");
    return lines;
  }

  /** What the words name on the board (indigo.narration.move_marks). */
  marks(effects) {
    const gates = [...new Set(effects.paths.map((p) => p.gate).filter((g) => g !== null))];
    return {
      seat: effects.seat,
      cells: [parseMove(effects.move).cell],
      gates: gates.sort((a, b) => a - b),
    };
  }

  pathText(path, paths, told) {
    let moved = `the ${this.gemName(path.gem)} ${this.origin(path)}`;
    if (path.steps.length) moved += ` ran ${tiles(path.steps.length)} and`;
    if (path.outcome === "collected" && path.gate !== null) {
      const each = path.owners.length > 1 ? " each" : "";
      const owners = path.owners.map((s) => `P${s}`).join(" and ");
      return `${moved} left through ${owners}'s ${this.rules.gate_name} ${path.gate}: ` +
        `${owners} +${this.gemPoints[path.gem]}${each}`;
    }
    if (path.outcome === "collided" && path.collided_with !== null) {
      const other = paths[path.collided_with];
      told.add(path.collided_with);
      let otherText = `the ${this.gemName(other.gem)} ${this.origin(other)}`;
      if (other.steps.length) otherText += ` (${tiles(other.steps.length)})`;
      return `${moved} met ${otherText}: both left the game`;
    }
    if (path.end !== null) return `${moved} waits ${this.at(this.place(path.end[0], path.end[1]))}`;
    return `${moved} stopped`;
  }
}

/** Why the game ended (indigo.narration.end_reason); "" while it goes on. */
function endReason(snapshot, routeCells) {
  if (!snapshot.over) return "";
  if (snapshot.centre.length || snapshot.gems.length) return "no player holds a tile";
  if (snapshot.placed === routeCells) {
    return "no gem is left on the board, with the last tile placed";
  }
  return "no gem is left on the board";
}

// ---------------------------------------------------------------------------------------------
// The server

/** A game of the offline server: the game, its seats and their bots, and its game's views
 * (as the server's registry entry: OfflineServer.games). */
class Session {
  constructor(id, game, seats, names, bots, views) {
    this.id = id;
    this.game = game;
    this.seats = seats;
    this.names = names;
    this.bots = bots;
    this.views = views;
  }
}

/** The rules of `game` as JSON (Rules.toJSON()), freeing the engine's object. */
function rulesOf(game) {
  const rules = game.rules;
  const json = rules.toJSON();
  rules.free();
  return json;
}

function randomHex(bytes) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return [...values].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A random seed: a whole number below 2^52 (exact in JavaScript, with each seat's seed + seat). */
function randomSeed() {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high & 0xfffff) * 2 ** 32 + low;
}

export class OfflineServer {
  /** `wasm`: the module of rust/wasm (initialised); `data`: data.json. */
  constructor(wasm, data) {
    this.wasm = wasm;
    this.data = data;
    this.human = data.human || HUMAN_DEFAULT;
    this.geometry = wasm.geometry();
    this.games = new Map();
    // Each game's views, the default first (as indigo.games.GAMES).
    this.indigo = {
      name: "indigo",
      format: "indigo-record/1",
      fromRecord: (text) => wasm.Game.fromRecord(text),
      players: (game) => rulesOf(game).players,
      bot: (spec, seed) => new wasm.Bot(spec, seed),
      play: (game, move) => this.playMove(game, move),
      refusal: (error) => {
        // The engine's message: a move that cannot be read, or one that may not be played.
        const illegal = error.message.startsWith("cannot play");
        return illegal ? [422, error.message] : [400, `move: ${error.message}`];
      },
      view: (session, game) => this.viewJson(session, game),
      state: (session, canUndo) => this.indigoState(session, canUndo),
    };
    this.kinds = [this.indigo, new GardenViews(wasm, data)];
  }

  /** The answer to `method` `url` with `body` (parsed JSON, a Blob, or undefined):
   * {status, data} or {status, text, type} for a record. */
  async handle(method, url, body) {
    try {
      const answer = await this.route(method, new URL(url, "http://offline/"), body);
      // What the page keeps to restore the game after a reload (the worker's memory is lost).
      const id = answer.data && (answer.data.id ?? (answer.data.state && answer.data.state.id));
      if (method !== "GET" && this.games.has(id)) answer.saved = this.saved(this.games.get(id));
      return answer;
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, data: { error: error.message } };
      return { status: 500, data: { error: String(error && error.message ? error.message : error) } };
    }
  }

  async route(method, url, body) {
    const path = url.pathname;
    if (path === "/api/bots" && method === "GET") return this.listBots();
    if (path === "/api/games" && method === "GET") return { status: 200, data: { games: [] } };
    if (path === "/api/games" && method === "POST") return this.create(body);
    if (path === "/api/games/load" && method === "POST") return this.load(body);
    if (path === "/api/games/upload" && method === "POST") return this.upload(body);
    if (path === "/api/restore" && method === "POST") return this.restore(body);
    const match = /^\/api\/games\/([^/]+)(\/[a-z]+)?$/.exec(path);
    if (!match) throw new ApiError(404, "Not Found");
    const session = this.session(match[1]);
    const action = `${method} ${match[2] || ""}`;
    switch (action) {
      case "GET ":
        return { status: 200, data: this.state(session) };
      case "DELETE ":
        this.games.delete(session.id);
        return { status: 200, data: { deleted: session.id } };
      case "GET /view":
        return this.view(session, url.searchParams.get("move") || "");
      case "GET /record":
        return this.record(session);
      case "POST /moves":
        return this.play(session, body || {});
      case "POST /advance":
        return this.advance(session, body || {});
      case "POST /undo":
        return this.undo(session);
      default:
        throw new ApiError(405, "Method Not Allowed");
    }
  }

  /** A seat's name for people (table.seat_name): a menu's label of the bot, else its spec. */
  seatName(spec) {
    const bot = [...this.data.menu, ...this.data.qg_menu].find((c) => c.spec === spec);
    return bot ? bot.label : spec;
  }

  listBots() {
    return {
      status: 200,
      data: {
        human: this.human,
        bots: this.data.bots,
        menu: this.data.menu,
        qg_menu: this.data.qg_menu,
        titles: this.data.titles,
      },
    };
  }

  session(id) {
    const session = this.games.get(id);
    if (!session) throw new ApiError(404, `no game '${id.slice(0, 40)}' in this page`);
    return session;
  }

  // --- Checking requests

  seats(body, players = null) {
    const seats = body.seats;
    if (seats === undefined && players !== null) return Array(players).fill(this.human);
    if (!Array.isArray(seats) || !seats.every((s) => typeof s === "string")) {
      throw new ApiError(400, 'seats: must be a list of strings such as ["human", "greedy"]');
    }
    if (seats.length < 2 || seats.length > 4 || (players !== null && seats.length !== players)) {
      const want = players === null ? "2 to 4" : String(players);
      throw new ApiError(400, `seats: ${want} seats needed, not ${seats.length}`);
    }
    return seats.map((spec, seat) => {
      const name = spec.trim().toLowerCase();
      if (name.length > MAX_SPEC) throw new ApiError(400, `seats[${seat}]: longer than ${MAX_SPEC} characters`);
      if (name === this.human) return name;
      try {
        return this.wasm.normalizeBotSpec(name);
      } catch (error) {
        throw new ApiError(400, `seats[${seat}]: ${error.message}`);
      }
    });
  }

  hold(views, game, seats, seed, names = null, id = null) {
    const bots = new Map();
    seats.forEach((spec, seat) => {
      if (spec !== this.human) bots.set(seat, views.bot(spec, seed + seat));
    });
    if (id === null) {
      id = randomHex(6);
      while (this.games.has(id)) id = randomHex(6);
    }
    const shown = names || seats.map((spec) => this.seatName(spec));
    const session = new Session(id, game, seats, shown, bots, views);
    this.games.set(id, session);
    return { status: 201, data: { ...this.state(session), token: randomHex(32) } };
  }

  /** A game as the page keeps it to restore it: its id, record, seats and names. */
  saved(session) {
    const { id, seats, names } = session;
    return { id, record: session.game.record(), seats, names };
  }

  /** A game the page kept (saved()), held again under its id (its bots seeded afresh). */
  restore(saved) {
    const { id, record, seats, names } = saved || {};
    if (typeof id !== "string" || !/^[0-9a-f]{1,40}$/.test(id)) {
      throw new ApiError(400, "id: must be a game id");
    }
    if (!this.games.has(id)) {
      const [views, game] = this.gameOf(record);
      const seed = game.record().seed;
      const usable = Number.isSafeInteger(seed) && seed <= Number.MAX_SAFE_INTEGER - 4 ? seed : 0;
      const checked = this.seats({ seats }, views.players(game));
      const shown = Array.isArray(names) && names.length === checked.length ? names.map(String) : null;
      this.hold(views, game, checked, usable, shown, id);
    }
    return { status: 200, data: this.state(this.session(id)) };
  }

  create(given) {
    const body = given || {};
    const seats = this.seats(body);
    const choice = (key, choices, fallback) => {
      const value = body[key] ?? fallback;
      if (!choices.includes(value)) {
        throw new ApiError(400, `${key}: must be one of ${choices.join(", ")}, not ${JSON.stringify(value)}`);
      }
      return value;
    };
    const names = this.kinds.map((kind) => kind.name);
    const views = this.kinds[names.indexOf(choice("game", names, names[0]))];
    if (views !== this.indigo) {
      // Its default rules: the body's Indigo options do not apply (web.rules_from_body).
      const seed = this.seed(body);
      return this.hold(views, views.newGame(seats.length, seed), seats, seed);
    }
    const theme = choice("theme", ["indigo", "butterfly-garden"], "indigo");
    const gates = choice("gates", ["shared", "exclusive"], "shared");
    const handSize = body.hand_size ?? null;
    if (handSize !== null && handSize !== 1 && handSize !== 2) {
      throw new ApiError(400, `hand_size: must be an integer from 1 to 2, not ${handSize}`);
    }
    const seed = this.seed(body);
    // As indigo.table.demo_rules: the theme's preset unless a hand size or variant is given.
    let rules = this.wasm.Rules.preset(theme, seats.length);
    if (handSize !== null || gates !== "shared") {
      const size = handSize ?? rules.toJSON().hand_size;
      rules = new this.wasm.Rules(seats.length, size)
        .withThreePlayerGates(gates)
        .withTheme(theme);
    }
    return this.hold(this.indigo, new this.wasm.Game(rules, seed), seats, seed);
  }

  /** The body's seed, or a random one. */
  seed(body) {
    const seed = body.seed ?? null;
    if (seed !== null && !(Number.isSafeInteger(seed) && seed >= 0)) {
      throw new ApiError(400, `seed: must be an integer from 0 to ${Number.MAX_SAFE_INTEGER - 4}`);
    }
    return seed === null ? randomSeed() : seed;
  }

  /** The views of the game a record's `format` names (else Indigo's, whose reader then says
   * what is wrong) and the game the record holds. */
  gameOf(record) {
    const views = this.kinds.find((kind) => record && kind.format === record.format) ?? this.indigo;
    try {
      return [views, views.fromRecord(JSON.stringify(record))];
    } catch (error) {
      throw new ApiError(400, `record: ${error.message}`);
    }
  }

  holdLoaded(views, game, seats, record) {
    const seed = game.record().seed;
    const names = Array.isArray(record.players_names) && record.players_names.length === seats.length
      ? record.players_names.map((name, seat) => (typeof name === "string" && name.trim()
        ? name.split(/\s+/).filter(Boolean).join(" ").slice(0, MAX_NAME)
        : this.seatName(seats[seat])))
      : seats.map((s) => this.seatName(s));
    const usable = Number.isSafeInteger(seed) && seed <= Number.MAX_SAFE_INTEGER - 4 ? seed : 0;
    return this.hold(views, game, seats, usable, names);
  }

  load(body) {
    const record = body && body.record;
    if (!record || typeof record !== "object" || Array.isArray(record)) {
      throw new ApiError(400, "record: must be an indigo-record/1 JSON object");
    }
    const [views, game] = this.gameOf(record);
    return this.holdLoaded(views, game, this.seats(body, views.players(game)), record);
  }

  async upload(blob) {
    let record;
    try {
      record = JSON.parse(await blob.text());
    } catch (error) {
      throw new ApiError(400, `record: not JSON: ${error.message}`);
    }
    if (!record || typeof record !== "object" || Array.isArray(record)) {
      throw new ApiError(400, "record: must be an indigo-record/1 JSON object");
    }
    const [views, game] = this.gameOf(record);
    return this.holdLoaded(views, game, Array(views.players(game)).fill(this.human), record);
  }

  // --- JSON views (as app.py's)

  resultJson(painter, narrator, number, effects) {
    return {
      move: effects.move,
      seat: effects.seat,
      points: effects.points,
      game_over: effects.game_over,
      paths: effects.paths.map((p) => ({ ...p, colour: painter.gemColour(p.gem), d: gemPathD(p) })),
      text: narrator.explain(number, effects),
      marks: narrator.marks(effects),
    };
  }

  viewJson(session, game) {
    const rules = rulesOf(game);
    const painter = new Painter(rules, this.geometry, this.data.themes);
    const narrator = new Narrator(rules, this.geometry, this.data);
    const snapshot = game.snapshot();
    const moves = game.moves;
    const effects = game.lastEffects();
    const gems = {};
    for (const gem of GEMS) {
      gems[gem] = { ...rules.gems[gem], svg: painter.gemMarkup(gem) };
    }
    return {
      id: session.id,
      theme: rules.theme,
      players: rules.players,
      hand_size: rules.hand_size,
      gate_name: rules.gate_name,
      gates: rules.three_player_gates,
      gems,
      seats: session.seats.map((player, seat) => ({
        seat,
        player,
        name: session.names[seat],
        colour: rules.seat_colours[seat],
        score: snapshot.scores[seat],
        collected: snapshot.collected[seat],
        tiles_in_hand: snapshot.hands[seat].length,
      })),
      moves: moves.length,
      total_moves: session.game.moves.length,
      to_move: snapshot.to_move,
      over: snapshot.over,
      winners: snapshot.winners,
      end: endReason(snapshot, this.geometry.route_cells.length),
      pile_left: snapshot.pile_left,
      centre: snapshot.centre,
      removed: snapshot.removed,
      last: effects === null ? null : this.resultJson(painter, narrator, moves.length, effects),
      svg: painter.board(snapshot, moves, effects),
    };
  }

  /** Every move in words and what each names on the board, from the last back (each turn
   * keeps its effects). */
  log(game) {
    const narrator = new Narrator(rulesOf(game), this.geometry, this.data);
    const replay = game.clone();
    const lines = [];
    const marks = [];
    for (let number = replay.moves.length; number > 0; number--) {
      const effects = replay.lastEffects();
      lines.push(narrator.explain(number, effects));
      marks.push(narrator.marks(effects));
      replay.undo();
    }
    replay.free();
    return [lines.reverse(), marks.reverse()];
  }

  /** As indigo.table.undo_to_person: the game back before the last move of a person. */
  undoToPerson(session) {
    const trial = session.game.clone();
    while (trial.moves.length) {
      trial.undo();
      if (trial.toMove !== undefined && !session.bots.has(trial.toMove)) return trial;
    }
    trial.free();
    return null;
  }

  /** As indigo.table.legal_cells: per tile in hand and rotation, the cells it may go on. */
  legalCells(game) {
    const legal = game.legalMoves().map(parseMove);
    const out = {};
    for (const tile of [...new Set(legal.map((m) => m.tile))].sort()) {
      out[tile] = {};
      for (let rotation = 0; rotation < 6; rotation++) {
        const canonical = this.wasm.canonicalRotation(tile, rotation);
        out[tile][rotation] = legal
          .filter((m) => m.tile === tile && m.rotation === canonical)
          .map((m) => m.cell);
      }
    }
    return out;
  }

  /** The live position, and for a person to move what they may play. */
  state(session) {
    const trial = this.undoToPerson(session);
    if (trial !== null) trial.free();
    return session.views.state(session, trial !== null, this.human);
  }

  indigoState(session, canUndo) {
    const game = session.game;
    const out = this.viewJson(session, game);
    const seat = game.toMove;
    const human = seat !== undefined && session.seats[seat] === this.human;
    out.to_move_player = seat === undefined ? null : session.seats[seat];
    [out.log, out.log_marks] = this.log(game);
    out.can_undo = canUndo;
    const hand = human ? game.snapshot(seat).hands[seat] : null;
    out.hand = hand;
    out.legal = human ? this.legalCells(game) : null;
    if (human) {
      const painter = new Painter(rulesOf(game), this.geometry, this.data.themes);
      out.tiles = Object.fromEntries([...new Set(hand)].map((t) => [t, painter.tileMarkup(t)]));
    } else {
      out.tiles = null;
    }
    return out;
  }

  view(session, text) {
    const total = session.game.moves.length;
    if (!/^\d{1,3}$/.test(text) || Number(text) > total) {
      throw new ApiError(400, `move: must be an integer from 0 to ${total}, not '${text.slice(0, 20)}'`);
    }
    const shown = session.game.clone();
    for (let i = Number(text); i < total; i++) shown.undo();
    const out = session.views.view(session, shown, total);
    shown.free();
    return { status: 200, data: out };
  }

  record(session) {
    const game = session.game;
    if (!game.over) {
      throw new ApiError(409, "the record is given once the game is over: it holds the pile and the seed");
    }
    return { status: 200, text: `${JSON.stringify(game.record())}\n`, type: "application/json" };
  }

  checkTurn(session, seat) {
    const game = session.game;
    if (game.over || game.toMove === undefined) throw new ApiError(409, "the game is over");
    const players = session.seats.length;
    if (seat >= players) throw new ApiError(400, `seat: this game has seats 0 to ${players - 1}`);
    if (seat !== game.toMove) {
      throw new ApiError(409, `seat ${seat} is not to move: seat ${game.toMove} is`);
    }
  }

  /** Plays Indigo's `move` in `game`; its result. */
  playMove(game, move) {
    const effects = game.play(move);
    const rules = rulesOf(game);
    const painter = new Painter(rules, this.geometry, this.data.themes);
    const narrator = new Narrator(rules, this.geometry, this.data);
    return this.resultJson(painter, narrator, game.moves.length, effects);
  }

  play(session, body) {
    const seat = body.seat;
    const move = body.move;
    if (seat === undefined || seat === null) throw new ApiError(400, "seat: the seat that moves is required");
    if (!Number.isInteger(seat) || seat < 0 || seat > 3) {
      throw new ApiError(400, `seat: must be an integer from 0 to 3, not ${JSON.stringify(seat)}`);
    }
    if (typeof move !== "string") {
      throw new ApiError(400, 'move: must be a string in the game\'s notation, such as "4@0:0,-3"');
    }
    this.checkTurn(session, seat);
    if (session.seats[seat] !== this.human) {
      throw new ApiError(409, `seat ${seat} is played by the bot '${session.seats[seat]}'`);
    }
    let result;
    try {
      result = session.views.play(session.game, move);
    } catch (error) {
      throw new ApiError(...session.views.refusal(error));
    }
    return { status: 200, data: { results: [result], state: this.state(session) } };
  }

  advance(session, body) {
    const limit = body.max ?? 1;
    if (!Number.isInteger(limit) || limit < 1 || limit > 54) {
      throw new ApiError(400, `max: must be an integer from 1 to 54, not ${JSON.stringify(limit)}`);
    }
    const game = session.game;
    const results = [];
    for (let i = 0; i < limit; i++) {
      const seat = game.toMove;
      if (seat === undefined || !session.bots.has(seat)) break;
      results.push(session.views.play(game, session.bots.get(seat).choose(game)));
    }
    if (!results.length) {
      const who = game.over ? "the game is over" : `seat ${game.toMove} is a person`;
      throw new ApiError(409, `no bot to move: ${who}`);
    }
    return { status: 200, data: { results, state: this.state(session) } };
  }

  undo(session) {
    const earlier = this.undoToPerson(session);
    if (earlier === null) throw new ApiError(409, "no move of a person to undo");
    const undone = session.game.moves.length - earlier.moves.length;
    session.game.free();
    session.game = earlier;
    return { status: 200, data: { undone, state: this.state(session) } };
  }
}
