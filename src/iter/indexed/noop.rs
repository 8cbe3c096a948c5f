//! A consumer that drops every item: used to run skipped items for their side effects.

use crate::iter::consumers::NoopReducer;
use crate::iter::plumbing::*;

/// Eats and drops items.
pub(super) struct NoopConsumer;

impl<T> Consumer<T> for NoopConsumer {
    type Folder = NoopConsumer;
    type Reducer = NoopReducer;
    type Result = ();

    fn split_at(self, _index: usize) -> (Self, Self, NoopReducer) {
        (NoopConsumer, NoopConsumer, NoopReducer)
    }

    fn into_folder(self) -> Self {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T> Folder<T> for NoopConsumer {
    type Result = ();

    fn consume(self, item: T) -> Self {
        drop(item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(self, iter: I) -> Self {
        iter.into_iter().for_each(drop);
        self
    }

    fn complete(self) {}

    fn full(&self) -> bool {
        false
    }
}
