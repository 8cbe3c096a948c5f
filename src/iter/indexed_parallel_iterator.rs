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
