//! Azul: Queen's Garden for JavaScript: [`Garden`] (a game from a seed or a record, legal
//! moves, play, undo, the record, the `queens-garden-snapshot/1`, its picture and its legal
//! moves grouped for clicks, both the crate's, as the Python package's) and [`GardenBot`] (the
//! search crate's bots by the same specs as Indigo's).

use indigo_search::{Bot as _, BotSpec, SearchBot};
use queens_garden::{
    Attribute, Game, Move, Position, Rules, attribute_svg, move_choices, position_svg, read_record,
    write_record,
};
use wasm_bindgen::prelude::*;

use crate::{error, object, seed_of, spec_of};

/// `text` quoted, cut at 40 characters (as the Python package shows a bad move).
fn shown(text: &str) -> String {
    const LIMIT: usize = 40;
    if text.chars().count() > LIMIT {
        format!("{:?}...", text.chars().take(LIMIT).collect::<String>())
    } else {
        format!("{text:?}")
    }
}

/// A Queen's Garden game: a position and its history.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct Garden(Game);

#[wasm_bindgen]
impl Garden {
    /// A new game for `players` (2 to 4) under the standard rules, dealt from `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(players: u8, seed: f64) -> Result<Garden, JsError> {
        let rules = Rules::with_players(players).map_err(error)?;
        Ok(Garden(Game::from_seed(rules, seed_of(seed)?)))
    }

    /// The game a `queens-garden-record/1` (JSON text) holds, its moves replayed.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(text: &str) -> Result<Garden, JsError> {
        read_record(text)
            .map(Garden)
            .map_err(|e| error(format!("bad record: {e}")))
    }

    /// The game at the position a position text describes (docs/queens-garden.md, "Positions
    /// as text"), what is hidden drawn from `seed`, with no moves before it. Throws for a bad
    /// text, naming its field.
    #[wasm_bindgen(js_name = fromPosition)]
    pub fn from_position(text: &str, seed: f64) -> Result<Garden, JsError> {
        Position::from_text(text, seed_of(seed)?)
            .map(|p| Garden(Game::from_position(p)))
            .map_err(|e| error(format!("bad position: {e}")))
    }

    /// The position as one line of text (docs/queens-garden.md, "Positions as text").
    pub fn position(&self) -> String {
        self.0.position().to_text()
    }

    /// The number of players.
    #[wasm_bindgen(getter)]
    pub fn players(&self) -> u8 {
        self.0.position().rules().players()
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
    pub fn scores(&self) -> Vec<u32> {
        self.0.position().scores().to_vec()
    }

    /// The winning seats once the game is over (empty before).
    #[wasm_bindgen(getter)]
    pub fn winners(&self) -> Vec<u8> {
        self.0.position().winners()
    }

    /// The moves played, in notation.
    #[wasm_bindgen(getter)]
    pub fn moves(&self) -> Vec<String> {
        self.0.moves().iter().map(Move::to_string).collect()
    }

    /// The legal moves of the seat to move, in notation (empty once over).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves().iter().map(Move::to_string).collect()
    }

    /// Plays `mv` (notation, e.g. `"take bl 1"`, `"pass"`) for the seat to move; the move as
    /// the engine writes it. Throws for text that is not a move (`"..." is not a move: ...`)
    /// or an illegal move (`MOVE is illegal: ...`), as the Python package words them, and
    /// changes nothing then.
    pub fn play(&mut self, mv: &str) -> Result<String, JsError> {
        let parsed =
            Move::parse(mv).map_err(|e| error(format!("{} is not a move: {e}", shown(mv))))?;
        self.0
            .play(&parsed)
            .map_err(|e| error(format!("{parsed} is illegal: {e}")))?;
        Ok(parsed.to_string())
    }

    /// Takes back the last move; the move taken back. Throws when no move was played.
    pub fn undo(&mut self) -> Result<String, JsError> {
        self.0
            .undo()
            .map(|m| m.to_string())
            .ok_or_else(|| error("no move to undo"))
    }

    /// The game's `queens-garden-record/1`, as an object.
    pub fn record(&self) -> JsValue {
        object(&write_record(&self.0))
    }

    /// The position for drawing: the `queens-garden-snapshot/1`, with `legal` (the legal moves
    /// in notation) when asked.
    pub fn snapshot(&self, legal: bool) -> JsValue {
        object(&self.0.snapshot(legal))
    }

    /// The position as SVG (`queens_garden::position_svg`, as `indigo.queens_garden.svg`
    /// draws it): seats named `seats` (`P0 NAME`), `narrow` in one column for phones.
    #[allow(clippy::needless_pass_by_value)] // wasm-bindgen hands over arrays by value
    pub fn svg(&self, seats: Option<Vec<String>>, narrow: bool) -> Result<String, JsError> {
        let wheel = self.0.position().rules().wheel();
        position_svg(&self.0.snapshot(false), wheel, seats.as_deref(), narrow).map_err(error)
    }

    /// The legal moves grouped for clicks (`queens_garden::move_choices`, as
    /// `indigo.queens_garden.choices.move_choices`).
    #[wasm_bindgen(js_name = moveChoices)]
    pub fn move_choices(&self) -> JsValue {
        object(&move_choices(&self.legal_moves()))
    }

    /// An independent copy.
    #[must_use]
    #[wasm_bindgen(js_name = clone)]
    pub fn duplicate(&self) -> Garden {
        self.clone()
    }
}

/// An attribute (`bl` .. `dp`, `1` .. `6`) as its take button's picture, centred on the
/// origin. Throws for a name that is no attribute.
#[wasm_bindgen(js_name = attributeSvg)]
pub fn attribute_picture(attribute: &str) -> Result<String, JsError> {
    attribute
        .parse::<Attribute>()
        .map(attribute_svg)
        .map_err(error)
}

/// A seeded Queen's Garden bot by spec (`random`, `greedy`, `ismcts:N`, `ismcts:time=S`).
#[wasm_bindgen]
#[derive(Debug)]
pub struct GardenBot {
    spec: BotSpec,
    bot: SearchBot<Position>,
}

#[wasm_bindgen]
impl GardenBot {
    /// The bot `spec` names; its choices are fixed by `seed` (with a simulation budget).
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str, seed: f64) -> Result<GardenBot, JsError> {
        let spec = spec_of(spec)?;
        Ok(GardenBot {
            spec,
            bot: spec.build(seed_of(seed)?),
        })
    }

    /// The spec, written as the parser writes it.
    #[wasm_bindgen(getter)]
    pub fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The move (notation) for the seat to move in `garden`. Throws once the game is over.
    pub fn choose(&mut self, garden: &Garden) -> Result<String, JsError> {
        // A `net` bot's network must fit the game's seats.
        let players = indigo_search::Game::players(garden.0.position());
        self.spec.check::<Position>(Some(players)).map_err(error)?;
        self.bot
            .choose(garden.0.position())
            .map(|a| a.to_move().to_string())
            .ok_or_else(|| error("the game is over: there is no move to choose"))
    }
}
