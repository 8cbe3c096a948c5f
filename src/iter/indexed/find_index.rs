//! The search under `position_*`, `cmp` and `eq`: find an item that a function maps
//! to `Some`, with its index, stopping the other pieces as soon as their items can no
//! longer change the answer.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::iter::IndexedParallelIterator;
use crate::iter::plumbing::*;

/// Which match a search wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// Any match; the search stops at the first one found.
    Any,
    /// The match with the lowest index.
    First,
    /// The match with the highest index.
    Last,
}

/// Finds the `side` match of `check` in `iter`: its index and `check`'s answer.
pub(crate) fn find_index<I, F, R>(iter: I, side: Side, check: &F) -> Option<(usize, R)>
where
    I: IndexedParallelIterator,
    F: Fn(I::Item) -> Option<R> + Sync,
    R: Send,
{
    let len = iter.len();
    let shared = Shared {
        side,
        found: AtomicBool::new(false),
        // First: lowest index found (MAX: none). Last: highest index found plus one (0: none).
        best: AtomicUsize::new(if side == Side::First { usize::MAX } else { 0 }),
    };
    iter.drive(FindConsumer {
        shared: &shared,
        check,
        start: 0,
        end: len,
    })
}

struct Shared {
    side: Side,
    found: AtomicBool,
    best: AtomicUsize,
}

impl Shared {
    /// Whether a match already found makes every item in `start..end` irrelevant.
    fn settles(&self, start: usize, end: usize) -> bool {
        match self.side {
            Side::Any => self.found.load(Ordering::Relaxed),
            Side::First => self.best.load(Ordering::Relaxed) < start,
            Side::Last => self.best.load(Ordering::Relaxed) > end,
        }
    }

    fn record(&self, index: usize) {
        match self.side {
            Side::Any => self.found.store(true, Ordering::Relaxed),
            Side::First => {
                self.best.fetch_min(index, Ordering::Relaxed);
            }
            Side::Last => {
                self.best.fetch_max(index + 1, Ordering::Relaxed);
            }
        }
    }
}

struct FindConsumer<'a, F> {
    shared: &'a Shared,
    check: &'a F,
    start: usize,
    end: usize,
}

impl<'a, T, R, F> Consumer<T> for FindConsumer<'a, F>
where
    F: Fn(T) -> Option<R> + Sync,
    R: Send,
{
    type Folder = FindFolder<'a, F, R>;
    type Reducer = FindReducer;
    type Result = Option<(usize, R)>;

    fn split_at(self, index: usize) -> (Self, Self, FindReducer) {
        let mid = self.start + index;
        let left = FindConsumer { end: mid, ..self };
        let right = FindConsumer { start: mid, ..self };
        (left, right, FindReducer(self.shared.side))
    }

    fn into_folder(self) -> Self::Folder {
        FindFolder {
            shared: self.shared,
            check: self.check,
            next: self.start,
            end: self.end,
            found: None,
        }
    }

    fn full(&self) -> bool {
        self.shared.settles(self.start, self.end)
    }
}

struct FindFolder<'a, F, R> {
    shared: &'a Shared,
    check: &'a F,
    next: usize,
    end: usize,
    found: Option<(usize, R)>,
}

impl<T, R, F> Folder<T> for FindFolder<'_, F, R>
where
    F: Fn(T) -> Option<R>,
{
    type Result = Option<(usize, R)>;

    fn consume(mut self, item: T) -> Self {
        let index = self.next;
        self.next += 1;
        if let Some(answer) = (self.check)(item) {
            self.shared.record(index);
            self.found = Some((index, answer));
        }
        self
    }

    fn complete(self) -> Self::Result {
        self.found
    }

    fn full(&self) -> bool {
        match self.shared.side {
            Side::Any | Side::First if self.found.is_some() => true,
            // Later items of this piece may still beat an earlier match of this piece.
            _ => self.shared.settles(self.next, self.end),
        }
    }
}

struct FindReducer(Side);

impl<R> Reducer<Option<(usize, R)>> for FindReducer {
    fn reduce(self, left: Option<(usize, R)>, right: Option<(usize, R)>) -> Option<(usize, R)> {
        match self.0 {
            Side::Last => right.or(left),
            Side::Any | Side::First => left.or(right),
        }
    }
}
