//! `par_rchunks`, `par_rchunks_exact` and their `_mut` twins.
//!
//! The exact iterators cut the remainder off up front, so that every piece holds only
//! whole chunks and the producers of the inexact iterators serve both.

use super::assert_chunk_size;
use super::chunks::{chunk_count, chunk_iterator, exact_count};
use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator over non-overlapping chunks of a slice, made by
/// [`par_rchunks`](super::ParallelSlice::par_rchunks).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::slice::RChunks<'_, i32> = [1, 2, 3].par_rchunks(2);
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct RChunks<'data, T> {
    chunk_size: usize,
    slice: &'data [T],
}

impl<'data, T> RChunks<'data, T> {
    pub(super) fn new(slice: &'data [T], chunk_size: usize) -> Self {
        assert_chunk_size(chunk_size);
        RChunks { chunk_size, slice }
    }
}

impl<T> Clone for RChunks<'_, T> {
    fn clone(&self) -> Self {
        RChunks { ..*self }
    }
}

/// Parallel iterator over chunks of exactly the same length, made by
/// [`par_rchunks_exact`](super::ParallelSlice::par_rchunks_exact).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::slice::RChunksExact<'_, i32> = [1, 2, 3].par_rchunks_exact(2);
/// assert_eq!((it.len(), it.remainder()), (1, &[1][..]));
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct RChunksExact<'data, T> {
    chunk_size: usize,
    slice: &'data [T],
    rem: &'data [T],
}

impl<'data, T> RChunksExact<'data, T> {
    pub(super) fn new(slice: &'data [T], chunk_size: usize) -> Self {
        assert_chunk_size(chunk_size);
        let (rem, slice) = slice.split_at(slice.len() % chunk_size);
        RChunksExact {
            chunk_size,
            slice,
            rem,
        }
    }

    /// The elements left over at the start, fewer than `chunk_size`, which no chunk
    /// holds.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([1, 2, 3, 4, 5].par_rchunks_exact(3).remainder(), &[1, 2]);
    /// ```
    pub fn remainder(&self) -> &'data [T] {
        self.rem
    }
}

impl<T> Clone for RChunksExact<'_, T> {
    fn clone(&self) -> Self {
        RChunksExact { ..*self }
    }
}

/// Parallel iterator over non-overlapping mutable chunks, made by
/// [`par_rchunks_mut`](super::ParallelSliceMut::par_rchunks_mut).
///
/// ```
/// use prorata::prelude::*;
/// let mut v = [1, 2, 3];
/// let it: prorata::slice::RChunksMut<'_, i32> = v.par_rchunks_mut(2);
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct RChunksMut<'data, T> {
    chunk_size: usize,
    slice: &'data mut [T],
}

impl<'data, T> RChunksMut<'data, T> {
    pub(super) fn new(slice: &'data mut [T], chunk_size: usize) -> Self {
        assert_chunk_size(chunk_size);
        RChunksMut { chunk_size, slice }
    }
}

/// Parallel iterator over mutable chunks of exactly the same length, made by
/// [`par_rchunks_exact_mut`](super::ParallelSliceMut::par_rchunks_exact_mut).
///
/// ```
/// use prorata::prelude::*;
/// let mut v = [1, 2, 3];
/// let it: prorata::slice::RChunksExactMut<'_, i32> = v.par_rchunks_exact_mut(2);
/// assert_eq!(it.into_remainder(), &mut [1]);
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct RChunksExactMut<'data, T> {
    chunk_size: usize,
    slice: &'data mut [T],
    rem: &'data mut [T],
}

impl<'data, T> RChunksExactMut<'data, T> {
    pub(super) fn new(slice: &'data mut [T], chunk_size: usize) -> Self {
        assert_chunk_size(chunk_size);
        let (rem, slice) = slice.split_at_mut(slice.len() % chunk_size);
        RChunksExactMut {
            chunk_size,
            slice,
            rem,
        }
    }

    /// The elements left over at the start, fewer than `chunk_size`, consuming the
    /// iterator.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_rchunks_exact_mut(3).into_remainder()[0] = 0;
    /// assert_eq!(v, [0, 2, 3, 4, 5]);
    /// ```
    pub fn into_remainder(self) -> &'data mut [T] {
        self.rem
    }

    /// The elements left over at the start, borrowed from the iterator.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// let mut chunks = v.par_rchunks_exact_mut(3);
    /// assert_eq!(chunks.remainder(), &mut [1, 2]);
    /// ```
    pub fn remainder(&mut self) -> &mut [T] {
        self.rem
    }

    /// Takes the elements left over at the start out of the iterator, which keeps an
    /// empty remainder.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// let mut chunks = v.par_rchunks_exact_mut(3);
    /// assert_eq!(chunks.take_remainder(), &mut [1, 2]);
    /// assert!(chunks.remainder().is_empty());
    /// ```
    pub fn take_remainder(&mut self) -> &'data mut [T] {
        std::mem::take(&mut self.rem)
    }
}

chunk_iterator!(RChunks, &'data [T], Sync, RChunksProducer, chunk_count);
chunk_iterator!(RChunksExact, &'data [T], Sync, RChunksProducer, exact_count);
chunk_iterator!(
    RChunksMut,
    &'data mut [T],
    Send,
    RChunksMutProducer,
    chunk_count
);
chunk_iterator!(
    RChunksExactMut,
    &'data mut [T],
    Send,
    RChunksMutProducer,
    exact_count
);

/// Produces the chunks of a slice, back to front; indices count chunks
/// from the end.
struct RChunksProducer<'data, T> {
    chunk_size: usize,
    slice: &'data [T],
}

impl<'data, T: Sync> Producer for RChunksProducer<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::RChunks<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.rchunks(self.chunk_size)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let mid = self.slice.len().min(index.saturating_mul(self.chunk_size));
        let (head, tail) = self.slice.split_at(self.slice.len() - mid);
        let piece = |slice| RChunksProducer {
            chunk_size: self.chunk_size,
            slice,
        };
        // The first chunks handed out are those at the end of the slice.
        (piece(tail), piece(head))
    }
}

/// Produces the mutable chunks of a slice, back to front; indices count chunks
/// from the end.
struct RChunksMutProducer<'data, T> {
    chunk_size: usize,
    slice: &'data mut [T],
}

impl<'data, T: Send> Producer for RChunksMutProducer<'data, T> {
    type Item = &'data mut [T];
    type IntoIter = std::slice::RChunksMut<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.rchunks_mut(self.chunk_size)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let mid = self.slice.len().min(index.saturating_mul(self.chunk_size));
        let len = self.slice.len();
        let (right, left) = self.slice.split_at_mut(len - mid);
        let chunk_size = self.chunk_size;
        (
            RChunksMutProducer {
                chunk_size,
                slice: left,
            },
            RChunksMutProducer {
                chunk_size,
                slice: right,
            },
        )
    }
}
