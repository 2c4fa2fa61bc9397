//! Queen's Garden's moves: `indigo.queens_garden.Move`, given as a move or its text.

use ::queens_garden::Move as CoreMove;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::MoveError;

/// A move in the notation of ``docs/queens-garden.md``; ``str(move)`` is its canonical form.
///
/// ``Move(text)`` is ``Move.parse(text)``. Two moves are equal exactly when their canonical
/// forms are (token order is free when parsing). Whether it is legal depends on a position:
/// see :attr:`Game.legal_moves`.
#[pyclass(module = "indigo.queens_garden", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Move(pub(crate) CoreMove);

#[pymethods]
impl Move {
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        Move::parse(text)
    }

    /// The move ``text`` writes; :class:`~indigo.MoveError` if it is not a move.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        CoreMove::parse(text)
            .map(Move)
            .map_err(|e| MoveError::new_err(format!("{} is not a move: {e}", shown(text))))
    }

    /// ``take``, ``tile``, ``exp``, ``buy`` or ``pass``.
    #[getter]
    fn action(&self) -> &'static str {
        match self.0 {
            CoreMove::Take { .. } => "take",
            CoreMove::Tile { .. } => "tile",
            CoreMove::Exp { .. } => "exp",
            CoreMove::Buy { .. } => "buy",
            CoreMove::Pass { .. } => "pass",
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, pyo3::types::PyType>, (String,)) {
        (slf.get_type(), (slf.get().0.to_string(),))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.parse('{}')", self.0)
    }
}

/// `text` quoted for a message, cut short when long.
fn shown(text: &str) -> String {
    const LIMIT: usize = 40;
    if text.chars().count() > LIMIT {
        format!("{:?}...", text.chars().take(LIMIT).collect::<String>())
    } else {
        format!("{text:?}")
    }
}

/// A move given as a `Move` or as its text.
pub(crate) enum MoveArg {
    Move(CoreMove),
    Text(String),
}

impl<'py> FromPyObject<'_, 'py> for MoveArg {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(m) = obj.cast::<Move>() {
            return Ok(MoveArg::Move(m.get().0));
        }
        if let Ok(text) = obj.cast::<PyString>() {
            return Ok(MoveArg::Text(text.to_str()?.to_owned()));
        }
        Err(PyTypeError::new_err(format!(
            "a Queen's Garden move is a queens_garden.Move or its text such as \"take bl\", not {}",
            obj.get_type().name()?
        )))
    }
}

impl MoveArg {
    pub(crate) fn resolve(self) -> PyResult<CoreMove> {
        match self {
            MoveArg::Move(m) => Ok(m),
            MoveArg::Text(t) => Move::parse(&t).map(|m| m.0),
        }
    }
}
