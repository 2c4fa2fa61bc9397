//! The WebAssembly binding of the engine, built with wasm-bindgen: the nouns of the Python
//! package for JavaScript. [`Rules`], a [`Game`] from a seed or a record, its legal moves, play
//! (answering the move's effects: each gem's path), undo, the record, the position for drawing
//! (an `indigo-snapshot/1`), and seeded [`Bot`]s by spec (`random`, `greedy`, `ismcts:1000`,
//! `ismcts:time=0.5`: a time budget reads the host's clock). Queen's Garden is in [`garden`].
//!
//! Every rule and every check is the core's: this crate converts values and errors. A refusal
//! is a JavaScript `Error` whose message is the core's. JSON-shaped answers (records,
//! snapshots, effects) are plain JavaScript objects. Seeds are JavaScript numbers: whole,
//! from 0 to 2^53 - 1.
//!
//! The crate also builds natively (clippy, and `examples/speed.rs`, the native side of the
//! speed comparison in docs/web.md).

// Every fallible entry throws a JavaScript `Error`; its doc comment says when ("Throws ...").
#![allow(clippy::missing_errors_doc)]

pub mod garden;

use indigo_game::{
    Cell, Game as CoreGame, GateVariant, Gem, GemPath, Move, MoveEffects, PathEnd, Position,
    Rotation, Rules as CoreRules, TILE_PATHS, Theme, TieBreak, TileType, canonical_rotation,
    read_record, rules_to_json, snapshot, write_record_checked,
};
use indigo_search::{Bot as _, BotSpec, SearchBot};
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

/// The largest seed a JavaScript number holds exactly (2^53 - 1).
const MAX_SEED: f64 = 9_007_199_254_740_991.0;

/// A JavaScript `Error` with `message`.
fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// `value` as a plain JavaScript object (through `JSON.parse`).
fn object(value: &Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap_or(JsValue::NULL)
}

/// A seed given as a JavaScript number, checked to be whole and in 0..=2^53 - 1.
fn seed_of(seed: f64) -> Result<u64, JsError> {
    if seed.fract() == 0.0 && (0.0..=MAX_SEED).contains(&seed) {
        Ok(seed as u64)
    } else {
        Err(error(format!(
            "seed must be a whole number from 0 to 2^53 - 1, not {seed}"
        )))
    }
}

/// A bot spec read by the search crate's parser; one thread only on the web.
fn spec_of(text: &str) -> Result<BotSpec, JsError> {
    let spec: BotSpec = text.parse().map_err(error)?;
    let threads = match spec {
        BotSpec::Ismcts(config) | BotSpec::Best(config) => config.threads(),
        BotSpec::Net(net) => net.config.threads(),
        _ => 1,
    };
    if threads != 1 && cfg!(target_arch = "wasm32") {
        return Err(error(format!(
            "bad bot {text:?}: threads must be 1 in WebAssembly (it runs on one thread)"
        )));
    }
    Ok(spec)
}

/// The engine's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// A bot spec written the one way the parser writes it back (`"ISMCTS: 500"` is
/// `"ismcts:500"`); throws for a spec no game's bots accept.
#[wasm_bindgen(js_name = normalizeBotSpec)]
pub fn normalize_bot_spec(spec: &str) -> Result<String, JsError> {
    spec_of(spec).map(|s| s.to_string())
}

/// The board's fixed geometry, for drawing: `route_cells` `[[q, r], ...]` (54),
/// `corners` `[[q, r], ...]` (6, in direction order), `gate_cells` (6 gates of 3 cells),
/// `tile_paths` (each tile type's 3 edge pairs at rotation 0).
#[wasm_bindgen]
pub fn geometry() -> JsValue {
    let axial = |cell: Cell| json!([cell.q(), cell.r()]);
    let route: Vec<Value> = indigo_game::ROUTE_CELLS
        .iter()
        .copied()
        .map(axial)
        .collect();
    let corners: Vec<Value> = (0..6).map(|d| axial(Cell::corner(d))).collect();
    let gates: Vec<Value> = (0..6)
        .map(|k| (1..=3).map(|j| axial(Cell::gate_cell(k, j))).collect())
        .collect();
    object(&json!({
        "route_cells": route,
        "corners": corners,
        "gate_cells": gates,
        "tile_paths": TILE_PATHS,
    }))
}

/// The rotation of `tile` turned `rotation` times that legal moves use: rotations that look
/// the same count once (a tile of three straights has 2).
#[wasm_bindgen(js_name = canonicalRotation)]
pub fn canonical(tile: u8, rotation: u8) -> Result<u8, JsError> {
    let tile = TileType::from_index(tile)
        .ok_or_else(|| error(format!("tile must be 0 to 4, not {tile}")))?;
    let rotation = Rotation::new(rotation)
        .ok_or_else(|| error(format!("rotation must be 0 to 5, not {rotation}")))?;
    Ok(canonical_rotation(tile, rotation).get())
}

/// The rules of an Indigo game (RULES.md sections 5, 8 and 9).
#[wasm_bindgen]
#[derive(Clone, Copy, Debug)]
pub struct Rules(CoreRules);

#[wasm_bindgen]
impl Rules {
    /// `players` (2 to 4) with hands of `hand_size` (1 or 2) tiles; every other rule standard.
    #[wasm_bindgen(constructor)]
    pub fn new(players: u8, hand_size: u8) -> Result<Rules, JsError> {
        CoreRules::new(players, hand_size).map(Rules).map_err(error)
    }

    /// The preset of `theme` (`"indigo"` or `"butterfly-garden"`) for `players`.
    pub fn preset(theme: &str, players: u8) -> Result<Rules, JsError> {
        let theme: Theme = theme.parse().map_err(error)?;
        CoreRules::preset(theme, players).map(Rules).map_err(error)
    }

    /// With three players, `"shared"` or `"exclusive"` gates.
    #[wasm_bindgen(js_name = withThreePlayerGates)]
    pub fn with_three_player_gates(&self, variant: &str) -> Result<Rules, JsError> {
        let variant: GateVariant = variant.parse().map_err(error)?;
        Ok(Rules(self.0.with_three_player_gates(variant)))
    }

    /// Ties on points broken by `"most-gems"` or `"shared"`.
    #[wasm_bindgen(js_name = withTieBreak)]
    pub fn with_tie_break(&self, tie_break: &str) -> Result<Rules, JsError> {
        let tie_break: TieBreak = tie_break.parse().map_err(error)?;
        Ok(Rules(self.0.with_tie_break(tie_break)))
    }

    /// Whether every player sees every hand.
    #[must_use]
    #[wasm_bindgen(js_name = withOpenHands)]
    pub fn with_open_hands(&self, open: bool) -> Rules {
        Rules(self.0.with_open_hands(open))
    }

    /// `"indigo"` or `"butterfly-garden"` (names and colours; play is unchanged).
    #[wasm_bindgen(js_name = withTheme)]
    pub fn with_theme(&self, theme: &str) -> Result<Rules, JsError> {
        let theme: Theme = theme.parse().map_err(error)?;
        Ok(Rules(self.0.with_theme(theme)))
    }

    /// The record's rules object, with `theme`, `gate_name`, each gem's `name` and `colour`,
    /// each seat's `colour` and each gate's `owners`.
    #[wasm_bindgen(js_name = toJSON)]
    pub fn to_json(&self) -> JsValue {
        object(&rules_json(self.0))
    }
}

fn rules_json(rules: CoreRules) -> Value {
    let theme = rules.theme();
    let mut out = rules_to_json(rules);
    let gems: serde_json::Map<String, Value> = Gem::ALL
        .iter()
        .map(|&g| {
            let about = json!({"name": theme.gem_name(g), "colour": theme.gem_colour(g)});
            (g.as_str().to_owned(), about)
        })
        .collect();
    out["theme"] = theme.as_str().into();
    out["gate_name"] = theme.gate_name().into();
    out["gems"] = Value::Object(gems);
    out["seat_colours"] = (0..rules.players()).map(|s| theme.seat_colour(s)).collect();
    out["gate_owners"] = (0..6)
        .map(|g| rules.gate_owners(g).collect::<Vec<u8>>())
        .collect();
    out
}

/// One gem's path as the Python package's `GemPath`: `gem`, `start` `[q, r, edge]`, `steps`
/// `[[q, r, entry, exit], ...]`, `outcome` (`rested`, `collected`, `collided`), `end`,
/// `gate`, `owners`, `collided_with`.
fn path_json(path: &GemPath, players: u8) -> Value {
    let (cell, edge) = path.start;
    let steps: Vec<Value> = path
        .steps
        .iter()
        .map(|&(c, a, b)| json!([c.q(), c.r(), a, b]))
        .collect();
    let mut out = json!({
        "gem": path.gem.as_str(),
        "start": [cell.q(), cell.r(), edge],
        "steps": steps,
        "outcome": "rested",
        "end": null,
        "gate": null,
        "owners": [],
        "collided_with": null,
    });
    match path.end {
        PathEnd::Rested(c, e) => out["end"] = json!([c.q(), c.r(), e]),
        PathEnd::Collected { gate, owners } => {
            out["outcome"] = "collected".into();
            out["gate"] = gate.into();
            out["owners"] = (0..players).filter(|s| owners & (1 << s) != 0).collect();
        }
        PathEnd::Collided(other) => {
            out["outcome"] = "collided".into();
            out["collided_with"] = other.into();
        }
    }
    out
}

/// A move's effects: `move`, `seat`, `points` per seat, `game_over` and each gem's path.
fn effects_json(effects: &MoveEffects, players: u8) -> Value {
    json!({
        "move": effects.mv.to_string(),
        "seat": effects.seat,
        "points": &effects.points[..usize::from(players)],
        "game_over": effects.game_over,
        "paths": effects
            .paths
            .iter()
            .map(|p| path_json(p, players))
            .collect::<Vec<_>>(),
    })
}

/// An Indigo game: a position and its history.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct Game(CoreGame);

#[wasm_bindgen]
impl Game {
    /// A new game under `rules` whose pile is shuffled from `seed` (as the Python package's
    /// `Game(rules, seed=seed)`).
    #[wasm_bindgen(constructor)]
    pub fn new(rules: &Rules, seed: f64) -> Result<Game, JsError> {
        Ok(Game(CoreGame::from_seed(rules.0, seed_of(seed)?)))
    }

    /// The game an `indigo-record/1` (JSON text) holds, its moves replayed.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(text: &str) -> Result<Game, JsError> {
        read_record(text)
            .map(Game)
            .map_err(|e| error(format!("bad record: {e}")))
    }

    /// The game at the position a position text describes (docs/notation.md, "Positions as
    /// text"), the pile's order drawn from `seed`, with no moves before it. Throws for a bad
    /// text, naming its field.
    #[wasm_bindgen(js_name = fromPosition)]
    pub fn from_position(text: &str, seed: f64) -> Result<Game, JsError> {
        Position::from_text(text, seed_of(seed)?)
            .map(|p| Game(CoreGame::from_position(p)))
            .map_err(|e| error(format!("bad position: {e}")))
    }

    /// The position as one line of text (docs/notation.md, "Positions as text").
    pub fn position(&self) -> String {
        self.0.position().to_text()
    }

    /// The game's rules.
    #[wasm_bindgen(getter)]
    pub fn rules(&self) -> Rules {
        Rules(self.0.rules())
    }

    /// The seat to move, or `undefined` once the game is over.
    #[wasm_bindgen(getter, js_name = toMove)]
    pub fn to_move(&self) -> Option<u8> {
        self.0.position().to_move()
    }

    /// Whether the game is over.
    #[wasm_bindgen(getter)]
    pub fn over(&self) -> bool {
        self.0.position().is_over()
    }

    /// Each seat's points.
    #[wasm_bindgen(getter)]
    pub fn scores(&self) -> Vec<u16> {
        let players = usize::from(self.0.rules().players());
        self.0.position().scores()[..players].to_vec()
    }

    /// The winning seats once the game is over (empty before).
    #[wasm_bindgen(getter)]
    pub fn winners(&self) -> Vec<u8> {
        let mask = self.0.position().winners();
        (0..self.0.rules().players())
            .filter(|s| mask & (1 << s) != 0)
            .collect()
    }

    /// The moves played, in notation `T@R:Q,R`.
    #[wasm_bindgen(getter)]
    pub fn moves(&self) -> Vec<String> {
        self.0.moves().map(|m| m.to_string()).collect()
    }

    /// The legal moves of the seat to move, in notation (empty once over).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        self.0
            .position()
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect()
    }

    /// Plays `mv` (notation `T@R:Q,R`) for the seat to move; its effects: `move`, `seat`,
    /// `points`, `game_over` and `paths` (each gem that moved). Throws for text that is not a
    /// move or an illegal move, and changes nothing then.
    pub fn play(&mut self, mv: &str) -> Result<JsValue, JsError> {
        let parsed: Move = mv.parse().map_err(error)?;
        let players = self.0.rules().players();
        let effects = self
            .0
            .play(parsed)
            .map_err(|e| error(format!("cannot play {parsed}: {e}")))?;
        Ok(object(&effects_json(effects, players)))
    }

    /// Takes back the last move; the move taken back. Throws when no move was played.
    pub fn undo(&mut self) -> Result<String, JsError> {
        self.0
            .undo()
            .map(|m| m.to_string())
            .ok_or_else(|| error("no move to undo"))
    }

    /// The last move's effects (as [`Game::play`] answered), or `null` before the first move.
    #[wasm_bindgen(js_name = lastEffects)]
    pub fn last_effects(&self) -> JsValue {
        let players = self.0.rules().players();
        self.0
            .last_effects()
            .map_or(JsValue::NULL, |e| object(&effects_json(e, players)))
    }

    /// The game's `indigo-record/1`, as an object. Throws for a game from a mid-game position
    /// ([`Game::from_position`]), which no record describes.
    pub fn record(&self) -> Result<JsValue, JsError> {
        write_record_checked(&self.0)
            .map(|r| object(&r))
            .map_err(error)
    }

    /// The position for drawing: an `indigo-snapshot/1` (board, gems, centre, scores, gems
    /// collected, hands, tiles left), as seat `viewer` sees it (others' tiles `null`), or
    /// with every hand when `viewer` is `undefined`.
    pub fn snapshot(&self, viewer: Option<u8>) -> Result<JsValue, JsError> {
        let players = self.0.rules().players();
        if let Some(seat) = viewer.filter(|&s| s >= players) {
            return Err(error(format!(
                "viewer must be a seat from 0 to {}, not {seat}",
                players - 1
            )));
        }
        Ok(object(&snapshot(self.0.position(), viewer, false)))
    }

    /// An independent copy.
    #[must_use]
    #[wasm_bindgen(js_name = clone)]
    pub fn duplicate(&self) -> Game {
        self.clone()
    }
}

/// A seeded Indigo bot by spec: `random`, `greedy`, `playout`, `ismcts:N` (simulations),
/// `ismcts:time=S` (seconds on the host's clock), with `c=` for the exploration.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Bot {
    spec: BotSpec,
    bot: SearchBot<Position>,
}

#[wasm_bindgen]
impl Bot {
    /// The bot `spec` names; its choices are fixed by `seed` (with a simulation budget).
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str, seed: f64) -> Result<Bot, JsError> {
        let spec = spec_of(spec)?;
        Ok(Bot {
            spec,
            bot: spec.build(seed_of(seed)?),
        })
    }

    /// The spec, written as the parser writes it.
    #[wasm_bindgen(getter)]
    pub fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The move (notation) for the seat to move in `game`, seen as that seat sees it. Throws
    /// once the game is over.
    pub fn choose(&mut self, game: &Game) -> Result<String, JsError> {
        // A `net` bot's network must fit the game's seats.
        let players = indigo_search::Game::players(game.0.position());
        self.spec.check::<Position>(Some(players)).map_err(error)?;
        self.bot
            .choose(game.0.position())
            .map(|action| action.to_move().to_string())
            .ok_or_else(|| error("the game is over: there is no move to choose"))
    }
}

/// Plays `games` whole games of random placements from `seed` under `rules` (the workload of
/// the speed comparison, `indigo_game::playouts`); the placements made in all.
#[wasm_bindgen(js_name = randomPlayouts)]
pub fn random_playouts(rules: &Rules, seed: f64, games: u32) -> Result<f64, JsError> {
    let seed = seed_of(seed)?;
    let summary = indigo_game::playouts(rules.0, seed, 0..u64::from(games));
    Ok(summary.placements as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Natively only what makes no JavaScript value: a refusal (a `JsError`) needs a host.
    #[test]
    fn games_of_both_kinds_load_from_their_position_texts() {
        let mut game = Game::new(&Rules::new(3, 2).unwrap(), 5.0).unwrap();
        for _ in 0..7 {
            let mv = game.legal_moves()[0].clone();
            game.0.play(mv.parse().unwrap()).unwrap();
        }
        let text = game.position();
        assert_eq!(Game::from_position(&text, 2.0).unwrap().position(), text);

        let mut garden = garden::Garden::new(4, 5.0).unwrap();
        for _ in 0..9 {
            let mv = garden.legal_moves()[0].clone();
            garden.play(&mv).unwrap();
        }
        let text = garden.position();
        assert_eq!(
            garden::Garden::from_position(&text, 2.0)
                .unwrap()
                .position(),
            text
        );
    }

    #[test]
    fn the_net_bot_plays_whole_games_of_both_games() {
        let mut game = Game::new(&Rules::new(2, 2).unwrap(), 3.0).unwrap();
        let mut bot = Bot::new("net:8", 1.0).unwrap();
        assert_eq!(bot.spec(), "net:8");
        while game.to_move().is_some() {
            let mv = bot.choose(&game).unwrap();
            game.0.play(mv.parse().unwrap()).unwrap();
        }
        let mut garden = garden::Garden::new(2, 3.0).unwrap();
        let mut bot = garden::GardenBot::new("net:8", 1.0).unwrap();
        while garden.to_move().is_some() {
            let mv = bot.choose(&garden).unwrap();
            garden.play(&mv).unwrap();
        }
    }
}
