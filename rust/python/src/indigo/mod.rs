//! Indigo's classes (`indigo.Game`, `Rules`, `Move`, its bots and batches) and constants,
//! added to `indigo._native` (PUCT and the vectorised games of every game are
//! `crate::puct` and `crate::vector`).

use indigo_game::{
    Cell, Gem, OBSERVATION_LAYOUT, OBSERVATION_SIZE, ROUTE_CELLS, TILE_COUNTS, TILE_PATHS,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub(crate) mod batch;
mod bench;
mod bots;
pub(crate) mod game;
pub(crate) mod moves;
pub(crate) mod rules;

use moves::axial;

/// Adds Indigo's classes, functions and constants to `m`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CELLS", Cell::all().map(axial).collect::<Vec<_>>())?;
    m.add(
        "ROUTE_CELLS",
        ROUTE_CELLS.iter().map(|&c| axial(c)).collect::<Vec<_>>(),
    )?;
    m.add("CENTRE", axial(Cell::CENTRE))?;
    m.add(
        "CORNERS",
        (0..6).map(|d| axial(Cell::corner(d))).collect::<Vec<_>>(),
    )?;
    m.add(
        "GATE_CELLS",
        (0..6)
            .map(|k| {
                (1..=3)
                    .map(|j| axial(Cell::gate_cell(k, j)))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>(),
    )?;
    m.add("TILE_COUNTS", TILE_COUNTS.map(u32::from).to_vec())?;
    m.add(
        "TILE_PATHS",
        TILE_PATHS.iter().map(|p| p.to_vec()).collect::<Vec<_>>(),
    )?;
    let points = PyDict::new(py);
    for g in Gem::ALL {
        points.set_item(g.as_str(), g.points())?;
    }
    m.add("GEM_POINTS", points)?;
    m.add("ACTION_COUNT", indigo_game::ACTION_COUNT)?;
    m.add("OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    let layout = PyDict::new(py);
    for (name, offset, shape) in OBSERVATION_LAYOUT {
        layout.set_item(name, (offset, shape.to_vec()))?;
    }
    m.add("OBSERVATION_LAYOUT", layout)?;
    m.add_class::<rules::Rules>()?;
    m.add_class::<moves::Move>()?;
    m.add_class::<moves::GemPath>()?;
    m.add_class::<moves::MoveResult>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<bots::RandomBot>()?;
    m.add_class::<bots::GreedyBot>()?;
    m.add_class::<bots::PlayoutBot>()?;
    m.add_class::<bots::IsmctsBot>()?;
    m.add_class::<bots::NetBot>()?;
    m.add_class::<bots::SearchResult>()?;
    m.add_function(wrap_pyfunction!(bots::make_bot, m)?)?;
    m.add_function(wrap_pyfunction!(bots::normalize_bot_spec, m)?)?;
    m.add_function(wrap_pyfunction!(bots::seat_seed, m)?)?;
    m.add_class::<crate::batch::Simulation>()?;
    m.add_function(wrap_pyfunction!(batch::simulate, m)?)?;
    m.add_class::<crate::batch::SelfPlayColumns>()?;
    m.add_class::<batch::SelfPlayBatch>()?;
    m.add_function(wrap_pyfunction!(batch::self_play, m)?)?;
    bench::register(m)
}
