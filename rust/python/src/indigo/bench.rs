//! The native halves of `indigo bench`: workloads timed inside Rust with the GIL released.

use std::time::Instant;

use indigo_game::{MAX_COST_GAMES, call_costs, playouts};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{Int, extract_seed, in_range};
use crate::errors::IndigoError;
use crate::indigo::rules::Rules;

/// Plays games `start .. start + games` of random playouts (every seat a `playout` bot, piles
/// dealt with "pcg": the games `simulate(["playout"], ..., deal="pcg")` plays) in a plain Rust
/// loop on this thread. Returns `(games, placements, checksum, seconds)`.
#[pyfunction]
#[pyo3(
    signature = (rules, seed, games, *, start=Int::new(0)),
    text_signature = "(rules, seed, games, *, start=0)"
)]
fn native_playouts(
    py: Python<'_>,
    rules: &Rules,
    seed: &Bound<'_, PyAny>,
    games: Int,
    start: Int,
) -> PyResult<(u64, u64, u64, f64)> {
    let seed = extract_seed(seed)?;
    // The games a batch may play.
    let (games, _) =
        indigo_search::batch_games(start.0, games.0, 0).map_err(|e| IndigoError::new_err(e.0))?;
    let rules = rules.0;
    Ok(py.detach(|| {
        let clock = Instant::now();
        let summary = playouts(rules, seed, games);
        let seconds = clock.elapsed().as_secs_f64();
        (summary.games, summary.placements, summary.checksum, seconds)
    }))
}

/// Mean nanoseconds per core call (`legal_moves`, `legal_action_set`, `play`, `clone`) over
/// the positions of `games` seeded playouts, each timed `rounds` times over.
#[pyfunction]
fn native_call_costs<'py>(
    py: Python<'py>,
    rules: &Rules,
    seed: &Bound<'_, PyAny>,
    games: Int,
    rounds: Int,
) -> PyResult<Bound<'py, PyDict>> {
    let seed = extract_seed(seed)?;
    let games = in_range("games", games, 1, MAX_COST_GAMES)?;
    let rounds = in_range("rounds", rounds, 1, MAX_COST_GAMES)? as u32;
    let rules = rules.0;
    let costs = py.detach(|| call_costs(rules, seed, games, rounds));
    let out = PyDict::new(py);
    out.set_item("legal_moves_ns", costs.legal_moves_ns)?;
    out.set_item("legal_action_set_ns", costs.legal_action_set_ns)?;
    out.set_item("play_ns", costs.play_ns)?;
    out.set_item("clone_ns", costs.clone_ns)?;
    Ok(out)
}

/// Adds this module's functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(native_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(native_call_costs, m)?)?;
    Ok(())
}
