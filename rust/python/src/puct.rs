//! The PUCT search of every game, with a Python evaluator or the rollout evaluator: the bot,
//! its search result and its self-play. With a Python evaluator the search runs without the
//! GIL and takes it back only to call the evaluator, once per batch of leaves, looking for
//! Ctrl-C before each call (one tree: a Python evaluator takes no threads); its self-play
//! keeps games in flight whose searches share each call (`puct_self_play`). With the rollout
//! evaluator it runs watched (`watch.rs`), its trees side by side.

use indigo_search::{
    Budget, Encoded, Evaluation, Evaluator, MAX_IN_FLIGHT, Puct, PuctConfig, PuctError, PuctResult,
    RolloutEvaluator, SelfPlayOf, encode_leaves, game_seed, in_range, mix, puct_self_play,
    self_play_with,
};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::batch::game_range;
use crate::bots::visit_policy;
use crate::convert::{Int, Real, Refusal, extract_seed, os_seed, refused};
use crate::errors::{EvaluatorError, IllegalMoveError, IndigoError};
use crate::games::{AnyGame, AnyRules, Served};
use crate::shared::SharedBot;
use crate::watch::interruptible;

/// The name that asks for the rollout evaluator in place of a Python one.
const ROLLOUT: &str = "rollout";

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
    let array = array.readonly();
    let values = match array.as_slice() {
        Ok(contiguous) => contiguous.to_vec(),
        Err(_) => array.as_array().iter().copied().collect(),
    };
    Ok((values, shape))
}

impl<G: Encoded> Evaluator<G> for PyEvaluator<'_> {
    type Error = PyErr;

    fn evaluate(&mut self, leaves: &[G]) -> PyResult<Evaluation> {
        encode_leaves(leaves, &mut self.observations, &mut self.masks);
        let rows = leaves.len();
        Python::attach(|py| {
            py.check_signals()?;
            let observations = PyArray1::from_slice(py, &self.observations)
                .reshape([rows, G::OBSERVATION_SIZE])?;
            let masks = PyArray1::from_slice(py, &self.masks).reshape([rows, G::ACTION_COUNT])?;
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
                ..Evaluation::default()
            })
        })
    }
}

/// A search's failure with a Python evaluator as the exception to raise: the evaluator's
/// own, or an [`EvaluatorError`] for an answer the search cannot use.
fn raised(error: PuctError<PyErr>) -> PyErr {
    match error {
        PuctError::Evaluator(e) => e,
        PuctError::Evaluation(e) => EvaluatorError::new_err(e.0),
    }
}

/// What steers a bot's search.
enum Steer {
    /// A Python callable `evaluator(observations, masks) -> (priors, values)`.
    Python(Py<PyAny>),
    /// Uniform priors and one random playout per leaf, in Rust (`"rollout"`).
    Rollout,
}

/// A search and the playouts of its rollout evaluator, each fixed by its seed.
#[derive(Clone)]
struct Searcher {
    puct: Puct,
    rollouts: RolloutEvaluator,
}

impl Searcher {
    fn new(config: PuctConfig, seed: u64) -> Searcher {
        Searcher {
            puct: Puct::new(config, seed),
            rollouts: RolloutEvaluator::new(mix(seed, 1)),
        }
    }

    /// The searcher of self-play game `game` (its seed): seeded from it alone.
    fn of_game(config: PuctConfig, game: u64) -> Searcher {
        Searcher::new(config, mix(game, u64::MAX))
    }

    /// Searches `state` steered by `steer`: without the GIL between Python evaluator calls,
    /// or watched for Ctrl-C with the rollout evaluator.
    fn search<G: Served>(
        &mut self,
        py: Python<'_>,
        steer: &Steer,
        state: &G,
    ) -> PyResult<Option<PuctResult<G::Action>>>
    where
        G::Action: Send,
    {
        match steer {
            Steer::Python(function) => py.detach(|| {
                let mut evaluator = PyEvaluator {
                    function,
                    observations: Vec::new(),
                    masks: Vec::new(),
                };
                self.puct.search(state, &mut evaluator).map_err(raised)
            }),
            Steer::Rollout => {
                let Searcher { puct, rollouts } = self;
                let found = interruptible(py, |stop| {
                    puct.search_parallel_until(state, &*rollouts, stop)
                })?;
                found.map_err(|e| match e {
                    PuctError::Evaluator(never) => match never {},
                    PuctError::Evaluation(e) => EvaluatorError::new_err(e.0),
                })
            }
        }
    }
}

/// PUCT search (AlphaZero's) for any game, steered by an evaluator you give: `evaluator(
/// observations, masks)` receives a batch of leaves, `observations` float32 `(batch,
/// OBSERVATION_SIZE)` (each leaf as its mover sees it) and `masks` bool `(batch,
/// ACTION_COUNT)` (its legal actions), both sizes the game's own, and returns `(priors,
/// values)`: priors `(batch, ACTION_COUNT)`, non-negative weights (only legal actions' count,
/// renormalised); values `(batch, players)` in [-1, 1], column `k` for the seat `k` places
/// after the leaf's mover. `"rollout"` in place of a function: uniform priors and one random
/// playout per leaf, in Rust. Each simulation samples what the mover cannot see, as ISMCTS
/// does. The GIL is released between evaluator calls. `time` (seconds) stops each search,
/// alone or with `simulations` (whichever comes first); `threads` grows that many trees side
/// by side (root parallelism), with `"rollout"` only.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct PuctBot {
    config: PuctConfig,
    steer: Steer,
    bot: SharedBot<Searcher>,
}

/// What one PUCT search found.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct PuctSearchResult {
    /// The move chosen (the most visited at temperature 0, else drawn by the visits), a move
    /// of the game searched.
    #[pyo3(get)]
    best: Py<PyAny>,
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
    /// The game's action count.
    actions: usize,
}

#[pymethods]
impl PuctSearchResult {
    /// Root visits as a float32 distribution over all the game's actions (sums to 1): the
    /// policy target.
    fn policy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        visit_policy(py, &self.visits, self.actions)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "<PuctSearchResult best={} simulations={} evaluations={} value={:.3}>",
            self.best.bind(py).str()?,
            self.simulations,
            self.evaluations,
            self.value
        ))
    }
}

impl PuctBot {
    /// The search from `state`'s seat to move.
    fn run<G: Served>(&self, py: Python<'_>, state: &G) -> PyResult<PuctResult<G::Action>>
    where
        G::Action: Send,
    {
        // The evaluator runs on this thread: a call back into this bot would wait for itself.
        let _searching = Searching::enter(self)?;
        let mut bot = self.bot.take(py)?;
        bot.search(py, &self.steer, state)?.ok_or_else(|| {
            IllegalMoveError::new_err(
                "no seat is to move (the game is over or a draw is waiting): nothing to search",
            )
        })
    }

    /// [`PuctBot::run`] as its Python result.
    fn found<G: Served>(&self, py: Python<'_>, state: &G) -> PyResult<PuctSearchResult>
    where
        G::Action: Send,
    {
        let r = self.run(py, state)?;
        Ok(PuctSearchResult {
            best: G::to_move(py, r.best)?,
            visits: r
                .visits
                .iter()
                .map(|&(a, v)| (G::action_number(a), v))
                .collect(),
            simulations: r.simulations,
            evaluations: r.evaluations,
            value: r.value,
            actions: G::ACTION_COUNT,
        })
    }

    /// Self-play games `range` of `rules` with this search in every seat: with a Python
    /// evaluator `in_flight` games at a time sharing each call, with the rollout evaluator
    /// one game at a time (its playouts are each search's own).
    fn play<G: Served>(
        &self,
        py: Python<'_>,
        range: std::ops::Range<u64>,
        rules: G::Rules,
        seed: u64,
        in_flight: usize,
    ) -> PyResult<Py<PyAny>>
    where
        G::Action: Send,
    {
        let config = self.config;
        let start = |index: u64| {
            let game = game_seed(seed, index);
            (G::start(rules, game), game, Searcher::of_game(config, game))
        };
        let played: Vec<SelfPlayOf<G>> = match &self.steer {
            Steer::Python(function) => py.detach(|| {
                let mut evaluator = PyEvaluator {
                    function,
                    observations: Vec::new(),
                    masks: Vec::new(),
                };
                let start = |index| {
                    let (state, game, searcher) = start(index);
                    (state, game, searcher.puct)
                };
                puct_self_play(range.clone(), in_flight, start, &mut evaluator).map_err(raised)
            })?,
            Steer::Rollout => range
                .clone()
                .map(|index| {
                    let (state, game, mut searcher) = start(index);
                    self_play_with(state, game, index, |position, _| {
                        let found = searcher.search(py, &self.steer, position)?;
                        Ok::<_, PyErr>(found.map(|r| (r.best, Some(r.visits))))
                    })
                })
                .collect::<PyResult<_>>()?,
        };
        let names = vec![self.spec(); usize::from(G::seats(rules))];
        let records = range
            .zip(&played)
            .map(|(index, one)| G::record(rules, one, &names, index))
            .collect();
        G::self_play_batch(py, &played, records)
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

/// What steers a bot, from the `evaluator` argument: a callable, or `"rollout"`.
fn steer_of(evaluator: &Bound<'_, PyAny>) -> PyResult<Steer> {
    if let Ok(name) = evaluator.cast::<PyString>() {
        return if name.to_cow()? == ROLLOUT {
            Ok(Steer::Rollout)
        } else {
            Err(IndigoError::new_err(format!(
                "evaluator must be a function evaluator(observations, masks) or '{ROLLOUT}', \
                 not {}",
                name.repr()?
            )))
        };
    }
    if !evaluator.is_callable() {
        return Err(PyTypeError::new_err(format!(
            "evaluator must be callable as evaluator(observations, masks), or '{ROLLOUT}', not \
             {}",
            evaluator.get_type().name()?
        )));
    }
    Ok(Steer::Python(evaluator.clone().unbind()))
}

#[pymethods]
impl PuctBot {
    /// Settings are checked by the search (`PuctConfig`), and its defaults are the search's
    /// (text_signature shows their values).
    #[new]
    #[pyo3(
        signature = (evaluator, simulations=None, *, time=None, threads=Int::new(1), batch_size=Int::new(PuctConfig::default().batch_size() as i64), c_puct=Real::new(PuctConfig::default().c_puct().into()), dirichlet_alpha=Real::new(PuctConfig::default().dirichlet_alpha().into()), dirichlet_fraction=Real::new(PuctConfig::default().dirichlet_fraction().into()), temperature=Real::new(PuctConfig::default().temperature().into()), playout_mix=Real::new(PuctConfig::default().playout_mix().into()), expansion=Int::new(PuctConfig::default().expansion().into()), seed=None),
        text_signature = "(evaluator, simulations=None, *, time=None, threads=1, batch_size=8, c_puct=1.5, dirichlet_alpha=0.3, dirichlet_fraction=0.0, temperature=0.0, playout_mix=0.0, expansion=1, seed=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        evaluator: &Bound<'_, PyAny>,
        simulations: Option<Int>,
        time: Option<Real>,
        threads: Int,
        batch_size: Int,
        c_puct: Real,
        dirichlet_alpha: Real,
        dirichlet_fraction: Real,
        temperature: Real,
        playout_mix: Real,
        expansion: Int,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let steer = steer_of(evaluator)?;
        let simulations_given = simulations.is_some();
        let simulations =
            simulations.unwrap_or(Int::new(PuctConfig::DEFAULT_SIMULATIONS.cast_signed()));
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
        let mut given: Vec<&dyn Refusal> = vec![&simulations, &threads, &playout_mix, &expansion];
        given.extend(time.as_ref().map(|t| t as &dyn Refusal));
        let refusal = |e: indigo_search::SettingsError| IndigoError::new_err(refused(&e.0, &given));
        let budget = match time {
            Some(t) => Budget::given(simulations_given.then_some(simulations.0), Some(t.0)),
            None => Ok(config.budget()),
        }
        .map_err(refusal)?;
        let config = config
            .with_budget(budget)
            .and_then(|c| c.with_threads(threads.0))
            .and_then(|c| c.with_playout_mix(playout_mix.0))
            .and_then(|c| c.with_expansion(expansion.0))
            .map_err(refusal)?;
        if config.threads() > 1 && matches!(steer, Steer::Python(_)) {
            return Err(IndigoError::new_err(format!(
                "threads must be 1 with a Python evaluator (it runs on the calling thread), \
                 not {}; threads apply to the '{ROLLOUT}' evaluator",
                config.threads()
            )));
        }
        let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
        Ok(PuctBot {
            config,
            steer,
            bot: SharedBot::new(Searcher::new(config, seed)),
        })
    }

    /// The evaluator: the function given, or `"rollout"`.
    #[getter]
    fn evaluator(&self, py: Python<'_>) -> Py<PyAny> {
        match &self.steer {
            Steer::Python(function) => function.clone_ref(py),
            Steer::Rollout => PyString::new(py, ROLLOUT).into_any().unbind(),
        }
    }

    /// The settings as text, e.g. `"puct:200,batch=8,c=1.5"`, ending `",rollout"` with the
    /// rollout evaluator (a name for records; not a spec that `make_bot` reads, since a
    /// Python evaluator is a Python object).
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
        let mix = if c.playout_mix() > 0.0 {
            format!(",mix={}", c.playout_mix())
        } else {
            String::new()
        };
        let expand = if c.expansion() > 1 {
            format!(",expand={}", c.expansion())
        } else {
            String::new()
        };
        let rollout = match self.steer {
            Steer::Python(_) => "",
            Steer::Rollout => ",rollout",
        };
        let budget = match c.budget() {
            Budget::Simulations(n) => n.to_string(),
            Budget::Time(t) => format!("time={}", t.as_secs_f64()),
            Budget::SimulationsOrTime(n, t) => format!("{n},time={}", t.as_secs_f64()),
        };
        let threads = if c.threads() > 1 {
            format!(",threads={}", c.threads())
        } else {
            String::new()
        };
        format!(
            "puct:{budget},batch={},c={}{threads}{noise}{temperature}{mix}{expand}{rollout}",
            c.batch_size(),
            c.c_puct()
        )
    }

    /// The move for the seat to move, from what that seat knows: a move of the game's kind.
    fn choose(&self, py: Python<'_>, game: AnyGame) -> PyResult<Py<PyAny>> {
        let best = match game {
            AnyGame::Indigo(state) => self.found(py, &state)?.best,
            AnyGame::QueensGarden(state) => self.found(py, &state)?.best,
        };
        Ok(best)
    }

    /// The whole search result: the move, root visits per action, simulations, evaluator
    /// calls, value.
    fn search(&self, py: Python<'_>, game: AnyGame) -> PyResult<PuctSearchResult> {
        match game {
            AnyGame::Indigo(state) => self.found(py, &state),
            AnyGame::QueensGarden(state) => self.found(py, &state),
        }
    }

    /// Self-play: games `start..start + games` of `rules`' game (default: Indigo's default
    /// rules) with this search in every seat, kept as that game's `self_play` keeps them
    /// (records, and one sample per move whose visits are this search's). Game `i` starts
    /// from the same seed as `self_play`'s game `i`, and its searches are seeded from `seed`
    /// and `i` only, so a run is reproducible. With a Python evaluator, `in_flight` games are
    /// played at a time, their searches sharing each evaluator call (up to `in_flight *
    /// batch_size` leaves a call; 1 to 4096); for an evaluator that answers each leaf the same
    /// way whatever else its batch holds, the games are the same for every `in_flight`.
    #[pyo3(
        signature = (games, *, rules=None, seed=None, start=Int::new(0), in_flight=Int::new(1)),
        text_signature = "($self, games, *, rules=None, seed=None, start=0, in_flight=1)"
    )]
    fn self_play(
        &self,
        py: Python<'_>,
        games: Int,
        rules: Option<AnyRules>,
        seed: Option<&Bound<'_, PyAny>>,
        start: Int,
        in_flight: Int,
    ) -> PyResult<Py<PyAny>> {
        let (range, _) = game_range(games, start, Int::new(1))?;
        let in_flight = in_range("in_flight", in_flight.0, 1, MAX_IN_FLIGHT as u64)
            .map_err(|e| IndigoError::new_err(refused(&e.0, &[&in_flight])))?
            as usize;
        let seed = seed.map(extract_seed).transpose()?.unwrap_or(0);
        match rules.unwrap_or(AnyRules::Indigo(indigo_game::Rules::default())) {
            AnyRules::Indigo(rules) => {
                self.play::<indigo_game::Position>(py, range, rules, seed, in_flight)
            }
            AnyRules::QueensGarden(rules) => {
                self.play::<::queens_garden::Position>(py, range, rules, seed, in_flight)
            }
        }
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
