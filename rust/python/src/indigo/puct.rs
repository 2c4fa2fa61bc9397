//! The PUCT search with a Python evaluator: the bot, its search result and its self-play.
//! The search runs without the GIL and takes it back only to call the evaluator, once per
//! batch of leaves, looking for Ctrl-C before each call.

use indigo_game::{ACTION_COUNT, OBSERVATION_SIZE, Position, self_play_record};
use indigo_search::{
    Evaluation, Evaluator, Puct, PuctConfig, PuctError, PuctResult, SelfPlayOf, encode_leaves,
    game_seed, mix, self_play_with,
};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::batch::game_range;
use crate::convert::{Int, Real, Refusal, extract_seed, os_seed, refused};
use crate::errors::{EvaluatorError, IllegalMoveError, IndigoError};
use crate::indigo::batch::SelfPlayBatch;
use crate::indigo::bots::visit_policy;
use crate::indigo::game::Game;
use crate::indigo::moves::Move;
use crate::indigo::rules::Rules;
use crate::shared::SharedBot;

/// A Python callable `f(observations, masks) -> (priors, values)` as the search's evaluator.
struct PyEvaluator<'a> {
    function: &'a Py<PyAny>,
    observations: Vec<f32>,
    masks: Vec<bool>,
}

/// `value` as a float32 array: its values, flat, and its shape.
fn float32(value: &Bound<'_, PyAny>, name: &str) -> PyResult<(Vec<f32>, Vec<usize>)> {
    let py = value.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", "float32")?;
    let array = py
        .import("numpy")?
        .call_method("asarray", (value,), Some(&kwargs))
        .map_err(|e| {
            EvaluatorError::new_err(format!("the evaluator's {name} are not numbers: {e}"))
        })?;
    let array = array.cast_into::<PyArrayDyn<f32>>()?;
    let shape = array.shape().to_vec();
    let values = array.readonly().as_array().iter().copied().collect();
    Ok((values, shape))
}

impl Evaluator<Position> for PyEvaluator<'_> {
    type Error = PyErr;

    fn evaluate(&mut self, leaves: &[Position]) -> PyResult<Evaluation> {
        encode_leaves(leaves, &mut self.observations, &mut self.masks);
        let rows = leaves.len();
        Python::attach(|py| {
            py.check_signals()?;
            let observations =
                PyArray1::from_slice(py, &self.observations).reshape([rows, OBSERVATION_SIZE])?;
            let masks = PyArray1::from_slice(py, &self.masks).reshape([rows, ACTION_COUNT])?;
            let answer = self.function.bind(py).call1((observations, masks))?;
            let (priors, values) = answer
                .extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()
                .map_err(|_| {
                    EvaluatorError::new_err(format!(
                        "the evaluator must return a pair (priors, values), not {}",
                        answer
                            .get_type()
                            .name()
                            .map_or_else(|_| "that".into(), |n| n.to_string())
                    ))
                })?;
            let (priors, priors_shape) = float32(&priors, "priors")?;
            let (values, values_shape) = float32(&values, "values")?;
            Ok(Evaluation {
                priors,
                priors_shape,
                values,
                values_shape,
            })
        })
    }
}

/// Runs `puct` on `state` with the Python `function` as evaluator, without the GIL between
/// evaluator calls.
fn search(
    py: Python<'_>,
    puct: &mut Puct,
    function: &Py<PyAny>,
    state: &Position,
) -> PyResult<Option<PuctResult<indigo_game::Action>>> {
    py.detach(|| {
        let mut evaluator = PyEvaluator {
            function,
            observations: Vec::new(),
            masks: Vec::new(),
        };
        puct.search(state, &mut evaluator).map_err(search_error)
    })
}

fn search_error(e: PuctError<PyErr>) -> PyErr {
    match e {
        PuctError::Evaluator(e) => e,
        PuctError::Evaluation(e) => EvaluatorError::new_err(e.0),
    }
}

/// PUCT search (AlphaZero's) steered by an evaluator you give: `evaluator(observations,
/// masks)` receives a batch of leaves, `observations` float32 `(batch, OBSERVATION_SIZE)`
/// (each leaf as its mover sees it) and `masks` bool `(batch, ACTION_COUNT)` (its legal
/// actions), and returns `(priors, values)`: priors `(batch, ACTION_COUNT)`, non-negative
/// weights (only legal actions' count, renormalised); values `(batch, players)` in [-1, 1],
/// column `k` for the seat `k` places after the leaf's mover. Each simulation samples what
/// the mover cannot see, as ISMCTS does. The GIL is released between evaluator calls.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct PuctBot {
    config: PuctConfig,
    evaluator: Py<PyAny>,
    bot: SharedBot<Puct>,
}

/// What one PUCT search found.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct PuctSearchResult {
    /// The move chosen (the most visited at temperature 0, else drawn by the visits).
    #[pyo3(get)]
    best: Move,
    /// Root visits per action number.
    #[pyo3(get)]
    visits: std::collections::BTreeMap<usize, u32>,
    /// Simulations run.
    #[pyo3(get)]
    simulations: u64,
    /// Evaluator calls made, the root's included.
    #[pyo3(get)]
    evaluations: u64,
    /// The mover's mean value over the chosen move's visits, in [-1, 1].
    #[pyo3(get)]
    value: f32,
}

#[pymethods]
impl PuctSearchResult {
    /// Root visits as a float32 distribution over all actions (sums to 1): the policy target.
    fn policy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        visit_policy(py, &self.visits)
    }

    fn __repr__(&self) -> String {
        format!(
            "<PuctSearchResult best={} simulations={} evaluations={} value={:.3}>",
            self.best.0, self.simulations, self.evaluations, self.value
        )
    }
}

impl PuctBot {
    fn run(
        &self,
        py: Python<'_>,
        game: &Bound<'_, Game>,
    ) -> PyResult<PuctResult<indigo_game::Action>> {
        // A copy, so the game is not locked while the search runs.
        let position = game.get().position();
        // The evaluator runs on this thread: a call back into this bot would wait for itself.
        let _searching = Searching::enter(self)?;
        let mut bot = self.bot.take(py)?;
        search(py, &mut bot, &self.evaluator, &position)?.ok_or_else(|| {
            IllegalMoveError::new_err(
                "no seat is to move (the game is over or a draw is waiting): nothing to search",
            )
        })
    }
}

thread_local! {
    /// The bots this thread is searching with, by address.
    static SEARCHING: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A bot's search on this thread, from [`Searching::enter`] until dropped.
struct Searching(usize);

impl Searching {
    /// Marks `bot` as searching on this thread; an error if it already is (its evaluator
    /// called it back).
    fn enter(bot: &PuctBot) -> PyResult<Searching> {
        let key = std::ptr::from_ref(bot) as usize;
        SEARCHING.with_borrow_mut(|searching| {
            if searching.contains(&key) {
                return Err(IndigoError::new_err(
                    "this PuctBot is searching already: its evaluator may not call it (use \
                     another PuctBot inside an evaluator)",
                ));
            }
            searching.push(key);
            Ok(Searching(key))
        })
    }
}

impl Drop for Searching {
    fn drop(&mut self) {
        SEARCHING.with_borrow_mut(|searching| searching.retain(|&k| k != self.0));
    }
}

#[pymethods]
impl PuctBot {
    /// Settings are checked by the search (`PuctConfig`).
    #[new]
    #[pyo3(
        signature = (evaluator, simulations=Int::new(200), *, batch_size=Int::new(8), c_puct=Real::new(1.5), dirichlet_alpha=Real::new(0.3), dirichlet_fraction=Real::new(0.0), temperature=Real::new(0.0), seed=None),
        text_signature = "(evaluator, simulations=200, *, batch_size=8, c_puct=1.5, dirichlet_alpha=0.3, dirichlet_fraction=0.0, temperature=0.0, seed=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        evaluator: &Bound<'_, PyAny>,
        simulations: Int,
        batch_size: Int,
        c_puct: Real,
        dirichlet_alpha: Real,
        dirichlet_fraction: Real,
        temperature: Real,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        if !evaluator.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "evaluator must be callable as evaluator(observations, masks), not {}",
                evaluator.get_type().name()?
            )));
        }
        let config = PuctConfig::new(
            simulations.0,
            batch_size.0,
            c_puct.0,
            dirichlet_alpha.0,
            dirichlet_fraction.0,
            temperature.0,
        )
        .map_err(|e| {
            let given: [&dyn Refusal; 6] = [
                &simulations,
                &batch_size,
                &c_puct,
                &dirichlet_alpha,
                &dirichlet_fraction,
                &temperature,
            ];
            IndigoError::new_err(refused(&e.0, &given))
        })?;
        let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
        Ok(PuctBot {
            config,
            evaluator: evaluator.clone().unbind(),
            bot: SharedBot::new(Puct::new(config, seed)),
        })
    }

    /// The evaluator.
    #[getter]
    fn evaluator(&self, py: Python<'_>) -> Py<PyAny> {
        self.evaluator.clone_ref(py)
    }

    /// The settings as text, e.g. `"puct:200,batch=8,c=1.5"` (a name for records; not a spec
    /// that `make_bot` reads, since the evaluator is a Python object).
    #[getter]
    fn spec(&self) -> String {
        let c = &self.config;
        let noise = if c.dirichlet_fraction() > 0.0 {
            format!(
                ",alpha={},noise={}",
                c.dirichlet_alpha(),
                c.dirichlet_fraction()
            )
        } else {
            String::new()
        };
        let temperature = if c.temperature() > 0.0 {
            format!(",temperature={}", c.temperature())
        } else {
            String::new()
        };
        format!(
            "puct:{},batch={},c={}{noise}{temperature}",
            c.simulations(),
            c.batch_size(),
            c.c_puct()
        )
    }

    /// The move for the seat to move, from what that seat knows.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<Move> {
        self.run(py, game).map(|r| Move(r.best.to_move()))
    }

    /// The whole search result: the move, root visits per action, simulations, evaluator
    /// calls, value.
    fn search(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<PuctSearchResult> {
        let r = self.run(py, game)?;
        Ok(PuctSearchResult {
            best: Move(r.best.to_move()),
            visits: r.visits.iter().map(|&(a, v)| (a.index(), v)).collect(),
            simulations: r.simulations,
            evaluations: r.evaluations,
            value: r.value,
        })
    }

    /// Self-play: games `start..start + games` with this search in every seat, kept as
    /// `indigo.self_play` keeps them (records, and one sample per move whose visits are this
    /// search's). Game `i` is dealt from the same seed as `indigo.self_play`'s game `i`, and
    /// its searches are seeded from `seed` and `i` only, so a run is reproducible.
    #[pyo3(
        signature = (games, *, rules=None, seed=None, start=Int::new(0)),
        text_signature = "($self, games, *, rules=None, seed=None, start=0)"
    )]
    fn self_play(
        &self,
        py: Python<'_>,
        games: Int,
        rules: Option<Rules>,
        seed: Option<&Bound<'_, PyAny>>,
        start: Int,
    ) -> PyResult<SelfPlayBatch> {
        let (range, _) = game_range(games, start, Int::new(1))?;
        let rules = rules.map_or_else(indigo_game::Rules::default, |r| r.0);
        let seed = seed.map(extract_seed).transpose()?.unwrap_or(0);
        let names = vec![self.spec(); usize::from(rules.players())];
        let mut played: Vec<SelfPlayOf<Position>> = Vec::with_capacity(range.clone().count());
        let mut records = Vec::with_capacity(played.capacity());
        for index in range {
            let game = game_seed(seed, index);
            let start = *indigo_game::Game::from_seed(rules, game).position();
            let mut puct = Puct::new(self.config, mix(game, u64::MAX));
            let one = self_play_with(start, game, index, |position, _| {
                let found = search(py, &mut puct, &self.evaluator, position)?;
                Ok::<_, PyErr>(found.map(|r| (r.best, Some(r.visits))))
            })?;
            records.push(self_play_record(rules, &one, &names, index).to_string());
            played.push(one);
        }
        SelfPlayBatch::of_games(py, &played, records)
    }

    fn __repr__(&self) -> String {
        format!("<PuctBot {}>", self.spec())
    }
}

/// Adds this module's classes.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PuctBot>()?;
    m.add_class::<PuctSearchResult>()?;
    Ok(())
}
