//! `positions`: the indices of the items that satisfy a predicate.

use std::fmt;

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::positions`].
///
/// ```
/// use prorata::prelude::*;
/// let p: prorata::iter::Positions<_, _> = (0..10usize).into_par_iter().positions(|x| x % 3 == 0);
/// assert_eq!(p.opt_len(), None);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Positions<I, P> {
    base: I,
    predicate: P,
}

impl<I: fmt::Debug, P> fmt::Debug for Positions<I, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Positions")
            .field("base", &self.base)
            .finish()
    }
}

impl<I, P> Positions<I, P> {
    pub(crate) fn new(base: I, predicate: P) -> Self {
        Positions { base, predicate }
    }
}

impl<I, P> ParallelIterator for Positions<I, P>
where
    I: IndexedParallelIterator,
    P: Fn(I::Item) -> bool + Sync + Send,
{
    type Item = usize;

    fn drive_unindexed<C: UnindexedConsumer<usize>>(self, consumer: C) -> C::Result {
        let predicate = &self.predicate;
        self.base.enumerate().drive_unindexed(PositionsConsumer {
            base: consumer,
            predicate,
        })
    }
}

struct PositionsConsumer<'p, C, P> {
    base: C,
    predicate: &'p P,
}

impl<'p, T, C, P> Consumer<(usize, T)> for PositionsConsumer<'p, C, P>
where
    C: Consumer<usize>,
    P: Fn(T) -> bool + Sync,
{
    type Folder = PositionsConsumer<'p, C::Folder, P>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let predicate = self.predicate;
        (
            PositionsConsumer {
                base: left,
                predicate,
            },
            PositionsConsumer {
                base: right,
                predicate,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        PositionsConsumer {
            base: self.base.into_folder(),
            predicate: self.predicate,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, P> UnindexedConsumer<(usize, T)> for PositionsConsumer<'_, C, P>
where
    C: UnindexedConsumer<usize>,
    P: Fn(T) -> bool + Sync,
{
    fn split_off_left(&self) -> Self {
        PositionsConsumer {
            base: self.base.split_off_left(),
            predicate: self.predicate,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T, F, P> Folder<(usize, T)> for PositionsConsumer<'_, F, P>
where
    F: Folder<usize>,
    P: Fn(T) -> bool,
{
    type Result = F::Result;

    fn consume(mut self, (index, item): (usize, T)) -> Self {
        if (self.predicate)(item) {
            self.base = self.base.consume(index);
        }
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
