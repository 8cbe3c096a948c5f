//! `HashMap`: iterated and drained through a `Vec` of its entries (or references to
//! them), in the map's arbitrary order; collected by inserting the entries gathered
//! in parallel.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::marker::PhantomData;

use super::{delegate_indexed, par_extend_impls};
use crate::iter::*;

/// Parallel iterator that owns a `HashMap`'s entries.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::HashMap;
/// let it: prorata::collections::hash_map::IntoIter<i32, char> =
///     HashMap::from([(1, 'a')]).into_par_iter();
/// assert_eq!(it.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<K, V> {
    inner: crate::vec::IntoIter<(K, V)>,
}

/// Parallel iterator over references to a `HashMap`'s entries.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::HashMap;
/// let map = HashMap::from([(1, 'a')]);
/// let it: prorata::collections::hash_map::Iter<'_, i32, char> = map.par_iter();
/// assert_eq!(it.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct Iter<'a, K, V> {
    inner: crate::vec::IntoIter<(&'a K, &'a V)>,
}

/// Parallel iterator over a `HashMap`'s entries with mutable values.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::HashMap;
/// let mut map = HashMap::from([(1, 10)]);
/// let it: prorata::collections::hash_map::IterMut<'_, i32, i32> = map.par_iter_mut();
/// it.for_each(|(k, v)| *v += k);
/// assert_eq!(map[&1], 11);
/// ```
#[derive(Debug)]
pub struct IterMut<'a, K, V> {
    inner: crate::vec::IntoIter<(&'a K, &'a mut V)>,
}

/// Parallel iterator that moves every entry out of a `HashMap`, made by
/// [`par_drain`](crate::iter::ParallelDrainFull::par_drain). The map keeps its
/// capacity.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::HashMap;
/// let mut map = HashMap::from([(1, 'a'), (2, 'b')]);
/// let it: prorata::collections::hash_map::Drain<'_, i32, char> = map.par_drain();
/// assert_eq!(it.len(), 2);
/// assert!(map.is_empty());
/// ```
#[derive(Debug)]
pub struct Drain<'a, K, V> {
    inner: crate::vec::IntoIter<(K, V)>,
    map: PhantomData<&'a mut HashMap<K, V>>,
}

impl<K: Send, V: Send, S> IntoParallelIterator for HashMap<K, V, S> {
    type Iter = IntoIter<K, V>;
    type Item = (K, V);

    fn into_par_iter(self) -> IntoIter<K, V> {
        IntoIter {
            inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, K: Sync, V: Sync, S> IntoParallelIterator for &'a HashMap<K, V, S> {
    type Iter = Iter<'a, K, V>;
    type Item = (&'a K, &'a V);

    fn into_par_iter(self) -> Iter<'a, K, V> {
        Iter {
            inner: self.iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, K: Sync, V: Send, S> IntoParallelIterator for &'a mut HashMap<K, V, S> {
    type Iter = IterMut<'a, K, V>;
    type Item = (&'a K, &'a mut V);

    fn into_par_iter(self) -> IterMut<'a, K, V> {
        IterMut {
            inner: self.iter_mut().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, K: Send, V: Send, S> ParallelDrainFull for &'a mut HashMap<K, V, S> {
    type Iter = Drain<'a, K, V>;
    type Item = (K, V);

    fn par_drain(self) -> Drain<'a, K, V> {
        Drain {
            inner: self.drain().collect::<Vec<_>>().into_par_iter(),
            map: PhantomData,
        }
    }
}

delegate_indexed!(<K, V> IntoIter<K, V> => (K, V) where K: Send, V: Send);
delegate_indexed!(<'a, K, V> Iter<'a, K, V> => (&'a K, &'a V) where K: Sync, V: Sync);
delegate_indexed!(<'a, K, V> IterMut<'a, K, V> => (&'a K, &'a mut V) where K: Sync, V: Send);
delegate_indexed!(<'a, K, V> Drain<'a, K, V> => (K, V) where K: Send, V: Send);

impl<K, V, S> FromParallelIterator<(K, V)> for HashMap<K, V, S>
where
    K: Eq + Hash + Send,
    V: Send,
    S: BuildHasher + Default + Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = (K, V)>,
    {
        let mut map = HashMap::default();
        map.par_extend(par_iter);
        map
    }
}

par_extend_impls!(
    <K, V, S> HashMap<K, V, S>, (K, V), (&'r K, &'r V), HashMap::reserve,
    where [K: Eq + Hash + Send, V: Send, S: BuildHasher + Send],
    ref where [K: Copy + Eq + Hash + Send + Sync + 'r, V: Copy + Send + Sync + 'r, S: BuildHasher + Send]
);
