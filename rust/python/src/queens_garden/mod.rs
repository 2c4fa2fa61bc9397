//! `indigo._native.queens_garden`: the classes of Azul: Queen's Garden (the `queens-garden`
//! crate) and its constants.

use ::queens_garden::{Attribute, Cell, Kind, OBSERVATION_SIZE, RECORD_FORMAT, SNAPSHOT_FORMAT};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub(crate) mod bench;
pub(crate) mod game;
pub(crate) mod moves;
pub(crate) mod rules;
pub(crate) mod search;
pub(crate) mod views;

use game::Game;
use moves::{Move, MoveResult};
use rules::Rules;

/// Adds the submodule `queens_garden` to `parent` and registers it as
/// `indigo._native.queens_garden`, so that it can be imported by that name.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = parent.py();
    let m = PyModule::new(py, "queens_garden")?;
    m.add("RECORD_FORMAT", RECORD_FORMAT)?;
    m.add("SNAPSHOT_FORMAT", SNAPSHOT_FORMAT)?;
    m.add(
        "KINDS",
        Kind::all().map(|k| k.to_string()).collect::<Vec<_>>(),
    )?;
    m.add(
        "ATTRIBUTES",
        Attribute::all().map(|a| a.to_string()).collect::<Vec<_>>(),
    )?;
    m.add(
        "CELLS",
        Cell::all().map(|c| c.to_string()).collect::<Vec<_>>(),
    )?;
    m.add_class::<Rules>()?;
    m.add_class::<Move>()?;
    m.add_class::<MoveResult>()?;
    m.add_class::<Game>()?;
    m.add_class::<search::Bot>()?;
    m.add_function(wrap_pyfunction!(search::make_bot, &m)?)?;
    bench::register(&m)?;
    m.add_class::<search::SelfPlayBatch>()?;
    m.add_function(wrap_pyfunction!(search::simulate, &m)?)?;
    m.add_function(wrap_pyfunction!(search::self_play, &m)?)?;
    m.add("COLOUR_FILL", ::queens_garden::COLOUR_FILL.to_vec())?;
    m.add("NARROW_SCALE", ::queens_garden::NARROW_SCALE)?;
    m.add_function(wrap_pyfunction!(views::position_svg, &m)?)?;
    m.add_function(wrap_pyfunction!(views::hexagon_svg, &m)?)?;
    m.add_function(wrap_pyfunction!(views::attribute_svg, &m)?)?;
    m.add_function(wrap_pyfunction!(views::move_choices, &m)?)?;
    m.add_function(wrap_pyfunction!(views::next_question, &m)?)?;
    m.add_function(wrap_pyfunction!(views::candidates, &m)?)?;
    m.add_function(wrap_pyfunction!(views::split_move, &m)?)?;
    m.add("ACTION_COUNT", ::queens_garden::ACTION_COUNT)?;
    m.add("OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    let layout = PyDict::new(py);
    for (name, offset, shape) in ::queens_garden::OBSERVATION_LAYOUT {
        layout.set_item(name, (offset, shape.to_vec()))?;
    }
    m.add("OBSERVATION_LAYOUT", layout)?;
    parent.add_submodule(&m)?;
    py.import("sys")?
        .getattr("modules")?
        .set_item("indigo._native.queens_garden", &m)?;
    Ok(())
}
