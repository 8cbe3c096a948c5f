//! The allocator's counts of workers per share, as the policies read them.

use crate::shares::slot_set::SlotSet;

/// Per slot, the workers waiting, the holders not asked to give their core
/// back and the demand, with the sets of slots kept from the first two: what
/// the policies read in the [`super::View`], under the same names.
///
/// Invariants: `waiters` is the slots with `waiting > 0` and `holding` those
/// with `holders > 0`; `demand` is `waiting + holders` plus the slot's holders
/// asked to give their core back. Between decisions, `waiting` is the length of
/// the slot's queue; within one it may differ: the waiters of a share at its
/// ceiling are hidden (0, see [`super::ceilings::Ceilings::hidden`]), and a
/// share whose workers were just woken counts them for a moment (see
/// [`super::Allocator::anticipate`]).
#[derive(Debug, Default)]
pub(super) struct SlotCounts {
    /// Workers waiting for a core.
    pub(super) waiting: Vec<u32>,
    /// Holders not yet asked to give their core back.
    pub(super) holders: Vec<u32>,
    /// Workers that want a core (waiting, or holding one, asked to give it back
    /// or not).
    pub(super) demand: Vec<u32>,
    /// The slots with waiting workers, kept up to date so that a decision looks
    /// at these shares only.
    pub(super) waiters: SlotSet,
    /// The slots with holders not asked to give their core back.
    pub(super) holding: SlotSet,
}

impl SlotCounts {
    /// Room for `n` slots.
    pub(super) fn resize(&mut self, n: usize) {
        self.waiting.resize(n, 0);
        self.holders.resize(n, 0);
        self.demand.resize(n, 0);
        self.waiters.resize(n);
        self.holding.resize(n);
    }

    /// Sets the number of waiting workers of `slot` (its demand is left to the
    /// caller).
    pub(super) fn set_waiting(&mut self, slot: usize, n: u32) {
        self.waiting[slot] = n;
        self.waiters.set(slot, n > 0);
    }

    /// Sets the number of unflagged holders of `slot` (its demand is left to the
    /// caller).
    pub(super) fn set_holders(&mut self, slot: usize, n: u32) {
        self.holders[slot] = n;
        self.holding.set(slot, n > 0);
    }
}
