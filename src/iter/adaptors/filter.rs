//! `filter` and `filter_map`: keep some items (mapped, for `filter_map`).

use std::fmt;

use super::gate::{Gate, GateConsumer};
use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::filter_map`].
///
/// ```
/// use prorata::prelude::*;
/// let f: prorata::iter::FilterMap<_, _> =
///     (0..4usize).into_par_iter().filter_map(|x| x.checked_sub(2));
/// assert_eq!(f.count(), 2);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FilterMap<I, P> {
    base: I,
    filter_op: P,
}

impl<I: fmt::Debug, P> fmt::Debug for FilterMap<I, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FilterMap")
            .field("base", &self.base)
            .finish()
    }
}

impl<I, P> FilterMap<I, P> {
    pub(crate) fn new(base: I, filter_op: P) -> Self {
        FilterMap { base, filter_op }
    }
}

struct FilterMapGate<'p, P>(&'p P);

impl<T, R, P> Gate<T> for FilterMapGate<'_, P>
where
    P: Fn(T) -> Option<R> + Sync,
{
    type Out = R;
    const MAY_CLOSE: bool = false;

    #[inline]
    fn pass(&self, item: T) -> Option<R> {
        (self.0)(item)
    }
}

impl<I, P, R> ParallelIterator for FilterMap<I, P>
where
    I: ParallelIterator,
    P: Fn(I::Item) -> Option<R> + Sync + Send,
    R: Send,
{
    type Item = R;

    fn drive_unindexed<C: UnindexedConsumer<R>>(self, consumer: C) -> C::Result {
        let gate = FilterMapGate(&self.filter_op);
        self.base
            .drive_unindexed(GateConsumer::new(consumer, &gate))
    }
}

/// The iterator made by [`ParallelIterator::filter`].
///
/// ```
/// use prorata::prelude::*;
/// let f: prorata::iter::Filter<_, _> = (0..4usize).into_par_iter().filter(|x| x % 2 == 0);
/// assert_eq!(f.count(), 2);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Filter<I, P> {
    base: I,
    filter_op: P,
}

impl<I: fmt::Debug, P> fmt::Debug for Filter<I, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Filter").field("base", &self.base).finish()
    }
}

impl<I, P> Filter<I, P> {
    pub(crate) fn new(base: I, filter_op: P) -> Self {
        Filter { base, filter_op }
    }
}

impl<I, P> ParallelIterator for Filter<I, P>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let keep = &self.filter_op;
        // A named closure: Rust 1.85 (the MSRV) does not extend a temporary's lifetime
        // through a tuple struct's constructor.
        let kept = |item: I::Item| keep(&item).then_some(item);
        let gate = FilterMapGate(&kept);
        self.base
            .drive_unindexed(GateConsumer::new(consumer, &gate))
    }
}
