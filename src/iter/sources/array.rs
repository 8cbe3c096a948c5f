//! Parallel iterators over arrays: owned `[T; N]`, and `&[T; N]` / `&mut [T; N]`
//! (which iterate as slices).

use std::mem::ManuallyDrop;

use super::drain_producer::DrainProducer;
use crate::iter::plumbing::*;
use crate::iter::*;

impl<'data, T: Sync + 'data, const N: usize> IntoParallelIterator for &'data [T; N] {
    type Iter = crate::slice::Iter<'data, T>;
    type Item = &'data T;

    fn into_par_iter(self) -> Self::Iter {
        <&[T]>::into_par_iter(self)
    }
}

impl<'data, T: Send + 'data, const N: usize> IntoParallelIterator for &'data mut [T; N] {
    type Iter = crate::slice::IterMut<'data, T>;
    type Item = &'data mut T;

    fn into_par_iter(self) -> Self::Iter {
        <&mut [T]>::into_par_iter(self)
    }
}

/// Parallel iterator that moves the items out of an array, made by
/// `array.into_par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::array::IntoIter<u8, 3> = [1u8, 2, 3].into_par_iter();
/// assert_eq!(it.len(), 3);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<T, const N: usize> {
    array: [T; N],
}

impl<T: Send, const N: usize> IntoParallelIterator for [T; N] {
    type Iter = IntoIter<T, N>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T, N> {
        IntoIter { array: self }
    }
}

impl<T: Send, const N: usize> ParallelIterator for IntoIter<T, N> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(N)
    }
}

impl<T: Send, const N: usize> IndexedParallelIterator for IntoIter<T, N> {
    fn len(&self) -> usize {
        N
    }

    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        // The array will not drop its items: the producer owns them from here on.
        let mut array = ManuallyDrop::new(self.array);
        // SAFETY: the items are initialised, and `array` never reads or drops them
        // again (it is `ManuallyDrop`); it only lends the memory for this call.
        let producer = unsafe { DrainProducer::new(&mut array[..]) };
        callback.callback(producer)
    }
}
