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
