//! `intersperse`: a clone of a separator between every two neighbouring items.
//!
//! Each piece knows whether its output starts with a separator (`clone_first`): only
//! the first piece of the whole iterator does not.

use std::cell::Cell;

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::intersperse`].
///
/// ```
/// use prorata::prelude::*;
/// let i: prorata::iter::Intersperse<_> = (1..4usize).into_par_iter().intersperse(0);
/// assert_eq!(i.len(), 5);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct Intersperse<I>
where
    I: ParallelIterator<Item: Clone>,
{
    base: I,
    item: I::Item,
}

impl<I> Intersperse<I>
where
    I: ParallelIterator<Item: Clone>,
{
    pub(crate) fn new(base: I, item: I::Item) -> Self {
        Intersperse { base, item }
    }
}

/// How many items `n` items and their separators make.
fn interspersed_len(n: usize) -> Option<usize> {
    Some(n.checked_mul(2)?.saturating_sub(1))
}

impl<I> ParallelIterator for Intersperse<I>
where
    I: ParallelIterator<Item: Clone>,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        self.base.drive_unindexed(IntersperseConsumer {
            base: consumer,
            item: self.item,
            clone_first: Cell::new(false),
        })
    }

    fn opt_len(&self) -> Option<usize> {
        interspersed_len(self.base.opt_len()?)
    }
}

impl<I> IndexedParallelIterator for Intersperse<I>
where
    I: IndexedParallelIterator<Item: Clone>,
{
    fn len(&self) -> usize {
        interspersed_len(self.base.len()).expect("intersperse: length overflows usize")
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let len = self.len();
        return self.base.with_producer(Callback {
            callback,
            item: self.item,
            len,
        });

        struct Callback<CB, T> {
            callback: CB,
            item: T,
            len: usize,
        }

        impl<T: Clone + Send, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB, T> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                self.callback.callback(IntersperseProducer {
                    base,
                    item: self.item,
                    len: self.len,
                    clone_first: false,
                })
            }
        }
    }
}

/// `len` output items: the base's items with separators between (and, when
/// `clone_first`, before the first). A piece may also end with a separator: the one
/// that goes before the next piece's first item.
struct IntersperseProducer<P, T> {
    base: P,
    item: T,
    len: usize,
    clone_first: bool,
}

impl<P, T> Producer for IntersperseProducer<P, T>
where
    P: Producer<Item = T>,
    T: Clone + Send,
{
    type Item = T;
    type IntoIter = IntersperseSeq<P::IntoIter, T>;

    fn into_iter(self) -> Self::IntoIter {
        // Separators sit at odd places, or at even ones when the piece starts with one.
        let last_is_separator = self.len > 0 && (((self.len - 1) & 1 == 1) != self.clone_first);
        IntersperseSeq {
            base: self.base.into_iter(),
            item: self.item,
            len: self.len,
            front_separator: self.clone_first,
            back_separator: last_is_separator,
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        // Base items sit at even places (odd ones when `clone_first`).
        let base_index = (index + usize::from(!self.clone_first)) / 2;
        let (left, right) = self.base.split_at(base_index);
        let left = IntersperseProducer {
            base: left,
            item: self.item.clone(),
            len: index,
            clone_first: self.clone_first,
        };
        let right = IntersperseProducer {
            base: right,
            item: self.item,
            len: self.len - index,
            clone_first: self.clone_first ^ (index & 1 == 1),
        };
        (left, right)
    }
}

/// The sequential iterator of one [`IntersperseProducer`] piece.
struct IntersperseSeq<I, T> {
    base: I,
    item: T,
    /// Output items left.
    len: usize,
    front_separator: bool,
    back_separator: bool,
}

impl<I: Iterator<Item = T>, T: Clone> Iterator for IntersperseSeq<I, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let separator = self.front_separator;
        self.front_separator = !separator;
        if separator {
            Some(self.item.clone())
        } else {
            self.base.next()
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }
}

impl<I: DoubleEndedIterator<Item = T>, T: Clone> DoubleEndedIterator for IntersperseSeq<I, T> {
    fn next_back(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let separator = self.back_separator;
        self.back_separator = !separator;
        if separator {
            Some(self.item.clone())
        } else {
            self.base.next_back()
        }
    }
}

impl<I: ExactSizeIterator<Item = T>, T: Clone> ExactSizeIterator for IntersperseSeq<I, T> {}

/// The unindexed form: a separator before each item except the very first.
struct IntersperseConsumer<C, T> {
    base: C,
    item: T,
    /// Whether this piece's first item gets a separator before it. A `Cell` because
    /// `split_off_left` takes `&self`: after it, `self` is no longer first.
    clone_first: Cell<bool>,
}

impl<C, T> Consumer<T> for IntersperseConsumer<C, T>
where
    C: Consumer<T>,
    T: Clone + Send,
{
    type Folder = IntersperseFolder<C::Folder, T>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let clone_first = self.clone_first.get();
        // Output places before base item `index`: two per item, one less if the
        // first item has no separator.
        let base_index = index
            .saturating_mul(2)
            .saturating_sub(usize::from(!clone_first));
        let (left, right, reducer) = self.base.split_at(base_index);
        let left = IntersperseConsumer {
            base: left,
            item: self.item.clone(),
            clone_first: Cell::new(clone_first),
        };
        let right = IntersperseConsumer {
            base: right,
            item: self.item,
            clone_first: Cell::new(clone_first || index > 0),
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        IntersperseFolder {
            base: self.base.into_folder(),
            item: self.item,
            clone_first: self.clone_first.get(),
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<C, T> UnindexedConsumer<T> for IntersperseConsumer<C, T>
where
    C: UnindexedConsumer<T>,
    T: Clone + Send,
{
    fn split_off_left(&self) -> Self {
        let left = IntersperseConsumer {
            base: self.base.split_off_left(),
            item: self.item.clone(),
            clone_first: Cell::new(self.clone_first.get()),
        };
        self.clone_first.set(true);
        left
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct IntersperseFolder<G, T> {
    base: G,
    item: T,
    clone_first: bool,
}

impl<G: Folder<T>, T: Clone> Folder<T> for IntersperseFolder<G, T> {
    type Result = G::Result;

    fn consume(mut self, item: T) -> Self {
        if self.clone_first {
            self.base = self.base.consume(self.item.clone());
            if self.base.full() {
                return self;
            }
        }
        self.clone_first = true;
        self.base = self.base.consume(item);
        self
    }

    fn complete(self) -> G::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
