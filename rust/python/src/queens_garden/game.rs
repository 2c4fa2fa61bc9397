//! Queen's Garden's game: `indigo.queens_garden.Game`, its records, snapshots, pickles, explicit
//! chance and the search-AI interface (actions, observation, information, resampling).

use std::sync::MutexGuard;

use ::queens_garden::{
    ChanceEvent, ErrorAt, Game as CoreGame, Kind, Move as CoreMove, OBSERVATION_SIZE,
    RecordError as CoreRecordError, Rules as CoreRules, Utility,
};
use indigo_search::Game as _;
use numpy::PyArray1;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::{Int, Text, UtilityArg, extract_seed, json_to_py, os_seed, record_text};
use crate::errors::{IllegalMoveError, IndigoError, record_error};
use crate::queens_garden::moves::{Move, MoveArg, MoveResult, action};
use crate::queens_garden::rules::Rules;
use crate::shared::Locked;

/// A record that is not JSON text at all: named at `record` (docs/spec/QG_FORMATS.md check 1).
fn not_json(py: Python<'_>, message: String) -> PyErr {
    record_error(
        py,
        &CoreRecordError {
            at: ErrorAt::Field("record".into()),
            message,
        },
    )
}

/// A Queen's Garden game: the position, its history, undo, records and snapshots.
///
/// ``Game(rules, seed=S)`` sets up from CPython's ``random.Random(S)`` (see
/// ``docs/queens-garden.md``); without a seed the operating system picks one.
/// Threads may share one: each call locks it only while Rust works on it.
#[pyclass(module = "indigo.queens_garden", frozen)]
#[derive(Clone)]
pub(crate) struct Game(Locked<CoreGame>);

impl Game {
    pub(crate) fn wrap(game: CoreGame) -> Self {
        Game(Locked::new(game))
    }

    /// The game, locked until the guard is dropped ([`Locked::lock`]).
    fn lock(&self) -> MutexGuard<'_, CoreGame> {
        self.0.lock()
    }

    /// A copy of the current position.
    pub(crate) fn position(&self) -> ::queens_garden::Position {
        self.lock().position().clone()
    }

    /// A game starting at `position`, with no history.
    pub(crate) fn from_position(position: ::queens_garden::Position) -> Game {
        Game::wrap(CoreGame::from_position(position))
    }

    /// Plays a trusted-or-not move: illegal ones raise and change nothing.
    fn play_move(&self, mv: CoreMove) -> PyResult<MoveResult> {
        let mut game = self.lock();
        game.play(&mv)
            .map_err(|e| IllegalMoveError::new_err(format!("{mv} is illegal: {e}")))?;
        last_result(&game).ok_or_else(|| IndigoError::new_err("no move was played"))
    }

    /// The action's move; :class:`~indigo.IndigoError` if it names none.
    fn action_move(action_number: Int) -> PyResult<CoreMove> {
        action(action_number).map(::queens_garden::Action::to_move)
    }

    /// The move's chance event, an illegal move raising.
    fn event(&self, mv: &CoreMove) -> PyResult<ChanceEvent> {
        self.lock()
            .position()
            .chance_event(mv)
            .map_err(|e| IllegalMoveError::new_err(format!("{mv} is illegal: {e}")))
    }

    /// `seat` checked against the game's seats.
    fn seat(&self, seat: Int) -> PyResult<u8> {
        let players = self.lock().rules().players();
        u8::try_from(seat.0)
            .ok()
            .filter(|&s| s < players)
            .ok_or_else(|| {
                IndigoError::new_err(format!("seat must be 0 to {}, not {seat}", players - 1))
            })
    }
}

impl Game {
    fn snapshot_value(&self, legal: bool) -> serde_json::Value {
        self.lock().snapshot(legal)
    }

    /// One field of the position's snapshot, as Python data.
    fn field<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.snapshot_value(false)[name])
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules=None, *, seed=None))]
    fn new(rules: Option<Rules>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let rules = rules.map_or_else(CoreRules::default, |r| r.0);
        let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
        Ok(Game::wrap(CoreGame::from_seed(rules, seed)))
    }

    /// The game a ``queens-garden-record/1`` describes (JSON text, UTF-8 bytes or parsed);
    /// :class:`~indigo.RecordError` names the first bad field or move.
    #[staticmethod]
    fn from_record(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = record_text(record, |message| not_json(py, message))?;
        py.detach(|| ::queens_garden::read_record(&text))
            .map(Game::wrap)
            .map_err(|e| record_error(py, &e))
    }

    /// The game at the position ``text`` describes (docs/queens-garden.md, "Positions as
    /// text"), with no moves before it; what is hidden (the bag's order, the unseen
    /// expansions, the refills) is drawn from ``seed`` (the operating system picks one when
    /// ``None``). A bad text raises :class:`~indigo.RecordError` naming its field.
    #[classmethod]
    #[pyo3(name = "from_position", signature = (text, *, seed=None))]
    fn from_position_text(
        _cls: &Bound<'_, pyo3::types::PyType>,
        py: Python<'_>,
        text: &str,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let seed = seed.map_or_else(|| Ok(os_seed()), extract_seed)?;
        ::queens_garden::Position::from_text(text, seed)
            .map(Game::from_position)
            .map_err(|e| record_error(py, &e))
    }

    /// The position as one line of text (docs/queens-garden.md, "Positions as text").
    #[pyo3(name = "position")]
    fn position_text(&self) -> String {
        self.lock().position().to_text()
    }

    #[getter]
    fn rules(&self) -> Rules {
        Rules(*self.lock().rules())
    }

    /// The seed that deals the game's chance, ``None`` for a game read from a record.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.lock().seed()
    }

    /// The moves played so far, canonical.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.lock().moves().into_iter().map(Move).collect()
    }

    /// Every distinct legal move of the seat to move in canonical order, ``pass`` once
    /// (without discards); empty when the game is over.
    #[getter]
    fn legal_moves(&self) -> Vec<Move> {
        self.lock().legal_moves().into_iter().map(Move).collect()
    }

    fn is_legal(&self, r#move: MoveArg) -> PyResult<bool> {
        let mv = r#move.resolve()?;
        Ok(self.lock().position().is_legal(&mv))
    }

    /// Plays ``move`` (a move, its text or its action number) for the seat to move and says
    /// what it did. An illegal move raises :class:`~indigo.IllegalMoveError`, bad notation
    /// :class:`~indigo.MoveError`; either way nothing changes.
    fn play(&self, r#move: MoveArg) -> PyResult<MoveResult> {
        let mv = r#move.resolve()?;
        self.play_move(mv)
    }

    /// What the last move did, ``None`` at the start.
    #[getter]
    fn last_result(&self) -> Option<MoveResult> {
        last_result(&self.lock())
    }

    /// Takes back the last move and returns it; :class:`~indigo.IndigoError` at the start.
    fn undo(&self) -> PyResult<Move> {
        self.lock()
            .undo()
            .map(Move)
            .ok_or_else(|| IndigoError::new_err("no move to undo: the game is at its start"))
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Self {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Clone::clone(self)
    }

    /// Equal games: the same position, hidden information and source of refills included.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        match other.cast::<Game>() {
            // A copy first: `other` may be `self`, and the lock is not reentrant.
            Ok(other) => Ok((self.position() == *other.get().lock().position())
                .into_pyobject(py)?
                .to_owned()
                .into_any()
                .unbind()),
            Err(_) => Ok(py.NotImplemented()),
        }
    }

    /// The game's full state (``queens-garden-state/1`` as UTF-8 JSON): a pickle restores it
    /// exactly, hidden information, source of refills and undo history included.
    fn __getstate__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let state = self.lock().to_state().to_string();
        PyBytes::new(py, state.as_bytes())
    }

    /// Reads a state from ``__getstate__``; bad state raises :class:`~indigo.RecordError` and changes nothing.
    fn __setstate__(&self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = state.py();
        let bytes = state
            .cast::<PyBytes>()
            .map_err(|_| PyTypeError::new_err("a Queen's Garden game's pickled state is bytes"))?;
        let bytes = bytes.as_bytes().to_vec();
        // Read without the GIL and without the lock, which a thread waiting with the GIL
        // would then never see released; put in place after.
        let game = py
            .detach(|| {
                let value = serde_json::from_slice(&bytes).map_err(|e| CoreRecordError {
                    at: ErrorAt::Field("state".into()),
                    message: format!("a game's state is JSON text ({e})"),
                })?;
                CoreGame::from_state(&value)
            })
            .map_err(|e| record_error(py, &e))?;
        *self.lock() = game;
        Ok(())
    }

    /// The ``queens-garden-record/1`` of the game so far (refills used so far included).
    fn to_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        // The record is made under the lock, turned into Python objects after it.
        let record = self.lock().to_record();
        json_to_py(py, &record)
    }

    fn record_json(&self) -> String {
        self.lock().to_record().to_string()
    }

    /// The ``queens-garden-snapshot/1`` of the position, with ``legal`` when asked.
    #[pyo3(signature = (*, legal=false))]
    fn snapshot<'py>(&self, py: Python<'py>, legal: bool) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.snapshot_value(legal))
    }

    #[pyo3(signature = (*, legal=false))]
    fn snapshot_json(&self, legal: bool) -> String {
        self.snapshot_value(legal).to_string()
    }

    /// 1..4 (4 after the end).
    #[getter]
    fn round(&self) -> u8 {
        self.lock().position().round()
    }

    #[getter]
    fn phase(&self) -> &'static str {
        self.lock().position().phase().as_str()
    }

    #[getter]
    fn moves_played(&self) -> u32 {
        self.lock().position().moves_played()
    }

    /// The seat to move, ``None`` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.lock().position().to_move()
    }

    #[getter]
    fn scores(&self) -> Vec<u32> {
        self.lock().position().scores().to_vec()
    }

    #[getter]
    fn storages<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "storage")
    }

    #[getter]
    fn gardens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "gardens")
    }

    /// The current round stack, ``None`` once used up.
    #[getter]
    fn stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "stack")
    }

    /// The expansions that left the stack this round, by slot.
    #[getter]
    fn display<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "display")
    }

    #[getter]
    fn bag_size(&self) -> usize {
        self.lock().position().bag_len()
    }

    /// The tiles in the tower (discard pile), sorted by kind id.
    #[getter]
    fn tower(&self) -> Vec<String> {
        self.lock()
            .position()
            .tower()
            .map(|k| k.to_string())
            .collect()
    }

    /// Face-down expansions in the supply.
    #[getter]
    fn supply_size(&self) -> usize {
        self.lock().position().supply()
    }

    #[getter]
    fn refills_used(&self) -> usize {
        self.lock().position().refills_used()
    }

    #[getter]
    fn passed(&self) -> Vec<bool> {
        self.lock().position().passed().to_vec()
    }

    #[getter]
    fn start_player(&self) -> u8 {
        self.lock().position().start_player()
    }

    #[getter]
    fn first_passer(&self) -> Option<u8> {
        self.lock().position().first_passer()
    }

    /// Per finished round, each seat's round-scoring points.
    #[getter]
    fn round_points(&self) -> Vec<Vec<u32>> {
        self.lock()
            .position()
            .round_points()
            .into_iter()
            .map(<[u32]>::to_vec)
            .collect()
    }

    /// Per seat, the final scoring's storage change, group points and bonus; ``None`` until
    /// the game is over.
    #[getter]
    fn final_scoring<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, "final")
    }

    #[getter]
    fn over(&self) -> bool {
        self.lock().position().is_over()
    }

    /// The seats with the highest score, ascending; empty until the game is over.
    #[getter]
    fn winners(&self) -> Vec<u32> {
        // Not `Vec<u8>`, which pyo3 turns into `bytes`.
        self.lock()
            .position()
            .winners()
            .into_iter()
            .map(u32::from)
            .collect()
    }

    /// The legal actions of the fixed encoding (``docs/queens-garden.md``), ascending: the
    /// legal-move list's order; empty once over.
    fn legal_actions(&self) -> Vec<u32> {
        self.lock()
            .position()
            .legal_actions()
            .iter()
            .map(|a| a.index())
            .collect()
    }

    /// Plays the move that ``action`` names (OpenSpiel's ``apply_action``); an action that
    /// names no move or an illegal one raises a typed error and changes nothing.
    fn apply_action(&self, action: Int) -> PyResult<()> {
        self.play_move(Game::action_move(action)?).map(drop)
    }

    /// Always ``False``: Queen's Garden's chance happens inside a move (its draws and
    /// reveals, :meth:`chance_outcomes`), never at a node of its own.
    #[allow(clippy::unused_self)] // the shared vocabulary's method
    fn is_chance_node(&self) -> bool {
        false
    }

    /// What ``seat`` knows, as text (its seat, the expansions every player has seen and the
    /// public snapshot): equal exactly when the seat cannot tell two positions apart.
    fn information_state_string(&self, seat: Int) -> PyResult<String> {
        let seat = self.seat(seat)?;
        Ok(self.lock().position().information_string(seat))
    }

    /// A stable 64-bit hash of `information_state_string(seat)`.
    fn information_state_hash(&self, seat: Int) -> PyResult<u64> {
        let seat = self.seat(seat)?;
        Ok(self.lock().position().information_state_hash(seat))
    }

    /// What `seat` sees now, as text: its seat and the public snapshot (the information
    /// state also lists the expansions seen face up before).
    fn observation_string(&self, seat: Int) -> PyResult<String> {
        let seat = self.seat(seat)?;
        Ok(self.lock().position().observation_string(seat))
    }

    /// A position drawn from what ``seat`` knows: the bag's order, the expansions nobody has
    /// seen and the refills drawn anew (seeded by ``seed``). The result is a new game with no
    /// history (its record starts here).
    #[pyo3(signature = (seat, *, seed=None))]
    fn resample(&self, seat: Int, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Game> {
        let seat = self.seat(seat)?;
        let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
        let mut rng = <indigo_search::Rng as rand::SeedableRng>::seed_from_u64(seed);
        Ok(Game::from_position(
            self.lock().position().determinize(seat, &mut rng),
        ))
    }

    /// ``seat``'s observation as a float32 array laid out as ``OBSERVATION_LAYOUT`` says
    /// (``docs/queens-garden.md``, "Observation tensor").
    fn observation<'py>(&self, py: Python<'py>, seat: Int) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat(seat)?;
        let mut out = vec![0f32; OBSERVATION_SIZE];
        self.lock().position().observation(seat, &mut out);
        Ok(PyArray1::from_vec(py, out))
    }

    /// Explicit chance: the outcomes of the next chance step of playing ``action`` here,
    /// once ``chosen`` are the outcomes of the steps before (its draws from the bag, then its
    /// reveals of expansions nobody has seen), as ``(kind id, probability)``, ascending;
    /// empty when ``chosen`` completes them (always empty for a move without chance).
    #[pyo3(signature = (action, chosen=Vec::new()))]
    #[allow(clippy::needless_pass_by_value)] // pyo3 extracts a Vec
    fn chance_outcomes(&self, action: Int, chosen: Vec<Int>) -> PyResult<Vec<(u8, f64)>> {
        let mv = Game::action_move(action)?;
        next_outcomes(&self.event(&mv)?, &chosen)
    }

    /// How many chance steps playing ``action`` here takes: ``(draws, reveals)``.
    fn chance_steps(&self, action: Int) -> PyResult<(usize, usize)> {
        let event = self.event(&Game::action_move(action)?)?;
        Ok((event.draws(), event.reveals()))
    }

    /// The game after ``action`` with its chance steps given ``outcomes`` (kind ids: the
    /// draws, then the reveals): a new game with no history (its record starts there). An
    /// illegal action or impossible outcomes raise and change nothing.
    #[allow(clippy::needless_pass_by_value)] // pyo3 extracts a Vec
    fn successor(&self, action: Int, outcomes: Vec<Int>) -> PyResult<Game> {
        let mv = Game::action_move(action)?;
        let outcomes = kinds(&outcomes)?;
        let mut position = self.position();
        position
            .play_with_outcomes(&mv, &outcomes)
            .map_err(|e| IllegalMoveError::new_err(format!("{mv} with those outcomes: {e}")))?;
        Ok(Game::from_position(position))
    }

    /// Explicit chance at set-up: the outcomes of the next of the 4 draws for round 1's stack
    /// top once ``chosen`` are drawn, as :meth:`chance_outcomes` gives them.
    #[staticmethod]
    #[pyo3(signature = (chosen=Vec::new()))]
    #[allow(clippy::needless_pass_by_value)] // pyo3 extracts a Vec
    fn first_draw_outcomes(chosen: Vec<Int>) -> PyResult<Vec<(u8, f64)>> {
        next_outcomes(&ChanceEvent::setup(), &chosen)
    }

    /// The seeded set-up with round 1's stack top given the 4 kind ids ``draws`` (the rest
    /// of the bag and the expansions as the seed deals them).
    #[staticmethod]
    #[pyo3(signature = (rules, draws, *, seed=None))]
    #[allow(clippy::needless_pass_by_value)] // pyo3 extracts a Vec
    fn with_first_draws(
        rules: Rules,
        draws: Vec<Int>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
        let position = ::queens_garden::Position::with_first_draws(rules.0, seed, &kinds(&draws)?)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        Ok(Game::wrap(
            CoreGame::from_position(position).with_seed(Some(seed)),
        ))
    }

    /// Each seat's return: ``"points"`` (so far), ``"win"`` (winners share 1), ``"rank"``
    /// (share of opponents outscored, ties half) or ``"zero-sum"``; all but points are 0
    /// until the game is over.
    #[pyo3(signature = (utility=Text::new("points")), text_signature = "($self, utility='points')")]
    fn returns(&self, utility: Text<UtilityArg>) -> PyResult<Vec<f64>> {
        let utility: Utility = utility.into_inner().parse().map_err(IndigoError::new_err)?;
        Ok(self.lock().position().returns(utility))
    }

    /// Each seat's score change with the last move (zeros before the first).
    fn rewards(&self) -> Vec<i64> {
        self.lock().last_points()
    }

    /// Each seat's points as the ``greedy`` bot values them.
    fn greedy_points(&self) -> Vec<i64> {
        let game = self.lock();
        let players = usize::from(game.rules().players());
        game.position().greedy_points()[..players].to_vec()
    }

    /// A boolean mask over the ``ACTION_COUNT`` actions (about 8 MB: prefer
    /// :meth:`legal_actions`).
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; ::queens_garden::ACTION_COUNT as usize];
        for a in self.lock().position().legal_actions() {
            mask[a.index() as usize] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// The position as ``indigo play`` draws it (``indigo.queens_garden.terminal``).
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py()
            .import("indigo.queens_garden.terminal")?
            .call_method1("game_text", (slf,))?
            .extract()
    }

    /// The position as SVG, for Jupyter (``indigo.queens_garden.svg.game_svg``).
    fn _repr_svg_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("indigo.queens_garden.svg")?
            .call_method1("game_svg", (slf,))
    }

    fn __repr__(&self) -> String {
        let p = self.position();
        format!(
            "<queens_garden.Game players={} round={} moves_played={} to_move={} scores={:?}>",
            p.rules().players(),
            p.round(),
            p.moves_played(),
            p.to_move()
                .map_or_else(|| "None".to_owned(), |s| s.to_string()),
            p.scores()
        )
    }
}

/// What the last move did, `None` at the start.
fn last_result(game: &CoreGame) -> Option<MoveResult> {
    Some(MoveResult {
        mv: Move(game.last_move()?),
        seat: game.last_mover()?,
        points: game.last_points(),
        game_over: game.position().is_over(),
    })
}

/// Kind ids 0..35 as kinds; :class:`~indigo.IndigoError` names one that is not.
fn kinds(ids: &[Int]) -> PyResult<Vec<Kind>> {
    ids.iter()
        .map(|&id| {
            u8::try_from(id.0).ok().and_then(Kind::new).ok_or_else(|| {
                IndigoError::new_err(format!(
                    "a chance outcome is a kind id 0..35 (docs/queens-garden.md), not {id}"
                ))
            })
        })
        .collect()
}

/// The next step's outcomes as `(kind id, probability)`; a bad `chosen` raises.
fn next_outcomes(event: &ChanceEvent, chosen: &[Int]) -> PyResult<Vec<(u8, f64)>> {
    event
        .outcomes(&kinds(chosen)?)
        .map(|o| o.into_iter().map(|(k, p)| (k.id(), p)).collect())
        .map_err(|e| IllegalMoveError::new_err(e.to_string()))
}
