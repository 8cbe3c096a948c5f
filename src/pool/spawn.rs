//! `spawn` and `spawn_fifo`: fire-and-forget jobs with `'static` data.

use std::sync::Arc;

use super::global::global_registry;
use super::job::HeapJob;
use super::registry::Registry;
use super::unwind;
use super::worker::WorkerThread;

/// Starts `func` in the current pool (the global pool outside any pool) and returns at
/// once. The pool stays alive until the job has run.
///
/// **Panics:** a panic in `func` is passed to the pool's panic handler; if the pool has
/// none (the global pool by default), **the process aborts**, as with Rayon. Use
/// [`ThreadPoolBuilder::panic_handler`](crate::ThreadPoolBuilder::panic_handler), or catch
/// the panic inside `func`, to avoid that.
///
/// ```
/// let (tx, rx) = std::sync::mpsc::channel();
/// prorata::spawn(move || tx.send(1 + 1).unwrap());
/// assert_eq!(rx.recv().unwrap(), 2);
/// ```
pub fn spawn<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    spawn_in(func, current_registry_arc())
}

/// Like [`spawn`], but jobs spawned from one worker start in the order they were spawned.
/// Same panic rules as [`spawn`].
///
/// ```
/// let (tx, rx) = std::sync::mpsc::channel();
/// prorata::spawn_fifo(move || tx.send(3).unwrap());
/// assert_eq!(rx.recv().unwrap(), 3);
/// ```
pub fn spawn_fifo<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    spawn_fifo_in(func, current_registry_arc())
}

/// Runs `func` in the current pool (the global pool outside any pool) and returns a
/// future of its result, to `.await` from async code on any executor (see
/// [`SpawnFuture`](crate::SpawnFuture)): the async counterpart of
/// [`ThreadPool::install`](crate::ThreadPool::install), which blocks its caller.
///
/// **Panics:** a panic in `func` is caught and resumes in the task that awaits the
/// future (it never reaches the pool's panic handler). Dropping the future never
/// blocks; a `func` that has not started by then does not run.
///
/// ```
/// use prorata::prelude::*;
///
/// // A minimal executor; a server would `.await` it on tokio instead.
/// fn block_on<F: std::future::Future>(f: F) -> F::Output {
///     struct Unpark(std::thread::Thread);
///     impl std::task::Wake for Unpark {
///         fn wake(self: std::sync::Arc<Self>) {
///             self.0.unpark();
///         }
///     }
///     let waker = std::sync::Arc::new(Unpark(std::thread::current())).into();
///     let mut cx = std::task::Context::from_waker(&waker);
///     let mut f = std::pin::pin!(f);
///     loop {
///         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
///             return v;
///         }
///         std::thread::park();
///     }
/// }
///
/// let v: Vec<u64> = (0..1000).collect();
/// let sum = block_on(prorata::spawn_future(move || v.par_iter().sum::<u64>()));
/// assert_eq!(sum, 499_500);
/// ```
pub fn spawn_future<F, T>(func: F) -> crate::SpawnFuture<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (job, future) = super::future::job_and_future(func);
    spawn_in(job, current_registry_arc());
    future
}

/// The current worker's registry, or the global one.
pub(crate) fn current_registry_arc() -> &'static Arc<Registry> {
    match WorkerThread::current() {
        Some(worker) => worker.registry(),
        None => global_registry(),
    }
}

/// A boxed job that runs `func`, reports its panic, and releases the pool.
fn spawn_job<F>(func: F, registry: &Arc<Registry>) -> Box<HeapJob<impl FnOnce() + Send>>
where
    F: FnOnce() + Send + 'static,
{
    registry.increment_terminate_count();
    let registry = Arc::clone(registry);
    HeapJob::new(move || {
        if let Err(payload) = unwind::halt_unwinding(func) {
            registry.handle_panic(payload);
        }
        registry.terminate();
    })
}

pub(crate) fn spawn_in<F>(func: F, registry: &Arc<Registry>)
where
    F: FnOnce() + Send + 'static,
{
    let job = spawn_job(func, registry);
    // SAFETY: the job owns all its data ('static).
    registry.inject_or_push(unsafe { job.into_job_ref() });
}

pub(crate) fn spawn_fifo_in<F>(func: F, registry: &Arc<Registry>)
where
    F: FnOnce() + Send + 'static,
{
    let job = spawn_job(func, registry);
    // SAFETY: the job owns all its data ('static).
    let job_ref = unsafe { job.into_job_ref() };
    match WorkerThread::current() {
        // SAFETY: the job is live until executed.
        Some(worker) if worker.registry().id() == registry.id() => unsafe {
            worker.push_fifo(job_ref)
        },
        _ => registry.inject(job_ref),
    }
}
