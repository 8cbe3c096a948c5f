//! What the allocator keeps for the shares' ceilings.

use crate::shares::tree::ShareTree;

/// The cores each share's subtree holds, kept while some share has a ceiling,
/// and the shares whose waiters are hidden from the policy for one decision
/// because they are at their ceiling (see [`super::Allocator::set_ceiling`]).
///
/// Invariants: while the tree has a ceiling, `sub_hold[s]` is the number of
/// workers holding a core (flagged or not) in slot `s` or below it; `hidden`
/// is empty between decisions, and within one holds the slots whose
/// `waiting` count is 0 in the [`super::counts::SlotCounts`] while their queue
/// is not.
#[derive(Debug, Default)]
pub(super) struct Ceilings {
    /// While some share has a ceiling: the cores each slot's subtree holds
    /// (flagged holders included), kept up to date at each grant and give-back
    /// (left alone, and recounted at the first ceiling, while none has one).
    pub(super) sub_hold: Vec<u32>,
    /// Slots whose waiters are hidden from the policy for one decision: their
    /// share (or one above it) is at its ceiling, so none of them may get a
    /// core, and the policy must neither give one a free core nor take a core
    /// from another share for it.
    pub(super) hidden: Vec<usize>,
}

impl Ceilings {
    /// Room for `n` slots.
    pub(super) fn resize(&mut self, n: usize) {
        self.sub_hold.resize(n, 0);
    }

    /// A holder of `slot` came (`+1`) or went (`-1`): the counts of its subtree
    /// and of those above it follow (while some share has a ceiling).
    pub(super) fn add_sub_hold(&mut self, tree: &ShareTree, slot: usize, delta: i32) {
        let mut at = Some(slot as u32);
        while let Some(i) = at {
            let h = &mut self.sub_hold[i as usize];
            *h = h
                .checked_add_signed(delta)
                .expect("subtree holders out of step");
            at = tree.at(i).parent;
        }
    }

    /// Whether `slot`'s share, or one above it, holds as many cores as its
    /// ceiling (`by` = 0) or more than it (`by` = 1).
    pub(super) fn reached(&self, tree: &ShareTree, slot: usize, by: u32) -> bool {
        if !tree.has_ceilings() {
            return false;
        }
        let mut at = Some(slot as u32);
        while let Some(i) = at {
            let node = tree.at(i);
            if node
                .ceiling
                .is_some_and(|c| self.sub_hold[i as usize] >= c + by)
            {
                return true;
            }
            at = node.parent;
        }
        false
    }
}
