//! A set of slots with constant-time insertion, removal and membership, and
//! iteration over its members only (in no particular order): the allocator keeps
//! the shares that wait, hold, keep a core or linger in these, so that a decision
//! looks at those shares instead of every share of the pool.

#[derive(Debug, Default)]
pub(crate) struct SlotSet {
    members: Vec<usize>,
    /// Each slot's index in `members` ([`ABSENT`]: not a member).
    pos: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl SlotSet {
    /// Makes room for slots `0..slots`.
    pub(crate) fn resize(&mut self, slots: usize) {
        if self.pos.len() < slots {
            self.pos.resize(slots, ABSENT);
        }
    }

    pub(crate) fn contains(&self, slot: usize) -> bool {
        self.pos.get(slot).is_some_and(|&p| p != ABSENT)
    }

    pub(crate) fn insert(&mut self, slot: usize) {
        if !self.contains(slot) {
            self.pos[slot] = self.members.len() as u32;
            self.members.push(slot);
        }
    }

    pub(crate) fn remove(&mut self, slot: usize) {
        if !self.contains(slot) {
            return;
        }
        let p = self.pos[slot] as usize;
        self.members.swap_remove(p);
        if let Some(&moved) = self.members.get(p) {
            self.pos[moved] = p as u32;
        }
        self.pos[slot] = ABSENT;
    }

    /// Inserts `slot` if `member`, else removes it.
    pub(crate) fn set(&mut self, slot: usize, member: bool) {
        if member {
            self.insert(slot);
        } else {
            self.remove(slot);
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.members.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The members, in no particular order.
    pub(crate) fn as_slice(&self) -> &[usize] {
        &self.members
    }

    /// Panics unless the members are exactly the slots for which `member` holds.
    #[cfg(test)]
    pub(crate) fn check(&self, slots: usize, member: impl Fn(usize) -> bool, what: &str) {
        for s in 0..slots {
            assert_eq!(self.contains(s), member(s), "{what}: slot {s} out of step");
        }
        assert!(
            self.members.iter().all(|&s| s < slots),
            "{what}: stray slot"
        );
    }
}
