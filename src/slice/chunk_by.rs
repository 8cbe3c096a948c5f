//! `par_chunk_by` and `par_chunk_by_mut`: runs of related neighbours, unindexed, cut
//! at a run boundary near the middle of each piece.

use super::cut::{CutProducer, Cutter};
use crate::iter::plumbing::*;
use crate::iter::*;
use std::fmt;
use std::ops::Range;

/// Cuts between two neighbours the predicate does not relate:
/// `chunk_by(a ++ b) == chunk_by(a) ++ chunk_by(b)` at such a point.
pub(super) struct Boundary<'p, P>(pub(super) &'p P);

impl<P> Boundary<'_, P> {
    fn is_boundary<T>(&self, slice: &[T], index: usize) -> bool
    where
        P: Fn(&T, &T) -> bool,
    {
        !(self.0)(&slice[index - 1], &slice[index])
    }
}

impl<'data, T: Sync, P: Fn(&T, &T) -> bool + Sync> Cutter<&'data [T]> for Boundary<'_, P> {
    type Item = &'data [T];
    fn candidates(len: usize) -> Range<usize> {
        1..len.max(1)
    }
    fn is_cut(&self, slice: &[T], index: usize) -> bool {
        self.is_boundary(slice, index)
    }
    fn cut(slice: &'data [T], index: usize) -> (&'data [T], &'data [T]) {
        slice.split_at(index)
    }
    fn fold<F: Folder<Self::Item>>(&self, slice: &'data [T], folder: F) -> F {
        folder.consume_iter(slice.chunk_by(self.0))
    }
    fn fold_uncut<F: Folder<Self::Item>>(slice: &'data [T], folder: F) -> F {
        // One run, if any.
        folder.consume_iter(Some(slice).filter(|s| !s.is_empty()))
    }
}

impl<'data, T: Send, P: Fn(&T, &T) -> bool + Sync> Cutter<&'data mut [T]> for Boundary<'_, P> {
    type Item = &'data mut [T];
    fn candidates(len: usize) -> Range<usize> {
        1..len.max(1)
    }
    fn is_cut(&self, slice: &[T], index: usize) -> bool {
        self.is_boundary(slice, index)
    }
    fn cut(slice: &'data mut [T], index: usize) -> (&'data mut [T], &'data mut [T]) {
        slice.split_at_mut(index)
    }
    fn fold<F: Folder<Self::Item>>(&self, slice: &'data mut [T], folder: F) -> F {
        folder.consume_iter(slice.chunk_by_mut(self.0))
    }
    fn fold_uncut<F: Folder<Self::Item>>(slice: &'data mut [T], folder: F) -> F {
        folder.consume_iter(Some(slice).filter(|s| !s.is_empty()))
    }
}

/// Parallel iterator over runs of related neighbours, made by
/// [`par_chunk_by`](super::ParallelSlice::par_chunk_by).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::slice::ChunkBy<'_, i32, _> = [1, 1, 2].par_chunk_by(|a, b| a == b);
/// it.for_each(|run| assert!(run[0] == 2 || run == [1, 1]));
/// ```
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct ChunkBy<'data, T, P> {
    slice: &'data [T],
    pred: P,
}

impl<'data, T, P> ChunkBy<'data, T, P> {
    pub(super) fn new(slice: &'data [T], pred: P) -> Self {
        ChunkBy { slice, pred }
    }
}

impl<T, P: Clone> Clone for ChunkBy<'_, T, P> {
    fn clone(&self) -> Self {
        ChunkBy::new(self.slice, self.pred.clone())
    }
}

impl<T: fmt::Debug, P> fmt::Debug for ChunkBy<'_, T, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunkBy")
            .field("slice", &self.slice)
            .finish_non_exhaustive()
    }
}

impl<'data, T, P> ParallelIterator for ChunkBy<'data, T, P>
where
    T: Sync,
    P: Fn(&T, &T) -> bool + Send + Sync,
{
    type Item = &'data [T];

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        let cutter = Boundary(&self.pred);
        bridge_unindexed(CutProducer::new(self.slice, &cutter), consumer)
    }
}

/// Parallel iterator over mutable runs of related neighbours, made by
/// [`par_chunk_by_mut`](super::ParallelSliceMut::par_chunk_by_mut).
///
/// ```
/// use prorata::prelude::*;
/// let mut v = [1, 1, 2];
/// let it: prorata::slice::ChunkByMut<'_, i32, _> = v.par_chunk_by_mut(|a, b| a == b);
/// it.for_each(|run| run[0] = 0);
/// assert_eq!(v, [0, 1, 0]);
/// ```
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct ChunkByMut<'data, T, P> {
    slice: &'data mut [T],
    pred: P,
}

impl<'data, T, P> ChunkByMut<'data, T, P> {
    pub(super) fn new(slice: &'data mut [T], pred: P) -> Self {
        ChunkByMut { slice, pred }
    }
}

impl<T: fmt::Debug, P> fmt::Debug for ChunkByMut<'_, T, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunkByMut")
            .field("slice", &self.slice)
            .finish_non_exhaustive()
    }
}

impl<'data, T, P> ParallelIterator for ChunkByMut<'data, T, P>
where
    T: Send,
    P: Fn(&T, &T) -> bool + Send + Sync,
{
    type Item = &'data mut [T];

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        let cutter = Boundary(&self.pred);
        bridge_unindexed(CutProducer::new(self.slice, &cutter), consumer)
    }
}
