//! Queen's Garden for people: the picture of a snapshot and moves completed by questions (the
//! crate's `position_svg`, `move_choices`, `next_question`, `candidates`), for
//! `indigo.queens_garden.svg` and `indigo.queens_garden.choices`.

// pyo3 hands Python lists over as owned vectors.
#![allow(clippy::needless_pass_by_value)]

use ::queens_garden::{Attribute, Kind, Wheel};
use pyo3::prelude::*;

use crate::convert::json_to_py;
use crate::errors::{IndigoError, RulesError};

/// A snapshot (its JSON text) as SVG under ``wheel`` (default: the placeholder), seats named
/// ``seats``, ``narrow`` for phones; :class:`~indigo.IndigoError` names a field it cannot draw.
#[pyfunction]
#[pyo3(signature = (snapshot, wheel=None, seats=None, narrow=false))]
pub(crate) fn position_svg(
    snapshot: &str,
    wheel: Option<Vec<Vec<String>>>,
    seats: Option<Vec<String>>,
    narrow: bool,
) -> PyResult<String> {
    let wheel = wheel
        .map_or(Ok(Wheel::PLACEHOLDER), |w| Wheel::from_names(&w))
        .map_err(RulesError::new_err)?;
    let snapshot: serde_json::Value = serde_json::from_str(snapshot)
        .map_err(|e| IndigoError::new_err(format!("snapshot: not JSON: {e}")))?;
    ::queens_garden::position_svg(&snapshot, &wheel, seats.as_deref(), narrow)
        .map_err(IndigoError::new_err)
}

/// A hexagon of ``kind`` centred on (x, y) of ``radius``, class ``hexagon CLS``, with
/// ``data`` as further attributes; :class:`~indigo.IndigoError` for a kind that is none.
#[pyfunction]
pub(crate) fn hexagon_svg(
    kind: &str,
    x: f64,
    y: f64,
    radius: f64,
    cls: &str,
    data: Vec<(String, String)>,
) -> PyResult<String> {
    let kind: Kind = kind
        .parse()
        .map_err(|e| IndigoError::new_err(format!("{e}")))?;
    let data: Vec<(&str, String)> = data.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    Ok(::queens_garden::hexagon_svg(kind, x, y, radius, cls, &data))
}

/// An attribute's button picture, centred on the origin.
#[pyfunction]
pub(crate) fn attribute_svg(attribute: &str) -> PyResult<String> {
    let attribute: Attribute = attribute
        .parse()
        .map_err(|e| IndigoError::new_err(format!("{e}")))?;
    Ok(::queens_garden::attribute_svg(attribute))
}

/// The legal moves (notation) grouped for clicks, as Python data.
#[pyfunction]
pub(crate) fn move_choices(py: Python<'_>, legal: Vec<String>) -> PyResult<Bound<'_, PyAny>> {
    json_to_py(py, &::queens_garden::move_choices(&legal))
}

/// The question that splits ``moves`` (notation): ``(topic, prompt, [(label, [index, ...])])``,
/// or ``None`` when they are one move.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub(crate) fn next_question(
    moves: Vec<String>,
) -> Option<(&'static str, String, Vec<(String, Vec<usize>)>)> {
    ::queens_garden::next_question(&moves).map(|q| (q.topic, q.prompt, q.options))
}

/// The indices of the legal moves (notation) a partial move may mean.
#[pyfunction]
pub(crate) fn candidates(legal: Vec<String>, text: &str) -> Vec<usize> {
    ::queens_garden::candidates(&legal, text)
}

/// A move's fixed head tokens and its free tokens.
#[pyfunction]
pub(crate) fn split_move(text: &str) -> (Vec<String>, Vec<String>) {
    let (head, rest) = ::queens_garden::split_move(text);
    let owned = |tokens: Vec<&str>| tokens.into_iter().map(str::to_owned).collect();
    (owned(head), owned(rest))
}
