//! Parallel iterators over inclusive ranges, `(a..=b).into_par_iter()`, for every
//! integer type and `char`. As in Rayon, only those of `u8`, `i8`, `u16`, `i16` and
//! `char` are indexed (the others may hold more than `usize::MAX` items).

use std::ops::{Range, RangeInclusive};

use super::char_range::{CharProducer, char_index};
use super::range_span::{SpanLen, SpanProducer};
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

macro_rules! into_par_iter {
    ($($t:ty),*) => {$(
        impl IntoParallelIterator for RangeInclusive<$t> {
            type Iter = Iter<$t>;
            type Item = $t;

            fn into_par_iter(self) -> Iter<$t> {
                Iter { range: self }
            }
        }
    )*};
}

into_par_iter!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, char);

/// The small types run as a half-open range of a wider type, cast back.
struct WidenedProducer<W> {
    range: Range<W>,
}

macro_rules! indexed_range_inclusive {
    ($($t:ty => $w:ty),*) => {$(
        impl Iter<$t> {
            fn widened(&self) -> Range<$w> {
                if self.range.is_empty() {
                    return 0..0;
                }
                (*self.range.start() as $w)..(*self.range.end() as $w + 1)
            }
        }

        impl ParallelIterator for Iter<$t> {
            type Item = $t;

            fn drive_unindexed<C: UnindexedConsumer<$t>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl IndexedParallelIterator for Iter<$t> {
            fn len(&self) -> usize {
                self.widened().len()
            }

            fn drive<C: Consumer<$t>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn with_producer<CB: ProducerCallback<$t>>(self, callback: CB) -> CB::Output {
                callback.callback(WidenedProducer { range: self.widened() })
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

macro_rules! unindexed_range_inclusive {
    ($($t:ty),*) => {$(
        impl ParallelIterator for Iter<$t> {
            type Item = $t;

            fn drive_unindexed<C: UnindexedConsumer<$t>>(self, consumer: C) -> C::Result {
                if self.range.is_empty() {
                    return consumer.into_folder().complete();
                }
                let (start, last) = self.range.into_inner();
                bridge_unindexed(SpanProducer { start, last }, consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                if self.range.is_empty() {
                    return Some(0);
                }
                <$t>::span_len(*self.range.start(), *self.range.end())
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
