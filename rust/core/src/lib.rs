//! `indigo-core`: the rules of Indigo (Reiner Knizia, 2012) and Butterfly Garden, exactly as
//! `docs/spec/RULES.md` fixes them, and the `indigo-record/1` / `indigo-snapshot/1` formats.
//!
//! [`Position`] is a small `Copy` value for search: [`Position::for_each_legal`] and
//! [`Position::play_unchecked`] allocate nothing. [`Game`] adds history, undo and move effects.
//!
//! ```
//! use indigo_core::{Game, Rules};
//! let mut game = Game::from_seed(Rules::indigo(2).unwrap(), 7);
//! while let Some(mv) = game.position().legal_moves().first().copied() {
//!     game.play(mv).unwrap();
//! }
//! assert!(game.position().is_over());
//! assert_eq!(game.position().gems().count(), 0);
//! ```

// Private modules behind one flat facade: every public item has one path,
// `indigo_core::Name`.
mod action;
mod bench;
mod board;
mod bots;
mod game;
mod gem;
mod ismcts;
mod moves;
mod position;
mod record;
mod rng;
mod rules;
mod search_game;
mod selfplay;
mod simulate;
mod tile;
mod trace;
mod vector;

// The rules (docs/spec/RULES.md): configuration, board, tiles, gems, positions, games.
pub use board::{
    CELL_COUNT, Cell, CellKind, DIRECTIONS, RADIUS, ROUTE_CELL_COUNT, ROUTE_CELLS, opposite,
};
pub use game::Game;
pub use gem::Gem;
pub use moves::{Move, MoveError};
pub use position::{CENTRE_ORDER, GEM_TOTAL, IllegalDraw, IllegalMove, Phase, PileError, Position};
pub use rules::{GateVariant, MAX_PLAYERS, Rules, RulesError, Theme, TieBreak};
pub use tile::{
    Rotation, TILE_COUNTS, TILE_PATHS, TILE_TOTAL, TILE_TYPE_COUNT, TileType, canonical_rotation,
    paths,
};
pub use trace::{GemPath, MoveEffects, PathEnd, PathRecorder, Tracer};

// Records and snapshots (docs/spec/FORMATS.md).
pub use record::{
    ErrorAt, RECORD_FORMAT, RecordError, SNAPSHOT_FORMAT, move_to_json, read_record,
    read_record_value, rules_to_json, snapshot, write_record,
};

// Randomness: seeded deals, seeds and uniform draws.
pub use rng::{below, below_u32, box_in_type_order, game_seed, mix, pcg_pile, shuffled_pile};

// Search and learning: actions, observations, returns, bots, ISMCTS, batches, self-play,
// vectorised games and the benchmark workloads.
pub use action::{
    ACTION_COUNT, Action, ActionOutOfRange, ActionSet, ORIENTATION_BASE, ORIENTATION_COUNT,
};
pub use bench::{CallCosts, GamesSummary, MAX_COST_GAMES, call_costs, playouts};
pub use bots::{Bot, GreedyBot, PlayoutBot, RandomBot, random_placement, random_playout};
pub use ismcts::{Budget, Ismcts, IsmctsConfig, SearchResult, SettingsError, Visits};
pub use position::{
    Information, OBSERVATION_LAYOUT, OBSERVATION_PLANES, OBSERVATION_SCALARS, OBSERVATION_SIZE,
    ObservationValue, Utility,
};
pub use search_game::IndigoSetup;
pub use selfplay::{Samples, SelfPlayGame};
pub use simulate::{
    Batch, BatchError, BotSpec, BotSpecError, Deal, NativeBot, Outcome, in_range, play_game,
};
pub use vector::{
    Contents, Observations, Opponents, Outputs, VectorError, VectorGames, episode_seed,
};

// The Rust examples in the docs run as doctests, so the docs cannot drift from the crate.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/api.md")]
struct ApiDocs;

#[cfg(doctest)]
#[doc = include_str!("../../../docs/search.md")]
struct SearchDocs;

#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests_search_game;
