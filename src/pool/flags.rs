//! Requests to a worker: one byte that other threads raise and the worker checks at
//! every join, job start and iterator safe point, and the *gate* of its joins' fast path.
//!
//! The gate is the highest frame index a `join` may record without a slow path
//! (`frames.rs`). Raising a request also closes it (stores 0), so that the join's one
//! load and comparison against its frame stack's top checks for requests too: while
//! nothing is asked a `join` reads no flag at all; its next one after a request takes the
//! slow path, which answers. Job starts and iterator safe points read the flags (one
//! relaxed load while nothing is asked).
//!
//! A raised request is never hidden behind an open gate: the requester raises its bit
//! (an acquiring read-modify-write) and then closes the gate; the owner reopens the gate
//! (a store) and then takes the bits (a releasing swap). If the requester's bit came
//! before the owner's swap, the owner takes it; otherwise the owner's reopening happens
//! before the requester's closing, which therefore comes last. Apart from that the
//! owner only closes the gate; it opens it (to a new high-water mark too) only by a
//! reopening as above.
//! Relaxed is enough for the rest: a flag only asks the worker to look, and what it then
//! reads is synchronised by its own means (the permits' lock, the deque).

use super::sync::{AtomicU8, AtomicUsize, Ordering};

/// The shares ask the worker to take a core (it has none) or to give its core back.
const PREEMPT: u8 = 1;
/// A thief took a job from this worker's deque: publish a pending join frame, so the
/// next thief finds the oldest pending work (see `frames.rs`).
const PUBLISH: u8 = 2;

/// The request flags of one worker, and the gate of its joins' fast path.
#[derive(Debug, Default)]
pub(crate) struct WorkerFlags {
    bits: AtomicU8,
    gate: AtomicUsize,
}

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
        self.raise(PREEMPT);
    }

    /// Tells the worker a thief took a job from its deque.
    #[inline]
    pub(crate) fn raise_publish(&self) {
        if self.bits.load(Ordering::Relaxed) & PUBLISH == 0 {
            self.raise(PUBLISH);
        }
    }

    #[inline]
    fn raise(&self, bit: u8) {
        // Acquire: if the owner's last swap came first, its reopening of the gate
        // happens before the closing below.
        self.bits.fetch_or(bit, Ordering::Acquire);
        self.gate.store(0, Ordering::Relaxed);
    }

    /// Whether any request is raised (the worker's check at safe points).
    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.bits.load(Ordering::Relaxed) != 0
    }

    /// Whether the shares asked for a check.
    #[inline]
    pub(crate) fn preempt_pending(&self) -> bool {
        self.bits.load(Ordering::Relaxed) & PREEMPT != 0
    }

    /// The gate (owner): frames at indices `1..=gate` may take the fast path.
    #[inline]
    pub(crate) fn gate(&self) -> usize {
        self.gate.load(Ordering::Relaxed)
    }

    /// Owner: opens the gate to `limit` and clears and returns the raised requests (a
    /// request raised after this closes the gate again, and is seen at the next check).
    #[inline]
    pub(crate) fn take(&self, limit: usize) -> Requests {
        self.gate.store(limit, Ordering::Relaxed);
        // Release: pairs with `raise`'s acquire (see the module's comment).
        Requests(self.bits.swap(0, Ordering::AcqRel))
    }

    /// Owner: closes the gate, so that the next join's slow path reopens it to a lower
    /// high-water mark (closing never hides a request).
    #[inline]
    pub(crate) fn close_gate(&self) {
        self.gate.store(0, Ordering::Relaxed);
    }

    /// Whether the gate is below `limit`: closed by a request since the last `take`.
    #[inline]
    pub(crate) fn gate_closed(&self, limit: usize) -> bool {
        self.gate.load(Ordering::Relaxed) < limit
    }
}
