//! Indigo's bots: `RandomBot`, `GreedyBot`, `PlayoutBot` and `IsmctsBot` (each a
//! [`SpecBot`] over Indigo's position), the search result and bots by spec.

use indigo_game::{ACTION_COUNT, Position};
use indigo_search::{BotSpec, Budget, IsmctsConfig};
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::bots::{SpecBot, visit_policy};
use crate::convert::{
    Int, Real, Refusal, SpecArg, Text, extract_seed, in_range, os_seed, parse_spec, refused,
};
use crate::errors::IndigoError;
use crate::indigo::game::Game;
use crate::indigo::moves::Move;

/// A Python class around a bot that plays without searching, built from a seed (the OS
/// seeds it without one).
macro_rules! seeded_bot {
    ($(#[$doc:meta])* $name:ident($spec:expr)) => {
        $(#[$doc])*
        #[pyclass(module = "indigo", frozen)]
        pub(crate) struct $name(SpecBot<Position>);

        impl $name {
            pub(crate) fn new_seeded(seed: u64) -> Self {
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

/// Information-set MCTS: determinized simulations from what the mover knows.
/// Threads sharing one bot take turns with it, waiting without the GIL.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct IsmctsBot(SpecBot<Position>);

impl IsmctsBot {
    fn with(config: IsmctsConfig, seed: u64) -> Self {
        IsmctsBot(SpecBot::new(BotSpec::Ismcts(config), seed))
    }
}

/// PUCT steered by a network evaluated in Rust (a `net` spec of :func:`make_bot`): the
/// game's shipped network or a file's. Threads sharing one bot take turns with it, waiting
/// without the GIL; Ctrl-C stops its search.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct NetBot(SpecBot<Position>);

#[pymethods]
impl NetBot {
    /// The spec that names this bot's settings, e.g. `"net:200"`.
    #[getter]
    fn spec(&self) -> String {
        self.0.spec().to_string()
    }

    /// The move for the seat to move, from what that seat knows (GIL released); a network
    /// trained for another seat count raises :class:`~indigo.IndigoError`.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<Move> {
        let position = game.get().position();
        self.0.choose(py, &position).map(|a| Move(a.to_move()))
    }

    fn __repr__(&self) -> String {
        format!("<NetBot {}>", self.0.spec())
    }
}

/// What one ISMCTS search found.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct SearchResult {
    /// The most visited move.
    #[pyo3(get)]
    best: Move,
    /// Root visits per action number.
    #[pyo3(get)]
    visits: std::collections::BTreeMap<usize, u32>,
    /// Simulations run.
    #[pyo3(get)]
    simulations: u64,
    /// The mover's mean result (win share) over the best move's visits.
    #[pyo3(get)]
    value: f32,
}

#[pymethods]
impl SearchResult {
    /// Root visits as a float32 distribution over all actions (sums to 1).
    fn policy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        visit_policy(py, &self.visits, ACTION_COUNT)
    }

    fn __repr__(&self) -> String {
        format!(
            "<SearchResult best={} simulations={} value={:.3}>",
            self.best.0, self.simulations, self.value
        )
    }
}

impl IsmctsBot {
    fn run(
        &self,
        py: Python<'_>,
        game: &Bound<'_, Game>,
    ) -> PyResult<indigo_search::SearchResult<indigo_game::Action>> {
        // A copy, so the game is not locked while the search runs without the GIL.
        let position = game.get().position();
        self.0
            .search(py, &position)?
            .ok_or_else(|| unreachable!("an ISMCTS bot searches"))
    }
}

#[pymethods]
impl IsmctsBot {
    /// Settings are checked by the search crate (`IsmctsConfig`), with the same bounds as specs.
    #[new]
    #[pyo3(
        signature = (simulations=None, *, time=None, exploration=Real::new(0.7), threads=Int::new(1), seed=None),
        text_signature = "(simulations=None, *, time=None, exploration=0.7, threads=1, seed=None)"
    )]
    fn new(
        simulations: Option<Int>,
        time: Option<Real>,
        exploration: Real,
        threads: Int,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut given: Vec<&dyn Refusal> = vec![&threads, &exploration];
        given.extend(simulations.as_ref().map(|n| n as &dyn Refusal));
        given.extend(time.as_ref().map(|t| t as &dyn Refusal));
        let refusal = |e: indigo_search::SettingsError| IndigoError::new_err(refused(&e.0, &given));
        let budget = Budget::given(simulations.map(|n| n.0), time.map(|t| t.0)).map_err(refusal)?;
        let config = IsmctsConfig::new(budget, exploration.0, threads.0).map_err(refusal)?;
        let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
        Ok(IsmctsBot::with(config, seed))
    }

    /// The spec that names this bot's settings, e.g. `"ismcts:1000"`.
    #[getter]
    fn spec(&self) -> String {
        self.0.spec().to_string()
    }

    /// The move for the seat to move, from what that seat knows (GIL released).
    fn choose(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<Move> {
        self.run(py, game).map(|r| Move(r.best.to_move()))
    }

    /// The whole search result: best move, root visits per action, simulations, value.
    fn search(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<SearchResult> {
        let r = self.run(py, game)?;
        Ok(SearchResult {
            best: Move(r.best.to_move()),
            visits: r.visits.iter().map(|&(a, v)| (a.index(), v)).collect(),
            simulations: r.simulations,
            value: r.value,
        })
    }

    fn __repr__(&self) -> String {
        format!("<IsmctsBot {}>", self.spec())
    }
}

/// A bot from a spec: `random`, `greedy`, `playout`, `ismcts`, `ismcts:1000`, `ismcts:time=0.5`,
/// `ismcts:1000,c=0.7,threads=2`, `best`, `best:time=0.5`, `net`, `net:time=0.1`,
/// `net:file=PATH,400,threads=2`.
#[pyfunction]
#[pyo3(signature = (spec, *, seed=None))]
pub(crate) fn make_bot(
    py: Python<'_>,
    spec: Text<SpecArg>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let parsed = parse_spec(&spec.into_inner())?;
    let seed = seed.map(extract_seed).transpose()?.unwrap_or_else(os_seed);
    Ok(match parsed {
        BotSpec::Random => Py::new(py, RandomBot::new_seeded(seed))?.into_any(),
        BotSpec::Greedy => Py::new(py, GreedyBot::new_seeded(seed))?.into_any(),
        BotSpec::Playout => Py::new(py, PlayoutBot::new_seeded(seed))?.into_any(),
        searcher @ (BotSpec::Ismcts(_) | BotSpec::Best(_)) => {
            Py::new(py, IsmctsBot(SpecBot::new(searcher, seed)))?.into_any()
        }
        net @ BotSpec::Net(_) => Py::new(py, NetBot(SpecBot::checked(net, seed)?))?.into_any(),
    })
}

/// The canonical text of a bot spec (`"ismcts"` becomes `"ismcts:1000"`).
#[pyfunction]
pub(crate) fn normalize_bot_spec(spec: &str) -> PyResult<String> {
    parse_spec::<BotSpec, _>(spec).map(|s| s.to_string())
}

/// The seed `simulate` gives seat `seat`'s bot in the game seeded `game_seed` (an entry of
/// `Simulation.game_seeds`): `make_bot(spec, seed=seat_seed(g, s))` is that bot.
#[pyfunction]
pub(crate) fn seat_seed(game_seed: &Bound<'_, PyAny>, seat: Int) -> PyResult<u64> {
    let seat = in_range("seat", seat, 0, indigo_game::MAX_PLAYERS as u64 - 1)?;
    Ok(indigo_search::seat_seed(
        extract_seed(game_seed)?,
        seat as usize,
    ))
}
