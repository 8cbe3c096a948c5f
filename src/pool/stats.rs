//! What the workers count (always) and record (with the `trace` feature), and
//! [`PoolStats`], what `ThreadPool::stats` reports.
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

/// What a pool's workers did so far (see [`ThreadPool::stats`](crate::ThreadPool::stats)):
/// jobs, steals, join frames published and claimed, sleeps and wake-ups, and the core
/// time of each of its shares. The workers of a share count in
/// [`Share::stats`](crate::Share::stats), not here.
///
/// Each worker counts its own (no shared counter is written), and only where it does
/// something costly anyway, so the counting is always on.
///
/// ```
/// use prorata::prelude::*;
///
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let before = pool.stats();
/// let sum: u64 = pool.install(|| (0..1_000_000u64).into_par_iter().sum());
/// assert_eq!(sum, 499_999_500_000);
/// let after = pool.stats();
/// assert!(after.jobs > before.jobs); // the installed job, at least
/// assert!(after.steals <= after.jobs);
/// assert!(after.shares.is_empty()); // no share: no core time to divide
/// println!("{after:?}");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PoolStats {
    /// Jobs the workers took from a queue and ran: `install`ed, spawned and broadcast
    /// jobs, and the second halves of `join`s that were published and then stolen or
    /// claimed (a half its own worker takes back runs inline and is not a job).
    pub jobs: u64,
    /// Jobs the workers stole from each other's deques.
    pub steals: u64,
    /// Second halves of `join`s that workers moved from their pending frames to their
    /// deques, where thieves can take them (when a job starts, when a thief asks,
    /// before a worker waits).
    pub frames_published: u64,
    /// Pending join frames an idle worker took directly from a busy one (which was
    /// not publishing: blocked, or in a long sequential stretch).
    pub frames_claimed: u64,
    /// Times a worker blocked, having found nothing to do.
    pub sleeps: u64,
    /// Times another thread woke a sleeping worker (new work, a latch it waits on,
    /// the pool's end); a sleeper that naps and wakes by itself is not counted.
    pub wake_ups: u64,
    /// The core time each share of this pool received so far, by share number (empty
    /// before the pool's first share). See [`crate::Share`].
    pub shares: Vec<crate::ShareCoreTime>,
}

impl PoolStats {
    pub(crate) fn new(t: Totals, shares: Vec<crate::ShareCoreTime>) -> Self {
        PoolStats {
            jobs: t.jobs,
            steals: t.steals,
            frames_published: t.frames_published,
            frames_claimed: t.frames_claimed,
            sleeps: t.sleeps,
            wake_ups: t.wake_ups,
            shares,
        }
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
