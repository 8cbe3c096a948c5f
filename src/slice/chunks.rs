//! `par_chunks`, `par_chunks_exact` and their `_mut` twins.
//!
//! The exact iterators cut the remainder off up front, so that every piece holds only
//! whole chunks and the producers of the inexact iterators serve both.

use super::assert_chunk_size;
use crate::iter::plumbing::*;
use crate::iter::*;

/// Number of chunks of `chunk_size` needed to cover `len` elements.
pub(super) fn chunk_count(len: usize, chunk_size: usize) -> usize {
    len.div_ceil(chunk_size)
}

/// Number of whole chunks of `chunk_size` in `len` elements.
pub(super) fn exact_count(len: usize, chunk_size: usize) -> usize {
    len / chunk_size
}

/// Implements `ParallelIterator` and `IndexedParallelIterator` for a chunk iterator
/// struct (fields `chunk_size` and `slice`) that holds `$count(len, chunk_size)`
/// chunks, produced by `$producer`.
macro_rules! chunk_iterator {
    ($name:ident, $item:ty, $bound:ident, $producer:ident, $count:ident) => {
        impl<'data, T: $bound> ParallelIterator for $name<'data, T> {
            type Item = $item;

            fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl<'data, T: $bound> IndexedParallelIterator for $name<'data, T> {
            fn len(&self) -> usize {
                $count(self.slice.len(), self.chunk_size)
            }

            fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
                callback.callback($producer {
                    chunk_size: self.chunk_size,
                    slice: self.slice,
                })
            }
        }
    };
}

pub(super) use chunk_iterator;

/// Parallel iterator over non-overlapping chunks of a slice, made by
/// [`par_chunks`](super::ParallelSlice::par_chunks).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::slice::Chunks<'_, i32> = [1, 2, 3].par_chunks(2);
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Chunks<'data, T> {
    chunk_size: usize,
    slice: &'data [T],
}

impl<'data, T> Chunks<'data, T> {
    pub(super) fn new(slice: &'data [T], chunk_size: usize) -> Self {
        assert_chunk_size(chunk_size);
        Chunks { chunk_size, slice }
    }
}

impl<T> Clone for Chunks<'_, T> {
    fn clone(&self) -> Self {
        Chunks { ..*self }
    }
}

/// Parallel iterator over chunks of exactly the same length, made by
/// [`par_chunks_exact`](super::ParallelSlice::par_chunks_exact).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::slice::ChunksExact<'_, i32> = [1, 2, 3].par_chunks_exact(2);
/// assert_eq!((it.len(), it.remainder()), (1, &[3][..]));
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct ChunksExact<'data, T> {
    chunk_size: usize,
    slice: &'data [T],
    rem: &'data [T],
}

impl<'data, T> ChunksExact<'data, T> {
    pub(super) fn new(slice: &'data [T], chunk_size: usize) -> Self {
        assert_chunk_size(chunk_size);
        let whole = slice.len() - slice.len() % chunk_size;
        let (slice, rem) = slice.split_at(whole);
        ChunksExact {
            chunk_size,
            slice,
            rem,
        }
    }

    /// The elements left over at the end, fewer than `chunk_size`, which no chunk
    /// holds.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([1, 2, 3, 4, 5].par_chunks_exact(3).remainder(), &[4, 5]);
    /// ```
    pub fn remainder(&self) -> &'data [T] {
        self.rem
    }
}

impl<T> Clone for ChunksExact<'_, T> {
    fn clone(&self) -> Self {
        ChunksExact { ..*self }
    }
}

/// Parallel iterator over non-overlapping mutable chunks, made by
/// [`par_chunks_mut`](super::ParallelSliceMut::par_chunks_mut).
///
/// ```
/// use prorata::prelude::*;
/// let mut v = [1, 2, 3];
/// let it: prorata::slice::ChunksMut<'_, i32> = v.par_chunks_mut(2);
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct ChunksMut<'data, T> {
    chunk_size: usize,
    slice: &'data mut [T],
}

impl<'data, T> ChunksMut<'data, T> {
    pub(super) fn new(slice: &'data mut [T], chunk_size: usize) -> Self {
        assert_chunk_size(chunk_size);
        ChunksMut { chunk_size, slice }
    }
}

/// Parallel iterator over mutable chunks of exactly the same length, made by
/// [`par_chunks_exact_mut`](super::ParallelSliceMut::par_chunks_exact_mut).
///
/// ```
/// use prorata::prelude::*;
/// let mut v = [1, 2, 3];
/// let it: prorata::slice::ChunksExactMut<'_, i32> = v.par_chunks_exact_mut(2);
/// assert_eq!(it.into_remainder(), &mut [3]);
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct ChunksExactMut<'data, T> {
    chunk_size: usize,
    slice: &'data mut [T],
    rem: &'data mut [T],
}

impl<'data, T> ChunksExactMut<'data, T> {
    pub(super) fn new(slice: &'data mut [T], chunk_size: usize) -> Self {
        assert_chunk_size(chunk_size);
        let whole = slice.len() - slice.len() % chunk_size;
        let (slice, rem) = slice.split_at_mut(whole);
        ChunksExactMut {
            chunk_size,
            slice,
            rem,
        }
    }

    /// The elements left over at the end, fewer than `chunk_size`, consuming the
    /// iterator.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_chunks_exact_mut(3).into_remainder()[0] = 0;
    /// assert_eq!(v, [1, 2, 3, 0, 5]);
    /// ```
    pub fn into_remainder(self) -> &'data mut [T] {
        self.rem
    }

    /// The elements left over at the end, borrowed from the iterator.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// let mut chunks = v.par_chunks_exact_mut(3);
    /// assert_eq!(chunks.remainder(), &mut [4, 5]);
    /// ```
    pub fn remainder(&mut self) -> &mut [T] {
        self.rem
    }

    /// Takes the elements left over at the end out of the iterator, which keeps an
    /// empty remainder.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// let mut chunks = v.par_chunks_exact_mut(3);
    /// assert_eq!(chunks.take_remainder(), &mut [4, 5]);
    /// assert!(chunks.remainder().is_empty());
    /// ```
    pub fn take_remainder(&mut self) -> &'data mut [T] {
        std::mem::take(&mut self.rem)
    }
}

chunk_iterator!(Chunks, &'data [T], Sync, ChunksProducer, chunk_count);
chunk_iterator!(ChunksExact, &'data [T], Sync, ChunksProducer, exact_count);
chunk_iterator!(
    ChunksMut,
    &'data mut [T],
    Send,
    ChunksMutProducer,
    chunk_count
);
chunk_iterator!(
    ChunksExactMut,
    &'data mut [T],
    Send,
    ChunksMutProducer,
    exact_count
);

/// Produces the chunks of a slice, front to back; indices count chunks.
struct ChunksProducer<'data, T> {
    chunk_size: usize,
    slice: &'data [T],
}

impl<'data, T: Sync> Producer for ChunksProducer<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::Chunks<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.chunks(self.chunk_size)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let mid = self.slice.len().min(index.saturating_mul(self.chunk_size));
        let (left, right) = self.slice.split_at(mid);
        let piece = |slice| ChunksProducer {
            chunk_size: self.chunk_size,
            slice,
        };
        (piece(left), piece(right))
    }
}

/// Produces the mutable chunks of a slice, front to back; indices count chunks.
struct ChunksMutProducer<'data, T> {
    chunk_size: usize,
    slice: &'data mut [T],
}

impl<'data, T: Send> Producer for ChunksMutProducer<'data, T> {
    type Item = &'data mut [T];
    type IntoIter = std::slice::ChunksMut<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.chunks_mut(self.chunk_size)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let mid = self.slice.len().min(index.saturating_mul(self.chunk_size));
        let (left, right) = self.slice.split_at_mut(mid);
        let chunk_size = self.chunk_size;
        (
            ChunksMutProducer {
                chunk_size,
                slice: left,
            },
            ChunksMutProducer {
                chunk_size,
                slice: right,
            },
        )
    }
}
