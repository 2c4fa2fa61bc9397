//! The search for Queen's Garden: bots by spec, batches (`simulate(..., game="queens-garden")`)
//! and the search-AI interface of `indigo.queens_garden.Game` (actions, observation,
//! information strings, resampling, returns).

use std::sync::Mutex;

use ::queens_garden::{Position, Rules as CoreRules};
use indigo_search::{Batch, Bot as _, BotSpec, Outcome, SearchBot, mix};
use pyo3::prelude::*;

use crate::queens_garden::{Game, Move, Rules};
use crate::search::{Simulation, game_range, parse_spec, run_batch, search_batch_error};
use crate::{IllegalMoveError, IndigoError, Int, Real, extract_seed, os_seed};

/// A Queen's Garden bot from a spec (the same specs as Indigo's: ``random``, ``greedy``,
/// ``playout``, ``ismcts:N``, ...). Its choices are fixed by its seed.
#[pyclass(module = "indigo.queens_garden", frozen)]
pub(crate) struct Bot {
    spec: BotSpec,
    bot: Mutex<SearchBot<Position>>,
}

#[pymethods]
impl Bot {
    /// The bot's spec, canonical.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The move for the seat to move (the GIL released while it thinks);
    /// :class:`~indigo.IllegalMoveError` once the game is over.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<Move> {
        let position = game.borrow().position().clone();
        let chosen = py.detach(|| {
            let mut bot = self
                .bot
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            bot.choose(&position)
        });
        chosen.map(|a| Move(a.to_move())).ok_or_else(|| {
            IllegalMoveError::new_err("the game is over: there is no move to choose")
        })
    }

    fn __repr__(&self) -> String {
        format!("<queens_garden.Bot {}>", self.spec)
    }
}

/// A Queen's Garden bot from ``spec``, seeded with ``seed`` (default: from the operating
/// system); a bad spec raises :class:`~indigo.IndigoError`.
#[pyfunction]
#[pyo3(signature = (spec, *, seed=None))]
pub(crate) fn make_bot(spec: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Bot> {
    let spec: BotSpec = parse_spec(spec)?;
    let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
    Ok(Bot {
        spec,
        bot: Mutex::new(spec.build(seed)),
    })
}

/// The rules of a Queen's Garden batch: given ones, or 2 players.
fn rules_of(rules: Option<&Bound<'_, PyAny>>) -> PyResult<CoreRules> {
    match rules {
        None => Ok(CoreRules::with_players(2).unwrap_or_else(|_| unreachable!("2 players"))),
        Some(r) => r.extract::<Rules>().map(|r| r.0).map_err(|_| {
            IndigoError::new_err(
                "game=\"queens-garden\" takes rules=indigo.queens_garden.Rules(...), not Indigo's \
                 rules",
            )
        }),
    }
}

/// [`crate::search::simulate`] for Queen's Garden: the same arguments and results
/// (`placements` holds each game's moves; there is no deal: `deal` must be "python").
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
) -> PyResult<Simulation> {
    let rules = rules_of(rules)?;
    let specs = bots
        .iter()
        .map(|s| parse_spec(s))
        .collect::<PyResult<Vec<_>>>()?;
    let players = usize::from(rules.players());
    let lineups: Option<Vec<Vec<i64>>> = lineups.map(|l| {
        l.into_iter()
            .map(|l| l.into_iter().map(|Int(b)| b).collect())
            .collect()
    });
    let seed = seed.map(extract_seed).transpose()?.unwrap_or(0);
    let batch = Batch::new(rules, specs, lineups.as_deref(), seed).map_err(search_batch_error)?;
    let (range, threads) = game_range(games, start, threads)?;
    let outcomes = run_batch(py, range.clone(), progress, interval, |done, cancel| {
        batch.run(range.clone(), threads, done, cancel)
    })?;
    let checksum = outcomes.iter().fold(0, fold);
    Simulation::of_queens_garden(
        py,
        bots,
        &outcomes,
        players,
        batch.lineups(),
        range,
        seed,
        checksum,
    )
}

/// Folds one game's outcome into a checksum of a sequence of games.
fn fold(checksum: u64, outcome: &Outcome) -> u64 {
    let scores = outcome
        .scores
        .iter()
        .fold(0u64, |acc, &s| acc << 16 ^ s as u64);
    mix(
        mix(checksum, scores),
        u64::from(outcome.winners) << 32 | u64::from(outcome.moves),
    )
}
