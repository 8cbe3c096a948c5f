//! The unindexed producer behind ranges too long to count in a `usize` on every
//! platform (`u64`, `i64`, `u128`, `i128`, and inclusive ranges of 32-bit and wider
//! types): a non-empty span `start..=last`, split in halves.

use crate::iter::plumbing::*;
use crate::iter::{IntoParallelIterator, ParallelIterator};

/// The items `start..=last` (never empty).
pub(super) struct SpanProducer<T> {
    pub(super) start: T,
    pub(super) last: T,
}

/// The number of items in `start..=last`, if it fits in a `usize`.
pub(super) trait SpanLen: Sized {
    fn span_len(start: Self, last: Self) -> Option<usize>;

    /// The `i`-th item of a span that begins at `start` (`i` within the span).
    fn nth_from(start: Self, i: usize) -> Self;
}

/// Drives the items `start..=last` into `consumer`. When their number fits in a
/// `usize` they go as an indexed `usize` range mapped back (as Rayon does), so
/// consumers that need positions, like `collect` into a `Vec`, can split them;
/// otherwise as a [`SpanProducer`] split in halves.
pub(super) fn drive_span<T, C>(start: T, last: T, consumer: C) -> C::Result
where
    T: SpanLen + Copy + Send + Sync,
    SpanProducer<T>: UnindexedProducer<Item = T>,
    C: UnindexedConsumer<T>,
{
    match T::span_len(start, last) {
        Some(len) => (0..len)
            .into_par_iter()
            .map(move |i| T::nth_from(start, i))
            .drive_unindexed(consumer),
        None => bridge_unindexed(SpanProducer { start, last }, consumer),
    }
}

macro_rules! span_producer {
    ($($t:ty => $u:ty),*) => {$(
        impl SpanLen for $t {
            fn span_len(start: $t, last: $t) -> Option<usize> {
                // The distance, computed in the unsigned type of the same width.
                let gap = (last as $u).wrapping_sub(start as $u);
                usize::try_from(gap).ok()?.checked_add(1)
            }

            fn nth_from(start: $t, i: usize) -> $t {
                // Wrapping is exact: the true sum lies in the span.
                start.wrapping_add(i as $t)
            }
        }

        impl UnindexedProducer for SpanProducer<$t> {
            type Item = $t;

            fn split(self) -> (Self, Option<Self>) {
                let gap = (self.last as $u).wrapping_sub(self.start as $u);
                if gap == 0 {
                    return (self, None);
                }
                let mid = self.start.wrapping_add((gap / 2) as $t);
                let right = SpanProducer { start: mid + 1, last: self.last };
                (SpanProducer { start: self.start, last: mid }, Some(right))
            }

            fn fold_with<F: Folder<$t>>(self, folder: F) -> F {
                folder.consume_iter(self.start..=self.last)
            }
        }
    )*};
}

span_producer!(
    u32 => u32, i32 => u32, usize => usize, isize => usize,
    u64 => u64, i64 => u64, u128 => u128, i128 => u128
);
