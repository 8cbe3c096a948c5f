//! The draining traits, `par_drain()` and `par_drain(range)`: move items out of a
//! collection in parallel, leaving it empty or without that range.

use std::ops::{Bound, Range, RangeBounds};

use crate::iter::ParallelIterator;

/// Drains all items of a collection in parallel, leaving it empty (its capacity may
/// be kept).
///
/// ```
/// use prorata::iter::{ParallelDrainFull, ParallelIterator};
/// fn drain_all<C>(c: C) -> Option<usize>
/// where
///     C: ParallelDrainFull,
/// {
///     c.par_drain().opt_len()
/// }
/// ```
pub trait ParallelDrainFull {
    /// The draining parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// The items drained.
    type Item: Send;

    /// Moves every item out, in parallel.
    fn par_drain(self) -> Self::Iter;
}

/// Drains a range of items of a collection in parallel, leaving the rest in place.
///
/// ```
/// use prorata::prelude::*;
/// let mut v: Vec<i32> = (0..10).collect();
/// let hits = std::sync::atomic::AtomicI32::new(0);
/// v.par_drain(2..8).for_each(|x| { hits.fetch_add(x, std::sync::atomic::Ordering::Relaxed); });
/// assert_eq!(hits.into_inner(), 2 + 3 + 4 + 5 + 6 + 7);
/// assert_eq!(v, [0, 1, 8, 9]);
/// ```
pub trait ParallelDrainRange<Idx = usize> {
    /// The draining parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// The items drained.
    type Item: Send;

    /// Moves the items in `range` out, in parallel; items the iterator does not
    /// yield (it was dropped unused, or a consumer stopped or panicked) are dropped.
    ///
    /// # Panics
    ///
    /// If the range starts after it ends or ends past the collection's end, with
    /// Rayon's messages.
    fn par_drain<R: RangeBounds<Idx>>(self, range: R) -> Self::Iter;
}

/// Resolves `range` against a length `len`, panicking with Rayon's messages on a
/// range that does not fit.
#[track_caller]
pub(crate) fn checked_range<R: RangeBounds<usize>>(range: R, len: usize) -> Range<usize> {
    let start = match range.start_bound() {
        Bound::Unbounded => 0,
        Bound::Included(&i) if i <= len => i,
        Bound::Excluded(&i) if i < len => i + 1,
        bound => panic!("range start {bound:?} should be <= length {len}"),
    };
    let end = match range.end_bound() {
        Bound::Unbounded => len,
        Bound::Excluded(&i) if i <= len => i,
        Bound::Included(&i) if i < len => i + 1,
        bound => panic!("range end {bound:?} should be <= length {len}"),
    };
    assert!(
        start <= end,
        "range start {:?} should be <= range end {:?}",
        range.start_bound(),
        range.end_bound()
    );
    start..end
}
