//! `indigo-search`: one search for every game of the project.
//!
//! A game implements [`Game`], a trait shaped after OpenSpiel's `State`: whose turn it is
//! ([`Turn`]: a seat, chance, or over), the legal actions (ascending, into a buffer), applying an
//! action (trusted), the chance outcomes and their probabilities, one seat's information and a
//! determinization drawn from it, the returns. On that trait this crate holds the bots
//! ([`RandomBot`], [`GreedyBot`], [`Ismcts`]), a PUCT search with a batched evaluator
//! ([`Puct`], [`Evaluator`]) over a game numbered for tensors ([`Encoded`]), batch simulation
//! ([`Batch`]), self-play ([`self_play_with`]), many games stepped together for learning
//! ([`VectorGames`], over a game that is also [`Vectored`]) and the bot specs written on command
//! lines ([`BotSpec`]). Every public item is at the crate's root.
//!
//! Every type is generic over the game, so a game pays no dynamic dispatch; a game keeps its
//! fast paths by overriding the trait's provided methods ([`Game::playout`],
//! [`Game::playout_action`]) and by choosing its own [`ActionSet`].
//!
//! # A game of your own
//!
//! The crates `indigo-game` (Indigo) and `queens-garden` (Azul: Queen's Garden) implement
//! [`Game`]; so can any game. Here one-pile Nim (take 1, 2 or 3 stones; who takes the last
//! wins), which hides nothing, so a seat's information is the state itself and a
//! determinization is a copy. ISMCTS finds the winning move, the one that leaves a multiple
//! of four, and the bots named by [`BotSpec`] play it too:
//!
//! ```
//! use indigo_search::{Bot, BotSpec, Encoded, Game, Ismcts, IsmctsConfig, LegalMasks};
//! use indigo_search::{MAX_PLAYERS, Rng, SearchBot, SortedActions, Turn};
//!
//! #[derive(Clone, Debug)]
//! struct Nim {
//!     stones: u8,
//!     to_move: u8,
//!     moves: u32,
//! }
//!
//! impl Game for Nim {
//!     type Action = u8; // stones taken
//!     type Actions = SortedActions<u8>;
//!     type Information = (Nim, u8); // the state and the observer
//!     const NAME: &'static str = "nim";
//!
//!     fn players(&self) -> usize {
//!         2
//!     }
//!     fn turn(&self) -> Turn {
//!         if self.stones == 0 { Turn::Over } else { Turn::Player(self.to_move) }
//!     }
//!     fn legal_actions(&self, out: &mut Vec<u8>) {
//!         out.clear();
//!         out.extend((1..=3).filter(|&n| n <= self.stones));
//!     }
//!     fn legal_set(&self, out: &mut SortedActions<u8>) {
//!         out.fill((1..=3).filter(|&n| n <= self.stones));
//!     }
//!     fn apply(&mut self, take: u8) {
//!         self.stones -= take;
//!         self.to_move = 1 - self.to_move;
//!         self.moves += 1;
//!     }
//!     fn information(&self, seat: u8) -> (Nim, u8) {
//!         (self.clone(), seat)
//!     }
//!     fn observer(info: &(Nim, u8)) -> u8 {
//!         info.1
//!     }
//!     fn sample(info: &(Nim, u8), _rng: &mut Rng) -> Nim {
//!         info.0.clone() // nothing hidden, nothing to draw
//!     }
//!     fn information_string(&self, seat: u8) -> String {
//!         format!("seat {seat}: {} stones, seat {} to move", self.stones, self.to_move)
//!     }
//!     fn returns(&self) -> [f64; MAX_PLAYERS] {
//!         let mut returns = [0.0; MAX_PLAYERS];
//!         if self.stones == 0 {
//!             returns[usize::from(1 - self.to_move)] = 1.0; // the seat that took the last
//!         }
//!         returns
//!     }
//!     fn scores(&self) -> [i64; MAX_PLAYERS] {
//!         self.returns().map(|r| r as i64)
//!     }
//!     fn winners(&self) -> u8 {
//!         if self.stones == 0 { 1 << (1 - self.to_move) } else { 0 }
//!     }
//!     fn moves_played(&self) -> u32 {
//!         self.moves
//!     }
//! }
//!
//! // Numbered for networks, as the bots of specs need (`net` plays it too, given a file).
//! impl Encoded for Nim {
//!     const OBSERVATION_SIZE: usize = 1; // the stones
//!     const ACTION_COUNT: usize = 3; // take 1, 2 or 3
//!     type Legal = LegalMasks<3>;
//!     fn action_number(take: u8) -> usize {
//!         usize::from(take) - 1
//!     }
//!     fn observation(&self, _seat: u8, out: &mut [f32]) {
//!         out[0] = f32::from(self.stones);
//!     }
//! }
//!
//! let mut nim = Nim { stones: 10, to_move: 0, moves: 0 };
//! let found = Ismcts::new(IsmctsConfig::simulations(2000), 1).search(&nim).unwrap();
//! assert_eq!(found.best, 2);
//! assert_eq!(found.visits.iter().map(|&(take, _)| take).collect::<Vec<_>>(), [1, 2, 3]);
//!
//! let mut bots: Vec<SearchBot<Nim>> = ["ismcts:500", "random"]
//!     .iter()
//!     .enumerate()
//!     .map(|(seat, spec)| spec.parse::<BotSpec>().unwrap().build(seat as u64))
//!     .collect();
//! while let Turn::Player(seat) = nim.turn() {
//!     let take = bots[usize::from(seat)].choose(&nim).unwrap();
//!     nim.apply(take);
//! }
//! assert_eq!(nim.winners(), 0b01); // the search wins from a winning start
//! ```
//!
//! [`Batch`] plays many such games in parallel, reproducibly; `docs/search.md` in the
//! repository describes the search and its settings, and `docs/architecture.md` ("Adding a
//! game") plays this Nim through a [`Batch`] as a crate, binding, package and registry entry.

mod bots;
mod clock;
mod encoded;
mod evaluator;
mod game;
mod ismcts;
mod net;
mod puct;
mod random;
mod record;
mod selfplay;
mod simulate;
mod spec;
mod vector;
mod watch;

pub use bots::{Bot, GreedyBot, PlayoutBot, RandomBot};
pub use clock::Instant;
pub use encoded::{Encoded, LegalLists, LegalMasks, LegalRows, encode_leaves};
pub use evaluator::{
    Evaluation, EvaluationError, Evaluator, FnEvaluator, RolloutEvaluator, zero_sum,
};
pub use game::{ActionSet, Game, MAX_PLAYERS, SortedActions, Turn, playout_seats_stepwise};
pub use ismcts::{
    Budget, Ismcts, IsmctsConfig, PlayoutPolicy, SearchResult, SettingsError, Visits,
};
pub use net::{NETWORK_FORMAT, NetEvaluator, Network, NetworkError};
pub use puct::{Puct, PuctBot, PuctConfig, PuctError, PuctResult, PuctSearch, search_together};
pub use random::{Rng, below, game_seed, mix, sample_outcome};
pub use record::{ErrorAt, RecordError};
pub use selfplay::{
    MAX_IN_FLIGHT, Samples, SelfPlayGame, SelfPlayOf, puct_self_play, self_play_with,
};
pub use simulate::{
    Batch, BatchError, MAX_BATCH_GAMES, MAX_BATCH_START, MAX_BATCH_THREADS, Outcome, Setup,
    batch_games, in_range, progress_interval, run_games, run_games_with, seat_seed, seatings,
};
pub use spec::{BotSpec, BotSpecError, Decision, NamedSteering, NetFile, NetSpec, SearchBot};
pub use vector::{
    Contents, Legal, LegalRow, ObservationValue, Observations, Opponents, Outputs, VectorError,
    VectorGames, Vectored, episode_seed,
};
pub use watch::watched;

// The guide to adding a game runs as a doctest, so it cannot drift from the crate.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/architecture.md")]
struct AddingAGame;

#[cfg(test)]
mod tests;
