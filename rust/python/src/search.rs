//! The search-facing part of the binding: the ISMCTS bot, bot specs and batch simulation.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

use indigo_core::bench::GamesSummary;
use indigo_core::simulate::game_seed;
use indigo_core::{ACTION_COUNT, Batch, BotSpec, Budget, Deal, Ismcts, IsmctsConfig, Outcome};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::{
    Game, GreedyBot, IllegalMoveError, IndigoError, Int, Move, PlayoutBot, RandomBot, Rules,
    extract_seed, os_seed,
};

/// Information-set MCTS: determinized simulations from what the mover knows.
/// Threads sharing one bot take turns on its lock, which is taken without the GIL.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct IsmctsBot(Mutex<Ismcts>);

/// `value` if `low <= value <= high`, else an error naming the range.
pub(crate) fn in_range(name: &str, Int(value): Int, low: u64, high: u64) -> PyResult<u64> {
    u64::try_from(value)
        .ok()
        .filter(|v| (low..=high).contains(v))
        .ok_or_else(|| {
            let high = if high >= 1 << 32 && high.is_power_of_two() {
                format!("2**{}", high.trailing_zeros())
            } else {
                high.to_string()
            };
            IndigoError::new_err(format!("{name} must be {low} to {high}, not {value}"))
        })
}

fn positive(name: &str, value: f64) -> PyResult<f64> {
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

#[pymethods]
impl SearchResult {
    /// Root visits as a float32 distribution over all actions (sums to 1).
    fn policy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let total = self
            .visits
            .values()
            .map(|&v| f64::from(v))
            .sum::<f64>()
            .max(1.0);
        let mut out = vec![0f32; ACTION_COUNT];
        for (&a, &v) in &self.visits {
            out[a] = (f64::from(v) / total) as f32;
        }
        PyArray1::from_vec(py, out)
    }

    fn __repr__(&self) -> String {
        format!(
            "<SearchResult best={} simulations={} value={:.3}>",
            self.best.0, self.simulations, self.value
        )
    }
}

impl IsmctsBot {
    fn run(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<indigo_core::SearchResult> {
        // A copy, so the game is not borrowed while the search runs without the GIL.
        let position = *game.borrow().0.position();
        let Some(seat) = position.to_move() else {
            return Err(IllegalMoveError::new_err(
                "no seat is to move (the game is over or a draw is waiting): nothing to search",
            ));
        };
        let info = position.information(seat);
        py.detach(|| {
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .search(&info)
        })
        .ok_or_else(|| IllegalMoveError::new_err("no seat is to move"))
    }
}

#[pymethods]
impl IsmctsBot {
    #[new]
    #[pyo3(
        signature = (simulations=None, *, time=None, exploration=0.7, threads=Int(1), seed=None),
        text_signature = "(simulations=None, *, time=None, exploration=0.7, threads=1, seed=None)"
    )]
    fn new(
        simulations: Option<Int>,
        time: Option<f64>,
        exploration: f64,
        threads: Int,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let budget = match (simulations, time) {
            (Some(_), Some(_)) => {
                return Err(IndigoError::new_err("give simulations or time, not both"));
            }
            (Some(Int(n)), None) => {
                Budget::Simulations(u64::try_from(n).ok().filter(|&n| n > 0).ok_or_else(|| {
                    IndigoError::new_err(format!("simulations must be at least 1, not {n}"))
                })?)
            }
            (None, Some(t)) => Budget::Time(Duration::from_secs_f64(positive("time", t)?.min(1e6))),
            (None, None) => Budget::Simulations(indigo_core::simulate::DEFAULT_SIMULATIONS),
        };
        if !(exploration.is_finite() && exploration >= 0.0) {
            return Err(IndigoError::new_err(format!(
                "exploration must be a number >= 0, not {exploration}"
            )));
        }
        let threads = in_range("threads", threads, 1, 1024)? as usize;
        let config = IsmctsConfig {
            budget,
            exploration: exploration as f32,
            threads,
        };
        let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
        Ok(IsmctsBot(Mutex::new(Ismcts::new(config, seed))))
    }

    /// The spec that names this bot's settings, e.g. `"ismcts:1000"`.
    #[getter]
    fn spec(&self) -> String {
        let config = *self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .config();
        BotSpec::Ismcts(config).to_string()
    }

    /// The move for the seat to move, from what that seat knows (GIL released).
    fn choose(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<Move> {
        self.run(py, game).map(|r| Move(r.best))
    }

    /// The whole search result: best move, root visits per action, simulations, value.
    fn search(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<SearchResult> {
        let r = self.run(py, game)?;
        Ok(SearchResult {
            best: Move(r.best),
            visits: r.visits.iter().map(|&(a, v)| (a.index(), v)).collect(),
            simulations: r.simulations,
            value: r.value,
        })
    }

    fn __repr__(&self) -> String {
        format!("<IsmctsBot {}>", self.spec())
    }
}

fn parse_spec(spec: &str) -> PyResult<BotSpec> {
    spec.parse()
        .map_err(|e: indigo_core::simulate::BotSpecError| IndigoError::new_err(e.to_string()))
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
        BotSpec::Ismcts(config) => {
            Py::new(py, IsmctsBot(Mutex::new(Ismcts::new(config, seed))))?.into_any()
        }
    })
}

/// The canonical text of a bot spec (`"ismcts"` becomes `"ismcts:1000"`).
#[pyfunction]
pub(crate) fn normalize_bot_spec(spec: &str) -> PyResult<String> {
    parse_spec(spec).map(|s| s.to_string())
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

/// The seatings of a batch: given ones checked, or the default for `bots` bots.
fn parse_lineups(
    lineups: Option<Vec<Vec<Int>>>,
    bots: usize,
    players: usize,
) -> PyResult<Vec<Vec<usize>>> {
    Ok(match lineups {
        Some(lineups) => lineups
            .iter()
            .map(|lineup| {
                if lineup.len() != players {
                    return Err(IndigoError::new_err(format!(
                        "each lineup needs one bot index per seat ({players}), not {}",
                        lineup.len()
                    )));
                }
                lineup
                    .iter()
                    .map(|&Int(b)| {
                        usize::try_from(b)
                            .ok()
                            .filter(|&b| b < bots)
                            .ok_or_else(|| {
                                IndigoError::new_err(format!(
                                    "lineup bot index {b} is not 0..{}",
                                    bots - 1
                                ))
                            })
                    })
                    .collect()
            })
            .collect::<PyResult<_>>()?,
        None if bots == players => vec![(0..players).collect()],
        None if bots == 1 => vec![vec![0; players]],
        None => {
            return Err(IndigoError::new_err(format!(
                "give one bot per seat ({players}), one bot for all seats, or lineups"
            )));
        }
    })
}

/// Plays `games` complete games inside Rust on `threads` threads (0: every core), the GIL
/// released, and returns the results as numpy arrays. Game `start + i` uses seating
/// `lineups[(start + i) % len(lineups)]` (a bot index per seat; default: `bots` in seat
/// order) and a seed that depends only on `seed` and its index. `progress(done, total)` is
/// called about every `interval` seconds and at the end; an exception in it, or Ctrl-C,
/// stops the batch. `deal` shuffles piles as `Game(rules, seed=...)` does ("python") or
/// 25 times faster with PCG ("pcg": for batches of fast bots such as "playout").
#[pyfunction]
#[pyo3(
    signature = (bots, games, *, rules=None, seed=None, lineups=None, start=Int(0), threads=Int(0), progress=None, interval=0.2, deal="python"),
    text_signature = "(bots, games, *, rules=None, seed=None, lineups=None, start=0, threads=0, progress=None, interval=0.2, deal='python')"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn simulate(
    py: Python<'_>,
    bots: Vec<String>,
    games: Int,
    rules: Option<Rules>,
    seed: Option<&Bound<'_, PyAny>>,
    lineups: Option<Vec<Vec<Int>>>,
    start: Int,
    threads: Int,
    progress: Option<&Bound<'_, PyAny>>,
    interval: f64,
    deal: &str,
) -> PyResult<Simulation> {
    let deal: Deal = deal.parse().map_err(IndigoError::new_err)?;
    let rules = match rules {
        Some(r) => r.0,
        None => indigo_core::Rules::indigo(2).unwrap_or_else(|_| unreachable!()),
    };
    let players = usize::from(rules.players());
    let specs = bots
        .iter()
        .map(|s| parse_spec(s))
        .collect::<PyResult<Vec<_>>>()?;
    if specs.is_empty() {
        return Err(IndigoError::new_err("give at least one bot"));
    }
    let lineups = parse_lineups(lineups, specs.len(), players)?;
    if lineups.is_empty() {
        return Err(IndigoError::new_err("lineups must not be empty"));
    }
    let games = in_range("games", games, 0, 1 << 32)?;
    let start = in_range("start", start, 0, 1 << 62)?;
    let threads = in_range("threads", threads, 0, 1024)? as usize;
    let interval = Duration::from_secs_f64(positive("interval", interval)?.min(3600.0));
    let batch = Batch {
        rules,
        bots: specs,
        lineups,
        seed: seed.map(extract_seed).transpose()?.unwrap_or(0),
        deal,
    };
    let outcomes = run_batch(
        py,
        &batch,
        start..start + games,
        threads,
        progress,
        interval,
    )?;
    let n = outcomes.len();
    let seat_of = |i: usize, s: usize| {
        batch.lineups[((start + i as u64) % batch.lineups.len() as u64) as usize][s] as i32
    };
    Ok(Simulation {
        bots,
        scores: table(py, n, players, |i, s| i32::from(outcomes[i].scores[s]))?,
        winners: table(py, n, players, |i, s| outcomes[i].winners & (1 << s) != 0)?,
        placements: PyArray1::from_iter(py, outcomes.iter().map(|o| i32::from(o.placements)))
            .unbind(),
        seats: table(py, n, players, seat_of)?,
        game_seeds: PyArray1::from_iter(
            py,
            (start..start + games).map(|g| game_seed(batch.seed, g)),
        )
        .unbind(),
        deal,
        seed: batch.seed,
        checksum: GamesSummary::of(&outcomes).checksum,
        start,
        games: n,
    })
}

/// Runs the batch on a worker thread while this one reports progress and watches for Ctrl-C.
fn run_batch(
    py: Python<'_>,
    batch: &Batch,
    games: std::ops::Range<u64>,
    threads: usize,
    progress: Option<&Bound<'_, PyAny>>,
    interval: Duration,
) -> PyResult<Vec<Outcome>> {
    let total = games.end - games.start;
    let done = AtomicU64::new(0);
    let cancel = AtomicBool::new(false);
    // The worker says when it is done, so a short batch returns at once, not at a tick.
    let finished = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let outcomes = batch.run(games, threads, &done, &cancel);
            *finished.0.lock().unwrap_or_else(PoisonError::into_inner) = true;
            finished.1.notify_all();
            outcomes
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
            (None, Ok(Some(outcomes))) => Ok(outcomes),
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
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add("ACTION_COUNT", ACTION_COUNT)?;
    let py = m.py();
    m.add("OBSERVATION_SIZE", indigo_core::position::OBSERVATION_SIZE)?;
    let layout = PyDict::new(py);
    for (name, offset, shape) in indigo_core::position::OBSERVATION_LAYOUT {
        layout.set_item(name, (offset, shape.to_vec()))?;
    }
    m.add("OBSERVATION_LAYOUT", layout)?;
    Ok(())
}
