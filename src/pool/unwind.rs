//! Catching and re-raising panics.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

/// A caught panic payload.
pub(crate) type Payload = Box<dyn Any + Send + 'static>;

/// Runs `f`, catching a panic. Callers guarantee that a caught panic is re-raised (or
/// handed to the panic handler) after every job that could see broken state has finished,
/// so asserting unwind safety is sound here.
#[inline]
pub(crate) fn halt_unwinding<F, R>(f: F) -> Result<R, Payload>
where
    F: FnOnce() -> R,
{
    panic::catch_unwind(AssertUnwindSafe(f))
}

/// Drops a caught panic's payload that nobody will re-raise, where a panic of the
/// payload's own `Drop` (any `panic_any` value may have one) must not unwind into the
/// caller: the pool calls it on paths that still have a latch to set or a wait to finish.
/// A payload whose drop panics is dropped up to that panic, and the second panic's
/// payload is leaked (forgotten): dropping it could panic again.
pub(crate) fn drop_payload(payload: Payload) {
    if let Err(again) = halt_unwinding(move || drop(payload)) {
        std::mem::forget(again);
    }
}

/// Re-raises a caught panic.
pub(crate) fn resume_unwinding(payload: Payload) -> ! {
    panic::resume_unwind(payload)
}

/// Aborts the process if dropped while armed: guards code that must not unwind because
/// other threads rely on it finishing (setting a latch, for one).
pub(crate) struct AbortIfPanic;

impl Drop for AbortIfPanic {
    fn drop(&mut self) {
        eprintln!("prorata: unexpected panic in the pool's own code; aborting");
        std::process::abort();
    }
}
