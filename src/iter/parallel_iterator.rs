//! The `ParallelIterator` trait: every parallel iterator's methods.

use super::plumbing::UnindexedConsumer;
use super::*;

/// A parallel iterator: the parallel version of [`Iterator`].
///
/// Adaptors (`map`, `filter`, ...) build a new iterator; consumers (`for_each`, `sum`,
/// `collect`, ...) run it on the current pool and return when every item is done.
///
/// ```
/// use prorata::prelude::*;
/// let hits = std::sync::atomic::AtomicUsize::new(0);
/// (0..1000usize).into_par_iter().for_each(|_| {
///     hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
/// });
/// assert_eq!(hits.into_inner(), 1000);
/// ```
pub trait ParallelIterator: Sized + Send {
    /// The items.
    type Item: Send;

    // ===== Required plumbing =====================================================

    /// Feeds every item to `consumer`, splitting as the driver sees fit. Internal
    /// plumbing: call consumers such as `for_each` or `collect` instead.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..3usize).into_par_iter().opt_len(), Some(3));
    /// ```
    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>;

    /// The exact number of items, if known without running the iterator.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..5usize).into_par_iter().opt_len(), Some(5));
    /// ```
    fn opt_len(&self) -> Option<usize> {
        None
    }

    // ===== Consumers (for_each, reduce, fold, sum, min, find, any, ...) ==========
    // Each consumer is a struct in `consumers/`, one file per concept, and a method
    // here that drives it. Add new consumer methods above the end marker below.

    /// Calls `op` on every item, in parallel.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![0u8; 4];
    /// v.par_iter_mut().for_each(|x| *x = 7);
    /// assert_eq!(v, [7; 4]);
    /// ```
    fn for_each<OP>(self, op: OP)
    where
        OP: Fn(Self::Item) + Sync + Send,
    {
        consumers::for_each::for_each(self, &op)
    }

    // ===== (end of consumers) =====================================================

    // ===== Adaptors (map, filter, flat_map, chain, ...) ===========================
    // Each adaptor is a struct in `adaptors/` with its producer and consumer wrappers.
    // Add new adaptor methods above the end marker below.

    /// Applies `map_op` to every item.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut out = vec![0; 3];
    /// out.par_iter_mut().enumerate().map(|(i, x)| (i, x)).for_each(|(i, x)| *x = i * i);
    /// assert_eq!(out, [0, 1, 4]);
    /// ```
    fn map<F, R>(self, map_op: F) -> Map<Self, F>
    where
        F: Fn(Self::Item) -> R + Sync + Send,
        R: Send,
    {
        Map::new(self, map_op)
    }

    // ===== (end of adaptors) ======================================================

    // ===== Building collections (collect, unzip, partition, ...) ==================
    // Consumers that build collections live in `collect/`.
    // Add new collection methods above the end marker below.

    /// Builds a collection from the items, in order where the collection has one
    /// (`Vec`, `String`, ...). Iterators of known length are written into a `Vec` in
    /// place, without intermediate buffers.
    ///
    /// Collecting into `Option<C>` or `Result<C, E>` stops early at a `None` or an
    /// error. Collecting into a pair of collections unzips pairs (or partitions
    /// `Either`s) in a single pass.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let doubled: Vec<usize> = (0..5usize).into_par_iter().map(|x| 2 * x).collect();
    /// assert_eq!(doubled, [0, 2, 4, 6, 8]);
    /// let halves: Option<Vec<usize>> = doubled
    ///     .par_iter()
    ///     .map(|&x| (x % 2 == 0).then_some(x / 2))
    ///     .collect();
    /// assert_eq!(halves, Some(vec![0, 1, 2, 3, 4]));
    /// ```
    fn collect<C>(self) -> C
    where
        C: FromParallelIterator<Self::Item>,
    {
        C::from_par_iter(self)
    }

    /// Splits an iterator of pairs into two collections, in a single pass: the first
    /// items into `FromA`, the second ones into `FromB`, each in order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let (xs, squares): (Vec<usize>, Vec<usize>) =
    ///     (0..4usize).into_par_iter().map(|x| (x, x * x)).unzip();
    /// assert_eq!(xs, [0, 1, 2, 3]);
    /// assert_eq!(squares, [0, 1, 4, 9]);
    /// ```
    fn unzip<A, B, FromA, FromB>(self) -> (FromA, FromB)
    where
        Self: ParallelIterator<Item = (A, B)>,
        FromA: Default + Send + ParallelExtend<A>,
        FromB: Default + Send + ParallelExtend<B>,
        A: Send,
        B: Send,
    {
        collect::unzip(self)
    }

    /// Splits the items into two collections, in a single pass: those for which
    /// `predicate` is true into `A`, the others into `B`, each in order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let (even, odd): (Vec<usize>, Vec<usize>) =
    ///     (0..7usize).into_par_iter().partition(|x| x % 2 == 0);
    /// assert_eq!(even, [0, 2, 4, 6]);
    /// assert_eq!(odd, [1, 3, 5]);
    /// ```
    fn partition<A, B, P>(self, predicate: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<Self::Item>,
        B: Default + Send + ParallelExtend<Self::Item>,
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        collect::partition(self, predicate)
    }

    /// Maps every item to an [`Either`](either::Either) and splits the results into
    /// two collections, in a single pass: the `Left` values into `A`, the `Right`
    /// values into `B`, each in order.
    ///
    /// ```
    /// use either::Either;
    /// use prorata::prelude::*;
    /// let (numbers, words): (Vec<u32>, Vec<&str>) = ["1", "a", "22", "b"][..]
    ///     .par_iter()
    ///     .partition_map(|s| match s.parse::<u32>() {
    ///         Ok(n) => Either::Left(n),
    ///         Err(_) => Either::Right(*s),
    ///     });
    /// assert_eq!(numbers, [1, 22]);
    /// assert_eq!(words, ["a", "b"]);
    /// ```
    fn partition_map<A, B, P, L, R>(self, predicate: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<L>,
        B: Default + Send + ParallelExtend<R>,
        P: Fn(Self::Item) -> either::Either<L, R> + Sync + Send,
        L: Send,
        R: Send,
    {
        collect::partition_map(self, predicate)
    }

    /// Collects the items, in order, as a list of vectors: each piece of the split
    /// iterator keeps its own vector, so no item is moved twice. Useful to build
    /// collections that can absorb such pieces cheaply. Empty pieces are left out.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let list = (0..1000usize).into_par_iter().map(|x| x + 1).collect_vec_list();
    /// let flat: Vec<usize> = list.into_iter().flatten().collect();
    /// assert_eq!(flat, (1..=1000).collect::<Vec<_>>());
    /// ```
    fn collect_vec_list(self) -> std::collections::LinkedList<Vec<Self::Item>> {
        collect::vec_list::collect_vec_list(self)
    }

    // ===== (end of collections) ===================================================
}
