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

    // ===== (end of collections) ===================================================
}
