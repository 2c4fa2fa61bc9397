//! `indigo-search`: one search for every game of the project.
//!
//! A game implements [`Game`], a trait shaped after OpenSpiel's `State`: whose turn it is
//! ([`Turn`]: a seat, chance, or over), the legal actions (ascending, into a buffer), applying an
//! action (trusted), the chance outcomes and their probabilities, one seat's information and a
//! determinization drawn from it, the returns. On that trait this crate holds the bots
//! ([`bots::RandomBot`], [`bots::GreedyBot`], [`ismcts::Ismcts`]), batch simulation
//! ([`simulate::Batch`]) and the bot specs written on command lines ([`spec::BotSpec`]).
//!
//! Every type is generic over the game, so a game pays no dynamic dispatch; a game keeps its
//! fast paths by overriding the trait's provided methods ([`Game::playout`],
//! [`Game::playout_action`]) and by choosing its own [`ActionSet`].

pub mod bots;
pub mod clock;
pub mod game;
pub mod ismcts;
pub mod simulate;
pub mod spec;

pub use bots::{Bot, GreedyBot, PlayoutBot, RandomBot, below};
pub use game::{ActionSet, Game, MAX_PLAYERS, Rng, SortedActions, Turn};
pub use ismcts::{Budget, Ismcts, IsmctsConfig, SearchResult, SettingsError};
pub use simulate::{Batch, BatchError, Outcome, Setup, game_seed, mix, run_games, seatings};
pub use spec::{BotSpec, BotSpecError, SearchBot};

#[cfg(test)]
mod tests;
