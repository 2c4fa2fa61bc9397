//! Indigo's batches: `simulate` and `self_play`.

use indigo_game::{
    ACTION_COUNT, Deal, IndigoSetup, OBSERVATION_SIZE, Position, Samples, self_play_record,
};
use indigo_search::SelfPlayOf;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

use crate::batch::{Simulation, batch_of, self_play_games, simulation};
use crate::convert::{Int, Real};
use crate::errors::IndigoError;
use crate::indigo::rules::Rules;

/// Indigo's set-up of a batch: the rules (default: the crate's) and how piles are shuffled.
fn setup_of(rules: Option<Rules>, deal: &str) -> PyResult<IndigoSetup> {
    let deal: Deal = deal.parse().map_err(IndigoError::new_err)?;
    let rules = rules.map_or_else(indigo_game::Rules::default, |r| r.0);
    Ok(IndigoSetup { rules, deal })
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
    signature = (bots, games, *, rules=None, seed=None, lineups=None, start=Int::new(0), threads=Int::new(0), progress=None, interval=Real::new(0.2), deal="python"),
    text_signature = "(bots, games, *, rules=None, seed=None, lineups=None, start=0, threads=0, progress=None, interval=0.2, deal='python')"
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
) -> PyResult<Simulation> {
    let rules = rules
        .map(|r| {
            r.extract::<Rules>().map_err(|_| {
                IndigoError::new_err(format!(
                    "rules must be indigo.Rules, not {}",
                    r.get_type()
                        .name()
                        .map_or_else(|_| "that".into(), |n| n.to_string())
                ))
            })
        })
        .transpose()?;
    let setup = setup_of(rules, deal)?;
    let (batch, range, threads) = batch_of(setup, &bots, seed, lineups, games, start, threads)?;
    simulation(
        py,
        &batch,
        bots,
        range,
        threads,
        progress,
        interval,
        Some(setup.deal),
    )
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
    /// The samples of `played`, in order, with `records` (each game's record).
    pub(crate) fn of_games(
        py: Python<'_>,
        played: &[SelfPlayOf<Position>],
        records: Vec<String>,
    ) -> PyResult<SelfPlayBatch> {
        let checksum = played.iter().fold(0, |c, g| g.outcome.fold_into(c));
        let samples = Samples::concat(&played.iter().map(|g| &g.samples).collect::<Vec<_>>());
        let rows = samples.len();
        Ok(SelfPlayBatch {
            records,
            checksum,
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
    signature = (bots, games, *, rules=None, seed=None, lineups=None, start=Int::new(0), threads=Int::new(0), progress=None, interval=Real::new(0.2)),
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
    let setup = setup_of(rules, Deal::Python.as_str())?;
    let (batch, range, threads) = batch_of(setup, &bots, seed, lineups, games, start, threads)?;
    let (played, records) = self_play_games(
        py,
        &batch,
        range,
        threads,
        progress,
        interval,
        |game, seats, index| self_play_record(setup.rules, game, seats, index).to_string(),
    )?;
    SelfPlayBatch::of_games(py, &played, records)
}
