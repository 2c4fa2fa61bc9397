//! Rust work that answers Ctrl-C: it runs without the GIL on a thread of its own
//! ([`indigo_search::watched`]) while the calling thread looks for signals, which Python
//! delivers only to the thread that called in.

use std::sync::atomic::AtomicBool;

use indigo_search::{Game, Ismcts, SearchResult};
use pyo3::prelude::*;

use crate::shared::WATCH_EVERY;

/// Whether a signal handler raised (Ctrl-C: `KeyboardInterrupt`); its exception goes into
/// `raised`.
fn signalled(raised: &mut Option<PyErr>) -> bool {
    Python::attach(|py: Python<'_>| py.check_signals())
        .map_err(|e| *raised = Some(e))
        .is_err()
}

/// `work(stop)` without the GIL; on Ctrl-C `stop` is set, `work` is expected to finish soon,
/// and its result gives way to the signal's exception.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let mut raised = None;
    let result = py.detach(|| {
        indigo_search::watched(WATCH_EVERY, || signalled(&mut raised), work)
            .unwrap_or_else(|unwatched| unwatched(&AtomicBool::new(false)))
    });
    raised.map_or(Ok(result), Err)
}

/// `ismcts`'s search for the seat to move in `state`, without the GIL, answering Ctrl-C
/// ([`Ismcts::search_watched`]); `None` unless a seat is to move.
pub(crate) fn search<G: Game + Sync>(
    py: Python<'_>,
    ismcts: &mut Ismcts,
    state: &G,
) -> PyResult<Option<SearchResult<G::Action>>>
where
    G::Information: Sync,
{
    let mut raised = None;
    let found = py.detach(|| ismcts.search_watched(state, WATCH_EVERY, || signalled(&mut raised)));
    raised.map_or(Ok(found), Err)
}
