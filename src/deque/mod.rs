//! The work-stealing deques, behind one small interface.
//!
//! The pool only uses the four types of this module: [`Local`] (the owner's end of a
//! worker deque: push and pop, LIFO), [`Stealer`] (the thieves' end: steal the oldest
//! job), [`Injector`] (the multi-producer queue for jobs coming from outside the pool)
//! and [`Steal`]. Each pool chooses its worker deques with [`DequeKind`] (on the builder,
//! or `PRORATA_DEQUE` in the environment):
//!
//! - `ChaseLev` (the default): crossbeam-deque's Chase-Lev deque.
//! - `Bwos`: the block-based BWoS queue of `bwos/`, whose owner pushes and pops without
//!   fences and meets thieves once per block. Jobs it has not granted yet are
//!   invisible to ordinary steals until its next push or pop, or its next safe point
//!   after a thief asked (see `bwos/worker.rs` and `DequeKind::Bwos`); from an owner
//!   blocked in user code, an idle thief robs them ([`Stealer::rob`]).
//!
//! The injector is crossbeam's with either kind. The kind is a value, dispatched by
//! `match` in each method: one predictable branch per call.

pub(crate) mod barrier;
pub mod bench;
mod bwos;
mod injector;
mod kind;

#[cfg(all(test, not(loom)))]
mod tests;

pub(crate) use injector::Injector;
pub use kind::{DequeKind, ThiefBarrier};

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
pub(crate) enum Local<T> {
    /// crossbeam's Chase-Lev worker.
    ChaseLev(crossbeam_deque::Worker<T>),
    /// A BWoS owner, and where batches taken from an injector land first.
    Bwos(bwos::Worker<T>, injector::Batch<T>),
}

impl<T> Local<T> {
    /// A new, empty deque of the given kind.
    pub(crate) fn new(kind: DequeKind) -> Self {
        // The barrier's kind is fixed before any owner runs.
        barrier::init();
        match kind {
            DequeKind::ChaseLev => Local::ChaseLev(crossbeam_deque::Worker::new_lifo()),
            DequeKind::Bwos => Local::Bwos(bwos::Worker::new(), injector::Batch::new()),
        }
    }

    /// A Chase-Lev deque whose owner pops its oldest job (Rayon's `breadth_first`).
    pub(crate) fn new_fifo() -> Self {
        barrier::init();
        Local::ChaseLev(crossbeam_deque::Worker::new_fifo())
    }

    /// The kind of this deque.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn kind(&self) -> DequeKind {
        match self {
            Local::ChaseLev(_) => DequeKind::ChaseLev,
            Local::Bwos(..) => DequeKind::Bwos,
        }
    }

    /// The thieves' end of this deque.
    pub(crate) fn stealer(&self) -> Stealer<T> {
        match self {
            Local::ChaseLev(w) => Stealer::ChaseLev(w.stealer()),
            Local::Bwos(w, _) => Stealer::Bwos(w.stealer()),
        }
    }

    /// Pushes a job on the owner's end.
    #[inline]
    pub(crate) fn push(&self, job: T) {
        match self {
            Local::ChaseLev(w) => w.push(job),
            Local::Bwos(w, _) => w.push(job),
        }
    }

    /// Pops the newest job.
    #[inline]
    pub(crate) fn pop(&self) -> Option<T> {
        match self {
            Local::ChaseLev(w) => w.pop(),
            Local::Bwos(w, _) => w.pop(),
        }
    }

    /// Makes every queued job stealable, for an owner about to stop for a while (with
    /// Chase-Lev they all are already; BWoS grants the jobs it kept private).
    pub(crate) fn grant_all(&self) {
        match self {
            Local::ChaseLev(_) => {}
            Local::Bwos(w, _) => w.grant_all(),
        }
    }

    /// Whether the deque holds no job.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Local::ChaseLev(w) => w.is_empty(),
            Local::Bwos(w, _) => w.is_empty(),
        }
    }

    /// Number of queued jobs (for instrumentation; with BWoS a lower bound, exact while
    /// the jobs fit in one block).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            Local::ChaseLev(w) => w.len(),
            Local::Bwos(w, _) => w.len(),
        }
    }
}

/// The thieves' end of a worker deque (FIFO: thieves take the oldest job).
pub(crate) enum Stealer<T> {
    /// crossbeam's Chase-Lev stealer.
    ChaseLev(crossbeam_deque::Stealer<T>),
    /// A BWoS stealer.
    Bwos(bwos::Stealer<T>),
}

impl<T> Stealer<T> {
    /// Steals the oldest job.
    #[inline]
    pub(crate) fn steal(&self) -> Steal<T> {
        match self {
            Stealer::ChaseLev(s) => s.steal().into(),
            Stealer::Bwos(s) => s.steal(),
        }
    }

    /// Steals the oldest job; from a BWoS deque into a BWoS `dest` (the thief's own
    /// deque, never this one), also moves up to `max - 1` more into `dest`: half of
    /// what the victim's block offers, one compare-and-swap for the lot. Chase-Lev
    /// steals one job, as Rayon does.
    #[inline]
    pub(crate) fn steal_batch_and_pop(&self, dest: &Local<T>, max: usize) -> Steal<T> {
        match (self, dest) {
            (Stealer::Bwos(s), Local::Bwos(w, _)) => s.steal_batch_and_pop(w, max),
            _ => self.steal(),
        }
    }

    /// Takes the oldest job its owner keeps private (with BWoS; Chase-Lev keeps none),
    /// for a thief that found nothing else for a while: its owner may be blocked in
    /// user code until that job runs. Costs a process-wide barrier; `owner` is the
    /// owner's word for it (see `barrier.rs`).
    pub(crate) fn rob(&self, owner: &barrier::Owner) -> Option<T> {
        match self {
            Stealer::ChaseLev(_) => None,
            Stealer::Bwos(s) => s.rob(owner),
        }
    }

    /// Whether the deque looks empty (with BWoS, jobs not granted yet count as queued:
    /// their owner grants them at its next push or pop).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Stealer::ChaseLev(s) => s.is_empty(),
            Stealer::Bwos(s) => s.is_empty(),
        }
    }
}
