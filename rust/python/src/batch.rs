//! What every game's batches share: the results class (`Simulation`), the batch and range of
//! games from Python's arguments, the worker that plays them while the calling thread reports
//! progress and answers Ctrl-C, and `simulate`'s and `self_play`'s games over any game's
//! `Setup`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

use indigo_game::Deal;
use indigo_search::{
    Batch, BotSpec, Encoded, Game, LegalRows, Samples, SelfPlayOf, Setup, game_seed,
};
use numpy::{Element, PyArray1, PyArray2, PyArrayMethods, PyUntypedArray};
use pyo3::prelude::*;

use crate::convert::{Int, Real, extract_seed, in_range, parse_spec, refused};
use crate::errors::{IndigoError, batch_error};

/// Results of a batch, one row per game.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct Simulation {
    /// The bot specs, as given.
    #[pyo3(get)]
    pub(crate) bots: Vec<String>,
    /// Points per game and seat (int32, games x players).
    #[pyo3(get)]
    pub(crate) scores: Py<PyArray2<i32>>,
    /// Whether each seat won each game (bool, games x players); shared wins mark several.
    #[pyo3(get)]
    pub(crate) winners: Py<PyArray2<bool>>,
    /// Tiles placed per game (int32).
    #[pyo3(get)]
    pub(crate) placements: Py<PyArray1<i32>>,
    /// Which bot sat in each seat (int32 index into `bots`, games x players).
    #[pyo3(get)]
    pub(crate) seats: Py<PyArray2<i32>>,
    /// Each game's seed: with deal "python" it shuffled the pile as `Game(rules, seed=...)`
    /// does; `pile(i)` gives game i's pile with either deal.
    #[pyo3(get)]
    pub(crate) game_seeds: Py<PyArray1<u64>>,
    /// How piles were shuffled from game seeds; `None` for a game without a pile.
    pub(crate) deal: Option<Deal>,
    /// The batch seed.
    pub(crate) seed: u64,
    /// A fingerprint of every game's outcome in order: equal runs give equal checksums.
    #[pyo3(get)]
    pub(crate) checksum: u64,
    /// Index of the first game.
    #[pyo3(get)]
    pub(crate) start: u64,
    pub(crate) games: usize,
    /// The game played: its crate's name, as its registry entry names it.
    #[pyo3(get)]
    pub(crate) game: &'static str,
}

#[pymethods]
impl Simulation {
    fn __len__(&self) -> usize {
        self.games
    }

    fn __repr__(&self) -> String {
        format!("<Simulation games={} bots={:?}>", self.games, self.bots)
    }

    /// How piles were shuffled from game seeds: "python" or "pcg"; `None` for a game without
    /// a pile, whose games are set up from their seeds alone.
    #[getter]
    fn deal(&self) -> Option<&'static str> {
        self.deal.map(Deal::as_str)
    }

    /// Game `index`'s pile (tile types, front first): `Game(rules, pile=...)` deals it.
    fn pile(&self, index: Int) -> PyResult<Vec<u32>> {
        let Some(deal) = self.deal else {
            return Err(IndigoError::new_err(format!(
                "this game ({}) has no pile: its Game(rules, seed=simulation.game_seeds[i]) \
                 sets game i up",
                self.game
            )));
        };
        let last = self.games.checked_sub(1).ok_or_else(|| {
            IndigoError::new_err("this simulation holds no games: there is no pile")
        })?;
        let i = in_range("index", index, 0, last as u64)? as usize;
        Ok(deal
            .pile(game_seed(self.seed, self.start + i as u64))
            .map(|t| u32::from(t.index()))
            .to_vec())
    }
}

pub(crate) fn table<T: numpy::Element + Copy>(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    cell: impl Fn(usize, usize) -> T,
) -> PyResult<Py<PyArray2<T>>> {
    let flat: Vec<T> = (0..rows * cols).map(|i| cell(i / cols, i % cols)).collect();
    Ok(PyArray1::from_vec(py, flat).reshape([rows, cols])?.unbind())
}

/// The games `start..start + games` and the thread count, checked by the search crate.
pub(crate) fn game_range(
    games: Int,
    start: Int,
    threads: Int,
) -> PyResult<(std::ops::Range<u64>, usize)> {
    indigo_search::batch_games(start.0, games.0, threads.0)
        .map_err(|e| IndigoError::new_err(refused(&e.0, &[&games, &start, &threads])))
}

/// The batch of `setup`'s games between `bots` (specs) that `lineups` and `seed` describe, and
/// the games `start..start + games` and the thread count, all checked by the search crate.
#[allow(clippy::needless_pass_by_value)] // pyo3 extracts a Vec
pub(crate) fn batch_of<S: Setup>(
    setup: S,
    bots: &[String],
    seed: Option<&Bound<'_, PyAny>>,
    lineups: Option<Vec<Vec<Int>>>,
    games: Int,
    start: Int,
    threads: Int,
) -> PyResult<(Batch<S>, std::ops::Range<u64>, usize)> {
    let specs = bots
        .iter()
        .map(|s| parse_spec(s))
        .collect::<PyResult<Vec<_>>>()?;
    let lineups: Option<Vec<Vec<i64>>> = lineups.map(|l| {
        l.into_iter()
            .map(|l| l.into_iter().map(|Int(b, _)| b).collect())
            .collect()
    });
    let seed = seed.map(extract_seed).transpose()?.unwrap_or(0);
    let batch = Batch::new(setup, specs, lineups.as_deref(), seed).map_err(batch_error)?;
    let (range, threads) = game_range(games, start, threads)?;
    Ok((batch, range, threads))
}

/// Plays games `range` of `batch` on `threads` threads (`simulate`): the results, named by the
/// game's crate, whose piles `deal` shuffled (`None`: a game without a pile).
#[allow(clippy::too_many_arguments)]
pub(crate) fn simulation<S: Setup + Sync>(
    py: Python<'_>,
    batch: &Batch<S>,
    bots: Vec<String>,
    range: std::ops::Range<u64>,
    threads: usize,
    progress: Option<&Bound<'_, PyAny>>,
    interval: Real,
    deal: Option<Deal>,
) -> PyResult<Simulation>
where
    S::Game: Sync,
{
    let outcomes = run_batch(py, range.clone(), progress, interval, |done, cancel| {
        batch.run(range.clone(), threads, done, cancel)
    })?;
    let (n, players, start) = (outcomes.len(), batch.setup().players(), range.start);
    let seat_of = |i: usize, s: usize| batch.lineup(start + i as u64)[s] as i32;
    Ok(Simulation {
        bots,
        scores: table(py, n, players, |i, s| outcomes[i].scores[s])?,
        winners: table(py, n, players, |i, s| outcomes[i].winners & (1 << s) != 0)?,
        placements: PyArray1::from_iter(py, outcomes.iter().map(|o| o.moves as i32)).unbind(),
        seats: table(py, n, players, seat_of)?,
        game_seeds: PyArray1::from_iter(py, range.map(|g| game_seed(batch.seed(), g))).unbind(),
        deal,
        seed: batch.seed(),
        checksum: outcomes.iter().fold(0, |c, o| o.fold_into(c)),
        start,
        games: n,
        game: <S::Game as Game>::NAME,
    })
}

/// What every game's self-play batch holds: each game's record and one training sample per
/// move as numpy columns (row `i` of every column is sample `i`). Each game's `SelfPlayBatch`
/// extends it with the legal actions as its game keeps them (`LegalRows`).
#[pyclass(module = "indigo", subclass, frozen)]
pub(crate) struct SelfPlayColumns {
    /// Each game's record as one line of JSON, in game order.
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
    /// The action played (the game's action numbers).
    #[pyo3(get)]
    action: Py<PyUntypedArray>,
    /// Whether the mover searched, so that the sample has root visits (bool).
    #[pyo3(get)]
    searched: Py<PyArray1<bool>>,
    /// Sample `i`'s visits are `visit_actions[visit_offsets[i]:visit_offsets[i + 1]]`, and
    /// `visit_counts` alike (int64, samples + 1).
    #[pyo3(get)]
    visit_offsets: Py<PyArray1<i64>>,
    /// Visited actions, ascending within a sample (as `action`).
    #[pyo3(get)]
    visit_actions: Py<PyUntypedArray>,
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
impl SelfPlayColumns {
    fn __len__(&self) -> usize {
        self.records.len()
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let columns = slf.get();
        Ok(format!(
            "<{} games={} samples={}>",
            slf.get_type().name()?,
            columns.records.len(),
            columns.samples
        ))
    }
}

impl SelfPlayColumns {
    /// The shared columns of `played`'s samples, in order, with `records` (each game's record),
    /// and the samples' legal actions, which the game's class adds.
    pub(crate) fn of_games<G: Encoded>(
        py: Python<'_>,
        played: &[SelfPlayOf<G>],
        records: Vec<String>,
    ) -> PyResult<(SelfPlayColumns, G::Legal)>
    where
        <G::Legal as LegalRows>::Number: Element,
    {
        let checksum = played.iter().fold(0, |c, g| g.outcome.fold_into(c));
        let samples = Samples::concat(&played.iter().map(|g| &g.samples).collect::<Vec<_>>());
        let rows = samples.len();
        let columns = SelfPlayColumns {
            records,
            checksum,
            samples: rows,
            game: PyArray1::from_vec(py, samples.game).unbind(),
            ply: PyArray1::from_vec(py, samples.ply).unbind(),
            seat: PyArray1::from_vec(py, samples.seat).unbind(),
            observation: PyArray1::from_vec(py, samples.observations)
                .reshape([rows, G::OBSERVATION_SIZE])?
                .unbind(),
            action: PyArray1::from_vec(py, samples.action)
                .as_untyped()
                .clone()
                .unbind(),
            searched: PyArray1::from_vec(py, samples.searched).unbind(),
            visit_offsets: offsets(py, &samples.visit_offsets),
            visit_actions: PyArray1::from_vec(py, samples.visit_actions)
                .as_untyped()
                .clone()
                .unbind(),
            visit_counts: PyArray1::from_vec(py, samples.visit_counts).unbind(),
            outcome: PyArray1::from_vec(py, samples.outcome).unbind(),
            points: PyArray1::from_vec(py, samples.points).unbind(),
        };
        Ok((columns, samples.legal))
    }
}

/// Row offsets as numpy's index type (int64).
pub(crate) fn offsets(py: Python<'_>, offsets: &[u32]) -> Py<PyArray1<i64>> {
    PyArray1::from_iter(py, offsets.iter().map(|&o| i64::from(o))).unbind()
}

/// Self-play games, and each one's record.
pub(crate) type Played<G> = (Vec<SelfPlayOf<G>>, Vec<String>);

/// Plays games `range` of `batch` on `threads` threads keeping their actions and samples
/// (`self_play`): the games, and each game's record as `record(game, seats, index)` writes it.
pub(crate) fn self_play_games<S: Setup + Sync>(
    py: Python<'_>,
    batch: &Batch<S>,
    range: std::ops::Range<u64>,
    threads: usize,
    progress: Option<&Bound<'_, PyAny>>,
    interval: Real,
    record: impl Fn(&SelfPlayOf<S::Game>, &[BotSpec], u64) -> String,
) -> PyResult<Played<S::Game>>
where
    S::Game: Encoded + Sync,
{
    let played = run_batch(py, range.clone(), progress, interval, |done, cancel| {
        batch.self_play(range.clone(), threads, done, cancel)
    })?;
    let records = range
        .zip(&played)
        .map(|(index, game)| record(game, &batch.seats(index), index))
        .collect();
    Ok((played, records))
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
    let interval = indigo_search::progress_interval(interval.0)
        .map_err(|e| IndigoError::new_err(refused(&e.0, &[&interval])))?;
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
