//! `broadcast` and `spawn_broadcast`: run a closure once on every worker of a pool.

use std::marker::PhantomData;
use std::sync::Arc;

use super::job::{ArcJob, JobResult, StackJob};
use super::latch::{CountLatch, LatchRef};
use super::registry::Registry;
use super::spawn::current_registry_arc;
use super::unwind;
use super::worker::WorkerThread;

/// What a broadcast closure learns about where it runs.
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let v = pool.broadcast(|ctx| (ctx.index(), ctx.num_threads()));
/// assert_eq!(v, [(0, 2), (1, 2)]);
/// ```
#[derive(Debug)]
pub struct BroadcastContext<'a> {
    worker: &'a WorkerThread,
    /// Not `Send`: the context describes the current thread.
    _marker: PhantomData<&'a mut dyn Fn()>,
}

impl std::fmt::Debug for WorkerThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkerThread")
            .field("index", &self.index())
            .finish()
    }
}

impl BroadcastContext<'_> {
    /// Runs `f` with the context of the current worker.
    pub(crate) fn with<R>(f: impl FnOnce(BroadcastContext<'_>) -> R) -> R {
        let worker = WorkerThread::current().expect("prorata: broadcast job off-pool");
        f(BroadcastContext {
            worker,
            _marker: PhantomData,
        })
    }

    /// The index of the worker running the closure.
    ///
    /// ```
    /// let v = prorata::broadcast(|ctx| ctx.index());
    /// assert_eq!(v, (0..v.len()).collect::<Vec<_>>());
    /// ```
    #[inline]
    pub fn index(&self) -> usize {
        self.worker.index()
    }

    /// Number of workers in the pool (so the number of times the closure runs).
    ///
    /// ```
    /// let v = prorata::broadcast(|ctx| ctx.num_threads());
    /// assert!(v.iter().all(|&n| n == v.len()));
    /// ```
    #[inline]
    pub fn num_threads(&self) -> usize {
        self.worker.registry().num_threads()
    }
}

/// Runs `op` once on every worker of the current pool (the global pool outside any pool)
/// and returns the results in worker order. A panic is re-raised after every worker has
/// run `op`.
///
/// ```
/// let v = prorata::broadcast(|ctx| ctx.index() * 10);
/// assert_eq!(v[0], 0);
/// assert_eq!(v.len(), prorata::current_num_threads());
/// ```
pub fn broadcast<OP, R>(op: OP) -> Vec<R>
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    broadcast_in(op, current_registry_arc())
}

/// Spawns `op` on every worker of the current pool without waiting. Same panic rules as
/// [`spawn`](crate::spawn): without a panic handler, a panic aborts the process.
///
/// ```
/// let (tx, rx) = std::sync::mpsc::channel();
/// prorata::spawn_broadcast(move |ctx| tx.send(ctx.index()).unwrap());
/// assert_eq!(rx.iter().take(prorata::current_num_threads()).count(), prorata::current_num_threads());
/// ```
pub fn spawn_broadcast<OP>(op: OP)
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    spawn_broadcast_in(op, current_registry_arc())
}

pub(crate) fn broadcast_in<OP, R>(op: OP, registry: &Arc<Registry>) -> Vec<R>
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    let n = registry.num_threads();
    let current = WorkerThread::current();
    let latch = CountLatch::new(n, current.map(|w| (w.registry(), w.index())));
    let op = &op;
    let jobs: Vec<_> = (0..n)
        .map(|_| StackJob::new(move |_| BroadcastContext::with(op), LatchRef::new(&latch)))
        .collect();
    // SAFETY: `jobs` stays in place (no push after this, and nothing unwinds before the
    // wait) until the latch says all ran; each job catches the panics of `op`.
    registry.inject_broadcast(jobs.iter().map(|job| unsafe { job.as_job_ref() }));
    latch.wait(current);
    // Every outcome is read before the first panic is re-raised, so none is leaked.
    let outcomes: Vec<_> = jobs.into_iter().map(StackJob::into_job_result).collect();
    outcomes
        .into_iter()
        .map(JobResult::into_return_value)
        .collect()
}

pub(crate) fn spawn_broadcast_in<OP>(op: OP, registry: &Arc<Registry>)
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    let n = registry.num_threads();
    for _ in 0..n {
        registry.increment_terminate_count();
    }
    let job = {
        let op = DropHandled {
            op: Some(op),
            registry: Arc::clone(registry),
        };
        ArcJob::new(move || {
            let registry = &op.registry;
            if let Err(payload) = unwind::halt_unwinding(|| BroadcastContext::with(op.get())) {
                registry.handle_panic(payload);
            }
            registry.terminate();
        })
    };
    // SAFETY: the job owns all its data ('static); each reference holds a count. Its
    // execution never unwinds: a panic of `op`, or of dropping it with the last
    // reference (`DropHandled`), goes to the panic handler.
    registry.inject_broadcast((0..n).map(|_| unsafe { ArcJob::as_job_ref(&job) }));
}

/// The closure of a spawned broadcast. It is dropped with the last reference to its
/// job, by a worker after its run (or by the spawning thread): a panic of that drop
/// goes to the panic handler, like a panic of a run, rather than unwinding out of the
/// worker's job (through whatever waits on the worker's stack).
struct DropHandled<OP> {
    /// `Some` until dropped.
    op: Option<OP>,
    registry: Arc<Registry>,
}

impl<OP> DropHandled<OP> {
    fn get(&self) -> &OP {
        self.op.as_ref().expect("present until dropped")
    }
}

impl<OP> Drop for DropHandled<OP> {
    fn drop(&mut self) {
        let op = self.op.take();
        if let Err(payload) = unwind::halt_unwinding(move || drop(op)) {
            self.registry.handle_panic(payload);
        }
    }
}
