//! `find_any`: some item that matches, whichever is found first in time. Every piece
//! stops as soon as any piece has found one.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::iter::ParallelIterator;
use crate::iter::plumbing::*;

pub(crate) fn find_any<I, P>(iter: I, predicate: &P) -> Option<I::Item>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync,
{
    let found = AtomicBool::new(false);
    iter.drive_unindexed(FindAnyConsumer {
        predicate,
        found: &found,
    })
}

struct FindAnyConsumer<'p, P> {
    predicate: &'p P,
    found: &'p AtomicBool,
}

impl<P> Clone for FindAnyConsumer<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for FindAnyConsumer<'_, P> {}

impl<'p, T, P> Consumer<T> for FindAnyConsumer<'p, P>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
{
    type Folder = FindAnyFolder<'p, P, T>;
    type Reducer = FirstSome;
    type Result = Option<T>;

    fn split_at(self, _index: usize) -> (Self, Self, FirstSome) {
        (self, self, FirstSome)
    }

    fn into_folder(self) -> Self::Folder {
        FindAnyFolder {
            consumer: self,
            item: None,
        }
    }

    fn full(&self) -> bool {
        self.found.load(Ordering::Relaxed)
    }
}

impl<T, P> UnindexedConsumer<T> for FindAnyConsumer<'_, P>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> FirstSome {
        FirstSome
    }
}

/// Keeps the left result if there is one, else the right.
pub(crate) struct FirstSome;

impl<T> Reducer<Option<T>> for FirstSome {
    fn reduce(self, left: Option<T>, right: Option<T>) -> Option<T> {
        left.or(right)
    }
}

struct FindAnyFolder<'p, P, T> {
    consumer: FindAnyConsumer<'p, P>,
    item: Option<T>,
}

impl<T, P: Fn(&T) -> bool> Folder<T> for FindAnyFolder<'_, P, T> {
    type Result = Option<T>;

    fn consume(mut self, item: T) -> Self {
        if (self.consumer.predicate)(&item) {
            self.item = Some(item);
            self.consumer.found.store(true, Ordering::Relaxed);
        }
        self
    }

    /// Not inlined: inlined into the driver's leaf loop (a large function), the
    /// search's own loop stayed a call into core's `try_fold` through a borrowed
    /// iterator, storing its position on every item (a third more instructions an
    /// item); compiled on its own, the whole search becomes one tight loop. One call a
    /// run of items costs nothing beside.
    #[inline(never)]
    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        if self.full() {
            return self;
        }
        let found = self.consumer.found;
        self.item = iter
            .into_iter()
            .take_while(move |_| !found.load(Ordering::Relaxed))
            .find(self.consumer.predicate);
        if self.item.is_some() {
            found.store(true, Ordering::Relaxed);
        }
        self
    }

    fn complete(self) -> Option<T> {
        self.item
    }

    fn full(&self) -> bool {
        self.item.is_some() || self.consumer.found.load(Ordering::Relaxed)
    }
}
