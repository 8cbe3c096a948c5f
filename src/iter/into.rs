//! Conversions into parallel iterators: owned, by reference, by mutable reference.

use super::ParallelIterator;

/// Converts a value into a parallel iterator (the parallel `IntoIterator`).
///
/// ```
/// use prorata::prelude::*;
/// let n = (0..10usize).into_par_iter().map(|x| x).opt_len();
/// assert_eq!(n, Some(10));
/// ```
pub trait IntoParallelIterator {
    /// The parallel iterator made.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items.
    type Item: Send;

    /// Makes the parallel iterator.
    fn into_par_iter(self) -> Self::Iter;
}

impl<T: ParallelIterator> IntoParallelIterator for T {
    type Iter = T;
    type Item = T::Item;

    fn into_par_iter(self) -> T {
        self
    }
}

/// `par_iter()`: iterates over `&self` in parallel, for any `C` where `&C` converts
/// into a parallel iterator.
///
/// ```
/// use prorata::prelude::*;
/// let v = vec![1, 2, 3];
/// let total = std::sync::atomic::AtomicI32::new(0);
/// v.par_iter().for_each(|x| { total.fetch_add(*x, std::sync::atomic::Ordering::Relaxed); });
/// assert_eq!(total.into_inner(), 6);
/// ```
pub trait IntoParallelRefIterator<'data> {
    /// The parallel iterator made.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (usually `&'data T`).
    type Item: Send + 'data;

    /// Iterates over references to the items, in parallel.
    fn par_iter(&'data self) -> Self::Iter;
}

impl<'data, I: 'data + ?Sized> IntoParallelRefIterator<'data> for I
where
    &'data I: IntoParallelIterator,
{
    type Iter = <&'data I as IntoParallelIterator>::Iter;
    type Item = <&'data I as IntoParallelIterator>::Item;

    fn par_iter(&'data self) -> Self::Iter {
        self.into_par_iter()
    }
}

/// `par_iter_mut()`: iterates over `&mut self` in parallel, for any `C` where `&mut C`
/// converts into a parallel iterator.
///
/// ```
/// use prorata::prelude::*;
/// let mut v = vec![1, 2, 3];
/// v.par_iter_mut().for_each(|x| *x *= 10);
/// assert_eq!(v, [10, 20, 30]);
/// ```
pub trait IntoParallelRefMutIterator<'data> {
    /// The parallel iterator made.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (usually `&'data mut T`).
    type Item: Send + 'data;

    /// Iterates over mutable references to the items, in parallel.
    fn par_iter_mut(&'data mut self) -> Self::Iter;
}

impl<'data, I: 'data + ?Sized> IntoParallelRefMutIterator<'data> for I
where
    &'data mut I: IntoParallelIterator,
{
    type Iter = <&'data mut I as IntoParallelIterator>::Iter;
    type Item = <&'data mut I as IntoParallelIterator>::Item;

    fn par_iter_mut(&'data mut self) -> Self::Iter {
        self.into_par_iter()
    }
}
