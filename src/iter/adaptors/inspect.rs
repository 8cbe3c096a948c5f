//! `inspect` and `update`: look at (or modify) every item on its way through. Both are
//! a `map` that returns the item itself, with a named type as Rayon has.

use std::fmt;

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::inspect`].
///
/// ```
/// use prorata::prelude::*;
/// let i: prorata::iter::Inspect<_, _> = (0..3usize).into_par_iter().inspect(|_| ());
/// assert_eq!(i.len(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Inspect<I, F> {
    base: I,
    inspect_op: F,
}

impl<I: fmt::Debug, F> fmt::Debug for Inspect<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inspect").field("base", &self.base).finish()
    }
}

impl<I, F> Inspect<I, F> {
    pub(crate) fn new(base: I, inspect_op: F) -> Self {
        Inspect { base, inspect_op }
    }
}

/// `item`, after showing it to `op`.
fn seen<T>(op: &impl Fn(&T)) -> impl Fn(T) -> T + '_ {
    move |item| {
        op(&item);
        item
    }
}

impl<I, F> ParallelIterator for Inspect<I, F>
where
    I: ParallelIterator,
    F: Fn(&I::Item) + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        self.base
            .map(seen(&self.inspect_op))
            .drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I, F> IndexedParallelIterator for Inspect<I, F>
where
    I: IndexedParallelIterator,
    F: Fn(&I::Item) + Sync + Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        self.base.map(seen(&self.inspect_op)).drive(consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        self.base
            .map(seen(&self.inspect_op))
            .with_producer(callback)
    }
}

/// The iterator made by [`ParallelIterator::update`].
///
/// ```
/// use prorata::prelude::*;
/// let u: prorata::iter::Update<_, _> = (0..3usize).into_par_iter().update(|x| *x += 1);
/// assert_eq!(u.len(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Update<I, F> {
    base: I,
    update_op: F,
}

impl<I: fmt::Debug, F> fmt::Debug for Update<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Update").field("base", &self.base).finish()
    }
}

impl<I, F> Update<I, F> {
    pub(crate) fn new(base: I, update_op: F) -> Self {
        Update { base, update_op }
    }
}

/// `item`, after `op` has modified it.
fn updated<T>(op: &impl Fn(&mut T)) -> impl Fn(T) -> T + '_ {
    move |mut item| {
        op(&mut item);
        item
    }
}

impl<I, F> ParallelIterator for Update<I, F>
where
    I: ParallelIterator,
    F: Fn(&mut I::Item) + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        self.base
            .map(updated(&self.update_op))
            .drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I, F> IndexedParallelIterator for Update<I, F>
where
    I: IndexedParallelIterator,
    F: Fn(&mut I::Item) + Sync + Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        self.base.map(updated(&self.update_op)).drive(consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        self.base
            .map(updated(&self.update_op))
            .with_producer(callback)
    }
}
