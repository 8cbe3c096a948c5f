//! `yield_now` and `yield_local`: let the current worker run some pending work.

use super::worker::WorkerThread;

/// What a yield did.
///
/// ```
/// assert_eq!(prorata::yield_now(), None); // not in a pool
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Yield {
    /// A pending job was executed.
    Executed,
    /// No job was available.
    Idle,
}

/// If the current thread is a worker, executes one pending job of its pool (its own, a
/// stolen one, or an injected one) and says whether it found one; `None` outside a pool.
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// assert_eq!(pool.install(prorata::yield_now), Some(prorata::Yield::Idle));
/// ```
pub fn yield_now() -> Option<Yield> {
    WorkerThread::current().map(WorkerThread::yield_now)
}

/// Like [`yield_now`], but only looks at the current worker's own deque.
///
/// ```
/// assert_eq!(prorata::yield_local(), None);
/// ```
pub fn yield_local() -> Option<Yield> {
    WorkerThread::current().map(WorkerThread::yield_local)
}

/// Instrumentation for the busy-leaves space bound: the largest number of jobs the
/// current worker's deque held right after a push since the last call (then reset to the
/// current length). `None` outside a pool. Not part of the stable API.
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// let max = pool.install(|| {
///     prorata::debug_take_max_queued_jobs();
///     prorata::join(|| prorata::join(|| (), || ()), || ());
///     prorata::debug_take_max_queued_jobs()
/// });
/// assert_eq!(max, Some(2));
/// ```
#[doc(hidden)]
pub fn debug_take_max_queued_jobs() -> Option<usize> {
    WorkerThread::current().map(WorkerThread::take_max_queued)
}
