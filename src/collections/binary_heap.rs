//! `BinaryHeap`: iterated as its underlying slice (arbitrary order, like std's
//! `iter`), drained and collected through a `Vec`.

use std::collections::BinaryHeap;
use std::marker::PhantomData;

use super::{delegate_indexed, par_extend_impls};
use crate::iter::*;

/// Parallel iterator that owns a `BinaryHeap`'s items, in arbitrary order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::BinaryHeap;
/// let it: prorata::collections::binary_heap::IntoIter<i32> =
///     BinaryHeap::from([3, 1]).into_par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<T> {
    inner: crate::vec::IntoIter<T>,
}

/// Parallel iterator over references to a `BinaryHeap`'s items, in arbitrary order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::BinaryHeap;
/// let heap = BinaryHeap::from([3, 1]);
/// let it: prorata::collections::binary_heap::Iter<'_, i32> = heap.par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct Iter<'a, T> {
    inner: crate::slice::Iter<'a, T>,
}

/// Parallel iterator that moves every item out of a `BinaryHeap`, in arbitrary
/// order, made by [`par_drain`](crate::iter::ParallelDrainFull::par_drain).
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::BinaryHeap;
/// let mut heap = BinaryHeap::from([3, 1, 2]);
/// let it: prorata::collections::binary_heap::Drain<'_, i32> = heap.par_drain();
/// assert_eq!(it.len(), 3);
/// assert!(heap.is_empty());
/// ```
#[derive(Debug)]
pub struct Drain<'a, T> {
    inner: crate::vec::IntoIter<T>,
    heap: PhantomData<&'a mut BinaryHeap<T>>,
}

impl<T: Send> IntoParallelIterator for BinaryHeap<T> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter {
            inner: self.into_vec().into_par_iter(),
        }
    }
}

impl<'a, T: Sync> IntoParallelIterator for &'a BinaryHeap<T> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        Iter {
            inner: self.as_slice().par_iter(),
        }
    }
}

impl<'a, T: Send> ParallelDrainFull for &'a mut BinaryHeap<T> {
    type Iter = Drain<'a, T>;
    type Item = T;

    fn par_drain(self) -> Drain<'a, T> {
        Drain {
            inner: self.drain().collect::<Vec<_>>().into_par_iter(),
            heap: PhantomData,
        }
    }
}

delegate_indexed!(<T> IntoIter<T> => T where T: Send);
delegate_indexed!(<'a, T> Iter<'a, T> => &'a T where T: Sync);
delegate_indexed!(<'a, T> Drain<'a, T> => T where T: Send);

impl<T: Ord + Send> FromParallelIterator<T> for BinaryHeap<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

par_extend_impls!(
    <T> BinaryHeap<T>, T, &'r T, BinaryHeap::reserve,
    where [T: Ord + Send], ref where [T: Copy + Ord + Send + Sync + 'r]
);
