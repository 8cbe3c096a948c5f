//! When to split: adaptively, by demand.
//!
//! A traversal starts with a budget of about one split per worker. Each split halves
//! the budget of both halves, so an undisturbed traversal makes about two pieces per
//! worker and then runs sequentially. A piece that was stolen is evidence of idle
//! workers, so it gets a fresh budget: work is split finely only where there is demand.

/// The budget of splits left on one branch of the traversal.
#[derive(Clone, Copy, Debug)]
pub(super) struct Splitter {
    splits: usize,
}

impl Splitter {
    pub(super) fn new() -> Self {
        Splitter {
            splits: crate::current_num_threads(),
        }
    }

    /// Decides whether to split again, spending budget. `migrated` says whether this
    /// piece was stolen by another worker.
    #[inline]
    pub(super) fn try_split(&mut self, migrated: bool) -> bool {
        if migrated {
            self.splits = crate::current_num_threads().max(self.splits / 2);
            true
        } else if self.splits > 0 {
            self.splits /= 2;
            true
        } else {
            false
        }
    }
}

/// A [`Splitter`] that also respects length limits: never a piece shorter than `min`,
/// and enough budget that pieces end up no longer than `max`.
#[derive(Clone, Copy, Debug)]
pub(super) struct LengthSplitter {
    inner: Splitter,
    min: usize,
}

impl LengthSplitter {
    pub(super) fn new(min: usize, max: usize, len: usize) -> Self {
        let mut inner = Splitter::new();
        // Halving a budget of len/max leaves pieces of at most `max` items.
        inner.splits = inner.splits.max(len / max.max(1));
        LengthSplitter {
            inner,
            min: min.max(1),
        }
    }

    #[inline]
    pub(super) fn try_split(&mut self, len: usize, migrated: bool) -> bool {
        len / 2 >= self.min && self.inner.try_split(migrated)
    }
}
