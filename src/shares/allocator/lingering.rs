//! The activity memory: shares idle for a moment that still count as active.

use crate::shares::slot_set::SlotSet;

/// The shares whose demand fell to zero a moment ago and that still count as
/// active (they linger) until their activity memory runs out, and the earliest
/// time one of them may stop; each slot's `idle_since` is in its
/// [`super::Slot`].
///
/// Invariants: `lingerers` is the slots with `idle_since` set; none of them
/// has been idle for `activity_memory` before `until` (a decision before then
/// does not look at them).
#[derive(Debug)]
pub(super) struct Lingering {
    /// How long a share whose demand fell to zero still counts as active.
    pub(super) activity_memory: u64,
    /// The lingering slots: kept up to date so that a decision looks at these
    /// shares only.
    pub(super) lingerers: SlotSet,
    /// No lingering share stops counting as active before this time (the
    /// earliest end of their activity memory, or earlier).
    pub(super) until: u64,
}

impl Lingering {
    /// Nobody lingers; a share lingers `activity_memory` at most.
    pub(super) fn new(activity_memory: u64) -> Self {
        Lingering {
            activity_memory,
            lingerers: SlotSet::default(),
            until: u64::MAX,
        }
    }

    /// Whether a lingering share's activity memory may have run out at `now`
    /// (the earliest end among them has come).
    pub(super) fn may_expire(&self, now: u64) -> bool {
        !self.lingerers.is_empty() && now >= self.until
    }

    /// `slot` starts lingering at `now` (its `idle_since`, set by the caller).
    pub(super) fn start(&mut self, slot: usize, now: u64) {
        self.lingerers.insert(slot);
        self.until = self.until.min(now.saturating_add(self.activity_memory));
    }
}
