//! Indigo's placements (`Move`, given as a move, its text or an action number) and what a
//! placement caused (`MoveResult`, `GemPath`).

use indigo_game::Move as CoreMove;
use indigo_game::{Action, Cell, MoveEffects, PathEnd, TileType, move_to_json};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyInt, PyType};

use crate::convert::{Int, Text, TextArg, as_int, json_to_py, refused, seats, text as text_of};
use crate::errors::MoveError;

/// Tile types as a Python list of ints.
pub(crate) fn tile_list(tiles: impl Iterator<Item = TileType>) -> Vec<u32> {
    tiles.map(|t| u32::from(t.index())).collect()
}

pub(crate) fn axial(cell: Cell) -> (i32, i32) {
    cell.axial()
}

/// A placement: tile type, rotation, cell. Placements that differ only by an equivalent
/// rotation (one the tile's symmetry maps to the same paths) are equal and hash alike, as
/// ``Game.is_legal`` and ``in legal_moves`` see them.
#[pyclass(module = "indigo", frozen, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Move(pub(crate) CoreMove);

#[pymethods]
impl Move {
    #[new]
    fn new(tile: Int, rotation: Int, q: Int, r: Int) -> PyResult<Self> {
        CoreMove::from_parts(tile.0, rotation.0, q.0, r.0)
            .map(Move)
            .map_err(|e| MoveError::new_err(refused(&e.0, &[&tile, &rotation, &q, &r])))
    }

    #[staticmethod]
    fn parse(text: Text<TextArg>) -> PyResult<Self> {
        text.into_inner()
            .parse()
            .map(Move)
            .map_err(|e: indigo_game::MoveError| MoveError::new_err(e.0))
    }

    #[getter]
    fn tile(&self) -> u8 {
        self.0.tile.index()
    }

    #[getter]
    fn rotation(&self) -> u8 {
        self.0.rotation.get()
    }

    #[getter]
    fn q(&self) -> i32 {
        self.0.cell.q()
    }

    #[getter]
    fn r(&self) -> i32 {
        self.0.cell.r()
    }

    #[getter]
    fn cell(&self) -> (i32, i32) {
        axial(self.0.cell)
    }

    fn canonical(&self) -> Self {
        Move(self.0.canonical())
    }

    /// Equal when the canonical placements are.
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let Ok(other) = other.cast::<Move>() else {
            return py.NotImplemented();
        };
        let equal = self.0.canonical() == other.get().0.canonical();
        match op {
            CompareOp::Eq => equal
                .into_pyobject(py)
                .map(|b| b.to_owned().into_any().unbind()),
            CompareOp::Ne => (!equal)
                .into_pyobject(py)
                .map(|b| b.to_owned().into_any().unbind()),
            _ => return py.NotImplemented(),
        }
        .unwrap_or_else(|never| match never {})
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(&self.0.canonical(), &mut hasher);
        std::hash::Hasher::finish(&hasher)
    }

    fn paths(&self) -> Vec<(u8, u8)> {
        self.0.paths().to_vec()
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &move_to_json(self.0))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (u8, u8, i32, i32)) {
        let m = slf.get().0;
        (
            slf.get_type(),
            (m.tile.index(), m.rotation.get(), m.cell.q(), m.cell.r()),
        )
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    /// This placement's action number (rotation made canonical), `None` off the route cells.
    #[getter]
    fn action(&self) -> Option<usize> {
        Action::from_move(self.0).map(Action::index)
    }

    /// The placement an action number plays.
    #[staticmethod]
    fn from_action(action: Int) -> PyResult<Self> {
        self::action(action).map(|a| Move(a.to_move()))
    }

    fn __repr__(&self) -> String {
        format!("Move.parse('{}')", self.0)
    }
}

/// A move given as a `Move`, as its text, or as an action number.
pub(crate) enum MoveArg {
    Move(Move),
    Text(String),
    Action(Int),
}

impl<'py> FromPyObject<'_, 'py> for MoveArg {
    type Error = PyErr;

    /// Checks each type in turn without raising, so action numbers cost no failed extraction.
    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(m) = obj.cast::<Move>() {
            return Ok(MoveArg::Move(*m.get()));
        }
        if obj.is_instance_of::<PyInt>() {
            return obj.extract().map(MoveArg::Action);
        }
        if let Ok(text) = obj.cast::<pyo3::types::PyString>() {
            return Ok(MoveArg::Text(text_of(&text, "move")?));
        }
        // Any other integer, such as numpy's (`mask.argmax()`).
        match as_int(&obj) {
            Ok(int) => int.extract().map(MoveArg::Action),
            Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "a move is a Move, its text such as \"3@0:-4,1\", or an action number, not {}",
                obj.get_type().name()?
            ))),
        }
    }
}

impl MoveArg {
    pub(crate) fn resolve(self) -> PyResult<CoreMove> {
        match self {
            MoveArg::Move(m) => Ok(m.0),
            MoveArg::Text(t) => Move::parse(Text::new(&t)).map(|m| m.0),
            MoveArg::Action(n) => action(n).map(Action::to_move),
        }
    }
}

pub(crate) fn action(n: Int) -> PyResult<Action> {
    Action::new(n.0).map_err(|e| MoveError::new_err(n.refusal(&e.to_string())))
}

/// What one gem did during a placement.
#[pyclass(module = "indigo", frozen)]
#[derive(Clone)]
pub(crate) struct GemPath {
    #[pyo3(get)]
    gem: &'static str,
    #[pyo3(get)]
    start: (i32, i32, u8),
    #[pyo3(get)]
    steps: Vec<(i32, i32, u8, u8)>,
    #[pyo3(get)]
    outcome: &'static str,
    #[pyo3(get)]
    end: Option<(i32, i32, u8)>,
    #[pyo3(get)]
    gate: Option<u8>,
    #[pyo3(get)]
    owners: Vec<u32>,
    #[pyo3(get)]
    collided_with: Option<usize>,
}

impl GemPath {
    fn from_core(path: &indigo_game::GemPath, players: u8) -> Self {
        let (cell, edge) = path.start;
        let mut out = GemPath {
            gem: path.gem.as_str(),
            start: (cell.q(), cell.r(), edge),
            steps: path
                .steps
                .iter()
                .map(|&(c, a, b)| (c.q(), c.r(), a, b))
                .collect(),
            outcome: "rested",
            end: None,
            gate: None,
            owners: Vec::new(),
            collided_with: None,
        };
        match path.end {
            PathEnd::Rested(c, e) => out.end = Some((c.q(), c.r(), e)),
            PathEnd::Collected { gate, owners } => {
                out.outcome = "collected";
                out.gate = Some(gate);
                out.owners = seats(owners, players);
            }
            PathEnd::Collided(other) => {
                out.outcome = "collided";
                out.collided_with = Some(other);
            }
        }
        out
    }
}

#[pymethods]
impl GemPath {
    fn __repr__(&self) -> String {
        format!(
            "GemPath(gem='{}', start={:?}, steps={}, outcome='{}')",
            self.gem,
            self.start,
            self.steps.len(),
            self.outcome
        )
    }
}

/// What a placement caused.
#[pyclass(module = "indigo", frozen)]
#[derive(Clone)]
pub(crate) struct MoveResult {
    pub(crate) effects: MoveEffects,
    pub(crate) players: u8,
}

#[pymethods]
impl MoveResult {
    #[getter(r#move)]
    fn get_move(&self) -> Move {
        Move(self.effects.mv)
    }

    #[getter]
    fn seat(&self) -> u8 {
        self.effects.seat
    }

    #[getter]
    fn paths(&self) -> Vec<GemPath> {
        self.effects
            .paths
            .iter()
            .map(|p| GemPath::from_core(p, self.players))
            .collect()
    }

    #[getter]
    fn points(&self) -> Vec<u16> {
        self.effects.points[..usize::from(self.players)].to_vec()
    }

    #[getter]
    fn collisions(&self) -> Vec<(usize, usize)> {
        self.effects.collisions()
    }

    #[getter]
    fn game_over(&self) -> bool {
        self.effects.game_over
    }

    fn __repr__(&self) -> String {
        format!(
            "MoveResult(move={}, seat={}, paths={}, points={:?})",
            self.effects.mv,
            self.effects.seat,
            self.effects.paths.len(),
            self.points()
        )
    }
}
