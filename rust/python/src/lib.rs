//! `indigo._native`: the pyo3 binding of `indigo-core`. It converts types and errors and
//! releases the GIL around longer work; every rule lives in the core crate.

// pyo3 methods take `&self` and Python-facing names (`to_dict`) whatever the receiver's size.
#![allow(clippy::trivially_copy_pass_by_ref, clippy::wrong_self_convention)]

use std::collections::hash_map::DefaultHasher;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::MutexGuard;

use bots::SpecBot;
use indigo_core::OBSERVATION_SIZE;
use indigo_core::ROUTE_CELLS;
use indigo_core::{
    ACTION_COUNT, Action, Cell, ErrorAt, Game as CoreGame, GateVariant, Gem, Information,
    Move as CoreMove, MoveEffects, PathEnd, Phase, Position, Rules as CoreRules, Theme, TieBreak,
    TileType, Utility,
};
use indigo_core::{
    RecordError as CoreRecordError, move_to_json, read_record, rules_to_json, snapshot,
    write_record,
};
use indigo_core::{TILE_COUNTS, TILE_PATHS};
use indigo_search::BotSpec;
use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{IntoPyDict, PyBytes, PyDict, PyInt, PyString, PyType};
use shared::Locked;

mod bench;
mod bots;
mod puct;
mod qg_search;
mod queens_garden;
mod search;
mod shared;
mod vector;
mod watch;

pyo3::create_exception!(
    indigo,
    IndigoError,
    PyValueError,
    "Base class of every error this package raises for bad input."
);
pyo3::create_exception!(
    indigo,
    RulesError,
    IndigoError,
    "Rules that are not a valid configuration."
);
pyo3::create_exception!(
    indigo,
    MoveError,
    IndigoError,
    "A move value that cannot exist."
);
pyo3::create_exception!(
    indigo,
    IllegalMoveError,
    IndigoError,
    "A move that is not legal now; the game is unchanged."
);
pyo3::create_exception!(
    indigo,
    RecordError,
    IndigoError,
    "A rejected game record; `at` names the first offending field or move."
);

fn record_error(py: Python<'_>, e: &CoreRecordError) -> PyErr {
    match e.at {
        ErrorAt::Field(name) => record_error_at(py, e.to_string(), name),
        ErrorAt::Move(i) => record_error_at(py, e.to_string(), i),
    }
}

/// A `RecordError` saying `message`, its `.at` the offending field's name or move's index
/// (the same for both games, so that one `except indigo.RecordError` serves them).
fn record_error_at<'py>(py: Python<'py>, message: String, at: impl IntoPyObject<'py>) -> PyErr {
    let err = RecordError::new_err(message);
    match err.value(py).setattr("at", at) {
        Ok(()) => err,
        Err(e) => e,
    }
}

fn json_module(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static JSON: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    JSON.get_or_try_init(py, || Ok(py.import("json")?.unbind()))
        .map(|m| m.bind(py))
}

/// A value of `indigo._deprecation`'s class `class` (an attribute on its way to being a
/// method, or the reverse), made from `value`.
fn transitional<'py>(
    py: Python<'py>,
    class: &str,
    value: impl IntoPyObject<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    static MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    MODULE
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("indigo._deprecation")?.unbind())
        })?
        .bind(py)
        .getattr(class)?
        .call1((value,))
}

/// Warns that the old name `old` goes in the next release (`indigo._deprecation.warn`).
fn deprecated(py: Python<'_>, old: &str, new: &str) -> PyResult<()> {
    py.import("indigo._deprecation")?
        .getattr("warn")?
        .call((old, new), Some(&[("stacklevel", 2)].into_py_dict(py)?))?;
    Ok(())
}

fn json_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    json_module(py)?.call_method1("loads", (value.to_string(),))
}

/// `obj` as a Python int if it has one (`__index__`: numpy integers, bools), else the
/// `TypeError` Python raises.
fn as_int<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyInt>> {
    static INDEX: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    if let Ok(int) = obj.cast::<PyInt>() {
        return Ok(int.clone());
    }
    let index = INDEX.get_or_try_init(obj.py(), || {
        Ok::<_, PyErr>(obj.py().import("operator")?.getattr("index")?.unbind())
    })?;
    Ok(index.bind(obj.py()).call1((obj,))?.cast_into::<PyInt>()?)
}

/// A Python int (or any `__index__` value) as `i64`, clamped: an int too large for `i64` is
/// out of every range we check, so it fails that range check with a `ValueError` subclass
/// rather than an `OverflowError`.
#[derive(Clone, Copy)]
struct Int(i64);

impl<'py> FromPyObject<'_, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(n) => Ok(Int(n)),
            Err(e) => {
                let int = as_int(&obj).map_err(|_| e)?;
                Ok(Int(if int.lt(0)? { i64::MIN } else { i64::MAX }))
            }
        }
    }
}

/// A Python number as `f64`; an int too large for a float is an infinity (refused by every
/// range we check) rather than an `OverflowError`.
#[derive(Clone, Copy)]
struct Real(f64);

impl<'py> FromPyObject<'_, 'py> for Real {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<f64>() {
            Ok(x) => Ok(Real(x)),
            Err(e) => {
                let int = as_int(&obj).map_err(|_| e)?;
                Ok(Real(if int.lt(0)? {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }))
            }
        }
    }
}

fn parse_utility(name: &str) -> PyResult<Utility> {
    name.parse().map_err(IndigoError::new_err)
}

fn parse_gem(name: &str) -> PyResult<Gem> {
    name.parse().map_err(IndigoError::new_err)
}

/// The seats in a bitmask, ascending. Lists of small numbers are `Vec<u32>` because pyo3
/// turns a `Vec<u8>` into `bytes`.
fn seats(mask: u8, players: u8) -> Vec<u32> {
    (0..players)
        .filter(|s| mask & (1 << s) != 0)
        .map(u32::from)
        .collect()
}

/// Tile types as a Python list of ints.
fn tile_list(tiles: impl Iterator<Item = TileType>) -> Vec<u32> {
    tiles.map(|t| u32::from(t.index())).collect()
}

fn axial(cell: Cell) -> (i32, i32) {
    cell.axial()
}

/// A validated rules configuration. Immutable and hashable.
#[pyclass(module = "indigo", frozen, eq, hash, from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Rules(CoreRules);

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (players=Int(2), hand_size=Int(1), three_player_gates="shared", tie_break="most-gems", open_hands=false, theme="indigo"), text_signature = "(players=2, hand_size=1, three_player_gates='shared', tie_break='most-gems', open_hands=False, theme='indigo')")]
    fn new(
        players: Int,
        hand_size: Int,
        three_player_gates: &str,
        tie_break: &str,
        open_hands: bool,
        theme: &str,
    ) -> PyResult<Self> {
        let rules = CoreRules::new(small(players), small(hand_size)).map_err(|e| {
            rules_error(
                &e,
                if e.field == "players" {
                    players
                } else {
                    hand_size
                },
            )
        })?;
        let gates: GateVariant = three_player_gates
            .parse()
            .map_err(|m| RulesError::new_err(format!("three_player_gates: {m}")))?;
        let tie: TieBreak = tie_break
            .parse()
            .map_err(|m| RulesError::new_err(format!("tie_break: {m}")))?;
        let theme: Theme = theme
            .parse()
            .map_err(|m| RulesError::new_err(format!("theme: {m}")))?;
        Ok(Rules(
            rules
                .with_three_player_gates(gates)
                .with_tie_break(tie)
                .with_open_hands(open_hands)
                .with_theme(theme),
        ))
    }

    #[staticmethod]
    #[pyo3(signature = (players=Int(2)), text_signature = "(players=2)")]
    fn indigo(players: Int) -> PyResult<Self> {
        preset(players, CoreRules::indigo)
    }

    #[staticmethod]
    #[pyo3(signature = (players=Int(2)), text_signature = "(players=2)")]
    fn tactical(players: Int) -> PyResult<Self> {
        preset(players, CoreRules::tactical)
    }

    #[staticmethod]
    #[pyo3(signature = (players=Int(2)), text_signature = "(players=2)")]
    fn butterfly_garden(players: Int) -> PyResult<Self> {
        preset(players, CoreRules::butterfly_garden)
    }

    /// The preset of a theme: `indigo` for "indigo", `butterfly_garden` for
    /// "butterfly-garden".
    #[staticmethod]
    #[pyo3(signature = (theme, players=Int(2)), text_signature = "(theme, players=2)")]
    fn preset(theme: &str, players: Int) -> PyResult<Self> {
        let theme: Theme = theme
            .parse()
            .map_err(|m| RulesError::new_err(format!("theme: {m}")))?;
        self::preset(players, |n| CoreRules::preset(theme, n))
    }

    #[getter]
    fn players(&self) -> u8 {
        self.0.players()
    }

    #[getter]
    fn hand_size(&self) -> u8 {
        self.0.hand_size()
    }

    #[getter]
    fn three_player_gates(&self) -> &'static str {
        self.0.three_player_gates().as_str()
    }

    #[getter]
    fn tie_break(&self) -> &'static str {
        self.0.tie_break().as_str()
    }

    #[getter]
    fn open_hands(&self) -> bool {
        self.0.open_hands()
    }

    #[getter]
    fn theme(&self) -> &'static str {
        self.0.theme().as_str()
    }

    fn gate_owners(&self, gate: Int) -> PyResult<Vec<u32>> {
        let gate = CoreRules::gate(gate.0)
            .map_err(|e| IndigoError::new_err(format!("gate {}", e.message)))?;
        Ok(seats(self.0.gate_owner_mask(gate), self.0.players()))
    }

    fn gem_name(&self, gem: &str) -> PyResult<&'static str> {
        Ok(self.0.theme().gem_name(parse_gem(gem)?))
    }

    fn gem_colour(&self, gem: &str) -> PyResult<&'static str> {
        Ok(self.0.theme().gem_colour(parse_gem(gem)?))
    }

    fn seat_colour(&self, seat: Int) -> PyResult<&'static str> {
        let seat = self.seat(seat)?;
        Ok(self.0.theme().seat_colour(seat))
    }

    #[getter]
    fn gate_name(&self) -> &'static str {
        self.0.theme().gate_name()
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &rules_to_json(self.0))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, RulesArgs) {
        let r = slf.get().0;
        (
            slf.get_type(),
            (
                r.players(),
                r.hand_size(),
                r.three_player_gates().as_str(),
                r.tie_break().as_str(),
                r.open_hands(),
                r.theme().as_str(),
            ),
        )
    }

    fn __repr__(&self) -> String {
        let r = self.0;
        format!(
            "Rules(players={}, hand_size={}, three_player_gates='{}', tie_break='{}', open_hands={}, theme='{}')",
            r.players(),
            r.hand_size(),
            r.three_player_gates().as_str(),
            r.tie_break().as_str(),
            if r.open_hands() { "True" } else { "False" },
            r.theme().as_str()
        )
    }
}

/// `Rules(...)` arguments in order, for pickling.
type RulesArgs = (u8, u8, &'static str, &'static str, bool, &'static str);

/// A Python int as a `u8` for the core to check; one out of `u8`'s range becomes 255, which
/// every check refuses (the message then names the value as given).
fn small(Int(n): Int) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The core's refusal, naming the value the caller gave (not its `u8` stand-in).
fn rules_error(e: &indigo_core::RulesError, Int(given): Int) -> PyErr {
    let message = e
        .message
        .rsplit_once(", not ")
        .map_or(e.message.as_str(), |(m, _)| m);
    RulesError::new_err(format!("{}: {message}, not {given}", e.field))
}

/// The preset `make` builds for `players`.
fn preset(
    players: Int,
    make: impl FnOnce(u8) -> Result<CoreRules, indigo_core::RulesError>,
) -> PyResult<Rules> {
    make(small(players))
        .map(Rules)
        .map_err(|e| rules_error(&e, players))
}

impl Rules {
    fn seat(&self, Int(seat): Int) -> PyResult<u8> {
        self.0
            .seat(seat)
            .map_err(|e| IndigoError::new_err(format!("seat {}", e.message)))
    }
}

/// A placement: tile type, rotation, cell.
#[pyclass(module = "indigo", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Move(CoreMove);

#[pymethods]
impl Move {
    #[new]
    fn new(tile: Int, rotation: Int, q: Int, r: Int) -> PyResult<Self> {
        CoreMove::from_parts(tile.0, rotation.0, q.0, r.0)
            .map(Move)
            .map_err(|e| MoveError::new_err(e.0))
    }

    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        text.parse()
            .map(Move)
            .map_err(|e: indigo_core::MoveError| MoveError::new_err(e.0))
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
        self::action(action.0).map(|a| Move(a.to_move()))
    }

    fn __repr__(&self) -> String {
        format!("Move.parse('{}')", self.0)
    }
}

/// A move given as a `Move`, as its text, or as an action number.
enum MoveArg {
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
            return Ok(MoveArg::Text(text.to_str()?.to_owned()));
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
    fn resolve(self) -> PyResult<CoreMove> {
        match self {
            MoveArg::Move(m) => Ok(m.0),
            MoveArg::Text(t) => Move::parse(&t).map(|m| m.0),
            MoveArg::Action(Int(n)) => action(n).map(Action::to_move),
        }
    }
}

fn action(n: i64) -> PyResult<Action> {
    Action::new(n).map_err(|e| MoveError::new_err(e.to_string()))
}

/// What one gem did during a placement.
#[pyclass(module = "indigo", frozen)]
#[derive(Clone)]
struct GemPath {
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
    fn from_core(path: &indigo_core::GemPath, players: u8) -> Self {
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
struct MoveResult {
    effects: MoveEffects,
    players: u8,
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

/// A game in progress: position, history and undo.
/// Each call locks it only while Rust works on it and never while Python code runs, so
/// threads sharing a game take turns call by call.
#[pyclass(module = "indigo", frozen)]
#[derive(Clone)]
struct Game(Locked<CoreGame>);

fn to_tiles(pile: &[Int]) -> PyResult<Vec<TileType>> {
    pile.iter()
        .enumerate()
        .map(|(i, &Int(t))| {
            CoreMove::tile_type(t).map_err(|e| IndigoError::new_err(format!("pile[{i}] {}", e.0)))
        })
        .collect()
}

fn extract_seed(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    seed.extract::<u64>().or_else(|_| {
        if let Ok(seed) = as_int(seed) {
            // Not `{seed}`: str() of an int over 4300 digits fails (a stray unraisable error).
            let shown = seed
                .str()
                .map_or_else(|_| "a longer one".into(), |s| s.to_string());
            Err(IndigoError::new_err(format!(
                "seed must be an integer from 0 to 2**64 - 1, not {shown}"
            )))
        } else {
            Err(PyTypeError::new_err(format!(
                "seed must be an int, not {}",
                seed.get_type().name()?
            )))
        }
    })
}

fn os_seed() -> u64 {
    // RandomState is seeded from the operating system's entropy source.
    std::collections::hash_map::RandomState::new().hash_one(std::time::SystemTime::now())
}

/// A record given as JSON text, UTF-8 bytes or parsed JSON data, as text; `invalid` makes the
/// error for data that is not JSON (each game's format names its own location for that).
fn record_text(record: &Bound<'_, PyAny>, invalid: impl Fn(String) -> PyErr) -> PyResult<String> {
    if let Ok(s) = record.cast::<PyString>() {
        return Ok(s.to_str()?.to_owned());
    }
    if let Ok(b) = record.cast::<PyBytes>() {
        return String::from_utf8(b.as_bytes().to_vec())
            .map_err(|_| invalid("the record is not UTF-8 text".into()));
    }
    // `default=dict` lets any Mapping (not only dict) through, at any depth.
    let py = record.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("default", py.get_type::<PyDict>())?;
    // NaN and infinities are not JSON: say so, rather than fail on text the caller never wrote.
    kwargs.set_item("allow_nan", false)?;
    let dumped = json_module(py)?.call_method("dumps", (record,), Some(&kwargs));
    match dumped {
        Ok(text) => text.extract(),
        Err(e) => Err(invalid(format!("the record is not JSON data ({e})"))),
    }
}

impl Game {
    fn wrap(game: CoreGame) -> Self {
        Game(Locked::new(game))
    }

    /// The game, locked until the guard is dropped ([`Locked::lock`]).
    fn lock(&self) -> MutexGuard<'_, CoreGame> {
        self.0.lock()
    }

    /// A copy of the current position.
    fn position(&self) -> Position {
        *self.lock().position()
    }

    fn core_rules(&self) -> CoreRules {
        self.lock().rules()
    }

    fn seat(&self, seat: Int) -> PyResult<u8> {
        Rules(self.core_rules()).seat(seat)
    }

    fn viewer(&self, seat: Option<Int>) -> PyResult<Option<u8>> {
        seat.map(|s| self.seat(s)).transpose()
    }

    fn snapshot_value(&self, legal: bool, seat: Option<Int>) -> PyResult<serde_json::Value> {
        let viewer = self.viewer(seat)?;
        Ok(snapshot(&self.position(), viewer, legal))
    }

    fn information(&self, seat: Int) -> PyResult<Information> {
        let seat = self.seat(seat)?;
        Ok(self.position().information(seat))
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules=None, *, seed=None, pile=None, chance="sampled"))]
    #[allow(clippy::needless_pass_by_value)] // pyo3 extracts a Vec
    fn new(
        rules: Option<Rules>,
        seed: Option<&Bound<'_, PyAny>>,
        pile: Option<Vec<Int>>,
        chance: &str,
    ) -> PyResult<Self> {
        let rules = rules.map_or_else(CoreRules::default, |r| r.0);
        let seed = seed.map(extract_seed).transpose()?;
        let pile = pile.as_deref().map(to_tiles).transpose()?;
        CoreGame::start(rules, chance, seed, pile.as_deref(), os_seed)
            .map(Game::wrap)
            .map_err(IndigoError::new_err)
    }

    #[staticmethod]
    fn from_record(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = record_text(record, |message| {
            record_error(
                py,
                &CoreRecordError {
                    at: ErrorAt::Field("format"),
                    message,
                },
            )
        })?;
        py.detach(|| read_record(&text))
            .map(Game::wrap)
            .map_err(|e| record_error(py, &e))
    }

    fn to_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        // The record is made under the lock, turned into Python objects after it.
        let record = write_record(&self.lock());
        json_to_py(py, &record)
    }

    fn record_json(&self) -> String {
        write_record(&self.lock()).to_string()
    }

    #[pyo3(signature = (*, legal=false, seat=None))]
    fn snapshot<'py>(
        &self,
        py: Python<'py>,
        legal: bool,
        seat: Option<Int>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let snapshot = self.snapshot_value(legal, seat)?;
        json_to_py(py, &snapshot)
    }

    #[pyo3(signature = (*, legal=false, seat=None))]
    fn snapshot_json(&self, legal: bool, seat: Option<Int>) -> PyResult<String> {
        Ok(self.snapshot_value(legal, seat)?.to_string())
    }

    #[getter]
    fn rules(&self) -> Rules {
        Rules(self.lock().rules())
    }

    #[getter]
    fn seed(&self) -> Option<u64> {
        self.lock().seed()
    }

    #[getter]
    fn pile(&self) -> Vec<u32> {
        tile_list(self.lock().position().pile().into_iter())
    }

    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.lock().position().to_move()
    }

    #[getter]
    fn placed(&self) -> u8 {
        self.lock().position().placed()
    }

    #[getter]
    fn pile_left(&self) -> u8 {
        self.lock().position().pile_left()
    }

    #[getter]
    fn hands(&self) -> Vec<Vec<u32>> {
        let position = self.position();
        (0..position.rules().players())
            .map(|s| tile_list(position.hand(s)))
            .collect()
    }

    fn hand(&self, seat: Int) -> PyResult<Vec<u32>> {
        let seat = self.seat(seat)?;
        Ok(tile_list(self.position().hand(seat)))
    }

    fn visible_hands(&self, seat: Int) -> PyResult<Vec<Vec<Option<u8>>>> {
        let viewer = self.seat(seat)?;
        let hands = self.lock().visible_hands(viewer);
        Ok(hands
            .iter()
            .map(|hand| hand.iter().map(|t| t.map(TileType::index)).collect())
            .collect())
    }

    #[getter]
    fn board(&self) -> std::collections::BTreeMap<(i32, i32), (u8, u8)> {
        let position = self.position();
        ROUTE_CELLS
            .iter()
            .filter_map(|&c| {
                position
                    .tile_at(c)
                    .map(|(t, rho)| (axial(c), (t.index(), rho)))
            })
            .collect()
    }

    fn tile_at(&self, q: Int, r: Int) -> PyResult<Option<(u8, u8)>> {
        let cell = CoreMove::cell(q.0, r.0).map_err(|e| IndigoError::new_err(e.0))?;
        Ok(self
            .position()
            .tile_at(cell)
            .map(|(t, rho)| (t.index(), rho)))
    }

    #[getter]
    fn gems(&self) -> Vec<(&'static str, i32, i32, u8)> {
        self.lock()
            .position()
            .gems()
            .map(|(c, e, g)| (g.as_str(), c.q(), c.r(), e))
            .collect()
    }

    #[getter]
    fn centre(&self) -> Vec<&'static str> {
        self.lock()
            .position()
            .centre()
            .iter()
            .map(|&g| g.as_str())
            .collect()
    }

    #[getter]
    fn scores(&self) -> Vec<u16> {
        let position = self.position();
        position.scores()[..usize::from(position.rules().players())].to_vec()
    }

    #[getter]
    fn collected<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let position = self.position();
        position.collected()[..usize::from(position.rules().players())]
            .iter()
            .map(|c| {
                let d = PyDict::new(py);
                for g in Gem::ALL {
                    d.set_item(g.as_str(), c[g as usize])?;
                }
                Ok(d)
            })
            .collect()
    }

    #[getter]
    fn removed(&self) -> u8 {
        self.lock().position().removed()
    }

    #[getter]
    fn over(&self) -> bool {
        self.lock().position().is_over()
    }

    /// Deprecated: read `over`.
    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        deprecated(py, "Game.is_over()", "Game.over")?;
        Ok(self.lock().position().is_over())
    }

    #[getter]
    fn winners(&self) -> Vec<u32> {
        let position = self.position();
        seats(position.winners(), position.rules().players())
    }

    #[getter]
    fn legal_moves(&self) -> Vec<Move> {
        self.lock()
            .position()
            .legal_moves()
            .into_iter()
            .map(Move)
            .collect()
    }

    fn is_legal(&self, r#move: MoveArg) -> PyResult<bool> {
        let mv = r#move.resolve()?;
        Ok(self.position().check(mv).is_ok())
    }

    fn play(&self, r#move: MoveArg) -> PyResult<MoveResult> {
        let mv = r#move.resolve()?;
        let mut game = self.lock();
        let players = game.rules().players();
        match game.play(mv) {
            Ok(effects) => Ok(MoveResult {
                effects: effects.clone(),
                players,
            }),
            Err(e) => Err(IllegalMoveError::new_err(format!("{mv} is illegal: {e}"))),
        }
    }

    fn undo(&self) -> PyResult<Move> {
        self.lock()
            .undo()
            .map(Move)
            .ok_or_else(|| IndigoError::new_err("no move to undo: the game is at its start"))
    }

    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.lock().moves().map(Move).collect()
    }

    #[getter]
    fn last_result(&self) -> Option<MoveResult> {
        let game = self.lock();
        game.last_effects().map(|effects| MoveResult {
            effects: effects.clone(),
            players: game.rules().players(),
        })
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    /// Deprecated: call `clone()`.
    fn copy(&self, py: Python<'_>) -> PyResult<Self> {
        deprecated(py, "Game.copy()", "Game.clone()")?;
        Ok(Clone::clone(self))
    }

    fn __copy__(&self) -> Self {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Clone::clone(self)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        match other.cast::<Game>() {
            // Copies first: `other` may be `self`, and the lock is not reentrant.
            Ok(other) => Ok((self.position() == other.get().position())
                .into_pyobject(py)?
                .to_owned()
                .into_any()
                .unbind()),
            Err(_) => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.lock().position().hash(&mut hasher);
        hasher.finish()
    }

    fn __getstate__(&self) -> String {
        write_record(&self.lock()).to_string()
    }

    fn __setstate__(&self, py: Python<'_>, state: &str) -> PyResult<()> {
        *self.lock() = read_record(state).map_err(|e| record_error(py, &e))?;
        Ok(())
    }

    /// The board as SVG, for Jupyter: drawn by `indigo.render.svg.game_svg`.
    /// Whether draws are chance nodes that the caller applies.
    #[getter]
    fn explicit_chance(&self) -> bool {
        self.lock().position().is_explicit_chance()
    }

    /// Whether a draw waits for its outcome (explicit chance only): `is_chance_node()`, as in
    /// OpenSpiel (for one release the attribute also reads as a bool, with a warning).
    #[getter]
    fn is_chance_node<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = self.lock().position().is_chance_node();
        transitional(py, "IsChanceNode", value)
    }

    /// The seat that draws at a chance node, else `None`.
    #[getter]
    fn chance_seat(&self) -> Option<u8> {
        match self.lock().position().phase() {
            Phase::Draw(seat) => Some(seat),
            Phase::Move(_) | Phase::Over => None,
        }
    }

    /// At a chance node, each tile type still in the pile with its probability.
    fn chance_outcomes(&self) -> Vec<(u8, f64)> {
        let outcomes = self.lock().chance_outcomes();
        outcomes.into_iter().map(|(t, p)| (t.index(), p)).collect()
    }

    /// Applies a chance outcome: the drawing seat takes a tile of this type.
    fn apply_chance(&self, tile: Int) -> PyResult<()> {
        let tile =
            CoreMove::tile_type(tile.0).map_err(|e| MoveError::new_err(format!("tile {}", e.0)))?;
        self.lock()
            .apply_draw(tile)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// The legal action numbers, ascending (the order of `legal_moves`): `legal_actions()`, as
    /// in OpenSpiel (for one release the attribute also reads as a list, with a warning).
    #[getter]
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let actions: Vec<usize> = self
            .lock()
            .position()
            .legal_actions()
            .into_iter()
            .map(Action::index)
            .collect();
        transitional(py, "LegalActions", actions)
    }

    /// A boolean numpy array of `ACTION_COUNT` entries, true where the action is legal.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; ACTION_COUNT];
        self.lock()
            .position()
            .legal_action_set()
            .write_mask(&mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// `seat`'s observation as a float32 numpy array laid out as `OBSERVATION_LAYOUT` says.
    fn observation<'py>(&self, py: Python<'py>, seat: Int) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let mut out = [0f32; OBSERVATION_SIZE];
        self.information(seat)?.observation(&mut out);
        Ok(PyArray1::from_slice(py, &out))
    }

    /// `seat`'s observation as text: the public part, `|`, its own hand.
    fn observation_string(&self, seat: Int) -> PyResult<String> {
        Ok(self.information(seat)?.observation_string())
    }

    /// The public part of every seat's information state (moves, draws made, the board).
    fn public_information_string(&self) -> String {
        self.lock().public_information_string()
    }

    /// The private part of `seat`'s information state: the tiles it has taken, in order.
    fn private_information_string(&self, seat: Int) -> PyResult<String> {
        let seat = self.seat(seat)?;
        Ok(self.lock().private_information_string(seat))
    }

    /// `seat`'s information state (perfect recall): public part, `|`, private part.
    fn information_state_string(&self, seat: Int) -> PyResult<String> {
        let seat = self.seat(seat)?;
        Ok(self.lock().information_state_string(seat))
    }

    /// A stable 64-bit hash of `information_state_string(seat)`.
    fn information_state_hash(&self, seat: Int) -> PyResult<u64> {
        let seat = self.seat(seat)?;
        Ok(self.lock().information_state_hash(seat))
    }

    /// A game consistent with what `seat` knows (same moves, its own tiles, every public
    /// fact), the hidden tiles drawn at random from those it has not seen.
    #[pyo3(signature = (seat, *, seed=None))]
    fn resample(&self, seat: Int, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seat = self.seat(seat)?;
        let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
        Ok(Game::wrap(self.lock().resample_seeded(seat, seed)))
    }

    /// Each seat's return: `"points"` (so far), `"win"` (winners share 1) or `"rank"` (share
    /// of opponents beaten, ties half); win and rank are 0 until the game is over.
    #[pyo3(signature = (utility="points"))]
    fn returns(&self, utility: &str) -> PyResult<Vec<f64>> {
        let utility = parse_utility(utility)?;
        let position = self.position();
        let players = usize::from(position.rules().players());
        Ok(position.returns(utility)[..players].to_vec())
    }

    /// Points each seat gained with the last move (zeros before the first): `rewards()`, as in
    /// OpenSpiel (for one release the attribute also reads as a list, with a warning).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let game = self.lock();
        let players = usize::from(game.rules().players());
        transitional(py, "Rewards", game.last_points()[..players].to_vec())
    }

    fn _repr_svg_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("indigo.render.svg")?
            .call_method1("game_svg", (slf,))
    }

    fn __repr__(&self) -> String {
        let p = self.position();
        format!(
            "<Game players={} hand_size={} placed={} to_move={} scores={:?}>",
            p.rules().players(),
            p.rules().hand_size(),
            p.placed(),
            p.to_move()
                .map_or_else(|| "None".to_owned(), |s| s.to_string()),
            self.scores()
        )
    }
}

/// A Python class around a bot that plays without searching, built from a seed (the OS
/// seeds it without one).
macro_rules! seeded_bot {
    ($(#[$doc:meta])* $name:ident($spec:expr)) => {
        $(#[$doc])*
        #[pyclass(module = "indigo", frozen)]
        struct $name(SpecBot<Position>);

        impl $name {
            fn new_seeded(seed: u64) -> Self {
                $name(SpecBot::new($spec, seed))
            }
        }

        #[pymethods]
        impl $name {
            #[new]
            #[pyo3(signature = (seed=None))]
            fn new(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
                let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
                Ok($name::new_seeded(seed))
            }

            fn choose(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<Move> {
                // A copy: the game is not locked while the bot thinks, so other threads may
                // still play on it.
                let position = game.get().position();
                self.0.choose(py, &position).map(|a| Move(a.to_move()))
            }
        }
    };
}

seeded_bot!(
    /// Plays a uniformly random distinct legal placement.
    RandomBot(BotSpec::Random)
);
seeded_bot!(
    /// Plays the placement that gains most points for itself, then fewest for its opponents.
    GreedyBot(BotSpec::Greedy)
);
seeded_bot!(
    /// The benchmarks' playout policy: a uniformly random empty route cell, then a uniformly
    /// random legal rotation of a random tile in hand. Cheaper than :class:`RandomBot`.
    PlayoutBot(BotSpec::Playout)
);

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
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
    m.add("IndigoError", py.get_type::<IndigoError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add_class::<Rules>()?;
    m.add_class::<Move>()?;
    m.add_class::<GemPath>()?;
    m.add_class::<MoveResult>()?;
    m.add_class::<Game>()?;
    m.add_class::<RandomBot>()?;
    m.add_class::<GreedyBot>()?;
    m.add_class::<PlayoutBot>()?;
    search::register(m)?;
    puct::register(m)?;
    bench::register(m)?;
    m.add_class::<vector::VectorGames>()?;
    queens_garden::register(m)?;
    Ok(())
}
