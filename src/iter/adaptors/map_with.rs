//! `map_with` and `map_init`: map with a mutable state per sequential piece, either
//! cloned from one value or made by a closure.

use std::fmt;

use super::seed::{CallSeed, CloneSeed, Seed};
use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::map_with`].
///
/// ```
/// use prorata::prelude::*;
/// let m: prorata::iter::MapWith<_, _, _> =
///     (0..4usize).into_par_iter().map_with(10, |ten, x| *ten + x);
/// assert_eq!(m.len(), 4);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct MapWith<I, T, F> {
    base: I,
    item: T,
    map_op: F,
}

impl<I: fmt::Debug, T: fmt::Debug, F> fmt::Debug for MapWith<I, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapWith")
            .field("base", &self.base)
            .field("item", &self.item)
            .finish()
    }
}

impl<I, T, F> MapWith<I, T, F> {
    pub(crate) fn new(base: I, item: T, map_op: F) -> Self {
        MapWith { base, item, map_op }
    }
}

impl<I, T, F, R> ParallelIterator for MapWith<I, T, F>
where
    I: ParallelIterator,
    T: Send + Clone,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    type Item = R;

    fn drive_unindexed<C: UnindexedConsumer<R>>(self, consumer: C) -> C::Result {
        let seed = CloneSeed { value: self.item };
        let consumer = MapStateConsumer::new(consumer, seed, &self.map_op);
        self.base.drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I, T, F, R> IndexedParallelIterator for MapWith<I, T, F>
where
    I: IndexedParallelIterator,
    T: Send + Clone,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C: Consumer<R>>(self, consumer: C) -> C::Result {
        let seed = CloneSeed { value: self.item };
        self.base
            .drive(MapStateConsumer::new(consumer, seed, &self.map_op))
    }

    fn with_producer<CB: ProducerCallback<R>>(self, callback: CB) -> CB::Output {
        let seed = CloneSeed { value: self.item };
        self.base.with_producer(MapStateCallback {
            callback,
            seed,
            map_op: &self.map_op,
        })
    }
}

/// The iterator made by [`ParallelIterator::map_init`].
///
/// ```
/// use prorata::prelude::*;
/// let m: prorata::iter::MapInit<_, _, _> =
///     (0..4usize).into_par_iter().map_init(Vec::<u8>::new, |_buf, x| x);
/// assert_eq!(m.len(), 4);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct MapInit<I, INIT, F> {
    base: I,
    init: INIT,
    map_op: F,
}

impl<I: fmt::Debug, INIT, F> fmt::Debug for MapInit<I, INIT, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapInit").field("base", &self.base).finish()
    }
}

impl<I, INIT, F> MapInit<I, INIT, F> {
    pub(crate) fn new(base: I, init: INIT, map_op: F) -> Self {
        MapInit { base, init, map_op }
    }
}

impl<I, INIT, T, F, R> ParallelIterator for MapInit<I, INIT, F>
where
    I: ParallelIterator,
    INIT: Fn() -> T + Sync + Send,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    type Item = R;

    fn drive_unindexed<C: UnindexedConsumer<R>>(self, consumer: C) -> C::Result {
        let seed = CallSeed { make: &self.init };
        let consumer = MapStateConsumer::new(consumer, seed, &self.map_op);
        self.base.drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I, INIT, T, F, R> IndexedParallelIterator for MapInit<I, INIT, F>
where
    I: IndexedParallelIterator,
    INIT: Fn() -> T + Sync + Send,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C: Consumer<R>>(self, consumer: C) -> C::Result {
        let seed = CallSeed { make: &self.init };
        self.base
            .drive(MapStateConsumer::new(consumer, seed, &self.map_op))
    }

    fn with_producer<CB: ProducerCallback<R>>(self, callback: CB) -> CB::Output {
        self.base.with_producer(MapStateCallback {
            callback,
            seed: CallSeed { make: &self.init },
            map_op: &self.map_op,
        })
    }
}

struct MapStateCallback<'f, CB, S, F> {
    callback: CB,
    seed: S,
    map_op: &'f F,
}

impl<T, R, CB, S, F> ProducerCallback<T> for MapStateCallback<'_, CB, S, F>
where
    CB: ProducerCallback<R>,
    S: Seed,
    F: Fn(&mut S::Value, T) -> R + Sync,
{
    type Output = CB::Output;

    fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
        self.callback.callback(MapStateProducer {
            base,
            seed: self.seed,
            map_op: self.map_op,
        })
    }
}

struct MapStateProducer<'f, P, S, F> {
    base: P,
    seed: S,
    map_op: &'f F,
}

impl<'f, P, S, F, R> Producer for MapStateProducer<'f, P, S, F>
where
    P: Producer,
    S: Seed,
    F: Fn(&mut S::Value, P::Item) -> R + Sync,
{
    type Item = R;
    type IntoIter = MapStateIter<'f, P::IntoIter, S::Value, F>;

    fn into_iter(self) -> Self::IntoIter {
        MapStateIter {
            base: self.base.into_iter(),
            state: self.seed.into_value(),
            map_op: self.map_op,
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
        let map_op = self.map_op;
        let left = MapStateProducer {
            base: left,
            seed: self.seed.split(),
            map_op,
        };
        let right = MapStateProducer {
            base: right,
            seed: self.seed,
            map_op,
        };
        (left, right)
    }

    fn fold_with<G: Folder<R>>(self, folder: G) -> G {
        let folder = MapStateFolder {
            base: folder,
            state: self.seed.into_value(),
            map_op: self.map_op,
        };
        self.base.fold_with(folder).base
    }
}

/// The sequential iterator of one piece: the base's items mapped with the piece's state.
struct MapStateIter<'f, It, T, F> {
    base: It,
    state: T,
    map_op: &'f F,
}

impl<It, T, F, R> Iterator for MapStateIter<'_, It, T, F>
where
    It: Iterator,
    F: Fn(&mut T, It::Item) -> R,
{
    type Item = R;

    fn next(&mut self) -> Option<R> {
        let item = self.base.next()?;
        Some((self.map_op)(&mut self.state, item))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.base.size_hint()
    }
}

impl<It, T, F, R> DoubleEndedIterator for MapStateIter<'_, It, T, F>
where
    It: DoubleEndedIterator,
    F: Fn(&mut T, It::Item) -> R,
{
    fn next_back(&mut self) -> Option<R> {
        let item = self.base.next_back()?;
        Some((self.map_op)(&mut self.state, item))
    }
}

impl<It, T, F, R> ExactSizeIterator for MapStateIter<'_, It, T, F>
where
    It: ExactSizeIterator,
    F: Fn(&mut T, It::Item) -> R,
{
}

struct MapStateConsumer<'f, C, S, F> {
    base: C,
    seed: S,
    map_op: &'f F,
}

impl<'f, C, S, F> MapStateConsumer<'f, C, S, F> {
    fn new(base: C, seed: S, map_op: &'f F) -> Self {
        MapStateConsumer { base, seed, map_op }
    }
}

impl<'f, T, R, C, S, F> Consumer<T> for MapStateConsumer<'f, C, S, F>
where
    C: Consumer<R>,
    S: Seed,
    F: Fn(&mut S::Value, T) -> R + Sync,
{
    type Folder = MapStateFolder<'f, C::Folder, S::Value, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let left = MapStateConsumer::new(left, self.seed.split(), self.map_op);
        let right = MapStateConsumer::new(right, self.seed, self.map_op);
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        MapStateFolder {
            base: self.base.into_folder(),
            state: self.seed.into_value(),
            map_op: self.map_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, R, C, S, F> UnindexedConsumer<T> for MapStateConsumer<'_, C, S, F>
where
    C: UnindexedConsumer<R>,
    S: Seed,
    F: Fn(&mut S::Value, T) -> R + Sync,
{
    fn split_off_left(&self) -> Self {
        MapStateConsumer::new(self.base.split_off_left(), self.seed.split(), self.map_op)
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct MapStateFolder<'f, G, V, F> {
    base: G,
    state: V,
    map_op: &'f F,
}

impl<T, R, G, V, F> Folder<T> for MapStateFolder<'_, G, V, F>
where
    G: Folder<R>,
    F: Fn(&mut V, T) -> R,
{
    type Result = G::Result;

    fn consume(mut self, item: T) -> Self {
        let mapped = (self.map_op)(&mut self.state, item);
        self.base = self.base.consume(mapped);
        self
    }

    fn consume_iter<It: IntoIterator<Item = T>>(self, iter: It) -> Self {
        let MapStateFolder {
            base,
            mut state,
            map_op,
        } = self;
        let mapped = iter.into_iter().map(|item| map_op(&mut state, item));
        let base = base.consume_iter(mapped);
        MapStateFolder {
            base,
            state,
            map_op,
        }
    }

    fn complete(self) -> G::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
