//! Free cores kept for a share a moment, and the claims of woken workers.

use crate::shares::slot_set::SlotSet;

/// The free cores kept for the shares that gave them back a moment ago (or
/// that a holder gave one up for), and the shares whose woken workers have a
/// claim on the cores being given back; each slot's own figures (`held`,
/// `hold_until`, `claims`, `claim_until`) are in its [`super::Slot`].
///
/// Invariants: `held` is the sum of the slots' `held`, at most the free cores;
/// `kept` is the slots with `held > 0`, and `claimants` those with
/// `claims > 0`; `hold_nanos` is at most a quantum.
#[derive(Debug)]
pub(super) struct Holds {
    /// How long a core given back while another share waits stays kept for its
    /// share (see [`super::Config::hold_nanos`]).
    pub(super) hold_nanos: u64,
    /// Free cores kept for some share.
    pub(super) held: u32,
    /// The slots with kept cores: kept up to date so that a decision looks at
    /// these shares only.
    pub(super) kept: SlotSet,
    /// The slots with claims.
    pub(super) claimants: SlotSet,
}

impl Holds {
    /// No core kept, none claimed; a core is kept `hold_nanos` at most.
    pub(super) fn new(hold_nanos: u64) -> Self {
        Holds {
            hold_nanos,
            held: 0,
            kept: SlotSet::default(),
            claimants: SlotSet::default(),
        }
    }

    /// Room for `n` slots.
    pub(super) fn resize(&mut self, n: usize) {
        self.kept.resize(n);
        self.claimants.resize(n);
    }
}
