//! The producer, consumer, folder and sequential iterator that count items into a bar.
//! Splitting clones the bar (a reference count); each sequential piece counts into its
//! own [`Tally`], so pieces run by different workers never share a counter on the hot
//! path.

use indicatif::ProgressBar;

use super::tally::Tally;
use crate::iter::plumbing::{Consumer, Folder, Producer, UnindexedConsumer};

/// A consumer that counts every item it receives into `bar`, then passes it on.
pub(super) struct ProgressConsumer<C> {
    base: C,
    bar: ProgressBar,
}

impl<C> ProgressConsumer<C> {
    pub(super) fn new(base: C, bar: ProgressBar) -> Self {
        ProgressConsumer { base, bar }
    }
}

impl<T, C: Consumer<T>> Consumer<T> for ProgressConsumer<C> {
    type Folder = ProgressFolder<C::Folder>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, Self::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let left = ProgressConsumer::new(left, self.bar.clone());
        (left, ProgressConsumer::new(right, self.bar), reducer)
    }

    fn into_folder(self) -> Self::Folder {
        ProgressFolder {
            base: self.base.into_folder(),
            tally: Tally::new(self.bar),
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C: UnindexedConsumer<T>> UnindexedConsumer<T> for ProgressConsumer<C> {
    fn split_off_left(&self) -> Self {
        ProgressConsumer::new(self.base.split_off_left(), self.bar.clone())
    }

    fn to_reducer(&self) -> Self::Reducer {
        self.base.to_reducer()
    }
}

/// A folder that counts every item into its tally before passing it on.
pub(super) struct ProgressFolder<F> {
    base: F,
    tally: Tally,
}

impl<T, F: Folder<T>> Folder<T> for ProgressFolder<F> {
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        self.tally.add(1);
        self.base = self.base.consume(item);
        self
    }

    /// Hands the items on through the base folder's own `consume_iter` (which may be
    /// faster than item by item), counting those it takes in a plain counter, so the
    /// tally is touched once per chunk, not in the loop. An iterator no longer than a
    /// chunk (the usual case: the bridge folds runs of a few thousand items) goes on
    /// whole, so the base loop runs as fast as without a bar (measured on a map-sum of
    /// half-nanosecond items); a longer one goes a chunk at a time.
    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let ProgressFolder {
            mut base,
            mut tally,
        } = self;
        let mut iter = iter.into_iter();
        loop {
            let chunk = tally.chunk();
            let mut counter = tally.counter();
            if fits(&iter, chunk) {
                base = base.consume_iter(iter.inspect(|_| counter.taken += 1));
                drop(counter);
                return ProgressFolder { base, tally };
            }
            base = base.consume_iter(iter.by_ref().take(chunk).inspect(|_| counter.taken += 1));
            let taken = counter.taken;
            drop(counter);
            if taken < chunk || base.full() {
                return ProgressFolder { base, tally };
            }
        }
    }

    /// The tally is dropped here, handing over what it still counts.
    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

/// A producer whose pieces count the items they yield into `bar`.
pub(super) struct ProgressProducer<P> {
    base: P,
    bar: ProgressBar,
}

impl<P> ProgressProducer<P> {
    pub(super) fn new(base: P, bar: ProgressBar) -> Self {
        ProgressProducer { base, bar }
    }
}

impl<P: Producer> Producer for ProgressProducer<P> {
    type Item = P::Item;
    type IntoIter = Counted<P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        Counted {
            iter: self.base.into_iter(),
            tally: Tally::new(self.bar),
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(index);
        let left = ProgressProducer::new(left, self.bar.clone());
        (left, ProgressProducer::new(right, self.bar))
    }

    /// Keeps the base producer's own `fold_with`, counting in a folder around `folder`.
    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>,
    {
        let counting = ProgressFolder {
            base: folder,
            tally: Tally::new(self.bar),
        };
        self.base.fold_with(counting).base
    }
}

/// The sequential iterator of a [`ProgressProducer`] piece: counts what it yields, from
/// either end. Adaptors that pull items one by one (`zip`, `enumerate`, ...) pay a
/// branch per item, and their loop no longer vectorises: about a nanosecond per item.
pub(super) struct Counted<I> {
    iter: I,
    tally: Tally,
}

impl<I: Iterator> Iterator for Counted<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let item = self.iter.next()?;
        self.tally.add(1);
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }

    /// Whole or a chunk at a time, as `ProgressFolder::consume_iter`.
    fn fold<B, G>(self, init: B, mut f: G) -> B
    where
        G: FnMut(B, I::Item) -> B,
    {
        let Counted {
            mut iter,
            mut tally,
        } = self;
        let mut acc = init;
        loop {
            let chunk = tally.chunk();
            let mut counter = tally.counter();
            let mut counted = |acc, item| {
                counter.taken += 1;
                f(acc, item)
            };
            if fits(&iter, chunk) {
                return iter.fold(acc, counted);
            }
            acc = iter.by_ref().take(chunk).fold(acc, &mut counted);
            if counter.taken < chunk {
                return acc;
            }
        }
    }
}

impl<I: DoubleEndedIterator> DoubleEndedIterator for Counted<I> {
    fn next_back(&mut self) -> Option<I::Item> {
        let item = self.iter.next_back()?;
        self.tally.add(1);
        Some(item)
    }
}

impl<I: ExactSizeIterator> ExactSizeIterator for Counted<I> {}

/// Whether `iter` promises at most `chunk` more items (a wrong promise only delays the
/// bar: the items are counted as they pass either way).
fn fits<I: Iterator>(iter: &I, chunk: usize) -> bool {
    iter.size_hint().1.is_some_and(|most| most <= chunk)
}
