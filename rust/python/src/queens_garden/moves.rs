//! Queen's Garden's moves: `indigo.queens_garden.Move`, given as a move or its text.

use ::queens_garden::{Action, Move as CoreMove};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use crate::convert::{Int, Text, TextArg, text as text_of};
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
    fn new(text: Text<TextArg>) -> PyResult<Self> {
        Move::parse(text)
    }

    /// The move ``text`` writes; :class:`~indigo.MoveError` if it is not a move.
    #[staticmethod]
    fn parse(text: Text<TextArg>) -> PyResult<Self> {
        let text = text.0;
        CoreMove::parse(&text)
            .map(Move)
            .map_err(|e| MoveError::new_err(format!("{} is not a move: {e}", shown(&text))))
    }

    /// The move's action number in the fixed encoding (``docs/queens-garden.md``), ``None``
    /// for a pass with discards, which has none.
    #[getter]
    fn action(&self) -> Option<u32> {
        Action::from_move(&self.0).map(Action::index)
    }

    /// The move an action number names; :class:`~indigo.MoveError` if it names none.
    #[staticmethod]
    fn from_action(action: Int) -> PyResult<Self> {
        self::action(action).map(|a| Move(a.to_move()))
    }

    /// The rulebook's verb: ``take``, ``tile``, ``exp``, ``buy`` or ``pass``.
    #[getter]
    fn verb(&self) -> &'static str {
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

/// The action `n` names; :class:`~indigo.MoveError` if it names none.
pub(crate) fn action(n: Int) -> PyResult<Action> {
    Action::new(n.0).map_err(|e| MoveError::new_err(n.refusal(&e.to_string())))
}

/// A move given as a `Move`, as its text, or as an action number.
pub(crate) enum MoveArg {
    Move(CoreMove),
    Text(String),
    Action(Int),
}

impl<'py> FromPyObject<'_, 'py> for MoveArg {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(m) = obj.cast::<Move>() {
            return Ok(MoveArg::Move(m.get().0));
        }
        if let Ok(text) = obj.cast::<PyString>() {
            return Ok(MoveArg::Text(text_of(&text, "move")?));
        }
        if obj.is_instance_of::<PyInt>() {
            return Ok(MoveArg::Action(obj.extract()?));
        }
        Err(PyTypeError::new_err(format!(
            "a Queen's Garden move is a queens_garden.Move, its text such as \"take bl\" or its \
             action number, not {}",
            obj.get_type().name()?
        )))
    }
}

impl MoveArg {
    pub(crate) fn resolve(self) -> PyResult<CoreMove> {
        match self {
            MoveArg::Move(m) => Ok(m),
            MoveArg::Text(t) => Move::parse(Text::new(&t)).map(|m| m.0),
            MoveArg::Action(n) => action(n).map(Action::to_move),
        }
    }
}

/// What a move did: the move (canonical), the seat that played it, each seat's score change
/// (round and final scoring included) and whether it ended the game.
#[pyclass(module = "indigo.queens_garden", frozen)]
pub(crate) struct MoveResult {
    #[pyo3(get, name = "move")]
    pub(crate) mv: Move,
    #[pyo3(get)]
    pub(crate) seat: u8,
    #[pyo3(get)]
    pub(crate) points: Vec<i64>,
    #[pyo3(get)]
    pub(crate) game_over: bool,
}

#[pymethods]
impl MoveResult {
    fn __repr__(&self) -> String {
        format!(
            "MoveResult(move={}, seat={}, points={:?})",
            self.mv.0, self.seat, self.points
        )
    }
}
