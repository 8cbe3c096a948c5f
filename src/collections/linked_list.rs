//! `LinkedList`: iterated through a `Vec` of its items (or references), collected by
//! linking the items on the workers, a list per piece, and appending the lists.

use std::collections::LinkedList;

use super::delegate_indexed;
use crate::iter::*;
use crate::iter::{Piece, PieceList};

/// Parallel iterator that owns a `LinkedList`'s items, in order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::LinkedList;
/// let it: prorata::collections::linked_list::IntoIter<i32> =
///     LinkedList::from([1, 2]).into_par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<T> {
    inner: crate::vec::IntoIter<T>,
}

/// Parallel iterator over references to a `LinkedList`'s items, in order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::LinkedList;
/// let list = LinkedList::from([1, 2]);
/// let it: prorata::collections::linked_list::Iter<'_, i32> = list.par_iter();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct Iter<'a, T> {
    inner: crate::vec::IntoIter<&'a T>,
}

/// Parallel iterator over mutable references to a `LinkedList`'s items, in order.
///
/// ```
/// use prorata::prelude::*;
/// use std::collections::LinkedList;
/// let mut list = LinkedList::from([1, 2]);
/// let it: prorata::collections::linked_list::IterMut<'_, i32> = list.par_iter_mut();
/// it.for_each(|x| *x *= 10);
/// assert_eq!(list, LinkedList::from([10, 20]));
/// ```
#[derive(Debug)]
pub struct IterMut<'a, T> {
    inner: crate::vec::IntoIter<&'a mut T>,
}

impl<T: Send> IntoParallelIterator for LinkedList<T> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter {
            inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, T: Sync> IntoParallelIterator for &'a LinkedList<T> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        Iter {
            inner: self.iter().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

impl<'a, T: Send> IntoParallelIterator for &'a mut LinkedList<T> {
    type Iter = IterMut<'a, T>;
    type Item = &'a mut T;

    fn into_par_iter(self) -> IterMut<'a, T> {
        IterMut {
            inner: self.iter_mut().collect::<Vec<_>>().into_par_iter(),
        }
    }
}

delegate_indexed!(<T> IntoIter<T> => T where T: Send);
delegate_indexed!(<'a, T> Iter<'a, T> => &'a T where T: Sync);
delegate_indexed!(<'a, T> IterMut<'a, T> => &'a mut T where T: Send);

impl<T: Send> FromParallelIterator<T> for LinkedList<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        let mut list = LinkedList::new();
        list.par_extend(par_iter);
        list
    }
}

/// Links the items into lists on the workers, one list per sequential piece, and
/// appends the lists in order (O(1) each): a list node is an allocation per item, and
/// these are made in parallel rather than by the calling thread after the fact.
impl<T: Send> ParallelExtend<T> for LinkedList<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        let pieces = par_iter
            .into_par_iter()
            .drive_unindexed(PieceList::<LinkedList<T>>::new());
        for mut piece in pieces {
            self.append(&mut piece);
        }
    }
}

/// What one sequential piece of a list's `par_extend` links.
impl<T: Send> Piece<T> for LinkedList<T> {
    fn push_item(&mut self, item: T) {
        self.push_back(item);
    }

    /// A run of items links in one loop, the list held in place (a generic `fold`
    /// moved it in and out of its closure for every item).
    fn extend_items<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.push_back(item);
        }
    }

    fn is_empty(&self) -> bool {
        self.is_empty()
    }
}

/// Copies the referenced items, then links them as for owned items.
impl<'r, T: Copy + Send + Sync + 'r> ParallelExtend<&'r T> for LinkedList<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'r T>,
    {
        self.par_extend(par_iter.into_par_iter().copied());
    }
}
