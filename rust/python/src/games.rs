//! The games of the binding, for the classes that serve every game (`PuctBot`): what the
//! binding knows of each game ([`Served`]), and a game or rules of any of them as Python gives
//! them ([`AnyGame`], [`AnyRules`]).

use indigo_search::{Encoded, SelfPlayOf};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::{indigo, queens_garden};

/// A game as the binding serves it: its position implements the search crate's traits; this
/// adds its rules, its seeded start, its records and its Python classes.
pub(crate) trait Served: Encoded + Send + Sync {
    /// The rules, as the game's crate holds them.
    type Rules: Copy + Send + Sync;

    /// The seats of `rules`.
    fn seats(rules: Self::Rules) -> u8;

    /// Game `seed`'s start, as the game's `Game(rules, seed=...)` sets it up.
    fn start(rules: Self::Rules, seed: u64) -> Self;

    /// Self-play game `index`'s record as one line of JSON, `names` naming each seat's player.
    fn record(
        rules: Self::Rules,
        played: &SelfPlayOf<Self>,
        names: &[String],
        index: u64,
    ) -> String;

    /// `played`, with each game's record, as the game's self-play batch class.
    fn self_play_batch(
        py: Python<'_>,
        played: &[SelfPlayOf<Self>],
        records: Vec<String>,
    ) -> PyResult<Py<PyAny>>;

    /// `action` as the game's Python `Move`.
    fn to_move(py: Python<'_>, action: Self::Action) -> PyResult<Py<PyAny>>;
}

impl Served for indigo_game::Position {
    type Rules = indigo_game::Rules;

    fn seats(rules: indigo_game::Rules) -> u8 {
        rules.players()
    }

    fn start(rules: indigo_game::Rules, seed: u64) -> Self {
        *indigo_game::Game::from_seed(rules, seed).position()
    }

    fn record(
        rules: indigo_game::Rules,
        played: &SelfPlayOf<Self>,
        names: &[String],
        index: u64,
    ) -> String {
        indigo_game::self_play_record(rules, played, names, index).to_string()
    }

    fn self_play_batch(
        py: Python<'_>,
        played: &[SelfPlayOf<Self>],
        records: Vec<String>,
    ) -> PyResult<Py<PyAny>> {
        Ok(indigo::batch::SelfPlayBatch::of_games(py, played, records)?.into_any())
    }

    fn to_move(py: Python<'_>, action: indigo_game::Action) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, indigo::moves::Move(action.to_move()))?.into_any())
    }
}

impl Served for ::queens_garden::Position {
    type Rules = ::queens_garden::Rules;

    fn seats(rules: ::queens_garden::Rules) -> u8 {
        rules.players()
    }

    fn start(rules: ::queens_garden::Rules, seed: u64) -> Self {
        ::queens_garden::Position::from_seed(rules, seed)
    }

    fn record(
        rules: ::queens_garden::Rules,
        played: &SelfPlayOf<Self>,
        names: &[String],
        index: u64,
    ) -> String {
        ::queens_garden::self_play_record(rules, played, names, index).to_string()
    }

    fn self_play_batch(
        py: Python<'_>,
        played: &[SelfPlayOf<Self>],
        records: Vec<String>,
    ) -> PyResult<Py<PyAny>> {
        Ok(queens_garden::search::SelfPlayBatch::of_games(py, played, records)?.into_any())
    }

    fn to_move(py: Python<'_>, action: ::queens_garden::Action) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, queens_garden::moves::Move(action.to_move()))?.into_any())
    }
}

/// The Python name of `obj`'s type, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "that".into(), |n| n.to_string())
}

/// A game of any of the binding's games, as a copy of its position.
#[allow(clippy::large_enum_variant)] // one copy per call, never stored
pub(crate) enum AnyGame {
    Indigo(indigo_game::Position),
    QueensGarden(::queens_garden::Position),
}

impl<'py> FromPyObject<'_, 'py> for AnyGame {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        // A copy: the game is not locked while a search runs.
        if let Ok(game) = obj.cast::<indigo::game::Game>() {
            return Ok(AnyGame::Indigo(game.get().position()));
        }
        if let Ok(game) = obj.cast::<queens_garden::game::Game>() {
            return Ok(AnyGame::QueensGarden(game.get().position()));
        }
        Err(PyTypeError::new_err(format!(
            "game must be an indigo.Game or an indigo.queens_garden.Game, not {}",
            type_name(&obj)
        )))
    }
}

/// The rules of any of the binding's games.
#[derive(Clone, Copy)]
pub(crate) enum AnyRules {
    Indigo(indigo_game::Rules),
    QueensGarden(::queens_garden::Rules),
}

impl<'py> FromPyObject<'_, 'py> for AnyRules {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(rules) = obj.cast::<indigo::rules::Rules>() {
            return Ok(AnyRules::Indigo(rules.get().0));
        }
        if let Ok(rules) = obj.cast::<queens_garden::rules::Rules>() {
            return Ok(AnyRules::QueensGarden(rules.get().0));
        }
        Err(PyTypeError::new_err(format!(
            "rules must be the Rules of a game (indigo.Rules, indigo.queens_garden.Rules), not {}",
            type_name(&obj)
        )))
    }
}
