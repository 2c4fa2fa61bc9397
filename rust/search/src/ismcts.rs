//! Information-set Monte Carlo tree search over any [`Game`]: single-observer ISMCTS
//! (Cowling, Powley and Whitehouse, 2012) with determinization.
//!
//! Each simulation samples a full state from the observer's information ([`Game::sample`]),
//! walks the one tree of actions with UCB1 over the children legal in that sample (each
//! child's availability counts the samples in which it was legal), adds one node, finishes
//! the game with the playout policy ([`Game::playout`]) and backs up each seat's result
//! ([`Game::returns`]). Several threads grow separate trees (root parallelism) whose root
//! visits are summed; with a simulation budget (and no time) the result depends only on the seed
//! and the thread count.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::SeedableRng;
use rayon::prelude::*;

use crate::bots::Bot;
use crate::clock::Instant;
use crate::game::{ActionSet, Game, Turn};
use crate::random::{Rng, below, mix};

/// How long a search runs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Budget {
    /// This many simulations in all (split across threads).
    Simulations(u64),
    /// Until this much time has passed (each thread searches for the whole time).
    Time(Duration),
    /// This many simulations in all, or until this much time has passed, whichever comes
    /// first (each thread stops at its share of the simulations or at the deadline).
    SimulationsOrTime(u64, Duration),
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

    /// The budget a caller asked for: a simulation count, a time, or both (whichever comes
    /// first, [`Budget::SimulationsOrTime`]); neither is
    /// [`IsmctsConfig::DEFAULT_SIMULATIONS`] simulations.
    ///
    /// # Errors
    /// One given out of its bounds.
    pub fn given(simulations: Option<i64>, seconds: Option<f64>) -> Result<Budget, SettingsError> {
        match (simulations, seconds) {
            (Some(n), Some(t)) => Budget::simulations(n)?.or_time(t),
            (Some(n), None) => Budget::simulations(n),
            (None, Some(t)) => Budget::seconds(t),
            (None, None) => Ok(Budget::Simulations(IsmctsConfig::DEFAULT_SIMULATIONS)),
        }
    }

    /// This budget, also stopped after `seconds` (the shorter time, if it has one already).
    ///
    /// # Errors
    /// As [`Budget::seconds`].
    pub fn or_time(self, seconds: f64) -> Result<Budget, SettingsError> {
        let Budget::Time(limit) = Budget::seconds(seconds)? else {
            unreachable!("Budget::seconds is a time")
        };
        let limit = self.time_limit().map_or(limit, |t| t.min(limit));
        Ok(match self.simulation_limit() {
            Some(n) => Budget::SimulationsOrTime(n, limit),
            None => Budget::Time(limit),
        })
    }

    /// The most simulations, if the budget counts them.
    pub const fn simulation_limit(self) -> Option<u64> {
        match self {
            Budget::Simulations(n) | Budget::SimulationsOrTime(n, _) => Some(n),
            Budget::Time(_) => None,
        }
    }

    /// The longest time, if the budget has a deadline.
    pub const fn time_limit(self) -> Option<Duration> {
        match self {
            Budget::Time(t) | Budget::SimulationsOrTime(_, t) => Some(t),
            Budget::Simulations(_) => None,
        }
    }

    /// Whether this budget is within the bounds of [`IsmctsConfig`].
    pub(crate) fn check(self) -> Result<Budget, SettingsError> {
        if let Some(n) = self.simulation_limit() {
            Budget::simulations(i64::try_from(n).unwrap_or(i64::MAX))?;
        }
        match self.time_limit() {
            Some(t) if !(IsmctsConfig::MIN_TIME..=IsmctsConfig::MAX_TIME).contains(&t) => {
                Budget::seconds(t.as_secs_f64()).map(|_| self)
            }
            _ => Ok(self),
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
    playout: PlayoutPolicy,
}

/// The playout policy a search plays from each new leaf.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlayoutPolicy {
    /// The game's playout policy ([`Game::playout`]): `ismcts`'s.
    Plain,
    /// The `best` bot's ([`Game::best_playout`]).
    Best,
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
            playout: PlayoutPolicy::Plain,
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
            playout: PlayoutPolicy::Plain,
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

    /// The playout policy ([`PlayoutPolicy::Plain`] unless the settings are `best`'s).
    pub const fn playout_policy(&self) -> PlayoutPolicy {
        self.playout
    }

    /// These settings with the `best` bot's playout policy ([`Game::best_playout`]).
    pub(crate) const fn with_best_playout(self) -> IsmctsConfig {
        IsmctsConfig {
            playout: PlayoutPolicy::Best,
            ..self
        }
    }

    /// These settings at exploration `c`, a game's constant ([`crate::Game::BEST_EXPLORATION`]):
    /// one out of [`Self::new`]'s bounds is a bug of that game, caught in debug builds and
    /// ignored (the settings unchanged) in release builds.
    pub(crate) fn with_exploration(self, c: f32) -> IsmctsConfig {
        let threads = i64::try_from(self.threads).unwrap_or(i64::MAX);
        let tuned = IsmctsConfig::new(self.budget, f64::from(c), threads);
        debug_assert!(tuned.is_ok(), "exploration {c}: {tuned:?}");
        tuned.map_or(self, |t| IsmctsConfig {
            playout: self.playout,
            ..t
        })
    }
}

/// Root visits per action, ascending by action.
pub type Visits<A> = Vec<(A, u32)>;

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<A> {
    /// The most visited action (the larger mean result, then the larger action, breaks ties).
    pub best: A,
    /// Root visits per action, ascending by action; the visit distribution for training.
    pub visits: Visits<A>,
    /// Simulations run.
    pub simulations: u64,
    /// The observer's mean result over the best action's visits, in [0, 1].
    pub value: f32,
}

const NONE: u32 = u32::MAX;

/// One node of a tree: the action that leads to it and its statistics as a child of its
/// parent (a child of the root keeps `availability`, `mean` and `spread` in [`RootChildren`]
/// instead). Siblings lie together in chunks ([`CHUNK`]), so that the descent reads a node's
/// children in order from memory instead of following a list.
#[derive(Clone, Copy)]
struct Node<A> {
    action: A,
    /// The seat that played `action`; rewards are stored from its side.
    mover: u8,
    visits: u32,
    availability: u32,
    reward: f32,
    /// `reward / visits`, kept up to date by the backup.
    mean: f32,
    /// `c / sqrt(visits)`, kept up to date by the backup: UCB1's exploration term is this
    /// times `sqrt(ln(availability))` ([`sqrt_ln`]).
    spread: f32,
}

/// Children per chunk: a node's children fill chunks of this many consecutive nodes, linked
/// in order of creation.
const CHUNK: usize = 8;

/// A node's children: the chunks they fill, and how many there are.
#[derive(Clone, Copy)]
struct Children {
    first: u32,
    last: u32,
    len: u32,
}

const NO_CHILDREN: Children = Children {
    first: NONE,
    last: NONE,
    len: 0,
};

/// Availabilities below this read `sqrt(ln(availability))` from a table.
const SQRT_LN_TABLE: usize = 1 << 14;

/// `sqrt(ln(n))` for every `n` below [`SQRT_LN_TABLE`].
type SqrtLnTable = [f32; SQRT_LN_TABLE];

/// `sqrt(ln(n))`: from a table built once for small `n` (a search's availabilities mostly
/// are), computed beyond it.
#[inline]
fn sqrt_ln(table: &SqrtLnTable, n: u32) -> f32 {
    table
        .get(n as usize)
        .copied()
        .unwrap_or_else(|| (n as f32).ln().sqrt())
}

/// The table of [`sqrt_ln`].
fn sqrt_ln_table() -> &'static SqrtLnTable {
    static TABLE: std::sync::OnceLock<Box<SqrtLnTable>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let table: Box<[f32]> = (0..SQRT_LN_TABLE)
            .map(|n| (n as f32).ln().max(0.0).sqrt())
            .collect();
        table
            .try_into()
            .unwrap_or_else(|_| unreachable!("SQRT_LN_TABLE entries"))
    })
}

/// One search tree; node 0 is the root (its action is never read), alone in chunk 0.
#[derive(Clone)]
struct Tree<A> {
    /// Chunk `k` is `nodes[k * CHUNK..][..CHUNK]`; slots not yet used hold the root's copy.
    nodes: Vec<Node<A>>,
    /// Each node's children.
    children: Vec<Children>,
    /// Each chunk's successor in its parent's list.
    next_chunk: Vec<u32>,
    /// The root's children again, for their selection.
    root: RootChildren,
    simulations: u64,
}

/// The root's children field by field, in order of creation: every simulation scores them
/// all (each is legal in every determinization), so their scan runs over plain arrays, most
/// of it in vector instructions. Their `availability`, `mean` and `spread` live here only.
#[derive(Clone, Default)]
struct RootChildren {
    node: Vec<u32>,
    availability: Vec<u32>,
    mean: Vec<f32>,
    spread: Vec<f32>,
    /// Scratch: each child's score in the selection under way.
    score: Vec<f32>,
}

/// Lanes of the root's selection: the best score is kept per lane, so that no comparison
/// waits on the one before it and the scan vectorizes.
const LANES: usize = 8;

/// The nodes of `children`'s chunks, each chunk as a range of node indices, in order;
/// `next_chunk` links the chunks ([`Tree::next_chunk`]).
fn chunks(
    next_chunk: &[u32],
    children: Children,
) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let (mut chunk, mut left) = (children.first, children.len as usize);
    std::iter::from_fn(move || {
        (left > 0).then(|| {
            let start = chunk as usize * CHUNK;
            let n = left.min(CHUNK);
            left -= n;
            chunk = next_chunk[chunk as usize];
            start..start + n
        })
    })
}

/// A tree's scratch space, reused across simulations.
struct Scratch<G: Game> {
    /// The determinization of the simulation under way, sampled in place.
    state: G,
    path: Vec<u32>,
    untried: G::Actions,
    /// The root's legal actions not yet tried: the observer is to move there, so every
    /// determinization has the same legal actions ([`Ismcts::search_information`]).
    root_untried: G::Actions,
    sqrt_ln: &'static SqrtLnTable,
}

impl<A: Copy> Tree<A> {
    fn new(root_action: A) -> Self {
        let root = Node {
            action: root_action,
            mover: 0,
            visits: 0,
            availability: 0,
            reward: 0.0,
            mean: 0.0,
            spread: 0.0,
        };
        Tree {
            nodes: vec![root; CHUNK],
            children: vec![NO_CHILDREN; CHUNK],
            next_chunk: vec![NONE],
            root: RootChildren::default(),
            simulations: 0,
        }
    }

    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        chunks(&self.next_chunk, self.children[node as usize])
            .flat_map(|range| range.map(|c| c as u32))
    }

    /// One simulation from a fresh determinization.
    fn simulate<G: Game<Action = A>>(
        &mut self,
        info: &G::Information,
        (c, playout): (f32, PlayoutPolicy),
        rng: &mut Rng,
        scratch: &mut Scratch<G>,
    ) {
        let Scratch {
            state,
            path,
            untried,
            root_untried,
            sqrt_ln: table,
        } = scratch;
        G::sample_into(info, state, rng);
        path.clear();
        let mut node = 0u32;
        // The place in `self.root` of the root's child on the path.
        let mut root_place = None;
        while let Turn::Player(seat) = state.turn() {
            // Every root child is legal in every determinization, so the root needs neither
            // the sample's legal actions nor a check per child.
            let (untried, best) = if node == 0 {
                root_place = self.select_root(table);
                let best = root_place.map_or(NONE, |place| self.root.node[place]);
                (&mut *root_untried, best)
            } else {
                state.legal_set(untried);
                let best = self.select(node, table, |action| untried.take(action));
                (&mut *untried, best)
            };
            let expanded = !untried.is_empty();
            let next = if expanded {
                let action = untried
                    .nth(below(rng, untried.len()))
                    .unwrap_or_else(|| unreachable!("an action below len"));
                untried.take(action);
                if node == 0 {
                    root_place = Some(self.root.node.len());
                }
                self.add_child(node, action, seat)
            } else {
                best
            };
            if next == NONE {
                break; // no legal action: cannot happen while a seat is to move
            }
            state.apply(self.nodes[next as usize].action);
            path.push(next);
            node = next;
            if expanded {
                break;
            }
        }
        match playout {
            PlayoutPolicy::Plain => state.playout(rng),
            PlayoutPolicy::Best => state.best_playout(rng),
        };
        let rewards = state.returns().map(|r| r as f32);
        for (depth, &n) in path.iter().enumerate() {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += rewards[usize::from(node.mover)];
            let visits = node.visits as f32;
            let (mean, spread) = (node.reward / visits, c / visits.sqrt());
            match root_place {
                // The root's child keeps its statistics in `self.root`.
                Some(place) if depth == 0 => {
                    self.root.mean[place] = mean;
                    self.root.spread[place] = spread;
                }
                _ => {
                    node.mean = mean;
                    node.spread = spread;
                }
            }
        }
        self.nodes[0].visits += 1;
        self.simulations += 1;
    }

    /// The child of `node` with the best UCB1 score among those `legal` keeps (counting each
    /// one's availability); [`NONE`] if none is.
    #[inline]
    fn select(&mut self, node: u32, table: &SqrtLnTable, legal: impl FnMut(A) -> bool) -> u32 {
        // A child gains at most one availability a simulation from 1 when added, so below
        // the table's length every one is read from it without a check.
        if self.simulations + 1 < SQRT_LN_TABLE as u64 {
            self.select_by(node, legal, |n| {
                debug_assert!((n as usize) < SQRT_LN_TABLE, "availability {n}");
                table[n as usize % SQRT_LN_TABLE]
            })
        } else {
            self.select_by(node, legal, |n| sqrt_ln(table, n))
        }
    }

    /// [`Tree::select`] at the root, where every child is legal: the best child's place in
    /// [`Tree::root`]; `None` if the root has no child yet.
    #[inline]
    fn select_root(&mut self, table: &SqrtLnTable) -> Option<usize> {
        if self.simulations + 1 < SQRT_LN_TABLE as u64 {
            self.root.select_by(|n| {
                debug_assert!((n as usize) < SQRT_LN_TABLE, "availability {n}");
                table[n as usize % SQRT_LN_TABLE]
            })
        } else {
            self.root.select_by(|n| sqrt_ln(table, n))
        }
    }

    /// [`Tree::select`] with `sqrt_ln` giving `sqrt(ln(availability))`.
    #[inline]
    fn select_by(
        &mut self,
        node: u32,
        mut legal: impl FnMut(A) -> bool,
        sqrt_ln: impl Fn(u32) -> f32,
    ) -> u32 {
        // The best child at each place of a chunk, so that no comparison waits on the one
        // before it (a compiler may make the comparison a data dependency).
        let mut best = [(NONE, f32::NEG_INFINITY); CHUNK];
        let Children {
            first: mut chunk,
            len,
            ..
        } = self.children[node as usize];
        let mut left = len as usize;
        while left > 0 {
            let start = chunk as usize * CHUNK;
            let Some(nodes) = self.nodes[start..].first_chunk_mut::<CHUNK>() else {
                unreachable!("a chunk holds CHUNK nodes")
            };
            for place in 0..left.min(CHUNK) {
                let child = &mut nodes[place];
                if legal(child.action) {
                    child.availability += 1;
                    let score = child.mean + child.spread * sqrt_ln(child.availability);
                    // Ties go to the newest child (scanned last).
                    if score >= best[place].1 {
                        best[place] = ((start + place) as u32, score);
                    }
                }
            }
            left = left.saturating_sub(CHUNK);
            chunk = self.next_chunk[chunk as usize];
        }
        // The best of those, ties again to the newest: chunks are made in order, so the
        // newest child has the largest index.
        best.iter()
            .filter(|b| b.0 != NONE)
            .fold((NONE, f32::NEG_INFINITY), |a, &b| {
                if a.0 == NONE || b.1 > a.1 || (b.1 >= a.1 && b.0 > a.0) {
                    b
                } else {
                    a
                }
            })
            .0
    }

    /// Adds a child to `parent`, in a new chunk when its last one is full; its index.
    fn add_child(&mut self, parent: u32, action: A, mover: u8) -> u32 {
        let mut children = self.children[parent as usize];
        let used = children.len as usize % CHUNK;
        let slot = if used == 0 {
            let chunk = self.next_chunk.len() as u32;
            self.next_chunk.push(NONE);
            let filler = self.nodes[0];
            self.nodes.extend([filler; CHUNK]);
            self.children.extend([NO_CHILDREN; CHUNK]);
            if children.first == NONE {
                children.first = chunk;
            } else {
                self.next_chunk[children.last as usize] = chunk;
            }
            children.last = chunk;
            chunk as usize * CHUNK
        } else {
            children.last as usize * CHUNK + used
        };
        children.len += 1;
        self.children[parent as usize] = children;
        if parent == 0 {
            let root = &mut self.root;
            root.node.push(slot as u32);
            root.availability.push(1);
            root.mean.push(0.0);
            root.spread.push(0.0);
        }
        self.nodes[slot] = Node {
            action,
            mover,
            visits: 0,
            availability: 1,
            reward: 0.0,
            mean: 0.0,
            spread: 0.0,
        };
        slot as u32
    }
}

impl RootChildren {
    /// The place of the child with the best UCB1 score, ties to the newest, counting one more
    /// availability for each; `sqrt_ln` gives `sqrt(ln(availability))`.
    #[inline]
    fn select_by(&mut self, sqrt_ln: impl Fn(u32) -> f32) -> Option<usize> {
        let children = self.availability.len();
        for availability in &mut self.availability {
            *availability += 1;
        }
        // Every score, and the best per lane, a block of LANES children at a time.
        self.score.resize(children, 0.0);
        let (availability, availability_rest) = self.availability.as_chunks::<LANES>();
        let (mean, mean_rest) = self.mean.as_chunks::<LANES>();
        let (spread, spread_rest) = self.spread.as_chunks::<LANES>();
        let (score, score_rest) = self.score.as_chunks_mut::<LANES>();
        let mut lanes = [f32::NEG_INFINITY; LANES];
        let blocks = availability.iter().zip(mean).zip(spread).zip(score);
        for (((availability, mean), spread), score) in blocks {
            let root: [f32; LANES] = std::array::from_fn(|lane| sqrt_ln(availability[lane]));
            for lane in 0..LANES {
                score[lane] = mean[lane] + spread[lane] * root[lane];
                lanes[lane] = if score[lane] > lanes[lane] {
                    score[lane]
                } else {
                    lanes[lane]
                };
            }
        }
        let rest = availability_rest.iter().zip(mean_rest).zip(spread_rest);
        for (((&availability, &mean), &spread), score) in rest.zip(score_rest) {
            *score = mean + spread * sqrt_ln(availability);
            lanes[0] = if *score > lanes[0] { *score } else { lanes[0] };
        }
        // The newest child with the best score (scores are finite): the very value found,
        // so compared exactly.
        let best = lanes.into_iter().fold(f32::NEG_INFINITY, f32::max);
        #[allow(clippy::float_cmp)]
        self.score.iter().rposition(|&score| score == best)
    }
}

/// What every tree of one search starts from.
struct Root<G: Game> {
    /// The action of the root node (never read).
    action: G::Action,
    /// The observer's legal actions, the same in every determinization.
    legal: G::Actions,
    /// A determinization, the first value of each tree's sample buffer.
    sample: G,
}

/// Simulations between two looks at the clock and at the stop flag.
const POLL_EVERY: u64 = 32;

/// Grows one tree for `simulations` simulations or the budget's time, whichever comes first,
/// or until `stop` is set.
fn grow<G: Game>(
    info: &G::Information,
    root: &Root<G>,
    config: &IsmctsConfig,
    simulations: u64,
    seed: u64,
    stop: &AtomicBool,
) -> Tree<G::Action> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut tree = Tree::new(root.action);
    let mut scratch = Scratch::<G> {
        state: root.sample.clone(),
        path: Vec::with_capacity(64),
        untried: G::Actions::default(),
        root_untried: root.legal.clone(),
        sqrt_ln: sqrt_ln_table(),
    };
    let mut run = |tree: &mut Tree<G::Action>, n: u64| {
        for _ in 0..n {
            tree.simulate::<G>(
                info,
                (config.exploration, config.playout),
                &mut rng,
                &mut scratch,
            );
        }
    };
    // The bounds on the time keep this sum far from overflow; `None` means no deadline.
    let deadline = config
        .budget
        .time_limit()
        .and_then(|limit| Instant::now().checked_add(limit));
    // The first round runs even when stopped, so that every result holds a search.
    let mut left = simulations;
    loop {
        let n = left.min(POLL_EVERY);
        run(&mut tree, n);
        left -= n;
        if left == 0
            || stop.load(Ordering::Relaxed)
            || deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
    }
    tree
}

/// An ISMCTS player for any game. With a simulation budget (and no time) and a seed, its
/// choices are reproducible for a given thread count.
pub struct Ismcts {
    config: IsmctsConfig,
    rng: Rng,
    pool: Pool,
}

/// A search's thread pool and the process that built it (a forked child builds its own);
/// a clone starts without one.
#[derive(Default)]
pub(crate) struct Pool(Option<(u32, rayon::ThreadPool)>);

impl Clone for Pool {
    fn clone(&self) -> Pool {
        Pool(None)
    }
}

impl Pool {
    /// The thread pool for `threads > 1`, rebuilt in a process forked after it was made;
    /// `None` for one thread or if threads cannot be started (the trees then grow in turn).
    pub(crate) fn get(&mut self, threads: usize) -> Option<&rayon::ThreadPool> {
        if threads == 1 {
            return None;
        }
        let pid = std::process::id();
        if self.0.as_ref().is_none_or(|(owner, _)| *owner != pid) {
            self.0 = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
                .map(|pool| (pid, pool));
        }
        self.0.as_ref().map(|(_, pool)| pool)
    }
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
            pool: Pool::default(),
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
            rng: Rng::seed_from_u64(seed),
            pool: Pool::default(),
        }
    }

    /// The settings.
    pub const fn config(&self) -> &IsmctsConfig {
        &self.config
    }

    /// Searches from the information of the seat to move in `state`; `None` unless a seat is
    /// to move. The search reads `state` only through [`Game::information`].
    pub fn search<G: Game>(&mut self, state: &G) -> Option<SearchResult<G::Action>> {
        self.search_until(state, &AtomicBool::new(false))
    }

    /// [`Ismcts::search`] that ends early, with what it found so far, once `stop` is set
    /// (every tree looks at it every 32 simulations, after its first 32).
    pub fn search_until<G: Game>(
        &mut self,
        state: &G,
        stop: &AtomicBool,
    ) -> Option<SearchResult<G::Action>> {
        let Turn::Player(seat) = state.turn() else {
            return None;
        };
        self.search_information::<G>(&state.information(seat), stop)
    }

    /// [`Ismcts::search_until`] from a seat's information; `None` unless that seat is to
    /// move (in which case it has a legal action).
    pub fn search_information<G: Game>(
        &mut self,
        info: &G::Information,
        stop: &AtomicBool,
    ) -> Option<SearchResult<G::Action>> {
        // Whose turn it is and what may be played are known to the observer: any sample shows
        // them.
        let sample = G::sample(info, &mut Rng::seed_from_u64(0));
        if sample.turn() != Turn::Player(G::observer(info)) {
            return None;
        }
        let mut legal = G::Actions::default();
        sample.legal_set(&mut legal);
        let root = Root {
            action: legal.nth(0)?,
            legal,
            sample,
        };
        let seed = rand::Rng::next_u64(&mut self.rng);
        let threads = self.config.threads;
        // Without a simulation limit each tree runs until the deadline.
        let limit = self.config.budget.simulation_limit();
        let share = |t: usize| match limit {
            Some(total) => total / threads as u64 + u64::from((t as u64) < total % threads as u64),
            None => u64::MAX,
        };
        let tree_seed = |t: usize| mix(seed, t as u64);
        let config = self.config;
        let grow_tree = |t: usize| grow::<G>(info, &root, &config, share(t), tree_seed(t), stop);
        let trees: Vec<Tree<G::Action>> = match self.pool.get(threads) {
            Some(pool) => pool.install(|| (0..threads).into_par_iter().map(grow_tree).collect()),
            None => (0..threads).map(grow_tree).collect(),
        };
        summarise(&trees)
    }

    /// [`Ismcts::search`] on a thread of its own while this one calls `cancel` about every
    /// `every`: once it returns `true` the search stops early (within 32 simulations per tree)
    /// and returns what it found so far. For a caller that must answer signals while it waits.
    /// A search of at most [`Self::UNWATCHED_SIMULATIONS`] simulations, or one for which no
    /// thread can be started, runs here without calling `cancel`.
    pub fn search_watched<G: Game>(
        &mut self,
        state: &G,
        every: Duration,
        cancel: impl FnMut() -> bool,
    ) -> Option<SearchResult<G::Action>> {
        let Turn::Player(seat) = state.turn() else {
            return None;
        };
        self.search_watched_information::<G>(&state.information(seat), every, cancel)
    }

    /// [`Ismcts::search_watched`] from a seat's information.
    pub fn search_watched_information<G: Game>(
        &mut self,
        info: &G::Information,
        every: Duration,
        cancel: impl FnMut() -> bool,
    ) -> Option<SearchResult<G::Action>> {
        let unstopped = AtomicBool::new(false);
        if self
            .config
            .budget
            .simulation_limit()
            .is_some_and(|n| n <= Self::UNWATCHED_SIMULATIONS)
        {
            return self.search_information::<G>(info, &unstopped);
        }
        match crate::watch::watched(every, cancel, |stop| {
            self.search_information::<G>(info, stop)
        }) {
            Ok(found) => found,
            Err(unwatched) => unwatched(&unstopped),
        }
    }
}

/// Root children `(action, visits, value)` of several trees summed by action, ascending,
/// those never visited left out.
pub(crate) fn merge_children<A: Copy + Ord>(
    mut children: Vec<(A, u32, f32)>,
) -> Vec<(A, u32, f32)> {
    // Stable, so that each action's values add up in tree order.
    children.sort_by_key(|c| c.0);
    let mut merged: Vec<(A, u32, f32)> = Vec::with_capacity(children.len());
    for (action, visits, value) in children {
        match merged.last_mut() {
            Some(last) if last.0 == action => {
                last.1 += visits;
                last.2 += value;
            }
            _ => merged.push((action, visits, value)),
        }
    }
    merged.retain(|&(_, visits, _)| visits > 0);
    merged
}

/// Sums the trees' root children by action.
fn summarise<A: Copy + Ord>(trees: &[Tree<A>]) -> Option<SearchResult<A>> {
    let children: Vec<(A, u32, f32)> = trees
        .iter()
        .flat_map(|tree| {
            tree.children(0).map(|c| {
                let node = &tree.nodes[c as usize];
                (node.action, node.visits, node.reward)
            })
        })
        .collect();
    let merged = merge_children(children);
    let &(best, visits, reward) = merged.iter().max_by(|a, b| {
        (a.1, a.2)
            .partial_cmp(&(b.1, b.2))
            .unwrap_or(std::cmp::Ordering::Equal)
    })?;
    Some(SearchResult {
        best,
        visits: merged.iter().map(|&(a, v, _)| (a, v)).collect(),
        simulations: trees.iter().map(|t| t.simulations).sum(),
        value: reward / visits.max(1) as f32,
    })
}

impl<G: Game> Bot<G> for Ismcts {
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        self.search(state).map(|result| result.best)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::{NONE, Tree, sqrt_ln, sqrt_ln_table};
    use crate::random::{Rng, below};

    /// The selection as one scan in order with one running maximum: the best score, ties to
    /// the child scanned last.
    fn select_in_one_scan(tree: &mut Tree<u16>, legal: &[bool]) -> u32 {
        let table = sqrt_ln_table();
        let mut best = (NONE, f32::NEG_INFINITY);
        for c in tree.children(0).collect::<Vec<_>>() {
            let child = &mut tree.nodes[c as usize];
            if legal[usize::from(child.action)] {
                child.availability += 1;
                let score = child.mean + child.spread * sqrt_ln(table, child.availability);
                if score >= best.1 {
                    best = (c, score);
                }
            }
        }
        best.0
    }

    /// A root with `children` children after `round * 100` simulations (both sides of the
    /// table's bound), their statistics of few distinct values so that many scores tie, kept
    /// in the nodes and in the root's arrays alike.
    fn tree_with_ties(rng: &mut Rng, round: u16, children: u16) -> Tree<u16> {
        let mut tree = Tree::new(0u16);
        tree.simulations = u64::from(round) * 100;
        for action in 0..children {
            let c = tree.add_child(0, action, 0);
            let mean = below(rng, 3) as f32 / 2.0;
            let spread = below(rng, 2) as f32;
            let availability = 1 + below(rng, 3) as u32;
            let place = usize::from(action);
            (tree.root.mean[place], tree.root.spread[place]) = (mean, spread);
            tree.root.availability[place] = availability;
            let node = &mut tree.nodes[c as usize];
            (node.mean, node.spread, node.availability) = (mean, spread, availability);
        }
        tree
    }

    #[test]
    fn root_selection_is_the_one_scan_over_every_child() {
        let mut rng = Rng::seed_from_u64(5);
        for round in 0..300u16 {
            // Full blocks of LANES and partial ones.
            let mut tree = tree_with_ties(&mut rng, round, 1 + round % 40);
            let mut reference = tree.clone();
            let children = tree.root.node.len();
            let want = select_in_one_scan(&mut reference, &vec![true; children]);
            let got = tree.select_root(sqrt_ln_table());
            assert_eq!(
                got.map(|place| tree.root.node[place]),
                Some(want),
                "round {round}"
            );
            let availability: Vec<u32> = reference
                .children(0)
                .map(|c| reference.nodes[c as usize].availability)
                .collect();
            assert_eq!(tree.root.availability, availability);
        }
    }

    #[test]
    fn selection_is_the_one_scan_with_its_ties_to_the_newest_child() {
        let mut rng = Rng::seed_from_u64(3);
        for round in 0..300u16 {
            let children = 1 + round % 30;
            let mut tree = tree_with_ties(&mut rng, round, children);
            let legal: Vec<bool> = (0..children).map(|_| below(&mut rng, 10) < 7).collect();
            let mut reference = tree.clone();
            let want = select_in_one_scan(&mut reference, &legal);
            let got = tree.select(0, sqrt_ln_table(), |a| legal[usize::from(a)]);
            assert_eq!(got, want, "round {round}");
            let availability =
                |t: &Tree<u16>| t.nodes.iter().map(|n| n.availability).collect::<Vec<_>>();
            assert_eq!(availability(&tree), availability(&reference));
        }
    }
}
