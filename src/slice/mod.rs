//! Parallel iterators over slices: `par_iter`, chunks, windows, splits and groups.
//!
//! [`ParallelSlice`] (for `&[T]`) and [`ParallelSliceMut`] (for `&mut [T]`) carry the
//! methods, with Rayon's names and semantics: each yields the same items, in the same
//! order, as the sequential method of `[T]` with the same name minus `par_`.
//! Chunk and window iterators are indexed (they can be split at any index); splits and
//! groups are not (a piece ends where a separator is found).
//!
//! ```
//! use prorata::prelude::*;
//! let v = [1, 2, 3, 4, 5];
//! let total = std::sync::atomic::AtomicI32::new(0);
//! v.par_chunks(2).for_each(|c| {
//!     total.fetch_add(c.iter().sum::<i32>(), std::sync::atomic::Ordering::Relaxed);
//! });
//! assert_eq!(total.into_inner(), 15);
//! ```

use std::cmp::Ordering;

mod chunk_by;
mod chunks;
mod cut;
mod rchunks;
mod sort;
mod split;
mod windows;

pub use crate::iter::sources::slice::{Iter, IterMut};
pub use chunk_by::{ChunkBy, ChunkByMut};
pub use chunks::{Chunks, ChunksExact, ChunksExactMut, ChunksMut};
pub use rchunks::{RChunks, RChunksExact, RChunksExactMut, RChunksMut};
pub use split::{Split, SplitInclusive, SplitInclusiveMut, SplitMut};
pub use windows::{ArrayWindows, Windows};

#[cfg(test)]
pub(crate) use cut::tests::split_fully;

/// Panics with Rayon's message when a chunk size is zero.
fn assert_chunk_size(chunk_size: usize) {
    assert!(chunk_size != 0, "chunk_size must not be zero");
}

/// Parallel methods of shared slices, as in Rayon.
///
/// ```
/// use prorata::prelude::*;
/// let v = vec![1, 2, 3];
/// assert_eq!(v.par_windows(2).len(), 2);
/// ```
pub trait ParallelSlice<T: Sync> {
    /// Returns the plain slice the other methods work on.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let v = vec![1, 2];
    /// assert_eq!(v.as_parallel_slice(), &[1, 2]);
    /// ```
    fn as_parallel_slice(&self) -> &[T];

    /// Subslices separated by the elements for which `separator` is true (the
    /// separators are left out), like [`slice::split`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let max = std::sync::atomic::AtomicUsize::new(0);
    /// [1, 0, 2, 3, 0, 4].par_split(|x| *x == 0).for_each(|piece| {
    ///     max.fetch_max(piece.len(), std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(max.into_inner(), 2);
    /// ```
    fn par_split<P>(&self, separator: P) -> Split<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        Split::new(self.as_parallel_slice(), separator)
    }

    /// Subslices each ending with an element for which `separator` is true (kept in
    /// the subslice), like [`slice::split_inclusive`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let count = std::sync::atomic::AtomicUsize::new(0);
    /// [1, 0, 2, 3, 0].par_split_inclusive(|x| *x == 0).for_each(|piece| {
    ///     assert_eq!(piece.last(), Some(&0));
    ///     count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(count.into_inner(), 2);
    /// ```
    fn par_split_inclusive<P>(&self, separator: P) -> SplitInclusive<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SplitInclusive::new(self.as_parallel_slice(), separator)
    }

    /// Every contiguous window of `window_size` elements; the windows overlap, like
    /// [`slice::windows`].
    ///
    /// # Panics
    /// If `window_size` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([1, 2, 3, 4].par_windows(3).len(), 2);
    /// ```
    fn par_windows(&self, window_size: usize) -> Windows<'_, T> {
        Windows::new(self.as_parallel_slice(), window_size)
    }

    /// Every contiguous window of `N` elements, as arrays; like
    /// [`par_windows`](Self::par_windows) with a constant size.
    ///
    /// # Panics
    /// If `N` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let sum = std::sync::atomic::AtomicI32::new(0);
    /// [1, 2, 3].par_array_windows().for_each(|&[a, b]| {
    ///     sum.fetch_add(a * b, std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(sum.into_inner(), 2 + 6);
    /// ```
    fn par_array_windows<const N: usize>(&self) -> ArrayWindows<'_, T, N> {
        ArrayWindows::new(self.as_parallel_slice())
    }

    /// Non-overlapping chunks of `chunk_size` elements; the last may be shorter,
    /// like [`slice::chunks`].
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([1, 2, 3, 4, 5].par_chunks(2).len(), 3);
    /// ```
    fn par_chunks(&self, chunk_size: usize) -> Chunks<'_, T> {
        Chunks::new(self.as_parallel_slice(), chunk_size)
    }

    /// Non-overlapping chunks of exactly `chunk_size` elements; the left-over tail is
    /// available from [`ChunksExact::remainder`], like [`slice::chunks_exact`].
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let chunks = [1, 2, 3, 4, 5].par_chunks_exact(2);
    /// assert_eq!(chunks.len(), 2);
    /// assert_eq!(chunks.remainder(), &[5]);
    /// ```
    fn par_chunks_exact(&self, chunk_size: usize) -> ChunksExact<'_, T> {
        ChunksExact::new(self.as_parallel_slice(), chunk_size)
    }

    /// Non-overlapping chunks of `chunk_size` elements starting from the end; the
    /// last may be shorter, like [`slice::rchunks`].
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([1, 2, 3, 4, 5].par_rchunks(2).len(), 3);
    /// ```
    fn par_rchunks(&self, chunk_size: usize) -> RChunks<'_, T> {
        RChunks::new(self.as_parallel_slice(), chunk_size)
    }

    /// Non-overlapping chunks of exactly `chunk_size` elements starting from the end;
    /// the left-over head is available from [`RChunksExact::remainder`], like
    /// [`slice::rchunks_exact`].
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let chunks = [1, 2, 3, 4, 5].par_rchunks_exact(2);
    /// assert_eq!(chunks.len(), 2);
    /// assert_eq!(chunks.remainder(), &[1]);
    /// ```
    fn par_rchunks_exact(&self, chunk_size: usize) -> RChunksExact<'_, T> {
        RChunksExact::new(self.as_parallel_slice(), chunk_size)
    }

    /// Runs of elements where `pred` holds for each neighbouring pair, like
    /// [`slice::chunk_by`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let runs = std::sync::atomic::AtomicUsize::new(0);
    /// [1, 1, 2, 3, 3, 3].par_chunk_by(|a, b| a == b).for_each(|_| {
    ///     runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(runs.into_inner(), 3);
    /// ```
    fn par_chunk_by<F>(&self, pred: F) -> ChunkBy<'_, T, F>
    where
        F: Fn(&T, &T) -> bool + Send + Sync,
    {
        ChunkBy::new(self.as_parallel_slice(), pred)
    }
}

impl<T: Sync> ParallelSlice<T> for [T] {
    fn as_parallel_slice(&self) -> &[T] {
        self
    }
}

/// Parallel methods of mutable slices, as in Rayon.
///
/// ```
/// use prorata::prelude::*;
/// let mut v = vec![0; 6];
/// v.par_chunks_mut(2).enumerate().for_each(|(i, c)| c.fill(i));
/// assert_eq!(v, [0, 0, 1, 1, 2, 2]);
/// ```
pub trait ParallelSliceMut<T: Send> {
    /// Returns the plain mutable slice the other methods work on.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2];
    /// v.as_parallel_slice_mut()[0] = 5;
    /// assert_eq!(v, [5, 2]);
    /// ```
    fn as_parallel_slice_mut(&mut self) -> &mut [T];

    /// Mutable subslices separated by the elements for which `separator` is true
    /// (the separators are left out), like [`slice::split_mut`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [3, 1, 0, 5, 4];
    /// v.par_split_mut(|x| *x == 0).for_each(|piece| piece.sort());
    /// assert_eq!(v, [1, 3, 0, 4, 5]);
    /// ```
    fn par_split_mut<P>(&mut self, separator: P) -> SplitMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SplitMut::new(self.as_parallel_slice_mut(), separator)
    }

    /// Mutable subslices each ending with an element for which `separator` is true
    /// (kept in the subslice), like [`slice::split_inclusive_mut`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [3, 1, 0, 5, 4];
    /// v.par_split_inclusive_mut(|x| *x == 0).for_each(|piece| piece.sort());
    /// assert_eq!(v, [0, 1, 3, 4, 5]);
    /// ```
    fn par_split_inclusive_mut<P>(&mut self, separator: P) -> SplitInclusiveMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SplitInclusiveMut::new(self.as_parallel_slice_mut(), separator)
    }

    /// Non-overlapping mutable chunks of `chunk_size` elements; the last may be
    /// shorter, like [`slice::chunks_mut`].
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_chunks_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [2, 1, 4, 3, 5]);
    /// ```
    fn par_chunks_mut(&mut self, chunk_size: usize) -> ChunksMut<'_, T> {
        ChunksMut::new(self.as_parallel_slice_mut(), chunk_size)
    }

    /// Non-overlapping mutable chunks of exactly `chunk_size` elements; the tail is
    /// available from [`ChunksExactMut::into_remainder`], like
    /// [`slice::chunks_exact_mut`].
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_chunks_exact_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [2, 1, 4, 3, 5]);
    /// ```
    fn par_chunks_exact_mut(&mut self, chunk_size: usize) -> ChunksExactMut<'_, T> {
        ChunksExactMut::new(self.as_parallel_slice_mut(), chunk_size)
    }

    /// Non-overlapping mutable chunks of `chunk_size` elements starting from the end;
    /// the last may be shorter, like [`slice::rchunks_mut`].
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_rchunks_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [1, 3, 2, 5, 4]);
    /// ```
    fn par_rchunks_mut(&mut self, chunk_size: usize) -> RChunksMut<'_, T> {
        RChunksMut::new(self.as_parallel_slice_mut(), chunk_size)
    }

    /// Non-overlapping mutable chunks of exactly `chunk_size` elements starting from
    /// the end; the head is available from [`RChunksExactMut::into_remainder`], like
    /// [`slice::rchunks_exact_mut`].
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_rchunks_exact_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [1, 3, 2, 5, 4]);
    /// ```
    fn par_rchunks_exact_mut(&mut self, chunk_size: usize) -> RChunksExactMut<'_, T> {
        RChunksExactMut::new(self.as_parallel_slice_mut(), chunk_size)
    }

    /// Mutable runs of elements where `pred` holds for each neighbouring pair, like
    /// [`slice::chunk_by_mut`].
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 1, 2, 3, 3];
    /// v.par_chunk_by_mut(|a, b| a == b).for_each(|run| {
    ///     let n = run.len();
    ///     run.fill(n);
    /// });
    /// assert_eq!(v, [2, 2, 1, 2, 2]);
    /// ```
    fn par_chunk_by_mut<F>(&mut self, pred: F) -> ChunkByMut<'_, T, F>
    where
        F: Fn(&T, &T) -> bool + Send + Sync,
    {
        ChunkByMut::new(self.as_parallel_slice_mut(), pred)
    }

    /// Sorts the slice in parallel; stable (equal elements keep their order).
    ///
    /// A parallel merge sort with a parallel merge; it uses one buffer as long as
    /// the slice. Sorted on one thread (short slices, a pool of one thread), a
    /// slice whose buffer would be 32 MiB or more takes one of half its length
    /// when that is less, as std's stable sort does. Natural runs are taken
    /// whole, so a slice of a few sorted runs costs about a merge per level of
    /// runs.
    ///
    /// Where it runs: a slice already sorted or strictly descending (reversed
    /// in place), shorter than 4,096 elements (65,536 when a sample shows few
    /// distinct values), or sorted on a pool of one thread, is sorted on the
    /// calling thread without entering a pool, as std's sort is, so the
    /// comparator runs on the caller's thread, inside a pool or not (Rayon's
    /// sorts do so for slices of up to 2,000 elements). A sorted or strictly
    /// descending slice costs `len - 1` comparisons, as with std's; a sorted one
    /// of 2^18 elements or more is checked on all of the pool's threads once
    /// its first 4,096 were found in order on the calling thread. See
    /// [`par_sort_by`](Self::par_sort_by) for what a comparator may do.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![5, -1, 3, 0];
    /// v.par_sort();
    /// assert_eq!(v, [-1, 0, 3, 5]);
    /// ```
    fn par_sort(&mut self)
    where
        T: Ord,
    {
        // `lt`, as std's and Rayon's sorts ask. A closure, not a function
        // item: through a reference to one, a sort of `u64`s was measured 10%
        // slower.
        sort::stable_sort(
            self.as_parallel_slice_mut(),
            &|a: &T, b: &T| sort::less_or_not(a.lt(b)),
            true,
        );
    }

    /// Sorts the slice in parallel with a comparator; stable.
    ///
    /// If `compare` does not implement a total order, the order of the elements
    /// afterwards is unspecified, but every element is still there exactly once. If
    /// `compare` panics, the panic propagates and every element is still there once.
    /// Zero-sized elements are left as they are, without a call of `compare`, as
    /// std's and Rayon's sorts leave them.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![1, 4, 2];
    /// v.par_sort_by(|a, b| b.cmp(a));
    /// assert_eq!(v, [4, 2, 1]);
    /// ```
    fn par_sort_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync,
    {
        sort::stable_sort(self.as_parallel_slice_mut(), &compare, false);
    }

    /// Sorts the slice in parallel by a key; stable. The key is computed on every
    /// comparison (see [`par_sort_by_cached_key`](Self::par_sort_by_cached_key)).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![-3i32, 1, -2];
    /// v.par_sort_by_key(|x| x.abs());
    /// assert_eq!(v, [1, -2, -3]);
    /// ```
    fn par_sort_by_key<K, F>(&mut self, f: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync,
    {
        sort::stable_sort(
            self.as_parallel_slice_mut(),
            &|a: &T, b: &T| sort::less_or_not(f(a).lt(&f(b))),
            false,
        );
    }

    /// Sorts the slice in parallel by a key computed once per element (in
    /// parallel); stable.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec!["ccc", "a", "bb"];
    /// v.par_sort_by_cached_key(|s| s.len());
    /// assert_eq!(v, ["a", "bb", "ccc"]);
    /// ```
    fn par_sort_by_cached_key<K, F>(&mut self, f: F)
    where
        K: Ord + Send,
        F: Fn(&T) -> K + Sync,
    {
        sort::cached_key_sort(self.as_parallel_slice_mut(), &f);
    }

    /// Sorts the slice in parallel; unstable (equal elements may be reordered),
    /// in place.
    ///
    /// A parallel quicksort whose pivots are medians of a sample, with pieces
    /// finished by a sequential introsort of its own (sorting networks for the
    /// shortest); a nearly sorted input is sorted in about one pass, and nothing
    /// is allocated. Since nothing is allocated, a slice of a few sorted runs is
    /// not merged but sorted by the quicksort, in about the time of a random
    /// one, as by std's unstable sort.
    ///
    /// Where it runs: as for [`par_sort`](Self::par_sort), a slice already
    /// sorted or strictly descending, shorter than 4,096 elements (16,384 when
    /// a sample shows few distinct values), or sorted on a pool of one thread,
    /// is sorted on the calling thread without entering a pool, and a sorted or
    /// strictly descending one costs `len - 1` comparisons (a sorted one of
    /// 2^21 elements or more is checked on all threads past its first 4,096).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![3, 3, 1];
    /// v.par_sort_unstable();
    /// assert_eq!(v, [1, 3, 3]);
    /// ```
    fn par_sort_unstable(&mut self)
    where
        T: Ord,
    {
        // A closure, not `&T::cmp`: through a reference to the function item,
        // a sort of `u64`s was measured 10% slower.
        sort::unstable_sort(self.as_parallel_slice_mut(), &|a: &T, b: &T| {
            sort::less_or_not(a.lt(b))
        });
    }

    /// Sorts the slice in parallel with a comparator; unstable, in place.
    ///
    /// An inconsistent or panicking `compare` behaves as for
    /// [`par_sort_by`](Self::par_sort_by): no element is lost or duplicated.
    /// Zero-sized elements are left as they are, without a call of `compare`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![1.5, -0.5, 0.25];
    /// v.par_sort_unstable_by(|a: &f64, b| a.total_cmp(b));
    /// assert_eq!(v, [-0.5, 0.25, 1.5]);
    /// ```
    fn par_sort_unstable_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync,
    {
        sort::unstable_sort(self.as_parallel_slice_mut(), &compare);
    }

    /// Sorts the slice in parallel by a key; unstable, in place.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![(2, 'b'), (1, 'a')];
    /// v.par_sort_unstable_by_key(|p| p.0);
    /// assert_eq!(v, [(1, 'a'), (2, 'b')]);
    /// ```
    fn par_sort_unstable_by_key<K, F>(&mut self, f: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync,
    {
        sort::unstable_sort(self.as_parallel_slice_mut(), &|a: &T, b: &T| {
            sort::less_or_not(f(a).lt(&f(b)))
        });
    }
}

impl<T: Send> ParallelSliceMut<T> for [T] {
    fn as_parallel_slice_mut(&mut self) -> &mut [T] {
        self
    }
}
