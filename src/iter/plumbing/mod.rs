//! The plumbing under the parallel iterators, public so that users can write their
//! own sources and consumers.
//!
//! An indexed source is a [`Producer`]: it knows its length and can be split at any
//! index. An unindexed source is an [`UnindexedProducer`]: it can only be split in two,
//! somewhere. The operation at the end of a chain (a sum, a `collect`, a `for_each`) is
//! a [`Consumer`], which splits in step with the producer; each piece turns into a
//! [`Folder`] that eats items sequentially, and a [`Reducer`] joins the results of two
//! neighbouring pieces, left before right, so order-preserving results come out in
//! sequential order however the work was divided.
//!
//! The drivers [`bridge`], [`bridge_producer_consumer`] and [`bridge_unindexed`] do the
//! recursive splitting through [`join_context`](crate::join_context).

mod bridge;
mod splitter;

pub use bridge::{bridge, bridge_producer_consumer, bridge_unindexed};

/// An indexed source of items that can be split at any index.
///
/// ```
/// use prorata::iter::plumbing::Producer;
///
/// struct Evens(std::ops::Range<u32>);
///
/// impl Producer for Evens {
///     type Item = u32;
///     type IntoIter = std::iter::Map<std::ops::Range<u32>, fn(u32) -> u32>;
///     fn into_iter(self) -> Self::IntoIter {
///         self.0.map(|x| 2 * x)
///     }
///     fn split_at(self, index: usize) -> (Self, Self) {
///         let mid = self.0.start + index as u32;
///         (Evens(self.0.start..mid), Evens(mid..self.0.end))
///     }
/// }
///
/// let (left, right) = Evens(0..4).split_at(1);
/// assert_eq!(left.into_iter().collect::<Vec<_>>(), [0]);
/// assert_eq!(right.into_iter().collect::<Vec<_>>(), [2, 4, 6]);
/// ```
pub trait Producer: Send + Sized {
    /// The items produced.
    type Item;
    /// The sequential iterator over one piece.
    type IntoIter: Iterator<Item = Self::Item> + DoubleEndedIterator + ExactSizeIterator;

    /// Turns this piece into a sequential iterator.
    fn into_iter(self) -> Self::IntoIter;

    /// The smallest piece worth splitting off (see `with_min_len`).
    fn min_len(&self) -> usize {
        1
    }

    /// The largest piece to process without splitting (see `with_max_len`).
    fn max_len(&self) -> usize {
        usize::MAX
    }

    /// Splits into the items before `index` and those from `index` on.
    fn split_at(self, index: usize) -> (Self, Self);

    /// Feeds every item of this piece to `folder`, stopping early once it is full.
    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>,
    {
        folder.consume_iter(self.into_iter())
    }
}

/// Receives the [`Producer`] of an indexed iterator (see
/// [`IndexedParallelIterator::with_producer`](crate::iter::IndexedParallelIterator::with_producer)).
/// It exists because the producer's type cannot be named by the caller.
///
/// ```
/// use prorata::iter::plumbing::{Producer, ProducerCallback};
///
/// struct FirstItem;
/// impl<T> ProducerCallback<T> for FirstItem {
///     type Output = Option<T>;
///     fn callback<P: Producer<Item = T>>(self, producer: P) -> Option<T> {
///         producer.into_iter().next()
///     }
/// }
/// ```
pub trait ProducerCallback<T> {
    /// What the callback returns.
    type Output;
    /// Called with the producer.
    fn callback<P>(self, producer: P) -> Self::Output
    where
        P: Producer<Item = T>;
}

/// A source that can be split in two, but not at a chosen index.
///
/// ```
/// use prorata::iter::plumbing::{Folder, UnindexedProducer};
///
/// struct Span(u64, u64);
/// impl UnindexedProducer for Span {
///     type Item = u64;
///     fn split(self) -> (Self, Option<Self>) {
///         if self.1 - self.0 < 2 {
///             return (self, None);
///         }
///         let mid = self.0 + (self.1 - self.0) / 2;
///         (Span(self.0, mid), Some(Span(mid, self.1)))
///     }
///     fn fold_with<F: Folder<u64>>(self, folder: F) -> F {
///         folder.consume_iter(self.0..self.1)
///     }
/// }
/// ```
pub trait UnindexedProducer: Send + Sized {
    /// The items produced.
    type Item;
    /// Splits off a second piece, or returns `None` when this one cannot be split.
    fn split(self) -> (Self, Option<Self>);
    /// Feeds every item of this piece to `folder`, stopping early once it is full.
    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>;
}

/// The receiving end of a parallel iterator, split in step with its producer.
///
/// ```
/// use prorata::iter::plumbing::Consumer;
/// fn pieces<C: Consumer<u8>>(c: C) -> (C, C) {
///     let (left, right, _reducer) = c.split_at(10);
///     (left, right)
/// }
/// ```
pub trait Consumer<Item>: Send + Sized {
    /// The sequential part that eats the items of one piece.
    type Folder: Folder<Item, Result = Self::Result>;
    /// Joins the results of two neighbouring pieces.
    type Reducer: Reducer<Self::Result>;
    /// The final result.
    type Result: Send;

    /// Splits into consumers for the items before `index` and from `index` on, with the
    /// reducer that joins their results.
    fn split_at(self, index: usize) -> (Self, Self, Self::Reducer);

    /// Turns this consumer into the folder for one piece.
    fn into_folder(self) -> Self::Folder;

    /// True when no more items are wanted (a short-circuiting search has succeeded).
    fn full(&self) -> bool;
}

/// A [`Consumer`] that can also be split without knowing where (for unindexed sources).
///
/// ```
/// use prorata::iter::plumbing::UnindexedConsumer;
/// fn split_off<C: UnindexedConsumer<u8>>(c: &C) -> C {
///     c.split_off_left()
/// }
/// ```
pub trait UnindexedConsumer<Item>: Consumer<Item> {
    /// A consumer for items to the left of those this one will receive.
    fn split_off_left(&self) -> Self;
    /// The reducer joining a result of `split_off_left()` (left) with one of `self`.
    fn to_reducer(&self) -> Self::Reducer;
}

/// The sequential part of a consumer: it eats items one by one.
///
/// ```
/// use prorata::iter::plumbing::Folder;
///
/// struct Total(u64);
/// impl Folder<u64> for Total {
///     type Result = u64;
///     fn consume(self, item: u64) -> Self {
///         Total(self.0 + item)
///     }
///     fn complete(self) -> u64 {
///         self.0
///     }
///     fn full(&self) -> bool {
///         false
///     }
/// }
///
/// assert_eq!(Total(0).consume_iter(1..=4).complete(), 10);
/// ```
pub trait Folder<Item>: Sized {
    /// What the folder produces when complete.
    type Result;

    /// Eats one item.
    fn consume(self, item: Item) -> Self;

    /// Eats items until the iterator ends or the folder is full.
    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = Item>,
    {
        for item in iter {
            self = self.consume(item);
            if self.full() {
                break;
            }
        }
        self
    }

    /// Finishes and returns the result.
    fn complete(self) -> Self::Result;

    /// True when no more items are wanted.
    fn full(&self) -> bool;
}

/// Joins the results of two neighbouring pieces, `left` coming first in order.
///
/// ```
/// use prorata::iter::plumbing::Reducer;
///
/// struct Concat;
/// impl Reducer<Vec<u8>> for Concat {
///     fn reduce(self, mut left: Vec<u8>, right: Vec<u8>) -> Vec<u8> {
///         left.extend(right);
///         left
///     }
/// }
/// assert_eq!(Concat.reduce(vec![1], vec![2]), [1, 2]);
/// ```
pub trait Reducer<Result> {
    /// Joins two results.
    fn reduce(self, left: Result, right: Result) -> Result;
}
