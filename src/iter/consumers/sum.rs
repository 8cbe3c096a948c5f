//! `sum` and `product`: every sequential piece totals its items with std's `Sum` or
//! `Product` (so a whole run goes through one `Iterator::sum`), and the piece totals
//! are totalled the same way, left to right.

use std::iter::{Product, Sum};
use std::marker::PhantomData;

use crate::iter::ParallelIterator;
use crate::iter::plumbing::*;

/// How to total an iterator: by `Sum` or by `Product`.
pub(crate) trait Total<S, T> {
    fn of<I: Iterator<Item = T>>(items: I) -> S;
}

/// Totals with `Sum`.
pub(crate) struct Add;

impl<S: Sum<T>, T> Total<S, T> for Add {
    fn of<I: Iterator<Item = T>>(items: I) -> S {
        items.sum()
    }
}

/// Totals with `Product`.
pub(crate) struct Multiply;

impl<S: Product<T>, T> Total<S, T> for Multiply {
    fn of<I: Iterator<Item = T>>(items: I) -> S {
        items.product()
    }
}

pub(crate) fn total<I, S, K>(iter: I) -> S
where
    I: ParallelIterator,
    S: Send,
    K: Total<S, I::Item> + Total<S, S>,
{
    iter.drive_unindexed(TotalConsumer::<S, K>(PhantomData))
}

struct TotalConsumer<S, K>(PhantomData<fn() -> (S, K)>);

impl<S, K> Clone for TotalConsumer<S, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S, K> Copy for TotalConsumer<S, K> {}

/// `a` and `b` totalled, in that order.
fn pair<S, K: Total<S, S>>(a: S, b: S) -> S {
    K::of([a, b].into_iter())
}

impl<T, S, K> Consumer<T> for TotalConsumer<S, K>
where
    S: Send,
    K: Total<S, T> + Total<S, S>,
{
    type Folder = TotalFolder<S, K>;
    type Reducer = Self;
    type Result = S;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> Self::Folder {
        TotalFolder {
            total: <K as Total<S, T>>::of(std::iter::empty()),
            how: PhantomData,
        }
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T, S, K> UnindexedConsumer<T> for TotalConsumer<S, K>
where
    S: Send,
    K: Total<S, T> + Total<S, S>,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<S, K: Total<S, S>> Reducer<S> for TotalConsumer<S, K> {
    fn reduce(self, left: S, right: S) -> S {
        pair::<S, K>(left, right)
    }
}

struct TotalFolder<S, K> {
    total: S,
    how: PhantomData<fn() -> K>,
}

impl<T, S, K> Folder<T> for TotalFolder<S, K>
where
    K: Total<S, T> + Total<S, S>,
{
    type Result = S;

    fn consume(mut self, item: T) -> Self {
        let item = <K as Total<S, T>>::of(std::iter::once(item));
        self.total = pair::<S, K>(self.total, item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        let run = <K as Total<S, T>>::of(iter.into_iter());
        self.total = pair::<S, K>(self.total, run);
        self
    }

    fn complete(self) -> S {
        self.total
    }

    fn full(&self) -> bool {
        false
    }
}
