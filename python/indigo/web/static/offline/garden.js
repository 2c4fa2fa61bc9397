// Azul: Queen's Garden in the offline page's server (engine.js): the views of
// python/indigo/queens_garden/web.py with the same JSON, from the engine compiled to
// WebAssembly (rust/wasm/src/garden.rs). The picture (Garden.svg) and the legal moves grouped
// for clicks (Garden.moveChoices) are the queens-garden crate's, the very code the server's
// Python package calls; what is here is the server's part: seats, scores, the log's lines and
// the results, with the moves in words as indigo.queens_garden.narration words them. The menu,
// attributes, their names, the swatches and words come from data.json.

/** The name of the game in the web's JSON (its `game` and `theme`). */
export const GARDEN = "queens-garden";

// Moves in words (indigo.queens_garden.narration), from the snapshots before and after.
const PLURALS = { butterfly: "butterflies", lily: "lilies" };

function and(parts) {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

class GardenNarrator {
  /** `words`: each attribute's name (narration.ATTRIBUTE_WORDS); `wheel`: the rules' wheel. */
  constructor(words, wheel) {
    this.words = words;
    this.wheel = wheel;
  }

  hexagon(kind) {
    return `${this.words[kind.slice(0, 2)]} ${kind[2]}`;
  }

  attribute(attribute) {
    const name = this.words[attribute];
    if (/^\d$/.test(attribute)) return `the ${PLURALS[name] ?? `${name}s`} (${attribute})`;
    return `the ${name} hexagons`;
  }

  discard(token) {
    if (token === "*") return "a joker";
    if (token.endsWith("x")) return `the ${this.hexagon(token.slice(0, 3))} expansion`;
    return `a ${this.hexagon(token)}`;
  }

  at(cell) {
    if (cell.startsWith("f")) return "beside the fountain";
    if (cell.endsWith("c")) return `at the centre of area ${cell[1]}`;
    return `in area ${cell[1]}`;
  }

  /** What a take takes: [slot, kind, is an expansion] for each kind showing its attribute. */
  taken(before, tokens) {
    const sources = new Map();
    const add = (kind, slot, expansion) => {
      if (!sources.has(kind)) sources.set(kind, []);
      sources.get(kind).push([slot, expansion]);
    };
    if (before.stack) for (const kind of before.stack.tiles) add(kind, before.stack.slot, false);
    for (const expansion of before.display) {
      if (expansion.face === "up") add(expansion.kind, expansion.slot, true);
      else for (const kind of expansion.tiles ?? []) add(kind, expansion.slot, false);
    }
    const attribute = tokens[1];
    const chosen = Object.fromEntries(tokens.slice(2).map((token) => token.split("@")));
    const taken = [];
    for (const [kind, places] of sources) {
      if (attribute !== kind.slice(0, 2) && attribute !== kind[2]) continue;
      const unique = [...new Map(places.map((p) => [`${p[0]},${p[1]}`, p])).values()];
      unique.sort((x, y) => x[0] - y[0] || Number(x[1]) - Number(y[1]));
      const [slot, expansion] = unique.find((p) => String(p[0]) === chosen[kind]) ?? unique[0];
      taken.push([slot, kind, expansion]);
    }
    // As Python sorts the tuples: by slot, then kind, then expansion.
    return taken.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) ||
      Number(x[2]) - Number(y[2]));
  }

  take(before, tokens) {
    const bySlot = new Map();
    for (const [slot, kind, expansion] of this.taken(before, tokens)) {
      if (!bySlot.has(slot)) bySlot.set(slot, []);
      bySlot.get(slot).push(expansion ? `the ${this.hexagon(kind)} expansion` : this.hexagon(kind));
    }
    const parts = [...bySlot].map(([slot, names]) => `${and(names)} from slot ${slot}`);
    return `took ${this.attribute(tokens[1])}: ${parts.join("; ")}`;
  }

  payment(tokens, value) {
    const discards = tokens.filter((t) => t !== "*").map((t) => this.discard(t));
    const jokers = tokens.filter((t) => t === "*").length;
    if (jokers) discards.push(jokers === 1 ? "a joker" : `${jokers} jokers`);
    if (!discards.length) return value === 1 ? "a tree pays for itself" : "paid nothing more";
    return `paying with ${and(discards)}`;
  }

  action(before, tokens, after, seat) {
    const verb = tokens[0];
    if (verb === "take") return this.take(before, tokens);
    if (verb === "buy") {
      return `bought a face-down expansion for 6 points and laid it in area ${tokens[1][1]}`;
    }
    if (verb === "pass") {
      const first = before.passed.some(Boolean) ? "" : " first";
      let text = `passed${first}`;
      if (first) text += " (so loses a point and starts the next round)";
      if (tokens.length > 1) text += `, discarding ${and(tokens.slice(1).map((t) => this.discard(t)))}`;
      return text;
    }
    const [kind, cell, ...discards] = tokens.slice(1);
    const paid = this.payment(discards, Number(kind[2]));
    const name = this.hexagon(kind);
    let text = verb === "tile"
      ? `placed a ${name} ${this.at(cell)}, ${paid}`
      : `laid the ${name} expansion in area ${cell[1]} (its ${name} on petal ${cell[2]}), ${paid}`;
    const left = before.storage[seat].jokers - discards.filter((t) => t === "*").length;
    const won = after.storage[seat].jokers - left;
    if (won > 0) text += `; surrounding an element won ${won} joker${won > 1 ? "s" : ""}`;
    return text;
  }

  scoring(before, after) {
    const lines = [];
    for (let number = before.round_points.length; number < after.round_points.length; number++) {
      const categories = this.wheel[number].map((a) => this.words[a]).join(", ");
      const points = after.round_points[number].map((p, s) => `P${s} +${p}`).join(", ");
      lines.push(`  round ${number + 1} scored (${categories}): ${points}`);
    }
    if (after.final && !before.final) {
      after.final.forEach((part, seat) => {
        const storage = part.storage >= 0 ? `+${part.storage}` : `${part.storage}`;
        lines.push(`  final scoring of P${seat}: storage ${storage}, groups +${part.groups}, ` +
          `bonus +${part.bonus}`);
      });
    }
    return lines;
  }

  /** Move `number` in words (narration.move_lines), from snapshots `before` and `after`. */
  lines(number, before, move, after) {
    const tokens = move.split(" ");
    const seat = before.to_move ?? 0;
    const changes = after.scores
      .map((points, s) => [s, points - before.scores[s]])
      .filter(([, change]) => change !== 0)
      .map(([s, change]) => `P${s} ${change > 0 ? "+" : ""}${change}`)
      .join(", ");
    const head = `Move ${number}: P${seat} ${this.action(before, tokens, after, seat)}`;
    return [head + (changes ? `  (${changes})` : ""), ...this.scoring(before, after)];
  }

  /** What the words name on the board (narration.move_marks). */
  marks(before, move) {
    const tokens = move.split(" ");
    let cells = [];
    let slots = [];
    if (tokens[0] === "take") {
      slots = [...new Set(this.taken(before, tokens).map(([slot]) => slot))].sort((a, b) => a - b);
    } else if (tokens[0] === "tile") {
      cells = [tokens[2]];
    } else if (tokens[0] === "exp" || tokens[0] === "buy") {
      const area = tokens[0] === "exp" ? tokens[2].slice(0, 2) : tokens[1];
      cells = [`${area}c`, ...[0, 1, 2, 3, 4, 5].map((petal) => `${area}${petal}`)];
    }
    return { seat: before.to_move ?? 0, cells, slots };
  }
}

/** Queen's Garden games for OfflineServer: how to make, read, play and show them. */
export class GardenViews {
  constructor(wasm, data) {
    this.wasm = wasm;
    this.data = data;
    this.name = GARDEN;
    this.format = "queens-garden-record/1";
  }

  /** A new game of `players` seats under the default rules (web.rules_from_body), from `seed`. */
  newGame(players, seed) {
    return new this.wasm.Garden(players, seed);
  }

  fromRecord(text) {
    return this.wasm.Garden.fromRecord(text);
  }

  players(game) {
    return game.players;
  }

  bot(spec, seed) {
    return new this.wasm.GardenBot(spec, seed);
  }

  narrator(game) {
    return new GardenNarrator(this.data.qg_attribute_words, game.record().rules.wheel);
  }

  /** The last move of `game`, played from the snapshot `before` (web.result_json). */
  result(game, before, move) {
    const after = game.snapshot(false);
    const narrator = this.narrator(game);
    return {
      move,
      seat: before.to_move ?? 0,
      points: after.scores.map((points, s) => points - before.scores[s]),
      game_over: game.over,
      paths: [],
      text: narrator.lines(game.moves.length, before, move, after),
      marks: narrator.marks(before, move),
    };
  }

  /** Plays `move` for the seat to move; its result (web.play_json). Throws as Garden.play. */
  play(game, move) {
    const before = game.snapshot(false);
    return this.result(game, before, game.play(move));
  }

  /** A refused move as the server answers it: 422 for an illegal one, else 400. */
  refusal(error) {
    const illegal = / is illegal: /.test(error.message);
    return illegal ? [422, error.message] : [400, `move: ${error.message}`];
  }

  /** Every move so far in words and what each names on the board, replayed from the start. */
  log(game) {
    const narrator = this.narrator(game);
    const replay = game.clone();
    while (replay.moves.length) replay.undo();
    const lines = [];
    const marks = [];
    game.moves.forEach((move, i) => {
      const before = replay.snapshot(false);
      replay.play(move);
      lines.push(narrator.lines(i + 1, before, move, replay.snapshot(false)));
      marks.push(narrator.marks(before, move));
    });
    replay.free();
    return [lines, marks];
  }

  /** What anyone may see of position `game` of a game of `total` moves (web.view_json). */
  view(session, game, total = game.moves.length) {
    const snapshot = game.snapshot(false);
    const record = game.record();
    const moves = game.moves;
    let last = null;
    if (moves.length) {
      const previous = game.clone();
      previous.undo();
      last = this.result(game, previous.snapshot(false), moves.at(-1));
      previous.free();
    }
    return {
      id: session.id,
      game: GARDEN,
      theme: GARDEN,
      players: snapshot.players,
      gems: {},
      seats: session.seats.map((player, seat) => ({
        seat,
        player,
        name: session.names[seat],
        colour: this.data.qg_seat_colours[seat],
        score: snapshot.scores[seat],
        collected: {},
        passed: snapshot.passed[seat],
      })),
      moves: moves.length,
      total_moves: total,
      to_move: snapshot.to_move,
      over: snapshot.over,
      winners: snapshot.winners,
      end: snapshot.over ? this.data.qg_end : "",
      round: snapshot.round,
      rules: { wheel: record.rules.wheel, jokers: record.rules.jokers },
      snapshot,
      last,
      svg: game.svg(session.names, false),
      svg_narrow: game.svg(session.names, true),
    };
  }

  /** Why each attribute not in `takes` may not be taken (web.take_refusals): the engine's
   * reason for its bare take, by attribute. */
  takeRefusals(game, takes) {
    const refusals = {};
    for (const attribute of this.data.qg_attributes) {
      if (attribute in takes) continue;
      const trial = game.clone();
      try {
        trial.play(`take ${attribute}`);
      } catch (error) {
        const at = error.message.indexOf(" is illegal: ");
        refusals[attribute] = at < 0 ? "" : error.message.slice(at + " is illegal: ".length);
      } finally {
        trial.free();
      }
    }
    return refusals;
  }

  /** The live position, and for a person to move the legal moves grouped for clicks. */
  state(session, canUndo, human) {
    const game = session.game;
    const out = this.view(session, game);
    const seat = game.toMove;
    const person = seat !== undefined && session.seats[seat] === human;
    out.to_move_player = seat === undefined ? null : session.seats[seat];
    [out.log, out.log_marks] = this.log(game);
    out.can_undo = canUndo;
    out.choices = person ? game.moveChoices() : null;
    out.take_refusals = person ? this.takeRefusals(game, out.choices.take) : null;
    out.attributes = person
      ? Object.fromEntries(this.data.qg_attributes.map((a) => [a, this.wasm.attributeSvg(a)]))
      : null;
    return out;
  }
}
