//! `block_in_place`: a closure that blocks (I/O, a channel, a lock held elsewhere)
//! without taking a worker away from its pool.
//!
//! The rules:
//! - The closure runs on the calling thread, as any closure given to the pool does:
//!   its thread-locals, name and stack are the caller's.
//! - Meanwhile a *relief thread* is this worker: it runs the worker's jobs and finds
//!   others as the worker would while waiting for a stolen half (leapfrogging, the
//!   wait's own rules for calls from outside, isolation included). The worker's state
//!   (deque, frame stack, counters) moves to it whole: the blocked thread stops being
//!   a worker (`WorkerThread::current` is `None` there) before the relief starts, and
//!   becomes it again only after the relief thread has stopped being it. No moment has
//!   two threads using one worker.
//! - The worker's pending join frames are published first, so the relief and the
//!   other workers can take them; a core permit it holds (shares) is given back and
//!   taken again by whichever thread runs the worker's jobs next.
//! - The relief stops at the first moment it runs no job after the closure returns: a
//!   job it started then finishes first, as a job taken in a wait does.
//! - Bounded: one relief per worker at a time, and a relief thread that blocks in turn
//!   runs its closure in place. A pool of `n` threads never runs more than `2n`.
//! - Only pools whose threads prorata makes get a relief (not those of a
//!   `spawn_handler`, which owns thread creation); elsewhere, or when the OS refuses a
//!   thread, the closure runs in place as a plain call.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};

use super::isolate;
use super::latch::{CrossLatch, Latch};
use super::preempt;
use super::worker::WorkerThread;

thread_local! {
    /// Whether this thread relieves a worker blocked elsewhere (it gets none itself).
    static IS_RELIEF: Cell<bool> = const { Cell::new(false) };
}

/// Runs `op`, which is expected to block, on the current thread; if that thread is a
/// worker of a pool, a relief thread runs the worker's jobs until `op` returns, so
/// that the pool keeps its cores busy meanwhile.
///
/// The reference is tokio's `block_in_place`. The need: a job that blocks in I/O, on
/// a channel or on a lock held elsewhere keeps a worker's thread asleep, and with it a
/// core's worth of the pool's work, for as long as it blocks (Rayon issues #835 and
/// #904). Here another thread becomes that worker meanwhile:
///
/// ```
/// use prorata::prelude::*;
/// use std::time::Duration;
///
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let sums: Vec<u64> = pool.install(|| {
///     (0..8u64)
///         .into_par_iter()
///         .map(|i| {
///             if i == 0 {
///                 // A slow read; the pool goes on with the other items meanwhile.
///                 prorata::block_in_place(|| std::thread::sleep(Duration::from_millis(20)));
///             }
///             (0..1_000).map(|x| x * i).sum()
///         })
///         .collect()
/// });
/// assert_eq!(sums[1], 499_500);
/// ```
///
/// What a caller sees:
/// - `op` runs on the calling thread and its result (or panic) is returned here.
/// - While `op` runs the calling thread is not a worker: [`current_thread_index`]
///   returns `None` there, and a parallel call made inside `op` goes where a call from
///   outside any pool goes (use [`ThreadPool::install`] to reach a given pool).
/// - The relief thread is named as the blocked thread, has the pool's stack size, and
///   runs the pool's start handler (with the blocked worker's index) when it starts
///   and its exit handler when it ends, so that per-thread setup holds on every thread
///   that runs the pool's jobs. It reports the blocked worker's index.
/// - When `op` returns, the caller goes on once the relief has finished the job it
///   was running, if any (as after a wait for a join's stolen half).
/// - At most one relief per worker at a time: called on a relief thread, or outside
///   any pool, or in a pool built with a `spawn_handler` (which owns thread creation),
///   `op` runs in place and nothing else happens. A pool of `n` threads therefore never
///   runs more than `2n` threads.
/// - Inside a share, the worker's core goes back to the allocator while `op` blocks,
///   and the relief takes one to run jobs.
///
/// Starting a relief costs a thread start (tens of microseconds): use it around waits
/// longer than that.
///
/// [`current_thread_index`]: crate::current_thread_index
/// [`ThreadPool::install`]: crate::ThreadPool::install
pub fn block_in_place<OP, R>(op: OP) -> R
where
    OP: FnOnce() -> R,
{
    match WorkerThread::current() {
        Some(worker) if worker.registry().makes_threads() && !IS_RELIEF.with(Cell::get) => {
            relieved(worker, op)
        }
        _ => op(),
    }
}

/// A worker pointer handed to the relief thread.
struct WorkerPtr(*const WorkerThread);

// SAFETY: the worker is used by one thread at a time: the blocked thread stops using
// it (clears its current worker) before the relief starts, and takes it back only
// after the relief thread has ended (the scope joins it); the worker stays in place on
// the blocked thread's stack meanwhile, since that thread is inside `op`.
unsafe impl Send for WorkerPtr {}

/// Runs `op` on this thread while a relief thread is `worker`.
fn relieved<OP, R>(worker: &WorkerThread, op: OP) -> R
where
    OP: FnOnce() -> R,
{
    let registry = std::sync::Arc::clone(worker.registry());
    let index = worker.index();
    // Everything the worker has pending becomes takeable, and its core goes back.
    worker.publish_all();
    worker.grant_local_jobs();
    preempt::worker_idle();
    let done = CrossLatch::new(&registry, index);
    let mut builder = std::thread::Builder::new();
    if let Some(name) = std::thread::current().name() {
        builder = builder.name(name.to_owned());
    }
    if let Some(size) = registry.stack_size {
        builder = builder.stack_size(size);
    }
    let this: *const WorkerThread = worker;
    let context = isolate::current_context();
    let mut op = Some(op);
    let outcome = std::thread::scope(|scope| {
        let relief = WorkerPtr(this);
        let done = &done;
        WorkerThread::clear_current();
        let started = builder.spawn_scoped(scope, move || {
            let relief = relief;
            IS_RELIEF.with(|r| r.set(true));
            // SAFETY: see `WorkerPtr`: this thread is the worker's only user until
            // it returns, which the blocked thread waits for before using it again.
            let worker = unsafe { &*relief.0 };
            worker.run_as_current(|| worker.relieve(&done.core));
        });
        if started.is_err() {
            // No thread: the worker stays here, and `op` runs as a plain call.
            // SAFETY: the worker is alive and in place (borrowed by the caller), and
            // no other thread uses it (the relief never started).
            unsafe { WorkerThread::set_current(this) };
            return None;
        }
        let op = op.take().expect("op runs once");
        // A call `op` makes back into this pool belongs to the worker's isolated
        // region, if it is in one: the relief, isolated too, runs it.
        let outcome = isolate::carrying(context, || panic::catch_unwind(AssertUnwindSafe(op)));
        // SAFETY: `done` lives until the scope has joined the relief thread, the
        // only other user of it.
        unsafe { CrossLatch::set(done) };
        Some(outcome)
        // The scope joins the relief thread here: it has stopped being the worker.
    });
    let outcome = match outcome {
        Some(outcome) => {
            // SAFETY: the relief thread has ended (joined by the scope), so this
            // thread is again the worker's only user; the worker is alive and in
            // place on this thread's stack.
            unsafe { WorkerThread::set_current(this) };
            outcome
        }
        None => Ok(op.take().expect("op runs once")()),
    };
    // Back to its own work: it takes a core again first (shares).
    preempt::worker_resumed(worker);
    match outcome {
        Ok(value) => value,
        Err(payload) => panic::resume_unwind(payload),
    }
}
