//! `chunks`, `fold_chunks` and `fold_chunks_with`: items grouped in runs of
//! `chunk_size` (the last run may be shorter), each run turned into one item.

use std::fmt;
use std::sync::Arc;

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::chunks`].
///
/// ```
/// use prorata::prelude::*;
/// let c: prorata::iter::Chunks<_> = (0..10usize).into_par_iter().chunks(4);
/// assert_eq!(c.len(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Chunks<I> {
    base: I,
    size: usize,
}

/// The iterator made by [`IndexedParallelIterator::fold_chunks`].
///
/// ```
/// use prorata::prelude::*;
/// let c: prorata::iter::FoldChunks<_, _, _> =
///     (0..10usize).into_par_iter().fold_chunks(4, || 0, |a, x| a + x);
/// assert_eq!(c.len(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FoldChunks<I, ID, F> {
    base: I,
    size: usize,
    identity: ID,
    fold_op: F,
}

/// The iterator made by [`IndexedParallelIterator::fold_chunks_with`].
///
/// ```
/// use prorata::prelude::*;
/// let c: prorata::iter::FoldChunksWith<_, _, _> =
///     (0..10usize).into_par_iter().fold_chunks_with(4, 0, |a, x| a + x);
/// assert_eq!(c.len(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FoldChunksWith<I, U, F> {
    base: I,
    size: usize,
    item: U,
    fold_op: F,
}

impl<I: fmt::Debug, ID, F> fmt::Debug for FoldChunks<I, ID, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FoldChunks")
            .field("base", &self.base)
            .field("chunk_size", &self.size)
            .finish()
    }
}

impl<I: fmt::Debug, U: fmt::Debug, F> fmt::Debug for FoldChunksWith<I, U, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FoldChunksWith")
            .field("base", &self.base)
            .field("chunk_size", &self.size)
            .field("item", &self.item)
            .finish()
    }
}

impl<I> Chunks<I> {
    pub(crate) fn new(base: I, size: usize) -> Self {
        Chunks { base, size }
    }
}

impl<I, ID, F> FoldChunks<I, ID, F> {
    pub(crate) fn new(base: I, size: usize, identity: ID, fold_op: F) -> Self {
        FoldChunks {
            base,
            size,
            identity,
            fold_op,
        }
    }
}

impl<I, U, F> FoldChunksWith<I, U, F> {
    pub(crate) fn new(base: I, size: usize, item: U, fold_op: F) -> Self {
        FoldChunksWith {
            base,
            size,
            item,
            fold_op,
        }
    }
}

/// The three adaptors differ only in the item they build from each run of base items:
/// `into_parts` splits one into its base and that builder.
macro_rules! chunked_iter {
    ([$($gen:tt)*], $ty:ty, $item:ty, [$($bounds:tt)*], $into_parts:item) => {
        impl<$($gen)*> $ty
        where
            I: IndexedParallelIterator,
            $($bounds)*
        {
            $into_parts
        }

        impl<$($gen)*> ParallelIterator for $ty
        where
            I: IndexedParallelIterator,
            $($bounds)*
        {
            type Item = $item;

            fn drive_unindexed<C: UnindexedConsumer<$item>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl<$($gen)*> IndexedParallelIterator for $ty
        where
            I: IndexedParallelIterator,
            $($bounds)*
        {
            fn len(&self) -> usize {
                self.base.len().div_ceil(self.size)
            }

            fn drive<C: Consumer<$item>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn with_producer<CB: ProducerCallback<$item>>(self, callback: CB) -> CB::Output {
                let len = self.base.len();
                let size = self.size;
                let (base, make) = self.into_parts();
                base.with_producer(ChunkCallback {
                    callback,
                    size,
                    len,
                    make,
                })
            }
        }
    };
}

chunked_iter!(
    [I],
    Chunks<I>,
    Vec<I::Item>,
    [],
    fn into_parts(self) -> (I, impl MakeChunk<I::Item, Vec<I::Item>>) {
        (self.base, |run: RunIter<'_, I::Item>| run.collect())
    }
);

chunked_iter!(
    [I, ID, F, T],
    FoldChunks<I, ID, F>,
    T,
    [ID: Fn() -> T + Send + Sync, F: Fn(T, I::Item) -> T + Send + Sync, T: Send,],
    fn into_parts(self) -> (I, impl MakeChunk<I::Item, T>) {
        // Shared by every piece; an `Arc` because the closures need not be `Clone`.
        let ops = Arc::new((self.identity, self.fold_op));
        (self.base, move |run: RunIter<'_, I::Item>| {
            run.fold((ops.0)(), &ops.1)
        })
    }
);

chunked_iter!(
    [I, U, F],
    FoldChunksWith<I, U, F>,
    U,
    [U: Send + Clone, F: Fn(U, I::Item) -> U + Send + Sync,],
    fn into_parts(self) -> (I, impl MakeChunk<I::Item, U>) {
        // Each piece owns a clone of `item` (it need not be `Sync`); `fold_op` is shared.
        let (item, fold_op) = (self.item, Arc::new(self.fold_op));
        (self.base, move |run: RunIter<'_, I::Item>| {
            run.fold(item.clone(), &*fold_op)
        })
    }
);

/// A run of base items, as the closures building chunk items see it.
type RunIter<'a, T> = &'a mut dyn Iterator<Item = T>;

/// Builds one chunk item from a run of base items; cloned into every piece.
trait MakeChunk<T, R>: Fn(RunIter<'_, T>) -> R + Clone + Send {}

impl<T, R, M: Fn(RunIter<'_, T>) -> R + Clone + Send> MakeChunk<T, R> for M {}

struct ChunkCallback<CB, M> {
    callback: CB,
    size: usize,
    len: usize,
    make: M,
}

impl<T, R, CB, M> ProducerCallback<T> for ChunkCallback<CB, M>
where
    CB: ProducerCallback<R>,
    M: Fn(RunIter<'_, T>) -> R + Clone + Send,
{
    type Output = CB::Output;

    fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
        self.callback.callback(ChunkProducer {
            base,
            size: self.size,
            len: self.len,
            make: self.make,
        })
    }
}

/// `len` counts base items; each `size` of them make one item.
struct ChunkProducer<P, M> {
    base: P,
    size: usize,
    len: usize,
    make: M,
}

impl<P, M, R> Producer for ChunkProducer<P, M>
where
    P: Producer,
    M: Fn(RunIter<'_, P::Item>) -> R + Clone + Send,
{
    type Item = R;
    type IntoIter = ChunkSeq<P, M>;

    fn into_iter(self) -> Self::IntoIter {
        ChunkSeq {
            base: (self.len > 0).then_some(self.base),
            size: self.size,
            len: self.len,
            make: self.make,
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len().div_ceil(self.size)
    }

    fn max_len(&self) -> usize {
        (self.base.max_len() / self.size).max(1)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let at = index.saturating_mul(self.size).min(self.len);
        let (left, right) = self.base.split_at(at);
        let (size, make) = (self.size, self.make);
        (
            ChunkProducer {
                base: left,
                size,
                len: at,
                make: make.clone(),
            },
            ChunkProducer {
                base: right,
                size,
                len: self.len - at,
                make,
            },
        )
    }
}

/// The sequential iterator over chunks: it keeps splitting the base producer.
struct ChunkSeq<P, M> {
    base: Option<P>,
    size: usize,
    len: usize,
    make: M,
}

impl<P, M, R> ChunkSeq<P, M>
where
    P: Producer,
    M: Fn(RunIter<'_, P::Item>) -> R,
{
    fn build(&self, run: P) -> R {
        (self.make)(&mut run.into_iter())
    }
}

impl<P, M, R> Iterator for ChunkSeq<P, M>
where
    P: Producer,
    M: Fn(RunIter<'_, P::Item>) -> R,
{
    type Item = R;

    fn next(&mut self) -> Option<R> {
        let base = self.base.take()?;
        if self.len > self.size {
            let (run, rest) = base.split_at(self.size);
            self.base = Some(rest);
            self.len -= self.size;
            Some(self.build(run))
        } else {
            self.len = 0;
            Some(self.build(base))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len.div_ceil(self.size);
        (n, Some(n))
    }
}

impl<P, M, R> DoubleEndedIterator for ChunkSeq<P, M>
where
    P: Producer,
    M: Fn(RunIter<'_, P::Item>) -> R,
{
    fn next_back(&mut self) -> Option<R> {
        let base = self.base.take()?;
        if self.len > self.size {
            let last = match self.len % self.size {
                0 => self.size,
                short => short,
            };
            let (rest, run) = base.split_at(self.len - last);
            self.base = Some(rest);
            self.len -= last;
            Some(self.build(run))
        } else {
            self.len = 0;
            Some(self.build(base))
        }
    }
}

impl<P, M, R> ExactSizeIterator for ChunkSeq<P, M>
where
    P: Producer,
    M: Fn(RunIter<'_, P::Item>) -> R,
{
}
