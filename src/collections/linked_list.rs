//! `LinkedList`: iterated through a `Vec` of its items (or references), collected by
//! linking the items on the workers, a list per piece, and appending the lists.

use std::collections::LinkedList;
use std::marker::PhantomData;

use super::delegate_indexed;
use crate::iter::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use crate::iter::*;

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
        let mut linked = par_iter.into_par_iter().drive_unindexed(LinkItems::new());
        self.append(&mut linked);
    }
}

/// The consumer of [`ParallelExtend`] for lists: each sequential piece links its items
/// into a list of its own, and neighbouring lists are appended. Stateless: every
/// split makes the same consumer.
struct LinkItems<T>(PhantomData<fn() -> T>);

impl<T> LinkItems<T> {
    fn new() -> Self {
        LinkItems(PhantomData)
    }
}

impl<T: Send> Consumer<T> for LinkItems<T> {
    type Folder = ListFolder<T>;
    type Reducer = AppendLists;
    type Result = LinkedList<T>;

    fn split_at(self, _index: usize) -> (Self, Self, AppendLists) {
        (LinkItems::new(), LinkItems::new(), AppendLists)
    }

    fn into_folder(self) -> ListFolder<T> {
        ListFolder(LinkedList::new())
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T: Send> UnindexedConsumer<T> for LinkItems<T> {
    fn split_off_left(&self) -> Self {
        LinkItems::new()
    }

    fn to_reducer(&self) -> AppendLists {
        AppendLists
    }
}

/// Appends the list of the right half to that of the left half.
struct AppendLists;

impl<T> Reducer<LinkedList<T>> for AppendLists {
    fn reduce(self, mut left: LinkedList<T>, mut right: LinkedList<T>) -> LinkedList<T> {
        left.append(&mut right);
        left
    }
}

/// The list one sequential piece links.
struct ListFolder<T>(LinkedList<T>);

impl<T> Folder<T> for ListFolder<T> {
    type Result = LinkedList<T>;

    fn consume(mut self, item: T) -> Self {
        self.0.push_back(item);
        self
    }

    /// A run of items links in one loop, the list held in place (a generic `fold`
    /// moved it in and out of its closure for every item).
    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        for item in iter {
            self.0.push_back(item);
        }
        self
    }

    fn complete(self) -> LinkedList<T> {
        self.0
    }

    fn full(&self) -> bool {
        false
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
