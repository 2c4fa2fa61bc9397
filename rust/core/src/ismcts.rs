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
//! use indigo_core::{Bot, Ismcts, IsmctsConfig, Position, Rules, shuffled_pile};
//! let position = Position::new(Rules::indigo(2).unwrap(), &shuffled_pile(1)).unwrap();
//! let mut bot = Ismcts::new(IsmctsConfig::simulations(1000), 7);
//! let info = position.information(position.to_move().unwrap());
//! let best = bot.choose(&info).unwrap();
//! assert!(position.check(best).is_ok());
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use indigo_search::{Budget, IsmctsConfig, SettingsError};

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

#[cfg(test)]
mod tests {
    use crate::ismcts::{Budget, Ismcts, IsmctsConfig};
    use crate::position::Information;
    use crate::position::Position;
    use crate::rng::shuffled_pile;
    use crate::rules::Rules;
    use crate::simulate::{Batch, BotSpec, Deal};
    use std::sync::atomic::{AtomicBool, AtomicU64};

    #[test]
    fn ismcts_is_deterministic_with_a_seed_and_a_simulation_budget() {
        let p = Position::new(Rules::tactical(3).unwrap(), &shuffled_pile(8)).unwrap();
        let info: Information = p.information(0);
        for threads in [1, 2] {
            let config = IsmctsConfig::new(Budget::Simulations(400), 0.7, threads).unwrap();
            let a = Ismcts::new(config, 42).search(&info).unwrap();
            let b = Ismcts::new(config, 42).search(&info).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.simulations, 400);
            assert_eq!(
                a.visits.iter().map(|&(_, v)| u64::from(v)).sum::<u64>(),
                400
            );
            assert!(
                a.visits
                    .iter()
                    .all(|&(action, _)| p.check(action.to_move()).is_ok())
            );
        }
        let timed = IsmctsConfig::new(Budget::seconds(0.02).unwrap(), 0.7, 1).unwrap();
        let r = Ismcts::new(timed, 1).search(&info).unwrap();
        assert!(r.simulations > 0 && p.check(r.best).is_ok());
        assert!(
            Ismcts::new(timed, 1).search(&p.information(1)).is_none(),
            "not seat 1's turn"
        );
    }

    #[test]
    fn ismcts_beats_random_play() {
        // Seeded, so this always plays the same 20 games; a broken search loses many of them.
        let batch = Batch::new(
            Rules::indigo(2).unwrap(),
            vec![
                BotSpec::Ismcts(IsmctsConfig::simulations(300)),
                BotSpec::Random,
            ],
            Some(&[vec![0, 1], vec![1, 0]]),
            5,
            Deal::Python,
        )
        .unwrap();
        let outcomes = batch
            .run(0..20, 0, &AtomicU64::new(0), &AtomicBool::new(false))
            .unwrap();
        let wins = (0..)
            .zip(&outcomes)
            .filter(|&(i, o)| o.winners & (1 << (i % 2)) != 0)
            .count();
        assert!(wins >= 18, "ISMCTS won only {wins} of 20");
    }

    #[test]
    fn ismcts_settings_accept_their_bounds_and_refuse_beyond() {
        let max_time = IsmctsConfig::MAX_TIME.as_secs_f64();
        let min_time = IsmctsConfig::MIN_TIME.as_secs_f64();
        let accepted = [
            "ismcts:1".to_owned(),
            format!("ismcts:{}", IsmctsConfig::MAX_SIMULATIONS),
            format!("ismcts:time={min_time}"),
            format!("ismcts:time={max_time}"),
            "ismcts:time=0.123456789".to_owned(),
            "ismcts:5,c=1e-45".to_owned(),
            format!("ismcts:5,c={}", IsmctsConfig::MAX_EXPLORATION),
            "ismcts:5,c=0.1".to_owned(),
            "ismcts:5,threads=1".to_owned(),
            format!("ismcts:5,threads={}", IsmctsConfig::MAX_THREADS),
        ];
        for text in &accepted {
            let spec: BotSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let again: BotSpec = spec.to_string().parse().unwrap();
            assert_eq!(
                again, spec,
                "{text} prints as {spec}, which reads back differently"
            );
            assert_eq!(again.to_string(), spec.to_string());
        }
        let refused = [
            "ismcts:0".to_owned(),
            format!("ismcts:{}", IsmctsConfig::MAX_SIMULATIONS + 1),
            "ismcts:1e30".to_owned(),
            "ismcts:time=0".to_owned(),
            "ismcts:time=1e-7".to_owned(),
            format!("ismcts:time={}", max_time * 1.000_001),
            "ismcts:time=1e19".to_owned(),
            "ismcts:time=inf".to_owned(),
            "ismcts:time=nan".to_owned(),
            "ismcts:5,c=0".to_owned(),
            "ismcts:5,c=1e-50".to_owned(),
            "ismcts:5,c=-1".to_owned(),
            "ismcts:5,c=1e39".to_owned(),
            "ismcts:5,c=100.001".to_owned(),
            "ismcts:5,threads=0".to_owned(),
            format!("ismcts:5,threads={}", IsmctsConfig::MAX_THREADS + 1),
            "ismcts:5,threads=1.5".to_owned(),
        ];
        for text in &refused {
            assert!(text.parse::<BotSpec>().is_err(), "{text} was accepted");
        }
        // The constructor shares the bounds, and direct budgets are checked too.
        assert!(IsmctsConfig::new(Budget::Time(std::time::Duration::MAX), 0.7, 1).is_err());
        assert!(IsmctsConfig::new(Budget::Simulations(0), 0.7, 1).is_err());
        assert!(IsmctsConfig::new(Budget::Simulations(u64::MAX), 0.7, 1).is_err());
        let inf = IsmctsConfig::new(Budget::Simulations(5), 1e39, 1).unwrap_err();
        assert!(inf.0.contains("not inf"), "{inf}");
        let zero = IsmctsConfig::new(Budget::Simulations(5), 1e-50, 1).unwrap_err();
        assert!(zero.0.contains("not 0"), "{zero}");
    }

    #[test]
    fn a_stopped_search_ends_early_with_what_it_found() {
        let p = Position::new(Rules::indigo(2).unwrap(), &shuffled_pile(3)).unwrap();
        let info = p.information(0);
        let stop = AtomicBool::new(true);
        for budget in [
            Budget::Simulations(IsmctsConfig::MAX_SIMULATIONS),
            Budget::Time(IsmctsConfig::MAX_TIME),
        ] {
            for threads in [1, 2] {
                let config = IsmctsConfig::new(budget, 0.7, threads).unwrap();
                let found = Ismcts::new(config, 1).search_until(&info, &stop).unwrap();
                assert!(
                    found.simulations <= 32 * threads as u64,
                    "{}",
                    found.simulations
                );
            }
        }
        let mut calls = 0;
        let config = IsmctsConfig::new(Budget::Time(IsmctsConfig::MAX_TIME), 0.7, 2).unwrap();
        let found = Ismcts::new(config, 1)
            .search_watched(&info, std::time::Duration::from_millis(1), || {
                calls += 1;
                calls == 3
            })
            .unwrap();
        assert_eq!(calls, 3);
        assert!(p.check(found.best).is_ok());
        // A short search runs on the calling thread, unwatched, and whole.
        let short = IsmctsConfig::simulations(Ismcts::UNWATCHED_SIMULATIONS);
        let found = Ismcts::new(short, 1)
            .search_watched(&info, std::time::Duration::ZERO, || {
                unreachable!("not watched")
            })
            .unwrap();
        assert_eq!(found.simulations, Ismcts::UNWATCHED_SIMULATIONS);
    }

    #[test]
    fn a_budget_is_given_as_simulations_time_or_both() {
        assert_eq!(
            Budget::given(None, None),
            Ok(Budget::Simulations(IsmctsConfig::DEFAULT_SIMULATIONS))
        );
        assert_eq!(Budget::given(Some(5), None), Budget::simulations(5));
        assert_eq!(Budget::given(None, Some(0.5)), Budget::seconds(0.5));
        assert_eq!(
            Budget::given(Some(5), Some(0.5)),
            Budget::simulations(5).and_then(|b| b.or_time(0.5))
        );
        assert!(Budget::given(Some(0), None).is_err());
    }
}
