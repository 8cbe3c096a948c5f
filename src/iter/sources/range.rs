//! Parallel iterators over ranges.

use std::ops::Range;

use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator over a range, made by `(a..b).into_par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::range::Iter<usize> = (0..10).into_par_iter();
/// assert_eq!(it.len(), 10);
/// ```
#[derive(Debug, Clone)]
pub struct Iter<T> {
    range: Range<T>,
}

impl IntoParallelIterator for Range<usize> {
    type Iter = Iter<usize>;
    type Item = usize;

    fn into_par_iter(self) -> Iter<usize> {
        Iter { range: self }
    }
}

impl ParallelIterator for Iter<usize> {
    type Item = usize;

    fn drive_unindexed<C: UnindexedConsumer<usize>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl IndexedParallelIterator for Iter<usize> {
    fn len(&self) -> usize {
        self.range.len()
    }

    fn drive<C: Consumer<usize>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<usize>>(self, callback: CB) -> CB::Output {
        callback.callback(RangeProducer { range: self.range })
    }
}

struct RangeProducer {
    range: Range<usize>,
}

impl Producer for RangeProducer {
    type Item = usize;
    type IntoIter = Range<usize>;

    fn into_iter(self) -> Range<usize> {
        self.range
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let mid = self.range.start + index;
        (
            RangeProducer {
                range: self.range.start..mid,
            },
            RangeProducer {
                range: mid..self.range.end,
            },
        )
    }
}
