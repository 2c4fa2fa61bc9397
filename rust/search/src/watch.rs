//! Work that a caller watches while it runs: the caller's thread stays free to answer
//! signals (Python's Ctrl-C is only seen on the thread that called in).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Runs `work(stop)` on a thread of its own while this one calls `cancel` about every
/// `every`; once `cancel` returns `true`, `stop` is set (and `cancel` not called again), and
/// `work` is expected to end soon with what it has. Returns `work`'s result, or gives `work`
/// back unrun if no thread can be started (the caller then runs it unwatched).
///
/// # Errors
/// `work` itself, when no thread can be started.
///
/// # Panics
/// If `work` panics (the panic goes on in this thread).
pub fn watched<T: Send, W: FnOnce(&AtomicBool) -> T + Send>(
    every: Duration,
    mut cancel: impl FnMut() -> bool,
    work: W,
) -> Result<T, W> {
    let (stop, done) = (AtomicBool::new(false), AtomicBool::new(false));
    let caller = std::thread::current();
    // The work moves to the worker only once it has started; a failed start hands it back.
    let slot = std::sync::Mutex::new(Some(work));
    let started = std::thread::scope(|scope| {
        let worker = std::thread::Builder::new().spawn_scoped(scope, || {
            let work = slot
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take()
                .unwrap_or_else(|| unreachable!("taken once, by this thread"));
            let found = work(&stop);
            done.store(true, Ordering::Release);
            caller.unpark();
            found
        });
        let worker = worker.ok()?;
        while !done.load(Ordering::Acquire) {
            std::thread::park_timeout(every);
            if !done.load(Ordering::Acquire) && !stop.load(Ordering::Relaxed) && cancel() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Some(
            worker
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e)),
        )
    });
    match started {
        Some(found) => Ok(found),
        None => Err(slot
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .unwrap_or_else(|| unreachable!("no thread took it"))),
    }
}
