//! What the workers count (always) and record (with the `trace` feature), for
//! `ThreadPool::stats` and `Share::stats` (`crate::ShareStats`).
//!
//! Every worker has its own counters in the registry, written only by itself (a
//! relaxed load and store, no read-modify-write) and summed by a reader. They count
//! where a worker does something costly anyway: a job start, a steal, a publication or
//! claim of a join frame, a sleep and a wake-up; never on the fast path of a `join`.
//! The same calls ([`WorkerThread::note`], [`note_current`]) feed the timeline of
//! `crate::trace`, which compiles to nothing without the feature.

use std::sync::atomic::{AtomicU64, Ordering};

use super::worker::WorkerThread;
use crate::trace::Kind;

/// Counters of one worker: written only by that worker, summed on read.
#[derive(Debug, Default)]
pub(crate) struct WorkerCounters {
    jobs: AtomicU64,
    steals: AtomicU64,
    frames_published: AtomicU64,
    frames_claimed: AtomicU64,
    sleeps: AtomicU64,
    wake_ups: AtomicU64,
}

/// Adds one to `counter`; only the owning worker calls this.
#[inline(always)]
fn bump(counter: &AtomicU64) {
    counter.store(counter.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

/// The counters of a pool's workers, summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    pub(crate) jobs: u64,
    pub(crate) steals: u64,
    pub(crate) frames_published: u64,
    pub(crate) frames_claimed: u64,
    pub(crate) sleeps: u64,
    pub(crate) wake_ups: u64,
}

impl Totals {
    /// Sums the counters of a pool's workers.
    pub(crate) fn of(counters: &[crossbeam_utils::CachePadded<WorkerCounters>]) -> Self {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        counters.iter().fold(Totals::default(), |t, c| Totals {
            jobs: t.jobs + load(&c.jobs),
            steals: t.steals + load(&c.steals),
            frames_published: t.frames_published + load(&c.frames_published),
            frames_claimed: t.frames_claimed + load(&c.frames_claimed),
            sleeps: t.sleeps + load(&c.sleeps),
            wake_ups: t.wake_ups + load(&c.wake_ups),
        })
    }
}

impl WorkerThread {
    /// This worker did `kind` (with argument `arg`): counted, and recorded if a trace
    /// is on.
    #[inline(always)]
    pub(crate) fn note(&self, kind: Kind, arg: u32) {
        let c = self.counters();
        match kind {
            Kind::JobStart => bump(&c.jobs),
            Kind::Steal => bump(&c.steals),
            Kind::Publish => bump(&c.frames_published),
            Kind::Claim => bump(&c.frames_claimed),
            Kind::SleepStart => bump(&c.sleeps),
            Kind::SleepEnd if arg != 0 => bump(&c.wake_ups),
            _ => {}
        }
        self.registry().trace.record(self.index(), kind, arg);
    }
}

/// [`WorkerThread::note`] on the current thread's worker, if it is one (for the sleep
/// and the shares' hooks).
#[inline]
pub(crate) fn note_current(kind: Kind, arg: u32) {
    if let Some(worker) = WorkerThread::current() {
        worker.note(kind, arg);
    }
}
