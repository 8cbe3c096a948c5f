//! Parallel iterators over slices by reference: `par_iter()` and `par_iter_mut()`.

use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator over `&[T]`, made by `slice.par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::slice::Iter<'_, i32> = [1, 2, 3].par_iter();
/// assert_eq!(it.len(), 3);
/// ```
#[derive(Debug)]
pub struct Iter<'data, T> {
    slice: &'data [T],
}

impl<T> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Iter { slice: self.slice }
    }
}

/// Parallel iterator over `&mut [T]`, made by `slice.par_iter_mut()`.
///
/// ```
/// use prorata::prelude::*;
/// let mut v = [1, 2, 3];
/// let it: prorata::slice::IterMut<'_, i32> = v.par_iter_mut();
/// assert_eq!(it.len(), 3);
/// ```
#[derive(Debug)]
pub struct IterMut<'data, T> {
    slice: &'data mut [T],
}

/// `IntoParallelIterator` for references to slices and to the containers that deref
/// to one: `Iter` for shared ones, `IterMut` for mutable ones.
macro_rules! into_slice_iter {
    ($($container:ty),*) => {$(
        impl<'data, T: Sync + 'data> IntoParallelIterator for &'data $container {
            type Iter = Iter<'data, T>;
            type Item = &'data T;

            fn into_par_iter(self) -> Iter<'data, T> {
                Iter { slice: self }
            }
        }

        impl<'data, T: Send + 'data> IntoParallelIterator for &'data mut $container {
            type Iter = IterMut<'data, T>;
            type Item = &'data mut T;

            fn into_par_iter(self) -> IterMut<'data, T> {
                IterMut { slice: self }
            }
        }
    )*};
}

into_slice_iter!([T], Vec<T>, Box<[T]>);

impl<'data, T: Sync + 'data> ParallelIterator for Iter<'data, T> {
    type Item = &'data T;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.slice.len())
    }
}

impl<'data, T: Sync + 'data> IndexedParallelIterator for Iter<'data, T> {
    fn len(&self) -> usize {
        self.slice.len()
    }

    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(SliceProducer { slice: self.slice })
    }
}

impl<'data, T: Send + 'data> ParallelIterator for IterMut<'data, T> {
    type Item = &'data mut T;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.slice.len())
    }
}

impl<'data, T: Send + 'data> IndexedParallelIterator for IterMut<'data, T> {
    fn len(&self) -> usize {
        self.slice.len()
    }

    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(SliceMutProducer { slice: self.slice })
    }
}

struct SliceProducer<'data, T> {
    slice: &'data [T],
}

impl<'data, T: Sync> Producer for SliceProducer<'data, T> {
    type Item = &'data T;
    type IntoIter = std::slice::Iter<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.iter()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.slice.split_at(index);
        (
            SliceProducer { slice: left },
            SliceProducer { slice: right },
        )
    }
}

struct SliceMutProducer<'data, T> {
    slice: &'data mut [T],
}

impl<'data, T: Send> Producer for SliceMutProducer<'data, T> {
    type Item = &'data mut T;
    type IntoIter = std::slice::IterMut<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.iter_mut()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.slice.split_at_mut(index);
        (
            SliceMutProducer { slice: left },
            SliceMutProducer { slice: right },
        )
    }
}
