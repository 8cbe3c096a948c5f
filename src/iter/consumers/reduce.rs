//! `reduce`: combines all items with an associative operation, starting every
//! sequential piece from the identity.

use crate::iter::ParallelIterator;
use crate::iter::plumbing::*;

pub(crate) fn reduce<I, ID, OP>(iter: I, identity: &ID, op: &OP) -> I::Item
where
    I: ParallelIterator,
    ID: Fn() -> I::Item + Sync,
    OP: Fn(I::Item, I::Item) -> I::Item + Sync,
{
    iter.drive_unindexed(ReduceConsumer { identity, op })
}

/// The consumer is also its own reducer: both only hold the two closures.
struct ReduceConsumer<'r, ID, OP> {
    identity: &'r ID,
    op: &'r OP,
}

impl<ID, OP> Clone for ReduceConsumer<'_, ID, OP> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<ID, OP> Copy for ReduceConsumer<'_, ID, OP> {}

impl<'r, T, ID, OP> Consumer<T> for ReduceConsumer<'r, ID, OP>
where
    T: Send,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    type Folder = ReduceFolder<'r, OP, T>;
    type Reducer = Self;
    type Result = T;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> Self::Folder {
        ReduceFolder {
            op: self.op,
            acc: (self.identity)(),
        }
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T, ID, OP> UnindexedConsumer<T> for ReduceConsumer<'_, ID, OP>
where
    T: Send,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<T, ID, OP: Fn(T, T) -> T> Reducer<T> for ReduceConsumer<'_, ID, OP> {
    fn reduce(self, left: T, right: T) -> T {
        (self.op)(left, right)
    }
}

struct ReduceFolder<'r, OP, T> {
    op: &'r OP,
    acc: T,
}

impl<T, OP: Fn(T, T) -> T> Folder<T> for ReduceFolder<'_, OP, T> {
    type Result = T;

    fn consume(mut self, item: T) -> Self {
        self.acc = (self.op)(self.acc, item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        self.acc = iter.into_iter().fold(self.acc, self.op);
        self
    }

    fn complete(self) -> T {
        self.acc
    }

    fn full(&self) -> bool {
        false
    }
}
