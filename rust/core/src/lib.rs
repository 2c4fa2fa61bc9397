//! `indigo-core`: the rules of Indigo (Reiner Knizia, 2012) and Butterfly Garden, exactly as
//! `shared/spec/RULES.md` fixes them, and the `indigo-record/1` / `indigo-snapshot/1` formats.
//!
//! [`Position`] is a small `Copy` value for search: [`Position::for_each_legal`] and
//! [`Position::apply`] allocate nothing. [`Game`] adds history, undo and move effects.
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

pub mod action;
pub mod bench;
pub mod board;
pub mod bots;
pub mod game;
pub mod gem;
pub mod ismcts;
pub mod moves;
pub mod position;
pub mod record;
pub mod rules;
pub mod search_game;
pub mod selfplay;
pub mod setup;
pub mod simulate;
pub mod tile;
pub mod trace;
pub mod vector;

pub use action::{ACTION_COUNT, Action, ActionSet};
pub use board::Cell;
pub use game::Game;
pub use gem::Gem;
pub use ismcts::{Budget, Ismcts, IsmctsConfig, SearchResult, SettingsError};
pub use moves::{Move, MoveError};
pub use position::{IllegalDraw, IllegalMove, Information, Phase, PileError, Position, Utility};
pub use record::{ErrorAt, RecordError};
pub use rules::{GateVariant, Rules, RulesError, Theme, TieBreak};
pub use selfplay::{Samples, SelfPlayGame};
pub use simulate::{Batch, BotSpec, Deal, NativeBot, Outcome};
pub use tile::{Rotation, TileType};
pub use trace::{GemPath, MoveEffects, PathEnd, Tracer};
pub use vector::{VectorError, VectorGames};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_search;
#[cfg(test)]
mod tests_search_game;
