//! `find_first` and `find_last`: the sequentially first (last) item that matches,
//! found in parallel and stopping early.
//!
//! Each piece owns a span of the "position" space `0..usize::MAX`, halved at every
//! split, so spans are ordered like the pieces. A piece that finds a match publishes
//! its span's start (for `first`; its end for `last`) in `best`; a piece whose span
//! lies wholly after (before) the best so far cannot hold the answer and stops.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::iter::ParallelIterator;
use crate::iter::plumbing::*;

/// Which end of the order to look for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    First,
    Last,
}

pub(crate) fn find<I, P>(iter: I, end: End, predicate: &P) -> Option<I::Item>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync,
{
    let best = AtomicUsize::new(match end {
        End::First => usize::MAX,
        End::Last => 0,
    });
    iter.drive_unindexed(FindConsumer {
        predicate,
        end,
        start: Cell::new(0),
        stop: usize::MAX,
        best: &best,
    })
}

struct FindConsumer<'p, P> {
    predicate: &'p P,
    end: End,
    /// This piece's span is `start..stop`. `start` is a `Cell` because
    /// `split_off_left(&self)` hands the lower half away.
    start: Cell<usize>,
    stop: usize,
    /// The span key of the best piece that found a match so far.
    best: &'p AtomicUsize,
}

impl<P> FindConsumer<'_, P> {
    fn with_span(&self, start: usize, stop: usize) -> Self {
        FindConsumer {
            predicate: self.predicate,
            end: self.end,
            start: Cell::new(start),
            stop,
            best: self.best,
        }
    }

    fn middle(&self) -> usize {
        let start = self.start.get();
        start + (self.stop - start) / 2
    }

    /// This piece's key: the end of its span that counts.
    fn key(&self) -> usize {
        match self.end {
            End::First => self.start.get(),
            End::Last => self.stop,
        }
    }
}

/// Whether a piece with key `key` can still hold the answer, given `best`.
fn hopeless(end: End, best: &AtomicUsize, key: usize) -> bool {
    let best = best.load(Ordering::Relaxed);
    match end {
        End::First => best < key,
        End::Last => best > key,
    }
}

impl<'p, T, P> Consumer<T> for FindConsumer<'p, P>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
{
    type Folder = FindFolder<'p, P, T>;
    type Reducer = FindReducer;
    type Result = Option<T>;

    fn split_at(self, _index: usize) -> (Self, Self, FindReducer) {
        let middle = self.middle();
        let left = self.with_span(self.start.get(), middle);
        let right = self.with_span(middle, self.stop);
        (left, right, FindReducer(self.end))
    }

    fn into_folder(self) -> Self::Folder {
        FindFolder {
            predicate: self.predicate,
            end: self.end,
            key: self.key(),
            best: self.best,
            item: None,
        }
    }

    fn full(&self) -> bool {
        hopeless(self.end, self.best, self.key())
    }
}

impl<T, P> UnindexedConsumer<T> for FindConsumer<'_, P>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
{
    fn split_off_left(&self) -> Self {
        let middle = self.middle();
        let left = self.with_span(self.start.get(), middle);
        self.start.set(middle);
        left
    }

    fn to_reducer(&self) -> FindReducer {
        FindReducer(self.end)
    }
}

/// Prefers the left result for `first`, the right one for `last`.
struct FindReducer(End);

impl<T> Reducer<Option<T>> for FindReducer {
    fn reduce(self, left: Option<T>, right: Option<T>) -> Option<T> {
        match self.0 {
            End::First => left.or(right),
            End::Last => right.or(left),
        }
    }
}

struct FindFolder<'p, P, T> {
    predicate: &'p P,
    end: End,
    key: usize,
    best: &'p AtomicUsize,
    item: Option<T>,
}

impl<P, T> FindFolder<'_, P, T> {
    fn publish(&self) {
        match self.end {
            End::First => self.best.fetch_min(self.key, Ordering::Relaxed),
            End::Last => self.best.fetch_max(self.key, Ordering::Relaxed),
        };
    }
}

impl<T, P: Fn(&T) -> bool> Folder<T> for FindFolder<'_, P, T> {
    type Result = Option<T>;

    fn consume(mut self, item: T) -> Self {
        // For `last`, a later match in the same piece replaces an earlier one.
        if (self.end == End::Last || self.item.is_none()) && (self.predicate)(&item) {
            self.item = Some(item);
            self.publish();
        }
        self
    }

    fn complete(self) -> Option<T> {
        self.item
    }

    fn full(&self) -> bool {
        (self.end == End::First && self.item.is_some()) || hopeless(self.end, self.best, self.key)
    }
}
