//! Indigo's game: `indigo.Game`, its records, snapshots and the search-AI interface.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::MutexGuard;

use indigo_game::Move as CoreMove;
use indigo_game::{
    ACTION_COUNT, Action, ErrorAt, Game as CoreGame, Gem, Information, OBSERVATION_SIZE, Phase,
    Position, ROUTE_CELLS, RecordError as CoreRecordError, Rules as CoreRules, TileType,
    read_record, snapshot, write_record_checked,
};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{
    ChanceArg, Int, Text, UtilityArg, extract_seed, json_to_py, os_seed, record_text, seats,
};
use crate::errors::{IllegalMoveError, IndigoError, MoveError, record_error};
use crate::indigo::moves::{Move, MoveArg, MoveResult, axial, tile_list};
use crate::indigo::rules::{Rules, parse_utility};
use crate::shared::Locked;

/// A game in progress: position, history and undo.
/// Each call locks it only while Rust works on it and never while Python code runs, so
/// threads sharing a game take turns call by call.
#[pyclass(module = "indigo", frozen)]
#[derive(Clone)]
pub(crate) struct Game(Locked<CoreGame>);

fn to_tiles(pile: &[Int]) -> PyResult<Vec<TileType>> {
    pile.iter()
        .enumerate()
        .map(|(i, &t)| {
            CoreMove::tile_type(t.0)
                .map_err(|e| IndigoError::new_err(t.refusal(&format!("pile[{i}] {}", e.0))))
        })
        .collect()
}

impl Game {
    pub(crate) fn wrap(game: CoreGame) -> Self {
        Game(Locked::new(game))
    }

    /// The game, locked until the guard is dropped ([`Locked::lock`]).
    fn lock(&self) -> MutexGuard<'_, CoreGame> {
        self.0.lock()
    }

    /// A copy of the current position.
    pub(crate) fn position(&self) -> Position {
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

    /// The game's record; refused for a game from a mid-game position, which no record
    /// describes.
    fn record(&self) -> PyResult<serde_json::Value> {
        write_record_checked(&self.lock()).map_err(IndigoError::new_err)
    }

    fn information(&self, seat: Int) -> PyResult<Information> {
        let seat = self.seat(seat)?;
        Ok(self.position().information(seat))
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(
        signature = (rules=None, *, seed=None, pile=None, chance=Text::new("sampled")),
        text_signature = "(rules=None, *, seed=None, pile=None, chance='sampled')"
    )]
    #[allow(clippy::needless_pass_by_value)] // pyo3 extracts a Vec
    fn new(
        rules: Option<Rules>,
        seed: Option<&Bound<'_, PyAny>>,
        pile: Option<Vec<Int>>,
        chance: Text<ChanceArg>,
    ) -> PyResult<Self> {
        let chance = chance.0.as_str();
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
                    at: ErrorAt::Field("format".into()),
                    message,
                },
            )
        })?;
        py.detach(|| read_record(&text))
            .map(Game::wrap)
            .map_err(|e| record_error(py, &e))
    }

    /// The game at the position ``text`` describes (docs/notation.md, "Positions as text"),
    /// with no moves before it; the pile's order is drawn from ``seed`` (the operating system
    /// picks one when ``None``). A bad text raises :class:`~indigo.RecordError` naming its field.
    #[classmethod]
    #[pyo3(name = "from_position", signature = (text, *, seed=None))]
    fn from_position_text(
        _cls: &Bound<'_, pyo3::types::PyType>,
        py: Python<'_>,
        text: &str,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let seed = seed.map_or_else(|| Ok(os_seed()), extract_seed)?;
        Position::from_text(text, seed)
            .map(|p| Game::wrap(CoreGame::from_position(p)))
            .map_err(|e| record_error(py, &e))
    }

    /// The position as one line of text (docs/notation.md, "Positions as text").
    #[pyo3(name = "position")]
    fn position_text(&self) -> String {
        self.lock().position().to_text()
    }

    fn to_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        // The record is made under the lock, turned into Python objects after it.
        let record = self.record()?;
        json_to_py(py, &record)
    }

    fn record_json(&self) -> PyResult<String> {
        Ok(self.record()?.to_string())
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

    /// Moves played so far (each places one tile).
    #[getter]
    fn moves_played(&self) -> u8 {
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

    fn __getstate__(&self) -> PyResult<String> {
        Ok(self.record()?.to_string())
    }

    fn __setstate__(&self, py: Python<'_>, state: &str) -> PyResult<()> {
        *self.lock() = read_record(state).map_err(|e| record_error(py, &e))?;
        Ok(())
    }

    /// Whether draws are chance nodes that the caller applies.
    #[getter]
    fn explicit_chance(&self) -> bool {
        self.lock().position().is_explicit_chance()
    }

    /// Whether a draw waits for its outcome (explicit chance only).
    fn is_chance_node(&self) -> bool {
        self.lock().position().is_chance_node()
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

    /// OpenSpiel's ``apply_action``: at a chance node ``action`` is the tile type drawn (the
    /// drawing seat takes it), else the placement's action number. Bad or illegal actions
    /// raise a typed error and change nothing.
    fn apply_action(&self, action: Int) -> PyResult<()> {
        let mut game = self.lock();
        if game.position().is_chance_node() {
            let tile = CoreMove::tile_type(action.0)
                .map_err(|e| MoveError::new_err(action.refusal(&format!("tile {}", e.0))))?;
            return game
                .apply_draw(tile)
                .map_err(|e| IllegalMoveError::new_err(e.to_string()));
        }
        let mv = crate::indigo::moves::action(action)?.to_move();
        game.play(mv)
            .map(drop)
            .map_err(|e| IllegalMoveError::new_err(format!("{mv} is illegal: {e}")))
    }

    /// The legal action numbers, ascending (the order of `legal_moves`).
    fn legal_actions(&self) -> Vec<usize> {
        let actions = self.lock().position().legal_actions();
        actions.into_iter().map(Action::index).collect()
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
    #[pyo3(signature = (utility=Text::new("points")), text_signature = "($self, utility='points')")]
    fn returns(&self, utility: Text<UtilityArg>) -> PyResult<Vec<f64>> {
        let utility = parse_utility(&utility.into_inner())?;
        let position = self.position();
        let players = usize::from(position.rules().players());
        Ok(position.returns(utility)[..players].to_vec())
    }

    /// Points each seat gained with the last move (zeros before the first).
    fn rewards(&self) -> Vec<u16> {
        let game = self.lock();
        let players = usize::from(game.rules().players());
        game.last_points()[..players].to_vec()
    }

    /// The board and the status as ``indigo play`` draws them (``indigo.render.terminal``).
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py()
            .import("indigo.render.terminal")?
            .call_method1("game_text", (slf,))?
            .extract()
    }

    fn _repr_svg_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("indigo.render.svg")?
            .call_method1("game_svg", (slf,))
    }

    fn __repr__(&self) -> String {
        let p = self.position();
        format!(
            "<Game players={} hand_size={} moves_played={} to_move={} scores={:?}>",
            p.rules().players(),
            p.rules().hand_size(),
            p.placed(),
            p.to_move()
                .map_or_else(|| "None".to_owned(), |s| s.to_string()),
            self.scores()
        )
    }
}
