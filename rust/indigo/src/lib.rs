//! `indigo-game`: the rules of Indigo (Reiner Knizia, 2012) and Butterfly Garden, exactly as
//! `docs/spec/RULES.md` fixes them, the `indigo-record/1` / `indigo-snapshot/1` formats, and
//! Indigo for the game-generic crate `indigo-search` (its bots, ISMCTS, batches and self-play,
//! which Azul: Queen's Garden shares): [`Position`] is an [`indigo_search::Game`],
//! [`IndigoSetup`] an [`indigo_search::Setup`]. No Python required: the Python package
//! `indigo` is a thin binding of this crate.
//!
//! [`Position`] is a small `Copy` value for search: [`Position::for_each_legal`] and
//! [`Position::play_unchecked`] allocate nothing. [`Game`] adds history, undo and move effects.
//!
//! # Playing a game
//!
//! A game starts from [`Rules`] (players, hand size, variants) and a seed, which fixes the
//! shuffled pile exactly as Python's `indigo.Game(rules, seed=...)` does. The seat to move
//! chooses among [`Position::legal_moves`] (distinct placements, sorted);
//! [`Game::play`] checks the move, plays it and reports what it did to every gem
//! ([`MoveEffects`]); an illegal move is refused with a reason and changes nothing;
//! [`Game::undo`] takes the last move back. Moves read and write the notation `T@R:Q,R`
//! (`docs/notation.md`).
//!
//! Bots are the search crate's, made from the spec strings of the command line (`random`,
//! `greedy`, `playout`, `ismcts:1000`, `ismcts:time=0.5`, ...) with
//! [`indigo_search::BotSpec::build`], or directly ([`indigo_search::RandomBot`],
//! [`indigo_search::GreedyBot`], [`indigo_search::Ismcts`]). A bot is given the position and
//! decides from what its seat may see (its own hand, never the pile or the other hands); it
//! answers an [`Action`], whose [`Action::to_move`] is the [`Move`].
//!
//! ```
//! use indigo_game::{Game, IllegalMove, Move, Position, Rules};
//! use indigo_search::{Bot, BotSpec, SearchBot};
//!
//! let mut game = Game::from_seed(Rules::indigo(2).unwrap(), 7);
//! let mut bots: Vec<SearchBot<Position>> = ["greedy", "random"]
//!     .iter()
//!     .enumerate()
//!     .map(|(seat, spec)| spec.parse::<BotSpec>().unwrap().build(seat as u64))
//!     .collect();
//!
//! // The first turn: the legal moves, a bot's choice, what it did.
//! let seat = game.position().to_move().unwrap();
//! let legal: Vec<Move> = game.position().legal_moves();
//! let mv = bots[usize::from(seat)].choose(game.position()).unwrap().to_move();
//! assert!(legal.contains(&mv));
//! let effects = game.play(mv).unwrap();
//! assert_eq!((effects.mv, effects.seat), (mv, seat));
//!
//! // The same cell twice is refused, and nothing changes.
//! let next = game.position().to_move().unwrap();
//! let again = Move { tile: game.position().hand(next).next().unwrap(), ..mv };
//! assert_eq!(game.play(again).unwrap_err(), IllegalMove::Occupied(mv.cell));
//! assert_eq!(game.moves().len(), 1);
//!
//! // Undo, then the moves as text.
//! assert_eq!(game.undo(), Some(mv));
//! assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
//! game.play(mv).unwrap();
//!
//! // The bots play on to the end.
//! while let Some(seat) = game.position().to_move() {
//!     let mv = bots[usize::from(seat)].choose(game.position()).unwrap().to_move();
//!     game.play(mv).unwrap();
//! }
//! let position = game.position();
//! assert!(position.is_over());
//! let scores = &position.scores()[..2];
//! let winner = position.winners().trailing_zeros() as usize; // winners: a bitmask of seats
//! assert!(scores.iter().all(|&s| s <= scores[winner]));
//! ```
//!
//! # Records
//!
//! [`write_record`] gives a game's record (`indigo-record/1`, `docs/spec/FORMATS.md`) as a
//! `serde_json::Value`: the rules, the pile as set up and every move. [`read_record`] replays
//! one, checking every field and move; [`snapshot`] describes one position for drawing.
//!
//! ```
//! use indigo_game::{Game, Rules, read_record, write_record};
//! use indigo_search::{Bot, GreedyBot};
//!
//! let mut game = Game::from_seed(Rules::indigo(3).unwrap(), 11);
//! let mut bot = GreedyBot::new(1);
//! for _ in 0..10 {
//!     let action = bot.choose(game.position()).unwrap();
//!     game.play(action.to_move()).unwrap();
//! }
//! let text = write_record(&game).to_string();
//! let replayed = read_record(&text).unwrap();
//! assert_eq!(replayed.position(), game.position());
//! assert!(replayed.moves().eq(game.moves()));
//!
//! let error = read_record(r#"{"format": "indigo-record/0"}"#).unwrap_err();
//! assert_eq!(error.to_string(), r#"format: must be "indigo-record/1", not "indigo-record/0""#);
//! ```
//!
//! # Searching
//!
//! [`indigo_search::Ismcts`] searches from what the seat to move knows, with a budget of
//! simulations (reproducible for a seed and a thread count) or of time, and returns the best
//! action with the root visits of every legal action ([`indigo_search::SearchResult`]).
//! `docs/search.md` gives its strength and speed.
//!
//! ```
//! use indigo_game::{Game, Rules};
//! use indigo_search::{Budget, Ismcts, IsmctsConfig};
//!
//! let game = Game::from_seed(Rules::indigo(2).unwrap(), 7);
//! let position = game.position();
//! let mut search = Ismcts::new(IsmctsConfig::simulations(300), 42);
//! let found = search.search(position).unwrap();
//! assert!(position.check(found.best.to_move()).is_ok());
//! assert_eq!(found.visits.iter().map(|&(_, n)| u64::from(n)).sum::<u64>(), found.simulations);
//!
//! // A time budget, exploration constant and threads, checked.
//! let config = IsmctsConfig::new(Budget::seconds(0.05).unwrap(), 0.7, 1).unwrap();
//! let timed = Ismcts::new(config, 42).search(position).unwrap();
//! assert!(position.check(timed.best.to_move()).is_ok());
//! assert!(IsmctsConfig::new(Budget::Simulations(100), 0.7, 0).is_err());
//! ```
//!
//! Many games at once, in parallel and reproducibly, are an
//! [`indigo_search::Batch`] of [`IndigoSetup`]; its checksums are pinned in the tests.
//!
//! # Examples
//!
//! `rust/indigo/examples/` in the repository, each run by `scripts/check`:
//!
//! * `play_game`: a whole game between two bots named by spec, printed move by move, and its
//!   record written: `cargo run --example play_game -- [SEED] [BOT] [BOT] [RECORD.json]`;
//! * `search`: ISMCTS choosing a move in a mid-game position, with the visits of the best
//!   candidates: `cargo run --release --example search -- [SEED] [SIMULATIONS] [MOVES]`;
//! * `replay`: a record read, checked and stepped through (the one `play_game` writes, or any
//!   other; `-` reads standard input): `cargo run --example replay -- RECORD.json`;
//! * `playouts`: the benchmark workload of `indigo bench` and `scripts/callgrind`, not an
//!   example of use.
//!
//! # Features
//!
//! * `bench` (off): the workloads of `indigo bench` (`playouts`, `call_costs`,
//!   `GamesSummary`), for the project's own benches and Python binding. Not part
//!   of the stable API.

// Private modules behind one flat facade: every public item has one path,
// `indigo_game::Name`.
mod action;
// Unit tests use it whatever the features: the bench's games are pinned there.
#[cfg(any(test, feature = "bench"))]
#[cfg_attr(not(feature = "bench"), allow(dead_code))]
mod bench;
mod board;
mod deal;
mod encoded;
mod game;
mod gem;
mod moves;
mod policy;
mod position;
mod record;
mod rng;
mod rules;
mod search_game;
mod selfplay;
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
    read_record_value, rules_to_json, snapshot, write_record, write_record_checked,
};

// Randomness: the seeded deals (seeds and uniform draws are the search crate's).
pub use rng::{below_u32, box_in_type_order, pcg_pile, shuffled_pile};

// Indigo for the one search and learning: actions, observations, returns, the playout policy,
// batch set-ups, deals, self-play records and vectorised games (bots, ISMCTS, batches and
// self-play are `indigo_search`'s).
pub use action::{
    ACTION_COUNT, Action, ActionOutOfRange, ActionSet, ORIENTATION_BASE, ORIENTATION_COUNT,
};
// The workloads of `indigo bench`, behind the feature `bench`: not part of the stable API.
#[cfg(feature = "bench")]
pub use bench::{CallCosts, GamesSummary, MAX_COST_GAMES, call_costs, playouts};
pub use deal::Deal;
pub use policy::{random_placement, random_playout};
pub use position::{
    Information, OBSERVATION_LAYOUT, OBSERVATION_PLANES, OBSERVATION_SCALARS, OBSERVATION_SIZE,
    Utility,
};
pub use search_game::IndigoSetup;
pub use selfplay::{Samples, self_play_record};
pub use vector::{Shown, VectorGames, episode_game};

// The Rust examples in the docs run as doctests, so the docs cannot drift from the crate.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/api.md")]
struct ApiDocs;

#[cfg(doctest)]
#[doc = include_str!("../../../docs/search.md")]
struct SearchDocs;

#[cfg(doctest)]
#[doc = include_str!("../../../docs/notation.md")]
struct NotationDocs;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDocs;

#[cfg(test)]
mod testing;
