//! The work-stealing deques, behind one small interface.
//!
//! The pool only uses the three types of this module: [`Local`] (the owner's end of a
//! worker deque: push and pop, LIFO), [`Stealer`] (the thieves' end: steal the oldest job)
//! and [`Injector`] (the multi-producer queue for jobs coming from outside the pool).
//! Today they wrap `crossbeam-deque` (Chase-Lev); a block-based BWoS deque can be added
//! behind the same methods and chosen on the builder.

/// The outcome of a steal attempt.
#[derive(Debug)]
pub(crate) enum Steal<T> {
    /// The queue was empty.
    Empty,
    /// A job was taken.
    Success(T),
    /// Lost a race with another thread; trying again may succeed.
    Retry,
}

impl<T> From<crossbeam_deque::Steal<T>> for Steal<T> {
    #[inline]
    fn from(s: crossbeam_deque::Steal<T>) -> Self {
        match s {
            crossbeam_deque::Steal::Empty => Steal::Empty,
            crossbeam_deque::Steal::Success(t) => Steal::Success(t),
            crossbeam_deque::Steal::Retry => Steal::Retry,
        }
    }
}

/// The owner's end of a worker deque (LIFO for the owner).
pub(crate) struct Local<T>(crossbeam_deque::Worker<T>);

impl<T> Local<T> {
    /// A new, empty deque.
    pub(crate) fn new() -> Self {
        Local(crossbeam_deque::Worker::new_lifo())
    }

    /// The thieves' end of this deque.
    pub(crate) fn stealer(&self) -> Stealer<T> {
        Stealer(self.0.stealer())
    }

    /// Pushes a job on the owner's end.
    #[inline]
    pub(crate) fn push(&self, job: T) {
        self.0.push(job)
    }

    /// Pops the newest job.
    #[inline]
    pub(crate) fn pop(&self) -> Option<T> {
        self.0.pop()
    }

    /// Whether the deque holds no job.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Number of queued jobs (for instrumentation).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
}

/// The thieves' end of a worker deque (FIFO: thieves take the oldest job).
pub(crate) struct Stealer<T>(crossbeam_deque::Stealer<T>);

impl<T> Stealer<T> {
    /// Steals the oldest job.
    #[inline]
    pub(crate) fn steal(&self) -> Steal<T> {
        self.0.steal().into()
    }

    /// Whether the deque looks empty.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

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

    /// Moves a batch of jobs into `dest` and pops one of them.
    #[inline]
    pub(crate) fn steal_batch_and_pop(&self, dest: &Local<T>) -> Steal<T> {
        self.0.steal_batch_and_pop(&dest.0).into()
    }

    /// Whether the queue looks empty.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_lifo_thief_fifo() {
        let local = Local::new();
        let stealer = local.stealer();
        for i in 0..4 {
            local.push(i);
        }
        assert_eq!(local.len(), 4);
        assert_eq!(local.pop(), Some(3));
        assert!(matches!(stealer.steal(), Steal::Success(0)));
        assert!(!stealer.is_empty());
        assert_eq!(local.pop(), Some(2));
        assert_eq!(local.pop(), Some(1));
        assert!(local.is_empty());
        assert!(matches!(stealer.steal(), Steal::Empty));
    }

    #[test]
    fn injector_batch() {
        let inj = Injector::new();
        for i in 0..10 {
            inj.push(i);
        }
        assert!(matches!(inj.steal(), Steal::Success(0)));
        let local = Local::new();
        assert!(matches!(inj.steal_batch_and_pop(&local), Steal::Success(_)));
        let mut rest = 0;
        while local.pop().is_some() {
            rest += 1;
        }
        while let Steal::Success(_) = inj.steal() {
            rest += 1;
        }
        assert_eq!(rest, 8);
        assert!(inj.is_empty());
    }
}
