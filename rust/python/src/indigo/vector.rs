//! The vectorised games: numpy arrays in and out around `indigo_game::vector`, one call into
//! Rust per step with the GIL released.

use std::sync::atomic::AtomicBool;

use indigo_game::OBSERVATION_SIZE;
use indigo_game::{ACTION_COUNT, Rules as CoreRules};
use indigo_game::{
    Contents, Observations, Opponents, Outputs, VectorError, VectorGames as CoreVector,
};
use indigo_search::BotSpec;
use numpy::{BorrowError, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::IntoPyDict;

use crate::convert::{Int, extract_seed, in_range, parse_spec};
use crate::errors::{IllegalMoveError, IndigoError};
use crate::indigo::game::Game;
use crate::indigo::rules::{Rules, parse_utility};
use crate::shared::{Held, LostInFork, ProcessLock};
use crate::watch::interruptible;

/// `num_envs` games stepped together; see docs/envs.md for the semantics. Threads sharing
/// one take turns on its lock, which is only taken without the GIL or for a moment.
/// Subclassable: `indigo.VectorGames` is the Python subclass that also takes Python bots.
#[pyclass(module = "indigo", frozen, subclass)]
pub(crate) struct VectorGames {
    games: ProcessLock<CoreVector>,
    /// Whether bots search in the games' steps, which then answer Ctrl-C.
    searching: bool,
    /// Fixed at construction, so arrays are made without the lock.
    num_envs: usize,
    rules: CoreRules,
    /// Observations as `uint8`, not `float32`.
    compact: bool,
    /// With `copy=False`: the arrays every call writes in place, and the read-only views of
    /// them it returns.
    kept: Option<Kept>,
}

/// Arrays owned by the vector, in step order (observations, masks, rewards, terminations,
/// to_play).
struct Kept {
    arrays: [Py<PyAny>; 5],
    views: [Py<PyAny>; 5],
}

/// A step's observation array, in the dtype the vector was made with.
enum ObservationArray<'py> {
    F32(Bound<'py, PyArray2<f32>>),
    U8(Bound<'py, PyArray2<u8>>),
}

/// The arrays one step writes.
struct Arrays<'py> {
    observations: ObservationArray<'py>,
    masks: Bound<'py, PyArray2<bool>>,
    rewards: Bound<'py, PyArray2<f32>>,
    terminations: Bound<'py, PyArray1<bool>>,
    to_play: Bound<'py, PyArray1<i8>>,
}

/// `step`'s result: observations, masks, rewards, terminations, to_play.
type StepArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i8>>,
);

/// `reset`'s result: observations, masks, to_play.
type ResetArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<i8>>,
);

impl<'py> Arrays<'py> {
    /// Fresh arrays of zeros.
    fn new(py: Python<'py>, games: usize, players: usize, compact: bool) -> Self {
        let shape = [games, OBSERVATION_SIZE];
        Arrays {
            observations: if compact {
                ObservationArray::U8(PyArray2::zeros(py, shape, false))
            } else {
                ObservationArray::F32(PyArray2::zeros(py, shape, false))
            },
            masks: PyArray2::zeros(py, [games, ACTION_COUNT], false),
            rewards: PyArray2::zeros(py, [games, players], false),
            terminations: PyArray1::zeros(py, games, false),
            to_play: PyArray1::zeros(py, games, false),
        }
    }

    /// The arrays `kept` holds.
    fn bind(py: Python<'py>, kept: &Kept, compact: bool) -> PyResult<Self> {
        let [observations, masks, rewards, terminations, to_play] = &kept.arrays;
        let observations = observations.bind(py);
        Ok(Arrays {
            observations: if compact {
                ObservationArray::U8(observations.cast::<PyArray2<u8>>()?.clone())
            } else {
                ObservationArray::F32(observations.cast::<PyArray2<f32>>()?.clone())
            },
            masks: masks.bind(py).cast::<PyArray2<bool>>()?.clone(),
            rewards: rewards.bind(py).cast::<PyArray2<f32>>()?.clone(),
            terminations: terminations.bind(py).cast::<PyArray1<bool>>()?.clone(),
            to_play: to_play.bind(py).cast::<PyArray1<i8>>()?.clone(),
        })
    }

    /// The arrays, and read-only views of them, for the vector to keep.
    fn keep(self) -> PyResult<Kept> {
        let (observations, masks, rewards, terminations, to_play) = self.into_tuple();
        let arrays = [
            observations,
            masks.into_any(),
            rewards.into_any(),
            terminations.into_any(),
            to_play.into_any(),
        ];
        let views = arrays.clone().map(|array| {
            let view = array.call_method0("view")?;
            view.call_method(
                "setflags",
                (),
                Some(&[("write", false)].into_py_dict(array.py())?),
            )?;
            Ok::<_, PyErr>(view.unbind())
        });
        let [a, b, c, d, e] = views;
        Ok(Kept {
            arrays: arrays.map(Bound::unbind),
            views: [a?, b?, c?, d?, e?],
        })
    }

    /// Runs `fill` on the vector and the arrays' memory, which holds `contents`, without the
    /// GIL; answering Ctrl-C if bots search in it (`searching`).
    fn fill(
        &self,
        py: Python<'_>,
        games: &ProcessLock<CoreVector>,
        searching: bool,
        contents: Contents,
        fill: impl FnOnce(&mut CoreVector, &mut Outputs<'_>, &AtomicBool) -> Result<(), VectorError>
        + Send,
    ) -> PyResult<()> {
        let (mut floats, mut bytes) = match &self.observations {
            ObservationArray::F32(array) => (Some(array.try_readwrite().map_err(busy)?), None),
            ObservationArray::U8(array) => (None, Some(array.try_readwrite().map_err(busy)?)),
        };
        let observations = match (&mut floats, &mut bytes) {
            (Some(array), _) => Observations::F32(array.as_slice_mut()?),
            (_, Some(array)) => Observations::U8(array.as_slice_mut()?),
            (None, None) => unreachable!("one of the two is made"),
        };
        let mut masks = self.masks.try_readwrite().map_err(busy)?;
        let mut rewards = self.rewards.try_readwrite().map_err(busy)?;
        let mut terminations = self.terminations.try_readwrite().map_err(busy)?;
        let mut to_play = self.to_play.try_readwrite().map_err(busy)?;
        let mut out = Outputs {
            observations,
            contents,
            masks: masks.as_slice_mut()?,
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
        })
    }

    fn into_tuple(self) -> StepArrays<'py> {
        let observations = match self.observations {
            ObservationArray::F32(array) => array.into_any(),
            ObservationArray::U8(array) => array.into_any(),
        };
        (
            observations,
            self.masks,
            self.rewards,
            self.terminations,
            self.to_play,
        )
    }
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

fn lock(games: &ProcessLock<CoreVector>) -> PyResult<Held<'_, CoreVector>> {
    games.lock().map_err(lost_in_fork)
}

/// `opponents` (one spec for every other seat, or a sequence of one per other seat in seat
/// order) around the learner's `seat`.
fn opponents(rules: CoreRules, opponents: &Bound<'_, PyAny>, seat: u8) -> PyResult<Opponents> {
    let specs: Vec<String> = match opponents.extract::<String>() {
        Ok(spec) => vec![spec; usize::from(rules.players()) - 1],
        Err(_) => opponents.extract().map_err(|_| {
            PyTypeError::new_err("opponents must be a bot spec or a sequence of bot specs")
        })?,
    };
    let specs = specs
        .iter()
        .map(|s| parse_spec::<BotSpec, _>(s))
        .collect::<PyResult<Vec<_>>>()?;
    Opponents::around(seat, rules.players(), &specs).map_err(|e| vector_error(&e))
}

fn vector_error(e: &VectorError) -> PyErr {
    IndigoError::new_err(e.to_string())
}

impl VectorGames {
    /// Writes a call's results with `fill`: into the kept arrays (only what changed), or into
    /// fresh ones; returns what the caller gets (read-only views of the kept arrays).
    fn run<'py>(
        &self,
        py: Python<'py>,
        fill: impl FnOnce(&mut CoreVector, &mut Outputs<'_>, &AtomicBool) -> Result<(), VectorError>
        + Send,
    ) -> PyResult<StepArrays<'py>> {
        let Some(kept) = &self.kept else {
            let arrays = Arrays::new(
                py,
                self.num_envs,
                usize::from(self.rules.players()),
                self.compact,
            );
            arrays.fill(py, &self.games, self.searching, Contents::Zeros, fill)?;
            return Ok(arrays.into_tuple());
        };
        Arrays::bind(py, kept, self.compact)?.fill(
            py,
            &self.games,
            self.searching,
            Contents::Previous,
            fill,
        )?;
        let [observations, masks, rewards, terminations, to_play] =
            kept.views.each_ref().map(|view| view.bind(py).clone());
        Ok((
            observations,
            masks.cast_into()?,
            rewards.cast_into()?,
            terminations.cast_into()?,
            to_play.cast_into()?,
        ))
    }
}

#[pymethods]
impl VectorGames {
    #[new]
    #[pyo3(
        signature = (num_envs, rules=None, *, seed=None, utility="win", observation_dtype="float32", copy=true, opponents=None, seat=Int::new(0)),
        text_signature = "(num_envs, rules=None, *, seed=None, utility='win', observation_dtype='float32', copy=True, opponents=None, seat=0)"
    )]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn new(
        py: Python<'_>,
        num_envs: Int,
        rules: Option<Rules>,
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
        let num_envs = in_range("num_envs", num_envs, 1, CoreVector::MAX_ENVS)? as usize;
        let rules = rules.map_or_else(CoreRules::default, |r| r.0);
        let seed = seed.map(extract_seed).transpose()?.unwrap_or(0);
        let seat = in_range("seat", seat, 0, u64::from(rules.players() - 1))? as u8;
        let opponents = opponents
            .map(|o| self::opponents(rules, o, seat))
            .transpose()?;
        let mut games = CoreVector::new(rules, num_envs, parse_utility(utility)?, seed);
        let searching =
            opponents.is_some_and(|o| o.bots.iter().any(|b| matches!(b, Some(BotSpec::Ismcts(_)))));
        if let Some(opponents) = opponents {
            // The opponents make their first moves here.
            games = interruptible(py, move |stop| games.against(opponents, stop))?
                .map_err(|e| vector_error(&e))?;
        }
        // The core's record of the kept arrays starts as zeros, as they do.
        let kept = (!copy)
            .then(|| Arrays::new(py, num_envs, usize::from(rules.players()), compact).keep())
            .transpose()?;
        Ok(VectorGames {
            games: ProcessLock::new(games),
            searching,
            num_envs,
            rules,
            compact,
            kept,
        })
    }

    /// How many games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    #[getter]
    fn rules(&self) -> Rules {
        Rules(self.rules)
    }

    /// `"float32"` or `"uint8"`: the dtype of the observations.
    #[getter]
    fn observation_dtype(&self) -> &'static str {
        if self.compact { "uint8" } else { "float32" }
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
        Ok(lock(&self.games)?.opponents().map(|o| o.learner))
    }

    /// Game `env` as a `Game`: its seed and this episode's moves (the bots' included).
    fn game(&self, py: Python<'_>, env: Int) -> PyResult<Game> {
        let index = if let Ok(index) = usize::try_from(env.0) {
            index
        } else {
            // Below 0: the core's range check names it as given.
            let last = (lock(&self.games)?.len() as u64).saturating_sub(1);
            in_range("env", env, 0, last)? as usize
        };
        let game = py
            .detach(|| lock(&self.games).map(|games| games.game(index)))?
            .map_err(|e| IndigoError::new_err(env.refusal(&e.to_string())))?;
        Ok(Game::wrap(game))
    }

    /// Game `env`'s record, as `Game.to_record` gives it.
    fn record<'py>(&self, py: Python<'py>, env: Int) -> PyResult<Bound<'py, PyAny>> {
        Bound::new(py, self.game(py, env)?)?.call_method0("to_record")
    }

    /// `"points"`, `"win"` or `"rank"`: what a finished game rewards.
    #[getter]
    fn utility(&self) -> PyResult<&'static str> {
        Ok(lock(&self.games)?.utility().as_str())
    }

    /// Each game's current seed (it shuffled the pile as `Game(rules, seed=...)` does).
    #[getter]
    fn game_seeds(&self) -> PyResult<Vec<u64>> {
        Ok(lock(&self.games)?.game_seeds())
    }

    /// Each game's episode number, from 0.
    #[getter]
    fn episodes(&self) -> PyResult<Vec<u64>> {
        Ok(lock(&self.games)?.episodes())
    }

    fn __len__(&self) -> usize {
        self.num_envs()
    }

    /// Starts every game's first episode from `seed` (default: the seed given before);
    /// returns `(observations, masks, to_play)`.
    #[pyo3(signature = (*, seed=None, mask=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<ResetArrays<'py>> {
        let seed = seed.map(extract_seed).transpose()?;
        let (observations, masks, _, _, to_play) = if let Some(mask) = mask {
            if seed.is_some() {
                return Err(IndigoError::new_err(
                    "give a seed (every game restarts) or a mask (the marked games start \
                     their next episode), not both",
                ));
            }
            let mask: Vec<bool> = mask.extract().map_err(|_| {
                PyTypeError::new_err("mask must be a sequence of booleans, one per game")
            })?;
            self.run(py, |games, out, stop| games.reset_some(&mask, out, stop))?
        } else {
            self.run(py, |games, out, stop| {
                games.reset(seed.unwrap_or_else(|| games.seed()), out, stop)
            })?
        };
        Ok((observations, masks, to_play))
    }

    /// Plays `actions[i]` in game `i` (ignored in a game that ended on the last step: it
    /// starts its next episode); returns `(observations, masks, rewards, terminations,
    /// to_play)`. An illegal action raises `IllegalMoveError` and steps no game.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<StepArrays<'py>> {
        let actions = int_array(actions)?;
        let actions = actions.as_slice()?;
        self.run(py, |games, out, stop| games.step(actions, out, stop))
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "<VectorGames num_envs={} players={} utility={}>",
            self.num_envs,
            self.rules.players(),
            self.utility()?
        ))
    }
}
