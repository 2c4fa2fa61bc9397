//! State that Python threads share, one at a time, and that `fork` cannot leave locked forever:
//! every game's and every bot's Python class keeps its Rust value in one of these.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Duration;

use pyo3::prelude::*;

/// How often a thread waiting for a shared bot or for a search looks for Ctrl-C.
pub(crate) const WATCH_EVERY: Duration = Duration::from_millis(50);

/// A game behind a lock, for a `frozen` Python class that threads share: each call locks it
/// only while Rust works on it, never while Python code runs or the GIL is released (a
/// thread waiting for the lock holds the GIL), so threads take turns call by call.
pub(crate) struct Locked<T>(Mutex<T>);

impl<T> Locked<T> {
    pub(crate) fn new(value: T) -> Self {
        Locked(Mutex::new(value))
    }

    /// The value, locked until the guard is dropped: never hold it across a call into Python,
    /// a release of the GIL or a second `lock` (the lock is not reentrant).
    pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<T: Clone> Clone for Locked<T> {
    fn clone(&self) -> Self {
        Locked::new(self.lock().clone())
    }
}

/// A bot that threads take turns with. A thread takes the bot out for its turn and leaves a
/// copy of it as it was; a process forked while another thread had the bot finds that copy
/// tagged with the parent's id and carries on from it, instead of waiting for a thread that
/// does not exist in the child. Waiting for the bot releases the GIL and answers Ctrl-C.
pub(crate) struct SharedBot<T: Clone> {
    slot: Mutex<Slot<T>>,
    returned: Condvar,
}

struct Slot<T> {
    /// The bot, when no thread has it.
    idle: Option<T>,
    /// While a thread has it: that thread's process and the bot as it was taken.
    lent: Option<(u32, T)>,
    /// Threads waiting for the bot: it is handed on with a wake-up (a system call) only then.
    waiting: usize,
}

impl<T: Clone> Slot<T> {
    fn take(&mut self) -> Option<T> {
        let pid = std::process::id();
        let bot = match self.idle.take() {
            Some(bot) => bot,
            // Lent in the process this one was forked from: its borrower is not here.
            None => match self.lent.take() {
                Some((owner, bot)) if owner != pid => bot,
                lent => {
                    self.lent = lent;
                    return None;
                }
            },
        };
        self.lent = Some((pid, bot.clone()));
        Some(bot)
    }
}

/// A bot taken from a [`SharedBot`]; it goes back when dropped.
pub(crate) struct Turn<'a, T: Clone + Send> {
    shared: &'a SharedBot<T>,
    bot: Option<T>,
}

impl<T: Clone + Send> std::ops::Deref for Turn<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.bot
            .as_ref()
            .unwrap_or_else(|| unreachable!("held until dropped"))
    }
}

impl<T: Clone + Send> std::ops::DerefMut for Turn<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.bot
            .as_mut()
            .unwrap_or_else(|| unreachable!("held until dropped"))
    }
}

impl<T: Clone + Send> Drop for Turn<'_, T> {
    fn drop(&mut self) {
        let mut slot = self.shared.lock();
        slot.idle = self.bot.take();
        slot.lent = None;
        let waiting = slot.waiting > 0;
        drop(slot);
        if waiting {
            self.shared.returned.notify_one();
        }
    }
}

impl<T: Clone + Send> SharedBot<T> {
    pub(crate) fn new(bot: T) -> Self {
        SharedBot {
            slot: Mutex::new(Slot {
                idle: Some(bot),
                lent: None,
                waiting: 0,
            }),
            returned: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Slot<T>> {
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The bot for this thread's turn, waiting (without the GIL) while another thread has it.
    ///
    /// # Errors
    /// A signal handler's exception (Ctrl-C) while waiting.
    pub(crate) fn take(&self, py: Python<'_>) -> PyResult<Turn<'_, T>> {
        // An idle bot is taken at once: the slot is only ever locked for a moment, never while
        // its holder waits for the GIL, so locking it with the GIL held cannot deadlock.
        if let Some(bot) = self.lock().take() {
            return Ok(Turn {
                shared: self,
                bot: Some(bot),
            });
        }
        loop {
            let bot = py.detach(|| {
                let mut slot = self.lock();
                if let Some(bot) = slot.take() {
                    return Some(bot);
                }
                slot.waiting += 1;
                let (mut slot, _) = self
                    .returned
                    .wait_timeout(slot, WATCH_EVERY)
                    .unwrap_or_else(PoisonError::into_inner);
                slot.waiting -= 1;
                slot.take()
            });
            if let Some(bot) = bot {
                return Ok(Turn {
                    shared: self,
                    bot: Some(bot),
                });
            }
            py.check_signals()?;
        }
    }
}

/// A mutex that knows which process holds it. In a process forked while a thread of its parent
/// held it, `lock` fails instead of waiting forever for a thread that process does not have
/// (the value may be half changed there, so it cannot be used).
pub(crate) struct ProcessLock<T> {
    value: Mutex<T>,
    /// The id of the process whose thread holds the lock; 0 while free.
    holder: AtomicU32,
}

/// [`ProcessLock::lock`]'s guard.
pub(crate) struct Held<'a, T> {
    guard: MutexGuard<'a, T>,
    holder: &'a AtomicU32,
}

impl<T> std::ops::Deref for Held<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T> std::ops::DerefMut for Held<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

impl<T> Drop for Held<'_, T> {
    /// Runs before the guard unlocks.
    fn drop(&mut self) {
        self.holder.store(0, Ordering::Release);
    }
}

/// The lock was held by a thread of the process this one was forked from.
pub(crate) struct LostInFork;

impl<T> ProcessLock<T> {
    pub(crate) fn new(value: T) -> Self {
        ProcessLock {
            value: Mutex::new(value),
            holder: AtomicU32::new(0),
        }
    }

    /// The value, waiting while another thread of this process has it.
    pub(crate) fn lock(&self) -> Result<Held<'_, T>, LostInFork> {
        let guard = match self.value.try_lock() {
            Ok(guard) => guard,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => {
                let holder = self.holder.load(Ordering::Acquire);
                if holder != 0 && holder != std::process::id() {
                    return Err(LostInFork);
                }
                self.value.lock().unwrap_or_else(PoisonError::into_inner)
            }
        };
        self.holder.store(std::process::id(), Ordering::Release);
        Ok(Held {
            guard,
            holder: &self.holder,
        })
    }
}
