//! The drivers: split a producer and a consumer in step, recursively, through
//! `join_context`, and fold the leaves sequentially.

use super::splitter::{LengthSplitter, Splitter};
use super::{Consumer, Folder, Producer, ProducerCallback, Reducer};
use super::{UnindexedConsumer, UnindexedProducer};
use crate::iter::IndexedParallelIterator;
use std::cell::Cell;

/// Drives an indexed parallel iterator into a consumer.
///
/// ```
/// use prorata::iter::IndexedParallelIterator;
/// use prorata::iter::plumbing::{bridge, Consumer};
///
/// // An indexed adaptor's `drive` usually ends in a bridge:
/// fn drive_it<I: IndexedParallelIterator, C: Consumer<I::Item>>(it: I, c: C) -> C::Result {
///     bridge(it, c)
/// }
/// ```
pub fn bridge<I, C>(par_iter: I, consumer: C) -> C::Result
where
    I: IndexedParallelIterator,
    C: Consumer<I::Item>,
{
    let len = par_iter.len();
    par_iter.with_producer(BridgeCallback { len, consumer })
}

struct BridgeCallback<C> {
    len: usize,
    consumer: C,
}

impl<C, T> ProducerCallback<T> for BridgeCallback<C>
where
    C: Consumer<T>,
{
    type Output = C::Result;

    fn callback<P>(self, producer: P) -> C::Result
    where
        P: Producer<Item = T>,
    {
        bridge_producer_consumer(self.len, producer, self.consumer)
    }
}

/// Splits `producer` (of `len` items) and `consumer` in step and runs the pieces in
/// parallel; the result is the consumer's result over all items, in order.
///
/// As in Rayon, the first split decides where the work runs: called from outside any
/// pool, a piece that is split goes to the global pool (through `join_context`), and
/// one too small to split (shorter than twice `with_min_len`, say) is folded on the
/// calling thread.
///
/// ```
/// use prorata::iter::plumbing::{bridge_producer_consumer, Producer};
/// // Typically called from `ProducerCallback::callback` or `drive`; see `bridge`.
/// fn run<P: Producer, C: prorata::iter::plumbing::Consumer<P::Item>>(
///     len: usize, p: P, c: C,
/// ) -> C::Result {
///     bridge_producer_consumer(len, p, c)
/// }
/// ```
pub fn bridge_producer_consumer<P, C>(len: usize, producer: P, consumer: C) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    let splitter = LengthSplitter::new(producer.min_len(), producer.max_len(), len);
    split_indexed(len, false, splitter, producer, consumer)
}

fn split_indexed<P, C>(
    len: usize,
    migrated: bool,
    mut splitter: LengthSplitter,
    producer: P,
    consumer: C,
) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    if consumer.fold_whole() || !splitter.try_split(len, migrated) {
        return fold_with_safe_points(len, producer, consumer.into_folder()).complete();
    }
    let mid = len / 2;
    let (left_producer, right_producer) = producer.split_at(mid);
    let (left_consumer, right_consumer, reducer) = consumer.split_at(mid);
    let (left, right) = crate::join_context(
        |ctx| split_indexed(mid, ctx.migrated(), splitter, left_producer, left_consumer),
        |ctx| {
            split_indexed(
                len - mid,
                ctx.migrated(),
                splitter,
                right_producer,
                right_consumer,
            )
        },
    );
    reducer.reduce(left, right)
}

/// Folds a leaf sequentially, in runs with a safe point between runs (where the
/// shares scheduler may ask the worker to give its core back; the pool's `Pacer`
/// sizes the runs). A loop, not recursion: a leaf may hold billions of items.
pub(crate) fn fold_with_safe_points<P, F>(len: usize, producer: P, mut folder: F) -> F
where
    P: Producer,
    F: Folder<P::Item>,
{
    let mut rest = producer;
    let mut left = len;
    let mut pacer = crate::pool::Pacer::new();
    while left > pacer.run() {
        let run = pacer.run();
        let (head, tail) = rest.split_at(run);
        folder = head.fold_with(folder);
        if folder.full() {
            return folder;
        }
        pacer.passed();
        rest = tail;
        left -= run;
    }
    rest.fold_with(folder)
}

/// Splits an unindexed producer and consumer in step and runs the pieces in parallel.
///
/// ```
/// use prorata::iter::plumbing::{bridge_unindexed, UnindexedConsumer, UnindexedProducer};
/// fn run<P: UnindexedProducer, C: UnindexedConsumer<P::Item>>(p: P, c: C) -> C::Result {
///     bridge_unindexed(p, c)
/// }
/// ```
pub fn bridge_unindexed<P, C>(producer: P, consumer: C) -> C::Result
where
    P: UnindexedProducer,
    C: UnindexedConsumer<P::Item>,
{
    split_unindexed(false, Splitter::new(), producer, consumer)
}

fn split_unindexed<P, C>(
    migrated: bool,
    mut splitter: Splitter,
    producer: P,
    consumer: C,
) -> C::Result
where
    P: UnindexedProducer,
    C: UnindexedConsumer<P::Item>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    if consumer.fold_whole() || !splitter.try_split(migrated) {
        return fold_unindexed(producer, consumer);
    }
    let (left_producer, right_producer) = match producer.split() {
        (left, Some(right)) => (left, right),
        (whole, None) => return fold_unindexed(whole, consumer),
    };
    let reducer = consumer.to_reducer();
    let left_consumer = consumer.split_off_left();
    let (left, right) = crate::join_context(
        |ctx| split_unindexed(ctx.migrated(), splitter, left_producer, left_consumer),
        |ctx| split_unindexed(ctx.migrated(), splitter, right_producer, consumer),
    );
    reducer.reduce(left, right)
}

fn fold_unindexed<P, C>(producer: P, consumer: C) -> C::Result
where
    P: UnindexedProducer,
    C: UnindexedConsumer<P::Item>,
{
    let pace = Pace {
        count: Cell::new(0),
        pacer: Cell::new(crate::pool::Pacer::new()),
    };
    let folder = SafePointFolder {
        inner: consumer.into_folder(),
        pace: &pace,
    };
    producer.fold_with(folder).inner.complete()
}

/// Where a leaf is between two safe points: items since the last one, and the pacer.
/// Kept outside the folder, which leaf loops move by value on every item: a folder
/// that carried them (and changed them on every item) was stored and reloaded with
/// each item, at a cost of several times the item's own work in tight loops.
struct Pace {
    count: Cell<usize>,
    pacer: Cell<crate::pool::Pacer>,
}

impl Pace {
    #[inline]
    fn run(&self) -> usize {
        self.pacer.get().run()
    }

    /// Counts `n` items; the safe point when a run is over.
    #[inline]
    fn add(&self, n: usize) {
        let count = self.count.get() + n;
        if count >= self.run() {
            self.passed();
        } else {
            self.count.set(count);
        }
    }

    #[cold]
    fn passed(&self) {
        self.count.set(0);
        let mut pacer = self.pacer.get();
        pacer.passed();
        self.pacer.set(pacer);
    }
}

/// Wraps a folder to pass a safe point after each run of items the pacer asks
/// for, for sources that cannot be cut into runs by index.
struct SafePointFolder<'p, F> {
    inner: F,
    pace: &'p Pace,
}

impl<T, F: Folder<T>> Folder<T> for SafePointFolder<'_, F> {
    type Result = F::Result;

    #[inline]
    fn consume(mut self, item: T) -> Self {
        self.pace.add(1);
        self.inner = self.inner.consume(item);
        self
    }

    /// Hands the items on in runs, through the inner folder's own `consume_iter` (its
    /// fast path: a `count` or `sum` over a run, not one `consume` per item), with a
    /// safe point between runs.
    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        let mut iter = iter.into_iter();
        // An iterator known to fit the current run goes on whole, uncounted item by
        // item (sources that cut their leaves into runs of their own, like the string
        // ones, keep their fast paths: a vectorised count of bytes, say).
        if let (_, Some(most)) = iter.size_hint() {
            let room = self.pace.run().saturating_sub(self.pace.count.get());
            if most > room && most <= self.pace.run() {
                // It would fit a whole run: the safe point a little early, rather
                // than counting each of its items.
                self.pace.passed();
                if self.inner.full() {
                    return self;
                }
            }
            if most <= self.pace.run().saturating_sub(self.pace.count.get()) {
                self.inner = self.inner.consume_iter(iter);
                self.pace.add(most);
                return self;
            }
        }
        loop {
            let room = self.pace.run().saturating_sub(self.pace.count.get()).max(1);
            let mut taken = 0;
            let run = iter.by_ref().take(room).inspect(|_| taken += 1);
            self.inner = self.inner.consume_iter(run);
            if taken < room {
                // The items ran out, or the inner folder is full.
                self.pace.add(taken);
                return self;
            }
            self.pace.passed();
            if self.inner.full() {
                return self;
            }
        }
    }

    fn complete(self) -> F::Result {
        self.inner.complete()
    }

    #[inline]
    fn full(&self) -> bool {
        self.inner.full()
    }
}
