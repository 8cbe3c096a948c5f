//! A watchdog: a case that could hang runs on its own thread, and the test fails
//! (instead of stalling the suite) if it does not finish in time.

use std::sync::mpsc;
use std::time::Duration;

/// Far longer than any case takes on a loaded machine.
pub const WATCHDOG: Duration = Duration::from_secs(60);

/// Runs `case` on a thread of its own and returns its result; panics with `what` if
/// it has not finished within `limit` (its thread is left behind, blocked), and
/// resumes its panic if it panicked.
pub fn finishes_within<R, F>(limit: Duration, what: &str, case: F) -> R
where
    R: Send + 'static,
    F: FnOnce() -> R + Send + 'static,
{
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(case)));
    });
    match finished.recv_timeout(limit) {
        Ok(Ok(value)) => value,
        Ok(Err(payload)) => std::panic::resume_unwind(payload),
        Err(_) => panic!("{what}: hung (no end within {limit:?})"),
    }
}
