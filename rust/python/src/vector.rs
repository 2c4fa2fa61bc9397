//! The vectorised games of every game: numpy arrays in and out around
//! `indigo_search::VectorGames`, one call into Rust per step with the GIL released. The game is
//! the one whose rules are given ([`AnyRules`]); everything else is the same for every game.

use std::sync::atomic::AtomicBool;

use indigo_game::IndigoSetup;
use indigo_search::{
    BotSpec, Contents, Encoded, Legal, LegalLists, Observations, Opponents, Outputs, Setup,
    VectorError, VectorGames as CoreVector, Vectored,
};
use numpy::{BorrowError, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::IntoPyDict;
use queens_garden::Rules as GardenRules;

use crate::convert::{Int, extract_seed, in_range, parse_spec};
use crate::errors::{IllegalMoveError, IndigoError};
use crate::games::AnyRules;
use crate::shared::{Held, LostInFork, ProcessLock};
use crate::watch::interruptible;

/// What the binding needs of a game's set-up besides the core's vector: its Python classes.
pub(crate) trait VectorSetup: Setup + Copy + Send + Sync + 'static
where
    Self::Game: Vectored,
{
    /// The set-up of `rules`' games.
    fn of(rules: AnyRules) -> Self;
    /// The Python `Rules` of these games.
    fn py_rules(&self, py: Python<'_>) -> PyResult<Py<PyAny>>;
    /// The Python `Game` seeded with `seed` after `actions`.
    fn py_game(
        &self,
        py: Python<'_>,
        seed: u64,
        actions: &[<Self::Game as indigo_search::Game>::Action],
    ) -> PyResult<Py<PyAny>>;
    /// The utility that `name` names.
    fn utility(name: &str) -> PyResult<<Self::Game as Vectored>::Utility>;
}

impl VectorSetup for IndigoSetup {
    fn of(rules: AnyRules) -> IndigoSetup {
        let AnyRules::Indigo(rules) = rules else {
            unreachable!("dispatched on the rules")
        };
        IndigoSetup {
            rules,
            deal: indigo_game::Deal::Python,
        }
    }
    fn py_rules(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, crate::indigo::rules::Rules(self.rules))?.into_any())
    }
    fn py_game(
        &self,
        py: Python<'_>,
        seed: u64,
        actions: &[indigo_game::Action],
    ) -> PyResult<Py<PyAny>> {
        let game = py.detach(|| indigo_game::episode_game(self.rules, seed, actions));
        Ok(Py::new(py, crate::indigo::game::Game::wrap(game))?.into_any())
    }
    fn utility(name: &str) -> PyResult<indigo_game::Utility> {
        crate::indigo::rules::parse_utility(name)
    }
}

impl VectorSetup for GardenRules {
    fn of(rules: AnyRules) -> GardenRules {
        let AnyRules::QueensGarden(rules) = rules else {
            unreachable!("dispatched on the rules")
        };
        rules
    }
    fn py_rules(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, crate::queens_garden::rules::Rules(*self))?.into_any())
    }
    fn py_game(
        &self,
        py: Python<'_>,
        seed: u64,
        actions: &[queens_garden::Action],
    ) -> PyResult<Py<PyAny>> {
        let game = py.detach(|| queens_garden::episode_game(*self, seed, actions));
        Ok(Py::new(py, crate::queens_garden::game::Game::wrap(game))?.into_any())
    }
    fn utility(name: &str) -> PyResult<queens_garden::Utility> {
        name.parse().map_err(IndigoError::new_err)
    }
}

/// `num_envs` games stepped together; see docs/envs.md for the semantics. Threads sharing
/// one take turns on its lock, which is only taken without the GIL or for a moment.
/// Subclassable: `indigo.VectorGames` is the Python subclass that also takes Python bots.
#[pyclass(module = "indigo", frozen, subclass)]
pub(crate) struct VectorGames {
    games: AnyVector,
    /// Whether bots search in the games' steps, which then answer Ctrl-C.
    searching: bool,
    /// Fixed at construction, so arrays are made without the lock.
    num_envs: usize,
    players: usize,
    /// The utility's name.
    utility: String,
    /// Observations as `uint8`, not `float32`.
    compact: bool,
    /// With `copy=False`: the arrays every call writes in place, and the read-only views of
    /// them it returns.
    kept: Option<Kept>,
}

/// The core's vector of one game.
enum AnyVector {
    Indigo(ProcessLock<CoreVector<IndigoSetup>>),
    Garden(ProcessLock<CoreVector<GardenRules>>),
}

/// Runs `$body` with `$games` bound to the vector's lock and `S` to its set-up type.
macro_rules! with_games {
    ($vector:expr, $games:ident => $body:expr) => {
        match &$vector {
            AnyVector::Indigo($games) => $body,
            AnyVector::Garden($games) => $body,
        }
    };
}

/// Arrays owned by the vector, in step order (observations, legal masks when the game has
/// masks, rewards, terminations, to_play).
struct Kept {
    arrays: Vec<Py<PyAny>>,
    views: Vec<Py<PyAny>>,
}

/// A step's observation array, in the dtype the vector was made with.
enum ObservationArray<'py> {
    F32(Bound<'py, PyArray2<f32>>),
    U8(Bound<'py, PyArray2<u8>>),
}

/// The arrays one step writes; `masks` only for a game with masks (the lists of another are
/// turned into an array after the step).
struct Arrays<'py> {
    observations: ObservationArray<'py>,
    masks: Option<Bound<'py, PyArray2<bool>>>,
    rewards: Bound<'py, PyArray2<f32>>,
    terminations: Bound<'py, PyArray1<bool>>,
    to_play: Bound<'py, PyArray1<i8>>,
}

/// `step`'s result: observations, legal actions, rewards, terminations, to_play.
type StepArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i8>>,
);

/// `reset`'s result: observations, legal actions, to_play.
type ResetArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<i8>>,
);

/// The shapes of a vector's arrays.
#[derive(Clone, Copy)]
struct Shape {
    games: usize,
    players: usize,
    observation: usize,
    /// Mask entries a game, if the game writes masks.
    masks: Option<usize>,
    compact: bool,
}

impl<'py> Arrays<'py> {
    /// Fresh arrays of zeros.
    fn new(py: Python<'py>, shape: Shape) -> Self {
        let games = shape.games;
        let observations = [games, shape.observation];
        Arrays {
            observations: if shape.compact {
                ObservationArray::U8(PyArray2::zeros(py, observations, false))
            } else {
                ObservationArray::F32(PyArray2::zeros(py, observations, false))
            },
            masks: shape
                .masks
                .map(|width| PyArray2::zeros(py, [games, width], false)),
            rewards: PyArray2::zeros(py, [games, shape.players], false),
            terminations: PyArray1::zeros(py, games, false),
            to_play: PyArray1::zeros(py, games, false),
        }
    }

    /// The arrays `kept` holds.
    fn bind(py: Python<'py>, kept: &Kept, compact: bool) -> PyResult<Self> {
        let mut arrays = kept.arrays.iter().map(|a| a.bind(py));
        let mut next = || arrays.next().expect("the kept arrays");
        let observations = next();
        let observations = if compact {
            ObservationArray::U8(observations.cast::<PyArray2<u8>>()?.clone())
        } else {
            ObservationArray::F32(observations.cast::<PyArray2<f32>>()?.clone())
        };
        let masks = if kept.arrays.len() == 5 {
            Some(next().cast::<PyArray2<bool>>()?.clone())
        } else {
            None
        };
        Ok(Arrays {
            observations,
            masks,
            rewards: next().cast::<PyArray2<f32>>()?.clone(),
            terminations: next().cast::<PyArray1<bool>>()?.clone(),
            to_play: next().cast::<PyArray1<i8>>()?.clone(),
        })
    }

    /// The arrays, and read-only views of them, for the vector to keep.
    fn keep(self) -> PyResult<Kept> {
        let observations = match self.observations {
            ObservationArray::F32(array) => array.into_any(),
            ObservationArray::U8(array) => array.into_any(),
        };
        let mut arrays = vec![observations];
        arrays.extend(self.masks.map(Bound::into_any));
        arrays.extend([
            self.rewards.into_any(),
            self.terminations.into_any(),
            self.to_play.into_any(),
        ]);
        let views = arrays
            .iter()
            .map(|array| {
                let view = array.call_method0("view")?;
                view.call_method(
                    "setflags",
                    (),
                    Some(&[("write", false)].into_py_dict(array.py())?),
                )?;
                Ok::<_, PyErr>(view.unbind())
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Kept {
            arrays: arrays.into_iter().map(Bound::unbind).collect(),
            views,
        })
    }

    /// Runs `fill` on the vector and the arrays' memory, which holds `contents`, without the
    /// GIL, answering Ctrl-C if bots search in it (`searching`); returns the legal lists of a
    /// game that writes lists.
    fn fill<S: VectorSetup>(
        &self,
        py: Python<'_>,
        games: &ProcessLock<CoreVector<S>>,
        searching: bool,
        contents: Contents,
        fill: impl FnOnce(&mut CoreVector<S>, &mut Outputs<'_>, &AtomicBool) -> Result<(), VectorError>
        + Send,
    ) -> PyResult<LegalLists>
    where
        S::Game: Vectored,
    {
        let (mut floats, mut bytes) = match &self.observations {
            ObservationArray::F32(array) => (Some(array.try_readwrite().map_err(busy)?), None),
            ObservationArray::U8(array) => (None, Some(array.try_readwrite().map_err(busy)?)),
        };
        let observations = match (&mut floats, &mut bytes) {
            (Some(array), _) => Observations::F32(array.as_slice_mut()?),
            (_, Some(array)) => Observations::U8(array.as_slice_mut()?),
            (None, None) => unreachable!("one of the two is made"),
        };
        let mut masks = self
            .masks
            .as_ref()
            .map(|m| m.try_readwrite().map_err(busy))
            .transpose()?;
        let mut lists = LegalLists::default();
        let legal = match &mut masks {
            Some(masks) => Legal::Masks(masks.as_slice_mut()?),
            None => Legal::Lists(&mut lists),
        };
        let mut rewards = self.rewards.try_readwrite().map_err(busy)?;
        let mut terminations = self.terminations.try_readwrite().map_err(busy)?;
        let mut to_play = self.to_play.try_readwrite().map_err(busy)?;
        let mut out = Outputs {
            observations,
            contents,
            legal,
            rewards: rewards.as_slice_mut()?,
            terminations: terminations.as_slice_mut()?,
            to_play: to_play.as_slice_mut()?,
        };
        let work = |stop: &AtomicBool| {
            games
                .lock()
                .map(|mut games| fill(&mut games, &mut out, stop))
        };
        let done = if searching {
            interruptible(py, work)?
        } else {
            py.detach(|| work(&AtomicBool::new(false)))
        };
        done.map_err(lost_in_fork)?.map_err(|e| match e {
            VectorError::Illegal { .. } => IllegalMoveError::new_err(e.to_string()),
            _ => IndigoError::new_err(e.to_string()),
        })?;
        Ok(lists)
    }

    /// The results: the masks, or `lists` as an array.
    fn into_tuple(self, py: Python<'py>, lists: &LegalLists) -> StepArrays<'py> {
        let observations = match self.observations {
            ObservationArray::F32(array) => array.into_any(),
            ObservationArray::U8(array) => array.into_any(),
        };
        let legal = match self.masks {
            Some(masks) => masks.into_any(),
            None => padded(py, lists).into_any(),
        };
        (
            observations,
            legal,
            self.rewards,
            self.terminations,
            self.to_play,
        )
    }
}

/// The rows of `lists` as an `int32` array, one row a game, as wide as the longest (at least
/// 1) and padded with -1.
fn padded<'py>(py: Python<'py>, lists: &LegalLists) -> Bound<'py, PyArray2<i32>> {
    let rows = lists.offsets.len() - 1;
    let width = (lists.offsets.windows(2))
        .map(|w| (w[1] - w[0]) as usize)
        .max()
        .unwrap_or(0)
        .max(1);
    let mut flat = vec![-1i32; rows * width];
    for (row, w) in flat.chunks_exact_mut(width).zip(lists.offsets.windows(2)) {
        let actions = &lists.actions[w[0] as usize..w[1] as usize];
        for (entry, &action) in row.iter_mut().zip(actions) {
            *entry = action as i32;
        }
    }
    PyArray1::from_vec(py, flat)
        .reshape([rows, width])
        .expect("rows x width values")
}

/// `actions` as a contiguous int64 array; anything but integers is a `TypeError`.
fn int_array<'py>(actions: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArray1<'py, i64>> {
    let numpy = actions.py().import("numpy")?;
    let array = numpy.call_method1("asarray", (actions,))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") || array.getattr("ndim")?.extract::<usize>()? != 1 {
        return Err(PyTypeError::new_err(format!(
            "actions must be a 1-d sequence of integers, not {}",
            array.getattr("dtype")?.str()?
        )));
    }
    numpy
        .call_method1("ascontiguousarray", (array, numpy.getattr("int64")?))?
        .extract()
}

/// Another thread is writing the kept arrays.
fn busy(_: BorrowError) -> PyErr {
    IndigoError::new_err(
        "another thread is stepping these games (made with copy=False): step one VectorGames \
         from one thread at a time",
    )
}

fn lost_in_fork(_: LostInFork) -> PyErr {
    IndigoError::new_err(
        "these games were being stepped by another thread when this process was forked, so \
         their state is lost here: make a new VectorGames in this process",
    )
}

fn lock<T>(games: &ProcessLock<T>) -> PyResult<Held<'_, T>> {
    games.lock().map_err(lost_in_fork)
}

/// `opponents` (one spec for every other seat, or a sequence of one per other seat in seat
/// order) around the learner's `seat`.
fn opponents(players: u8, opponents: &Bound<'_, PyAny>, seat: u8) -> PyResult<Opponents> {
    let specs: Vec<String> = match opponents.extract::<String>() {
        Ok(spec) => vec![spec; usize::from(players) - 1],
        Err(_) => opponents.extract().map_err(|_| {
            PyTypeError::new_err("opponents must be a bot spec or a sequence of bot specs")
        })?,
    };
    let specs = specs
        .iter()
        .map(|s| parse_spec::<BotSpec, _>(s))
        .collect::<PyResult<Vec<_>>>()?;
    Opponents::around(seat, players, &specs).map_err(|e| vector_error(&e))
}

fn vector_error(e: &VectorError) -> PyErr {
    IndigoError::new_err(e.to_string())
}

/// The core's vector of `rules`' game, against `opponents` if any (their first moves are
/// made here, answering Ctrl-C).
fn core_vector<S: VectorSetup>(
    py: Python<'_>,
    rules: AnyRules,
    num_envs: usize,
    utility: &str,
    seed: u64,
    opponents: Option<Opponents>,
) -> PyResult<ProcessLock<CoreVector<S>>>
where
    S::Game: Vectored,
{
    let setup = S::of(rules);
    // A `net` opponent's network must fit the game and its seats.
    for spec in opponents.iter().flat_map(|o| o.bots.iter().flatten()) {
        spec.check::<S::Game>(Some(indigo_search::Setup::players(&setup)))
            .map_err(|e| IndigoError::new_err(e.0))?;
    }
    let utility = S::utility(utility)?;
    let mut games = py.detach(|| CoreVector::new(setup, num_envs, utility, seed));
    if let Some(opponents) = opponents {
        games = interruptible(py, move |stop| games.against(opponents, stop))?
            .map_err(|e| vector_error(&e))?;
    }
    Ok(ProcessLock::new(games))
}

impl VectorGames {
    fn shape(&self) -> Shape {
        let (observation, masks) = with_games!(self.games, games => shape_of(games));
        Shape {
            games: self.num_envs,
            players: self.players,
            observation,
            masks,
            compact: self.compact,
        }
    }

    /// Writes a call's results with `fill`: into the kept arrays (only what changed), or into
    /// fresh ones; returns what the caller gets (read-only views of the kept arrays).
    fn run<'py, S: VectorSetup>(
        &self,
        py: Python<'py>,
        games: &ProcessLock<CoreVector<S>>,
        fill: impl FnOnce(&mut CoreVector<S>, &mut Outputs<'_>, &AtomicBool) -> Result<(), VectorError>
        + Send,
    ) -> PyResult<StepArrays<'py>>
    where
        S::Game: Vectored,
    {
        let Some(kept) = &self.kept else {
            let arrays = Arrays::new(py, self.shape());
            let lists = arrays.fill(py, games, self.searching, Contents::Zeros, fill)?;
            return Ok(arrays.into_tuple(py, &lists));
        };
        let lists = Arrays::bind(py, kept, self.compact)?.fill(
            py,
            games,
            self.searching,
            Contents::Previous,
            fill,
        )?;
        let mut views = kept.views.iter().map(|view| view.bind(py).clone());
        let mut next = || views.next().expect("the kept views");
        let observations = next();
        let legal = if kept.views.len() == 5 {
            next()
        } else {
            padded(py, &lists).into_any()
        };
        Ok((
            observations,
            legal,
            next().cast_into()?,
            next().cast_into()?,
            next().cast_into()?,
        ))
    }
}

/// The observation size and mask width (for a game with masks) of `games`' game.
fn shape_of<S: Setup>(_: &ProcessLock<CoreVector<S>>) -> (usize, Option<usize>)
where
    S::Game: Vectored,
{
    let masks = <S::Game as Vectored>::MASKS.then_some(<S::Game as Encoded>::ACTION_COUNT);
    (<S::Game as Encoded>::OBSERVATION_SIZE, masks)
}

#[pymethods]
impl VectorGames {
    #[new]
    #[pyo3(
        signature = (num_envs, rules, *, seed=None, utility="win", observation_dtype="float32", copy=true, opponents=None, seat=Int::new(0)),
        text_signature = "(num_envs, rules, *, seed=None, utility='win', observation_dtype='float32', copy=True, opponents=None, seat=0)"
    )]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn new(
        py: Python<'_>,
        num_envs: Int,
        rules: AnyRules,
        seed: Option<&Bound<'_, PyAny>>,
        utility: &str,
        observation_dtype: &str,
        copy: bool,
        opponents: Option<&Bound<'_, PyAny>>,
        seat: Int,
    ) -> PyResult<Self> {
        let compact = match observation_dtype {
            "float32" => false,
            "uint8" => true,
            other => {
                return Err(IndigoError::new_err(format!(
                    "observation_dtype must be 'float32' or 'uint8', not {other:?}"
                )));
            }
        };
        let max = CoreVector::<IndigoSetup>::MAX_ENVS;
        let num_envs = in_range("num_envs", num_envs, 1, max)? as usize;
        let players = match rules {
            AnyRules::Indigo(rules) => rules.players(),
            AnyRules::QueensGarden(rules) => rules.players(),
        };
        let seed = seed.map(extract_seed).transpose()?.unwrap_or(0);
        let seat = in_range("seat", seat, 0, u64::from(players - 1))? as u8;
        let opponents = opponents
            .map(|o| self::opponents(players, o, seat))
            .transpose()?;
        let searching = opponents.is_some_and(|o| o.search());
        let (games, fits) = match rules {
            AnyRules::Indigo(_) => (
                AnyVector::Indigo(core_vector(py, rules, num_envs, utility, seed, opponents)?),
                <indigo_game::Position as Vectored>::COMPACT,
            ),
            AnyRules::QueensGarden(_) => (
                AnyVector::Garden(core_vector(py, rules, num_envs, utility, seed, opponents)?),
                <queens_garden::Position as Vectored>::COMPACT,
            ),
        };
        if compact && !fits {
            return Err(vector_error(&VectorError::NotCompact));
        }
        let mut vector = VectorGames {
            games,
            searching,
            num_envs,
            players: usize::from(players),
            utility: utility.to_owned(),
            compact,
            kept: None,
        };
        // The core's record of the kept arrays starts as zeros, as they do.
        if !copy {
            vector.kept = Some(Arrays::new(py, vector.shape()).keep()?);
        }
        Ok(vector)
    }

    /// How many games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// The rules of every game (the game's own `Rules` class).
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        with_games!(self.games, games => lock(games)?.setup().py_rules(py))
    }

    /// `"float32"` or `"uint8"`: the dtype of the observations.
    #[getter]
    fn observation_dtype(&self) -> &'static str {
        if self.compact { "uint8" } else { "float32" }
    }

    /// `"mask"` (the legal actions are a bool array of the game's `ACTION_COUNT` a game) or
    /// `"list"` (an int32 array of each game's legal action numbers, ascending, padded with
    /// -1 to the longest).
    #[getter]
    fn legal_form(&self) -> &'static str {
        if self.shape().masks.is_some() {
            "mask"
        } else {
            "list"
        }
    }

    /// Whether each call returns fresh arrays (`True`) or the vector's own, overwritten by
    /// the next call.
    #[getter]
    fn copy(&self) -> bool {
        self.kept.is_none()
    }

    /// The learner's seat when bots play the others, else `None`.
    #[getter]
    fn seat(&self) -> PyResult<Option<u8>> {
        with_games!(self.games, games => Ok(lock(games)?.opponents().map(|o| o.learner)))
    }

    /// Game `env` as its game's `Game`: its seed and this episode's moves (the bots'
    /// included).
    fn game(&self, py: Python<'_>, env: Int) -> PyResult<Py<PyAny>> {
        let index = if let Ok(index) = usize::try_from(env.0) {
            index
        } else {
            // Below 0: the core's range check names it as given.
            in_range("env", env, 0, (self.num_envs as u64).saturating_sub(1))? as usize
        };
        with_games!(self.games, games => {
            let games = lock(games)?;
            let (seed, actions) = games
                .episode(index)
                .map_err(|e| IndigoError::new_err(env.refusal(&e.to_string())))?;
            let actions = actions.to_vec();
            let setup = *games.setup();
            drop(games);
            setup.py_game(py, seed, &actions)
        })
    }

    /// Game `env`'s record, as `Game.to_record` gives it.
    fn record<'py>(&self, py: Python<'py>, env: Int) -> PyResult<Bound<'py, PyAny>> {
        self.game(py, env)?.bind(py).call_method0("to_record")
    }

    /// `"points"`, `"win"`, `"rank"` or `"zero-sum"`: what a finished game rewards.
    #[getter]
    fn utility(&self) -> &str {
        &self.utility
    }

    /// Each game's current seed (it set the game up as `Game(rules, seed=...)` does).
    #[getter]
    fn game_seeds(&self) -> PyResult<Vec<u64>> {
        with_games!(self.games, games => Ok(lock(games)?.game_seeds()))
    }

    /// Each game's episode number, from 0.
    #[getter]
    fn episodes(&self) -> PyResult<Vec<u64>> {
        with_games!(self.games, games => Ok(lock(games)?.episodes()))
    }

    fn __len__(&self) -> usize {
        self.num_envs()
    }

    /// Starts every game's first episode from `seed` (default: the seed given before);
    /// returns `(observations, legal, to_play)`.
    #[pyo3(signature = (*, seed=None, mask=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<ResetArrays<'py>> {
        let seed = seed.map(extract_seed).transpose()?;
        let (observations, legal, _, _, to_play) = if let Some(mask) = mask {
            if seed.is_some() {
                return Err(IndigoError::new_err(
                    "give a seed (every game restarts) or a mask (the marked games start \
                     their next episode), not both",
                ));
            }
            let mask: Vec<bool> = mask.extract().map_err(|_| {
                PyTypeError::new_err("mask must be a sequence of booleans, one per game")
            })?;
            with_games!(self.games, games => self.run(py, games, |games, out, stop| {
                games.reset_some(&mask, out, stop)
            }))?
        } else {
            with_games!(self.games, games => self.run(py, games, |games, out, stop| {
                games.reset(seed.unwrap_or_else(|| games.seed()), out, stop)
            }))?
        };
        Ok((observations, legal, to_play))
    }

    /// Plays `actions[i]` in game `i` (ignored in a game that ended on the last step: it
    /// starts its next episode); returns `(observations, legal, rewards, terminations,
    /// to_play)`. An illegal action raises `IllegalMoveError` and steps no game.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<StepArrays<'py>> {
        let actions = int_array(actions)?;
        let actions = actions.as_slice()?;
        with_games!(self.games, games => {
            self.run(py, games, |games, out, stop| games.step(actions, out, stop))
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<VectorGames num_envs={} players={} utility={}>",
            self.num_envs, self.players, self.utility
        )
    }
}
