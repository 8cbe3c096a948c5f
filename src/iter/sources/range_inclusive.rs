//! Parallel iterators over inclusive ranges, `(a..=b).into_par_iter()`, for every
//! integer type and `char`. As in Rayon, only those of `u8`, `i8`, `u16`, `i16` and
//! `char` are indexed (the others may hold more than `usize::MAX` items).

use std::ops::{Range, RangeInclusive};

use super::char_range::{CharProducer, char_index};
use super::range_sealed::sealed_range_iter;
use super::range_span::{SpanLen, drive_span};
use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator over an inclusive range, made by `(a..=b).into_par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::range_inclusive::Iter<u8> = (0..=255u8).into_par_iter();
/// assert_eq!(it.len(), 256);
/// let wide: prorata::range_inclusive::Iter<u64> = (0..=u64::MAX).into_par_iter();
/// assert_eq!(wide.opt_len(), None);
/// ```
#[derive(Debug, Clone)]
pub struct Iter<T> {
    range: RangeInclusive<T>,
}

sealed_range_iter!(RangeInclusive);

/// The small types run as a half-open range of a wider type, cast back.
struct WidenedProducer<W> {
    range: Range<W>,
}

macro_rules! indexed_range_inclusive {
    ($($t:ty => $w:ty),*) => {$(
        impl RangeInteger for $t {
            fn drive_unindexed<C: UnindexedConsumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                bridge(iter, consumer)
            }

            fn opt_len(iter: &Iter<$t>) -> Option<usize> {
                Some(iter.len())
            }
        }

        impl IndexedRangeInteger for $t {
            fn len(iter: &Iter<$t>) -> usize {
                widened::<$t, $w>(&iter.range).len()
            }

            fn with_producer<CB: ProducerCallback<$t>>(iter: Iter<$t>, callback: CB) -> CB::Output {
                callback.callback(WidenedProducer { range: widened::<$t, $w>(&iter.range) })
            }
        }

        impl Producer for WidenedProducer<$w> {
            type Item = $t;
            type IntoIter = std::iter::Map<Range<$w>, fn($w) -> $t>;

            fn into_iter(self) -> Self::IntoIter {
                self.range.map((|x| x as $t) as fn($w) -> $t)
            }

            fn split_at(self, index: usize) -> (Self, Self) {
                let mid = self.range.start + index as $w;
                (
                    WidenedProducer { range: self.range.start..mid },
                    WidenedProducer { range: mid..self.range.end },
                )
            }
        }
    )*};
}

indexed_range_inclusive!(u8 => u16, i8 => i16, u16 => u32, i16 => i32);

/// `start..=end` as the half-open `start..end + 1` of the wider type `W`.
fn widened<T: Copy + PartialOrd, W: From<T> + std::ops::Add<Output = W> + From<u8>>(
    range: &RangeInclusive<T>,
) -> Range<W> {
    if range.is_empty() {
        return W::from(0)..W::from(0);
    }
    W::from(*range.start())..W::from(*range.end()) + W::from(1)
}

macro_rules! unindexed_range_inclusive {
    ($($t:ty),*) => {$(
        impl RangeInteger for $t {
            fn drive_unindexed<C: UnindexedConsumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                if iter.range.is_empty() {
                    return consumer.into_folder().complete();
                }
                let (start, last) = iter.range.into_inner();
                drive_span(start, last, consumer)
            }

            fn opt_len(iter: &Iter<$t>) -> Option<usize> {
                if iter.range.is_empty() {
                    return Some(0);
                }
                <$t>::span_len(*iter.range.start(), *iter.range.end())
            }
        }
    )*};
}

unindexed_range_inclusive!(u32, i32, usize, isize, u64, i64, u128, i128);

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
        self.char_indices().len()
    }

    fn drive<C: Consumer<char>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<char>>(self, callback: CB) -> CB::Output {
        callback.callback(CharProducer {
            range: self.char_indices(),
        })
    }
}

impl Iter<char> {
    fn char_indices(&self) -> Range<u32> {
        if self.range.is_empty() {
            return 0..0;
        }
        char_index(*self.range.start())..char_index(*self.range.end()) + 1
    }
}
