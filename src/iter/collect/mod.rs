//! Building collections from parallel iterators: `collect`, `extend`, `unzip`,
//! `partition`. One file per target collection or concept.
//!
//! Two ways to gather items, chosen by [`ParallelIterator::opt_len`]:
//!
//! - **In place** (`in_place.rs`, `into_vec.rs`): when the number of items is known, the
//!   target `Vec` reserves room for all of them, and each piece of the split iterator
//!   writes its items straight into its own slots of the spare capacity. The pieces are
//!   checked to be contiguous and complete when they are joined.
//! - **In pieces** (`vec_list.rs`): otherwise each leaf fills a `Vec` of its own and the
//!   pieces are chained, in order, into a `LinkedList<Vec<T>>`, which the target then
//!   absorbs with one reservation.
//!
//! Helpers for the other collections of the crate (maps, sets, `VecDeque`, ...), which
//! live outside this module:
//!
//! - [`vec_list::fast_collect`] gathers any parallel iterator as either one `Vec`
//!   (in place, when the length is known) or a `LinkedList<Vec<T>>`;
//! - [`vec_list::collect_vec_list`] always returns the list form (what
//!   `ParallelIterator::collect_vec_list` returns);
//! - [`vec_list::total_len`] sums the lengths of such a list, to reserve room once.
//!
//! A typical `ParallelExtend` for a sequential collection is then
//! `let list = collect_vec_list(iter); self.reserve(total_len(&list)); for v in list {
//! self.extend(v) }`.

use super::IntoParallelIterator;

mod cow;
mod either;
mod in_place;
mod into_vec;
mod option;
mod os_string;
mod pair;
mod result;
mod smart_pointers;
mod string;
mod unit;
mod unzip;
pub(crate) mod vec;
pub(crate) mod vec_list;

#[cfg(test)]
mod tests;

pub(crate) use into_vec::{collect_into_vec, unzip_into_vecs};
pub(crate) use unzip::{partition, partition_map, unzip};

/// Builds a collection from a parallel iterator (the parallel `FromIterator`).
///
/// ```
/// use prorata::iter::FromParallelIterator;
/// fn build<C: FromParallelIterator<usize>>() -> C {
///     C::from_par_iter(0..10usize)
/// }
/// let v: Vec<usize> = build();
/// assert_eq!(v, (0..10).collect::<Vec<_>>());
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
/// let mut v = vec![99];
/// grow(&mut v);
/// assert_eq!(v.len(), 11);
/// ```
pub trait ParallelExtend<T: Send> {
    /// Adds the items of `par_iter` to `self`.
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>;
}

/// Makes an empty `C` and extends it: how most collections are built.
fn collect_extended<C, I>(par_iter: I) -> C
where
    I: IntoParallelIterator,
    C: ParallelExtend<I::Item> + Default,
{
    let mut collection = C::default();
    collection.par_extend(par_iter);
    collection
}
