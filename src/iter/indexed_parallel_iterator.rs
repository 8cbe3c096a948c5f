//! The `IndexedParallelIterator` trait: iterators that know their length and can be
//! split at any index.

use super::plumbing::{Consumer, ProducerCallback};
use super::*;

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

    // ===== (end of indexed methods) ===============================================

    // ===== Indexed collections (collect_into_vec, unzip_into_vecs) ================
    // These write results in place, by index; they live in `collect/`.
    // Add new methods above the end marker below.

    // ===== (end of indexed collections) ===========================================
}
