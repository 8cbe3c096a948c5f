//! Hooks for the shares layer (core permits). Today they do nothing but keep the fast
//! paths honest; the shares scheduler fills them in.
//!
//! - [`safe_point`]: called by iterator leaf loops; one relaxed load of a global flag
//!   while no shares exist.
//! - The per-worker flags `ThreadInfo::flags` (`flags.rs`), checked by
//!   `WorkerThread::check_flags` at each `join`, each job start and each `safe_point`.
//!   When the preemption request is raised, [`preempt_requested`] runs (cold).
//! - [`worker_waiting`]: the one place where a worker starts waiting for a latch
//!   (executing other jobs, then sleeping); when it goes on with its own work it checks
//!   its flags, so a permit given back while it slept is taken again first.

use std::sync::atomic::{AtomicBool, Ordering};

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
    worker.registry().shares.on_safe_point(worker.index());
}

/// The current worker is about to block in its sleep: a share worker gives its core
/// back, and raises its flag so that it takes one before running anything again.
#[inline]
pub(crate) fn worker_sleeping() {
    if SHARES_EXIST.load(Ordering::Relaxed) {
        if let Some(worker) = WorkerThread::current() {
            let registry = worker.registry();
            if registry.shares.on_sleep(worker.index()) {
                registry.thread_infos[worker.index()].flags.raise_preempt();
            }
        }
    }
}

/// The worker is about to wait for a latch (it may run other jobs, then sleep).
#[inline]
pub(crate) fn worker_waiting(_worker: &WorkerThread) {}
