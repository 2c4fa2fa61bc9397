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
//! ```
//! use indigo_core::{Bot, Ismcts, IsmctsConfig, Position, Rules, shuffled_pile};
//! let position = Position::new(Rules::indigo(2).unwrap(), &shuffled_pile(1)).unwrap();
//! let mut bot = Ismcts::new(IsmctsConfig::simulations(1000), 7);
//! let info = position.information(position.to_move().unwrap());
//! let best = bot.choose(&info).unwrap();
//! assert!(position.check(best).is_ok());
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use crate::action::Action;
use crate::bots::{Bot, random_playout};
use crate::moves::Move;
use crate::position::{Information, MAX_PLAYERS, Position, Utility};
use crate::rng::below;

/// How long a search runs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Budget {
    /// This many simulations in all (split across threads).
    Simulations(u64),
    /// Until this much time has passed (each thread searches for the whole time).
    Time(Duration),
}

impl Budget {
    /// `n` simulations, checked against [`IsmctsConfig::MAX_SIMULATIONS`].
    ///
    /// # Errors
    /// Unless `1 <= n <= MAX_SIMULATIONS`.
    pub fn simulations(n: i64) -> Result<Budget, SettingsError> {
        u64::try_from(n)
            .ok()
            .filter(|n| (1..=IsmctsConfig::MAX_SIMULATIONS).contains(n))
            .map(Budget::Simulations)
            .ok_or_else(|| {
                SettingsError(format!(
                    "simulations must be a whole number from 1 to {}, not {n}",
                    IsmctsConfig::MAX_SIMULATIONS
                ))
            })
    }

    /// `seconds` of search, checked against [`IsmctsConfig::MIN_TIME`] and
    /// [`IsmctsConfig::MAX_TIME`].
    ///
    /// # Errors
    /// Unless `seconds` is a number in that range.
    pub fn seconds(seconds: f64) -> Result<Budget, SettingsError> {
        let (low, high) = (
            IsmctsConfig::MIN_TIME.as_secs_f64(),
            IsmctsConfig::MAX_TIME.as_secs_f64(),
        );
        if (low..=high).contains(&seconds) {
            Ok(Budget::Time(Duration::from_secs_f64(seconds)))
        } else {
            Err(SettingsError(format!(
                "time must be from {low} to {high} seconds, not {seconds}"
            )))
        }
    }

    /// The budget a caller asked for: a simulation count or a time, not both; neither is
    /// [`IsmctsConfig::DEFAULT_SIMULATIONS`] simulations.
    ///
    /// # Errors
    /// Both given, or the one given out of its bounds.
    pub fn given(simulations: Option<i64>, seconds: Option<f64>) -> Result<Budget, SettingsError> {
        match (simulations, seconds) {
            (Some(_), Some(_)) => Err(SettingsError("give simulations or time, not both".into())),
            (Some(n), None) => Budget::simulations(n),
            (None, Some(t)) => Budget::seconds(t),
            (None, None) => Ok(Budget::Simulations(IsmctsConfig::DEFAULT_SIMULATIONS)),
        }
    }

    /// Whether this budget is within the bounds of [`IsmctsConfig`].
    fn check(self) -> Result<Budget, SettingsError> {
        match self {
            Budget::Simulations(n) => Budget::simulations(i64::try_from(n).unwrap_or(i64::MAX)),
            Budget::Time(t) if (IsmctsConfig::MIN_TIME..=IsmctsConfig::MAX_TIME).contains(&t) => {
                Ok(self)
            }
            Budget::Time(t) => Budget::seconds(t.as_secs_f64()),
        }
    }
}

/// Why search settings were refused: what is wrong, for a person.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SettingsError(pub String);

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SettingsError {}

/// Search settings, valid by construction: every path that makes them (bot specs, the Python
/// constructor, batches) goes through [`IsmctsConfig::new`] and its bounds.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct IsmctsConfig {
    budget: Budget,
    exploration: f32,
    threads: usize,
}

impl IsmctsConfig {
    /// Default exploration constant (results are in [0, 1]).
    pub const DEFAULT_EXPLORATION: f32 = 0.7;
    /// Simulations of a search that names no budget.
    pub const DEFAULT_SIMULATIONS: u64 = 1000;
    /// The most simulations a search may be given (months of search: Ctrl-C still stops it).
    pub const MAX_SIMULATIONS: u64 = 1_000_000_000_000;
    /// The shortest time budget (one microsecond; a search runs at least 32 simulations).
    pub const MIN_TIME: Duration = Duration::from_micros(1);
    /// The longest time budget (about 11.6 days): far below what would overflow an `Instant`,
    /// and exact in a spec (`as_secs_f64` and back).
    pub const MAX_TIME: Duration = Duration::from_secs(1_000_000);
    /// The largest exploration constant (results are in [0, 1]; beyond this UCB1 is a
    /// uniform sweep).
    pub const MAX_EXPLORATION: f32 = 100.0;
    /// The most threads (trees) one search may use.
    pub const MAX_THREADS: usize = 1024;

    /// Checked settings. `exploration` is stored as an `f32` and checked after that
    /// conversion (so `1e39` is refused as `inf` and `1e-50` as `0`).
    ///
    /// # Errors
    /// The first setting out of bounds: `budget` (see [`Budget::simulations`] and
    /// [`Budget::seconds`]), `exploration` (above 0, at most [`Self::MAX_EXPLORATION`]) or
    /// `threads` (1 to [`Self::MAX_THREADS`]).
    // `as f32` is the documented normalisation.
    #[allow(clippy::cast_possible_truncation)]
    pub fn new(budget: Budget, exploration: f64, threads: i64) -> Result<Self, SettingsError> {
        let budget = budget.check()?;
        let exploration = exploration as f32;
        if !(exploration > 0.0 && exploration <= Self::MAX_EXPLORATION) {
            return Err(SettingsError(format!(
                "exploration (c) must be above 0 and at most {}, not {exploration}",
                Self::MAX_EXPLORATION
            )));
        }
        let threads = usize::try_from(threads)
            .ok()
            .filter(|t| (1..=Self::MAX_THREADS).contains(t))
            .ok_or_else(|| {
                SettingsError(format!(
                    "threads must be a whole number from 1 to {}, not {threads}",
                    Self::MAX_THREADS
                ))
            })?;
        Ok(IsmctsConfig {
            budget,
            exploration,
            threads,
        })
    }

    /// `simulations` simulations (clamped to 1..=[`Self::MAX_SIMULATIONS`]) on one thread
    /// with the default exploration.
    pub const fn simulations(simulations: u64) -> IsmctsConfig {
        let simulations = if simulations == 0 {
            1
        } else if simulations > Self::MAX_SIMULATIONS {
            Self::MAX_SIMULATIONS
        } else {
            simulations
        };
        IsmctsConfig {
            budget: Budget::Simulations(simulations),
            exploration: Self::DEFAULT_EXPLORATION,
            threads: 1,
        }
    }

    /// How long each search runs.
    pub const fn budget(&self) -> Budget {
        self.budget
    }

    /// The UCB1 exploration constant `c` in `mean + c * sqrt(ln(availability) / visits)`.
    pub const fn exploration(&self) -> f32 {
        self.exploration
    }

    /// Threads, each growing its own tree (1: the calling thread only).
    pub const fn threads(&self) -> usize {
        self.threads
    }
}

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

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Node {
    action: Action,
    /// The seat that played `action`; rewards are stored from its side.
    mover: u8,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    availability: u32,
    reward: f32,
}

/// One search tree; node 0 is the root.
struct Tree {
    nodes: Vec<Node>,
    simulations: u64,
}

impl Tree {
    fn new() -> Tree {
        let root = Node {
            action: Action::from_index(0),
            mover: 0,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            availability: 0,
            reward: 0.0,
        };
        Tree {
            nodes: vec![root],
            simulations: 0,
        }
    }

    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut child = self.nodes[node as usize].first_child;
        std::iter::from_fn(move || {
            (child != NONE).then(|| {
                let c = child;
                child = self.nodes[c as usize].next_sibling;
                c
            })
        })
    }

    /// One simulation from a fresh determinization.
    fn simulate(&mut self, info: &Information, c: f32, rng: &mut Pcg64Mcg, path: &mut Vec<u32>) {
        let mut position = info.sample(rng);
        path.clear();
        let mut node = 0u32;
        while let Some(seat) = position.to_move() {
            let mut untried = position.legal_action_set();
            let mut best = (NONE, f32::NEG_INFINITY);
            let mut child = self.nodes[node as usize].first_child;
            while child != NONE {
                let n = &mut self.nodes[child as usize];
                if untried.contains(n.action) {
                    untried.remove(n.action);
                    n.availability += 1;
                    let visits = n.visits as f32;
                    let score =
                        n.reward / visits + c * ((n.availability as f32).ln() / visits).sqrt();
                    if score > best.1 {
                        best = (child, score);
                    }
                }
                child = n.next_sibling;
            }
            let next = if untried.is_empty() {
                best.0
            } else {
                let action = untried
                    .nth(below(rng, untried.len()))
                    .unwrap_or_else(|| unreachable!("a set bit below len"));
                self.add_child(node, action, seat)
            };
            if next == NONE {
                break; // no legal action: cannot happen while a seat is to move
            }
            let expanded = !untried.is_empty();
            position.play_unchecked(self.nodes[next as usize].action.to_move(), &mut ());
            path.push(next);
            node = next;
            if expanded {
                break;
            }
        }
        random_playout(&mut position, rng);
        let rewards = results(&position);
        for &n in path.iter() {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += rewards[usize::from(node.mover)];
        }
        self.nodes[0].visits += 1;
        self.simulations += 1;
    }

    fn add_child(&mut self, parent: u32, action: Action, mover: u8) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes.push(Node {
            action,
            mover,
            first_child: NONE,
            next_sibling: self.nodes[parent as usize].first_child,
            visits: 0,
            availability: 1,
            reward: 0.0,
        });
        self.nodes[parent as usize].first_child = index;
        index
    }
}

/// Each seat's result of a finished game: [`Utility::Win`].
fn results(position: &Position) -> [f32; MAX_PLAYERS] {
    position.returns(Utility::Win).map(|r| r as f32)
}

/// Simulations between two looks at the clock and at the stop flag.
const POLL_EVERY: u64 = 32;

/// Grows one tree for the budget, or until `stop` is set.
fn grow(
    info: &Information,
    config: &IsmctsConfig,
    simulations: u64,
    seed: u64,
    stop: &AtomicBool,
) -> Tree {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut tree = Tree::new();
    let mut path = Vec::with_capacity(64);
    let mut run = |tree: &mut Tree, n: u64| {
        for _ in 0..n {
            tree.simulate(info, config.exploration, &mut rng, &mut path);
        }
    };
    match config.budget {
        Budget::Simulations(_) => {
            // The first round runs even when stopped, so that every result holds a search.
            let mut left = simulations;
            loop {
                let n = left.min(POLL_EVERY);
                run(&mut tree, n);
                left -= n;
                if left == 0 || stop.load(Ordering::Relaxed) {
                    break;
                }
            }
        }
        Budget::Time(limit) => {
            // The bounds on `limit` keep this sum far from overflow; none means no deadline.
            let deadline = Instant::now().checked_add(limit);
            loop {
                run(&mut tree, POLL_EVERY);
                if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
            }
        }
    }
    tree
}

/// An ISMCTS player. With a simulation budget and a seed, its choices are reproducible for a
/// given thread count.
pub struct Ismcts {
    config: IsmctsConfig,
    rng: Pcg64Mcg,
    /// The thread pool and the process that built it: a forked child builds its own.
    pool: Option<(u32, rayon::ThreadPool)>,
}

impl std::fmt::Debug for Ismcts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ismcts")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Clone for Ismcts {
    fn clone(&self) -> Ismcts {
        Ismcts {
            config: self.config,
            rng: self.rng.clone(),
            pool: None,
        }
    }
}

impl Ismcts {
    /// The most simulations [`Ismcts::search_watched`] runs without watching: under a tenth
    /// of a second, while starting a thread costs about 0.1 ms a search.
    pub const UNWATCHED_SIMULATIONS: u64 = 1000;

    /// A searcher with these settings whose choices are fixed by `seed`.
    pub fn new(config: IsmctsConfig, seed: u64) -> Ismcts {
        Ismcts {
            config,
            rng: Pcg64Mcg::seed_from_u64(seed),
            pool: None,
        }
    }

    /// The settings.
    pub const fn config(&self) -> &IsmctsConfig {
        &self.config
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
        let seed = rand::Rng::next_u64(&mut self.rng);
        let threads = self.config.threads;
        let total = match self.config.budget {
            Budget::Simulations(n) => n.max(1),
            Budget::Time(_) => 0,
        };
        let share =
            |t: usize| total / threads as u64 + u64::from((t as u64) < total % threads as u64);
        let tree_seed = |t: usize| crate::rng::mix(seed, t as u64);
        let config = self.config;
        let grow_tree = |t: usize| grow(info, &config, share(t), tree_seed(t), stop);
        let trees: Vec<Tree> = match self.pool(threads) {
            Some(pool) => pool.install(|| (0..threads).into_par_iter().map(grow_tree).collect()),
            None => (0..threads).map(grow_tree).collect(),
        };
        Some(summarise(&trees))
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
        mut cancel: impl FnMut() -> bool,
    ) -> Option<SearchResult> {
        if matches!(self.config.budget, Budget::Simulations(n) if n <= Self::UNWATCHED_SIMULATIONS)
        {
            return self.search(info);
        }
        let (stop, done) = (AtomicBool::new(false), AtomicBool::new(false));
        let caller = std::thread::current();
        std::thread::scope(|scope| {
            let worker = std::thread::Builder::new().spawn_scoped(scope, || {
                let found = self.search_until(info, &stop);
                done.store(true, Ordering::Release);
                caller.unpark();
                found
            });
            let Ok(worker) = worker else {
                return None;
            };
            while !done.load(Ordering::Acquire) {
                std::thread::park_timeout(every);
                if !done.load(Ordering::Acquire) && !stop.load(Ordering::Relaxed) && cancel() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            Some(
                worker
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e)),
            )
        })
        .unwrap_or_else(|| self.search(info))
    }

    /// The thread pool for `threads > 1`, rebuilt in a process forked after it was made;
    /// `None` for one thread or if threads cannot be started (the trees then grow in turn).
    fn pool(&mut self, threads: usize) -> Option<&rayon::ThreadPool> {
        if threads == 1 {
            return None;
        }
        let pid = std::process::id();
        if self.pool.as_ref().is_none_or(|(owner, _)| *owner != pid) {
            self.pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
                .map(|pool| (pid, pool));
        }
        self.pool.as_ref().map(|(_, pool)| pool)
    }
}

/// Sums the trees' root children.
fn summarise(trees: &[Tree]) -> SearchResult {
    let mut visits = [0u32; crate::action::ACTION_COUNT];
    let mut reward = [0f32; crate::action::ACTION_COUNT];
    for tree in trees {
        for child in tree.children(0) {
            let node = &tree.nodes[child as usize];
            visits[node.action.index()] += node.visits;
            reward[node.action.index()] += node.reward;
        }
    }
    let best = (0..visits.len())
        .filter(|&a| visits[a] > 0)
        .max_by(|&a, &b| {
            (visits[a], reward[a])
                .partial_cmp(&(visits[b], reward[b]))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .unwrap_or(0);
    SearchResult {
        best: Action::from_index(best).to_move(),
        visits: (0..visits.len())
            .filter(|&a| visits[a] > 0)
            .map(|a| (Action::from_index(a), visits[a]))
            .collect(),
        simulations: trees.iter().map(|t| t.simulations).sum(),
        value: reward[best] / visits[best].max(1) as f32,
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
    fn a_budget_is_given_as_simulations_or_time() {
        assert_eq!(
            Budget::given(None, None),
            Ok(Budget::Simulations(IsmctsConfig::DEFAULT_SIMULATIONS))
        );
        assert_eq!(Budget::given(Some(5), None), Budget::simulations(5));
        assert_eq!(Budget::given(None, Some(0.5)), Budget::seconds(0.5));
        assert!(
            Budget::given(Some(5), Some(0.5))
                .unwrap_err()
                .0
                .contains("not both")
        );
        assert!(Budget::given(Some(0), None).is_err());
    }
}
