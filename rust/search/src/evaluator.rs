//! How the PUCT search ([`crate::Puct`]) hears what positions are worth: an [`Evaluator`]
//! turns a batch of leaf states into policy priors and values ([`Evaluation`]).
//! [`RolloutEvaluator`] (uniform priors, one playout's result) needs no learning; a learned
//! evaluator encodes the leaves with [`crate::encode_leaves`].

use std::convert::Infallible;
use std::fmt;

use rand::SeedableRng;

use crate::encoded::Encoded;
use crate::game::{Game, MAX_PLAYERS, Turn};
use crate::random::Rng;

/// What an evaluator says of a batch of `rows` leaves, row after row:
/// * `priors` (`rows x ACTION_COUNT`): how promising each action is, any non-negative
///   weights (the search uses those of the actions legal in each determinization,
///   renormalised; all zero there means uniform); or none at all (`rows x 0`): uniform for
///   every row, at no cost per action (a value-only evaluator, a large action space); or
///   sparse instead (`sparse_priors`, [`Evaluation::sparse`]): only the weighed actions of
///   each row, so a row costs nothing per action of the game;
/// * `values` (`rows x players`): each seat's expected result in [-1, 1], column `k` for the
///   seat `k` places after the leaf's mover (column 0 is the mover).
///
/// The shapes are as the evaluator gave them, so that a wrong one is named in the error.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Priors, flat.
    pub priors: Vec<f32>,
    /// The priors' shape.
    pub priors_shape: Vec<usize>,
    /// Values, flat.
    pub values: Vec<f32>,
    /// The values' shape.
    pub values_shape: Vec<usize>,
    /// Priors given sparsely instead of `priors` ([`Evaluation::sparse`]): row `r`'s weighed
    /// actions as `(action number, weight)`, ascending by action, are
    /// `sparse_priors[sparse_ends[r - 1]..sparse_ends[r]]` (every other action weighs 0).
    /// Empty unless so given; then `priors` is `rows x 0`.
    pub sparse_priors: Vec<(u32, f32)>,
    /// Where each row of `sparse_priors` ends (one per row when given sparsely, else none).
    pub sparse_ends: Vec<u32>,
}

impl Evaluation {
    /// An evaluation of `rows` leaves from flat priors and values (shaped as `rows` rows).
    pub fn new(rows: usize, priors: Vec<f32>, values: Vec<f32>) -> Evaluation {
        let shape = |len: usize| vec![rows, len.checked_div(rows).unwrap_or(0)];
        Evaluation {
            priors_shape: shape(priors.len()),
            values_shape: shape(values.len()),
            priors,
            values,
            sparse_priors: Vec::new(),
            sparse_ends: Vec::new(),
        }
    }

    /// An evaluation of `rows` leaves whose priors name only the actions they weigh: `priors`
    /// as `(action number, weight)`, each row ascending by action, row `r` ending before
    /// `ends[r]` (see [`Evaluation::sparse_priors`]). It costs nothing per action of the
    /// game, only per action weighed.
    pub fn sparse(
        rows: usize,
        priors: Vec<(u32, f32)>,
        ends: Vec<u32>,
        values: Vec<f32>,
    ) -> Evaluation {
        Evaluation {
            sparse_priors: priors,
            sparse_ends: ends,
            ..Evaluation::new(rows, Vec::new(), values)
        }
    }

    /// Row `row`'s priors over `actions` actions; none (uniform) for an evaluation without
    /// dense priors (see [`Evaluation::sparse_row`]).
    pub fn row_priors(&self, row: usize, actions: usize) -> &[f32] {
        self.priors
            .get(row * actions..(row + 1) * actions)
            .unwrap_or_default()
    }

    /// Row `row`'s priors as `(action number, weight)`, ascending, if given sparsely.
    pub fn sparse_row(&self, row: usize) -> Option<&[(u32, f32)]> {
        let end = *self.sparse_ends.get(row)? as usize;
        let start = row
            .checked_sub(1)
            .map_or(0, |r| self.sparse_ends[r] as usize);
        self.sparse_priors.get(start..end)
    }

    /// Row `row`'s prior of action number `action` of `actions` (0 if the row has none).
    pub fn prior(&self, row: usize, actions: usize, action: usize) -> f32 {
        match self.sparse_row(row) {
            Some(entries) => entries
                .binary_search_by_key(&(action as u32), |&(a, _)| a)
                .map_or(0.0, |i| entries[i].1),
            None => self
                .row_priors(row, actions)
                .get(action)
                .copied()
                .unwrap_or(0.0),
        }
    }

    /// Checks this evaluation of `rows` leaves of a game with `actions` actions and `players`
    /// seats: the shapes, priors finite and non-negative, values finite in [-1, 1].
    ///
    /// # Errors
    /// The first thing wrong, for a person.
    pub fn check(
        &self,
        rows: usize,
        actions: usize,
        players: usize,
    ) -> Result<(), EvaluationError> {
        let shaped = |name: &str, data: &[f32], shape: &[usize], want: [usize; 2]| {
            if shape == want && data.len() == want[0] * want[1] {
                Ok(())
            } else {
                Err(EvaluationError(format!(
                    "the evaluator's {name} must have shape ({}, {}) for {} leaves, not {}",
                    want[0],
                    want[1],
                    want[0],
                    python_shape(shape)
                )))
            }
        };
        if self.priors_shape != [rows, 0] {
            shaped("priors", &self.priors, &self.priors_shape, [rows, actions])?;
        }
        shaped("values", &self.values, &self.values_shape, [rows, players])?;
        if !self.sparse_ends.is_empty() || !self.sparse_priors.is_empty() {
            self.check_sparse(rows, actions)?;
        }
        let mut weights = self
            .priors
            .iter()
            .chain(self.sparse_priors.iter().map(|e| &e.1));
        if let Some(p) = weights.find(|p| !(p.is_finite() && **p >= 0.0)) {
            return Err(EvaluationError(format!(
                "the evaluator's priors must be finite and non-negative, not {p}"
            )));
        }
        if let Some(v) = self.values.iter().find(|v| !(-1.0..=1.0).contains(*v)) {
            return Err(EvaluationError(format!(
                "the evaluator's values must be in [-1, 1], not {v}"
            )));
        }
        Ok(())
    }
}

impl Evaluation {
    /// [`Evaluation::check`]'s part for sparse priors: dense ones too, a row per leaf, each
    /// ascending by action among the game's `actions`.
    fn check_sparse(&self, rows: usize, actions: usize) -> Result<(), EvaluationError> {
        let fail = |what: String| {
            Err(EvaluationError(format!(
                "the evaluator's sparse priors {what}"
            )))
        };
        if self.priors_shape != [rows, 0] {
            return fail("come with dense ones".into());
        }
        if self.sparse_ends.len() != rows {
            return fail(format!(
                "must have {rows} rows, not {}",
                self.sparse_ends.len()
            ));
        }
        let mut start = 0;
        for (r, &end) in self.sparse_ends.iter().enumerate() {
            let Some(row) = self.sparse_priors.get(start..end as usize) else {
                return fail(format!("end row {r} at {end}, out of order or beyond them"));
            };
            if let Some(&(a, _)) = row.iter().find(|e| e.0 as usize >= actions) {
                return fail(format!("name action {a}; the game has {actions}"));
            }
            if row.windows(2).any(|w| w[0].0 >= w[1].0) {
                return fail(format!("of row {r} are not ascending by action"));
            }
            start = end as usize;
        }
        if start != self.sparse_priors.len() {
            return fail("go beyond their last row".into());
        }
        Ok(())
    }
}

/// A shape as Python writes it: `(3, 810)`, `(3,)`, `()`.
fn python_shape(shape: &[usize]) -> String {
    if let [n] = shape {
        return format!("({n},)");
    }
    let parts: Vec<String> = shape.iter().map(ToString::to_string).collect();
    format!("({})", parts.join(", "))
}

/// Why an evaluation was refused: what is wrong, for a person.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EvaluationError(pub String);

impl fmt::Display for EvaluationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EvaluationError {}

/// Evaluates batches of leaves for the PUCT search. Each leaf is a full state (a
/// determinization) with a seat to move; an evaluator that must not read hidden information
/// reads each leaf only through its mover's eyes ([`Encoded::observation`],
/// [`crate::encode_leaves`]).
pub trait Evaluator<G: Game> {
    /// Why an evaluation failed (it ends the search).
    type Error;

    /// The priors and values of `leaves`.
    ///
    /// # Errors
    /// Whatever the evaluator cannot do; the search stops and returns it.
    fn evaluate(&mut self, leaves: &[G]) -> Result<Evaluation, Self::Error>;
}

/// A function of the leaves as an [`Evaluator`] that cannot fail.
pub struct FnEvaluator<F>(pub F);

impl<G: Game, F: FnMut(&[G]) -> Evaluation> Evaluator<G> for FnEvaluator<F> {
    type Error = Infallible;

    fn evaluate(&mut self, leaves: &[G]) -> Result<Evaluation, Infallible> {
        Ok((self.0)(leaves))
    }
}

/// Uniform priors and, as values, one playout's result per leaf ([`Game::playout`]): PUCT
/// with it is a plain Monte Carlo search. For tests and as a baseline.
#[derive(Clone, Debug)]
pub struct RolloutEvaluator {
    rng: Rng,
}

impl RolloutEvaluator {
    /// An evaluator whose playouts are fixed by `seed`.
    pub fn new(seed: u64) -> RolloutEvaluator {
        RolloutEvaluator {
            rng: Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Encoded> Evaluator<G> for RolloutEvaluator {
    type Error = Infallible;

    fn evaluate(&mut self, leaves: &[G]) -> Result<Evaluation, Infallible> {
        let players = leaves.first().map_or(0, Game::players);
        let mut values = Vec::with_capacity(leaves.len() * players);
        for leaf in leaves {
            let mover = match leaf.turn() {
                Turn::Player(seat) => usize::from(seat),
                _ => 0,
            };
            let mut end = leaf.clone();
            end.playout(&mut self.rng);
            let results = zero_sum(&end.returns());
            values.extend((0..players).map(|k| results[(mover + k) % players]));
        }
        // No priors (uniform): a large action space (Queen's Garden's 8 million) costs
        // nothing per action.
        Ok(Evaluation::new(leaves.len(), Vec::new(), values))
    }
}

/// A finished game's returns (the winners share 1) as values in [-1, 1]: `2 r - 1`, so a
/// lone winner gets 1, a loser -1, and two seats sharing a win 0.
pub fn zero_sum(returns: &[f64; MAX_PLAYERS]) -> [f32; MAX_PLAYERS] {
    returns.map(|r| (2.0 * r - 1.0) as f32)
}
