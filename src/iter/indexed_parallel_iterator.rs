//! The `IndexedParallelIterator` trait: iterators that know their length and can be
//! split at any index.

use super::plumbing::{Consumer, ProducerCallback};
use super::*;
use std::cmp::Ordering;

/// A parallel iterator with a known length whose items can be addressed by index:
/// what `zip`, `enumerate`, `rev`, `collect_into_vec` and friends need.
///
/// ```
/// use prorata::prelude::*;
/// assert_eq!((0..10usize).into_par_iter().len(), 10);
/// ```
// Like Rayon's, the trait has `len` but no `is_empty`.
#[allow(clippy::len_without_is_empty)]
pub trait IndexedParallelIterator: ParallelIterator {
    // ===== Required plumbing =====================================================

    /// The exact number of items.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([1, 2, 3].par_iter().len(), 3);
    /// ```
    fn len(&self) -> usize;

    /// Feeds every item to an indexed `consumer`. Internal plumbing.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..3usize).into_par_iter().len(), 3);
    /// ```
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result;

    /// Hands this iterator's [`Producer`](plumbing::Producer) to `callback`.
    /// Internal plumbing.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..3usize).into_par_iter().len(), 3);
    /// ```
    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output;

    // ===== Indexed methods (zip, enumerate, rev, skip, take, chunks, ...) =========
    // Add new methods above the end marker below.

    /// Pairs each item with its index.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![0usize; 4];
    /// v.par_iter_mut().enumerate().for_each(|(i, x)| *x = i);
    /// assert_eq!(v, [0, 1, 2, 3]);
    /// ```
    fn enumerate(self) -> Enumerate<Self> {
        Enumerate::new(self)
    }

    /// Runs the items in blocks, one after the other, each in parallel: the first
    /// block has one item per thread and each next one is twice as long. A
    /// short-circuiting consumer (such as a search) stops before the later blocks.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let hits = std::sync::atomic::AtomicUsize::new(0);
    /// (0..100usize).into_par_iter().by_exponential_blocks().for_each(|_| {
    ///     hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(hits.into_inner(), 100);
    /// ```
    fn by_exponential_blocks(self) -> ExponentialBlocks<Self> {
        ExponentialBlocks::new(self)
    }

    /// Runs the items in blocks of `block_size`, one block after the other, each in
    /// parallel.
    ///
    /// # Panics
    ///
    /// If `block_size` is zero.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let hits = std::sync::atomic::AtomicUsize::new(0);
    /// (0..100usize).into_par_iter().by_uniform_blocks(8).for_each(|_| {
    ///     hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(hits.into_inner(), 100);
    /// ```
    #[track_caller]
    fn by_uniform_blocks(self, block_size: usize) -> UniformBlocks<Self> {
        assert!(block_size != 0, "block_size must not be zero");
        UniformBlocks::new(self, block_size)
    }

    /// Pairs the items with those of another indexed iterator; as long as the shorter.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let a = [1, 2, 3];
    /// let mut out = [0; 3];
    /// out.par_iter_mut().zip(&a).for_each(|(o, x)| *o = 10 * x);
    /// assert_eq!(out, [10, 20, 30]);
    /// ```
    fn zip<Z>(self, zip_op: Z) -> Zip<Self, Z::Iter>
    where
        Z: IntoParallelIterator<Iter: IndexedParallelIterator>,
    {
        Zip::new(self, zip_op.into_par_iter())
    }

    /// Like [`zip`](Self::zip), but both sides must have the same length.
    ///
    /// # Panics
    ///
    /// If the lengths differ.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let a = [1, 2, 3];
    /// let mut out = [0; 3];
    /// out.par_iter_mut().zip_eq(&a).for_each(|(o, x)| *o = *x);
    /// assert_eq!(out, a);
    /// ```
    #[track_caller]
    fn zip_eq<Z>(self, zip_op: Z) -> ZipEq<Self, Z::Iter>
    where
        Z: IntoParallelIterator<Iter: IndexedParallelIterator>,
    {
        ZipEq::new(self, zip_op.into_par_iter())
    }

    /// Alternates items of `self` and `other`, starting with `self`; when one runs out,
    /// the rest of the other follows.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let it = (0..2usize).into_par_iter().interleave(10..13usize);
    /// assert_eq!(it.position_first(|x| x == 12), Some(4));
    /// ```
    fn interleave<I>(self, other: I) -> Interleave<Self, I::Iter>
    where
        I: IntoParallelIterator<Item = Self::Item, Iter: IndexedParallelIterator>,
    {
        Interleave::new(self, other.into_par_iter())
    }

    /// Alternates items of `self` and `other`, starting with `self`, and stops as soon
    /// as the side whose turn it is has run out.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let it = (0..3usize).into_par_iter().interleave_shortest(10..12usize);
    /// assert_eq!(it.len(), 5);
    /// ```
    fn interleave_shortest<I>(self, other: I) -> InterleaveShortest<Self, I::Iter>
    where
        I: IntoParallelIterator<Item = Self::Item, Iter: IndexedParallelIterator>,
    {
        InterleaveShortest::new(self, other.into_par_iter())
    }

    /// Groups the items into vectors of `chunk_size` (the last may be shorter).
    ///
    /// # Panics
    ///
    /// If `chunk_size` is zero.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let sums = std::sync::Mutex::new(vec![]);
    /// (1..=5u8).into_par_iter().chunks(2).for_each(|c| sums.lock().unwrap().push(c));
    /// let mut sums = sums.into_inner().unwrap();
    /// sums.sort();
    /// assert_eq!(sums, [vec![1, 2], vec![3, 4], vec![5]]);
    /// ```
    #[track_caller]
    fn chunks(self, chunk_size: usize) -> Chunks<Self> {
        assert!(chunk_size != 0, "chunk_size must not be zero");
        Chunks::new(self, chunk_size)
    }

    /// Folds each run of `chunk_size` items (the last may be shorter), starting each
    /// from `identity()`.
    ///
    /// # Panics
    ///
    /// If `chunk_size` is zero.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let it = (1..6u32).into_par_iter().fold_chunks(2, || 0, |a, x| a + x);
    /// assert_eq!(it.position_first(|s| s == 7), Some(1));
    /// ```
    #[track_caller]
    fn fold_chunks<T, ID, F>(
        self,
        chunk_size: usize,
        identity: ID,
        fold_op: F,
    ) -> FoldChunks<Self, ID, F>
    where
        ID: Fn() -> T + Send + Sync,
        F: Fn(T, Self::Item) -> T + Send + Sync,
        T: Send,
    {
        assert!(chunk_size != 0, "chunk_size must not be zero");
        FoldChunks::new(self, chunk_size, identity, fold_op)
    }

    /// Folds each run of `chunk_size` items (the last may be shorter), starting each
    /// from a clone of `init`.
    ///
    /// # Panics
    ///
    /// If `chunk_size` is zero.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let it = (1..6u32).into_par_iter().fold_chunks_with(2, 0, |a, x| a + x);
    /// assert_eq!(it.position_first(|s| s == 5), Some(2));
    /// ```
    #[track_caller]
    fn fold_chunks_with<T, F>(
        self,
        chunk_size: usize,
        init: T,
        fold_op: F,
    ) -> FoldChunksWith<Self, T, F>
    where
        T: Send + Clone,
        F: Fn(T, Self::Item) -> T + Send + Sync,
    {
        assert!(chunk_size != 0, "chunk_size must not be zero");
        FoldChunksWith::new(self, chunk_size, init, fold_op)
    }

    /// Compares lexicographically with another iterator, as [`Iterator::cmp`] does.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use std::cmp::Ordering;
    /// assert_eq!([1, 2, 3].par_iter().cmp(&[1, 2, 4]), Ordering::Less);
    /// assert_eq!([1, 2].par_iter().cmp(&[1, 2, 0]), Ordering::Less);
    /// ```
    fn cmp<I>(self, other: I) -> Ordering
    where
        I: IntoParallelIterator<Item = Self::Item, Iter: IndexedParallelIterator>,
        Self::Item: Ord,
    {
        indexed::compare(self, other.into_par_iter())
    }

    /// Compares lexicographically with another iterator, as [`Iterator::partial_cmp`]
    /// does.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use std::cmp::Ordering;
    /// assert_eq!([1.0, 2.0].par_iter().partial_cmp(&[1.0, 3.0]), Some(Ordering::Less));
    /// assert_eq!([f64::NAN].par_iter().partial_cmp(&[1.0]), None);
    /// ```
    fn partial_cmp<I>(self, other: I) -> Option<Ordering>
    where
        I: IntoParallelIterator<Iter: IndexedParallelIterator>,
        Self::Item: PartialOrd<I::Item>,
    {
        indexed::compare_partial(self, other.into_par_iter())
    }

    /// Whether both iterators have equal items and the same length.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert!([1, 2].par_iter().eq(&[1, 2]));
    /// assert!(![1, 2].par_iter().eq(&[1, 2, 3]));
    /// ```
    fn eq<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator<Iter: IndexedParallelIterator>,
        Self::Item: PartialEq<I::Item>,
    {
        indexed::equal(self, other.into_par_iter())
    }

    /// The negation of [`eq`](Self::eq).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert!([1, 2].par_iter().ne(&[1, 3]));
    /// ```
    fn ne<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator<Iter: IndexedParallelIterator>,
        Self::Item: PartialEq<I::Item>,
    {
        !self.eq(other)
    }

    /// Whether `self` is lexicographically less than `other`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert!([1, 2].par_iter().lt(&[1, 3]));
    /// ```
    fn lt<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator<Iter: IndexedParallelIterator>,
        Self::Item: PartialOrd<I::Item>,
    {
        self.partial_cmp(other) == Some(Ordering::Less)
    }

    /// Whether `self` is lexicographically less than or equal to `other`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert!([1, 2].par_iter().le(&[1, 2]));
    /// ```
    fn le<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator<Iter: IndexedParallelIterator>,
        Self::Item: PartialOrd<I::Item>,
    {
        matches!(
            self.partial_cmp(other),
            Some(Ordering::Less | Ordering::Equal)
        )
    }

    /// Whether `self` is lexicographically greater than `other`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert!([1, 3].par_iter().gt(&[1, 2, 5]));
    /// ```
    fn gt<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator<Iter: IndexedParallelIterator>,
        Self::Item: PartialOrd<I::Item>,
    {
        self.partial_cmp(other) == Some(Ordering::Greater)
    }

    /// Whether `self` is lexicographically greater than or equal to `other`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert!([1, 2].par_iter().ge(&[1]));
    /// ```
    fn ge<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator<Iter: IndexedParallelIterator>,
        Self::Item: PartialOrd<I::Item>,
    {
        matches!(
            self.partial_cmp(other),
            Some(Ordering::Greater | Ordering::Equal)
        )
    }

    /// Every `step`-th item, starting with the first.
    ///
    /// # Panics
    ///
    /// If `step` is zero.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let it = (0..10usize).into_par_iter().step_by(4);
    /// assert_eq!(it.len(), 3);
    /// ```
    #[track_caller]
    fn step_by(self, step: usize) -> StepBy<Self> {
        StepBy::new(self, step)
    }

    /// All but the first `n` items (none if there are fewer). The skipped items still
    /// run through the earlier adaptors.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..10usize).into_par_iter().skip(3).len(), 7);
    /// assert_eq!((0..10usize).into_par_iter().skip(30).len(), 0);
    /// ```
    fn skip(self, n: usize) -> Skip<Self> {
        Skip::new(self, n)
    }

    /// The first `n` items (all if there are fewer).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..10usize).into_par_iter().take(3).len(), 3);
    /// ```
    fn take(self, n: usize) -> Take<Self> {
        Take::new(self, n)
    }

    /// The index of some item that satisfies `predicate`, not necessarily the first;
    /// the search stops as soon as one is found.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let i = [1, 7, 3, 7].par_iter().position_any(|&x| x == 7);
    /// assert!(i == Some(1) || i == Some(3));
    /// ```
    fn position_any<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        let check = |item| predicate(item).then_some(());
        Some(indexed::find_index(self, indexed::Side::Any, &check)?.0)
    }

    /// The index of the first item that satisfies `predicate`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([1, 7, 3, 7].par_iter().position_first(|&x| x == 7), Some(1));
    /// ```
    fn position_first<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        let check = |item| predicate(item).then_some(());
        Some(indexed::find_index(self, indexed::Side::First, &check)?.0)
    }

    /// The index of the last item that satisfies `predicate`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([1, 7, 3, 7].par_iter().position_last(|&x| x == 7), Some(3));
    /// ```
    fn position_last<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        let check = |item| predicate(item).then_some(());
        Some(indexed::find_index(self, indexed::Side::Last, &check)?.0)
    }

    /// Deprecated: the parallel `position` does not search in order; use
    /// [`position_any`](Self::position_any), [`position_first`](Self::position_first)
    /// or [`position_last`](Self::position_last).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// #[allow(deprecated)]
    /// let i = [1, 2].par_iter().position(|&x| x == 2);
    /// assert_eq!(i, Some(1));
    /// ```
    #[doc(hidden)]
    #[deprecated(
        note = "parallel `position` does not search in order -- use `position_any`, \
                `position_first`, or `position_last`"
    )]
    fn position<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.position_any(predicate)
    }

    /// The indices of the items that satisfy `predicate`, in order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let hits = std::sync::Mutex::new(vec![]);
    /// [1, 7, 3, 7].par_iter().positions(|&x| x == 7).for_each(|i| hits.lock().unwrap().push(i));
    /// let mut hits = hits.into_inner().unwrap();
    /// hits.sort();
    /// assert_eq!(hits, [1, 3]);
    /// ```
    fn positions<P>(self, predicate: P) -> Positions<Self, P>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        Positions::new(self, predicate)
    }

    /// The items in reverse order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([1, 2, 3].par_iter().rev().position_first(|&x| x == 1), Some(2));
    /// ```
    fn rev(self) -> Rev<Self> {
        Rev::new(self)
    }

    /// Never splits the work into pieces shorter than `min` items (except when the
    /// whole is shorter): fewer, larger pieces for cheap items.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let it = (0..100usize).into_par_iter().with_min_len(10);
    /// assert_eq!(it.len(), 100);
    /// ```
    fn with_min_len(self, min: usize) -> MinLen<Self> {
        MinLen::new(self, min)
    }

    /// Splits the work into pieces of at most `max` items (unless `with_min_len`
    /// asks for more): more, smaller pieces for expensive items.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let it = (0..100usize).into_par_iter().with_max_len(10);
    /// assert_eq!(it.len(), 100);
    /// ```
    fn with_max_len(self, max: usize) -> MaxLen<Self> {
        MaxLen::new(self, max)
    }

    /// Splits the work at points that depend only on the length, not on the pool or
    /// on which thread steals what, so that reductions are reproducible:
    /// `v.par_iter().deterministic().sum::<f64>()` returns the same bits on a pool of
    /// any size, in every run. (Without it, the grouping of a float sum follows the
    /// splitting, which adapts to idle workers.)
    ///
    /// The tree: a piece of `len` items is cut at `len / 2` while `len / 2` is at least
    /// the leaf length (`ceil(n / 64)` for `n` items, at most 4096; see
    /// [`Deterministic::with_leaf_len`]); each leaf is folded from its first item to
    /// its last, and the results of two halves are reduced left with right.
    ///
    /// It covers the consumers and adaptors that preserve order (`sum`, `product`,
    /// `reduce`, `fold`, `map`, `filter`, `zip`, `collect`, ...). Parallel iterators
    /// nested inside items (`flat_map`) split on their own: make them
    /// `deterministic()` too. Searches that stop early (`find_any`, `try_reduce` with
    /// a failure) still return whichever match they find first.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let v: Vec<f64> = (0..100_000).map(|i| (i as f64).sin() * 1e10f64.powi(i % 3)).collect();
    /// let sum = |threads| {
    ///     let pool = prorata::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    ///     pool.install(|| v.par_iter().deterministic().sum::<f64>())
    /// };
    /// assert_eq!(sum(1).to_bits(), sum(3).to_bits());
    /// ```
    fn deterministic(self) -> Deterministic<Self> {
        Deterministic::new(self)
    }

    // ===== (end of indexed methods) ===============================================

    // ===== Indexed collections (collect_into_vec, unzip_into_vecs) ================
    // These write results in place, by index; they live in `collect/`.
    // Add new methods above the end marker below.

    /// Collects the items, in order, into `target`, replacing its contents. The
    /// items are written in place into `target`'s buffer, which is reused when it is
    /// large enough.
    ///
    /// # Panics
    ///
    /// If the iterator yields a different number of items than its `len()` says (a
    /// bug in a hand-written iterator); the items already written are dropped.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut squares = vec![42];
    /// (0..4usize).into_par_iter().map(|x| x * x).collect_into_vec(&mut squares);
    /// assert_eq!(squares, [0, 1, 4, 9]);
    /// ```
    fn collect_into_vec(self, target: &mut Vec<Self::Item>) {
        collect::collect_into_vec(self, target)
    }

    /// Splits an iterator of pairs into `left` and `right`, in order, replacing their
    /// contents; both halves are written in place, in a single pass.
    ///
    /// # Panics
    ///
    /// As [`collect_into_vec`](Self::collect_into_vec).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let (mut xs, mut negs) = (vec![], vec![7]);
    /// (0..3i32).collect::<Vec<_>>()
    ///     .par_iter()
    ///     .map(|&x| (x, -x))
    ///     .unzip_into_vecs(&mut xs, &mut negs);
    /// assert_eq!((xs, negs), (vec![0, 1, 2], vec![0, -1, -2]));
    /// ```
    fn unzip_into_vecs<A, B>(self, left: &mut Vec<A>, right: &mut Vec<B>)
    where
        Self: IndexedParallelIterator<Item = (A, B)>,
        A: Send,
        B: Send,
    {
        collect::unzip_into_vecs(self, left, right)
    }

    // ===== (end of indexed collections) ===========================================
}
