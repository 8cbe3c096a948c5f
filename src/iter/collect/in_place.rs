//! The in-place collect consumer: each piece of an indexed iterator writes its items
//! into its own slots of a `Vec`'s spare capacity.
//!
//! The consumer owns an uninitialised slice and splits it at the same indices as the
//! producer splits its items. A leaf becomes a [`SlotWriter`], which remembers how many
//! of its slots it has written and drops exactly those if it is dropped (a panic, or a
//! piece that cannot be joined). Joining two writers succeeds only when the left one is
//! full and the right one starts where the left one ends; the caller then checks that
//! the final writer covers the whole target, so a producer that yields fewer or more
//! items than it announced causes a panic, never undefined behaviour.

use std::marker::PhantomData;
use std::mem::{self, MaybeUninit};
use std::ptr;

use crate::iter::plumbing::*;

/// Writes items into a slice of uninitialised slots, split in step with the producer.
pub(super) struct SlotConsumer<'c, T> {
    slots: &'c mut [MaybeUninit<T>],
}

impl<'c, T: Send> SlotConsumer<'c, T> {
    pub(super) fn new(slots: &'c mut [MaybeUninit<T>]) -> Self {
        SlotConsumer { slots }
    }
}

impl<'c, T: Send + 'c> Consumer<T> for SlotConsumer<'c, T> {
    type Folder = SlotWriter<'c, T>;
    type Reducer = SlotJoiner;
    type Result = SlotWriter<'c, T>;

    fn split_at(self, index: usize) -> (Self, Self, SlotJoiner) {
        assert!(
            index <= self.slots.len(),
            "collect: split at {index} beyond the {} items announced",
            self.slots.len()
        );
        let (left, right) = self.slots.split_at_mut(index);
        (
            SlotConsumer::new(left),
            SlotConsumer::new(right),
            SlotJoiner,
        )
    }

    fn into_folder(self) -> SlotWriter<'c, T> {
        SlotWriter {
            start: self.slots.as_mut_ptr().cast::<T>(),
            capacity: self.slots.len(),
            written: 0,
            _slots: PhantomData,
        }
    }

    fn full(&self) -> bool {
        false
    }
}

/// Only reachable through an iterator whose `opt_len()` is `Some` (the caller chose the
/// in-place path for that reason); such an iterator must drive its consumer by index.
impl<'c, T: Send + 'c> UnindexedConsumer<T> for SlotConsumer<'c, T> {
    fn split_off_left(&self) -> Self {
        panic!("collect: an iterator with a known length was split without an index")
    }

    fn to_reducer(&self) -> SlotJoiner {
        SlotJoiner
    }
}

/// The items written so far into one contiguous run of slots, and the ownership of
/// them: dropping the writer drops the items it wrote.
pub(super) struct SlotWriter<'c, T> {
    start: *mut T,
    /// Number of slots this writer may fill.
    capacity: usize,
    /// Number of slots filled, from `start` on.
    written: usize,
    /// Borrows the target for `'c`, invariantly, so writers of different targets
    /// cannot be joined.
    _slots: PhantomData<&'c mut &'c mut [T]>,
}

// SAFETY: a writer is the unique owner of the items it wrote and the unique user of
// its slots (they come from a `&mut` slice split into disjoint parts), like a
// `Vec<T>` or a `&mut [T]`; sending it to another thread is sound when `T: Send`.
unsafe impl<T: Send> Send for SlotWriter<'_, T> {}

impl<T> SlotWriter<'_, T> {
    /// Number of items written.
    pub(super) fn len(&self) -> usize {
        self.written
    }

    /// Number of slots covered.
    pub(super) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Where the slots begin.
    pub(super) fn start(&self) -> *const T {
        self.start
    }

    /// Gives up ownership of the written items: the caller has made them part of a
    /// collection that will drop them.
    pub(super) fn release(self) {
        mem::forget(self);
    }
}

impl<T> Drop for SlotWriter<'_, T> {
    fn drop(&mut self) {
        let written = ptr::slice_from_raw_parts_mut(self.start, self.written);
        // SAFETY: the first `written` slots from `start` were initialised by `consume`
        // and are owned by this writer alone (joining hands them over with
        // `mem::forget`, and so does `release`), so they are dropped exactly once.
        unsafe { ptr::drop_in_place(written) };
    }
}

impl<T> Folder<T> for SlotWriter<'_, T> {
    type Result = Self;

    #[inline]
    fn consume(mut self, item: T) -> Self {
        assert!(
            self.written < self.capacity,
            "collect: more items than the iterator's length announced"
        );
        // SAFETY: `written < capacity`, so the slot lies inside the slice this writer
        // was made from and has exclusive use of; it has not been written yet, since
        // slots are filled once, in order.
        unsafe { self.start.add(self.written).write(item) };
        self.written += 1;
        self
    }

    fn complete(self) -> Self {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

/// Joins the writers of two neighbouring pieces.
pub(super) struct SlotJoiner;

impl<'c, T> Reducer<SlotWriter<'c, T>> for SlotJoiner {
    fn reduce(self, mut left: SlotWriter<'c, T>, right: SlotWriter<'c, T>) -> SlotWriter<'c, T> {
        // Only a full left piece directly followed by the right one makes one
        // contiguous run of items. Otherwise the right piece is dropped here (dropping
        // its items) and the final count check reports the missing writes.
        let left_end = left.start.wrapping_add(left.capacity);
        if left.written == left.capacity && left_end == right.start {
            left.capacity += right.capacity;
            left.written += right.written;
            mem::forget(right);
        }
        left
    }
}
