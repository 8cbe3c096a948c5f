//! `par_bridge()`: turns any sequential `Iterator` into a parallel iterator. Workers
//! pull items from the shared iterator under a lock, so items are processed in
//! parallel but reach the consumer in no particular order.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::iter::plumbing::*;
use crate::iter::*;

/// Items a worker pulls per lock at most; it starts with one and doubles, so a short
/// iterator of expensive items is still shared among the workers.
const MAX_BATCH: usize = 64;

/// Converts a sequential iterator into a parallel one (`iter.par_bridge()`).
///
/// ```
/// use prorata::prelude::*;
/// let total = std::sync::atomic::AtomicU64::new(0);
/// (1..=100u64).filter(|x| x % 2 == 0).par_bridge().for_each(|x| {
///     total.fetch_add(x, std::sync::atomic::Ordering::Relaxed);
/// });
/// assert_eq!(total.into_inner(), 2550);
/// ```
pub trait ParallelBridge: Sized {
    /// Makes a parallel iterator that pulls from `self`.
    fn par_bridge(self) -> IterBridge<Self>;
}

impl<T> ParallelBridge for T
where
    T: Iterator<Item: Send> + Send,
{
    fn par_bridge(self) -> IterBridge<Self> {
        IterBridge { iter: self }
    }
}

/// The iterator made by [`ParallelBridge::par_bridge`].
///
/// ```
/// use prorata::prelude::*;
/// let b: prorata::iter::IterBridge<std::vec::IntoIter<u8>> = vec![1u8].into_iter().par_bridge();
/// assert_eq!(b.opt_len(), None);
/// ```
#[derive(Debug, Clone)]
pub struct IterBridge<Iter> {
    iter: Iter,
}

impl<Iter> ParallelIterator for IterBridge<Iter>
where
    Iter: Iterator<Item: Send> + Send,
{
    type Item = Iter::Item;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        let shared = Shared {
            iter: Mutex::new(Some(self.iter)),
            splits: AtomicUsize::new(crate::current_num_threads()),
        };
        bridge_unindexed(BridgeProducer { shared: &shared }, consumer)
    }
}

struct Shared<Iter> {
    /// `None` once the iterator has ended.
    iter: Mutex<Option<Iter>>,
    /// How many more pieces may be split off: one per worker.
    splits: AtomicUsize,
}

struct BridgeProducer<'a, Iter> {
    shared: &'a Shared<Iter>,
}

impl<Iter> BridgeProducer<'_, Iter>
where
    Iter: Iterator,
{
    /// Refills `batch` with up to `want` items; false once the iterator is done (or
    /// another worker panicked inside it).
    fn pull(&self, batch: &mut Vec<Iter::Item>, want: usize) -> bool {
        let Ok(mut guard) = self.shared.iter.lock() else {
            return false;
        };
        let Some(iter) = guard.as_mut() else {
            return false;
        };
        batch.extend(iter.by_ref().take(want));
        if batch.len() < want {
            *guard = None;
        }
        !batch.is_empty()
    }
}

impl<Iter> UnindexedProducer for BridgeProducer<'_, Iter>
where
    Iter: Iterator<Item: Send> + Send,
{
    type Item = Iter::Item;

    fn split(self) -> (Self, Option<Self>) {
        let spare = self
            .shared
            .splits
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
        let other = spare.ok().map(|_| BridgeProducer {
            shared: self.shared,
        });
        (self, other)
    }

    fn fold_with<F: Folder<Self::Item>>(self, mut folder: F) -> F {
        let mut batch = Vec::new();
        let mut want = 1;
        while !folder.full() && self.pull(&mut batch, want) {
            let mut items = batch.drain(..);
            folder = folder.consume_iter(&mut items);
            // Items left over when the folder filled up are dropped with `items`.
            drop(items);
            want = (want * 2).min(MAX_BATCH);
        }
        folder
    }
}
