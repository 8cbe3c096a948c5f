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

pub(crate) use bridge::fold_with_safe_points;
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
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Producer, ProducerCallback};
    ///
    /// struct Probe;
    /// impl ProducerCallback<u32> for Probe {
    ///     type Output = Vec<u32>;
    ///     fn callback<P: Producer<Item = u32>>(self, producer: P) -> Vec<u32> {
    ///         producer.into_iter().rev().collect()
    ///     }
    /// }
    /// assert_eq!((0..4u32).into_par_iter().with_producer(Probe), [3, 2, 1, 0]);
    /// ```
    fn into_iter(self) -> Self::IntoIter;

    /// The smallest piece worth splitting off (see `with_min_len`).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Producer, ProducerCallback};
    ///
    /// struct Probe;
    /// impl ProducerCallback<u32> for Probe {
    ///     type Output = usize;
    ///     fn callback<P: Producer<Item = u32>>(self, producer: P) -> usize {
    ///         producer.min_len()
    ///     }
    /// }
    /// assert_eq!((0..100u32).into_par_iter().with_min_len(10).with_producer(Probe), 10);
    /// ```
    fn min_len(&self) -> usize {
        1
    }

    /// The largest piece to process without splitting (see `with_max_len`).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Producer, ProducerCallback};
    ///
    /// struct Probe;
    /// impl ProducerCallback<u32> for Probe {
    ///     type Output = usize;
    ///     fn callback<P: Producer<Item = u32>>(self, producer: P) -> usize {
    ///         producer.max_len()
    ///     }
    /// }
    /// assert_eq!((0..100u32).into_par_iter().with_max_len(20).with_producer(Probe), 20);
    /// ```
    fn max_len(&self) -> usize {
        usize::MAX
    }

    /// Splits into the items before `index` and those from `index` on.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Producer, ProducerCallback};
    ///
    /// struct Probe;
    /// impl ProducerCallback<u32> for Probe {
    ///     type Output = (Vec<u32>, Vec<u32>);
    ///     fn callback<P: Producer<Item = u32>>(self, producer: P) -> (Vec<u32>, Vec<u32>) {
    ///         let (left, right) = producer.split_at(2);
    ///         (left.into_iter().collect(), right.into_iter().collect())
    ///     }
    /// }
    /// let halves = (0..5u32).into_par_iter().with_producer(Probe);
    /// assert_eq!(halves, (vec![0, 1], vec![2, 3, 4]));
    /// ```
    fn split_at(self, index: usize) -> (Self, Self);

    /// Feeds every item of this piece to `folder`, stopping early once it is full.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Folder, Producer, ProducerCallback};
    ///
    /// struct Total(u32);
    /// impl Folder<u32> for Total {
    ///     type Result = u32;
    ///     fn consume(self, item: u32) -> Self { Total(self.0 + item) }
    ///     fn complete(self) -> u32 { self.0 }
    ///     fn full(&self) -> bool { false }
    /// }
    ///
    /// struct SumOfPiece;
    /// impl ProducerCallback<u32> for SumOfPiece {
    ///     type Output = u32;
    ///     fn callback<P: Producer<Item = u32>>(self, producer: P) -> u32 {
    ///         producer.fold_with(Total(0)).complete()
    ///     }
    /// }
    /// assert_eq!((1..5u32).into_par_iter().with_producer(SumOfPiece), 10);
    /// ```
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
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Producer, ProducerCallback};
    ///
    /// struct Probe;
    /// impl ProducerCallback<u32> for Probe {
    ///     type Output = usize;
    ///     fn callback<P: Producer<Item = u32>>(self, producer: P) -> usize {
    ///         producer.into_iter().len()
    ///     }
    /// }
    /// assert_eq!((0..7u32).into_par_iter().with_producer(Probe), 7);
    /// ```
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
    ///
    /// ```
    /// // `Span(a, b)` is the example `UnindexedProducer` above: the numbers a..b.
    /// # use prorata::iter::plumbing::{Folder, UnindexedProducer};
    /// # struct Span(u64, u64);
    /// # impl UnindexedProducer for Span {
    /// #     type Item = u64;
    /// #     fn split(self) -> (Self, Option<Self>) {
    /// #         if self.1 - self.0 < 2 {
    /// #             return (self, None);
    /// #         }
    /// #         let mid = self.0 + (self.1 - self.0) / 2;
    /// #         (Span(self.0, mid), Some(Span(mid, self.1)))
    /// #     }
    /// #     fn fold_with<F: Folder<u64>>(self, folder: F) -> F {
    /// #         folder.consume_iter(self.0..self.1)
    /// #     }
    /// # }
    /// let (left, right) = Span(0, 10).split();
    /// assert_eq!((left.0, left.1), (0, 5));
    /// assert!(right.is_some());
    /// assert!(Span(3, 4).split().1.is_none());
    /// ```
    fn split(self) -> (Self, Option<Self>);
    /// Feeds every item of this piece to `folder`, stopping early once it is full.
    ///
    /// ```
    /// // `Span(a, b)` is the example `UnindexedProducer` above: the numbers a..b.
    /// # use prorata::iter::plumbing::{Folder, UnindexedProducer};
    /// # struct Span(u64, u64);
    /// # impl UnindexedProducer for Span {
    /// #     type Item = u64;
    /// #     fn split(self) -> (Self, Option<Self>) {
    /// #         if self.1 - self.0 < 2 {
    /// #             return (self, None);
    /// #         }
    /// #         let mid = self.0 + (self.1 - self.0) / 2;
    /// #         (Span(self.0, mid), Some(Span(mid, self.1)))
    /// #     }
    /// #     fn fold_with<F: Folder<u64>>(self, folder: F) -> F {
    /// #         folder.consume_iter(self.0..self.1)
    /// #     }
    /// # }
    /// struct Count(usize);
    /// impl Folder<u64> for Count {
    ///     type Result = usize;
    ///     fn consume(self, _: u64) -> Self { Count(self.0 + 1) }
    ///     fn complete(self) -> usize { self.0 }
    ///     fn full(&self) -> bool { false }
    /// }
    /// assert_eq!(Span(10, 20).fold_with(Count(0)).complete(), 10);
    /// ```
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
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
    ///
    /// /// The items 1 and 2, each in its own piece.
    /// struct ByHand;
    /// impl ParallelIterator for ByHand {
    ///     type Item = u32;
    ///     fn drive_unindexed<C: UnindexedConsumer<u32>>(self, consumer: C) -> C::Result {
    ///         let (left, right, reducer) = consumer.split_at(1);
    ///         let left = left.into_folder().consume(1).complete();
    ///         let right = right.into_folder().consume(2).complete();
    ///         reducer.reduce(left, right)
    ///     }
    /// }
    /// assert_eq!(ByHand.collect::<Vec<_>>(), [1, 2]);
    /// assert_eq!(ByHand.sum::<u32>(), 3);
    /// ```
    fn split_at(self, index: usize) -> (Self, Self, Self::Reducer);

    /// Turns this consumer into the folder for one piece.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Consumer, Folder, UnindexedConsumer};
    ///
    /// /// The items 1 to 4, in one piece.
    /// struct ByHand;
    /// impl ParallelIterator for ByHand {
    ///     type Item = u32;
    ///     fn drive_unindexed<C: UnindexedConsumer<u32>>(self, consumer: C) -> C::Result {
    ///         consumer.into_folder().consume_iter(1..=4).complete()
    ///     }
    /// }
    /// assert_eq!(ByHand.map(|x| x * 10).collect::<Vec<_>>(), [10, 20, 30, 40]);
    /// ```
    fn into_folder(self) -> Self::Folder;

    /// True when no more items are wanted (a short-circuiting search has succeeded).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
    ///
    /// /// 1 to 1000 in pieces of 10, skipping the pieces nobody wants any more.
    /// struct ByHand;
    /// impl ParallelIterator for ByHand {
    ///     type Item = u32;
    ///     fn drive_unindexed<C: UnindexedConsumer<u32>>(self, consumer: C) -> C::Result {
    ///         let mut pieces = Vec::new();
    ///         for start in (1..=1000).step_by(10) {
    ///             if consumer.full() {
    ///                 break; // a search has found what it wanted
    ///             }
    ///             let piece = consumer.split_off_left().into_folder();
    ///             let result = piece.consume_iter(start..start + 10).complete();
    ///             pieces.push((result, consumer.to_reducer()));
    ///         }
    ///         let rest = consumer.into_folder().complete();
    ///         pieces.into_iter().rev().fold(rest, |acc, (r, reducer)| reducer.reduce(r, acc))
    ///     }
    /// }
    /// assert_eq!(ByHand.find_first(|&x| x % 7 == 0), Some(7));
    /// assert_eq!(ByHand.count(), 1000);
    /// ```
    fn full(&self) -> bool;

    /// Not part of the API (hidden, may change without notice): true when the drivers
    /// should fold this consumer's whole input as one piece, without splitting it.
    /// Only consumers made by [`UnindexedConsumer::continue_after`] say so: a
    /// `flat_map` hands them small inner iterators, whose pieces no user code sees, and
    /// splitting those would cost more than their items. A driver that splits anyway
    /// stays correct, only slower.
    #[doc(hidden)]
    fn fold_whole(&self) -> bool {
        false
    }
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
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
    ///
    /// /// The items 1 and 2, split without an index.
    /// struct ByHand;
    /// impl ParallelIterator for ByHand {
    ///     type Item = u32;
    ///     fn drive_unindexed<C: UnindexedConsumer<u32>>(self, consumer: C) -> C::Result {
    ///         let left = consumer.split_off_left();
    ///         let reducer = consumer.to_reducer();
    ///         let l = left.into_folder().consume(1).complete();
    ///         let r = consumer.into_folder().consume(2).complete();
    ///         reducer.reduce(l, r)
    ///     }
    /// }
    /// assert_eq!(ByHand.collect::<Vec<_>>(), [1, 2]);
    /// ```
    fn split_off_left(&self) -> Self;
    /// The reducer joining a result of `split_off_left()` (left) with one of `self`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::iter::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
    ///
    /// /// Three pieces, 1 | 2 | 3, each split off the left of the one after it.
    /// struct ByHand;
    /// impl ParallelIterator for ByHand {
    ///     type Item = u32;
    ///     fn drive_unindexed<C: UnindexedConsumer<u32>>(self, consumer: C) -> C::Result {
    ///         let middle = consumer.split_off_left();
    ///         let first = middle.split_off_left();
    ///         let (inner, outer) = (middle.to_reducer(), consumer.to_reducer());
    ///         let r1 = first.into_folder().consume(1).complete();
    ///         let r2 = middle.into_folder().consume(2).complete();
    ///         let r3 = consumer.into_folder().consume(3).complete();
    ///         outer.reduce(inner.reduce(r1, r2), r3)
    ///     }
    /// }
    /// assert_eq!(ByHand.collect::<Vec<_>>(), [1, 2, 3]);
    /// ```
    fn to_reducer(&self) -> Self::Reducer;

    /// Not part of the API (hidden, may change without notice): calls `callback` with
    /// a consumer like `split_off_left()` whose result is `before` (if any) followed
    /// by the items it receives, the first of them appended to the last piece of
    /// `before` rather than to a piece of their own; that consumer folds its input
    /// whole (see [`Consumer::fold_whole`]). Returns `Err` with both arguments from
    /// consumers whose pieces user code can see (a `fold` calls its identity once per
    /// piece) or that do not support it: the default.
    ///
    /// `flat_map` uses it to fold small inner iterators into the piece it is filling,
    /// as a sequential loop would, where the pieces are invisible (`collect`).
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    fn continue_after<CB>(
        &self,
        before: Option<Self::Result>,
        callback: CB,
    ) -> Result<CB::Output, (Option<Self::Result>, CB)>
    where
        CB: ContinueCallback<Item, Self::Result>,
    {
        Err((before, callback))
    }
}

/// Not part of the API (hidden, may change without notice): receives the consumer of
/// [`UnindexedConsumer::continue_after`], whose type the caller cannot name.
#[doc(hidden)]
pub trait ContinueCallback<Item, R> {
    /// What the callback returns.
    type Output;
    /// Called with the consumer.
    fn call<C>(self, consumer: C) -> Self::Output
    where
        C: UnindexedConsumer<Item, Result = R>;
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
    ///
    /// ```
    /// // `Total(sum, limit)` adds items up and is full once the sum reaches `limit`.
    /// # use prorata::iter::plumbing::Folder;
    /// # struct Total(u64, u64);
    /// # impl Folder<u64> for Total {
    /// #     type Result = u64;
    /// #     fn consume(self, item: u64) -> Self { Total(self.0 + item, self.1) }
    /// #     fn complete(self) -> u64 { self.0 }
    /// #     fn full(&self) -> bool { self.0 >= self.1 }
    /// # }
    /// assert_eq!(Total(0, 100).consume(3).consume(4).complete(), 7);
    /// ```
    fn consume(self, item: Item) -> Self;

    /// Eats items until the iterator ends or the folder is full.
    ///
    /// ```
    /// // `Total(sum, limit)` adds items up and is full once the sum reaches `limit`.
    /// # use prorata::iter::plumbing::Folder;
    /// # struct Total(u64, u64);
    /// # impl Folder<u64> for Total {
    /// #     type Result = u64;
    /// #     fn consume(self, item: u64) -> Self { Total(self.0 + item, self.1) }
    /// #     fn complete(self) -> u64 { self.0 }
    /// #     fn full(&self) -> bool { self.0 >= self.1 }
    /// # }
    /// assert_eq!(Total(0, 1000).consume_iter(1..=10).complete(), 55);
    /// assert_eq!(Total(0, 10).consume_iter(1..=10).complete(), 10); // 1 + 2 + 3 + 4, then full
    /// ```
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
    ///
    /// ```
    /// // `Total(sum, limit)` adds items up and is full once the sum reaches `limit`.
    /// # use prorata::iter::plumbing::Folder;
    /// # struct Total(u64, u64);
    /// # impl Folder<u64> for Total {
    /// #     type Result = u64;
    /// #     fn consume(self, item: u64) -> Self { Total(self.0 + item, self.1) }
    /// #     fn complete(self) -> u64 { self.0 }
    /// #     fn full(&self) -> bool { self.0 >= self.1 }
    /// # }
    /// let folder = Total(0, 100).consume_iter([5, 6]);
    /// assert_eq!(folder.complete(), 11);
    /// ```
    fn complete(self) -> Self::Result;

    /// True when no more items are wanted.
    ///
    /// ```
    /// // `Total(sum, limit)` adds items up and is full once the sum reaches `limit`.
    /// # use prorata::iter::plumbing::Folder;
    /// # struct Total(u64, u64);
    /// # impl Folder<u64> for Total {
    /// #     type Result = u64;
    /// #     fn consume(self, item: u64) -> Self { Total(self.0 + item, self.1) }
    /// #     fn complete(self) -> u64 { self.0 }
    /// #     fn full(&self) -> bool { self.0 >= self.1 }
    /// # }
    /// assert!(!Total(0, 10).consume(9).full());
    /// assert!(Total(0, 10).consume(9).consume(1).full());
    /// ```
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
    ///
    /// ```
    /// use prorata::iter::plumbing::Reducer;
    ///
    /// struct Longest;
    /// impl Reducer<String> for Longest {
    ///     fn reduce(self, left: String, right: String) -> String {
    ///         if right.len() > left.len() { right } else { left } // ties go left
    ///     }
    /// }
    /// assert_eq!(Longest.reduce("abc".into(), "xyz".into()), "abc");
    /// assert_eq!(Longest.reduce("ab".into(), "xyz".into()), "xyz");
    /// ```
    fn reduce(self, left: Result, right: Result) -> Result;
}
