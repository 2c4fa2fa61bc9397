//! The vectorised games: numpy arrays in and out around `indigo_core::vector`, one call into
//! Rust per step with the GIL released.

use indigo_core::OBSERVATION_SIZE;
use indigo_core::{ACTION_COUNT, Rules as CoreRules};
use indigo_core::{Observations, Outputs, VectorError, VectorGames as CoreVector};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::search::in_range;
use crate::shared::{Held, LostInFork, ProcessLock};
use crate::{IllegalMoveError, IndigoError, Int, Rules, extract_seed, parse_utility};

/// `num_envs` games stepped together; see docs/envs.md for the semantics. Threads sharing
/// one take turns on its lock, which is only taken without the GIL or for a moment.
#[pyclass(module = "indigo", frozen)]
pub(crate) struct VectorGames {
    games: ProcessLock<CoreVector>,
    /// Fixed at construction, so arrays are made without the lock.
    num_envs: usize,
    rules: CoreRules,
    /// Observations as `uint8`, not `float32`.
    compact: bool,
}

/// A step's observation array, in the dtype the vector was made with.
enum ObservationArray<'py> {
    F32(Bound<'py, PyArray2<f32>>),
    U8(Bound<'py, PyArray2<u8>>),
}

/// Fresh arrays for one step's results.
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

    /// Runs `fill` on the vector and the arrays' memory without the GIL.
    fn fill(
        &self,
        py: Python<'_>,
        games: &ProcessLock<CoreVector>,
        fill: impl FnOnce(&mut CoreVector, &mut Outputs<'_>) -> Result<(), VectorError> + Send,
    ) -> PyResult<()> {
        let (mut floats, mut bytes) = match &self.observations {
            ObservationArray::F32(array) => (Some(array.readwrite()), None),
            ObservationArray::U8(array) => (None, Some(array.readwrite())),
        };
        let observations = match (&mut floats, &mut bytes) {
            (Some(array), _) => Observations::F32(array.as_slice_mut()?),
            (_, Some(array)) => Observations::U8(array.as_slice_mut()?),
            (None, None) => unreachable!("one of the two is made"),
        };
        let mut masks = self.masks.readwrite();
        let mut rewards = self.rewards.readwrite();
        let mut terminations = self.terminations.readwrite();
        let mut to_play = self.to_play.readwrite();
        // Fresh numpy zeros: only the non-zero entries need writing.
        let mut out = Outputs {
            observations,
            zeroed: true,
            masks: masks.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminations: terminations.as_slice_mut()?,
            to_play: to_play.as_slice_mut()?,
        };
        py.detach(|| games.lock().map(|mut games| fill(&mut games, &mut out)))
            .map_err(lost_in_fork)?
            .map_err(|e| match e {
                VectorError::Illegal { .. } => IllegalMoveError::new_err(e.to_string()),
                VectorError::Size { .. } => IndigoError::new_err(e.to_string()),
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

fn lost_in_fork(_: LostInFork) -> PyErr {
    IndigoError::new_err(
        "these games were being stepped by another thread when this process was forked, so \
         their state is lost here: make a new VectorGames in this process",
    )
}

fn lock(games: &ProcessLock<CoreVector>) -> PyResult<Held<'_, CoreVector>> {
    games.lock().map_err(lost_in_fork)
}

impl VectorGames {
    fn arrays<'py>(&self, py: Python<'py>) -> Arrays<'py> {
        Arrays::new(
            py,
            self.num_envs,
            usize::from(self.rules.players()),
            self.compact,
        )
    }
}

#[pymethods]
impl VectorGames {
    #[new]
    #[pyo3(
        signature = (num_envs, rules=None, *, seed=None, utility="win", observation_dtype="float32"),
        text_signature = "(num_envs, rules=None, *, seed=None, utility='win', observation_dtype='float32')"
    )]
    fn new(
        num_envs: Int,
        rules: Option<Rules>,
        seed: Option<&Bound<'_, PyAny>>,
        utility: &str,
        observation_dtype: &str,
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
        let games = CoreVector::new(rules, num_envs, parse_utility(utility)?, seed);
        Ok(VectorGames {
            games: ProcessLock::new(games),
            num_envs,
            rules,
            compact,
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
    #[pyo3(signature = (*, seed=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<ResetArrays<'py>> {
        let seed = seed.map(extract_seed).transpose()?;
        let arrays = self.arrays(py);
        arrays.fill(py, &self.games, |games, out| {
            games.reset(seed.unwrap_or_else(|| games.seed()), out)
        })?;
        let (observations, masks, _, _, to_play) = arrays.into_tuple();
        Ok((observations, masks, to_play))
    }

    /// Plays `actions[i]` in game `i` (ignored in a game that ended on the last step: it
    /// starts its next episode); returns `(observations, masks, rewards, terminations,
    /// to_play)`. An illegal action raises `IllegalMoveError` and steps no game.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<StepArrays<'py>> {
        let actions = int_array(actions)?;
        let actions = actions.as_slice()?;
        let arrays = self.arrays(py);
        arrays.fill(py, &self.games, |games, out| games.step(actions, out))?;
        Ok(arrays.into_tuple())
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
