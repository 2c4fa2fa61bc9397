// Azul: Queen's Garden in the offline page's server (engine.js): the views of
// python/indigo/queens_garden/web.py with the same JSON, from the engine compiled to
// WebAssembly (rust/wasm/src/garden.rs). The picture (Garden.svg) and the legal moves grouped
// for clicks (Garden.moveChoices) are the queens-garden crate's, the very code the server's
// Python package calls; what is here is the server's part: seats, scores, the log's lines and
// the results. The menu, attributes, swatches and words come from data.json.

/** The name of the game in the web's JSON (its `game` and `theme`). */
export const GARDEN = "queens-garden";

/** Move `number` in words: who played what, and each seat's score change (web.move_lines). */
function moveLines(number, seat, move, before, after) {
  const changes = after
    .map((points, s) => [s, points - before[s]])
    .filter(([, change]) => change !== 0)
    .map(([s, change]) => `P${s} ${change > 0 ? "+" : ""}${change}`)
    .join(", ");
  return [`Move ${number}: P${seat} ${move}${changes ? ` (${changes})` : ""}`];
}

const scoresOf = (game) => game.snapshot(false).scores;

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

  /** The last move of `game`, played by `seat` from scores `before` (web.result_json). */
  result(game, seat, move, before) {
    const after = scoresOf(game);
    return {
      move,
      seat,
      points: after.map((points, s) => points - before[s]),
      game_over: game.over,
      paths: [],
      text: moveLines(game.moves.length, seat, move, before, after),
    };
  }

  /** Plays `move` for the seat to move; its result (web.play_json). Throws as Garden.play. */
  play(game, move) {
    const seat = game.toMove ?? 0;
    const before = scoresOf(game);
    return this.result(game, seat, game.play(move), before);
  }

  /** A refused move as the server answers it: 422 for an illegal one, else 400. */
  refusal(error) {
    const illegal = / is illegal: /.test(error.message);
    return illegal ? [422, error.message] : [400, `move: ${error.message}`];
  }

  /** Every move so far in words, replayed from the start. */
  log(game) {
    const replay = game.clone();
    while (replay.moves.length) replay.undo();
    const lines = game.moves.map((move, i) => {
      const seat = replay.toMove ?? 0;
      const before = scoresOf(replay);
      replay.play(move);
      return moveLines(i + 1, seat, move, before, scoresOf(replay));
    });
    replay.free();
    return lines;
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
      last = this.result(game, previous.toMove ?? 0, moves.at(-1), scoresOf(previous));
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
    out.log = this.log(game);
    out.can_undo = canUndo;
    out.choices = person ? game.moveChoices() : null;
    out.take_refusals = person ? this.takeRefusals(game, out.choices.take) : null;
    out.attributes = person
      ? Object.fromEntries(this.data.qg_attributes.map((a) => [a, this.wasm.attributeSvg(a)]))
      : null;
    return out;
  }
}
