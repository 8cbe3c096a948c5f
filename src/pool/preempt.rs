//! Hooks for the shares layer (core permits). Today they do nothing but keep the fast
//! paths honest; the shares scheduler fills them in.
//!
//! - [`safe_point`]: called by iterator leaf loops; one relaxed load of a global flag
//!   while no shares exist.
//! - The per-worker flag `ThreadInfo::preempt` (in `registry.rs`), checked by
//!   `WorkerThread::check_preempt` at each `join` and each job start, and by
//!   `safe_point` once shares exist. When set, [`preempt_requested`] runs (cold).
//! - [`worker_waiting`] / [`worker_resumed`]: the one place where a worker starts waiting
//!   for a latch (executing other jobs, then sleeping) and where it goes on with its own
//!   work. A permit can be given back in the first and re-acquired in the second.

use std::sync::atomic::{AtomicBool, Ordering};

use super::worker::WorkerThread;

/// Set once some pool uses shares; until then a safe point is one relaxed load.
pub(crate) static SHARES_EXIST: AtomicBool = AtomicBool::new(false);

/// A safe point: where a worker may be asked to give its core back.
/// Iterator leaf loops call it every few thousand items.
#[inline]
#[allow(dead_code)] // used by the iterator layer
pub(crate) fn safe_point() {
    if SHARES_EXIST.load(Ordering::Relaxed) {
        safe_point_cold();
    }
}

#[cold]
fn safe_point_cold() {
    if let Some(worker) = WorkerThread::current() {
        worker.check_preempt();
    }
}

/// Some pool made a share: safe points start checking the per-worker flags.
pub(crate) fn enable_shares() {
    SHARES_EXIST.store(true, Ordering::Relaxed);
}

/// The worker's preemption flag was found set: clear it, then let the shares layer
/// take a core (a share worker without one) or give it back (one over its share).
#[cold]
pub(crate) fn preempt_requested(worker: &WorkerThread) {
    let registry = worker.registry();
    registry.thread_infos[worker.index()]
        .preempt
        .store(false, Ordering::Relaxed);
    // The worker may park here: its queued jobs must stay stealable meanwhile.
    worker.grant_local_jobs();
    registry.shares.on_safe_point(worker.index());
}

/// The current worker is about to block in its sleep: a share worker gives its core
/// back, and raises its flag so that it takes one before running anything again.
#[inline]
pub(crate) fn worker_sleeping() {
    if SHARES_EXIST.load(Ordering::Relaxed) {
        if let Some(worker) = WorkerThread::current() {
            let registry = worker.registry();
            if registry.shares.on_sleep(worker.index()) {
                registry.thread_infos[worker.index()]
                    .preempt
                    .store(true, Ordering::Relaxed);
            }
        }
    }
}

/// The worker is about to wait for a latch (it may run other jobs, then sleep).
#[inline]
pub(crate) fn worker_waiting(_worker: &WorkerThread) {}

/// The worker's latch is set: it goes on with its own work, after taking a core
/// back if it gave its own while it slept.
#[inline]
pub(crate) fn worker_resumed(worker: &WorkerThread) {
    worker.check_preempt();
}
