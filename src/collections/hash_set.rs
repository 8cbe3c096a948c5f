//! `HashSet`: iterated and drained through a `Vec` of its items (or references), in
//! the set's arbitrary order; collected by inserting the items gathered in parallel.

use std::collections::HashSet;
use std::hash::{BuildHasher, Hash};
use std::marker::PhantomData;

use super::{delegate_indexed, par_extend_impls};
use crate::iter::*;

/// Parallel iterator that owns a `HashSet`'s items.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::HashSet;
/// let it: prorata::collections::hash_set::IntoIter<i32> =
///     HashSet::from([1, 2]).into_par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<T> {
    inner: crate::vec::IntoIter<T>,
}

/// Parallel iterator over references to a `HashSet`'s items.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::HashSet;
/// let set = HashSet::from([1, 2]);
/// let it: prorata::collections::hash_set::Iter<'_, i32> = set.par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct Iter<'a, T> {
    inner: crate::vec::IntoIter<&'a T>,
}

/// Parallel iterator that moves every item out of a `HashSet`, made by
/// [`par_drain`](crate::iter::ParallelDrainFull::par_drain). The set keeps its
/// capacity.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::HashSet;
/// let mut set = HashSet::from([1, 2]);
/// let it: prorata::collections::hash_set::Drain<'_, i32> = set.par_drain();
/// assert_eq!(it.len(), 2);
/// assert!(set.is_empty());
/// ```
#[derive(Debug)]
pub struct Drain<'a, T> {
    inner: crate::vec::IntoIter<T>,
    set: PhantomData<&'a mut HashSet<T>>,
}

impl<T: Send, S> IntoParallelIterator for HashSet<T, S> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter {
            inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, T: Sync, S> IntoParallelIterator for &'a HashSet<T, S> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        Iter {
            inner: self.iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, T: Send, S> ParallelDrainFull for &'a mut HashSet<T, S> {
    type Iter = Drain<'a, T>;
    type Item = T;

    fn par_drain(self) -> Drain<'a, T> {
        Drain {
            inner: self.drain().collect::<Vec<_>>().into_par_iter(),
            set: PhantomData,
        }
    }
}

delegate_indexed!(<T> IntoIter<T> => T where T: Send);
delegate_indexed!(<'a, T> Iter<'a, T> => &'a T where T: Sync);
delegate_indexed!(<'a, T> Drain<'a, T> => T where T: Send);

impl<T, S> FromParallelIterator<T> for HashSet<T, S>
where
    T: Eq + Hash + Send,
    S: BuildHasher + Default + Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        let mut set = HashSet::default();
        set.par_extend(par_iter);
        set
    }
}

par_extend_impls!(
    <T, S> HashSet<T, S>, T, &'r T, HashSet::reserve,
    where [T: Eq + Hash + Send, S: BuildHasher + Send],
    ref where [T: Copy + Eq + Hash + Send + Sync + 'r, S: BuildHasher + Send]
);
