//! The producer that moves items out of memory it owns but does not free: the part of
//! a `Vec` being drained, or an array taken apart. Items it does not yield are dropped
//! in place, also when the consumer panics.

use std::{mem, ptr, slice};

use crate::iter::plumbing::Producer;

/// Owns the items of `slice`: they are moved out when yielded and dropped in place
/// otherwise. The memory itself stays with whoever lent it.
pub(crate) struct DrainProducer<'data, T: Send> {
    slice: &'data mut [T],
}

impl<'data, T: Send> DrainProducer<'data, T> {
    /// # Safety
    ///
    /// The items of `slice` must be initialised and must now belong to the producer:
    /// the lender must neither read nor drop them after this call (it only frees or
    /// reuses the memory once the producer and its pieces are gone).
    pub(crate) unsafe fn new(slice: &'data mut [T]) -> Self {
        DrainProducer { slice }
    }
}

impl<'data, T: Send> Producer for DrainProducer<'data, T> {
    type Item = T;
    type IntoIter = SliceDrain<'data, T>;

    fn into_iter(mut self) -> SliceDrain<'data, T> {
        // Ownership of the items passes to the iterator; `self` is left empty.
        let slice = mem::take(&mut self.slice);
        SliceDrain {
            iter: slice.iter_mut(),
        }
    }

    fn split_at(mut self, index: usize) -> (Self, Self) {
        let slice = mem::take(&mut self.slice);
        let (left, right) = slice.split_at_mut(index);
        (
            DrainProducer { slice: left },
            DrainProducer { slice: right },
        )
    }
}

impl<T: Send> Drop for DrainProducer<'_, T> {
    fn drop(&mut self) {
        let slice = mem::take(&mut self.slice);
        // SAFETY: the producer owns these items (see `new`) and nothing has moved them
        // out: `into_iter` and `split_at` leave `self.slice` empty when they hand the
        // items on. They are dropped exactly once, here.
        unsafe { ptr::drop_in_place(slice) };
    }
}

/// The sequential iterator of a [`DrainProducer`]: reads items out one by one.
pub(crate) struct SliceDrain<'data, T> {
    iter: slice::IterMut<'data, T>,
}

impl<T> Iterator for SliceDrain<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let slot = self.iter.next()?;
        // SAFETY: the iterator owns the items not yet yielded; advancing past `slot`
        // means it will never be read or dropped again here, so it is moved out once.
        Some(unsafe { ptr::read(slot) })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl<T> DoubleEndedIterator for SliceDrain<'_, T> {
    fn next_back(&mut self) -> Option<T> {
        let slot = self.iter.next_back()?;
        // SAFETY: as in `next`, from the other end.
        Some(unsafe { ptr::read(slot) })
    }
}

impl<T> ExactSizeIterator for SliceDrain<'_, T> {}

impl<T> Drop for SliceDrain<'_, T> {
    fn drop(&mut self) {
        let rest = mem::take(&mut self.iter).into_slice();
        // SAFETY: `rest` holds exactly the items not yet yielded, which the iterator
        // still owns; they are dropped once, here.
        unsafe { ptr::drop_in_place(rest) };
    }
}
