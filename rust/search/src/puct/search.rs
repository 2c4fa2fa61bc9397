//! A PUCT search in its resumable form: each tree gathers its next batch of leaves into a
//! buffer it shares with other searches and later takes its rows of their evaluation back, so
//! that one evaluator call serves many searches ([`search_together`]). Every search of
//! [`Puct`] is grown this way; a tree depends only on its own leaves, so for an evaluator that
//! answers each leaf the same way whatever else its batch holds (a network), a search grown
//! with others finds what it finds alone.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::SeedableRng;
use rand_distr::{Distribution, Gamma};

use super::{NONE, Node, Pending, PuctConfig, PuctError, PuctResult, Scratch, Tree, evaluate};
use crate::clock::Instant;
use crate::encoded::Encoded;
use crate::evaluator::{Evaluation, Evaluator, zero_sum};
use crate::game::{MAX_PLAYERS, Turn};
use crate::ismcts::merge_children;
use crate::random::{Rng, mix, unit};

/// A PUCT search in progress ([`crate::Puct::start_search`]): its trees, grown a batch of
/// leaves at a time with other searches by [`search_together`] (or by a driver of your own
/// built on it, as [`crate::puct_self_play`] is), then [`PuctSearch::result`].
pub struct PuctSearch<G: Encoded> {
    trees: Vec<TreeSearch<G>>,
    temperature: f32,
}

/// One tree of a search in progress.
struct TreeSearch<G: Encoded> {
    config: PuctConfig,
    info: G::Information,
    deadline: Option<Instant>,
    /// The root's state until its evaluation is taken.
    root: Option<G>,
    tree: Tree<G::Action>,
    /// Draws the determinizations, the root's noise and (tree 0's) the move at a temperature.
    rng: Rng,
    scratch: Scratch<G::Action>,
    /// The leaves gathered, in their rows' order, and their paths.
    pending: Vec<Pending>,
    paths: Vec<u32>,
    players: usize,
    /// This tree's share of the simulations.
    simulations: u64,
    /// Simulations started (leaves gathered and games finished below the root).
    started: u64,
    /// Evaluations taken, the root's included.
    evaluations: u64,
    /// Rows gathered whose evaluation is not taken yet.
    waiting: usize,
    /// Whether `stop` or the deadline ended it.
    stopped: bool,
}

impl<G: Encoded> PuctSearch<G> {
    /// A search with `config` from `info`, seeded with `seed`, until `deadline`; `None` unless
    /// the observer is to move with a legal action.
    pub(super) fn new(
        config: PuctConfig,
        info: &G::Information,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Option<PuctSearch<G>> {
        let trees = (0..config.threads)
            .map(|t| TreeSearch::new(config, info, seed, t, deadline))
            .collect::<Option<Vec<_>>>()?;
        Some(PuctSearch {
            trees,
            temperature: config.temperature,
        })
    }

    /// Whether every tree is done: its simulations run, or ended by the deadline or `stop`.
    pub fn is_finished(&self) -> bool {
        self.trees.iter().all(TreeSearch::is_finished)
    }

    /// The seats of the game searched.
    pub fn players(&self) -> usize {
        self.trees.first().map_or(0, |t| t.players)
    }

    /// Its trees as searches of one tree each, in order, to grow apart ([`PuctSearch::join`]).
    pub(super) fn split(self) -> Vec<PuctSearch<G>> {
        let temperature = self.temperature;
        self.trees
            .into_iter()
            .map(|tree| PuctSearch {
                trees: vec![tree],
                temperature,
            })
            .collect()
    }

    /// The trees of `parts`, in order, as one search again.
    pub(super) fn join(parts: Vec<PuctSearch<G>>) -> Option<PuctSearch<G>> {
        let temperature = parts.first()?.temperature;
        Some(PuctSearch {
            trees: parts.into_iter().flat_map(|p| p.trees).collect(),
            temperature,
        })
    }

    /// Appends every unfinished tree's next leaves to `leaves`; how many.
    fn gather(&mut self, leaves: &mut Vec<G>, stop: &AtomicBool) -> usize {
        self.trees.iter_mut().map(|t| t.gather(leaves, stop)).sum()
    }

    /// Takes the rows from `first` of `evaluation` (checked for the whole batch) that its
    /// trees gathered; how many.
    fn absorb(&mut self, evaluation: &Evaluation, first: usize) -> usize {
        self.trees
            .iter_mut()
            .fold(0, |taken, t| taken + t.absorb(evaluation, first + taken))
    }

    /// What the trees found together: their root children summed by action, the move
    /// chosen from them (at a temperature, drawn by tree 0's generator). A search not
    /// finished answers with what it found so far.
    pub fn result(self) -> PuctResult<G::Action> {
        let grown = self.trees;
        let root_action = grown.first().map(|g| g.tree.nodes[0].action);
        let simulations = grown.iter().map(|g| g.started).sum();
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
        let chosen = if self.temperature == 0.0 {
            most.copied()
        } else {
            let top = most.map_or(1.0, |c| f64::from(c.1));
            let power = 1.0 / f64::from(self.temperature);
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

/// Grows `searches` side by side until every one is finished, a round at a time: every
/// unfinished search gathers its next leaves (each tree the root alone first, then up to the
/// batch size), one evaluator call takes all the leaves of the round (one call per seat
/// count, if the searches' games have several), and each search takes its rows back. A tree
/// looks at `stop` and its deadline before each batch after its first.
///
/// # Errors
/// The evaluator's error, or an evaluation it got wrong; the searches whose leaves that call
/// held stay unfinished.
pub fn search_together<G: Encoded, E: Evaluator<G>>(
    searches: &mut [PuctSearch<G>],
    evaluator: &mut E,
    stop: &AtomicBool,
) -> Result<(), PuctError<E::Error>> {
    let mut leaves = Vec::new();
    while search_round(searches, evaluator, stop, &mut leaves)? {}
    Ok(())
}

/// One round of [`search_together`], its leaves gathered into `leaves` (a buffer reused from
/// round to round); whether any search is still unfinished.
pub(crate) fn search_round<G: Encoded, E: Evaluator<G>>(
    searches: &mut [PuctSearch<G>],
    evaluator: &mut E,
    stop: &AtomicBool,
    leaves: &mut Vec<G>,
) -> Result<bool, PuctError<E::Error>> {
    for players in 1..=MAX_PLAYERS {
        leaves.clear();
        for search in searches.iter_mut().filter(|s| s.players() == players) {
            search.gather(leaves, stop);
        }
        if leaves.is_empty() {
            continue;
        }
        let evaluation = evaluate(evaluator, leaves, players)?;
        let mut first = 0;
        for search in searches.iter_mut().filter(|s| s.players() == players) {
            first += search.absorb(&evaluation, first);
        }
    }
    Ok(searches.iter().any(|s| !s.is_finished()))
}

impl<G: Encoded> TreeSearch<G> {
    /// Tree `t` of a search seeded with `seed`, its share of the simulations to run; `None`
    /// unless the observer is to move with a legal action.
    fn new(
        config: PuctConfig,
        info: &G::Information,
        seed: u64,
        t: usize,
        deadline: Option<Instant>,
    ) -> Option<TreeSearch<G>> {
        let threads = config.threads as u64;
        let total = config.simulations();
        let simulations = total / threads + u64::from((t as u64) < total % threads);
        let mut rng = Rng::seed_from_u64(if t == 0 { seed } else { mix(seed, t as u64) });
        // Whose turn it is and what may be played are known to the observer: any sample
        // shows them.
        let root = G::sample(info, &mut rng);
        let observer = G::observer(info);
        if root.turn() != Turn::Player(observer) {
            return None;
        }
        let mut scratch = Scratch {
            legal: Vec::new(),
            children: Vec::new(),
            priors: Vec::new(),
            entries: Vec::new(),
            path: Vec::new(),
        };
        root.legal_actions(&mut scratch.legal);
        let &first = scratch.legal.first()?;
        Some(TreeSearch {
            config,
            info: info.clone(),
            deadline,
            players: root.players(),
            root: Some(root),
            tree: Tree {
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
                child_at: Vec::new(),
            },
            rng,
            scratch,
            pending: Vec::with_capacity(config.batch_size),
            paths: Vec::new(),
            simulations,
            started: 0,
            evaluations: 0,
            waiting: 0,
            stopped: false,
        })
    }

    /// Whether this tree is done.
    fn is_finished(&self) -> bool {
        self.root.is_none()
            && self.waiting == 0
            && (self.stopped || self.started >= self.simulations)
    }

    /// Appends this tree's next leaves to `leaves`: the root alone first, then up to the batch
    /// size (games finished below the root are scored at once, so a batch may run more
    /// simulations than it has leaves); how many. None while its last ones wait for their
    /// evaluation, or once finished (after its first batch, `stop` and the deadline end it).
    fn gather(&mut self, leaves: &mut Vec<G>, stop: &AtomicBool) -> usize {
        if self.waiting > 0 {
            return 0;
        }
        if let Some(root) = &self.root {
            leaves.push(root.clone());
            self.waiting = 1;
            return 1;
        }
        while !self.is_finished() {
            if self.started > 0
                && (stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d))
            {
                self.stopped = true;
                break;
            }
            self.pending.clear();
            self.paths.clear();
            let mut unevaluated_run = 0;
            while self.pending.len() < self.config.batch_size
                && self.started < self.simulations
                && unevaluated_run < UNEVALUATED_PER_BATCH
            {
                self.started += 1;
                let (node, mut state) = self.descend();
                // A leaf is valued by its playouts alone until its `expansion`-th visit
                // (this one counted), when the evaluator is asked.
                let unevaluated =
                    node != 0 && self.tree.nodes[node as usize].visits < self.config.expansion;
                if unevaluated && matches!(state.turn(), Turn::Player(_)) {
                    unevaluated_run += 1;
                    state.playout(&mut self.rng);
                    self.tree
                        .back_up(&self.scratch.path, &zero_sum(&state.returns()));
                    continue;
                }
                if let Turn::Player(mover) = state.turn() {
                    let start = self.paths.len();
                    self.paths.extend_from_slice(&self.scratch.path);
                    let playout = if self.config.playout_mix > 0.0 {
                        let mut end = state.clone();
                        end.playout(&mut self.rng);
                        zero_sum(&end.returns())
                    } else {
                        [0.0; MAX_PLAYERS]
                    };
                    self.pending.push(Pending {
                        node,
                        mover,
                        path: start..self.paths.len(),
                        playout,
                    });
                    leaves.push(state);
                } else {
                    // Over (a chance node without outcomes cannot be reached).
                    self.tree
                        .back_up(&self.scratch.path, &zero_sum(&state.returns()));
                }
            }
            self.waiting = self.pending.len();
            if self.waiting > 0 {
                break;
            }
        }
        self.waiting
    }

    /// Takes this tree's rows of `evaluation` (checked for the whole batch), from `first`, if
    /// it gathered any; how many.
    fn absorb(&mut self, evaluation: &Evaluation, first: usize) -> usize {
        let rows = std::mem::take(&mut self.waiting);
        if rows == 0 {
            return 0;
        }
        self.evaluations += 1;
        if let Some(root) = self.root.take() {
            root.legal_actions(&mut self.scratch.legal);
            let row = self.root_priors(evaluation, first);
            self.tree.set_priors(0, row.into_iter());
            return 1;
        }
        let players = self.players;
        for (i, leaf) in self.pending.iter().enumerate() {
            let r = first + i;
            if self.tree.nodes[leaf.node as usize].priors.is_none() {
                if let Some(row) = evaluation.sparse_row(r) {
                    self.tree.set_priors(leaf.node, row.iter().copied());
                } else {
                    let row = evaluation.row_priors(r, G::ACTION_COUNT);
                    // A dense row keeps only the actions it gives a chance.
                    let positive = (0..).zip(row.iter().copied()).filter(|&(_, p)| p > 0.0);
                    self.tree.set_priors(leaf.node, positive);
                }
            }
            let mover = leaf.mover;
            let relative = &evaluation.values[r * players..(r + 1) * players];
            let mut values = [0.0; MAX_PLAYERS];
            for (k, &v) in relative.iter().enumerate() {
                values[(usize::from(mover) + k) % players] = v;
            }
            let mix = self.config.playout_mix;
            if mix > 0.0 {
                for (v, &z) in values.iter_mut().zip(&leaf.playout) {
                    *v = (1.0 - mix) * *v + mix * z;
                }
            }
            self.tree.back_up(&self.paths[leaf.path.clone()], &values);
        }
        rows
    }

    /// The root's priors over its legal actions (in `scratch.legal`) as `(action number,
    /// prior)`, ascending: row `row` of `root`'s priors renormalised over them (uniform if
    /// none), mixed with Dirichlet noise as the settings ask.
    fn root_priors(&mut self, root: &Evaluation, row: usize) -> Vec<(u32, f32)> {
        let legal = &self.scratch.legal;
        let noise = noise(&self.config, legal.len(), &mut self.rng);
        let legal_priors: Vec<f32> = legal
            .iter()
            .map(|&a| root.prior(row, G::ACTION_COUNT, G::action_number(a)))
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

    /// One simulation's walk from a fresh determinization down to a leaf or the end of the
    /// game; the path (without the root) is left in `scratch.path`, each node on it holding a
    /// virtual loss.
    fn descend(&mut self) -> (u32, G) {
        let TreeSearch {
            config,
            info,
            tree,
            rng,
            scratch,
            ..
        } = self;
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
            let legal = std::mem::take(&mut scratch.legal);
            let visits = tree.legal_children::<G>(node, priors, &legal, scratch);
            scratch.legal = legal;
            let weights: f32 = scratch.priors.iter().sum();
            let uniform = 1.0 / scratch.legal.len() as f32;
            let explore = config.c_puct * (visits.max(1) as f32).sqrt();
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
                NONE => {
                    let child = tree.add_child(node, scratch.legal[i], seat);
                    if let Some(at) = tree.child_at.get_mut(scratch.entries[i] as usize) {
                        *at = child;
                    }
                    child
                }
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
}

/// The most simulations a batch ends without an evaluation (valued by their playouts alone)
/// before the tree looks at `stop` and its deadline again.
const UNEVALUATED_PER_BATCH: usize = 32;

/// Dirichlet noise over `n` actions (all zero when `config` asks for none).
fn noise(config: &PuctConfig, n: usize, rng: &mut Rng) -> Vec<f32> {
    if config.dirichlet_fraction == 0.0 {
        return vec![0.0; n];
    }
    let gamma = Gamma::new(config.dirichlet_alpha, 1.0)
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
