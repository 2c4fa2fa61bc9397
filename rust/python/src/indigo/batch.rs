//! Indigo's batches: `simulate` and `self_play`.

use indigo_game::{ACTION_COUNT, Deal, IndigoSetup, Position, self_play_record};
use indigo_search::SelfPlayOf;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;

use crate::batch::{SelfPlayColumns, Simulation, batch_of, self_play_games, simulation};
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

/// Indigo's self-play games: the columns every game's batch has, and the legal actions as
/// masks.
#[pyclass(module = "indigo", extends = SelfPlayColumns, frozen)]
pub(crate) struct SelfPlayBatch {
    /// The legal actions (bool, samples x ACTION_COUNT).
    #[pyo3(get)]
    legal_mask: Py<PyArray2<bool>>,
}

impl SelfPlayBatch {
    /// The samples of `played`, in order, with `records` (each game's record).
    pub(crate) fn of_games(
        py: Python<'_>,
        played: &[SelfPlayOf<Position>],
        records: Vec<String>,
    ) -> PyResult<Py<SelfPlayBatch>> {
        let (columns, legal) = SelfPlayColumns::of_games::<Position>(py, played, records)?;
        let rows = legal.masks.len() / ACTION_COUNT;
        let legal_mask = PyArray1::from_vec(py, legal.masks)
            .reshape([rows, ACTION_COUNT])?
            .unbind();
        Py::new(
            py,
            PyClassInitializer::from(columns).add_subclass(SelfPlayBatch { legal_mask }),
        )
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
) -> PyResult<Py<SelfPlayBatch>> {
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
