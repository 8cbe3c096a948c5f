//! The injector (crossbeam's, with either kind of worker deque), and how a batch taken
//! from it reaches a BWoS deque.

use std::cell::RefCell;
use std::sync::OnceLock;

use super::{Local, Steal};

/// A multi-producer, multi-consumer FIFO queue for jobs from outside the pool.
///
/// Made on its first push: crossbeam's queue allocates a block of 63 slots when it is
/// made, and a pool has three per worker and one more (broadcasts and FIFO scopes
/// per worker, the pool's injector), most never used; a share made per request
/// would pay for all of them. Until the first push, every read finds it empty.
pub(crate) struct Injector<T>(OnceLock<crossbeam_deque::Injector<T>>);

impl<T> Injector<T> {
    /// A new, empty queue (nothing allocated yet).
    pub(crate) fn new() -> Self {
        Injector(OnceLock::new())
    }

    /// Appends a job.
    #[inline]
    pub(crate) fn push(&self, job: T) {
        self.0.get_or_init(crossbeam_deque::Injector::new).push(job)
    }

    /// Takes the oldest job.
    #[inline]
    pub(crate) fn steal(&self) -> Steal<T> {
        match self.0.get() {
            Some(q) => q.steal().into(),
            None => Steal::Empty,
        }
    }

    /// Moves a batch of jobs into `dest` and pops one of them. With either kind of
    /// `dest`, its owner then pops the rest oldest first.
    #[inline]
    pub(crate) fn steal_batch_and_pop(&self, dest: &Local<T>) -> Steal<T> {
        let Some(q) = self.0.get() else {
            return Steal::Empty;
        };
        match dest {
            Local::ChaseLev(w) => q.steal_batch_and_pop(w).into(),
            Local::Bwos(w, batch) => {
                let got = q.steal_batch_and_pop(&batch.landing).into();
                batch.move_into(w);
                got
            }
        }
    }

    /// Whether the queue looks empty.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.get().is_none_or(|q| q.is_empty())
    }
}

/// Where a batch for a BWoS deque lands (crossbeam's injector fills only its own
/// workers), owned by the BWoS deque's owner.
pub(crate) struct Batch<T> {
    /// A private crossbeam worker that nobody steals from.
    landing: crossbeam_deque::Worker<T>,
    /// Reused buffer for turning the batch around.
    buffer: RefCell<Vec<T>>,
}

impl<T> Batch<T> {
    pub(crate) fn new() -> Self {
        Batch {
            landing: crossbeam_deque::Worker::new_lifo(),
            buffer: RefCell::new(Vec::new()),
        }
    }

    /// Moves the landed jobs into `dest` so that its owner pops them in the order the
    /// landing worker would have (oldest first): pushes them newest first.
    fn move_into(&self, dest: &super::bwos::Worker<T>) {
        let mut buffer = self.buffer.borrow_mut();
        buffer.extend(std::iter::from_fn(|| self.landing.pop()));
        for job in buffer.drain(..).rev() {
            dest.push(job);
        }
    }
}
