//! `queens-garden`: the rules of Azul: Queen's Garden (Michael Kiesling, 2021), base game,
//! exactly as `docs/spec/QUEENS_GARDEN.md` fixes them, and the `queens-garden-record/1` /
//! `queens-garden-snapshot/1` formats of `docs/spec/QG_FORMATS.md`. No Python required.
//!
//! # API
//!
//! * Components: [`Colour`], [`Value`] (pattern value 1..6), [`Kind`] (36, `bl1`..`dp6`),
//!   [`Attribute`] (12), [`Cell`] (48, `f0`, `a2c`, `a24`), [`Area`], [`Element`] with its
//!   ring; [`Rules`] (players, [`Wheel`], [`Jokers`]).
//! * [`Move`] with [`Move::parse`] (free token order, section 15.1) and `Display` (canonical
//!   form); its lists [`Choices`], [`Payment`], [`Discards`] of [`Hexagon`]s.
//! * [`Position`]: [`Position::legal_moves`] / [`Position::legal_moves_into`] (canonical
//!   order of 15.3), [`Position::check`], [`Position::play`] (validated, unchanged on error),
//!   [`Position::play_unchecked`] (trusted callers), accessors (`round`, `phase`, `to_move`,
//!   `scores`, `storage(s)`, `garden(s)`, `stack`, `display`, `bag_len`, `tower`, `supply`,
//!   `passed`, `start_player`, `first_passer`, `round_points`, `final_scores`, `is_over`,
//!   `winners`, `moves_played`, `last_move`) and [`Position::snapshot`].
//! * For people: [`position_svg`] (the picture of a snapshot), [`move_choices`],
//!   [`next_question`] and [`candidates`] (a move completed by questions).
//! * [`Game`]: a position plus history: [`Game::play`], [`Game::play_notation`] (errors
//!   [`PlayError`]), [`Game::undo`], [`Game::moves`],
//!   [`Game::refills`], [`Game::to_record`], [`Game::snapshot`]; [`Game::to_state`] /
//!   [`Game::from_state`] ([`STATE_FORMAT`]) carry any game exactly, hidden information, source
//!   of refills and history included (what a record cannot do for a game that starts
//!   mid-game, such as a determinization or a chance successor).
//! * Explicit chance ([`ChanceEvent`]): [`Position::chance_event`] (what a move draws and
//!   reveals), [`Position::play_with_outcomes`], [`Position::with_first_draws`], for callers
//!   that choose chance's outcomes (OpenSpiel's chance nodes).
//! * Records: [`read_record`], [`read_record_value`] (errors [`RecordError`] at an
//!   [`ErrorAt`]), [`write_record`], [`snapshot`].
//!
//! # Randomness
//!
//! A game's randomness is its bag order, its expansion order and its refills (section 11.3).
//! It is explicit ([`Game::new`], a record's `bag`, `expansions`, `refills`) or comes from a
//! seed `0..2^64` ([`Game::from_seed`]), exactly as CPython does it (crate `pyrandom`):
//!
//! 1. `rng = random.Random(seed)`; the bag is `rng.shuffle` of the 108 tiles in kind order
//!    (kind id ascending, three copies each);
//! 2. with the same `rng` continuing, the expansions are `rng.shuffle` of the 36 kinds in
//!    kind order;
//! 3. refill `k` (0-based) is the bag's remaining tiles plus the tower's, sorted by kind id,
//!    shuffled with a fresh `random.Random(seed + (k + 1) * 2**64)`.
//!
//! A seeded game's record lists the refills it used, so it replays without the seed.
//!
//! ```
//! use queens_garden::{Game, Rules};
//! let mut game = Game::from_seed(Rules::with_players(2).unwrap(), 7);
//! while let Some(mv) = game.legal_moves().first().copied() {
//!     game.play(&mv).unwrap();
//! }
//! assert!(game.position().is_over());
//! assert_eq!(game.position().tile_total(), 108);
//! ```
//!
//! # Bots and search
//!
//! [`Position`] implements the game trait of the crate `indigo-search`, so its bots play
//! Queen's Garden: by spec string ([`indigo_search::BotSpec`]: `random`, `greedy`,
//! `ismcts:1000`, ...) or directly, and [`indigo_search::Ismcts`] searches a move from what
//! the seat to move knows (a determinization redraws only what nobody has seen: the bag order
//! and the hidden expansions). A bot's choice is an [`Action`]; [`Action::to_move`] gives its
//! [`Move`].
//!
//! ```
//! use indigo_search::{Ismcts, IsmctsConfig};
//! use queens_garden::{Game, Rules, read_record};
//!
//! let mut game = Game::from_seed(Rules::with_players(2).unwrap(), 7);
//! let found = Ismcts::new(IsmctsConfig::simulations(50), 1).search(game.position()).unwrap();
//! let mv = found.best.to_move();
//! assert!(game.legal_moves().contains(&mv));
//! game.play(&mv).unwrap();
//!
//! // The record replays to the same game; undo takes the move back.
//! let replayed = read_record(&game.to_record().to_string()).unwrap();
//! assert_eq!(replayed.moves(), game.moves());
//! assert_eq!(game.undo(), Some(mv));
//! ```

// Private modules behind one flat facade: every public item has one path,
// `queens_garden::Name`.
mod action;
// The one public module: the workloads of `indigo bench` and the benches, behind the feature
// `bench`, not part of the stable API.
#[cfg(feature = "bench")]
pub mod bench;
mod chance;
mod choices;
mod game;
mod garden;
mod geometry;
mod kind;
mod moves;
mod observation;
mod position;
mod position_text;
mod record;
mod rules;
mod search;
mod state;
mod svg;

// The README's example runs as a doctest, so it cannot drift from the crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDocs;

// So do those of docs/queens-garden.md.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/queens-garden.md")]
struct GuideDocs;

pub use action::{
    ACTION_COUNT, Action, ActionOutOfRange, PAYMENT_COUNT, TAKE_COUNT, TILE_COUNT, payments,
};
pub use chance::{ChanceError, ChanceEvent, OutcomeError};
pub use choices::{Question, candidates, choice_tree, move_choices, next_question, split_move};
pub use game::{Game, PlayError};
pub use garden::{AreaState, EXPANSION_SPACES, Garden, PlacementError, Storage, TILE_SPACES};
pub use geometry::{Area, CELL_COUNT, Cell, DIRECTIONS, ELEMENT_COUNT, Element, ElementKind};
pub use kind::{Attribute, Colour, KIND_COUNT, Kind, ParseNameError, Value};
pub use moves::{
    Choices, Discards, Hexagon, MAX_PASS_DISCARDS, MAX_PAYMENT, Move, MoveParseError, Payment,
};
pub use observation::{OBSERVATION_LAYOUT, OBSERVATION_SIZE};
pub use position::{
    BUY_COST, Chance, DisplayExpansion, EXPANSION_TOTAL, FinalScore, IllegalMove, MAX_STACK, Phase,
    Position, RefillError, START_JOKERS, START_SCORE, SetupError, StackView, TILE_TOTAL, Utility,
    check_bag, check_expansions, seeded_setup,
};
pub use record::{
    ErrorAt, RECORD_FORMAT, RecordError, SNAPSHOT_FORMAT, read_record, read_record_value,
    rules_to_json, snapshot, write_record,
};
pub use rules::{Jokers, MAX_PLAYERS, Rules, RulesError, Wheel};
pub use search::{Information, episode_game, self_play_record};
pub use state::STATE_FORMAT;
pub use svg::{COLOUR_FILL, NARROW_SCALE, attribute_svg, cell_position, hexagon_svg, position_svg};

/// Queen's Garden's vectorised games: `indigo_search::VectorGames` of its [`Rules`].
pub type VectorGames = indigo_search::VectorGames<Rules>;

#[cfg(test)]
mod tests;
