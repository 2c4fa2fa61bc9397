//! The clock of time budgets ([`crate::Budget::Time`]): [`std::time::Instant`] natively; on
//! `wasm32-unknown-unknown`, where `Instant::now` traps (the target has no clock of its own),
//! the host's `performance.now()` (or `Date.now()` where a host has no `performance`) through
//! `js-sys`. Both offer the few operations a deadline needs.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::time::Duration;

    use js_sys::{Date, Function, Reflect};
    use wasm_bindgen::{JsCast as _, JsValue};

    /// A moment on the JavaScript host's clock, in milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    /// `globalThis.performance.now()` if the host has it (browsers, workers, node), else
    /// `Date.now()`.
    fn now_ms() -> f64 {
        let performance = Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
            .ok()
            .filter(JsValue::is_object);
        performance
            .and_then(|p| {
                let now = Reflect::get(&p, &JsValue::from_str("now")).ok()?;
                let now: Function = now.dyn_into().ok()?;
                now.call0(&p).ok()?.as_f64()
            })
            .unwrap_or_else(Date::now)
    }

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(now_ms())
        }

        /// This moment plus `duration`; `None` past what the clock can hold.
        pub fn checked_add(self, duration: Duration) -> Option<Instant> {
            let later = self.0 + duration.as_secs_f64() * 1e3;
            later.is_finite().then_some(Instant(later))
        }

        /// The time since this moment (zero if the clock went back).
        pub fn elapsed(self) -> Duration {
            Duration::from_secs_f64(((now_ms() - self.0) / 1e3).max(0.0))
        }
    }
}
