//! `take`: the first `n` items.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::take`].
///
/// ```
/// use prorata::prelude::*;
/// let t: prorata::iter::Take<_> = (0..10usize).into_par_iter().take(3);
/// assert_eq!(t.len(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Take<I> {
    base: I,
    n: usize,
}

impl<I: IndexedParallelIterator> Take<I> {
    pub(crate) fn new(base: I, n: usize) -> Self {
        let n = n.min(base.len());
        Take { base, n }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for Take<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for Take<I> {
    fn len(&self) -> usize {
        self.n
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let n = self.n;
        return self.base.with_producer(Callback { callback, n });

        struct Callback<CB> {
            callback: CB,
            n: usize,
        }

        impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                // The rest is dropped unvisited (an owning producer drops its items).
                let (kept, _rest) = base.split_at(self.n);
                self.callback.callback(kept)
            }
        }
    }
}
