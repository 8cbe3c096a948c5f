//! `map`: applies a function to every item.

use std::fmt;

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::map`].
///
/// ```
/// use prorata::prelude::*;
/// let m: prorata::iter::Map<_, _> = (0..4usize).into_par_iter().map(|x| x + 1);
/// assert_eq!(m.len(), 4);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Map<I, F> {
    base: I,
    map_op: F,
}

impl<I: fmt::Debug, F> fmt::Debug for Map<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Map").field("base", &self.base).finish()
    }
}

impl<I, F> Map<I, F> {
    pub(crate) fn new(base: I, map_op: F) -> Self {
        Map { base, map_op }
    }
}

impl<I, F, R> ParallelIterator for Map<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> R + Sync + Send,
    R: Send,
{
    type Item = R;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<R>,
    {
        let map_op = &self.map_op;
        self.base.drive_unindexed(MapConsumer {
            base: consumer,
            map_op,
        })
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I, F, R> IndexedParallelIterator for Map<I, F>
where
    I: IndexedParallelIterator,
    F: Fn(I::Item) -> R + Sync + Send,
    R: Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C: Consumer<R>>(self, consumer: C) -> C::Result {
        let map_op = &self.map_op;
        self.base.drive(MapConsumer {
            base: consumer,
            map_op,
        })
    }

    fn with_producer<CB: ProducerCallback<R>>(self, callback: CB) -> CB::Output {
        let map_op = &self.map_op;
        return self.base.with_producer(Callback { callback, map_op });

        struct Callback<'f, CB, F> {
            callback: CB,
            map_op: &'f F,
        }

        impl<T, R, CB, F> ProducerCallback<T> for Callback<'_, CB, F>
        where
            CB: ProducerCallback<R>,
            F: Fn(T) -> R + Sync,
        {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                self.callback.callback(MapProducer {
                    base,
                    map_op: self.map_op,
                })
            }
        }
    }
}

struct MapProducer<'f, P, F> {
    base: P,
    map_op: &'f F,
}

impl<'f, P, F, R> Producer for MapProducer<'f, P, F>
where
    P: Producer,
    F: Fn(P::Item) -> R + Sync,
{
    type Item = R;
    type IntoIter = std::iter::Map<P::IntoIter, &'f F>;

    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter().map(self.map_op)
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
        (
            MapProducer { base: left, map_op },
            MapProducer {
                base: right,
                map_op,
            },
        )
    }

    fn fold_with<G: Folder<R>>(self, folder: G) -> G {
        self.base
            .fold_with(MapFolder {
                base: folder,
                map_op: self.map_op,
            })
            .base
    }
}

struct MapConsumer<'f, C, F> {
    base: C,
    map_op: &'f F,
}

impl<'f, T, R, C, F> Consumer<T> for MapConsumer<'f, C, F>
where
    C: Consumer<R>,
    F: Fn(T) -> R + Sync,
{
    type Folder = MapFolder<'f, C::Folder, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let map_op = self.map_op;
        (
            MapConsumer { base: left, map_op },
            MapConsumer {
                base: right,
                map_op,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        MapFolder {
            base: self.base.into_folder(),
            map_op: self.map_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }

    fn fold_whole(&self) -> bool {
        self.base.fold_whole()
    }
}

impl<T, R, C, F> UnindexedConsumer<T> for MapConsumer<'_, C, F>
where
    C: UnindexedConsumer<R>,
    F: Fn(T) -> R + Sync,
{
    fn split_off_left(&self) -> Self {
        MapConsumer {
            base: self.base.split_off_left(),
            map_op: self.map_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }

    /// `map` sees items, not pieces: it passes on what its consumer allows.
    fn continue_after<CB>(
        &self,
        before: Option<C::Result>,
        callback: CB,
    ) -> Result<CB::Output, (Option<C::Result>, CB)>
    where
        CB: ContinueCallback<T, C::Result>,
    {
        let map_op = self.map_op;
        self.base
            .continue_after(
                before,
                MapCallback {
                    callback,
                    map_op,
                    marker: std::marker::PhantomData,
                },
            )
            .map_err(|(before, wrapped)| (before, wrapped.callback))
    }
}

/// Hands `callback` the consumer it gets, behind this `map` (of `T` items).
struct MapCallback<'f, CB, F, T> {
    callback: CB,
    map_op: &'f F,
    marker: std::marker::PhantomData<fn(T)>,
}

impl<T, R, Res, CB, F> ContinueCallback<R, Res> for MapCallback<'_, CB, F, T>
where
    CB: ContinueCallback<T, Res>,
    F: Fn(T) -> R + Sync,
{
    type Output = CB::Output;

    fn call<C>(self, consumer: C) -> CB::Output
    where
        C: UnindexedConsumer<R, Result = Res>,
    {
        self.callback.call(MapConsumer {
            base: consumer,
            map_op: self.map_op,
        })
    }
}

struct MapFolder<'f, G, F> {
    base: G,
    map_op: &'f F,
}

impl<T, R, G, F> Folder<T> for MapFolder<'_, G, F>
where
    G: Folder<R>,
    F: Fn(T) -> R,
{
    type Result = G::Result;

    fn consume(self, item: T) -> Self {
        let base = self.base.consume((self.map_op)(item));
        MapFolder {
            base,
            map_op: self.map_op,
        }
    }

    fn consume_iter<It: IntoIterator<Item = T>>(self, iter: It) -> Self {
        let base = self.base.consume_iter(iter.into_iter().map(self.map_op));
        MapFolder {
            base,
            map_op: self.map_op,
        }
    }

    fn complete(self) -> G::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
