//! `flat_map_iter` and `flatten_iter`: each item becomes a sequential iterator whose
//! items go downstream in order, in the same piece.

use std::fmt;

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::flat_map_iter`].
///
/// ```
/// use prorata::prelude::*;
/// let f: prorata::iter::FlatMapIter<_, _> = (0..4usize).into_par_iter().flat_map_iter(|x| 0..x);
/// assert_eq!(f.count(), 6);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FlatMapIter<I, F> {
    base: I,
    map_op: F,
}

impl<I: fmt::Debug, F> fmt::Debug for FlatMapIter<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMapIter")
            .field("base", &self.base)
            .finish()
    }
}

impl<I, F> FlatMapIter<I, F> {
    pub(crate) fn new(base: I, map_op: F) -> Self {
        FlatMapIter { base, map_op }
    }
}

impl<I, F, SI> ParallelIterator for FlatMapIter<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> SI + Sync + Send,
    SI: IntoIterator<Item: Send>,
{
    type Item = SI::Item;

    fn drive_unindexed<C: UnindexedConsumer<SI::Item>>(self, consumer: C) -> C::Result {
        self.base.drive_unindexed(FlatMapIterConsumer {
            base: consumer,
            map_op: &self.map_op,
        })
    }
}

/// The iterator made by [`ParallelIterator::flatten_iter`].
///
/// ```
/// use prorata::prelude::*;
/// let v = vec![vec![1, 2], vec![3]];
/// let f: prorata::iter::FlattenIter<_> = v.par_iter().flatten_iter();
/// assert_eq!(f.count(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct FlattenIter<I> {
    base: I,
}

impl<I> FlattenIter<I> {
    pub(crate) fn new(base: I) -> Self {
        FlattenIter { base }
    }
}

impl<I> ParallelIterator for FlattenIter<I>
where
    I: ParallelIterator<Item: IntoIterator<Item: Send>>,
{
    type Item = <I::Item as IntoIterator>::Item;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        self.base
            .flat_map_iter(|inner| inner)
            .drive_unindexed(consumer)
    }
}

struct FlatMapIterConsumer<'f, C, F> {
    base: C,
    map_op: &'f F,
}

impl<'f, T, SI, C, F> Consumer<T> for FlatMapIterConsumer<'f, C, F>
where
    F: Fn(T) -> SI + Sync,
    SI: IntoIterator,
    C: UnindexedConsumer<SI::Item>,
{
    type Folder = FlatMapIterFolder<'f, C::Folder, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let map_op = self.map_op;
        let left = FlatMapIterConsumer { base: left, map_op };
        let right = FlatMapIterConsumer {
            base: right,
            map_op,
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FlatMapIterFolder {
            base: self.base.into_folder(),
            map_op: self.map_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, SI, C, F> UnindexedConsumer<T> for FlatMapIterConsumer<'_, C, F>
where
    F: Fn(T) -> SI + Sync,
    SI: IntoIterator,
    C: UnindexedConsumer<SI::Item>,
{
    fn split_off_left(&self) -> Self {
        FlatMapIterConsumer {
            base: self.base.split_off_left(),
            map_op: self.map_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FlatMapIterFolder<'f, G, F> {
    base: G,
    map_op: &'f F,
}

impl<T, SI, G, F> Folder<T> for FlatMapIterFolder<'_, G, F>
where
    F: Fn(T) -> SI,
    SI: IntoIterator,
    G: Folder<SI::Item>,
{
    type Result = G::Result;

    fn consume(mut self, item: T) -> Self {
        self.base = self.base.consume_iter((self.map_op)(item));
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        for item in iter {
            self = self.consume(item);
            if self.base.full() {
                break;
            }
        }
        self
    }

    fn complete(self) -> G::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
