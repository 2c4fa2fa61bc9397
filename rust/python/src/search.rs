//! The search-facing part of the binding: the ISMCTS bot, bot specs and batch simulation.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

use indigo_core::GamesSummary;
use indigo_core::OBSERVATION_SIZE;
use indigo_core::game_seed;
use indigo_core::{
    ACTION_COUNT, Batch, BatchError, BotSpec, Budget, Deal, IsmctsConfig, Outcome, Position,
    Samples, SettingsError,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bots::SpecBot;
use crate::{
    Game, GreedyBot, IndigoError, Int, Move, PlayoutBot, RandomBot, Real, Rules, extract_seed,
    os_seed,
};

/// Information-set MCTS: determinized simulations from what the mover knows.
/// Threads sharing one bot take turns with it, waiting without the GIL.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct IsmctsBot(SpecBot<Position>);

impl IsmctsBot {
    fn with(config: IsmctsConfig, seed: u64) -> Self {
        IsmctsBot(SpecBot::new(BotSpec::Ismcts(config), seed))
    }
}

fn settings_error(e: SettingsError) -> PyErr {
    IndigoError::new_err(e.0)
}

/// `value` if `low <= value <= high`, else an error naming the range (checked by the core).
pub(crate) fn in_range(name: &str, Int(value): Int, low: u64, high: u64) -> PyResult<u64> {
    indigo_core::in_range(name, value, low, high).map_err(batch_error)
}

fn batch_error(e: BatchError) -> PyErr {
    IndigoError::new_err(e.0)
}

fn positive(name: &str, Real(value): Real) -> PyResult<f64> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(IndigoError::new_err(format!(
            "{name} must be a positive number, not {value}"
        )))
    }
}

/// What one ISMCTS search found.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct SearchResult {
    /// The most visited move.
    #[pyo3(get)]
    best: Move,
    /// Root visits per action number.
    #[pyo3(get)]
    visits: std::collections::BTreeMap<usize, u32>,
    /// Simulations run.
    #[pyo3(get)]
    simulations: u64,
    /// The mover's mean result (win share) over the best move's visits.
    #[pyo3(get)]
    value: f32,
}

/// Root visits as a float32 distribution over all actions (sums to 1; zeros without visits).
pub(crate) fn visit_policy<'py>(
    py: Python<'py>,
    visits: &std::collections::BTreeMap<usize, u32>,
) -> Bound<'py, PyArray1<f32>> {
    let total = visits.values().map(|&v| f64::from(v)).sum::<f64>().max(1.0);
    let mut out = vec![0f32; ACTION_COUNT];
    for (&a, &v) in visits {
        out[a] = (f64::from(v) / total) as f32;
    }
    PyArray1::from_vec(py, out)
}

#[pymethods]
impl SearchResult {
    /// Root visits as a float32 distribution over all actions (sums to 1).
    fn policy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        visit_policy(py, &self.visits)
    }

    fn __repr__(&self) -> String {
        format!(
            "<SearchResult best={} simulations={} value={:.3}>",
            self.best.0, self.simulations, self.value
        )
    }
}

impl IsmctsBot {
    fn run(
        &self,
        py: Python<'_>,
        game: &Bound<'_, Game>,
    ) -> PyResult<indigo_search::SearchResult<indigo_core::Action>> {
        // A copy, so the game is not locked while the search runs without the GIL.
        let position = game.get().position();
        self.0
            .search(py, &position)?
            .ok_or_else(|| unreachable!("an ISMCTS bot searches"))
    }
}

#[pymethods]
impl IsmctsBot {
    /// Settings are checked by the core (`IsmctsConfig`), with the same bounds as specs.
    #[new]
    #[pyo3(
        signature = (simulations=None, *, time=None, exploration=Real(0.7), threads=Int(1), seed=None),
        text_signature = "(simulations=None, *, time=None, exploration=0.7, threads=1, seed=None)"
    )]
    fn new(
        simulations: Option<Int>,
        time: Option<Real>,
        exploration: Real,
        threads: Int,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let budget =
            Budget::given(simulations.map(|n| n.0), time.map(|t| t.0)).map_err(settings_error)?;
        let config = IsmctsConfig::new(budget, exploration.0, threads.0).map_err(settings_error)?;
        let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
        Ok(IsmctsBot::with(config, seed))
    }

    /// The spec that names this bot's settings, e.g. `"ismcts:1000"`.
    #[getter]
    fn spec(&self) -> String {
        self.0.spec().to_string()
    }

    /// The move for the seat to move, from what that seat knows (GIL released).
    fn choose(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<Move> {
        self.run(py, game).map(|r| Move(r.best.to_move()))
    }

    /// The whole search result: best move, root visits per action, simulations, value.
    fn search(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<SearchResult> {
        let r = self.run(py, game)?;
        Ok(SearchResult {
            best: Move(r.best.to_move()),
            visits: r.visits.iter().map(|&(a, v)| (a.index(), v)).collect(),
            simulations: r.simulations,
            value: r.value,
        })
    }

    fn __repr__(&self) -> String {
        format!("<IsmctsBot {}>", self.spec())
    }
}

pub(crate) fn parse_spec<S: std::str::FromStr<Err = E>, E: std::fmt::Display>(
    spec: &str,
) -> PyResult<S> {
    spec.parse()
        .map_err(|e: E| IndigoError::new_err(e.to_string()))
}

/// A bot from a spec: `random`, `greedy`, `playout`, `ismcts`, `ismcts:1000`, `ismcts:time=0.5`,
/// `ismcts:1000,c=0.7,threads=2`.
#[pyfunction]
#[pyo3(signature = (spec, *, seed=None))]
pub(crate) fn make_bot(
    py: Python<'_>,
    spec: &str,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let parsed = parse_spec(spec)?;
    let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
    Ok(match parsed {
        BotSpec::Random => Py::new(py, RandomBot::new_seeded(seed))?.into_any(),
        BotSpec::Greedy => Py::new(py, GreedyBot::new_seeded(seed))?.into_any(),
        BotSpec::Playout => Py::new(py, PlayoutBot::new_seeded(seed))?.into_any(),
        BotSpec::Ismcts(config) => Py::new(py, IsmctsBot::with(config, seed))?.into_any(),
    })
}

/// The canonical text of a bot spec (`"ismcts"` becomes `"ismcts:1000"`).
#[pyfunction]
pub(crate) fn normalize_bot_spec(spec: &str) -> PyResult<String> {
    parse_spec::<BotSpec, _>(spec).map(|s| s.to_string())
}

/// The seed `simulate` gives seat `seat`'s bot in the game seeded `game_seed` (an entry of
/// `Simulation.game_seeds`): `make_bot(spec, seed=seat_seed(g, s))` is that bot.
#[pyfunction]
pub(crate) fn seat_seed(game_seed: &Bound<'_, PyAny>, seat: Int) -> PyResult<u64> {
    let seat = in_range("seat", seat, 0, indigo_core::MAX_PLAYERS as u64 - 1)?;
    Ok(indigo_core::mix(extract_seed(game_seed)?, seat))
}

/// Results of a batch, one row per game.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct Simulation {
    /// The bot specs, as given.
    #[pyo3(get)]
    bots: Vec<String>,
    /// Points per game and seat (int32, games x players).
    #[pyo3(get)]
    scores: Py<PyArray2<i32>>,
    /// Whether each seat won each game (bool, games x players); shared wins mark several.
    #[pyo3(get)]
    winners: Py<PyArray2<bool>>,
    /// Tiles placed per game (int32).
    #[pyo3(get)]
    placements: Py<PyArray1<i32>>,
    /// Which bot sat in each seat (int32 index into `bots`, games x players).
    #[pyo3(get)]
    seats: Py<PyArray2<i32>>,
    /// Each game's seed: with deal "python" it shuffled the pile as `Game(rules, seed=...)`
    /// does; `pile(i)` gives game i's pile with either deal.
    #[pyo3(get)]
    game_seeds: Py<PyArray1<u64>>,
    /// How piles were shuffled from game seeds.
    deal: Deal,
    /// The batch seed.
    seed: u64,
    /// A fingerprint of every game's outcome in order: equal runs give equal checksums.
    #[pyo3(get)]
    checksum: u64,
    /// Index of the first game.
    #[pyo3(get)]
    start: u64,
    games: usize,
    /// The game played: "indigo" or "queens-garden".
    #[pyo3(get)]
    game: &'static str,
}

/// The error for a game name that is neither "indigo" nor "queens-garden".
pub(crate) fn unknown_game(name: &str) -> PyErr {
    IndigoError::new_err(format!(
        "unknown game {name:?}: expected \"indigo\" or \"queens-garden\""
    ))
}

/// A refused batch as the package's error.
pub(crate) fn search_batch_error(e: indigo_search::BatchError) -> PyErr {
    IndigoError::new_err(e.0)
}

impl Simulation {
    /// The results of a Queen's Garden batch (`placements` holds each game's moves).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn of_queens_garden(
        py: Python<'_>,
        bots: Vec<String>,
        outcomes: &[indigo_search::Outcome],
        players: usize,
        lineups: &[Vec<usize>],
        range: std::ops::Range<u64>,
        seed: u64,
        checksum: u64,
    ) -> PyResult<Simulation> {
        let (n, start) = (outcomes.len(), range.start);
        let seat_of = |i: usize, s: usize| {
            lineups[((start + i as u64) % lineups.len() as u64) as usize][s] as i32
        };
        Ok(Simulation {
            bots,
            scores: table(py, n, players, |i, s| outcomes[i].scores[s] as i32)?,
            winners: table(py, n, players, |i, s| outcomes[i].winners & (1 << s) != 0)?,
            placements: PyArray1::from_iter(py, outcomes.iter().map(|o| o.moves as i32)).unbind(),
            seats: table(py, n, players, seat_of)?,
            game_seeds: PyArray1::from_iter(py, range.map(|g| indigo_search::game_seed(seed, g)))
                .unbind(),
            deal: Deal::Python,
            seed,
            checksum,
            start,
            games: n,
            game: "queens-garden",
        })
    }
}

#[pymethods]
impl Simulation {
    fn __len__(&self) -> usize {
        self.games
    }

    fn __repr__(&self) -> String {
        format!("<Simulation games={} bots={:?}>", self.games, self.bots)
    }

    /// How piles were shuffled from game seeds: "python" or "pcg".
    #[getter]
    fn deal(&self) -> &'static str {
        self.deal.as_str()
    }

    /// Game `index`'s pile (tile types, front first): `Game(rules, pile=...)` deals it.
    fn pile(&self, index: Int) -> PyResult<Vec<u32>> {
        if self.game != "indigo" {
            return Err(IndigoError::new_err(
                "a Queen's Garden game has no pile: indigo.queens_garden.Game(rules, \
                 seed=simulation.game_seeds[i]) sets game i up",
            ));
        }
        let last = self.games.checked_sub(1).ok_or_else(|| {
            IndigoError::new_err("this simulation holds no games: there is no pile")
        })?;
        let i = in_range("index", index, 0, last as u64)? as usize;
        Ok(self
            .deal
            .pile(game_seed(self.seed, self.start + i as u64))
            .map(|t| u32::from(t.index()))
            .to_vec())
    }
}

fn table<T: numpy::Element + Copy>(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    cell: impl Fn(usize, usize) -> T,
) -> PyResult<Py<PyArray2<T>>> {
    let flat: Vec<T> = (0..rows * cols).map(|i| cell(i / cols, i % cols)).collect();
    Ok(PyArray1::from_vec(py, flat).reshape([rows, cols])?.unbind())
}

/// The batch that `bots`, `rules`, `seed`, `lineups` and `deal` describe, checked by the core.
fn batch_of(
    bots: &[String],
    rules: Option<Rules>,
    seed: Option<&Bound<'_, PyAny>>,
    lineups: Option<Vec<Vec<Int>>>,
    deal: &str,
) -> PyResult<Batch> {
    let deal: Deal = deal.parse().map_err(IndigoError::new_err)?;
    let rules = rules.map_or_else(indigo_core::Rules::default, |r| r.0);
    let specs = bots
        .iter()
        .map(|s| parse_spec(s))
        .collect::<PyResult<Vec<_>>>()?;
    let lineups: Option<Vec<Vec<i64>>> = lineups.map(|l| {
        l.into_iter()
            .map(|l| l.into_iter().map(|Int(b)| b).collect())
            .collect()
    });
    let seed = seed.map(extract_seed).transpose()?.unwrap_or(0);
    Batch::new(rules, specs, lineups.as_deref(), seed, deal).map_err(batch_error)
}

/// The games `start..start + games` and the thread count, checked by the core.
pub(crate) fn game_range(
    games: Int,
    start: Int,
    threads: Int,
) -> PyResult<(std::ops::Range<u64>, usize)> {
    Batch::games(start.0, games.0, threads.0).map_err(batch_error)
}

/// Plays `games` complete games inside Rust on `threads` threads (0: every core), the GIL
/// released, and returns the results as numpy arrays. Game `start + i` uses seating
/// `lineups[(start + i) % len(lineups)]` (a bot index per seat; default: `bots` in seat
/// order) and a seed that depends only on `seed` and its index. `progress(done, total)` is
/// called about every `interval` seconds and at the end; an exception in it, or Ctrl-C,
/// stops the batch. `deal` shuffles piles as `Game(rules, seed=...)` does ("python") or
/// 25 times faster with PCG ("pcg": for batches of fast bots such as "playout").
/// `game="queens-garden"` plays Queen's Garden (rules: `indigo.queens_garden.Rules`; each
/// game is `queens_garden.Game(rules, seed=game_seeds[i])`; `placements` counts its moves).
#[pyfunction]
#[pyo3(
    signature = (bots, games, *, rules=None, seed=None, lineups=None, start=Int(0), threads=Int(0), progress=None, interval=Real(0.2), deal="python", game="indigo"),
    text_signature = "(bots, games, *, rules=None, seed=None, lineups=None, start=0, threads=0, progress=None, interval=0.2, deal='python', game='indigo')"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn simulate(
    py: Python<'_>,
    bots: Vec<String>,
    games: Int,
    rules: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    lineups: Option<Vec<Vec<Int>>>,
    start: Int,
    threads: Int,
    progress: Option<&Bound<'_, PyAny>>,
    interval: Real,
    deal: &str,
    game: &str,
) -> PyResult<Simulation> {
    match game {
        "indigo" => {}
        "queens-garden" => {
            if deal != "python" {
                return Err(IndigoError::new_err(format!(
                    "deal={deal:?} is for Indigo's piles; a Queen's Garden game is set up \
                     from its seed only"
                )));
            }
            return crate::qg_search::simulate(
                py, bots, games, rules, seed, lineups, start, threads, progress, interval,
            );
        }
        other => return Err(unknown_game(other)),
    }
    let rules = rules
        .map(|r| {
            r.extract::<Rules>().map_err(|_| {
                IndigoError::new_err(
                    "rules must be indigo.Rules (for Queen's Garden pass game=\"queens-garden\")",
                )
            })
        })
        .transpose()?;
    let batch = batch_of(&bots, rules, seed, lineups, deal)?;
    let (range, threads) = game_range(games, start, threads)?;
    let outcomes = run_batch(py, range.clone(), progress, interval, |done, cancel| {
        batch.run(range.clone(), threads, done, cancel)
    })?;
    let (n, players, start) = (
        outcomes.len(),
        usize::from(batch.rules().players()),
        range.start,
    );
    let seat_of = |i: usize, s: usize| batch.lineup(start + i as u64)[s] as i32;
    Ok(Simulation {
        bots,
        scores: table(py, n, players, |i, s| i32::from(outcomes[i].scores[s]))?,
        winners: table(py, n, players, |i, s| outcomes[i].winners & (1 << s) != 0)?,
        placements: PyArray1::from_iter(py, outcomes.iter().map(|o| i32::from(o.placements)))
            .unbind(),
        seats: table(py, n, players, seat_of)?,
        game_seeds: PyArray1::from_iter(py, range.map(|g| batch.game_seed(g))).unbind(),
        deal: batch.deal(),
        seed: batch.seed(),
        checksum: GamesSummary::of(&outcomes).checksum,
        start,
        games: n,
        game: "indigo",
    })
}

/// Self-play games: each game's record and one training sample per move, as numpy columns.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct SelfPlayBatch {
    /// Each game's `indigo-record/1` record as one line of JSON, in game order.
    #[pyo3(get)]
    records: Vec<String>,
    /// A fingerprint of every game's outcome in order, as `Simulation.checksum`.
    #[pyo3(get)]
    checksum: u64,
    /// How many samples (moves) the games hold.
    #[pyo3(get)]
    samples: usize,
    /// Each sample's game index (uint64).
    #[pyo3(get)]
    game: Py<PyArray1<u64>>,
    /// Each sample's move number in its game, from 0 (uint16).
    #[pyo3(get)]
    ply: Py<PyArray1<u16>>,
    /// The mover (uint8).
    #[pyo3(get)]
    seat: Py<PyArray1<u8>>,
    /// The mover's observation (float32, samples x OBSERVATION_SIZE).
    #[pyo3(get)]
    observation: Py<PyArray2<f32>>,
    /// The legal actions (bool, samples x ACTION_COUNT).
    #[pyo3(get)]
    legal_mask: Py<PyArray2<bool>>,
    /// The action played (uint16).
    #[pyo3(get)]
    action: Py<PyArray1<u16>>,
    /// Whether the mover searched, so that the sample has root visits (bool).
    #[pyo3(get)]
    searched: Py<PyArray1<bool>>,
    /// Sample `i`'s visits are `visit_actions[visit_offsets[i]:visit_offsets[i + 1]]`, and
    /// `visit_counts` alike (int32, samples + 1).
    #[pyo3(get)]
    visit_offsets: Py<PyArray1<i32>>,
    /// Visited actions, ascending within a sample (uint16).
    #[pyo3(get)]
    visit_actions: Py<PyArray1<u16>>,
    /// Root visits of each visited action (uint32).
    #[pyo3(get)]
    visit_counts: Py<PyArray1<u32>>,
    /// The mover's final result, the winners sharing 1 (float32).
    #[pyo3(get)]
    outcome: Py<PyArray1<f32>>,
    /// The mover's final points (uint16).
    #[pyo3(get)]
    points: Py<PyArray1<u16>>,
}

#[pymethods]
impl SelfPlayBatch {
    fn __len__(&self) -> usize {
        self.records.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<SelfPlayBatch games={} samples={}>",
            self.records.len(),
            self.samples
        )
    }
}

impl SelfPlayBatch {
    /// The records and samples of `played`, in order.
    pub(crate) fn of_games(
        py: Python<'_>,
        played: &[indigo_core::SelfPlayGame],
    ) -> PyResult<SelfPlayBatch> {
        let outcomes: Vec<Outcome> = played.iter().map(|g| g.outcome).collect();
        let records = played.iter().map(|g| g.record.to_string()).collect();
        let samples = Samples::concat(&played.iter().map(|g| &g.samples).collect::<Vec<_>>());
        let rows = samples.len();
        Ok(SelfPlayBatch {
            records,
            checksum: GamesSummary::of(&outcomes).checksum,
            samples: rows,
            game: PyArray1::from_vec(py, samples.game).unbind(),
            ply: PyArray1::from_vec(py, samples.ply).unbind(),
            seat: PyArray1::from_vec(py, samples.seat).unbind(),
            observation: PyArray1::from_vec(py, samples.observations)
                .reshape([rows, OBSERVATION_SIZE])?
                .unbind(),
            legal_mask: PyArray1::from_vec(py, samples.legal.masks)
                .reshape([rows, ACTION_COUNT])?
                .unbind(),
            action: PyArray1::from_vec(py, samples.action).unbind(),
            searched: PyArray1::from_vec(py, samples.searched).unbind(),
            visit_offsets: PyArray1::from_iter(py, samples.visit_offsets.iter().map(|&o| o as i32))
                .unbind(),
            visit_actions: PyArray1::from_vec(py, samples.visit_actions).unbind(),
            visit_counts: PyArray1::from_vec(py, samples.visit_counts).unbind(),
            outcome: PyArray1::from_vec(py, samples.outcome).unbind(),
            points: PyArray1::from_vec(py, samples.points).unbind(),
        })
    }
}

/// Plays games as :func:`simulate` does (game `i` is the same game) and keeps each game's
/// record and a training sample per move. The Python deal is used, so records' seeds deal
/// their piles.
#[pyfunction]
#[pyo3(
    signature = (bots, games, *, rules=None, seed=None, lineups=None, start=Int(0), threads=Int(0), progress=None, interval=Real(0.2)),
    text_signature = "(bots, games, *, rules=None, seed=None, lineups=None, start=0, threads=0, progress=None, interval=0.2)"
)]
#[allow(clippy::too_many_arguments, clippy::needless_pass_by_value)] // pyo3 extracts a Vec
pub(crate) fn self_play(
    py: Python<'_>,
    bots: Vec<String>,
    games: Int,
    rules: Option<Rules>,
    seed: Option<&Bound<'_, PyAny>>,
    lineups: Option<Vec<Vec<Int>>>,
    start: Int,
    threads: Int,
    progress: Option<&Bound<'_, PyAny>>,
    interval: Real,
) -> PyResult<SelfPlayBatch> {
    let batch = batch_of(&bots, rules, seed, lineups, Deal::Python.as_str())?;
    let (range, threads) = game_range(games, start, threads)?;
    let played = run_batch(py, range.clone(), progress, interval, |done, cancel| {
        batch.self_play(range.clone(), threads, done, cancel)
    })?;
    SelfPlayBatch::of_games(py, &played)
}

/// Runs `work(done, cancel)` on a worker thread while this one reports progress on `games`
/// and watches for Ctrl-C.
pub(crate) fn run_batch<T: Send>(
    py: Python<'_>,
    games: std::ops::Range<u64>,
    progress: Option<&Bound<'_, PyAny>>,
    interval: Real,
    work: impl FnOnce(&AtomicU64, &AtomicBool) -> Option<T> + Send,
) -> PyResult<T> {
    let interval = Duration::from_secs_f64(positive("interval", interval)?.min(3600.0));
    let total = games.end - games.start;
    let done = AtomicU64::new(0);
    let cancel = AtomicBool::new(false);
    // The worker says when it is done, so a short batch returns at once, not at a tick.
    let finished = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let result = work(&done, &cancel);
            *finished.0.lock().unwrap_or_else(PoisonError::into_inner) = true;
            finished.1.notify_all();
            result
        });
        let mut failure = None;
        loop {
            let flagged = py.detach(|| {
                let flag = finished.0.lock().unwrap_or_else(PoisonError::into_inner);
                let (flag, _) = finished
                    .1
                    .wait_timeout_while(flag, interval, |done| !*done)
                    .unwrap_or_else(PoisonError::into_inner);
                *flag
            });
            // A worker that panicked never sets the flag, but it has finished.
            let finished = flagged || worker.is_finished();
            let reported = match progress {
                Some(callback) => callback
                    .call1((done.load(Ordering::Relaxed), total))
                    .map(drop),
                None => Ok(()),
            };
            if let Err(e) = reported.and_then(|()| py.check_signals()) {
                cancel.store(true, Ordering::Relaxed);
                failure = Some(e);
            }
            if finished || failure.is_some() {
                break;
            }
        }
        let result = py.detach(|| worker.join());
        match (failure, result) {
            (Some(e), _) => Err(e),
            (None, Ok(Some(result))) => Ok(result),
            (None, Ok(None)) => Err(IndigoError::new_err("the batch was cancelled")),
            (None, Err(_)) => Err(pyo3::exceptions::PyRuntimeError::new_err(
                "a simulation thread failed; please report this as a bug",
            )),
        }
    })
}

/// Adds this module's classes and functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<IsmctsBot>()?;
    m.add_class::<SearchResult>()?;
    m.add_class::<Simulation>()?;
    m.add_function(wrap_pyfunction!(make_bot, m)?)?;
    m.add_function(wrap_pyfunction!(normalize_bot_spec, m)?)?;
    m.add_function(wrap_pyfunction!(seat_seed, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_class::<SelfPlayBatch>()?;
    m.add_function(wrap_pyfunction!(self_play, m)?)?;
    m.add("ACTION_COUNT", ACTION_COUNT)?;
    let py = m.py();
    m.add("OBSERVATION_SIZE", indigo_core::OBSERVATION_SIZE)?;
    let layout = PyDict::new(py);
    for (name, offset, shape) in indigo_core::OBSERVATION_LAYOUT {
        layout.set_item(name, (offset, shape.to_vec()))?;
    }
    m.add("OBSERVATION_LAYOUT", layout)?;
    Ok(())
}
