//! `Vec<T>`: collected in place when the length is known, in pieces otherwise.

use std::collections::LinkedList;

use super::into_vec::extend_in_place;
use super::vec_list::{VecListConsumer, total_len};
use super::{FromParallelIterator, ParallelExtend, collect_extended};
use crate::iter::{
    IndexedParallelIterator, IntoParallelIterator, IntoParallelRefMutIterator, ParallelIterator,
};

/// Collects the items in order into a vector.
///
/// ```
/// use prorata::prelude::*;
/// let squares: Vec<usize> = (0..5usize).into_par_iter().map(|x| x * x).collect();
/// assert_eq!(squares, [0, 1, 4, 9, 16]);
/// ```
impl<T: Send> FromParallelIterator<T> for Vec<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        collect_extended(par_iter)
    }
}

/// Appends the items in order.
///
/// ```
/// use prorata::prelude::*;
/// let mut v = vec![10, 20];
/// v.par_extend((0..3usize).into_par_iter());
/// assert_eq!(v, [10, 20, 0, 1, 2]);
/// ```
impl<T: Send> ParallelExtend<T> for Vec<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        let iter = par_iter.into_par_iter();
        match iter.opt_len() {
            Some(len) => extend_in_place(self, len, iter),
            None => append_pieces(self, iter.drive_unindexed(VecListConsumer::new())),
        }
    }
}

/// Appends copies of the items in order.
///
/// ```
/// use prorata::prelude::*;
/// let extra = vec![1u8, 2, 3];
/// let mut v = vec![0u8];
/// v.par_extend(&extra);
/// assert_eq!(v, [0, 1, 2, 3]);
/// ```
impl<'a, T: 'a + Copy + Send + Sync> ParallelExtend<&'a T> for Vec<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        self.par_extend(par_iter.into_par_iter().copied());
    }
}

/// Moves the items of `pieces` to the end of `vec`, in order, reserving once. Large
/// pieces are copied in parallel, each by a worker of the current pool, so the pages of
/// the new buffer are first touched (and faulted in) by every worker, not one.
fn append_pieces<T: Send>(vec: &mut Vec<T>, mut pieces: LinkedList<Vec<T>>) {
    if vec.is_empty() && vec.capacity() == 0 && pieces.len() == 1 {
        // The common case of a single leaf: keep its vector, copy nothing.
        *vec = pieces.pop_front().unwrap_or_default();
        return;
    }
    let total = total_len(&pieces);
    vec.reserve(total);
    if pieces.len() < 2 || total * size_of::<T>() < PARALLEL_COPY_BYTES {
        for mut piece in pieces {
            vec.append(&mut piece);
        }
        return;
    }
    let start = vec.len();
    let dst = SendPtr(vec.spare_capacity_mut().as_mut_ptr().cast::<T>());
    let mut offset = 0;
    let mut jobs: Vec<(Vec<T>, usize)> = pieces
        .into_iter()
        .map(|piece| {
            let at = offset;
            offset += piece.len();
            (piece, at)
        })
        .collect();
    jobs.par_iter_mut().with_max_len(1).for_each(|(piece, at)| {
        // SAFETY: `dst + at .. dst + at + piece.len()` lies in the reserved spare
        // capacity (offsets are the running sum of the lengths, which add up to
        // `total`), and the ranges of different pieces do not overlap. The lengths are
        // those of the pieces' own vectors, not what the iterator announced, so user
        // code cannot make them lie. The items are moved: the piece forgets them
        // before it is dropped.
        unsafe {
            std::ptr::copy_nonoverlapping(piece.as_ptr(), dst.at(*at), piece.len());
            piece.set_len(0);
        }
    });
    // SAFETY: the `total` items after `start` were all written above (a copy cannot
    // panic and no user code runs in it, so `for_each` returned only after every piece
    // was moved; had it unwound, the moved items would only leak).
    unsafe { vec.set_len(start + total) };
}

/// Below this many bytes the pieces are appended by the calling thread.
const PARALLEL_COPY_BYTES: usize = 1 << 20;

/// The destination of the parallel copy, shared by the workers.
struct SendPtr<T>(*mut T);

impl<T> SendPtr<T> {
    /// The destination of the item at `offset`.
    ///
    /// # Safety
    /// `offset` is within the allocation the pointer points into.
    unsafe fn at(&self, offset: usize) -> *mut T {
        // SAFETY: forwarded from the caller.
        unsafe { self.0.add(offset) }
    }
}

// SAFETY: each worker writes only its own range through the pointer (see `append_pieces`),
// and `T: Send` items are moved across threads.
unsafe impl<T: Send> Sync for SendPtr<T> {}
