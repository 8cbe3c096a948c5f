//! `skip`: all but the first `n` items.

use super::noop::NoopConsumer;
use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::skip`].
///
/// ```
/// use prorata::prelude::*;
/// let s: prorata::iter::Skip<_> = (0..10usize).into_par_iter().skip(3);
/// assert_eq!(s.len(), 7);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Skip<I> {
    base: I,
    n: usize,
}

impl<I: IndexedParallelIterator> Skip<I> {
    pub(crate) fn new(base: I, n: usize) -> Self {
        let n = n.min(base.len());
        Skip { base, n }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for Skip<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for Skip<I> {
    fn len(&self) -> usize {
        self.base.len() - self.n
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
                let (skipped, rest) = base.split_at(self.n);
                // Like Rayon, the skipped items still run through the earlier adaptors
                // (their side effects and panics happen), in parallel.
                bridge_producer_consumer(self.n, skipped, NoopConsumer);
                self.callback.callback(rest)
            }
        }
    }
}
