//! `cloned` and `copied`: turn references into owned items. Both are a `map` in
//! disguise, with a named type as Rayon has.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::cloned`].
///
/// ```
/// use prorata::prelude::*;
/// let v = vec![String::from("a")];
/// let c: prorata::iter::Cloned<_> = v.par_iter().cloned();
/// assert_eq!(c.len(), 1);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Cloned<I> {
    base: I,
}

impl<I> Cloned<I> {
    pub(crate) fn new(base: I) -> Self {
        Cloned { base }
    }
}

impl<'a, T, I> ParallelIterator for Cloned<I>
where
    I: ParallelIterator<Item = &'a T>,
    T: 'a + Clone + Send + Sync,
{
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        self.base.map(T::clone).drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<'a, T, I> IndexedParallelIterator for Cloned<I>
where
    I: IndexedParallelIterator<Item = &'a T>,
    T: 'a + Clone + Send + Sync,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        self.base.map(T::clone).drive(consumer)
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        self.base.map(T::clone).with_producer(callback)
    }
}

/// The iterator made by [`ParallelIterator::copied`].
///
/// ```
/// use prorata::prelude::*;
/// let v = vec![1, 2];
/// let c: prorata::iter::Copied<_> = v.par_iter().copied();
/// assert_eq!(c.len(), 2);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Copied<I> {
    base: I,
}

impl<I> Copied<I> {
    pub(crate) fn new(base: I) -> Self {
        Copied { base }
    }
}

fn copy<T: Copy>(item: &T) -> T {
    *item
}

impl<'a, T, I> ParallelIterator for Copied<I>
where
    I: ParallelIterator<Item = &'a T>,
    T: 'a + Copy + Send + Sync,
{
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        self.base.map(copy).drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<'a, T, I> IndexedParallelIterator for Copied<I>
where
    I: IndexedParallelIterator<Item = &'a T>,
    T: 'a + Copy + Send + Sync,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        self.base.map(copy).drive(consumer)
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        self.base.map(copy).with_producer(callback)
    }
}
