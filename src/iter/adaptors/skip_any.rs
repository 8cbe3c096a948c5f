//! `skip_any` and `skip_any_while`: drop items until enough have been dropped (or
//! one failed the predicate), whichever items those were.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::gate::{Gate, GateConsumer};
use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::skip_any`].
///
/// ```
/// use prorata::prelude::*;
/// let s: prorata::iter::SkipAny<_> = (0..100usize).into_par_iter().skip_any(5);
/// assert_eq!(s.count(), 95);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct SkipAny<I> {
    base: I,
    count: usize,
}

impl<I> SkipAny<I> {
    pub(crate) fn new(base: I, count: usize) -> Self {
        SkipAny { base, count }
    }
}

/// Drops items while the shared quota of drops lasts.
struct DropQuota(AtomicUsize);

impl<T> Gate<T> for DropQuota {
    type Out = T;
    const MAY_CLOSE: bool = false;

    fn pass(&self, item: T) -> Option<T> {
        let left = &self.0;
        if left.load(Ordering::Relaxed) == 0 {
            return Some(item);
        }
        let dropped = left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
        dropped.is_err().then_some(item)
    }
}

impl<I: ParallelIterator> ParallelIterator for SkipAny<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let gate = DropQuota(AtomicUsize::new(self.count));
        self.base
            .drive_unindexed(GateConsumer::new(consumer, &gate))
    }
}

/// The iterator made by [`ParallelIterator::skip_any_while`].
///
/// ```
/// use prorata::prelude::*;
/// let s: prorata::iter::SkipAnyWhile<_, _> =
///     (0..100usize).into_par_iter().skip_any_while(|&x| x > 1000);
/// assert_eq!(s.count(), 100);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct SkipAnyWhile<I, P> {
    base: I,
    predicate: P,
}

impl<I: fmt::Debug, P> fmt::Debug for SkipAnyWhile<I, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkipAnyWhile")
            .field("base", &self.base)
            .finish()
    }
}

impl<I, P> SkipAnyWhile<I, P> {
    pub(crate) fn new(base: I, predicate: P) -> Self {
        SkipAnyWhile { base, predicate }
    }
}

/// Drops items until one fails the predicate, anywhere; then passes everything.
struct DropWhileTrue<'p, P> {
    predicate: &'p P,
    passing: AtomicBool,
}

impl<T, P: Fn(&T) -> bool + Sync> Gate<T> for DropWhileTrue<'_, P> {
    type Out = T;
    const MAY_CLOSE: bool = false;

    fn pass(&self, item: T) -> Option<T> {
        if self.passing.load(Ordering::Relaxed) || !(self.predicate)(&item) {
            self.passing.store(true, Ordering::Relaxed);
            return Some(item);
        }
        None
    }
}

impl<I, P> ParallelIterator for SkipAnyWhile<I, P>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let gate = DropWhileTrue {
            predicate: &self.predicate,
            passing: AtomicBool::new(false),
        };
        self.base
            .drive_unindexed(GateConsumer::new(consumer, &gate))
    }
}
