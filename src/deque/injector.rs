//! The injector (crossbeam's, with either kind of worker deque), and how a batch taken
//! from it reaches a BWoS deque.

use std::cell::RefCell;

use super::{Local, Steal};

/// A multi-producer, multi-consumer FIFO queue for jobs from outside the pool.
pub(crate) struct Injector<T>(crossbeam_deque::Injector<T>);

impl<T> Injector<T> {
    /// A new, empty queue.
    pub(crate) fn new() -> Self {
        Injector(crossbeam_deque::Injector::new())
    }

    /// Appends a job.
    #[inline]
    pub(crate) fn push(&self, job: T) {
        self.0.push(job)
    }

    /// Takes the oldest job.
    #[inline]
    pub(crate) fn steal(&self) -> Steal<T> {
        self.0.steal().into()
    }

    /// Moves a batch of jobs into `dest` and pops one of them. With either kind of
    /// `dest`, its owner then pops the rest oldest first.
    #[inline]
    pub(crate) fn steal_batch_and_pop(&self, dest: &Local<T>) -> Steal<T> {
        match dest {
            Local::ChaseLev(w) => self.0.steal_batch_and_pop(w).into(),
            Local::Bwos(w, batch) => {
                let got = self.0.steal_batch_and_pop(&batch.landing).into();
                batch.move_into(w);
                got
            }
        }
    }

    /// Whether the queue looks empty.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
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
