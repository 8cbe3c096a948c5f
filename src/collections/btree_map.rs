//! `BTreeMap`: iterated through a `Vec` of its entries (or references to them), in
//! key order; collected by inserting the entries gathered in parallel.

use std::collections::BTreeMap;

use super::{delegate_indexed, par_extend_impls};
use crate::iter::*;

/// Parallel iterator that owns a `BTreeMap`'s entries, in key order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::BTreeMap;
/// let it: prorata::collections::btree_map::IntoIter<i32, char> =
///     BTreeMap::from([(1, 'a')]).into_par_iter();
/// assert_eq!(it.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<K, V> {
    inner: crate::vec::IntoIter<(K, V)>,
}

/// Parallel iterator over references to a `BTreeMap`'s entries, in key order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::BTreeMap;
/// let map = BTreeMap::from([(1, 'a')]);
/// let it: prorata::collections::btree_map::Iter<'_, i32, char> = map.par_iter();
/// assert_eq!(it.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct Iter<'a, K, V> {
    inner: crate::vec::IntoIter<(&'a K, &'a V)>,
}

/// Parallel iterator over a `BTreeMap`'s entries with mutable values, in key order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::BTreeMap;
/// let mut map = BTreeMap::from([(1, 10)]);
/// let it: prorata::collections::btree_map::IterMut<'_, i32, i32> = map.par_iter_mut();
/// it.for_each(|(k, v)| *v += k);
/// assert_eq!(map[&1], 11);
/// ```
#[derive(Debug)]
pub struct IterMut<'a, K, V> {
    inner: crate::vec::IntoIter<(&'a K, &'a mut V)>,
}

impl<K: Send, V: Send> IntoParallelIterator for BTreeMap<K, V> {
    type Iter = IntoIter<K, V>;
    type Item = (K, V);

    fn into_par_iter(self) -> IntoIter<K, V> {
        IntoIter {
            inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, K: Sync, V: Sync> IntoParallelIterator for &'a BTreeMap<K, V> {
    type Iter = Iter<'a, K, V>;
    type Item = (&'a K, &'a V);

    fn into_par_iter(self) -> Iter<'a, K, V> {
        Iter {
            inner: self.iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, K: Sync, V: Send> IntoParallelIterator for &'a mut BTreeMap<K, V> {
    type Iter = IterMut<'a, K, V>;
    type Item = (&'a K, &'a mut V);

    fn into_par_iter(self) -> IterMut<'a, K, V> {
        IterMut {
            inner: self.iter_mut().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

delegate_indexed!(<K, V> IntoIter<K, V> => (K, V) where K: Send, V: Send);
delegate_indexed!(<'a, K, V> Iter<'a, K, V> => (&'a K, &'a V) where K: Sync, V: Sync);
delegate_indexed!(<'a, K, V> IterMut<'a, K, V> => (&'a K, &'a mut V) where K: Sync, V: Send);

impl<K: Ord + Send, V: Send> FromParallelIterator<(K, V)> for BTreeMap<K, V> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = (K, V)>,
    {
        let mut map = BTreeMap::new();
        map.par_extend(par_iter);
        map
    }
}

par_extend_impls!(
    <K, V> BTreeMap<K, V>, (K, V), (&'r K, &'r V), super::no_reserve,
    where [K: Ord + Send, V: Send],
    ref where [K: Copy + Ord + Send + Sync + 'r, V: Copy + Send + Sync + 'r]
);
