//! Building collections from parallel iterators: `collect`, `extend`, `unzip`,
//! `partition`. One file per target collection or concept.

use super::IntoParallelIterator;

/// Builds a collection from a parallel iterator (the parallel `FromIterator`).
///
/// ```
/// use prorata::iter::FromParallelIterator;
/// fn build<C: FromParallelIterator<usize>>() -> C {
///     C::from_par_iter(0..10usize)
/// }
/// ```
pub trait FromParallelIterator<T: Send> {
    /// Builds `Self` from the items of `par_iter`.
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>;
}

/// Extends a collection with the items of a parallel iterator (the parallel `Extend`).
///
/// ```
/// use prorata::iter::ParallelExtend;
/// fn grow<C: ParallelExtend<usize>>(c: &mut C) {
///     c.par_extend(0..10usize);
/// }
/// ```
pub trait ParallelExtend<T: Send> {
    /// Adds the items of `par_iter` to `self`.
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>;
}
