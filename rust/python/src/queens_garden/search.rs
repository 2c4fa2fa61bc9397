//! Queen's Garden's bots by spec and its batches (`simulate(..., game="queens-garden")`,
//! `self_play`).

use ::queens_garden::{Position, Rules as CoreRules, self_play_record};
use indigo_search::{BotSpec, SelfPlayOf};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;

use crate::batch::{SelfPlayColumns, Simulation, batch_of, offsets, self_play_games, simulation};
use crate::bots::SpecBot;
use crate::convert::{Int, Real, SpecArg, Text, extract_seed, os_seed, parse_spec};
use crate::errors::IndigoError;
use crate::queens_garden::game::Game;
use crate::queens_garden::moves::Move;
use crate::queens_garden::rules::Rules;

/// A Queen's Garden bot from a spec (the same specs as Indigo's: ``random``, ``greedy``,
/// ``playout``, ``ismcts:N``, ...). Its choices are fixed by its seed. Threads sharing one bot
/// take turns with it, waiting without the GIL.
#[pyclass(module = "indigo.queens_garden", frozen)]
pub(crate) struct Bot(SpecBot<Position>);

#[pymethods]
impl Bot {
    /// The bot's spec, canonical.
    #[getter]
    fn spec(&self) -> String {
        self.0.spec().to_string()
    }

    /// The move for the seat to move (the GIL released while it thinks);
    /// :class:`~indigo.IllegalMoveError` once the game is over.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<Move> {
        // A copy: the game is not locked while the bot thinks.
        let position = game.get().position();
        self.0.choose(py, &position).map(|a| Move(a.to_move()))
    }

    fn __repr__(&self) -> String {
        format!("<queens_garden.Bot {}>", self.0.spec())
    }
}

/// A Queen's Garden bot from ``spec``, seeded with ``seed`` (default: from the operating
/// system); a bad spec raises :class:`~indigo.IndigoError`.
#[pyfunction]
#[pyo3(signature = (spec, *, seed=None))]
pub(crate) fn make_bot(spec: Text<SpecArg>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Bot> {
    let spec: BotSpec = parse_spec(&spec.into_inner())?;
    let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
    Ok(Bot(SpecBot::checked(spec, seed)?))
}

/// The rules of a Queen's Garden batch: given ones, or the crate's default.
fn rules_of(rules: Option<&Bound<'_, PyAny>>) -> PyResult<CoreRules> {
    rules.map_or_else(
        || Ok(CoreRules::default()),
        |r| {
            r.extract::<Rules>().map(|r| r.0).map_err(|_| {
                IndigoError::new_err(format!(
                    "rules must be indigo.queens_garden.Rules, not {}",
                    r.get_type()
                        .name()
                        .map_or_else(|_| "that".into(), |n| n.to_string())
                ))
            })
        },
    )
}

/// Plays `games` Queen's Garden games inside Rust as Indigo's `simulate` does (the same
/// arguments but `deal`, and the same results: `placements` holds each game's moves; game
/// `i` is `queens_garden.Game(rules, seed=game_seeds[i])`).
#[pyfunction]
#[pyo3(
    signature = (bots, games, *, rules=None, seed=None, lineups=None, start=Int::new(0), threads=Int::new(0), progress=None, interval=Real::new(0.2)),
    text_signature = "(bots, games, *, rules=None, seed=None, lineups=None, start=0, threads=0, progress=None, interval=0.2)"
)]
#[allow(clippy::too_many_arguments, clippy::needless_pass_by_value)] // pyo3 extracts a Vec
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
) -> PyResult<Simulation> {
    let (batch, range, threads) = batch_of(
        rules_of(rules)?,
        &bots,
        seed,
        lineups,
        games,
        start,
        threads,
    )?;
    simulation(py, &batch, bots, range, threads, progress, interval, None)
}

/// Queen's Garden's self-play games: the columns every game's batch has, and the legal
/// actions as lists (``legal_actions[legal_offsets[i]:legal_offsets[i + 1]]``), not masks.
#[pyclass(module = "indigo.queens_garden", extends = SelfPlayColumns, frozen)]
pub(crate) struct SelfPlayBatch {
    /// Sample `i`'s legal actions are `legal_actions[legal_offsets[i]:legal_offsets[i + 1]]`
    /// (int64, samples + 1).
    #[pyo3(get)]
    legal_offsets: Py<PyArray1<i64>>,
    /// The legal actions of every sample, ascending within one (uint32).
    #[pyo3(get)]
    legal_actions: Py<PyArray1<u32>>,
}

impl SelfPlayBatch {
    /// The samples of `played`, in order, with `records` (each game's record).
    pub(crate) fn of_games(
        py: Python<'_>,
        played: &[SelfPlayOf<Position>],
        records: Vec<String>,
    ) -> PyResult<Py<SelfPlayBatch>> {
        let (columns, legal) = SelfPlayColumns::of_games::<Position>(py, played, records)?;
        let batch = SelfPlayBatch {
            legal_offsets: offsets(py, &legal.offsets),
            legal_actions: PyArray1::from_vec(py, legal.actions).unbind(),
        };
        Py::new(py, PyClassInitializer::from(columns).add_subclass(batch))
    }
}

/// Plays Queen's Garden games as ``simulate(..., game="queens-garden")`` does (game ``i`` is
/// the same game) and keeps each game's record and a training sample per move.
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
    rules: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    lineups: Option<Vec<Vec<Int>>>,
    start: Int,
    threads: Int,
    progress: Option<&Bound<'_, PyAny>>,
    interval: Real,
) -> PyResult<Py<SelfPlayBatch>> {
    let rules = rules_of(rules)?;
    let (batch, range, threads) = batch_of(rules, &bots, seed, lineups, games, start, threads)?;
    let (played, records) = self_play_games(
        py,
        &batch,
        range,
        threads,
        progress,
        interval,
        |game, seats, index| self_play_record(rules, game, seats, index).to_string(),
    )?;
    SelfPlayBatch::of_games(py, &played, records)
}
