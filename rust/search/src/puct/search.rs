//! A PUCT search in its resumable form: each tree gathers its next batch of leaves into a
//! buffer it shares with other searches and later takes its rows of their evaluation back, so
//! that one evaluator call serves many searches ([`search_together`]). Every search of
//! [`Puct`] is grown this way; a tree depends only on its own leaves, so for an evaluator that
//! answers each leaf the same way whatever else its batch holds (a network), a search grown
//! with others finds what it finds alone.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::SeedableRng;
use rand_distr::{Distribution, Gamma};

use super::{Chosen, NONE, Pending, PuctConfig, PuctError, PuctResult, Scratch, Tree, evaluate};
use crate::clock::Instant;
use crate::encoded::Encoded;
use crate::evaluator::{Evaluation, Evaluator, zero_sum};
use crate::game::{ActionSet, MAX_PLAYERS, Turn};
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
    /// The determinization's legal actions at each step of a descent.
    legal: G::Actions,
    /// The state a descent walks, drawn afresh for each.
    state: G,
    /// The leaves gathered, in their rows' order, their paths and their legal actions.
    pending: Vec<Pending>,
    paths: Vec<u32>,
    pending_legal: Vec<G::Action>,
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
                    let stats = tree.stats(c);
                    (tree.nodes[c as usize].action, stats.visits, stats.value)
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
            path: Vec::new(),
        };
        root.legal_actions(&mut scratch.legal);
        let &first = scratch.legal.first()?;
        Some(TreeSearch {
            config,
            info: info.clone(),
            deadline,
            players: root.players(),
            root: Some(root.clone()),
            tree: Tree::new(first, observer),
            rng,
            scratch,
            legal: G::Actions::default(),
            state: root,
            pending: Vec::with_capacity(config.batch_size),
            paths: Vec::new(),
            pending_legal: Vec::new(),
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
            self.pending_legal.clear();
            let mut unevaluated_run = 0;
            while self.pending.len() < self.config.batch_size
                && self.started < self.simulations
                && unevaluated_run < UNEVALUATED_PER_BATCH
            {
                self.started += 1;
                let node = self.descend();
                let state = &mut self.state;
                // A leaf is valued by its playouts alone until its `expansion`-th visit
                // (this one counted), when the evaluator is asked; so is a draw that reaches
                // a node none of whose priors it may play, until the node's next multiple of
                // `expansion` visits (the node evaluated `rows` times).
                let rows = self.tree.nodes[node as usize].rows;
                let unevaluated = node != 0
                    && self.tree.stats(node).visits
                        < self.config.expansion.saturating_mul(rows + 1);
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
                    let first_legal = self.pending_legal.len();
                    state.legal_actions(&mut self.scratch.legal);
                    self.pending_legal.extend_from_slice(&self.scratch.legal);
                    leaves.push(state.clone());
                    let playout = if self.config.playout_mix > 0.0 {
                        state.playout(&mut self.rng);
                        zero_sum(&state.returns())
                    } else {
                        [0.0; MAX_PLAYERS]
                    };
                    self.pending.push(Pending {
                        node,
                        mover,
                        path: start..self.paths.len(),
                        legal: first_legal..self.pending_legal.len(),
                        playout,
                    });
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
            self.tree.add_priors(0, row.into_iter());
            return 1;
        }
        let players = self.players;
        for (i, leaf) in self.pending.iter().enumerate() {
            let r = first + i;
            let legal = &self.pending_legal[leaf.legal.clone()];
            self.tree
                .add_priors(leaf.node, legal_priors::<G>(evaluation, r, legal));
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

    /// The root's priors over its legal actions (in `scratch.legal`, ascending) as `(action,
    /// prior)`: row `row` of `root`'s priors renormalised over them (uniform if none), mixed
    /// with Dirichlet noise as the settings ask.
    fn root_priors(&mut self, root: &Evaluation, row: usize) -> Vec<(G::Action, f32)> {
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
                (a, (1.0 - fraction) * p + fraction * eta)
            });
        mixed.collect()
    }

    /// One simulation's walk from a fresh determinization (drawn into `state`) down to a leaf
    /// or the end of the game, its last node; the path (without the root) is left in
    /// `scratch.path`, each node on it holding a virtual loss, and the state reached in
    /// `state`.
    fn descend(&mut self) -> u32 {
        let TreeSearch {
            config,
            info,
            tree,
            rng,
            scratch,
            legal,
            state,
            ..
        } = self;
        G::sample_into(info, state, rng);
        scratch.path.clear();
        let mut node = 0u32;
        loop {
            let seat = match state.turn() {
                Turn::Over => return node,
                Turn::Chance => {
                    let Some(outcome) = state.playout_action(rng, &mut scratch.legal) else {
                        return node;
                    };
                    state.apply(outcome);
                    continue;
                }
                Turn::Player(seat) => seat,
            };
            let Some(priors) = tree.nodes[node as usize].priors else {
                return node;
            };
            state.legal_set(legal);
            if legal.is_empty() {
                return node;
            }
            let Some(chosen) = tree.choose(
                node,
                priors,
                config.c_puct,
                legal,
                |out| state.legal_actions(out),
                scratch,
            ) else {
                return node;
            };
            let next = match chosen {
                Chosen::Child(child) => child,
                Chosen::Entry(k) => {
                    let action = tree.entries[k as usize].action;
                    tree.add_child(node, action, seat, k)
                }
                Chosen::Unlisted(action) => tree.add_child(node, action, seat, NONE),
            };
            tree.stats_mut(next).add(1, -1.0);
            state.apply(tree.nodes[next as usize].action);
            scratch.path.push(next);
            node = next;
        }
    }
}

/// The most simulations a batch ends without an evaluation (valued by their playouts alone)
/// before the tree looks at `stop` and its deadline again.
const UNEVALUATED_PER_BATCH: usize = 32;

/// Row `r`'s priors of `legal` (a leaf's legal actions, ascending) as `(action, prior)`, those
/// the evaluator gives a chance. A sparse row is read in one walk while the actions' numbers
/// ascend with them, with a binary search where one does not.
fn legal_priors<'a, G: Encoded>(
    evaluation: &'a Evaluation,
    r: usize,
    legal: &'a [G::Action],
) -> impl Iterator<Item = (G::Action, f32)> + 'a {
    let sparse = evaluation.sparse_row(r);
    let dense = evaluation.row_priors(r, G::ACTION_COUNT);
    let (mut at, mut previous) = (0, 0);
    legal
        .iter()
        .map(move |&action| {
            let number = G::action_number(action);
            let prior = match sparse {
                Some(entries) => {
                    if number < previous {
                        at = entries.partition_point(|e| (e.0 as usize) < number);
                    }
                    previous = number;
                    while entries.get(at).is_some_and(|e| (e.0 as usize) < number) {
                        at += 1;
                    }
                    entries
                        .get(at)
                        .filter(|e| e.0 as usize == number)
                        .map_or(0.0, |e| e.1)
                }
                None => dense.get(number).copied().unwrap_or(0.0),
            };
            (action, prior)
        })
        .filter(|&(_, p)| p > 0.0)
}

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
