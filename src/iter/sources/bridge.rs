//! `par_bridge()`: turns any sequential `Iterator` into a parallel iterator. Workers
//! pull items from the shared iterator under a lock, so items are processed in
//! parallel but reach the consumer in no particular order.
//!
//! A worker takes one item per lock, as in Rayon. An iterator may be fed by the items
//! it yields (a directory walker whose `next()` waits for the children of the
//! directories being read): a worker that took a batch and waited in `next()` for more
//! would wait for its own unprocessed items, for ever. And `next()` may have side
//! effects: after a short-circuit, each worker has pulled at most the one item it held.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::iter::plumbing::*;
use crate::iter::*;

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
        let threads = crate::current_num_threads();
        let shared = Shared {
            iter: Mutex::new(Some(self.iter)),
            splits: AtomicUsize::new(threads),
            pulling: (0..threads).map(|_| AtomicBool::new(false)).collect(),
        };
        bridge_unindexed(BridgeProducer { shared: &shared }, consumer)
    }
}

struct Shared<Iter> {
    /// `None` once the iterator has ended.
    iter: Mutex<Option<Iter>>,
    /// How many more pieces may be split off: one per worker.
    splits: AtomicUsize,
    /// Per worker: whether it already runs a pulling loop. `next()` or the consumer
    /// may call into the pool, and the worker may then steal another piece of this
    /// bridge while it holds the lock; that piece must not pull (the lock is not
    /// reentrant), and need not: the outer loop pulls until the iterator ends.
    pulling: Vec<AtomicBool>,
}

struct BridgeProducer<'a, Iter> {
    shared: &'a Shared<Iter>,
}

impl<Iter> BridgeProducer<'_, Iter>
where
    Iter: Iterator,
{
    /// The next item; `None` once the iterator is done (or another worker panicked
    /// inside it). The lock is held only for the one `next()`.
    fn pull(&self) -> Option<Iter::Item> {
        let mut guard = self.shared.iter.lock().ok()?;
        let item = guard.as_mut()?.next();
        if item.is_none() {
            *guard = None;
        }
        item
    }

    /// Marks this worker as pulling; false if it already was (a nested piece).
    fn start_pulling(&self) -> bool {
        let Some(index) = crate::current_thread_index() else {
            return true;
        };
        let flags = &self.shared.pulling;
        !flags[index % flags.len()].swap(true, Ordering::Relaxed)
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
        if !self.start_pulling() {
            return folder;
        }
        while !folder.full() {
            let Some(item) = self.pull() else { break };
            folder = folder.consume(item);
        }
        folder
    }
}
