//! `with_min_len` and `with_max_len`: bounds on the pieces the driver may make.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::with_min_len`].
///
/// ```
/// use prorata::prelude::*;
/// let m: prorata::iter::MinLen<_> = (0..10usize).into_par_iter().with_min_len(4);
/// assert_eq!(m.len(), 10);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct MinLen<I> {
    base: I,
    min: usize,
}

/// The iterator made by [`IndexedParallelIterator::with_max_len`].
///
/// ```
/// use prorata::prelude::*;
/// let m: prorata::iter::MaxLen<_> = (0..10usize).into_par_iter().with_max_len(4);
/// assert_eq!(m.len(), 10);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct MaxLen<I> {
    base: I,
    max: usize,
}

impl<I> MinLen<I> {
    pub(crate) fn new(base: I, min: usize) -> Self {
        MinLen { base, min }
    }
}

impl<I> MaxLen<I> {
    pub(crate) fn new(base: I, max: usize) -> Self {
        MaxLen { base, max }
    }
}

/// Both adaptors are the same wrapper with a different bound.
macro_rules! len_limit_iter {
    ($name:ident, $field:ident, $limit:expr) => {
        impl<I: IndexedParallelIterator> ParallelIterator for $name<I> {
            type Item = I::Item;

            fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl<I: IndexedParallelIterator> IndexedParallelIterator for $name<I> {
            fn len(&self) -> usize {
                self.base.len()
            }

            fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
                let limit = $limit(self.$field);
                self.base.with_producer(LimitCallback { callback, limit })
            }
        }
    };
}

len_limit_iter!(MinLen, min, Limit::Min);
len_limit_iter!(MaxLen, max, Limit::Max);

#[derive(Clone, Copy)]
pub(super) enum Limit {
    Min(usize),
    Max(usize),
    /// Both bounds at once, whatever the base asks (`deterministic`).
    Exact(usize),
}

pub(super) struct LimitCallback<CB> {
    pub(super) callback: CB,
    pub(super) limit: Limit,
}

impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for LimitCallback<CB> {
    type Output = CB::Output;

    fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
        self.callback.callback(LimitProducer {
            base,
            limit: self.limit,
        })
    }
}

pub(super) struct LimitProducer<P> {
    base: P,
    limit: Limit,
}

impl<P: Producer> Producer for LimitProducer<P> {
    type Item = P::Item;
    type IntoIter = P::IntoIter;

    fn into_iter(self) -> P::IntoIter {
        self.base.into_iter()
    }

    fn min_len(&self) -> usize {
        match self.limit {
            Limit::Min(min) => self.base.min_len().max(min),
            Limit::Max(_) => self.base.min_len(),
            Limit::Exact(len) => len,
        }
    }

    fn max_len(&self) -> usize {
        match self.limit {
            Limit::Min(_) => self.base.max_len(),
            Limit::Max(max) => self.base.max_len().min(max),
            Limit::Exact(len) => len,
        }
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(index);
        let limit = self.limit;
        (
            LimitProducer { base: left, limit },
            LimitProducer { base: right, limit },
        )
    }

    fn fold_with<F: Folder<P::Item>>(self, folder: F) -> F {
        self.base.fold_with(folder)
    }
}
