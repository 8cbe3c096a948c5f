//! `take_any` and `take_any_while`: stop letting items through once enough have
//! passed (or one failed the predicate), whichever items those were.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::gate::{Gate, GateConsumer};
use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::take_any`].
///
/// ```
/// use prorata::prelude::*;
/// let t: prorata::iter::TakeAny<_> = (0..100usize).into_par_iter().take_any(5);
/// assert_eq!(t.count(), 5);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct TakeAny<I> {
    base: I,
    count: usize,
}

impl<I> TakeAny<I> {
    pub(crate) fn new(base: I, count: usize) -> Self {
        TakeAny { base, count }
    }
}

/// Passes items while the shared allowance lasts.
struct Allowance(AtomicUsize);

impl<T> Gate<T> for Allowance {
    type Out = T;
    const MAY_CLOSE: bool = true;

    fn pass(&self, item: T) -> Option<T> {
        let left = &self.0;
        let taken = left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
        taken.is_ok().then_some(item)
    }

    fn closed(&self) -> bool {
        self.0.load(Ordering::Relaxed) == 0
    }
}

impl<I: ParallelIterator> ParallelIterator for TakeAny<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let gate = Allowance(AtomicUsize::new(self.count));
        self.base
            .drive_unindexed(GateConsumer::new(consumer, &gate))
    }
}

/// The iterator made by [`ParallelIterator::take_any_while`].
///
/// ```
/// use prorata::prelude::*;
/// let t: prorata::iter::TakeAnyWhile<_, _> =
///     (0..100usize).into_par_iter().take_any_while(|&x| x < 1000);
/// assert_eq!(t.count(), 100);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct TakeAnyWhile<I, P> {
    base: I,
    predicate: P,
}

impl<I: fmt::Debug, P> fmt::Debug for TakeAnyWhile<I, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TakeAnyWhile")
            .field("base", &self.base)
            .finish()
    }
}

impl<I, P> TakeAnyWhile<I, P> {
    pub(crate) fn new(base: I, predicate: P) -> Self {
        TakeAnyWhile { base, predicate }
    }
}

/// Passes items until one fails the predicate, anywhere.
struct WhileTrue<'p, P> {
    predicate: &'p P,
    failed: AtomicBool,
}

impl<T, P: Fn(&T) -> bool + Sync> Gate<T> for WhileTrue<'_, P> {
    type Out = T;
    const MAY_CLOSE: bool = true;

    fn pass(&self, item: T) -> Option<T> {
        if !self.closed() && (self.predicate)(&item) {
            return Some(item);
        }
        self.failed.store(true, Ordering::Relaxed);
        None
    }

    fn closed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }
}

impl<I, P> ParallelIterator for TakeAnyWhile<I, P>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let gate = WhileTrue {
            predicate: &self.predicate,
            failed: AtomicBool::new(false),
        };
        self.base
            .drive_unindexed(GateConsumer::new(consumer, &gate))
    }
}
