//! Parallel operations on slices: [`ParallelSliceMut`] and its sorts.
//!
//! The sorts live in `sort/`, one file per concept; this module only declares the
//! user-facing trait (Rayon's name and signatures) and delegates to them.

use std::cmp::Ordering;

mod sort;

/// Parallel operations on mutable slices, as in Rayon.
///
/// ```
/// use prorata::prelude::*;
/// let mut v = vec![3, 1, 2];
/// v.par_sort();
/// assert_eq!(v, [1, 2, 3]);
/// ```
pub trait ParallelSliceMut<T: Send> {
    /// Returns a plain mutable slice, used by the provided methods.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 2];
    /// assert_eq!(v.as_parallel_slice_mut().len(), 2);
    /// ```
    fn as_parallel_slice_mut(&mut self) -> &mut [T];

    /// Sorts the slice in parallel; stable (equal elements keep their order).
    ///
    /// A parallel merge sort with a parallel merge; it uses one buffer as long as
    /// the slice.
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
        sort::stable_sort(self.as_parallel_slice_mut(), &T::cmp);
    }

    /// Sorts the slice in parallel with a comparator; stable.
    ///
    /// If `compare` does not implement a total order, the order of the elements
    /// afterwards is unspecified, but every element is still there exactly once. If
    /// `compare` panics, the panic propagates and every element is still there once.
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
        sort::stable_sort(self.as_parallel_slice_mut(), &compare);
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
        sort::stable_sort(self.as_parallel_slice_mut(), &|a: &T, b: &T| {
            f(a).cmp(&f(b))
        });
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
    /// A parallel quicksort whose pivots are medians of a sample; the pieces are
    /// finished by std's `sort_unstable`.
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
        sort::unstable_sort(self.as_parallel_slice_mut(), &T::cmp);
    }

    /// Sorts the slice in parallel with a comparator; unstable, in place.
    ///
    /// An inconsistent or panicking `compare` behaves as for
    /// [`par_sort_by`](Self::par_sort_by): no element is lost or duplicated.
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
            f(a).cmp(&f(b))
        });
    }
}

impl<T: Send> ParallelSliceMut<T> for [T] {
    #[inline]
    fn as_parallel_slice_mut(&mut self) -> &mut [T] {
        self
    }
}
