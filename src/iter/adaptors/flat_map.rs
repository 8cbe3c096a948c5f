//! `flat_map` and `flatten`: each item becomes a parallel iterator, driven in turn
//! with a consumer split off the downstream one, so its items keep their place.

use std::fmt;

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::flat_map`].
///
/// ```
/// use prorata::prelude::*;
/// let f: prorata::iter::FlatMap<_, _> = (0..4usize).into_par_iter().flat_map(|x| 0..x);
/// assert_eq!(f.count(), 6);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FlatMap<I, F> {
    base: I,
    map_op: F,
}

impl<I: fmt::Debug, F> fmt::Debug for FlatMap<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMap").field("base", &self.base).finish()
    }
}

impl<I, F> FlatMap<I, F> {
    pub(crate) fn new(base: I, map_op: F) -> Self {
        FlatMap { base, map_op }
    }
}

impl<I, F, PI> ParallelIterator for FlatMap<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> PI + Sync + Send,
    PI: IntoParallelIterator,
{
    type Item = PI::Item;

    fn drive_unindexed<C: UnindexedConsumer<PI::Item>>(self, consumer: C) -> C::Result {
        self.base.drive_unindexed(FlatMapConsumer {
            base: consumer,
            map_op: &self.map_op,
        })
    }
}

/// The iterator made by [`ParallelIterator::flatten`].
///
/// ```
/// use prorata::prelude::*;
/// let f: prorata::iter::Flatten<_> = (0..4usize).into_par_iter().map(|x| 0..x).flatten();
/// assert_eq!(f.count(), 6);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct Flatten<I> {
    base: I,
}

impl<I> Flatten<I> {
    pub(crate) fn new(base: I) -> Self {
        Flatten { base }
    }
}

impl<I> ParallelIterator for Flatten<I>
where
    I: ParallelIterator<Item: IntoParallelIterator>,
{
    type Item = <I::Item as IntoParallelIterator>::Item;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        self.base.flat_map(|inner| inner).drive_unindexed(consumer)
    }
}

struct FlatMapConsumer<'f, C, F> {
    base: C,
    map_op: &'f F,
}

impl<'f, T, PI, C, F> Consumer<T> for FlatMapConsumer<'f, C, F>
where
    F: Fn(T) -> PI + Sync,
    PI: IntoParallelIterator,
    C: UnindexedConsumer<PI::Item>,
{
    type Folder = FlatMapFolder<'f, C, F, C::Result>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let map_op = self.map_op;
        let left = FlatMapConsumer { base: left, map_op };
        let right = FlatMapConsumer {
            base: right,
            map_op,
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FlatMapFolder {
            base: self.base,
            map_op: self.map_op,
            done: None,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, PI, C, F> UnindexedConsumer<T> for FlatMapConsumer<'_, C, F>
where
    F: Fn(T) -> PI + Sync,
    PI: IntoParallelIterator,
    C: UnindexedConsumer<PI::Item>,
{
    fn split_off_left(&self) -> Self {
        FlatMapConsumer {
            base: self.base.split_off_left(),
            map_op: self.map_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

/// Drives an inner iterator with the consumer `continue_after` makes.
struct DriveInner<I>(I);

impl<I: ParallelIterator, R> ContinueCallback<I::Item, R> for DriveInner<I> {
    type Output = R;

    fn call<C>(self, consumer: C) -> R
    where
        C: UnindexedConsumer<I::Item, Result = R>,
    {
        self.0.drive_unindexed(consumer)
    }
}

/// The longest inner iterator folded into the current piece rather than driven on its
/// own (see `FlatMapFolder::consume`). Splitting an inner iterator makes about two
/// parts per worker, whatever its length, so this bounds the parallelism given up for
/// items that are cheap to hand on; the outer iterator still splits as usual.
const FOLD_INNER_MAX: usize = 64;

/// Keeps the downstream *consumer* (not a folder): every inner parallel iterator is
/// driven with a consumer split off to its left, and the results are reduced in order.
struct FlatMapFolder<'f, C, F, R> {
    base: C,
    map_op: &'f F,
    /// The result of the items consumed so far, if any.
    done: Option<R>,
}

impl<T, PI, C, F> Folder<T> for FlatMapFolder<'_, C, F, C::Result>
where
    F: Fn(T) -> PI + Sync,
    PI: IntoParallelIterator,
    C: UnindexedConsumer<PI::Item>,
{
    type Result = C::Result;

    fn consume(mut self, item: T) -> Self {
        let inner = (self.map_op)(item).into_par_iter();
        // A small inner iterator goes into the piece this folder is filling, as in a
        // sequential loop, when no user code can see the pieces (`collect`): splitting
        // it would cost a join, a piece and a reduction per part for a few items each.
        // Where the pieces are visible (a `fold` calls its identity once per piece),
        // `continue_after` refuses and the inner iterator is driven on its own, in
        // pieces as in Rayon.
        let inner = if inner.opt_len().is_some_and(|len| len <= FOLD_INNER_MAX) {
            match self
                .base
                .continue_after(self.done.take(), DriveInner(inner))
            {
                Ok(result) => {
                    self.done = Some(result);
                    return self;
                }
                Err((before, DriveInner(inner))) => {
                    self.done = before;
                    inner
                }
            }
        } else {
            inner
        };
        let result = inner.drive_unindexed(self.base.split_off_left());
        self.done = Some(match self.done.take() {
            None => result,
            Some(before) => self.base.to_reducer().reduce(before, result),
        });
        self
    }

    fn complete(self) -> C::Result {
        match self.done {
            Some(result) => result,
            None => self.base.into_folder().complete(),
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
