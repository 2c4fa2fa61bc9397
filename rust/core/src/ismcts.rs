//! Information-set Monte Carlo tree search: single-observer ISMCTS (Cowling, Powley and
//! Whitehouse, 2012) with determinization.
//!
//! Each simulation samples a full position from the observer's [`Information`] (hidden hands
//! and pile order drawn from the unseen tiles), walks the one tree of actions with UCB1 over
//! the children legal in that sample (each child's availability counts the samples in which
//! it was legal), adds one node, finishes the game with random placements and backs up each
//! seat's result. Several threads grow separate trees (root parallelism) whose root visits
//! are summed; with a simulation budget the result depends only on the seed and the thread
//! count.
//!
//! The search itself is the one generic ISMCTS of `indigo-search` ([`indigo_search::Ismcts`]),
//! which Queen's Garden shares; this module gives it Indigo's types ([`Information`],
//! [`Move`]) and re-exports its settings.
//!
//! ```
//! use indigo_core::{Ismcts, IsmctsConfig, Position, Rules, bots::Bot, setup::shuffled_pile};
//! let position = Position::new(Rules::indigo(2).unwrap(), &shuffled_pile(1)).unwrap();
//! let mut bot = Ismcts::new(IsmctsConfig::simulations(1000), 7);
//! let info = position.information(position.to_move().unwrap());
//! let best = bot.choose(&info).unwrap();
//! assert!(position.check(best).is_ok());
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use indigo_search::ismcts::{Budget, IsmctsConfig, SettingsError};

use crate::action::Action;
use crate::bots::Bot;
use crate::moves::Move;
use crate::position::{Information, Position};

/// Root visits per action, ascending by action.
pub type Visits = Vec<(Action, u32)>;

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The most visited action's move.
    pub best: Move,
    /// Root visits per action, ascending by action; the visit distribution for training.
    pub visits: Visits,
    /// Simulations run.
    pub simulations: u64,
    /// The observer's mean result over the best action's visits, in [0, 1].
    pub value: f32,
}

impl From<indigo_search::SearchResult<Action>> for SearchResult {
    fn from(found: indigo_search::SearchResult<Action>) -> SearchResult {
        SearchResult {
            best: found.best.to_move(),
            visits: found.visits,
            simulations: found.simulations,
            value: found.value,
        }
    }
}

/// An ISMCTS player. With a simulation budget and a seed, its choices are reproducible for a
/// given thread count.
#[derive(Clone, Debug)]
pub struct Ismcts(indigo_search::Ismcts);

impl Ismcts {
    /// The most simulations [`Ismcts::search_watched`] runs without watching: under a tenth
    /// of a second, while starting a thread costs about 0.1 ms a search.
    pub const UNWATCHED_SIMULATIONS: u64 = indigo_search::Ismcts::UNWATCHED_SIMULATIONS;

    /// A searcher with these settings whose choices are fixed by `seed`.
    pub fn new(config: IsmctsConfig, seed: u64) -> Ismcts {
        Ismcts(indigo_search::Ismcts::new(config, seed))
    }

    /// The settings.
    pub const fn config(&self) -> &IsmctsConfig {
        self.0.config()
    }

    /// Searches from the observer's information; `None` unless the observer is to move.
    pub fn search(&mut self, info: &Information) -> Option<SearchResult> {
        self.search_until(info, &AtomicBool::new(false))
    }

    /// [`Ismcts::search`] that ends early, with what it found so far, once `stop` is set
    /// (every tree looks at it every 32 simulations, after its first 32).
    pub fn search_until(&mut self, info: &Information, stop: &AtomicBool) -> Option<SearchResult> {
        if info.to_move() != Some(info.observer()) {
            return None;
        }
        self.0
            .search_information::<Position>(info, stop)
            .map(SearchResult::from)
    }

    /// [`Ismcts::search`] on a thread of its own while this one calls `cancel` about every
    /// `every`: once it returns `true` the search stops early (within 32 simulations per tree)
    /// and returns what it found so far. For a caller that must answer signals while it waits.
    /// A search of at most [`Self::UNWATCHED_SIMULATIONS`] simulations, or one for which no
    /// thread can be started, runs here without calling `cancel`.
    pub fn search_watched(
        &mut self,
        info: &Information,
        every: Duration,
        cancel: impl FnMut() -> bool,
    ) -> Option<SearchResult> {
        if info.to_move() != Some(info.observer()) {
            return None;
        }
        self.0
            .search_watched_information::<Position>(info, every, cancel)
            .map(SearchResult::from)
    }
}

impl Bot for Ismcts {
    fn choose(&mut self, info: &Information) -> Option<Move> {
        self.search(info).map(|result| result.best)
    }
}
