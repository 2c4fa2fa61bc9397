//! Queen's Garden's rules: `indigo.queens_garden.Rules` (players, scoring wheel, jokers).

use std::collections::HashMap;

use ::queens_garden::{Jokers, Rules as CoreRules, Wheel};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{Int, json_to_py};
use crate::errors::RulesError;

fn rules_error(e: &::queens_garden::RulesError) -> PyErr {
    RulesError::new_err(e.to_string())
}

/// The rules of a Queen's Garden game: players, scoring wheel and joker rewards.
///
/// ``wheel`` is 4 rounds of 3 different categories (colour codes ``"bl"`` .. ``"dp"`` or pattern
/// values ``"1"`` .. ``"6"``); the default is a PLACEHOLDER, not the printed wheel (``bl dg 1``,
/// ``ye 2 3``, ``lg lp 4``, ``dp 5 6``). ``jokers`` maps ``fountain``, ``statue``, ``bench``,
/// ``pavilion`` to the jokers paid when that element is surrounded (0..12); the default
/// fountain 1 / statue 2 / bench 2 / pavilion 3 is unverified printed data. Immutable and
/// hashable; a bad value raises :class:`~indigo.RulesError`.
#[pyclass(module = "indigo.queens_garden", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Rules(pub(crate) CoreRules);

impl Rules {
    fn wheel_names(&self) -> Vec<Vec<String>> {
        self.0
            .wheel()
            .rounds()
            .iter()
            .map(|round| round.iter().map(ToString::to_string).collect())
            .collect()
    }

    fn joker_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let j = self.0.jokers();
        let d = PyDict::new(py);
        for (element, value) in Jokers::ELEMENTS
            .into_iter()
            .zip([j.fountain, j.statue, j.bench, j.pavilion])
        {
            d.set_item(element, value)?;
        }
        Ok(d)
    }
}

#[pymethods]
impl Rules {
    #[new]
    // What is not given is the core's (`CoreRules::default`); text_signature shows the count.
    #[pyo3(signature = (players=Int::new(CoreRules::DEFAULT_PLAYERS.into()), wheel=None, jokers=None), text_signature = "(players=2, wheel=None, jokers=None)")]
    fn new(
        players: Int,
        wheel: Option<Vec<Vec<String>>>,
        jokers: Option<HashMap<String, Int>>,
    ) -> PyResult<Self> {
        let Int(n, _) = players;
        let players = u8::try_from(n)
            .map_err(|_| RulesError::new_err(format!("players must be 2, 3 or 4, not {n}")))?;
        let defaults = CoreRules::default();
        let wheel = wheel
            .map_or(Ok(*defaults.wheel()), |w| Wheel::from_names(&w))
            .map_err(RulesError::new_err)?;
        let jokers = jokers
            .map_or(Ok(*defaults.jokers()), |j| {
                Jokers::from_table(j.iter().map(|(k, &Int(n, _))| (k.as_str(), n)))
            })
            .map_err(RulesError::new_err)?;
        CoreRules::new(players, wheel, jokers)
            .map(Rules)
            .map_err(|e| rules_error(&e))
    }

    #[getter]
    fn players(&self) -> u8 {
        self.0.players()
    }

    /// The 3 scoring categories of each round 1..4.
    #[getter]
    fn wheel(&self) -> Vec<Vec<String>> {
        self.wheel_names()
    }

    /// Jokers paid per surrounded element: ``fountain``, ``statue``, ``bench``, ``pavilion``.
    #[getter]
    fn jokers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.joker_dict(py)
    }

    /// Expansions in each round's stack: 5, 7 or 8 for 2, 3 or 4 players.
    #[getter]
    fn stack_size(&self) -> u8 {
        self.0.stack_size()
    }

    /// The record's ``rules`` object.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &::queens_garden::rules_to_json(&self.0))
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, pyo3::types::PyType>,
        (u8, Vec<Vec<String>>, Bound<'py, PyDict>),
    )> {
        let rules = slf.get();
        Ok((
            slf.get_type(),
            (
                rules.0.players(),
                rules.wheel_names(),
                rules.joker_dict(slf.py())?,
            ),
        ))
    }

    fn __repr__(&self) -> String {
        let j = self.0.jokers();
        format!(
            "Rules(players={}, wheel={:?}, jokers={{'fountain': {}, 'statue': {}, 'bench': {}, 'pavilion': {}}})",
            self.0.players(),
            self.wheel_names(),
            j.fountain,
            j.statue,
            j.bench,
            j.pavilion
        )
        .replace('"', "'")
    }
}
