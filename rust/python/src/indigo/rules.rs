//! Indigo's rules: `indigo.Rules`, its presets and the names of its gems, gates and themes.

use indigo_game::{GateVariant, Gem, Rules as CoreRules, Theme, TieBreak, Utility, rules_to_json};
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::convert::{Int, Text, ThemeArg, json_to_py, seats};
use crate::errors::{IndigoError, RulesError};

pub(crate) fn parse_utility(name: &str) -> PyResult<Utility> {
    name.parse().map_err(IndigoError::new_err)
}

/// The core's seat count for rules that name none, as a signature's default.
fn default_players() -> Int {
    Int::new(CoreRules::DEFAULT_PLAYERS.into())
}

fn parse_theme(name: &str) -> PyResult<Theme> {
    name.parse()
        .map_err(|m| RulesError::new_err(format!("theme: {m}")))
}

pub(crate) fn parse_gem(name: &str) -> PyResult<Gem> {
    name.parse().map_err(IndigoError::new_err)
}

/// A validated rules configuration. Immutable and hashable.
#[pyclass(module = "indigo", frozen, eq, hash, from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Rules(pub(crate) CoreRules);

#[pymethods]
impl Rules {
    #[new]
    // What is not given is the core's (`CoreRules::new`); text_signature shows those values.
    #[pyo3(signature = (players=default_players(), hand_size=Int::new(CoreRules::DEFAULT_HAND_SIZE.into()), three_player_gates=None, tie_break=None, open_hands=None, theme=None), text_signature = "(players=2, hand_size=1, three_player_gates='shared', tie_break='most-gems', open_hands=False, theme='indigo')")]
    fn new(
        players: Int,
        hand_size: Int,
        three_player_gates: Option<&str>,
        tie_break: Option<&str>,
        open_hands: Option<bool>,
        theme: Option<Text<ThemeArg>>,
    ) -> PyResult<Self> {
        let mut rules = CoreRules::new(small(players), small(hand_size)).map_err(|e| {
            rules_error(
                &e,
                if e.field == "players" {
                    players
                } else {
                    hand_size
                },
            )
        })?;
        if let Some(gates) = three_player_gates {
            let gates: GateVariant = gates
                .parse()
                .map_err(|m| RulesError::new_err(format!("three_player_gates: {m}")))?;
            rules = rules.with_three_player_gates(gates);
        }
        if let Some(tie) = tie_break {
            let tie: TieBreak = tie
                .parse()
                .map_err(|m| RulesError::new_err(format!("tie_break: {m}")))?;
            rules = rules.with_tie_break(tie);
        }
        if let Some(open) = open_hands {
            rules = rules.with_open_hands(open);
        }
        if let Some(theme) = theme {
            rules = rules.with_theme(parse_theme(&theme.into_inner())?);
        }
        Ok(Rules(rules))
    }

    #[staticmethod]
    #[pyo3(signature = (players=default_players()), text_signature = "(players=2)")]
    fn indigo(players: Int) -> PyResult<Self> {
        preset(players, CoreRules::indigo)
    }

    #[staticmethod]
    #[pyo3(signature = (players=default_players()), text_signature = "(players=2)")]
    fn tactical(players: Int) -> PyResult<Self> {
        preset(players, CoreRules::tactical)
    }

    #[staticmethod]
    #[pyo3(signature = (players=default_players()), text_signature = "(players=2)")]
    fn butterfly_garden(players: Int) -> PyResult<Self> {
        preset(players, CoreRules::butterfly_garden)
    }

    /// The preset of a theme: `indigo` for "indigo", `butterfly_garden` for
    /// "butterfly-garden".
    #[staticmethod]
    #[pyo3(signature = (theme, players=default_players()), text_signature = "(theme, players=2)")]
    fn preset(theme: Text<ThemeArg>, players: Int) -> PyResult<Self> {
        let theme = parse_theme(&theme.into_inner())?;
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
fn small(Int(n, _): Int) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The core's refusal, naming the value the caller gave (not its `u8` stand-in).
fn rules_error(e: &indigo_game::RulesError, given: Int) -> PyErr {
    let message = e
        .message
        .rsplit_once(", not ")
        .map_or(e.message.as_str(), |(m, _)| m);
    RulesError::new_err(format!("{}: {message}, not {given}", e.field))
}

/// The preset `make` builds for `players`.
fn preset(
    players: Int,
    make: impl FnOnce(u8) -> Result<CoreRules, indigo_game::RulesError>,
) -> PyResult<Rules> {
    make(small(players))
        .map(Rules)
        .map_err(|e| rules_error(&e, players))
}

impl Rules {
    pub(crate) fn seat(&self, seat: Int) -> PyResult<u8> {
        self.0
            .seat(seat.0)
            .map_err(|e| IndigoError::new_err(seat.refusal(&format!("seat {}", e.message))))
    }
}
