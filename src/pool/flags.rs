//! Requests to a worker: one byte that other threads raise and the worker checks at
//! every join, job start and iterator safe point (one relaxed load while nothing is
//! asked). Relaxed is enough: a flag only asks the worker to look, and what it then
//! reads is synchronised by its own means (the permits' lock, the deque).

use std::sync::atomic::{AtomicU8, Ordering};

/// The shares ask the worker to take a core (it has none) or to give its core back.
const PREEMPT: u8 = 1;
/// A thief took a job from this worker's deque: publish a pending join frame, so the
/// next thief finds the oldest pending work (see `frames.rs`).
const PUBLISH: u8 = 2;

/// The request flags of one worker.
#[derive(Debug, Default)]
pub(crate) struct WorkerFlags(AtomicU8);

/// Requests found raised by [`WorkerFlags::take`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Requests(u8);

impl Requests {
    pub(crate) fn preempt(self) -> bool {
        self.0 & PREEMPT != 0
    }

    pub(crate) fn publish(self) -> bool {
        self.0 & PUBLISH != 0
    }
}

impl WorkerFlags {
    /// Asks the worker to see the shares at its next check.
    #[inline]
    pub(crate) fn raise_preempt(&self) {
        self.0.fetch_or(PREEMPT, Ordering::Relaxed);
    }

    /// Tells the worker a thief took a job from its deque.
    #[inline]
    pub(crate) fn raise_publish(&self) {
        if self.0.load(Ordering::Relaxed) & PUBLISH == 0 {
            self.0.fetch_or(PUBLISH, Ordering::Relaxed);
        }
    }

    /// Whether any request is raised (the worker's fast check).
    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.0.load(Ordering::Relaxed) != 0
    }

    /// Whether the shares asked for a check.
    #[inline]
    pub(crate) fn preempt_pending(&self) -> bool {
        self.0.load(Ordering::Relaxed) & PREEMPT != 0
    }

    /// Clears and returns the raised requests (a request raised after this is seen at
    /// the next check).
    #[inline]
    pub(crate) fn take(&self) -> Requests {
        Requests(self.0.swap(0, Ordering::Relaxed))
    }
}
