//! The bots of every game, as their Python classes hold them: a bot that a spec names
//! ([`SearchBot`]) shared by threads ([`SharedBot`]), thinking without the GIL and answering
//! Ctrl-C, on a copy of the game's state.

use indigo_search::{Bot as _, BotSpec, Encoded, SearchBot, SearchResult};
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::errors::{IllegalMoveError, IndigoError};
use crate::shared::SharedBot;
use crate::watch;

/// A bot of game `G` from its spec.
pub(crate) struct SpecBot<G: Encoded> {
    spec: BotSpec,
    bot: SharedBot<SearchBot<G>>,
}

impl<G> SpecBot<G>
where
    G: Encoded + Sync,
    G::Information: Sync,
    SearchBot<G>: Send,
{
    /// The bot `spec` names, its choices fixed by `seed`.
    pub(crate) fn new(spec: BotSpec, seed: u64) -> Self {
        SpecBot {
            spec,
            bot: SharedBot::new(spec.build(seed)),
        }
    }

    /// [`SpecBot::new`] for a spec a person wrote: a `net` spec's network must fit `G`
    /// ([`BotSpec::check`]; the seat count is checked at each move).
    pub(crate) fn checked(spec: BotSpec, seed: u64) -> PyResult<Self> {
        spec.check::<G>(None)
            .map_err(|e| IndigoError::new_err(e.0))?;
        Ok(SpecBot::new(spec, seed))
    }

    pub(crate) const fn spec(&self) -> BotSpec {
        self.spec
    }

    /// The action for the seat to move in `state`; `IllegalMoveError` if none is.
    pub(crate) fn choose(&self, py: Python<'_>, state: &G) -> PyResult<G::Action> {
        let mut bot = self.bot.take(py)?;
        let chosen = match &mut *bot {
            SearchBot::Ismcts(ismcts) => watch::search(py, ismcts, state)?.map(|r| r.best),
            SearchBot::Net(net) => {
                self.spec
                    .check::<G>(Some(state.players()))
                    .map_err(|e| IndigoError::new_err(e.0))?;
                watch::interruptible(py, |stop| net.search_until(state, stop))?.map(|r| r.best)
            }
            quick => py.detach(|| quick.choose(state)),
        };
        chosen.ok_or_else(no_move)
    }

    /// The whole search for the seat to move in `state`, for a bot that searches (`None` for
    /// one that does not); `IllegalMoveError` if no seat is to move.
    pub(crate) fn search(
        &self,
        py: Python<'_>,
        state: &G,
    ) -> PyResult<Option<SearchResult<G::Action>>> {
        let mut bot = self.bot.take(py)?;
        match &mut *bot {
            SearchBot::Ismcts(ismcts) => watch::search(py, ismcts, state)?
                .map(Some)
                .ok_or_else(no_move),
            _ => Ok(None),
        }
    }
}

fn no_move() -> PyErr {
    IllegalMoveError::new_err(
        "no seat is to move (the game is over or a draw is waiting): no move to choose, nothing to search",
    )
}

/// Root visits as a float32 distribution over a game's `actions` action numbers (sums to 1;
/// zeros without visits).
pub(crate) fn visit_policy<'py>(
    py: Python<'py>,
    visits: &std::collections::BTreeMap<usize, u32>,
    actions: usize,
) -> Bound<'py, PyArray1<f32>> {
    let total = visits.values().map(|&v| f64::from(v)).sum::<f64>().max(1.0);
    let mut out = vec![0f32; actions];
    for (&a, &v) in visits {
        out[a] = (f64::from(v) / total) as f32;
    }
    PyArray1::from_vec(py, out)
}
