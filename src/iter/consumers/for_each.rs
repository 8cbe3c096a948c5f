//! `for_each`: calls a closure on every item.

use super::NoopReducer;
use crate::iter::ParallelIterator;
use crate::iter::plumbing::*;

pub(crate) fn for_each<I, F>(iter: I, op: &F)
where
    I: ParallelIterator,
    F: Fn(I::Item) + Sync,
{
    iter.drive_unindexed(ForEachConsumer { op })
}

struct ForEachConsumer<'f, F> {
    op: &'f F,
}

impl<T, F: Fn(T) + Sync> Consumer<T> for ForEachConsumer<'_, F> {
    type Folder = Self;
    type Reducer = NoopReducer;
    type Result = ();

    fn split_at(self, _index: usize) -> (Self, Self, NoopReducer) {
        (ForEachConsumer { op: self.op }, self, NoopReducer)
    }

    fn into_folder(self) -> Self {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T, F: Fn(T) + Sync> UnindexedConsumer<T> for ForEachConsumer<'_, F> {
    fn split_off_left(&self) -> Self {
        ForEachConsumer { op: self.op }
    }

    fn to_reducer(&self) -> NoopReducer {
        NoopReducer
    }
}

impl<T, F: Fn(T) + Sync> Folder<T> for ForEachConsumer<'_, F> {
    type Result = ();

    fn consume(self, item: T) -> Self {
        (self.op)(item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(self, iter: I) -> Self {
        iter.into_iter().for_each(self.op);
        self
    }

    fn complete(self) {}

    fn full(&self) -> bool {
        false
    }
}
