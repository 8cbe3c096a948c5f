//! Hooks for the shares layer (core permits).
//!
//! - [`safe_point`]: called by iterator leaf loops; one relaxed load of a global flag
//!   while no shares exist. [`Pacer`] sizes the runs between two of them.
//! - The per-worker flags `ThreadInfo::flags` (`flags.rs`), checked by
//!   `WorkerThread::check_flags` at each job start and each `safe_point`; a `join`
//!   sees them through its fast path's gate, which a raised flag closes.
//!   When the preemption request is raised, [`preempt_requested`] runs (cold).
//! - [`worker_idle`]: a worker ran out of work (`Sleep::start_looking`), ends another
//!   fruitless search round (`Sleep::no_work_found`: it may have taken a core back to
//!   steal, then found nothing) or exits (the main loop): a share worker gives its core
//!   back. [`worker_resumed`]: the end of a latch wait, where it takes one again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::worker::WorkerThread;

/// Set once some pool uses shares; until then a safe point is one relaxed load.
pub(crate) static SHARES_EXIST: AtomicBool = AtomicBool::new(false);

/// A safe point: where a worker may be asked to give its core back, and where it
/// publishes a pending join frame if thieves have nothing of its own to take.
/// Iterator leaf loops call it every few thousand items.
#[inline]
#[allow(dead_code)] // used by the iterator layer
pub(crate) fn safe_point() {
    if let Some(worker) = WorkerThread::current() {
        worker.safe_point();
    }
}

/// Paces the safe points of a sequential loop (an iterator's leaf): it runs
/// [`Pacer::run`] items, then calls [`Pacer::passed`]. Without shares a run is
/// 4096 items and costs one relaxed load. With shares, runs are timed and sized to
/// take 20-80 µs whatever an item costs (from 64 items, doubled or halved after
/// each run: one clock read per run), so that a worker asked for its core gives it
/// within a fraction of a quantum even when items take microseconds (a fixed 4096
/// items of 3 µs took 12 ms, three quanta).
#[derive(Clone, Copy)]
pub(crate) struct Pacer {
    run: usize,
    last: Option<Instant>,
}

/// Items per run without shares.
const PLAIN_RUN: usize = 4096;
/// Items of the first timed run.
const FIRST_RUN: usize = 64;
/// Longest timed run, in items (cheap items: 2^20 of them take about a millisecond).
const MAX_RUN: usize = 1 << 20;
/// A timed run shorter than this doubles...
const SHORT_RUN: Duration = Duration::from_micros(20);
/// ...and one longer than this halves.
const LONG_RUN: Duration = Duration::from_micros(80);

impl Pacer {
    #[inline]
    pub(crate) fn new() -> Self {
        if SHARES_EXIST.load(Ordering::Relaxed) {
            Pacer {
                run: FIRST_RUN,
                last: Some(Instant::now()),
            }
        } else {
            Pacer {
                run: PLAIN_RUN,
                last: None,
            }
        }
    }

    /// Items to process before the next safe point.
    #[inline]
    pub(crate) fn run(&self) -> usize {
        self.run
    }

    /// A run is done: the safe point, then the next run's length.
    #[inline]
    pub(crate) fn passed(&mut self) {
        safe_point();
        if self.last.is_some() || SHARES_EXIST.load(Ordering::Relaxed) {
            self.retime();
        }
    }

    #[cold]
    fn retime(&mut self) {
        let mut now = Instant::now();
        match self.last {
            None => self.run = FIRST_RUN,
            Some(t) => {
                let took = now - t;
                if took < SHORT_RUN {
                    self.run = (self.run * 2).min(MAX_RUN);
                } else if took > LONG_RUN {
                    self.run = (self.run / 2).max(1);
                }
            }
        }
        if paced_yield() {
            // Time spent off the core is not the next run's.
            now = Instant::now();
        }
        self.last = Some(now);
    }
}

/// A paced safe point of a worker of a pool with shares (see
/// `PoolShares::on_paced_safe_point`): it may let a ready thread run first.
/// Returns whether it yielded.
#[inline]
fn paced_yield() -> bool {
    WorkerThread::current().is_some_and(|w| {
        let registry = w.registry();
        let yielded = registry.shares.on_paced_safe_point(w.index());
        if registry.start_was_refused() {
            registry.retry_refused_start(w.index());
        }
        yielded
    })
}

/// Some pool made a share: safe points start checking the per-worker flags.
pub(crate) fn enable_shares() {
    SHARES_EXIST.store(true, Ordering::Relaxed);
}

/// The worker's preemption flag was found set (and cleared): let the shares layer
/// take a core (a share worker without one) or give it back (one over its share).
#[cold]
pub(crate) fn preempt_requested(worker: &WorkerThread) {
    // It may park here: its pending join frames go where its share's others can run them,
    // and every job of its deque must be stealable (a BWoS deque keeps some private).
    worker.publish_all();
    worker.grant_local_jobs();
    let registry = worker.registry();
    registry.shares.on_safe_point(worker.index());
    if registry.start_was_refused() {
        // It may hold the core it waited for: the refused start may pass now.
        registry.retry_refused_start(worker.index());
    }
}

/// The current worker found no work (it starts looking, or ends another search
/// round): a share worker gives its core back, and raises its flag so that it takes
/// one before running anything again.
#[inline]
pub(crate) fn worker_idle() {
    if SHARES_EXIST.load(Ordering::Relaxed) {
        if let Some(worker) = WorkerThread::current() {
            let registry = worker.registry();
            if registry.shares.on_idle(worker.index()) {
                registry.thread_infos[worker.index()].flags.raise_preempt();
            }
        }
    }
}

/// The worker's latch is set: it goes on with its own work, after taking a core
/// back if it gave its own while it slept (and answering a publication request).
#[inline]
pub(crate) fn worker_resumed(worker: &WorkerThread) {
    worker.check_flags();
}
