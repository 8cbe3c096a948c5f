//! `rev`: the items in reverse order.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::rev`].
///
/// ```
/// use prorata::prelude::*;
/// let r: prorata::iter::Rev<_> = (0..4usize).into_par_iter().rev();
/// assert_eq!(r.len(), 4);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Rev<I> {
    base: I,
}

impl<I> Rev<I> {
    pub(crate) fn new(base: I) -> Self {
        Rev { base }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for Rev<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for Rev<I> {
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let len = self.base.len();
        return self.base.with_producer(Callback { callback, len });

        struct Callback<CB> {
            callback: CB,
            len: usize,
        }

        impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                let len = self.len;
                self.callback.callback(RevProducer { base, len })
            }
        }
    }
}

/// Splitting at `index` from the back is splitting the base at `len - index`.
struct RevProducer<P> {
    base: P,
    len: usize,
}

impl<P: Producer> Producer for RevProducer<P> {
    type Item = P::Item;
    type IntoIter = std::iter::Rev<P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter().rev()
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (front, back) = self.base.split_at(self.len - index);
        (
            RevProducer {
                base: back,
                len: index,
            },
            RevProducer {
                base: front,
                len: self.len - index,
            },
        )
    }
}
