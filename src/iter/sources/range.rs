//! Parallel iterators over ranges, `(a..b).into_par_iter()`, for every integer type
//! and `char`. As in Rayon, ranges of `u64`, `i64`, `u128` and `i128` are not
//! indexed (their length may not fit in a `usize`); the others are.

use std::ops::Range;

use super::char_range::{CharProducer, char_index};
use super::range_sealed::sealed_range_iter;
use super::range_span::{SpanLen, drive_span};
use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator over a range, made by `(a..b).into_par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::range::Iter<usize> = (0..10).into_par_iter();
/// assert_eq!(it.len(), 10);
/// let wide: prorata::range::Iter<u64> = (0..10u64).into_par_iter();
/// assert_eq!(wide.opt_len(), Some(10));
/// ```
#[derive(Debug, Clone)]
pub struct Iter<T> {
    range: Range<T>,
}

/// The indexed producer of integer ranges.
struct RangeProducer<T> {
    range: Range<T>,
}

sealed_range_iter!(Range);

macro_rules! indexed_range {
    ($($t:ty),*) => {$(
        impl RangeInteger for $t {
            fn drive_unindexed<C: UnindexedConsumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                bridge(iter, consumer)
            }

            fn opt_len(iter: &Iter<$t>) -> Option<usize> {
                Some(iter.range.len())
            }
        }

        impl IndexedRangeInteger for $t {
            fn len(iter: &Iter<$t>) -> usize {
                iter.range.len()
            }

            fn with_producer<CB: ProducerCallback<$t>>(iter: Iter<$t>, callback: CB) -> CB::Output {
                callback.callback(RangeProducer { range: iter.range })
            }
        }

        impl Producer for RangeProducer<$t> {
            type Item = $t;
            type IntoIter = Range<$t>;

            fn into_iter(self) -> Range<$t> {
                self.range
            }

            fn split_at(self, index: usize) -> (Self, Self) {
                // Wrapping: `index` fits the range, but may not fit the signed type.
                let mid = self.range.start.wrapping_add(index as $t);
                (
                    RangeProducer { range: self.range.start..mid },
                    RangeProducer { range: mid..self.range.end },
                )
            }
        }
    )*};
}

indexed_range!(u8, u16, u32, usize, i8, i16, i32, isize);

macro_rules! unindexed_range {
    ($($t:ty),*) => {$(
        impl RangeInteger for $t {
            fn drive_unindexed<C: UnindexedConsumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                if iter.range.is_empty() {
                    return consumer.into_folder().complete();
                }
                drive_span(iter.range.start, iter.range.end - 1, consumer)
            }

            fn opt_len(iter: &Iter<$t>) -> Option<usize> {
                if iter.range.is_empty() {
                    return Some(0);
                }
                <$t>::span_len(iter.range.start, iter.range.end - 1)
            }
        }
    )*};
}

unindexed_range!(u64, i64, u128, i128);

impl ParallelIterator for Iter<char> {
    type Item = char;

    fn drive_unindexed<C: UnindexedConsumer<char>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl IndexedParallelIterator for Iter<char> {
    fn len(&self) -> usize {
        char_indices(&self.range).len()
    }

    fn drive<C: Consumer<char>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<char>>(self, callback: CB) -> CB::Output {
        callback.callback(CharProducer {
            range: char_indices(&self.range),
        })
    }
}

fn char_indices(range: &Range<char>) -> Range<u32> {
    if range.is_empty() {
        return 0..0;
    }
    char_index(range.start)..char_index(range.end)
}
