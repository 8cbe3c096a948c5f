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
    fn into_parts(self) -> (I, CollectRun) {
        (self.base, CollectRun)
    }
);

chunked_iter!(
    [I, ID, F, T],
    FoldChunks<I, ID, F>,
    T,
    [ID: Fn() -> T + Send + Sync, F: Fn(T, I::Item) -> T + Send + Sync, T: Send,],
    fn into_parts(self) -> (I, FoldRun<ID, F>) {
        // Shared by every piece; an `Arc` because the closures need not be `Clone`.
        let ops = Arc::new((self.identity, self.fold_op));
        (self.base, FoldRun { ops })
    }

);

chunked_iter!(
    [I, U, F],
    FoldChunksWith<I, U, F>,
    U,
    [U: Send + Clone, F: Fn(U, I::Item) -> U + Send + Sync,],
    fn into_parts(self) -> (I, FoldRunWith<U, F>) {
        // Each piece owns a clone of `item` (it need not be `Sync`); `fold_op` is shared.
        let fold_op = Arc::new(self.fold_op);
        (self.base, FoldRunWith { item: self.item, fold_op })
    }

);

/// Builds one chunk item from a run of base items; cloned into every piece.
trait MakeChunk<T>: Clone + Send {
    type Output;

    fn make<It: Iterator<Item = T>>(&self, run: It) -> Self::Output;
}

/// For `chunks`: the run as a vector.
#[derive(Clone, Copy)]
struct CollectRun;

impl<T> MakeChunk<T> for CollectRun {
    type Output = Vec<T>;

    fn make<It: Iterator<Item = T>>(&self, run: It) -> Vec<T> {
        run.collect()
    }
}

/// For `fold_chunks`: the run folded from `identity()`.
struct FoldRun<ID, F> {
    ops: Arc<(ID, F)>,
}

impl<ID, F> Clone for FoldRun<ID, F> {
    fn clone(&self) -> Self {
        FoldRun {
            ops: Arc::clone(&self.ops),
        }
    }
}

impl<T, R, ID, F> MakeChunk<T> for FoldRun<ID, F>
where
    ID: Fn() -> R + Send + Sync,
    F: Fn(R, T) -> R + Send + Sync,
{
    type Output = R;

    fn make<It: Iterator<Item = T>>(&self, run: It) -> R {
        run.fold((self.ops.0)(), &self.ops.1)
    }
}

/// For `fold_chunks_with`: the run folded from a clone of `item`.
struct FoldRunWith<U, F> {
    item: U,
    fold_op: Arc<F>,
}

impl<U: Clone, F> Clone for FoldRunWith<U, F> {
    fn clone(&self) -> Self {
        FoldRunWith {
            item: self.item.clone(),
            fold_op: Arc::clone(&self.fold_op),
        }
    }
}

impl<T, U, F> MakeChunk<T> for FoldRunWith<U, F>
where
    U: Clone + Send,
    F: Fn(U, T) -> U + Send + Sync,
{
    type Output = U;

    fn make<It: Iterator<Item = T>>(&self, run: It) -> U {
        run.fold(self.item.clone(), &*self.fold_op)
    }
}

struct ChunkCallback<CB, M> {
    callback: CB,
    size: usize,
    len: usize,
    make: M,
}

impl<T, CB, M> ProducerCallback<T> for ChunkCallback<CB, M>
where
    M: MakeChunk<T>,
    CB: ProducerCallback<M::Output>,
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

impl<P, M> Producer for ChunkProducer<P, M>
where
    P: Producer,
    M: MakeChunk<P::Item>,
{
    type Item = M::Output;
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

impl<P, M> ChunkSeq<P, M>
where
    P: Producer,
    M: MakeChunk<P::Item>,
{
    fn build(&self, run: P) -> M::Output {
        self.make.make(run.into_iter())
    }
}

impl<P, M> Iterator for ChunkSeq<P, M>
where
    P: Producer,
    M: MakeChunk<P::Item>,
{
    type Item = M::Output;

    fn next(&mut self) -> Option<M::Output> {
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

impl<P, M> DoubleEndedIterator for ChunkSeq<P, M>
where
    P: Producer,
    M: MakeChunk<P::Item>,
{
    fn next_back(&mut self) -> Option<M::Output> {
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

impl<P, M> ExactSizeIterator for ChunkSeq<P, M>
where
    P: Producer,
    M: MakeChunk<P::Item>,
{
}
