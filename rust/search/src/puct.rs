//! PUCT search with an evaluator (AlphaZero's search) over any [`Encoded`] game, with
//! determinization as in [`crate::Ismcts`]: one tree over the observer's information set.
//!
//! The root is evaluated first; its priors, mixed with Dirichlet noise when asked, steer the
//! simulations. Each simulation samples a full state from the observer's information
//! ([`crate::Game::sample`]) and walks down the tree choosing, among the actions legal in that
//! sample, the one that maximises `Q + c P sqrt(N) / (1 + n)`: `Q` the child's mean value for
//! the seat that moves there (0 before its first visit), `P` the parent's prior renormalised
//! over the legal actions, `N` the visits of the legal children, `n` the child's. It stops at
//! a node that has no priors yet (a leaf, evaluated) or at the end of the game (scored by
//! [`crate::zero_sum`]). Leaves are gathered into batches of up to `batch_size` for one
//! [`Evaluator::evaluate`] call each; a virtual loss (one visit valued -1) on every node of a
//! pending leaf's path spreads a batch over the tree. A node keeps the priors of every
//! determinization evaluated there, each for its own legal actions (an Indigo opponent's
//! hidden tile, say).
//! With a seed the search is reproducible. Many searches may share each call, their batches
//! side by side ([`search_together`], [`crate::puct_self_play`]): every search is grown that
//! way (`search.rs`).

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rayon::prelude::*;

use crate::bots::Bot;
use crate::clock::Instant;
use crate::encoded::Encoded;
use crate::evaluator::{EvaluationError, Evaluator};
use crate::game::{ActionSet, MAX_PLAYERS, Turn};
use crate::ismcts::{Budget, IsmctsConfig, Pool, SettingsError, Visits};
use crate::random::{Rng, below};

mod search;

pub(crate) use search::search_round;
pub use search::{PuctSearch, search_together};

/// PUCT settings, valid by construction ([`PuctConfig::new`]).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct PuctConfig {
    budget: Budget,
    threads: usize,
    batch_size: usize,
    c_puct: f32,
    dirichlet_alpha: f32,
    dirichlet_fraction: f32,
    temperature: f32,
    playout_mix: f32,
    expansion: u32,
}

impl Default for PuctConfig {
    fn default() -> Self {
        PuctConfig {
            budget: Budget::Simulations(Self::DEFAULT_SIMULATIONS),
            threads: 1,
            batch_size: Self::DEFAULT_BATCH_SIZE,
            c_puct: Self::DEFAULT_C_PUCT,
            dirichlet_alpha: Self::DEFAULT_DIRICHLET_ALPHA,
            dirichlet_fraction: 0.0,
            temperature: 0.0,
            playout_mix: 0.0,
            expansion: 1,
        }
    }
}

impl PuctConfig {
    /// Simulations of a search that names none.
    pub const DEFAULT_SIMULATIONS: u64 = 200;
    /// The most simulations one search may run (the tree holds a node per simulation), also
    /// with a time budget only.
    pub const MAX_SIMULATIONS: u64 = 10_000_000;
    /// Leaves per evaluator call unless told.
    pub const DEFAULT_BATCH_SIZE: usize = 8;
    /// The most leaves per evaluator call.
    pub const MAX_BATCH_SIZE: usize = 65_536;
    /// The exploration constant unless told.
    pub const DEFAULT_C_PUCT: f32 = 1.5;
    /// The largest exploration constant.
    pub const MAX_C_PUCT: f32 = 1000.0;
    /// The Dirichlet concentration unless told (AlphaZero's for chess).
    pub const DEFAULT_DIRICHLET_ALPHA: f32 = 0.3;
    /// The largest temperature (beyond it the choice is uniform over visited actions in all
    /// but name).
    pub const MAX_TEMPERATURE: f32 = 100.0;

    /// Checked settings: `simulations` (1 to [`Self::MAX_SIMULATIONS`]), `batch_size` (1 to
    /// [`Self::MAX_BATCH_SIZE`]), `c_puct` (above 0, at most [`Self::MAX_C_PUCT`]),
    /// `dirichlet_alpha` (above 0), `dirichlet_fraction` (the share of noise in the root's
    /// priors, 0 to 1: 0 is none), `temperature` (0 plays the most visited action; above,
    /// an action drawn with odds `visits ^ (1 / temperature)`; at most
    /// [`Self::MAX_TEMPERATURE`]). Reals are checked after conversion to `f32`.
    ///
    /// # Errors
    /// The first setting out of bounds.
    pub fn new(
        simulations: i64,
        batch_size: i64,
        c_puct: f64,
        dirichlet_alpha: f64,
        dirichlet_fraction: f64,
        temperature: f64,
    ) -> Result<PuctConfig, SettingsError> {
        let whole = |name: &str, n: i64, high: u64| {
            u64::try_from(n)
                .ok()
                .filter(|n| (1..=high).contains(n))
                .ok_or_else(|| {
                    SettingsError(format!(
                        "{name} must be a whole number from 1 to {high}, not {n}"
                    ))
                })
        };
        let real = |name: &str, x: f64, ok: &dyn Fn(f32) -> bool, bounds: &str| {
            let x32 = x as f32;
            if ok(x32) {
                Ok(x32)
            } else {
                Err(SettingsError(format!("{name} must be {bounds}, not {x}")))
            }
        };
        Ok(PuctConfig {
            budget: Budget::Simulations(whole("simulations", simulations, Self::MAX_SIMULATIONS)?),
            threads: 1,
            batch_size: whole("batch_size", batch_size, Self::MAX_BATCH_SIZE as u64)? as usize,
            c_puct: real(
                "c_puct",
                c_puct,
                &|c| c > 0.0 && c <= Self::MAX_C_PUCT,
                "above 0 and at most 1000",
            )?,
            dirichlet_alpha: real(
                "dirichlet_alpha",
                dirichlet_alpha,
                &|a| a > 0.0 && a.is_finite(),
                "a finite number above 0",
            )?,
            dirichlet_fraction: real(
                "dirichlet_fraction",
                dirichlet_fraction,
                &|f| (0.0..=1.0).contains(&f),
                "from 0 to 1",
            )?,
            temperature: real(
                "temperature",
                temperature,
                &|t| (0.0..=Self::MAX_TEMPERATURE).contains(&t),
                "from 0 to 100",
            )?,
            playout_mix: 0.0,
            expansion: 1,
        })
    }

    /// These settings with another budget: simulations (at most [`Self::MAX_SIMULATIONS`]),
    /// a time (as [`Budget::seconds`] bounds it), or both, whichever comes first.
    ///
    /// # Errors
    /// The budget out of those bounds.
    pub fn with_budget(self, budget: Budget) -> Result<PuctConfig, SettingsError> {
        let budget = budget.check()?;
        match budget.simulation_limit() {
            Some(n) if n > Self::MAX_SIMULATIONS => Err(SettingsError(format!(
                "simulations must be a whole number from 1 to {}, not {n}",
                Self::MAX_SIMULATIONS
            ))),
            _ => Ok(PuctConfig { budget, ..self }),
        }
    }

    /// These settings with `threads` trees (root parallelism, as [`crate::Ismcts`]: each
    /// grows its own tree with its own evaluator, root visits summed), 1 to
    /// [`IsmctsConfig::MAX_THREADS`].
    ///
    /// # Errors
    /// `threads` out of those bounds.
    pub fn with_threads(self, threads: i64) -> Result<PuctConfig, SettingsError> {
        usize::try_from(threads)
            .ok()
            .filter(|t| (1..=IsmctsConfig::MAX_THREADS).contains(t))
            .map(|threads| PuctConfig { threads, ..self })
            .ok_or_else(|| {
                SettingsError(format!(
                    "threads must be a whole number from 1 to {}, not {threads}",
                    IsmctsConfig::MAX_THREADS
                ))
            })
    }

    /// These settings with exploration constant `c_puct`, as [`Self::new`] bounds it.
    ///
    /// # Errors
    /// `c_puct` out of those bounds.
    pub fn with_c_puct(self, c_puct: f64) -> Result<PuctConfig, SettingsError> {
        let c = PuctConfig::new(1, 1, c_puct, f64::from(self.dirichlet_alpha), 0.0, 0.0)?.c_puct;
        Ok(PuctConfig { c_puct: c, ..self })
    }

    /// These settings with each leaf valued `(1 - mix) * v + mix * z` (AlphaGo's mixed
    /// evaluation): `v` the evaluator's value, `z` the result of one playout of the game's
    /// playout policy ([`crate::Game::playout`]) from the leaf, drawn by the tree's
    /// generator; `mix` from 0 (the evaluator's value alone, the default) to 1 (the
    /// playout's alone).
    ///
    /// # Errors
    /// `mix` out of those bounds (checked after conversion to `f32`).
    pub fn with_playout_mix(self, mix: f64) -> Result<PuctConfig, SettingsError> {
        let m = mix as f32;
        if (0.0..=1.0).contains(&m) {
            Ok(PuctConfig {
                playout_mix: m,
                ..self
            })
        } else {
            Err(SettingsError(format!(
                "playout_mix must be from 0 to 1, not {mix}"
            )))
        }
    }

    /// The most visits a leaf may wait for its evaluation ([`Self::with_expansion`]).
    pub const MAX_EXPANSION: u32 = 1000;

    /// These settings with a leaf evaluated at its `visits`-th visit (1 to
    /// [`Self::MAX_EXPANSION`]; 1, the default, is at its first, as AlphaZero does): before,
    /// each simulation that ends there is valued by a playout alone and the leaf keeps no
    /// priors, so the evaluator is asked only for the nodes the search comes back to.
    ///
    /// # Errors
    /// `visits` out of those bounds.
    pub fn with_expansion(self, visits: i64) -> Result<PuctConfig, SettingsError> {
        u32::try_from(visits)
            .ok()
            .filter(|v| (1..=Self::MAX_EXPANSION).contains(v))
            .map(|expansion| PuctConfig { expansion, ..self })
            .ok_or_else(|| {
                SettingsError(format!(
                    "expansion must be a whole number from 1 to {}, not {visits}",
                    Self::MAX_EXPANSION
                ))
            })
    }

    /// The visit at which a leaf is evaluated ([`Self::with_expansion`]).
    pub const fn expansion(&self) -> u32 {
        self.expansion
    }

    /// The share of a playout's result in each leaf's value ([`Self::with_playout_mix`]).
    pub const fn playout_mix(&self) -> f32 {
        self.playout_mix
    }

    /// How long each search runs.
    pub const fn budget(&self) -> Budget {
        self.budget
    }

    /// The most simulations per search (leaves evaluated or games finished below the root):
    /// the budget's, or [`Self::MAX_SIMULATIONS`] for a time budget.
    pub const fn simulations(&self) -> u64 {
        match self.budget.simulation_limit() {
            Some(n) => n,
            None => Self::MAX_SIMULATIONS,
        }
    }

    /// Trees grown per search (1: one tree, on the calling thread).
    pub const fn threads(&self) -> usize {
        self.threads
    }

    /// The most leaves per evaluator call.
    pub const fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// The exploration constant `c`.
    pub const fn c_puct(&self) -> f32 {
        self.c_puct
    }

    /// The Dirichlet concentration of the root noise.
    pub const fn dirichlet_alpha(&self) -> f32 {
        self.dirichlet_alpha
    }

    /// The share of noise in the root's priors (0: none).
    pub const fn dirichlet_fraction(&self) -> f32 {
        self.dirichlet_fraction
    }

    /// The temperature of the move choice (0: the most visited action).
    pub const fn temperature(&self) -> f32 {
        self.temperature
    }
}

/// What a PUCT search found.
#[derive(Clone, Debug, PartialEq)]
pub struct PuctResult<A> {
    /// The action chosen: the most visited at temperature 0 (the larger mean value, then the
    /// larger action, breaks ties), else drawn by the visits.
    pub best: A,
    /// Root visits per action, ascending by action: the policy target for training.
    pub visits: Visits<A>,
    /// Simulations run.
    pub simulations: u64,
    /// Evaluator calls made, the root's included.
    pub evaluations: u64,
    /// The observer's mean value over the chosen action's visits, in [-1, 1].
    pub value: f32,
}

/// Why a search failed: the evaluator's own error, or an evaluation of the wrong shape or
/// out of bounds.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PuctError<E> {
    /// The evaluator failed.
    Evaluator(E),
    /// The evaluator answered, wrongly.
    Evaluation(EvaluationError),
}

const NONE: u32 = u32::MAX;

/// A node's visits, pending (virtual) ones included, and its sum of values for the seat that
/// moved there, each pending visit counted as -1; with what a descent's score reads of them,
/// kept up to date so that scoring a child divides nothing.
#[derive(Clone, Copy)]
struct Stats {
    visits: u32,
    value: f32,
    /// `value / visits`, 0 before the first visit.
    mean: f32,
    /// `1 / (1 + visits)`.
    damping: f32,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats::new(0, 0.0)
    }
}

impl Stats {
    fn new(visits: u32, value: f32) -> Stats {
        let n = visits as f32;
        Stats {
            visits,
            value,
            mean: if visits > 0 { value / n } else { 0.0 },
            damping: 1.0 / (1.0 + n),
        }
    }

    /// Adds `visits` visits worth `value` in all.
    fn add(&mut self, visits: u32, value: f32) {
        *self = Stats::new(self.visits + visits, self.value + value);
    }
}

/// An entry of a node's priors: an action, its prior, and the child made for it ([`NONE`]
/// until one is) with that child's [`Stats`], kept here so that a descent reads a row's
/// children in one walk along it.
#[derive(Clone, Copy)]
struct Entry<A> {
    action: A,
    prior: f32,
    child: u32,
    stats: Stats,
}

#[derive(Clone, Copy)]
struct Node<A> {
    action: A,
    /// The seat that played `action`; the value is from its side.
    mover: u8,
    /// Its entry in its parent's priors, which holds its statistics; [`NONE`] for the root and
    /// a child whose action has no entry (legal in another determinization only), whose
    /// statistics are `stats`.
    entry: u32,
    stats: Stats,
    /// Children whose action has no entry in this node's priors.
    unlisted: u32,
    /// Evaluations that added to this node's priors.
    rows: u32,
    first_child: u32,
    next_sibling: u32,
    /// This node's priors, `entries[start..end]` of the tree, once evaluated.
    priors: Option<(u32, u32)>,
}

/// One search tree; node 0 is the root.
struct Tree<A> {
    nodes: Vec<Node<A>>,
    /// Every evaluated node's priors, ascending by action: the actions legal in the states
    /// evaluated there that the evaluator gave a chance (the root's: all).
    entries: Vec<Entry<A>>,
}

/// A leaf waiting for its evaluation (its state is in the batch at the same place): its
/// node, its mover, the path to it, its legal actions (in the tree's `pending_legal`) and its
/// playout's values per seat (when the settings mix one in, [`PuctConfig::with_playout_mix`]).
struct Pending {
    node: u32,
    mover: u8,
    path: std::ops::Range<usize>,
    legal: std::ops::Range<usize>,
    playout: [f32; MAX_PLAYERS],
}

/// The action a descent step chose: a child, an entry of the node's priors without one, or
/// a legal action with neither.
#[derive(Clone, Copy)]
enum Chosen<A> {
    Child(u32),
    Entry(u32),
    Unlisted(A),
}

impl<A: Copy + Ord> Tree<A> {
    /// A tree of its root alone: `action` stands for the move that led there (none did) and
    /// `mover` is the seat searched for.
    fn new(action: A, mover: u8) -> Tree<A> {
        let mut tree = Tree {
            nodes: Vec::new(),
            entries: Vec::new(),
        };
        tree.push_node(action, mover, NONE, NONE);
        tree
    }

    fn push_node(&mut self, action: A, mover: u8, entry: u32, next_sibling: u32) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes.push(Node {
            action,
            mover,
            entry,
            stats: Stats::default(),
            unlisted: 0,
            rows: 0,
            first_child: NONE,
            next_sibling,
            priors: None,
        });
        index
    }

    /// Makes `parent`'s child for `action`, played by `mover`: the child of entry `entry` of
    /// `parent`'s priors, or ([`NONE`]) one whose action has no entry.
    fn add_child(&mut self, parent: u32, action: A, mover: u8, entry: u32) -> u32 {
        let next_sibling = self.nodes[parent as usize].first_child;
        let child = self.push_node(action, mover, entry, next_sibling);
        self.nodes[parent as usize].first_child = child;
        match entry {
            NONE => self.nodes[parent as usize].unlisted += 1,
            k => self.entries[k as usize].child = child,
        }
        child
    }

    fn stats(&self, node: u32) -> Stats {
        match self.nodes[node as usize] {
            Node {
                entry: NONE, stats, ..
            } => stats,
            Node { entry, .. } => self.entries[entry as usize].stats,
        }
    }

    fn stats_mut(&mut self, node: u32) -> &mut Stats {
        match &mut self.nodes[node as usize] {
            Node {
                entry: NONE, stats, ..
            } => stats,
            &mut Node { entry, .. } => &mut self.entries[entry as usize].stats,
        }
    }

    /// Adds `row`'s entries (ascending by action) for actions `node`'s priors do not list yet
    /// to them: a node's priors are those of every determinization evaluated there, each for
    /// its own legal actions (an Indigo opponent's hidden tile, say), kept with their children.
    fn add_priors(&mut self, node: u32, row: impl Iterator<Item = (A, f32)>) {
        let (start, end) = self.nodes[node as usize].priors.unwrap_or((0, 0));
        let (start, end) = (start as usize, end as usize);
        let old = &self.entries[start..end];
        let mut new: Vec<Entry<A>> = row
            .filter(|e| old.binary_search_by(|o| o.action.cmp(&e.0)).is_err())
            .map(|(action, prior)| Entry {
                action,
                prior,
                child: NONE,
                stats: Stats::default(),
            })
            .collect();
        if new.is_empty() && self.nodes[node as usize].priors.is_some() {
            return;
        }
        // A child made while its action had no entry takes its new entry, statistics and all.
        if self.nodes[node as usize].unlisted > 0 {
            let mut child = self.nodes[node as usize].first_child;
            while child != NONE {
                let n = &mut self.nodes[child as usize];
                if n.entry == NONE
                    && let Ok(j) = new.binary_search_by(|e| e.action.cmp(&n.action))
                {
                    new[j].child = child;
                    new[j].stats = std::mem::take(&mut n.stats);
                    self.nodes[node as usize].unlisted -= 1;
                }
                child = self.nodes[child as usize].next_sibling;
            }
        }
        // The merged row goes to the end; its children follow their entries there.
        let first = self.entries.len();
        let (mut i, mut j) = (start, 0);
        while i < end || j < new.len() {
            let entry = if j == new.len() || (i < end && self.entries[i].action < new[j].action) {
                i += 1;
                self.entries[i - 1]
            } else {
                j += 1;
                new[j - 1]
            };
            if entry.child != NONE {
                self.nodes[entry.child as usize].entry = self.entries.len() as u32;
            }
            self.entries.push(entry);
        }
        let n = &mut self.nodes[node as usize];
        n.priors = Some((first as u32, self.entries.len() as u32));
        n.rows += 1;
    }

    /// PUCT's choice at `node`, whose priors are `(start, end)`, among the actions of `legal`
    /// (the determinization's, not empty; `legal_list` fills `scratch.legal` with them,
    /// ascending): the largest `q + c * sqrt(N) * p / (1 + n)`, ties to the smaller action,
    /// where `p` is the prior renormalised over the legal actions (uniform if none has one),
    /// `q` and `n` a child's mean value and visits (0 without one) and `N` the legal
    /// children's visits.
    ///
    /// Two walks along the part of the row between the smallest and the largest legal action
    /// (its entries hold their children's statistics), and one along the children only if
    /// some have no entry. An action with neither an entry nor a child scores 0, so the legal
    /// list is walked only when nothing scores above 0. `None` if the row has entries but
    /// none for a legal action: the determinization is to be evaluated at `node`
    /// ([`Tree::add_priors`]).
    fn choose<S: ActionSet<A>>(
        &self,
        node: u32,
        (start, end): (u32, u32),
        c_puct: f32,
        legal: &S,
        legal_list: impl FnOnce(&mut Vec<A>),
        scratch: &mut Scratch<A>,
    ) -> Option<Chosen<A>> {
        let row = &self.entries[start as usize..end as usize];
        let (first, last) = legal.bounds().map_or((0, 0), |(low, high)| {
            (
                row.partition_point(|e| e.action < low),
                row.partition_point(|e| e.action <= high),
            )
        });
        let window = &row[first..last];
        let (mut weights, mut visits, mut listed) = (0.0, 0, 0);
        for e in window.iter().filter(|e| legal.contains(e.action)) {
            weights += e.prior;
            visits += e.stats.visits;
            listed += 1;
        }
        if listed == 0 && !row.is_empty() {
            return None;
        }
        scratch.children.clear();
        if self.nodes[node as usize].unlisted > 0 {
            let mut child = self.nodes[node as usize].first_child;
            while child != NONE {
                let n = &self.nodes[child as usize];
                if n.entry == NONE && legal.contains(n.action) {
                    visits += n.stats.visits;
                    scratch.children.push(child);
                }
                child = n.next_sibling;
            }
        }
        let explore = c_puct * (visits.max(1) as f32).sqrt();
        // `c * sqrt(N) * p` for a prior `prior`, renormalised (or uniform).
        let (scale, share) = if weights > 0.0 {
            (explore / weights, 1.0)
        } else {
            (explore / legal.len() as f32, 0.0)
        };
        let score = |stats: Stats, prior: f32| {
            stats.mean + scale * (share * prior + (1.0 - share)) * stats.damping
        };
        // The row ascends by action, so its first best entry is the one ties go to.
        let (mut top, mut top_score) = (NONE, f32::NEG_INFINITY);
        for (k, e) in (0..).zip(window) {
            if legal.contains(e.action) {
                let s = score(e.stats, e.prior);
                if s > top_score {
                    (top, top_score) = (k, s);
                }
            }
        }
        let mut best = Best((top != NONE).then(|| {
            let e = &window[top as usize];
            let chosen = match e.child {
                NONE => Chosen::Entry(start + first as u32 + top),
                child => Chosen::Child(child),
            };
            (top_score, e.action, chosen)
        }));
        for &c in &scratch.children {
            let n = &self.nodes[c as usize];
            best.consider(score(n.stats, 0.0), n.action, Chosen::Child(c));
        }
        // The legal actions with neither an entry nor a child score 0, or the uniform share
        // when none has a prior: if there are any and they may be the best, walk the list.
        if let Some((s, _, chosen)) = best.0
            && (listed + scratch.children.len() == legal.len() || (weights > 0.0 && s > 0.0))
        {
            return Some(chosen);
        }
        legal_list(&mut scratch.legal);
        scratch
            .children
            .sort_unstable_by_key(|&c| self.nodes[c as usize].action);
        for &action in &scratch.legal {
            let listed = row.binary_search_by(|e| e.action.cmp(&action)).is_ok();
            let made = || {
                scratch
                    .children
                    .binary_search_by(|&c| self.nodes[c as usize].action.cmp(&action))
                    .is_ok()
            };
            if !listed && !made() {
                best.consider(
                    score(Stats::default(), 0.0),
                    action,
                    Chosen::Unlisted(action),
                );
            }
        }
        Some(
            best.0
                .map_or(Chosen::Unlisted(scratch.legal[0]), |(_, _, c)| c),
        )
    }

    /// Adds `values` (per seat) to every node of `path`, taking back their virtual losses.
    fn back_up(&mut self, path: &[u32], values: &[f32; MAX_PLAYERS]) {
        for &n in path {
            let mover = usize::from(self.nodes[n as usize].mover);
            self.stats_mut(n).add(0, values[mover] + 1.0);
        }
    }
}

/// The best choice so far of [`Tree::choose`]: its score and action.
struct Best<A>(Option<(f32, A, Chosen<A>)>);

impl<A: Copy + Ord> Best<A> {
    /// Keeps `chosen` if it scores more, or as much with a smaller action.
    fn consider(&mut self, score: f32, action: A, chosen: Chosen<A>) {
        let better = self.0.is_none_or(|(s, a, _)| match score.total_cmp(&s) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => action < a,
            std::cmp::Ordering::Less => false,
        });
        if better {
            self.0 = Some((score, action, chosen));
        }
    }
}

/// The tree's scratch space, reused across simulations.
struct Scratch<A> {
    legal: Vec<A>,
    /// The node's children legal in the determinization and without an entry.
    children: Vec<u32>,
    path: Vec<u32>,
}

/// A PUCT player for any [`Encoded`] game. With a seed and a simulation budget (no time) its
/// choices are reproducible for a given thread count.
#[derive(Clone)]
pub struct Puct {
    config: PuctConfig,
    rng: Rng,
    pool: Pool,
}

impl std::fmt::Debug for Puct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Puct")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Puct {
    /// A searcher with these settings whose choices are fixed by `seed`.
    pub fn new(config: PuctConfig, seed: u64) -> Puct {
        Puct {
            config,
            rng: Rng::seed_from_u64(seed),
            pool: Pool::default(),
        }
    }

    /// The settings.
    pub const fn config(&self) -> &PuctConfig {
        &self.config
    }

    /// Searches from the information of the seat to move in `state` (read only through
    /// [`crate::Game::information`]); `Ok(None)` unless a seat is to move. With several
    /// threads in the settings their trees grow in turn on this thread, all with `evaluator`
    /// ([`Puct::search_parallel_until`] grows them side by side).
    ///
    /// # Errors
    /// The evaluator's error, or an evaluation it got wrong ([`crate::Evaluation::check`]).
    pub fn search<G: Encoded, E: Evaluator<G>>(
        &mut self,
        state: &G,
        evaluator: &mut E,
    ) -> Result<Option<PuctResult<G::Action>>, PuctError<E::Error>> {
        self.search_until(state, evaluator, &AtomicBool::new(false))
    }

    /// [`Puct::search`] that ends early, with what it found so far, once `stop` is set (each
    /// tree looks at it after every batch of leaves, its first included).
    ///
    /// # Errors
    /// As [`Puct::search`].
    pub fn search_until<G: Encoded, E: Evaluator<G>>(
        &mut self,
        state: &G,
        evaluator: &mut E,
        stop: &AtomicBool,
    ) -> Result<Option<PuctResult<G::Action>>, PuctError<E::Error>> {
        let Turn::Player(seat) = state.turn() else {
            return Ok(None);
        };
        self.search_information_until(&state.information(seat), evaluator, stop)
    }

    /// [`Puct::search`] from a seat's information; `Ok(None)` unless that seat is to move.
    ///
    /// # Errors
    /// As [`Puct::search`].
    pub fn search_information<G: Encoded, E: Evaluator<G>>(
        &mut self,
        info: &G::Information,
        evaluator: &mut E,
    ) -> Result<Option<PuctResult<G::Action>>, PuctError<E::Error>> {
        self.search_information_until(info, evaluator, &AtomicBool::new(false))
    }

    /// [`Puct::search_until`] from a seat's information.
    ///
    /// # Errors
    /// As [`Puct::search`].
    pub fn search_information_until<G: Encoded, E: Evaluator<G>>(
        &mut self,
        info: &G::Information,
        evaluator: &mut E,
        stop: &AtomicBool,
    ) -> Result<Option<PuctResult<G::Action>>, PuctError<E::Error>> {
        let Some(search) = self.start_search_information(info) else {
            return Ok(None);
        };
        let mut trees = search.split();
        for tree in &mut trees {
            search_together(std::slice::from_mut(tree), evaluator, stop)?;
        }
        Ok(PuctSearch::join(trees).map(PuctSearch::result))
    }

    /// [`Puct::search_until`] with the settings' threads side by side, each tree with its
    /// own clone of `evaluator` (on this thread alone for one thread, or if no thread can be
    /// started). With a simulation budget the result depends only on the seed and the thread
    /// count, and for an evaluator that answers the same leaves the same way (a network), it
    /// is [`Puct::search_until`]'s.
    ///
    /// # Errors
    /// As [`Puct::search`] (the first tree's error, in tree order).
    pub fn search_parallel_until<G: Encoded, E: Evaluator<G> + Clone + Send + Sync>(
        &mut self,
        state: &G,
        evaluator: &E,
        stop: &AtomicBool,
    ) -> Result<Option<PuctResult<G::Action>>, PuctError<E::Error>>
    where
        E::Error: Send,
    {
        let Some(search) = self.start_search(state) else {
            return Ok(None);
        };
        let threads = self.config.threads;
        let grow = |mut tree: PuctSearch<G>| {
            search_together(
                std::slice::from_mut(&mut tree),
                &mut evaluator.clone(),
                stop,
            )
            .map(|()| tree)
        };
        let trees = search.split();
        let grown: Result<Vec<_>, _> = match self.pool.get(threads) {
            Some(p) => p.install(|| trees.into_par_iter().map(grow).collect()),
            None => trees.into_iter().map(grow).collect(),
        };
        Ok(PuctSearch::join(grown?).map(PuctSearch::result))
    }

    /// A search from the information of the seat to move in `state`, not yet grown: to grow
    /// with others, sharing their evaluator calls ([`search_together`]); `None` unless a seat
    /// is to move. Its seed and deadline are drawn now, as [`Puct::search`] draws them.
    pub fn start_search<G: Encoded>(&mut self, state: &G) -> Option<PuctSearch<G>> {
        let Turn::Player(seat) = state.turn() else {
            return None;
        };
        self.start_search_information(&state.information(seat))
    }

    /// [`Puct::start_search`] from a seat's information; `None` unless that seat is to move.
    pub fn start_search_information<G: Encoded>(
        &mut self,
        info: &G::Information,
    ) -> Option<PuctSearch<G>> {
        let seed = rand::Rng::next_u64(&mut self.rng);
        // The bounds on the time keep this sum far from overflow.
        let deadline = self
            .config
            .budget
            .time_limit()
            .and_then(|limit| Instant::now().checked_add(limit));
        PuctSearch::new(self.config, info, seed, deadline)
    }
}

/// `evaluator`'s checked evaluation of `leaves`.
fn evaluate<G: Encoded, E: Evaluator<G>>(
    evaluator: &mut E,
    leaves: &[G],
    players: usize,
) -> Result<crate::evaluator::Evaluation, PuctError<E::Error>> {
    let evaluation = evaluator.evaluate(leaves).map_err(PuctError::Evaluator)?;
    evaluation
        .check(leaves.len(), G::ACTION_COUNT, players)
        .map_err(PuctError::Evaluation)?;
    Ok(evaluation)
}

/// A PUCT searcher with its evaluator, as a [`Bot`] (for evaluators that cannot fail).
#[derive(Clone, Debug)]
pub struct PuctBot<E> {
    /// The search.
    pub puct: Puct,
    /// Its evaluator.
    pub evaluator: E,
}

impl<E> PuctBot<E> {
    /// [`Puct::search_parallel_until`] with this bot's evaluator; `None` unless a seat is to
    /// move. An evaluation the evaluator got wrong leaves a uniformly random legal action,
    /// with no visits.
    pub fn search_until<G: Encoded>(
        &mut self,
        state: &G,
        stop: &AtomicBool,
    ) -> Option<PuctResult<G::Action>>
    where
        E: Evaluator<G, Error = std::convert::Infallible> + Clone + Send + Sync,
    {
        match self
            .puct
            .search_parallel_until(state, &self.evaluator, stop)
        {
            Ok(found) => found,
            Err(PuctError::Evaluation(_)) => {
                let mut legal = Vec::new();
                state.legal_actions(&mut legal);
                let n = legal.len();
                (n > 0).then(|| PuctResult {
                    best: legal[below(&mut self.puct.rng, n)],
                    visits: Vec::new(),
                    simulations: 0,
                    evaluations: 0,
                    value: 0.0,
                })
            }
        }
    }
}

impl<G: Encoded, E: Evaluator<G, Error = std::convert::Infallible>> Bot<G> for PuctBot<E> {
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        match self.puct.search(state, &mut self.evaluator) {
            Ok(found) => found.map(|r| r.best),
            Err(PuctError::Evaluation(_)) => {
                // A faulty evaluator: still a legal action.
                let mut legal = Vec::new();
                state.legal_actions(&mut legal);
                let n = legal.len();
                (n > 0).then(|| legal[below(&mut self.puct.rng, n)])
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
