//! `BTreeSet`: iterated through a `Vec` of its items (or references), in order;
//! collected by inserting the items gathered in parallel.

use std::collections::BTreeSet;

use super::{delegate_indexed, par_extend_impls};
use crate::iter::*;

/// Parallel iterator that owns a `BTreeSet`'s items, in ascending order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::BTreeSet;
/// let it: prorata::collections::btree_set::IntoIter<i32> =
///     BTreeSet::from([2, 1]).into_par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<T> {
    inner: crate::vec::IntoIter<T>,
}

/// Parallel iterator over references to a `BTreeSet`'s items, in ascending order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::BTreeSet;
/// let set = BTreeSet::from([2, 1]);
/// let it: prorata::collections::btree_set::Iter<'_, i32> = set.par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct Iter<'a, T> {
    inner: crate::vec::IntoIter<&'a T>,
}

impl<T: Send> IntoParallelIterator for BTreeSet<T> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter {
            inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, T: Sync> IntoParallelIterator for &'a BTreeSet<T> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        Iter {
            inner: self.iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

delegate_indexed!(<T> IntoIter<T> => T where T: Send);
delegate_indexed!(<'a, T> Iter<'a, T> => &'a T where T: Sync);

impl<T: Ord + Send> FromParallelIterator<T> for BTreeSet<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        let mut set = BTreeSet::new();
        set.par_extend(par_iter);
        set
    }
}

par_extend_impls!(
    <T> BTreeSet<T>, T, &'r T, super::no_reserve,
    where [T: Ord + Send], ref where [T: Copy + Ord + Send + Sync + 'r]
);
