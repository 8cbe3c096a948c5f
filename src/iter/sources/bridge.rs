//! `par_bridge()`: turns any sequential `Iterator` into a parallel iterator. Workers
//! pull items from the shared iterator under a lock, so items are processed in
//! parallel but reach the consumer in no particular order.
//!
//! A worker takes one item per lock, as in Rayon. An iterator may be fed by the items
//! it yields (a directory walker whose `next()` waits for the children of the
//! directories being read): a worker that took a batch and waited in `next()` for more
//! would wait for its own unprocessed items, for ever. And `next()` may have side
//! effects: after a short-circuit, each worker has pulled at most the one item it held.
//!
//! A worker leaves when helping does not pay. Where `next()` (under the lock) takes
//! longer than the work after the bridge, the lock is the bottleneck: the items go
//! through it one after another however many workers pull them, and a second worker
//! only saves the first the work after the lock, while each item it takes moves to
//! its core along with the iterator's state (cache misses inside the lock). Two
//! workers taking turns on light items were slower than one alone (docs/benchmarks.md,
//! "par_bridge"). So a worker that finds the lock taken times the next few items: the
//! time from each try of the lock to its release, and the work after it. If the lock
//! took longer, and the work was cheaper than moving an item between cores, the
//! worker leaves the next time it finds the lock taken, and the worker that holds the
//! lock carries on. Leaving only when another worker holds the lock keeps every item
//! pulled: that worker comes back for the next item after its own, or has seen the
//! end (the loom model in `loom_tests.rs` checks it). A worker that finds the lock
//! free reads no clock. A worker whose consumer is full stops too, and a worker that
//! left does not come back: after a `find_first` whose piece found its item, say, the
//! items that no one pulled yet are dropped unseen; the bridge's order is arbitrary,
//! so the item found is as much a first as another.
//!
//! Once every other worker of the pool has left, the last one takes the iterator out
//! of the lock and pulls the rest on its own, with no lock per item, still handing
//! each item on before the next `next()`. A worker that comes later finds the
//! iterator gone and stops, as after its end.

#[cfg(all(loom, test))]
mod loom_tests;

#[cfg(all(loom, test))]
use loom::sync::Mutex;
#[cfg(all(loom, test))]
use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
#[cfg(not(all(loom, test)))]
use std::sync::Mutex;
use std::sync::TryLockError;
#[cfg(not(all(loom, test)))]
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::iter::plumbing::*;
use crate::iter::*;

/// Converts a sequential iterator into a parallel one (`iter.par_bridge()`).
///
/// The pool's workers pull the items one at a time under a lock and hand each to the
/// rest of the pipeline, in no particular order. Where the work is in the iterator's
/// own `next()` rather than after the bridge, extra workers cannot speed it up, and a
/// worker that mostly waits for the lock leaves: such a loop may run on fewer workers
/// than the pool has, down to one, which then pulls the rest without the lock.
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
        let shared = Shared::new(self.iter, crate::current_num_threads());
        bridge_unindexed(BridgeProducer { shared: &shared }, consumer)
    }
}

struct Shared<Iter> {
    /// `None` once the iterator has ended, or once the last worker took it out.
    iter: Mutex<Option<Iter>>,
    /// How many more pieces may be split off: one per worker.
    splits: AtomicUsize,
    /// Per worker: whether it already runs a pulling loop, or ran one. `next()` or the
    /// consumer may call into the pool, and the worker may then steal another piece of
    /// this bridge while it holds the lock; that piece must not pull (the lock is not
    /// reentrant), and need not: the outer loop pulls until the iterator ends. A worker
    /// runs one pulling loop per bridge, so one that left does not come back.
    pulling: Vec<AtomicBool>,
    /// How many of the loops marked in `pulling` have ended: when all but one have,
    /// the last one is alone for good.
    left: AtomicUsize,
}

impl<Iter: Iterator> Shared<Iter> {
    fn new(iter: Iter, threads: usize) -> Self {
        Shared {
            iter: Mutex::new(Some(iter)),
            splits: AtomicUsize::new(threads),
            pulling: (0..threads.max(1))
                .map(|_| AtomicBool::new(false))
                .collect(),
            left: AtomicUsize::new(0),
        }
    }

    /// Marks the loop of the worker at `index` (`None`: not a worker of the pool) as
    /// started; `None` if that worker already runs or ran one (a nested piece), else
    /// whether the loop is one of the marked ones.
    fn start_pulling(&self, index: Option<usize>) -> Option<bool> {
        let Some(index) = index else {
            return Some(false);
        };
        let flag = &self.pulling[index % self.pulling.len()];
        (!flag.swap(true, Ordering::Relaxed)).then_some(true)
    }

    /// Whether every other marked loop has ended: no other worker will pull again.
    fn alone(&self) -> bool {
        self.left.load(Ordering::Relaxed) + 1 >= self.pulling.len()
    }

    /// One worker's pulling loop: takes one item at a time under the lock and hands
    /// it to `folder`. Ends when the iterator ends, when the folder is full, when
    /// another worker panicked in `next()` (the lock is poisoned), or when `patience`
    /// says leave while another worker holds the lock. `marked`: whether this loop
    /// is counted in `left` when it ends. A loop left alone pulls the rest without
    /// the lock, still one item at a time through `consume`: not through the folder's
    /// `consume_iter`, whose contract lets it pull items ahead of the ones it has
    /// handled (a self-feeding iterator would then wait for ever; a `fold` there cost
    /// 18 fewer instructions an item, docs/benchmarks.md, "par_bridge").
    fn pull<F: Folder<Iter::Item>>(
        &self,
        marked: bool,
        patience: &mut impl Patience,
        mut folder: F,
    ) -> F {
        loop {
            patience.before_try();
            let mut guard = match self.iter.try_lock() {
                Ok(guard) => guard,
                Err(TryLockError::Poisoned(_)) => break,
                Err(TryLockError::WouldBlock) => {
                    // Another worker holds the lock, and takes the lock again after
                    // its item (or saw the end): leaving now loses no item.
                    if patience.leave_when_busy() {
                        break;
                    }
                    // std's mutex spins a little (reading, not writing, the lock's
                    // word), then sleeps.
                    let Ok(guard) = self.iter.lock() else { break };
                    guard
                }
            };
            if marked && self.alone() {
                let iter = guard.take();
                drop(guard);
                if let Some(iter) = iter {
                    // Nobody else pulls: the rest without the lock.
                    for item in iter {
                        folder = folder.consume(item);
                        if folder.full() {
                            break;
                        }
                    }
                }
                break;
            }
            let Some(iter) = guard.as_mut() else { break };
            let Some(item) = iter.next() else {
                *guard = None;
                break;
            };
            drop(guard);
            patience.pulled();
            folder = folder.consume(item);
            if folder.full() {
                break;
            }
        }
        if marked {
            self.left.fetch_add(1, Ordering::Relaxed);
        }
        folder
    }
}

/// What a pulling loop asks and tells about the lock: whether to leave when it finds
/// the lock taken, and the moments that the answer is measured by.
trait Patience {
    /// Before each try of the lock: the end of the previous item's work.
    fn before_try(&mut self);
    /// The lock is taken: true to leave now, false to wait for it.
    fn leave_when_busy(&mut self) -> bool;
    /// An item was pulled and the lock released: its work begins.
    fn pulled(&mut self);
}

/// Leaves where the lock is crowded and the work after it cheap. After it finds the
/// lock taken, a worker times a window of items: the time from each try of the lock
/// to its release (waiting for the lock, then `next()`), and the time from the release
/// to the next try (the work after the bridge). No clock is read inside the lock.
#[derive(Default)]
struct Contention {
    /// While a window is timed: when the current try of the lock, or item, began.
    since: Option<Instant>,
    /// Items timed in the current window.
    items: u32,
    at_lock: Duration,
    worked: Duration,
    /// The verdict of the last window: leave when the lock is next found taken. It
    /// holds for the next `WINDOW` items, then lapses.
    crowded: bool,
    /// Items to pull before a lock found taken starts a window again: after a verdict
    /// to stay, the next window waits a while, so that a loop that keeps finding the
    /// lock taken reads the clock on one item in nine.
    quiet: u32,
}

/// Items timed per window; a verdict to leave holds for as many.
const WINDOW: u32 = 16;

/// Items after a verdict to stay before the next window.
const QUIET: u32 = 8 * WINDOW;

/// Work per item below which helping at a crowded lock does not pay: about what an
/// item costs to move to another core (the lock's cache line, the iterator's state,
/// the item). Where the lock is the bottleneck, the items go through it one after
/// another whether one worker pulls them or several; a second worker saves the first
/// the work after the lock (this) and costs it the move (docs/benchmarks.md,
/// "par_bridge", the crowded rows).
const CHEAP: Duration = Duration::from_nanos(120);

impl Patience for Contention {
    #[inline]
    fn before_try(&mut self) {
        if let Some(since) = self.since {
            let now = Instant::now();
            self.worked += now - since;
            if self.items < WINDOW {
                self.since = Some(now);
            } else {
                let leave = self.at_lock > self.worked && self.worked < CHEAP * WINDOW;
                *self = Contention {
                    crowded: leave,
                    quiet: if leave { WINDOW } else { QUIET },
                    ..Contention::default()
                };
            }
        }
    }

    #[cold]
    fn leave_when_busy(&mut self) -> bool {
        if self.crowded {
            return true;
        }
        if self.since.is_none() && self.quiet == 0 {
            self.since = Some(Instant::now());
        }
        false
    }

    #[inline]
    fn pulled(&mut self) {
        if let Some(since) = self.since {
            let now = Instant::now();
            self.at_lock += now - since;
            self.items += 1;
            self.since = Some(now);
        } else if self.quiet > 0 {
            self.quiet -= 1;
            if self.quiet == 0 {
                self.crowded = false;
            }
        }
    }
}

struct BridgeProducer<'a, Iter> {
    shared: &'a Shared<Iter>,
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

    fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
        let Some(marked) = self.shared.start_pulling(crate::current_thread_index()) else {
            return folder;
        };
        self.shared.pull(marked, &mut Contention::default(), folder)
    }
}
