//! `empty()`: a parallel iterator with no items.

use std::fmt;
use std::marker::PhantomData;

use crate::iter::plumbing::*;
use crate::iter::*;

/// A parallel iterator with no items.
///
/// ```
/// use prorata::prelude::*;
/// let it = prorata::iter::empty::<u32>();
/// assert_eq!(it.len(), 0);
/// ```
pub fn empty<T: Send>() -> Empty<T> {
    Empty {
        marker: PhantomData,
    }
}

/// The iterator made by [`empty()`].
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::iter::Empty<u8> = prorata::iter::empty();
/// assert_eq!(it.opt_len(), Some(0));
/// ```
pub struct Empty<T> {
    marker: PhantomData<T>,
}

impl<T> Clone for Empty<T> {
    fn clone(&self) -> Self {
        Empty {
            marker: PhantomData,
        }
    }
}

impl<T: Send> fmt::Debug for Empty<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Empty")
    }
}

impl<T: Send> ParallelIterator for Empty<T> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(0)
    }
}

impl<T: Send> IndexedParallelIterator for Empty<T> {
    fn len(&self) -> usize {
        0
    }

    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        consumer.into_folder().complete()
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        callback.callback(EmptyProducer(PhantomData))
    }
}

struct EmptyProducer<T: Send>(PhantomData<T>);

impl<T: Send> Producer for EmptyProducer<T> {
    type Item = T;
    type IntoIter = std::iter::Empty<T>;

    fn into_iter(self) -> Self::IntoIter {
        std::iter::empty()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        debug_assert_eq!(index, 0);
        (self, EmptyProducer(PhantomData))
    }
}
