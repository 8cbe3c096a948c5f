//! `Vec<T>`: collected in place when the length is known, in pieces otherwise.

use std::collections::LinkedList;

use super::into_vec::extend_in_place;
use super::vec_list::{VecListConsumer, total_len};
use super::{FromParallelIterator, ParallelExtend, collect_extended};
use crate::iter::{IntoParallelIterator, ParallelIterator};

/// Collects the items in order into a vector.
///
/// ```
/// use prorata::prelude::*;
/// let squares: Vec<usize> = (0..5usize).into_par_iter().map(|x| x * x).collect();
/// assert_eq!(squares, [0, 1, 4, 9, 16]);
/// ```
impl<T: Send> FromParallelIterator<T> for Vec<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        collect_extended(par_iter)
    }
}

/// Appends the items in order.
///
/// ```
/// use prorata::prelude::*;
/// let mut v = vec![10, 20];
/// v.par_extend((0..3usize).into_par_iter());
/// assert_eq!(v, [10, 20, 0, 1, 2]);
/// ```
impl<T: Send> ParallelExtend<T> for Vec<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        let iter = par_iter.into_par_iter();
        match iter.opt_len() {
            Some(len) => extend_in_place(self, len, iter),
            None => append_pieces(self, iter.drive_unindexed(VecListConsumer::new())),
        }
    }
}

/// Appends copies of the items in order.
///
/// ```
/// use prorata::prelude::*;
/// let extra = vec![1u8, 2, 3];
/// let mut v = vec![0u8];
/// v.par_extend(&extra);
/// assert_eq!(v, [0, 1, 2, 3]);
/// ```
impl<'a, T: 'a + Copy + Send + Sync> ParallelExtend<&'a T> for Vec<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        self.par_extend(par_iter.into_par_iter().copied());
    }
}

/// Moves the items of `pieces` to the end of `vec`, in order, reserving once.
fn append_pieces<T>(vec: &mut Vec<T>, mut pieces: LinkedList<Vec<T>>) {
    if vec.is_empty() && vec.capacity() == 0 && pieces.len() == 1 {
        // The common case of a single leaf: keep its vector, copy nothing.
        *vec = pieces.pop_front().unwrap_or_default();
        return;
    }
    vec.reserve(total_len(&pieces));
    for mut piece in pieces {
        vec.append(&mut piece);
    }
}
