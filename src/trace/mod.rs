//! A timeline of what the workers did: which job ran when on which worker, steals,
//! claimed and published join frames, sleeps and wake-ups, and for shares the cores
//! granted, waited for and given back (cargo feature `trace`).
//!
//! One file per concept:
//! * `ring`: a worker's record, appended by that worker alone without a lock (a ring of
//!   chunks; the lock is taken once per chunk, and by a reader), model-checked with loom;
//! * `session`: starting and stopping a recording of a pool and all its shares (a hub
//!   shared by the pool and its shares), collecting the rings into a [`Trace`];
//! * `timeline`: the public [`Trace`], its lanes and events;
//! * `spans`: events paired into spans (jobs, sleeps, waits for a core), shared by
//! * `chrome` (Chrome trace event JSON, for Perfetto and chrome://tracing) and
//! * `svg` (a self-contained picture: one lane per worker, coloured by share).
//!
//! Without the feature, `off` has the same recorder with nothing in it: every hook in
//! the pool compiles to nothing, so a build without `trace` pays nothing.
//!
//! The pool calls the hooks through `WorkerThread::note` (`pool/stats.rs`), which also
//! counts what `ThreadPool::stats` reports; nothing is recorded on the fast path of a
//! `join` (a join whose second half nobody takes is not a job).

#[cfg(any(feature = "trace", all(loom, test)))]
mod ring;
#[cfg(any(feature = "trace", all(loom, test)))]
mod sync;

#[cfg(feature = "trace")]
mod chrome;
#[cfg(feature = "trace")]
mod session;
#[cfg(feature = "trace")]
mod spans;
#[cfg(feature = "trace")]
mod svg;
#[cfg(feature = "trace")]
mod timeline;

#[cfg(not(feature = "trace"))]
mod off;

#[cfg(all(loom, test))]
mod loom_tests;
#[cfg(all(feature = "trace", test, not(loom)))]
mod tests;

#[cfg(not(feature = "trace"))]
pub(crate) use off::{Recorder, adopt};
#[cfg(feature = "trace")]
pub(crate) use session::{Recorder, adopt};
#[cfg(feature = "trace")]
pub use timeline::{Trace, TraceEvent, TraceEventKind, TraceLane};

/// What a worker did, as recorded (the argument of each kind is in brackets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    /// It started a job taken from a queue (injected, spawned, stolen, claimed).
    #[default]
    JobStart,
    /// The job ended.
    JobEnd,
    /// It stole a job from a deque (the victim's index).
    Steal,
    /// It claimed another worker's pending join frame.
    Claim,
    /// It published one of its pending join frames to its deque.
    Publish,
    /// It blocked, with nothing to do.
    SleepStart,
    /// It woke (1 if another thread woke it, 0 at the end of a nap).
    SleepEnd,
    /// A worker of a share waits for a core.
    CoreWait,
    /// It was granted a core.
    CoreGranted,
    /// It gave its core back because its share was over its proportion (then waits).
    Preempted,
    /// It gave its core back, having nothing to do.
    CoreReleased,
}
