//! Stopping at the first `None`: the engine of collecting into `Option<C>` and
//! `Result<C, E>`.
//!
//! [`StopAtNone`] turns an iterator of `Option<T>` into one of `T` that ends, on every
//! worker, soon after some worker meets a `None`: the shared flag makes the consumer
//! report itself full, which the drivers check between pieces and the folders between
//! items. The flag also tells the caller that a `None` was met, so the partial
//! collection can be thrown away.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::iter::ParallelIterator;
use crate::iter::plumbing::*;

/// The iterator of the `Some` items of `base`, cut short at a `None`.
pub(super) struct StopAtNone<'f, I> {
    base: I,
    found_none: &'f AtomicBool,
}

impl<'f, I> StopAtNone<'f, I> {
    pub(super) fn new(base: I, found_none: &'f AtomicBool) -> Self {
        StopAtNone { base, found_none }
    }
}

impl<I, T> ParallelIterator for StopAtNone<'_, I>
where
    I: ParallelIterator<Item = Option<T>>,
    T: Send,
{
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        self.base
            .drive_unindexed(stop_at_none(consumer, self.found_none))
    }

    // The number of items is unknown until the iterator has run: no `opt_len`.
}

struct StopAtNoneConsumer<'f, C> {
    base: C,
    found_none: &'f AtomicBool,
}

/// Wraps a consumer or folder of the `Some` items.
fn stop_at_none<C>(base: C, found_none: &AtomicBool) -> StopAtNoneConsumer<'_, C> {
    StopAtNoneConsumer { base, found_none }
}

impl<'f, T, C: Consumer<T>> Consumer<Option<T>> for StopAtNoneConsumer<'f, C> {
    type Folder = StopAtNoneConsumer<'f, C::Folder>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let flag = self.found_none;
        (stop_at_none(left, flag), stop_at_none(right, flag), reducer)
    }

    fn into_folder(self) -> Self::Folder {
        stop_at_none(self.base.into_folder(), self.found_none)
    }

    fn full(&self) -> bool {
        self.found_none.load(Ordering::Relaxed) || self.base.full()
    }
}

impl<T, C: UnindexedConsumer<T>> UnindexedConsumer<Option<T>> for StopAtNoneConsumer<'_, C> {
    fn split_off_left(&self) -> Self {
        stop_at_none(self.base.split_off_left(), self.found_none)
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T, F: Folder<T>> Folder<Option<T>> for StopAtNoneConsumer<'_, F> {
    type Result = F::Result;

    fn consume(mut self, item: Option<T>) -> Self {
        match item {
            Some(item) => self.base = self.base.consume(item),
            None => self.found_none.store(true, Ordering::Relaxed),
        }
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.found_none.load(Ordering::Relaxed) || self.base.full()
    }
}
