//! The unindexed producer behind ranges too long to count in a `usize` on every
//! platform (`u64`, `i64`, `u128`, `i128`, and inclusive ranges of 32-bit and wider
//! types): a non-empty span `start..=last`, split in halves.

use crate::iter::plumbing::*;

/// The items `start..=last` (never empty).
pub(super) struct SpanProducer<T> {
    pub(super) start: T,
    pub(super) last: T,
}

/// The number of items in `start..=last`, if it fits in a `usize`.
pub(super) trait SpanLen {
    fn span_len(start: Self, last: Self) -> Option<usize>;
}

macro_rules! span_producer {
    ($($t:ty => $u:ty),*) => {$(
        impl SpanLen for $t {
            fn span_len(start: $t, last: $t) -> Option<usize> {
                // The distance, computed in the unsigned type of the same width.
                let gap = (last as $u).wrapping_sub(start as $u);
                usize::try_from(gap).ok()?.checked_add(1)
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
