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

/// The worker's preemption flag was found set. For now: clear it and go on.
#[cold]
pub(crate) fn preempt_requested(worker: &WorkerThread) {
    worker.registry().thread_infos[worker.index()]
        .preempt
        .store(false, Ordering::Relaxed);
}

/// The worker is about to wait for a latch (it may run other jobs, then sleep).
#[inline]
pub(crate) fn worker_waiting(_worker: &WorkerThread) {}

/// The worker's latch is set: it goes on with its own work.
#[inline]
pub(crate) fn worker_resumed(_worker: &WorkerThread) {}
