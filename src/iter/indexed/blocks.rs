//! `by_exponential_blocks` and `by_uniform_blocks`: run the items block after block,
//! each block in parallel, so that a short-circuiting consumer stops before later
//! blocks start.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::by_exponential_blocks`]: blocks
/// start at one item per thread and double.
///
/// ```
/// use prorata::prelude::*;
/// let b: prorata::iter::ExponentialBlocks<_> = (0..10usize).into_par_iter().by_exponential_blocks();
/// assert_eq!(b.opt_len(), Some(10));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct ExponentialBlocks<I> {
    base: I,
}

/// The iterator made by [`IndexedParallelIterator::by_uniform_blocks`]: blocks of
/// `block_size` items (the last may be shorter).
///
/// ```
/// use prorata::prelude::*;
/// let b: prorata::iter::UniformBlocks<_> = (0..10usize).into_par_iter().by_uniform_blocks(4);
/// assert_eq!(b.opt_len(), Some(10));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct UniformBlocks<I> {
    base: I,
    block_size: usize,
}

impl<I> ExponentialBlocks<I> {
    pub(crate) fn new(base: I) -> Self {
        ExponentialBlocks { base }
    }
}

impl<I> UniformBlocks<I> {
    pub(crate) fn new(base: I, block_size: usize) -> Self {
        UniformBlocks { base, block_size }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for ExponentialBlocks<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let first = crate::current_num_threads();
        let sizes = std::iter::successors(Some(first), |&size| Some(size.saturating_mul(2)));
        drive_blocks(self.base, sizes, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.base.len())
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for UniformBlocks<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        drive_blocks(self.base, std::iter::repeat(self.block_size), consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.base.len())
    }
}

/// Runs `base` block by block, the blocks' sizes taken from `sizes`.
fn drive_blocks<I, S, C>(base: I, sizes: S, consumer: C) -> C::Result
where
    I: IndexedParallelIterator,
    S: Iterator<Item = usize>,
    C: UnindexedConsumer<I::Item>,
{
    let len = base.len();
    base.with_producer(BlocksCallback {
        consumer,
        sizes,
        len,
    })
}

struct BlocksCallback<C, S> {
    consumer: C,
    sizes: S,
    len: usize,
}

impl<T, C, S> ProducerCallback<T> for BlocksCallback<C, S>
where
    C: UnindexedConsumer<T>,
    S: Iterator<Item = usize>,
{
    type Output = C::Result;

    fn callback<P: Producer<Item = T>>(self, producer: P) -> C::Result {
        let BlocksCallback {
            mut consumer,
            mut sizes,
            len,
        } = self;
        let mut result: Option<C::Result> = None;
        let (mut rest, mut left) = (producer, len);
        while left > 0 && !consumer.full() {
            let size = sizes.next().unwrap_or(left).clamp(1, left);
            let (block, tail) = rest.split_at(size);
            let (block_consumer, tail_consumer, reducer) = consumer.split_at(size);
            let block_result = bridge_producer_consumer(size, block, block_consumer);
            result = Some(match result {
                None => block_result,
                Some(earlier) => reducer.reduce(earlier, block_result),
            });
            (rest, left, consumer) = (tail, left - size, tail_consumer);
        }
        match result {
            Some(result) => result,
            None => consumer.into_folder().complete(),
        }
    }
}
