//! `intersperse`: a clone of a separator between every two neighbouring items.
//!
//! Indexed, every output place is known: a piece knows whether it starts with a
//! separator. Over a base of known length driven into a consumer, the consumer is
//! split by counts too ([`counted`]). Unindexed, separators between pieces are added
//! when the pieces' results are joined (see `IntersperseConsumer`).

mod counted;

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
        if self.base.opt_len().is_some() {
            // The base splits by index, and so must the consumer downstream (which
            // may be an in-place `collect` that cannot split otherwise).
            return (self.base).drive_unindexed(counted::CountedConsumer::new(consumer, self.item));
        }
        let consumer = IntersperseConsumer {
            base: consumer,
            item: self.item.clone(),
            front: Cell::new(None),
        };
        // The leftmost piece's front stays `None`, but join it anyway if present.
        let (front, body, _) = self.base.drive_unindexed(consumer);
        with_front(front, body, false, self.item)
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
        interspersed_len(self.base.len()).expect("overflow")
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

/// The unindexed form. Each piece puts separators only between its own items, and
/// reports whether it had any. Every split places a spare consumer just left of the
/// right piece (its `front`); when two neighbouring results are joined, one separator
/// goes into the right one's front if both had items. So a piece left empty (by a
/// `filter` upstream, say) never causes a stray or missing separator.
struct IntersperseConsumer<C, T> {
    base: C,
    item: T,
    /// A `Cell` because `split_off_left(&self)` hands the current front to the left
    /// piece and puts a new one in front of `self`.
    front: Cell<Option<C>>,
}

impl<C, T> Consumer<T> for IntersperseConsumer<C, T>
where
    C: UnindexedConsumer<T>,
    T: Clone + Send,
{
    type Folder = IntersperseFolder<C, T>;
    type Reducer = IntersperseReducer<C::Reducer, T>;
    /// The piece's front, the downstream result, and whether the piece had items.
    type Result = (Option<C>, C::Result, bool);

    fn split_at(self, index: usize) -> (Self, Self, Self::Reducer) {
        // Downstream is unindexed here (this consumer only serves `drive_unindexed`),
        // so the index is only a hint.
        let (left, right, reducer) = self.base.split_at(index);
        let front = right.split_off_left();
        let reducer = IntersperseReducer {
            base: reducer,
            item: self.item.clone(),
        };
        let left = IntersperseConsumer {
            base: left,
            item: self.item.clone(),
            front: self.front,
        };
        let right = IntersperseConsumer {
            base: right,
            item: self.item,
            front: Cell::new(Some(front)),
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        IntersperseFolder {
            base: self.base.into_folder(),
            item: self.item,
            started: false,
            front: self.front.into_inner(),
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
        let left = self.base.split_off_left();
        let front = self.base.split_off_left();
        IntersperseConsumer {
            base: left,
            item: self.item.clone(),
            front: Cell::new(self.front.replace(Some(front))),
        }
    }

    fn to_reducer(&self) -> Self::Reducer {
        IntersperseReducer {
            base: self.base.to_reducer(),
            item: self.item.clone(),
        }
    }
}

/// Puts the piece's front (with a separator, if `separate`) before its `body`.
fn with_front<C, T>(front: Option<C>, body: C::Result, separate: bool, item: T) -> C::Result
where
    C: UnindexedConsumer<T>,
{
    let Some(front) = front else {
        return body;
    };
    let join = front.to_reducer();
    let mut folder = front.into_folder();
    if separate {
        folder = folder.consume(item);
    }
    join.reduce(folder.complete(), body)
}

struct IntersperseReducer<R, T> {
    base: R,
    item: T,
}

impl<C, R, T> Reducer<(Option<C>, C::Result, bool)> for IntersperseReducer<R, T>
where
    C: UnindexedConsumer<T>,
    R: Reducer<C::Result>,
{
    fn reduce(
        self,
        (left_front, left, left_started): (Option<C>, C::Result, bool),
        (right_front, right, right_started): (Option<C>, C::Result, bool),
    ) -> (Option<C>, C::Result, bool) {
        let separate = left_started && right_started;
        let right = with_front(right_front, right, separate, self.item);
        (
            left_front,
            self.base.reduce(left, right),
            left_started || right_started,
        )
    }
}

struct IntersperseFolder<C: Consumer<T>, T> {
    base: C::Folder,
    item: T,
    /// Whether an item came already (so the next one needs a separator first).
    started: bool,
    front: Option<C>,
}

impl<C: Consumer<T>, T: Clone> Folder<T> for IntersperseFolder<C, T> {
    type Result = (Option<C>, C::Result, bool);

    fn consume(mut self, item: T) -> Self {
        if self.started {
            self.base = self.base.consume(self.item.clone());
            if self.base.full() {
                return self;
            }
        }
        self.started = true;
        self.base = self.base.consume(item);
        self
    }

    fn complete(self) -> Self::Result {
        (self.front, self.base.complete(), self.started)
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
