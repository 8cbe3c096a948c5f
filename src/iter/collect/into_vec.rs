//! Collecting iterators of known length into a `Vec`, in place: `collect_into_vec`,
//! `unzip_into_vecs`, and the fast path of `Vec::par_extend`.

use super::in_place::{SlotConsumer, SlotWriter};
use super::unzip::drive_indexed_unzip;
use crate::iter::{IndexedParallelIterator, ParallelIterator};

/// Appends exactly `len` items to `vec`: reserves room, lets `drive` write the items
/// into the spare capacity through the consumer it is given, then checks that every
/// slot was written before making the items part of the vector.
///
/// # Panics
///
/// With "expected N total writes, but got M" if the iterator yielded fewer items than
/// `len` (the items written are dropped), and if it yielded more (from the writer).
pub(super) fn append_in_place<T, F>(vec: &mut Vec<T>, len: usize, drive: F)
where
    T: Send,
    F: for<'c> FnOnce(SlotConsumer<'c, T>) -> SlotWriter<'c, T>,
{
    vec.reserve(len);
    let old_len = vec.len();
    let slots = &mut vec.spare_capacity_mut()[..len];
    let first_slot = slots.as_ptr().cast::<T>();
    let writer = drive(SlotConsumer::new(slots));
    let written = writer.len();
    assert!(
        written == len,
        "expected {len} total writes, but got {written}"
    );
    // Only the writer covering the whole target can have written `len` items; check it
    // anyway, it is cheap.
    assert!(writer.start() == first_slot && writer.capacity() == len);
    writer.release();
    // SAFETY: the `len` slots after `old_len` are initialised (the writer that covers
    // exactly them wrote all of them) and their ownership was released to the vector;
    // `reserve` made the capacity at least `old_len + len`. Only the writers' own counts
    // are trusted: a `len()`, `split_at` or producer of user code that lies makes the
    // checks above panic (the items written are then dropped by their writers).
    unsafe { vec.set_len(old_len + len) };
}

/// `Vec::par_extend` for an iterator that promises, through `opt_len`, `len` items and
/// an indexed way of driving its consumer.
pub(super) fn extend_in_place<I>(vec: &mut Vec<I::Item>, len: usize, iter: I)
where
    I: ParallelIterator,
{
    append_in_place(vec, len, |consumer| iter.drive_unindexed(consumer));
}

/// `IndexedParallelIterator::collect_into_vec`: replaces the contents of `target`.
pub(crate) fn collect_into_vec<I>(iter: I, target: &mut Vec<I::Item>)
where
    I: IndexedParallelIterator,
{
    target.clear();
    let len = iter.len();
    append_in_place(target, len, |consumer| iter.drive(consumer));
}

/// `IndexedParallelIterator::unzip_into_vecs`: replaces the contents of both vectors,
/// writing both halves of every pair in place in a single pass.
pub(crate) fn unzip_into_vecs<I, A, B>(iter: I, left: &mut Vec<A>, right: &mut Vec<B>)
where
    I: IndexedParallelIterator<Item = (A, B)>,
    A: Send,
    B: Send,
{
    left.clear();
    right.clear();
    let len = iter.len();
    append_in_place(right, len, |right_consumer| {
        // If checking the left half panics, this still holds the right half's
        // writer, which drops its items while unwinding.
        let mut right_writer = None;
        append_in_place(left, len, |left_consumer| {
            let (left_writer, writer) = drive_indexed_unzip(iter, left_consumer, right_consumer);
            right_writer = Some(writer);
            left_writer
        });
        right_writer.expect("the unzip drove both halves")
    });
}
