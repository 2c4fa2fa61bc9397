//! `indigo._native`: the pyo3 binding of the game crates (`indigo-game`, `queens-garden`) and
//! their search (`indigo-search`). It converts types and errors and releases the GIL around
//! longer work; every rule lives in the crates. This file only registers the modules.

// pyo3 methods take `&self` and Python-facing names (`to_dict`) whatever the receiver's size.
#![allow(clippy::trivially_copy_pass_by_ref, clippy::wrong_self_convention)]

use pyo3::prelude::*;

mod batch;
mod bots;
mod convert;
mod errors;
mod games;
mod indigo;
mod puct;
mod queens_garden;
mod shared;
mod vector;
mod watch;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    indigo::register(m)?;
    puct::register(m)?;
    m.add_class::<vector::VectorGames>()?;
    queens_garden::register(m)
}
