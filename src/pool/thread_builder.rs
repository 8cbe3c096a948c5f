//! Starting worker threads: the [`ThreadBuilder`] each new worker is handed, and the
//! spawn handlers that start it (`std::thread` by default, or the user's through
//! [`ThreadPoolBuilder::spawn_handler`](crate::ThreadPoolBuilder::spawn_handler)).

use std::fmt;
use std::io;
use std::sync::Arc;

use super::worker::WorkerThread;
use super::worker_exits::{RunningWorker, WorkerExits};

/// A worker thread waiting to run, handed to a spawn handler
/// ([`ThreadPoolBuilder::spawn_handler`](crate::ThreadPoolBuilder::spawn_handler)) or to
/// the wrapper of [`ThreadPoolBuilder::build_scoped`](crate::ThreadPoolBuilder::build_scoped),
/// which must call [`ThreadBuilder::run`] on the thread that is to be the worker.
///
/// ```
/// let n = prorata::ThreadPoolBuilder::new()
///     .num_threads(2)
///     .build_scoped(|thread| thread.run(), |pool| pool.install(prorata::current_num_threads))
///     .unwrap();
/// assert_eq!(n, 2);
/// ```
pub struct ThreadBuilder {
    pub(crate) name: Option<String>,
    pub(crate) stack_size: Option<usize>,
    /// `None` once it ran (or is running).
    pub(crate) worker: Option<WorkerThread>,
    /// Counts the worker as running until `run` returns or the builder is dropped
    /// unrun (after `Drop::drop` has handed its deque back), for `ThreadPool::wait`.
    _running: RunningWorker,
}

impl Drop for ThreadBuilder {
    /// A builder dropped without running (its thread could not start): a retiring
    /// pool takes its worker's deque back, so that a later wake-up can start it.
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.never_ran();
        }
    }
}

impl fmt::Debug for ThreadBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadBuilder")
            .field("index", &self.index())
            .field("name", &self.name)
            .field("stack_size", &self.stack_size)
            .finish()
    }
}

impl ThreadBuilder {
    /// A builder for `worker`'s thread, counted as running from now on (see
    /// `worker_exits.rs`).
    pub(crate) fn new(
        name: Option<String>,
        stack_size: Option<usize>,
        worker: WorkerThread,
    ) -> Self {
        let _running = WorkerExits::running(&worker.registry().exits);
        ThreadBuilder {
            name,
            stack_size,
            worker: Some(worker),
            _running,
        }
    }

    /// The worker's index in its pool.
    ///
    /// ```
    /// prorata::ThreadPoolBuilder::new()
    ///     .num_threads(1)
    ///     .build_scoped(|t| { assert_eq!(t.index(), 0); t.run() }, |_| ())
    ///     .unwrap();
    /// ```
    pub fn index(&self) -> usize {
        self.worker.as_ref().map_or(usize::MAX, WorkerThread::index)
    }

    /// The name set with [`ThreadPoolBuilder::thread_name`](crate::ThreadPoolBuilder::thread_name), if any.
    ///
    /// ```
    /// prorata::ThreadPoolBuilder::new()
    ///     .num_threads(1)
    ///     .thread_name(|i| format!("w{i}"))
    ///     .build_scoped(|t| { assert_eq!(t.name(), Some("w0")); t.run() }, |_| ())
    ///     .unwrap();
    /// ```
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The stack size set with [`ThreadPoolBuilder::stack_size`](crate::ThreadPoolBuilder::stack_size), if any.
    ///
    /// ```
    /// prorata::ThreadPoolBuilder::new()
    ///     .num_threads(1)
    ///     .build_scoped(|t| { assert_eq!(t.stack_size(), None); t.run() }, |_| ())
    ///     .unwrap();
    /// ```
    pub fn stack_size(&self) -> Option<usize> {
        self.stack_size
    }

    /// A `std::thread::Builder` with this worker's name and stack size.
    pub(crate) fn std_builder(&self) -> std::thread::Builder {
        let mut b = std::thread::Builder::new();
        if let Some(name) = self.name() {
            b = b.name(name.to_owned());
        }
        if let Some(size) = self.stack_size() {
            b = b.stack_size(size);
        }
        b
    }

    /// Runs the worker on the current thread until the pool terminates.
    ///
    /// ```
    /// prorata::ThreadPoolBuilder::new()
    ///     .num_threads(1)
    ///     .build_scoped(|t| t.run(), |pool| pool.install(|| ()))
    ///     .unwrap();
    /// ```
    pub fn run(mut self) {
        let worker = self.worker.take().expect("a thread builder runs once");
        let retired = worker.run_as_current(|| worker.main_loop());
        if retired {
            worker.hand_back();
        }
    }
}

/// How a builder starts its worker threads. Implemented by the builder's two spawn
/// types only: the default (`std::thread`) and a user's spawn handler.
pub trait ThreadSpawn {
    /// Starts a thread that calls [`ThreadBuilder::run`].
    fn spawn(&mut self, thread: ThreadBuilder) -> io::Result<()>;

    /// Whether the threads are `std::thread`s that prorata starts (so that it may
    /// start others for the pool, as `block_in_place`'s relief threads); false for
    /// a user's spawn handler, which owns thread creation.
    fn makes_std_threads(&self) -> bool {
        false
    }
}

/// Spawns workers on new `std::thread`s, named and sized as the builder says; a
/// pool's drop does not wait for them, as in Rayon, but `ThreadPool::wait` joins
/// them.
#[derive(Debug, Default)]
pub struct DefaultSpawn;

impl ThreadSpawn for DefaultSpawn {
    fn spawn(&mut self, thread: ThreadBuilder) -> io::Result<()> {
        let registry = thread.worker.as_ref().map(|w| Arc::clone(w.registry()));
        let handle = thread.std_builder().spawn(move || thread.run())?;
        // A retiring pool (a share's, started here once its `build_scoped` scope has
        // closed) starts a thread per wake-up and nobody waits for it: its handles
        // would pile up. A pool's own workers start once, at its build.
        if let Some(registry) = registry.filter(|r| r.retire.is_none()) {
            registry.exits.keep(handle);
        }
        Ok(())
    }

    fn makes_std_threads(&self) -> bool {
        true
    }
}

/// Spawns workers through a user's handler (see
/// [`ThreadPoolBuilder::spawn_handler`](crate::ThreadPoolBuilder::spawn_handler)).
#[derive(Debug)]
pub struct CustomSpawn<F>(pub(crate) F);

impl<F> ThreadSpawn for CustomSpawn<F>
where
    F: FnMut(ThreadBuilder) -> io::Result<()>,
{
    fn spawn(&mut self, thread: ThreadBuilder) -> io::Result<()> {
        (self.0)(thread)
    }
}
