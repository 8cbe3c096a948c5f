//! The pool's core permits, counted.

/// How many core permits the pool has, how many are free, and how many holders
/// are past the count or on their way out.
///
/// Invariants (with the holders, the workers in
/// [`super::workers::Worker::Holding`]): `free + holders = cores + excess`, a
/// permit is never lost or duplicated; `excess` is non-zero only after the
/// cores were lowered below the holders (see [`super::Allocator::set_cores`]),
/// and then no core is free; `in_flight` is the sum of the slots' `flagged`,
/// at most the holders.
#[derive(Debug)]
pub(super) struct CorePermits {
    /// The permits there are (at least 1).
    pub(super) cores: u32,
    /// Permits nobody holds (some may be kept for a share).
    pub(super) free: u32,
    /// Holders beyond `cores` after the cores were lowered: the next cores given
    /// back vanish instead of coming free (see [`super::Allocator::set_cores`]).
    pub(super) excess: u32,
    /// Holders asked to give their core back, not yet gone (the sum of the
    /// slots' `flagged`): cores already on their way to waiters.
    pub(super) in_flight: u32,
}

impl CorePermits {
    /// `cores` permits, all free.
    pub(super) fn new(cores: u32) -> Self {
        CorePermits {
            cores,
            free: cores,
            excess: 0,
            in_flight: 0,
        }
    }

    /// A holder gave its permit back: it pays off an excess, else comes free.
    pub(super) fn give_back(&mut self) {
        if self.excess > 0 {
            // The cores were lowered below the holders: this one vanishes.
            self.excess -= 1;
        } else {
            self.free += 1;
        }
    }
}
