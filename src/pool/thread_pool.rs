//! `ThreadPool`: a handle on a pool, with the same operations as the free functions.

use std::fmt;
use std::sync::Arc;

use super::broadcast::{self, BroadcastContext};
use super::current_thread::release_current_thread;
use super::join::{FnContext, join_on_worker};
use super::registry::Registry;
use super::scope::{self, Scope, ScopeFifo};
use super::spawn;
use super::worker::WorkerThread;
use super::yield_now::Yield;

/// A pool of worker threads.
///
/// Dropping the pool returns at once, as in Rayon: its workers finish the jobs already
/// queued and every pending `spawn` (which may spawn more), then exit.
/// [`wait`](Self::wait) ends it the same way and returns once its threads have exited.
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert_eq!(pool.install(|| 6 * 7), 42);
/// ```
pub struct ThreadPool {
    pub(crate) registry: Arc<Registry>,
}

impl fmt::Debug for ThreadPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPool")
            .field("num_threads", &self.registry.num_threads())
            .finish()
    }
}

impl ThreadPool {
    pub(crate) fn from_registry(registry: Arc<Registry>) -> Self {
        ThreadPool { registry }
    }

    /// The current thread's worker, if it belongs to this pool.
    fn current_worker(&self) -> Option<&WorkerThread> {
        WorkerThread::current().filter(|w| w.registry().id() == self.registry.id())
    }

    /// Runs `op` inside the pool and returns its result; `join`, `scope` and parallel
    /// iterators called from `op` run in this pool. From a plain thread the call blocks;
    /// from a worker of another pool, that worker keeps executing its own pool's jobs
    /// while it waits (so nested pools cannot deadlock on each other's blocked workers).
    /// A panic in `op` is re-raised here.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    /// assert_eq!(pool.install(prorata::current_num_threads), 3);
    /// ```
    pub fn install<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce() -> R + Send,
        R: Send,
    {
        self.registry.in_worker(|_, _| op())
    }

    /// A share of this pool's cores holding `tickets` (see [`crate::Share`]).
    ///
    /// The share is a sub-pool with as many workers as this pool, but shares divide
    /// the pool's *cores*, not its workers: at most
    /// [`share_cores`](crate::ThreadPoolBuilder::share_cores) workers of all the
    /// shares run at once (by default the number of threads or the machine's
    /// available parallelism, whichever is smaller). Waits inside prorata give the
    /// core back; work that blocks on other workers of the same share in another
    /// way (a [`std::sync::Barrier`] across all its workers, say) can wait for a
    /// permit held by a worker it waits on.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let fg = pool.share(900).unwrap();
    /// assert_eq!(fg.install(|| 1 + 1), 2);
    /// assert!(pool.share(0).is_err());
    /// ```
    pub fn share(&self, tickets: u32) -> Result<crate::Share, crate::ShareError> {
        let root = super::shares::root_share(&self.registry);
        let (n, scoped) = (self.registry.num_threads(), self.registry.shares.scoped());
        crate::Share::create(&self.registry, &root, n, tickets, scoped)
    }

    /// What this pool's own workers did so far (jobs run, steals, `join` halves
    /// published and claimed, sleeps, wake-ups) and, from the pool's first share on,
    /// what the jobs run on the pool outside any share received from the division of
    /// the cores (core time, grants, parks, preemptions): from then, they take part
    /// as a share holding [`root_tickets`](crate::ThreadPoolBuilder::root_tickets).
    /// See [`ShareStats`](crate::ShareStats); the workers of the pool's shares count
    /// in [`Share::stats`](crate::Share::stats).
    ///
    /// ```
    /// use prorata::prelude::*;
    ///
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// pool.install(|| ());
    /// assert_eq!(pool.stats().jobs, 1);
    /// assert_eq!(pool.stats().grants, 0); // no share yet: no division of cores
    /// let share = pool.share(100).unwrap();
    /// share.install(|| ());
    /// assert_eq!((pool.stats().jobs, share.stats().jobs), (1, 1)); // each its own
    /// let sum: u64 = pool.install(|| (0..100_000u64).into_par_iter().sum());
    /// assert_eq!(sum, 4_999_950_000);
    /// assert!(pool.stats().grants >= 1);
    /// ```
    pub fn stats(&self) -> crate::ShareStats {
        crate::ShareStats::of_root(&self.registry)
    }

    /// Starts recording a timeline of this pool's workers and of the workers of every
    /// share made from it (before or during the recording), until
    /// [`stop_trace`](Self::stop_trace); cargo feature `trace`. Starting again while a
    /// recording runs starts it anew.
    ///
    /// Each worker appends what it does (jobs starting and ending, steals, join frames
    /// claimed and published, sleeps and wake-ups, cores granted, waited for and given
    /// back) to a buffer of its own, without a lock; a worker keeps its newest
    /// [`Trace::WORKER_CAPACITY`](crate::Trace::WORKER_CAPACITY) events (4 MiB), and
    /// one chunk of 64 KiB between recordings. While
    /// no recording runs, a worker's check costs one load where it counts.
    ///
    /// ```
    /// use prorata::prelude::*;
    ///
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// pool.start_trace();
    /// let v: Vec<u64> = pool.install(|| (0..1000u64).into_par_iter().map(|x| x * 2).collect());
    /// let trace = pool.stop_trace();
    /// assert_eq!(v[999], 1998);
    /// # if false {
    /// trace.write_chrome_json(std::fs::File::create("timeline.json").unwrap()).unwrap();
    /// trace.write_svg(std::fs::File::create("timeline.svg").unwrap()).unwrap();
    /// # }
    /// ```
    #[cfg(feature = "trace")]
    #[cfg_attr(docsrs, doc(cfg(feature = "trace")))]
    pub fn start_trace(&self) {
        self.registry.trace.start();
    }

    /// Stops the recording started by [`start_trace`](Self::start_trace) and returns
    /// it (an empty trace if none runs). It waits up to 20 ms for jobs running at that
    /// moment to end, so that their ends are in the trace; a job still running then
    /// is cut at the stop. Cargo feature `trace`.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert!(pool.stop_trace().lanes().is_empty()); // nothing recorded
    /// pool.start_trace();
    /// pool.join(|| 1, || 2);
    /// assert!(!pool.stop_trace().lanes().is_empty());
    /// ```
    #[cfg(feature = "trace")]
    #[cfg_attr(docsrs, doc(cfg(feature = "trace")))]
    pub fn stop_trace(&self) -> crate::Trace {
        self.registry.trace.stop()
    }

    /// The pool's registry (for the shares layer).
    pub(crate) fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// Number of threads in this pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.current_num_threads(), 2);
    /// ```
    pub fn current_num_threads(&self) -> usize {
        self.registry.num_threads()
    }

    /// The index of the current thread in this pool, or `None` if it is not one of its
    /// workers.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.current_thread_index(), None);
    /// assert!(pool.install(|| pool.current_thread_index()).unwrap() < 2);
    /// ```
    pub fn current_thread_index(&self) -> Option<usize> {
        self.current_worker().map(WorkerThread::index)
    }

    /// Whether the current worker of this pool has jobs queued on its own deque (`None`
    /// if the current thread is not a worker of this pool).
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// assert_eq!(pool.current_thread_has_pending_tasks(), None);
    /// assert_eq!(pool.install(|| pool.current_thread_has_pending_tasks()), Some(false));
    /// ```
    pub fn current_thread_has_pending_tasks(&self) -> Option<bool> {
        self.current_worker().map(WorkerThread::has_local_jobs)
    }

    /// [`join`](crate::join) inside this pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().build().unwrap();
    /// assert_eq!(pool.join(|| 1, || 2), (1, 2));
    /// ```
    pub fn join<A, B, RA, RB>(&self, oper_a: A, oper_b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        self.registry.in_worker(|worker, injected| {
            join_on_worker(
                worker,
                injected,
                |_: FnContext| oper_a(),
                |_: FnContext| oper_b(),
            )
        })
    }

    /// [`scope`](crate::scope) inside this pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut v = vec![0; 4];
    /// pool.scope(|s| for (i, x) in v.iter_mut().enumerate() { s.spawn(move |_| *x = i) });
    /// assert_eq!(v, [0, 1, 2, 3]);
    /// ```
    pub fn scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R + Send,
        R: Send,
    {
        self.registry
            .in_worker(|worker, _| scope::do_scope(worker, op))
    }

    /// [`scope_fifo`](crate::scope_fifo) inside this pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let n = std::sync::atomic::AtomicUsize::new(0);
    /// pool.scope_fifo(|s| for _ in 0..3 { s.spawn_fifo(|_| { n.fetch_add(1, std::sync::atomic::Ordering::SeqCst); }) });
    /// assert_eq!(n.into_inner(), 3);
    /// ```
    pub fn scope_fifo<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
        R: Send,
    {
        self.registry
            .in_worker(|worker, _| scope::do_scope_fifo(worker, op))
    }

    /// [`in_place_scope`](crate::in_place_scope) with spawns going to this pool: `op` runs
    /// on the calling thread.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut x = 0;
    /// pool.in_place_scope(|s| s.spawn(|_| x = 5));
    /// assert_eq!(x, 5);
    /// ```
    pub fn in_place_scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R,
    {
        scope::do_in_place_scope(Some(&self.registry), op)
    }

    /// [`in_place_scope_fifo`](crate::in_place_scope_fifo) with spawns going to this pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut x = 0;
    /// pool.in_place_scope_fifo(|s| s.spawn_fifo(|_| x = 5));
    /// assert_eq!(x, 5);
    /// ```
    pub fn in_place_scope_fifo<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&ScopeFifo<'scope>) -> R,
    {
        scope::do_in_place_scope_fifo(Some(&self.registry), op)
    }

    /// [`spawn`](crate::spawn) into this pool. A panic in `op` goes to the pool's panic
    /// handler; **without one the process aborts** (see
    /// [`ThreadPoolBuilder::panic_handler`](crate::ThreadPoolBuilder::panic_handler)).
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// pool.spawn(move || tx.send(7).unwrap());
    /// assert_eq!(rx.recv().unwrap(), 7);
    /// ```
    pub fn spawn<OP>(&self, op: OP)
    where
        OP: FnOnce() + Send + 'static,
    {
        spawn::spawn_in(op, &self.registry)
    }

    /// [`spawn_future`](crate::spawn_future) into this pool: runs `op` on its
    /// workers and returns a future of the result, to `.await` from async code. A
    /// panic in `op` resumes where the future is awaited; dropping the future never
    /// blocks, and an `op` not started by then does not run. If the pool is dropped
    /// first, its workers still finish what was queued, so the future resolves.
    ///
    /// ```
    /// use std::future::Future;
    /// use std::task::{Context, Poll, Waker};
    ///
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut fut = Box::pin(pool.spawn_future(|| (1..=10u32).product::<u32>()));
    /// drop(pool); // the job still runs
    /// let mut cx = Context::from_waker(Waker::noop());
    /// let v = loop {
    ///     match fut.as_mut().poll(&mut cx) {
    ///         Poll::Ready(v) => break v,
    ///         Poll::Pending => std::thread::yield_now(),
    ///     }
    /// };
    /// assert_eq!(v, 3_628_800);
    /// ```
    pub fn spawn_future<OP, T>(&self, op: OP) -> crate::SpawnFuture<T>
    where
        OP: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let (job, future) = super::future::job_and_future(op);
        spawn::spawn_in(job, &self.registry);
        future
    }

    /// [`spawn_fifo`](crate::spawn_fifo) into this pool (same panic rules as
    /// [`ThreadPool::spawn`]).
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// pool.spawn_fifo(move || tx.send(7).unwrap());
    /// assert_eq!(rx.recv().unwrap(), 7);
    /// ```
    pub fn spawn_fifo<OP>(&self, op: OP)
    where
        OP: FnOnce() + Send + 'static,
    {
        spawn::spawn_fifo_in(op, &self.registry)
    }

    /// Runs `op` once on every worker of this pool and returns the results in worker
    /// order. A panic is re-raised after every worker has run `op`.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    /// assert_eq!(pool.broadcast(|ctx| ctx.index()), vec![0, 1, 2]);
    /// ```
    pub fn broadcast<OP, R>(&self, op: OP) -> Vec<R>
    where
        OP: Fn(BroadcastContext<'_>) -> R + Sync,
        R: Send,
    {
        broadcast::broadcast_in(op, &self.registry)
    }

    /// Spawns `op` on every worker of this pool without waiting (same panic rules as
    /// [`ThreadPool::spawn`]).
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// pool.spawn_broadcast(move |ctx| tx.send(ctx.index()).unwrap());
    /// let mut got: Vec<usize> = rx.iter().take(2).collect();
    /// got.sort();
    /// assert_eq!(got, [0, 1]);
    /// ```
    pub fn spawn_broadcast<OP>(&self, op: OP)
    where
        OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
    {
        broadcast::spawn_broadcast_in(op, &self.registry)
    }

    /// Executes one pending job of this pool, if any (see [`yield_now`](crate::yield_now));
    /// `None` if the current thread is not a worker of this pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// assert_eq!(pool.yield_now(), None);
    /// assert!(pool.install(|| pool.yield_now()).is_some());
    /// ```
    pub fn yield_now(&self) -> Option<Yield> {
        self.current_worker().map(WorkerThread::yield_now)
    }

    /// Ends the pool and blocks until every thread it started has exited (joined:
    /// its thread-locals dropped, the OS thread gone). Dropping a pool instead
    /// returns at once, as in Rayon.
    ///
    /// Rayon has no such method yet: this follows the name its maintainer proposed,
    /// `ThreadPool::wait(self)`, in rayon-rs/rayon#688 (also asked for as
    /// `terminate_and_wait` in rayon-rs/rayon#1242): for deterministic leak checks,
    /// tests that count threads, or unloading a dynamic library.
    ///
    /// What it waits for:
    ///
    /// - As on drop, the workers first run every job already queued and every pending
    ///   `spawn` (including those these spawn, and jobs still running when it is
    ///   called), then run their [exit handler](crate::ThreadPoolBuilder::exit_handler)
    ///   and exit; it returns after all of that. A job that never ends makes it wait
    ///   for ever.
    /// - The threads of the default spawner are joined. With a
    ///   [`spawn_handler`](crate::ThreadPoolBuilder::spawn_handler) the pool did not
    ///   create the threads and holds no handle on them: it waits until each
    ///   worker's [`ThreadBuilder::run`](crate::ThreadBuilder::run) has returned (or
    ///   its builder was dropped unrun), not for the thread's exit; the handler's own
    ///   code after `run` may still be running.
    /// - With [`use_current_thread`](crate::ThreadPoolBuilder::use_current_thread),
    ///   worker 0 is the building thread, which the pool did not start. Called on that
    ///   thread, the thread stops being worker 0 first, as on drop, and the thread
    ///   that takes over worker 0's remaining work is joined too. Called on another
    ///   thread, worker 0 stays with the building thread until that thread exits, as
    ///   on drop, and is not waited for (waiting could wait for ever); the other
    ///   workers are.
    /// - [Shares](Self::share) are pools of their own and are not waited for: a share
    ///   still held keeps working after this returns, as after a drop. Their
    ///   workers run on process-wide spare threads, named `prorata-share-{i}`, which
    ///   the shares of every pool use in turn, and which exit about a second after
    ///   their last worker ended. On return, no thread of this pool's own workers
    ///   remains; share threads may.
    /// - The threads that run beside the workers are joined too: the timer thread
    ///   of a pool that [follows its CPU quota](crate::ThreadPoolBuilder::follow_cpu_quota);
    ///   a [`block_in_place`](crate::block_in_place) relief thread ends before the
    ///   job that started it goes on, so none outlives the jobs.
    ///
    /// # Panics
    ///
    /// If called from a worker of this pool or of one of its shares (a job it runs):
    /// the thread would wait for itself to exit. The message is
    /// `"prorata: ThreadPool::wait called from inside the pool, which it would wait for"`,
    /// and the pool is still ended, as if dropped. From a worker of another pool it
    /// blocks that worker, which runs no other job meanwhile.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    ///
    /// let exited = Arc::new(AtomicUsize::new(0));
    /// let e = Arc::clone(&exited);
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .exit_handler(move |_| { e.fetch_add(1, Ordering::SeqCst); })
    ///     .build()
    ///     .unwrap();
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// pool.spawn(move || tx.send(6 * 7).unwrap());
    /// pool.wait(); // the spawned job ran, then both threads exited
    /// assert_eq!(rx.try_recv(), Ok(42));
    /// assert_eq!(exited.load(Ordering::SeqCst), 2);
    /// ```
    #[doc(alias = "shutdown_and_wait")]
    #[doc(alias = "terminate_and_wait")]
    pub fn wait(self) {
        // As on drop: the building thread of a `use_current_thread` pool hands worker
        // 0 to a new thread (counted and kept before the wait starts).
        release_current_thread(&self.registry);
        let inside = WorkerThread::current().is_some_and(|w| {
            w.registry().id() == self.registry.id()
                || w.registry().shares.is_within(&self.registry.shares)
        });
        if inside {
            // `self` drops while this unwinds: the pool ends as on drop.
            panic!(
                "prorata: ThreadPool::wait called from inside the pool, which it would wait for"
            );
        }
        let registry = Arc::clone(&self.registry);
        drop(self);
        registry.exits.wait();
    }

    /// Executes one job of the current worker's own deque, if any (see
    /// [`yield_local`](crate::yield_local)); `None` off this pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// assert_eq!(pool.install(|| pool.yield_local()), Some(prorata::Yield::Idle));
    /// ```
    pub fn yield_local(&self) -> Option<Yield> {
        self.current_worker().map(WorkerThread::yield_local)
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        release_current_thread(&self.registry);
        // The pool no longer follows its container's quota (without waiting for
        // the timer thread: dropping a pool does not block).
        if let Some(quota) = self.registry.quota.get() {
            quota.stop();
        }
        self.registry.shares.shut_down();
        self.registry.terminate();
    }
}
