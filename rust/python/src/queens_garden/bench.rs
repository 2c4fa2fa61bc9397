//! The native half of `indigo bench` for Queen's Garden: `queens_garden::bench` timed inside
//! Rust with the GIL released.

use ::queens_garden::bench::{MAX_COUNT, Workload, run};
use pyo3::prelude::*;

use super::rules::Rules;
use crate::convert::{Int, in_range};
use crate::errors::IndigoError;

/// Runs the seeded workload `workload` ("policy" or "random": `count` games; "legal": `count`
/// legal-move lists of a crowded position; "opening" or "midgame": one 1-thread ISMCTS search
/// of `count` simulations) on this thread. Returns `(count, checksum, seconds)`, where `count`
/// is the moves played or listed, or the simulations run.
#[pyfunction]
fn native_bench(
    py: Python<'_>,
    workload: &str,
    rules: &Rules,
    count: Int,
) -> PyResult<(u64, u64, f64)> {
    let workload: Workload = workload.parse().map_err(IndigoError::new_err)?;
    let count = in_range("count", count, 1, MAX_COUNT)?;
    let rules = rules.0;
    let tally = py.detach(|| run(workload, rules, count));
    Ok((tally.count, tally.checksum, tally.seconds))
}

/// Adds this module's functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(native_bench, m)?)?;
    Ok(())
}
