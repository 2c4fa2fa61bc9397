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
//! [`zero_sum`]). Leaves are gathered into batches of up to `batch_size` for one
//! [`Evaluator::evaluate`] call each; a virtual loss (one visit valued -1) on every node of a
//! pending leaf's path spreads a batch over the tree. A node keeps the priors of its first
//! evaluation (later determinizations reach it with other hidden cards; their values count).
//! With a seed the search is reproducible.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::SeedableRng;
use rand_distr::{Distribution, Gamma};
use rayon::prelude::*;

use crate::bots::Bot;
use crate::clock::Instant;
use crate::encoded::Encoded;
use crate::evaluator::{EvaluationError, Evaluator, zero_sum};
use crate::game::{MAX_PLAYERS, Turn};
use crate::ismcts::{Budget, IsmctsConfig, Pool, SettingsError, Visits, merge_children};
use crate::random::{Rng, below, mix, unit};

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

#[derive(Clone, Copy)]
struct Node<A> {
    action: A,
    /// The seat that played `action`; `value` is from its side.
    mover: u8,
    first_child: u32,
    next_sibling: u32,
    /// Visits, pending (virtual) ones included.
    visits: u32,
    /// Sum of values for `mover`, each pending visit counted as -1.
    value: f32,
    /// This node's priors, `priors[start..end]` of the tree, once evaluated.
    priors: Option<(u32, u32)>,
}

/// One search tree; node 0 is the root.
struct Tree<A> {
    nodes: Vec<Node<A>>,
    /// Every evaluated node's priors as `(action number, prior)`, ascending by action.
    priors: Vec<(u32, f32)>,
}

/// A leaf waiting for its evaluation (its state is in the batch at the same place): its
/// node, its mover and the path to it.
struct Pending {
    node: u32,
    mover: u8,
    path: std::ops::Range<usize>,
}

impl<A: Copy + Ord> Tree<A> {
    fn add_child(&mut self, parent: u32, action: A, mover: u8) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes.push(Node {
            action,
            mover,
            first_child: NONE,
            next_sibling: self.nodes[parent as usize].first_child,
            visits: 0,
            value: 0.0,
            priors: None,
        });
        self.nodes[parent as usize].first_child = index;
        index
    }

    /// Stores `row`'s positive priors as `node`'s.
    fn set_priors(&mut self, node: u32, row: impl Iterator<Item = (u32, f32)>) {
        let start = self.priors.len() as u32;
        self.priors.extend(row.filter(|&(_, p)| p > 0.0));
        self.nodes[node as usize].priors = Some((start, self.priors.len() as u32));
    }

    fn prior(&self, (start, end): (u32, u32), action: usize) -> f32 {
        let row = &self.priors[start as usize..end as usize];
        row.binary_search_by_key(&(action as u32), |&(a, _)| a)
            .map_or(0.0, |i| row[i].1)
    }

    /// Adds `values` (per seat) to every node of `path`, taking back their virtual losses.
    fn back_up(&mut self, path: &[u32], values: &[f32; MAX_PLAYERS]) {
        for &n in path {
            let node = &mut self.nodes[n as usize];
            node.value += values[usize::from(node.mover)] + 1.0;
        }
    }
}

/// The tree's scratch space, reused across simulations.
struct Scratch<A> {
    legal: Vec<A>,
    children: Vec<u32>,
    /// The node's prior of each legal action.
    priors: Vec<f32>,
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

/// One tree grown: its simulations, its evaluator calls, and its generator (tree 0's draws the
/// move at a temperature).
struct Grown<A> {
    tree: Tree<A>,
    simulations: u64,
    evaluations: u64,
    rng: Rng,
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
        let (seed, deadline) = self.start();
        let grown = (0..self.config.threads)
            .map(|t| self.grow(info, evaluator, seed, t, deadline, stop))
            .collect::<Result<Option<Vec<_>>, _>>()?;
        Ok(grown.map(|g| self.result(g)))
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
        let Turn::Player(seat) = state.turn() else {
            return Ok(None);
        };
        let info = state.information(seat);
        let (seed, deadline) = self.start();
        let threads = self.config.threads;
        let mut pool = std::mem::take(&mut self.pool);
        let this = &*self;
        let grow = |t: usize| this.grow(&info, &mut evaluator.clone(), seed, t, deadline, stop);
        let grown: Result<Option<Vec<_>>, _> = match pool.get(threads) {
            Some(p) => p.install(|| (0..threads).into_par_iter().map(grow).collect()),
            None => (0..threads).map(grow).collect(),
        };
        self.pool = pool;
        Ok(grown?.map(|g| self.result(g)))
    }

    /// A search's seed and deadline.
    fn start(&mut self) -> (u64, Option<Instant>) {
        let seed = rand::Rng::next_u64(&mut self.rng);
        // The bounds on the time keep this sum far from overflow.
        let deadline = self
            .config
            .budget
            .time_limit()
            .and_then(|limit| Instant::now().checked_add(limit));
        (seed, deadline)
    }

    /// Grows tree `t` of a search seeded with `seed` for its share of the simulations, or
    /// until `deadline` or `stop` (after its first batch); `Ok(None)` unless the observer is
    /// to move.
    fn grow<G: Encoded, E: Evaluator<G>>(
        &self,
        info: &G::Information,
        evaluator: &mut E,
        seed: u64,
        t: usize,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Result<Option<Grown<G::Action>>, PuctError<E::Error>> {
        let threads = self.config.threads as u64;
        let total = self.config.simulations();
        let simulations = total / threads + u64::from((t as u64) < total % threads);
        let mut rng = Rng::seed_from_u64(if t == 0 { seed } else { mix(seed, t as u64) });
        // Whose turn it is and what may be played are known to the observer: any sample
        // shows them.
        let root_state = G::sample(info, &mut rng);
        let observer = G::observer(info);
        if root_state.turn() != Turn::Player(observer) {
            return Ok(None);
        }
        let mut scratch = Scratch {
            legal: Vec::new(),
            children: Vec::new(),
            priors: Vec::new(),
            path: Vec::new(),
        };
        root_state.legal_actions(&mut scratch.legal);
        let Some(&first) = scratch.legal.first() else {
            return Ok(None);
        };
        let players = root_state.players();
        let mut tree = Tree {
            nodes: vec![Node {
                action: first,
                mover: observer,
                first_child: NONE,
                next_sibling: NONE,
                visits: 0,
                value: 0.0,
                priors: None,
            }],
            priors: Vec::new(),
        };
        let mut evaluations = 1;
        let root = evaluate(evaluator, std::slice::from_ref(&root_state), players)?;
        let row = self.root_priors::<G>(&scratch.legal, &root, &mut rng);
        tree.set_priors(0, row.into_iter());

        let mut pending: Vec<Pending> = Vec::with_capacity(self.config.batch_size);
        let mut paths: Vec<u32> = Vec::new();
        let mut leaves: Vec<G> = Vec::with_capacity(self.config.batch_size);
        let mut started = 0;
        while started < simulations {
            if started > 0
                && (stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d))
            {
                break;
            }
            pending.clear();
            paths.clear();
            leaves.clear();
            while pending.len() < self.config.batch_size && started < simulations {
                started += 1;
                let (node, state) = self.descend::<G>(&mut tree, info, &mut rng, &mut scratch);
                if let Turn::Player(mover) = state.turn() {
                    let start = paths.len();
                    paths.extend_from_slice(&scratch.path);
                    pending.push(Pending {
                        node,
                        mover,
                        path: start..paths.len(),
                    });
                    leaves.push(state);
                } else {
                    // Over (a chance node without outcomes cannot be reached).
                    tree.back_up(&scratch.path, &zero_sum(&state.returns()));
                }
            }
            if pending.is_empty() {
                continue;
            }
            let evaluation = evaluate(evaluator, &leaves, players)?;
            evaluations += 1;
            for (i, leaf) in pending.iter().enumerate() {
                if tree.nodes[leaf.node as usize].priors.is_none() {
                    if let Some(row) = evaluation.sparse_row(i) {
                        tree.set_priors(leaf.node, row.iter().copied());
                    } else {
                        let row = evaluation.row_priors(i, G::ACTION_COUNT);
                        tree.set_priors(leaf.node, (0..).zip(row.iter().copied()));
                    }
                }
                let mover = leaf.mover;
                let relative = &evaluation.values[i * players..(i + 1) * players];
                let mut values = [0.0; MAX_PLAYERS];
                for (k, &v) in relative.iter().enumerate() {
                    values[(usize::from(mover) + k) % players] = v;
                }
                tree.back_up(&paths[leaf.path.clone()], &values);
            }
        }
        Ok(Some(Grown {
            tree,
            simulations: started,
            evaluations,
            rng,
        }))
    }

    /// The root's priors over its `legal` actions as `(action number, prior)`, ascending:
    /// the evaluator's `priors` renormalised over them (uniform if none), mixed with
    /// Dirichlet noise as the settings ask.
    fn root_priors<G: Encoded>(
        &self,
        legal: &[G::Action],
        root: &crate::evaluator::Evaluation,
        rng: &mut Rng,
    ) -> Vec<(u32, f32)> {
        let noise = self.noise(legal.len(), rng);
        let legal_priors: Vec<f32> = legal
            .iter()
            .map(|&a| root.prior(0, G::ACTION_COUNT, G::action_number(a)))
            .collect();
        let total: f32 = legal_priors.iter().sum();
        let uniform = 1.0 / legal.len() as f32;
        let fraction = self.config.dirichlet_fraction;
        let mixed = legal
            .iter()
            .zip(legal_priors)
            .zip(noise)
            .map(|((&a, p), eta)| {
                let p = if total > 0.0 { p / total } else { uniform };
                (
                    G::action_number(a) as u32,
                    (1.0 - fraction) * p + fraction * eta,
                )
            });
        let mut row: Vec<(u32, f32)> = mixed.collect();
        row.sort_unstable_by_key(|&(a, _)| a);
        row
    }

    /// Dirichlet noise over `n` actions (all zero when the settings ask for none).
    fn noise(&self, n: usize, rng: &mut Rng) -> Vec<f32> {
        if self.config.dirichlet_fraction == 0.0 {
            return vec![0.0; n];
        }
        let gamma = Gamma::new(self.config.dirichlet_alpha, 1.0)
            .unwrap_or_else(|_| unreachable!("alpha is checked positive"));
        let mut eta: Vec<f32> = (0..n).map(|_| gamma.sample(rng)).collect();
        let total: f32 = eta.iter().sum();
        if total > 0.0 && total.is_finite() {
            for e in &mut eta {
                *e /= total;
            }
        } else {
            eta.fill(1.0 / n as f32);
        }
        eta
    }

    /// One simulation's walk from a fresh determinization down to a leaf or the end of the
    /// game; the path (without the root) is left in `scratch.path`, each node on it holding a
    /// virtual loss.
    fn descend<G: Encoded>(
        &self,
        tree: &mut Tree<G::Action>,
        info: &G::Information,
        rng: &mut Rng,
        scratch: &mut Scratch<G::Action>,
    ) -> (u32, G) {
        let mut state = G::sample(info, rng);
        scratch.path.clear();
        let mut node = 0u32;
        loop {
            let seat = match state.turn() {
                Turn::Over => return (node, state),
                Turn::Chance => {
                    let Some(outcome) = state.playout_action(rng, &mut scratch.legal) else {
                        return (node, state);
                    };
                    state.apply(outcome);
                    continue;
                }
                Turn::Player(seat) => seat,
            };
            let Some(priors) = tree.nodes[node as usize].priors else {
                return (node, state);
            };
            state.legal_actions(&mut scratch.legal);
            if scratch.legal.is_empty() {
                return (node, state);
            }
            // Each legal action's child, if it has one.
            scratch.children.clear();
            scratch.children.resize(scratch.legal.len(), NONE);
            let mut visits = 0u32;
            let mut child = tree.nodes[node as usize].first_child;
            while child != NONE {
                let n = &tree.nodes[child as usize];
                if let Ok(i) = scratch.legal.binary_search(&n.action) {
                    scratch.children[i] = child;
                    visits += n.visits;
                }
                child = n.next_sibling;
            }
            scratch.priors.clear();
            scratch.priors.extend(
                scratch
                    .legal
                    .iter()
                    .map(|&a| tree.prior(priors, G::action_number(a))),
            );
            let weights: f32 = scratch.priors.iter().sum();
            let uniform = 1.0 / scratch.legal.len() as f32;
            let explore = self.config.c_puct * (visits.max(1) as f32).sqrt();
            let mut best = (0, f32::NEG_INFINITY);
            for (i, (&prior, &child)) in scratch.priors.iter().zip(&scratch.children).enumerate() {
                let p = if weights > 0.0 {
                    prior / weights
                } else {
                    uniform
                };
                let (q, n) = if child == NONE {
                    (0.0, 0.0)
                } else {
                    let c = &tree.nodes[child as usize];
                    let n = c.visits as f32;
                    (if n > 0.0 { c.value / n } else { 0.0 }, n)
                };
                let score = q + explore * p / (1.0 + n);
                if score > best.1 {
                    best = (i, score);
                }
            }
            let (i, _) = best;
            let next = match scratch.children[i] {
                NONE => tree.add_child(node, scratch.legal[i], seat),
                child => child,
            };
            let chosen = &mut tree.nodes[next as usize];
            chosen.visits += 1;
            chosen.value -= 1.0;
            state.apply(chosen.action);
            scratch.path.push(next);
            node = next;
        }
    }

    /// What the trees found together: their root children summed by action, the move
    /// chosen from them (at a temperature, drawn by tree 0's generator).
    fn result<A: Copy + Ord>(&self, grown: Vec<Grown<A>>) -> PuctResult<A> {
        let root_action = grown.first().map(|g| g.tree.nodes[0].action);
        let simulations = grown.iter().map(|g| g.simulations).sum();
        let evaluations = grown.iter().map(|g| g.evaluations).sum();
        let children = grown
            .iter()
            .flat_map(|g| {
                let tree = &g.tree;
                std::iter::successors(
                    Some(tree.nodes[0].first_child).filter(|&c| c != NONE),
                    |&c| Some(tree.nodes[c as usize].next_sibling).filter(|&c| c != NONE),
                )
                .map(|c| {
                    let n = &tree.nodes[c as usize];
                    (n.action, n.visits, n.value)
                })
            })
            .collect();
        let children = merge_children(children);
        let mut rng = grown.into_iter().next().map(|g| g.rng);
        let most = children.iter().max_by(|a, b| {
            (a.1, a.2 / a.1 as f32)
                .partial_cmp(&(b.1, b.2 / b.1 as f32))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let chosen = if self.config.temperature == 0.0 {
            most.copied()
        } else {
            let top = most.map_or(1.0, |c| f64::from(c.1));
            let power = 1.0 / f64::from(self.config.temperature);
            let weights: Vec<f64> = children
                .iter()
                .map(|c| (f64::from(c.1) / top).powf(power))
                .collect();
            let rng = rng
                .as_mut()
                .unwrap_or_else(|| unreachable!("a search grows a tree"));
            let mut left = weights.iter().sum::<f64>() * unit(rng);
            children
                .iter()
                .zip(&weights)
                .find(|&(_, &w)| {
                    left -= w;
                    left < 0.0
                })
                .map(|(&c, _)| c)
                .or(most.copied())
        };
        let Some((best, visits, value)) = chosen.or_else(|| root_action.map(|a| (a, 0, 0.0)))
        else {
            unreachable!("a search grows a tree")
        };
        PuctResult {
            best,
            visits: children.iter().map(|&(a, v, _)| (a, v)).collect(),
            simulations,
            evaluations,
            value: if visits > 0 {
                value / visits as f32
            } else {
                0.0
            },
        }
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
