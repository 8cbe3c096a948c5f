//! `while_some`: pass the values of `Some` items until a `None` is met, anywhere.

use std::sync::atomic::{AtomicBool, Ordering};

use super::gate::{Gate, GateConsumer};
use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::while_some`].
///
/// ```
/// use prorata::prelude::*;
/// let w: prorata::iter::WhileSome<_> = (0..10usize).into_par_iter().map(Some).while_some();
/// assert_eq!(w.count(), 10);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct WhileSome<I> {
    base: I,
}

impl<I> WhileSome<I> {
    pub(crate) fn new(base: I) -> Self {
        WhileSome { base }
    }
}

/// Passes values until a `None` closes the gate for every piece.
struct UntilNone(AtomicBool);

impl<T> Gate<Option<T>> for UntilNone {
    type Out = T;
    const MAY_CLOSE: bool = true;

    fn pass(&self, item: Option<T>) -> Option<T> {
        if item.is_none() {
            self.0.store(true, Ordering::Relaxed);
        }
        item
    }

    fn closed(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl<I, T> ParallelIterator for WhileSome<I>
where
    I: ParallelIterator<Item = Option<T>>,
    T: Send,
{
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        let gate = UntilNone(AtomicBool::new(false));
        self.base
            .drive_unindexed(GateConsumer::new(consumer, &gate))
    }
}
