//! `once(item)`: a parallel iterator with exactly one item.

use crate::iter::plumbing::*;
use crate::iter::*;

/// A parallel iterator with exactly one item.
///
/// ```
/// use prorata::prelude::*;
/// let it = prorata::iter::once(7);
/// assert_eq!(it.len(), 1);
/// ```
pub fn once<T: Send>(item: T) -> Once<T> {
    Once {
        inner: Some(item).into_par_iter(),
    }
}

/// The iterator made by [`once()`].
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::iter::Once<&str> = prorata::iter::once("x");
/// assert_eq!(it.opt_len(), Some(1));
/// ```
#[derive(Clone, Debug)]
pub struct Once<T> {
    inner: crate::option::IntoIter<T>,
}

impl<T: Send> ParallelIterator for Once<T> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        self.inner.drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(1)
    }
}

impl<T: Send> IndexedParallelIterator for Once<T> {
    fn len(&self) -> usize {
        1
    }

    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        self.inner.drive(consumer)
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        self.inner.with_producer(callback)
    }
}
