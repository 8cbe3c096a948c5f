//! `VecDeque`: iterated as its two slices, drained through a `Vec`, collected through
//! a `Vec`.

use std::collections::VecDeque;
use std::ops::{Range, RangeBounds};

use super::{delegate_indexed, par_extend_impls};
use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator that owns a `VecDeque`'s items.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::VecDeque;
/// let it: prorata::collections::vec_deque::IntoIter<i32> = VecDeque::from([1, 2]).into_par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<T> {
    inner: crate::vec::IntoIter<T>,
}

/// Parallel iterator over references to a `VecDeque`'s items, in order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::VecDeque;
/// let d = VecDeque::from([1, 2]);
/// let it: prorata::collections::vec_deque::Iter<'_, i32> = d.par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct Iter<'a, T> {
    inner: Chain<crate::slice::Iter<'a, T>, crate::slice::Iter<'a, T>>,
}

/// Parallel iterator over mutable references to a `VecDeque`'s items, in order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::VecDeque;
/// let mut d = VecDeque::from([1, 2]);
/// let it: prorata::collections::vec_deque::IterMut<'_, i32> = d.par_iter_mut();
/// it.for_each(|x| *x += 1);
/// assert_eq!(d, [2, 3]);
/// ```
#[derive(Debug)]
pub struct IterMut<'a, T> {
    inner: Chain<crate::slice::IterMut<'a, T>, crate::slice::IterMut<'a, T>>,
}

impl<T: Send> IntoParallelIterator for VecDeque<T> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        // In place when the deque does not wrap around; one move of the items otherwise.
        IntoIter {
            inner: Vec::from(self).into_par_iter(),
        }
    }
}

impl<'a, T: Sync> IntoParallelIterator for &'a VecDeque<T> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        let (front, back) = self.as_slices();
        Iter {
            inner: front.par_iter().chain(back.par_iter()),
        }
    }
}

impl<'a, T: Send> IntoParallelIterator for &'a mut VecDeque<T> {
    type Iter = IterMut<'a, T>;
    type Item = &'a mut T;

    fn into_par_iter(self) -> IterMut<'a, T> {
        let (front, back) = self.as_mut_slices();
        IterMut {
            inner: front.par_iter_mut().chain(back.par_iter_mut()),
        }
    }
}

delegate_indexed!(<T> IntoIter<T> => T where T: Send);
delegate_indexed!(<'a, T> Iter<'a, T> => &'a T where T: Sync);
delegate_indexed!(<'a, T> IterMut<'a, T> => &'a mut T where T: Send);

/// Parallel iterator that moves a range of items out of a `VecDeque`, made by
/// [`par_drain`](crate::iter::ParallelDrainRange::par_drain). The deque keeps its
/// capacity; items the iterator does not yield are dropped.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::VecDeque;
/// let mut d: VecDeque<i32> = (0..6).collect();
/// let sum = std::sync::atomic::AtomicI32::new(0);
/// d.par_drain(1..4).for_each(|x| { sum.fetch_add(x, std::sync::atomic::Ordering::Relaxed); });
/// assert_eq!(sum.into_inner(), 6);
/// assert_eq!(d, [0, 4, 5]);
/// ```
#[derive(Debug)]
pub struct Drain<'a, T> {
    deque: &'a mut VecDeque<T>,
    range: Range<usize>,
}

impl<'a, T: Send> ParallelDrainRange<usize> for &'a mut VecDeque<T> {
    type Iter = Drain<'a, T>;
    type Item = T;

    #[track_caller]
    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> Drain<'a, T> {
        let range = crate::iter::sources::drain::checked_range(range, self.len());
        Drain { deque: self, range }
    }
}

impl<T: Send> ParallelIterator for Drain<'_, T> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.range.len())
    }
}

impl<T: Send> IndexedParallelIterator for Drain<'_, T> {
    fn len(&self) -> usize {
        self.range.len()
    }

    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<T>>(mut self, callback: CB) -> CB::Output {
        let range = std::mem::take(&mut self.range);
        let mut borrowed = AsVec::new(self.deque);
        borrowed.vec.par_drain(range).with_producer(callback)
    }
}

impl<T> Drop for Drain<'_, T> {
    fn drop(&mut self) {
        // Still set only when the iterator was never driven: drain sequentially.
        if !self.range.is_empty() {
            self.deque.drain(self.range.clone());
        }
    }
}

/// A deque's items lent out as a `Vec` (so that `Vec`'s drain does the work), and
/// given back when this is dropped, even on a panic.
struct AsVec<'a, T> {
    deque: &'a mut VecDeque<T>,
    vec: Vec<T>,
}

impl<'a, T> AsVec<'a, T> {
    fn new(deque: &'a mut VecDeque<T>) -> Self {
        let vec = Vec::from(std::mem::take(deque));
        AsVec { deque, vec }
    }
}

impl<T> Drop for AsVec<'_, T> {
    fn drop(&mut self) {
        *self.deque = VecDeque::from(std::mem::take(&mut self.vec));
    }
}

impl<T: Send> FromParallelIterator<T> for VecDeque<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

par_extend_impls!(
    <T> VecDeque<T>, T, &'r T, VecDeque::reserve,
    where [T: Send], ref where [T: Copy + Send + Sync + 'r]
);
