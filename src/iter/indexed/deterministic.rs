//! `deterministic`: split points that depend only on the length, so that reductions
//! (`sum`, `reduce`, `fold` of floats, ...) give the same bits on any pool, in any run.
//!
//! The adaptive driver splits where thieves are, so the grouping of a float sum
//! changes from run to run (oneTBB's `parallel_deterministic_reduce` is the same
//! remedy). Here the tree of pieces is fixed: a piece of `len` items is cut at
//! `len / 2` while `len / 2` is at least the leaf length, each leaf is folded from left
//! to right, and the halves' results are joined left with right. Which thread runs
//! which piece changes nothing.

use super::len_limits::{Limit, LimitCallback};
use crate::iter::plumbing::*;
use crate::iter::*;

/// The longest leaf of the default tree: long enough that the joins cost little
/// against summing the items.
const MAX_DEFAULT_LEAF: usize = 4096;

/// Pieces the default tree makes at least (when there are that many items), so that
/// pools of up to this many workers all get some.
const MIN_DEFAULT_LEAVES: usize = 64;

/// The iterator made by [`IndexedParallelIterator::deterministic`].
///
/// ```
/// use prorata::prelude::*;
/// let v: Vec<f64> = (0..10_000).map(|i| 1.0 / (1.0 + i as f64)).collect();
/// let d: prorata::iter::Deterministic<_> = v.par_iter().deterministic();
/// assert_eq!(d.leaf_len(), 157);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Deterministic<I> {
    base: I,
    leaf: Option<usize>,
}

impl<I: IndexedParallelIterator> Deterministic<I> {
    pub(crate) fn new(base: I) -> Self {
        Deterministic { base, leaf: None }
    }

    /// Sets the leaf length: pieces are cut at their middle while their halves have
    /// at least `leaf_len` items (0 counts as 1). Use a short one for expensive items,
    /// so that every worker gets some; the default is `ceil(len / 64)`, at most 4096.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let d = (0..100u32).into_par_iter().deterministic().with_leaf_len(10);
    /// assert_eq!(d.leaf_len(), 10);
    /// assert_eq!(d.map(|x| x as f32).sum::<f32>(), 4950.0);
    /// ```
    pub fn with_leaf_len(self, leaf_len: usize) -> Self {
        Deterministic {
            leaf: Some(leaf_len.max(1)),
            ..self
        }
    }

    /// The leaf length in use: the one given, or the default for this length.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..1_000_000u32).into_par_iter().deterministic().leaf_len(), 4096);
    /// ```
    pub fn leaf_len(&self) -> usize {
        let default = || {
            let len = self.base.len();
            len.div_ceil(MIN_DEFAULT_LEAVES).clamp(1, MAX_DEFAULT_LEAF)
        };
        self.leaf.unwrap_or_else(default)
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for Deterministic<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.base.len())
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for Deterministic<I> {
    fn len(&self) -> usize {
        self.base.len()
    }

    /// Drives `consumer` through the fixed tree, not the adaptive driver.
    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        let (len, leaf) = (self.base.len(), self.leaf_len());
        return self.with_producer(Fixed {
            len,
            leaf,
            consumer,
        });

        struct Fixed<C> {
            len: usize,
            leaf: usize,
            consumer: C,
        }

        impl<T, C: Consumer<T>> ProducerCallback<T> for Fixed<C> {
            type Output = C::Result;

            fn callback<P: Producer<Item = T>>(self, producer: P) -> C::Result {
                split_fixed(self.len, self.leaf, producer, self.consumer)
            }
        }
    }

    /// Hands out a producer whose length bounds are both the leaf length, so that an
    /// indexed adaptor above (`zip`, `enumerate`, ...), driven by the adaptive driver,
    /// cuts the same tree.
    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let limit = Limit::Exact(self.leaf_len());
        self.base.with_producer(LimitCallback { callback, limit })
    }
}

/// Cuts `len` items at the middle while the halves are at least `leaf` long, and
/// joins the results left with right.
fn split_fixed<P, C>(len: usize, leaf: usize, producer: P, consumer: C) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    let mid = len / 2;
    if mid < leaf {
        return fold_with_safe_points(len, producer, consumer.into_folder()).complete();
    }
    let (left_producer, right_producer) = producer.split_at(mid);
    let (left_consumer, right_consumer, reducer) = consumer.split_at(mid);
    let (left, right) = crate::join(
        || split_fixed(mid, leaf, left_producer, left_consumer),
        || split_fixed(len - mid, leaf, right_producer, right_consumer),
    );
    reducer.reduce(left, right)
}
