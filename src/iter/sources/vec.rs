//! Parallel iterators that own or drain the items of a `Vec`: `vec.into_par_iter()`,
//! `boxed_slice.into_par_iter()` and `vec.par_drain(range)`. (`&Vec` and `&mut Vec`
//! iterate as slices: see `prorata::slice`.)

use std::ops::{Range, RangeBounds};
use std::{ptr, slice};

use super::drain::checked_range;
use super::drain_producer::DrainProducer;
use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator that moves the items out of a `Vec`, made by
/// `vec.into_par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::vec::IntoIter<String> = vec![String::from("a")].into_par_iter();
/// assert_eq!(it.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<T> {
    vec: Vec<T>,
}

impl<T: Send> IntoParallelIterator for Vec<T> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter { vec: self }
    }
}

impl<T: Send> IntoParallelIterator for Box<[T]> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter {
            vec: self.into_vec(),
        }
    }
}

impl<T: Send> ParallelIterator for IntoIter<T> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.vec.len())
    }
}

impl<T: Send> IndexedParallelIterator for IntoIter<T> {
    fn len(&self) -> usize {
        self.vec.len()
    }

    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        // Drain everything; the emptied vector frees its buffer afterwards.
        let mut vec = self.vec;
        vec.par_drain(..).with_producer(callback)
    }
}

impl<'data, T: Send> ParallelDrainRange<usize> for &'data mut Vec<T> {
    type Iter = Drain<'data, T>;
    type Item = T;

    #[track_caller]
    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> Drain<'data, T> {
        let orig_len = self.len();
        Drain {
            range: checked_range(range, orig_len),
            vec: self,
            orig_len,
        }
    }
}

/// Parallel iterator that moves a range of items out of a `Vec`, made by
/// `vec.par_drain(range)`. When it is dropped, the items after the range move down
/// to close the gap.
///
/// ```
/// use prorata::prelude::*;
/// let mut v = vec![1, 2, 3, 4];
/// let d: prorata::vec::Drain<'_, i32> = v.par_drain(1..3);
/// assert_eq!(d.len(), 2);
/// drop(d);
/// assert_eq!(v, [1, 4]);
/// ```
#[derive(Debug)]
pub struct Drain<'data, T: Send> {
    vec: &'data mut Vec<T>,
    range: Range<usize>,
    orig_len: usize,
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

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        let Range { start, end } = self.range;
        // SAFETY: shortening the length only hides items from the vector (none is
        // dropped); from here the drained items belong to the producer and the tail to
        // this `Drain`, whose `drop` moves the tail back even if `callback` panics.
        unsafe { self.vec.set_len(start) };
        // SAFETY: `start..end` lies within the original length (checked by
        // `checked_range`), so these initialised items are in the allocation, and the
        // vector (now of length `start`) does not touch them while the slice lives.
        let drained =
            unsafe { slice::from_raw_parts_mut(self.vec.as_mut_ptr().add(start), end - start) };
        // SAFETY: the items of `drained` are initialised and, per the above, owned by
        // the producer from now on.
        callback.callback(unsafe { DrainProducer::new(drained) })
    }
}

impl<T: Send> Drop for Drain<'_, T> {
    fn drop(&mut self) {
        let Range { start, end } = self.range;
        if self.vec.len() == self.orig_len {
            // Never driven (or an empty range at the end): drain the ordinary way,
            // which drops the items of the range.
            self.vec.drain(start..end);
            return;
        }
        // Driven: the producer has consumed or dropped `start..end`; the tail
        // `end..orig_len` is still in place, hidden. Move it down to `start`.
        let tail = self.orig_len - end;
        // SAFETY: `end..orig_len` holds the tail's initialised items and
        // `start..start + tail` lies within the allocation; `ptr::copy` allows the
        // overlap. After it the first `start + tail` items are initialised and owned
        // by the vector, with nothing duplicated (the drained slots were vacated).
        unsafe {
            let base = self.vec.as_mut_ptr();
            ptr::copy(base.add(end), base.add(start), tail);
            self.vec.set_len(start + tail);
        }
    }
}
