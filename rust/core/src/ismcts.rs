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
//! use indigo_core::{Ismcts, IsmctsConfig, Position, Rules, bots::Bot, setup::shuffled_pile};
//! let position = Position::new(Rules::indigo(2).unwrap(), &shuffled_pile(1)).unwrap();
//! let mut bot = Ismcts::new(IsmctsConfig::simulations(1000), 7);
//! let info = position.information(position.to_move().unwrap());
//! let best = bot.choose(&info).unwrap();
//! assert!(position.check(best).is_ok());
//! ```

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use crate::action::Action;
use crate::bots::{Bot, below, random_playout};
use crate::moves::Move;
use crate::position::{Information, MAX_PLAYERS, Position, Utility};

/// How long a search runs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Budget {
    /// This many simulations in all (split across threads).
    Simulations(u64),
    /// Until this much time has passed (each thread searches for the whole time).
    Time(Duration),
}

/// Search settings.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct IsmctsConfig {
    /// How long each search runs.
    pub budget: Budget,
    /// The UCB1 exploration constant `c` in `mean + c * sqrt(ln(availability) / visits)`.
    pub exploration: f32,
    /// Threads, each growing its own tree (1: the calling thread only).
    pub threads: usize,
}

impl IsmctsConfig {
    /// Default exploration constant (results are in [0, 1]).
    pub const DEFAULT_EXPLORATION: f32 = 0.7;

    /// `simulations` simulations on one thread with the default exploration.
    pub const fn simulations(simulations: u64) -> IsmctsConfig {
        IsmctsConfig {
            budget: Budget::Simulations(simulations),
            exploration: Self::DEFAULT_EXPLORATION,
            threads: 1,
        }
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
            position.apply(self.nodes[next as usize].action.to_move(), &mut ());
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

/// Grows one tree for the budget.
fn grow(info: &Information, config: &IsmctsConfig, simulations: u64, seed: u64) -> Tree {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut tree = Tree::new();
    let mut path = Vec::with_capacity(64);
    match config.budget {
        Budget::Simulations(_) => {
            for _ in 0..simulations {
                tree.simulate(info, config.exploration, &mut rng, &mut path);
            }
        }
        Budget::Time(limit) => {
            let deadline = Instant::now() + limit;
            loop {
                for _ in 0..32 {
                    tree.simulate(info, config.exploration, &mut rng, &mut path);
                }
                if Instant::now() >= deadline {
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
        if info.to_move() != Some(info.observer()) {
            return None;
        }
        let seed = rand::Rng::next_u64(&mut self.rng);
        let threads = self.config.threads.max(1);
        let total = match self.config.budget {
            Budget::Simulations(n) => n.max(1),
            Budget::Time(_) => 0,
        };
        let share =
            |t: usize| total / threads as u64 + u64::from((t as u64) < total % threads as u64);
        let tree_seed = |t: usize| crate::simulate::mix(seed, t as u64);
        let config = self.config;
        let grow_tree = |t: usize| grow(info, &config, share(t), tree_seed(t));
        let trees: Vec<Tree> = match self.pool(threads) {
            Some(pool) => pool.install(|| (0..threads).into_par_iter().map(grow_tree).collect()),
            None => (0..threads).map(grow_tree).collect(),
        };
        Some(summarise(&trees))
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
