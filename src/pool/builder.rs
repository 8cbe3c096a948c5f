//! `ThreadPoolBuilder`: configuring and starting a pool (or the global pool).

use std::fmt;
use std::io;
use std::sync::Arc;

use super::build_error::{ThreadPoolBuildError, ThreadPoolBuildErrorKind};
use super::cpu_quota::{CgroupFiles, QuotaFollower};
use super::current_thread::adopt_current_thread;
use super::global;
use super::registry::{Handlers, Registry};
use super::retire::{RetireSpec, ScopedSpawner, Spawner};
use super::sleep::THREADS_MAX;
use super::thread_builder::{CustomSpawn, DefaultSpawn, ThreadBuilder, ThreadSpawn};
use super::thread_pool::ThreadPool;
use super::unwind;
use super::worker::WorkerThread;
use crate::deque::{DequeKind, Local, ThiefBarrier};

/// Builds a [`ThreadPool`] (or the global pool).
///
/// The type parameter is how worker threads are started: `std::thread` by default, or
/// a handler given to [`spawn_handler`](Self::spawn_handler). Programs rarely name it.
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert_eq!(pool.current_num_threads(), 2);
/// ```
pub struct ThreadPoolBuilder<S = DefaultSpawn> {
    config: Config,
    spawn: S,
}

/// Everything a builder was told, but how to start threads.
#[derive(Default)]
struct Config {
    num_threads: usize,
    use_current_thread: bool,
    thread_name: Option<Box<dyn FnMut(usize) -> String>>,
    stack_size: Option<usize>,
    handlers: Handlers,
    share_policy: crate::SharePolicy,
    share_quantum: Option<std::time::Duration>,
    share_cores: Option<usize>,
    /// The workers' deques; `None`: `PRORATA_DEQUE`, else the default.
    deque: Option<DequeKind>,
    /// The thieves' barrier (the process's); `None`: `PRORATA_BARRIER`, else the
    /// default.
    thief_barrier: Option<ThiefBarrier>,
    /// Rayon's deprecated `breadth_first`: each worker takes its own oldest job first.
    breadth_first: bool,
    root_tickets: Option<u32>,
    /// Workers retire after this long idle and start when there is work, through
    /// this spawner (a share's sub-pool; see `retire.rs`).
    retire: Option<(std::time::Duration, Option<Spawner>)>,
    /// The retiring workers' thread names, made once for many pools.
    retire_names: Option<Arc<[Option<String>]>>,
    /// `follow_cpu_quota`: the pool's core permits follow the process's CPU quota.
    follow_cpu_quota: bool,
    /// The directory whose cgroup files the quota is read from instead of the
    /// process's own (tests only: `cgroup_dir_for_tests`).
    cgroup_dir: Option<std::path::PathBuf>,
}

impl Default for ThreadPoolBuilder {
    fn default() -> Self {
        ThreadPoolBuilder {
            config: Config::default(),
            spawn: DefaultSpawn,
        }
    }
}

impl<S> fmt::Debug for ThreadPoolBuilder<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        f.debug_struct("ThreadPoolBuilder")
            .field("num_threads", &c.num_threads)
            .field("use_current_thread", &c.use_current_thread)
            .field("thread_name", &c.thread_name.is_some())
            .field("stack_size", &c.stack_size)
            .field("panic_handler", &c.handlers.panic.is_some())
            .field("start_handler", &c.handlers.start.is_some())
            .field("exit_handler", &c.handlers.exit.is_some())
            .field("share_policy", &c.share_policy)
            .field("share_quantum", &c.share_quantum)
            .field("share_cores", &c.share_cores)
            .field("deque", &c.deque)
            .field("thief_barrier", &c.thief_barrier)
            .field("breadth_first", &c.breadth_first)
            .field("root_tickets", &c.root_tickets)
            .field("follow_cpu_quota", &c.follow_cpu_quota)
            .finish_non_exhaustive()
    }
}

impl ThreadPoolBuilder {
    /// A builder with default settings.
    ///
    /// ```
    /// let _ = prorata::ThreadPoolBuilder::new();
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds a pool whose threads are scoped threads: `wrapper` is called on each new
    /// thread with its [`ThreadBuilder`] and must call [`ThreadBuilder::run`] (so it can
    /// set up thread-local state around it); `with_pool` then runs with the pool, which is
    /// shut down and its threads joined before this returns.
    ///
    /// ```
    /// let data = vec![1, 2, 3];
    /// let sum = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .build_scoped(|t| t.run(), |pool| pool.install(|| data.iter().sum::<i32>()))
    ///     .unwrap();
    /// assert_eq!(sum, 6);
    /// ```
    pub fn build_scoped<W, F, R>(self, wrapper: W, with_pool: F) -> Result<R, ThreadPoolBuildError>
    where
        W: Fn(ThreadBuilder) + Sync,
        F: FnOnce(&ThreadPool) -> R,
    {
        std::thread::scope(|s| {
            let wrapper = &wrapper;
            let spawn_one = move |thread: ThreadBuilder| {
                let b = thread.std_builder();
                b.spawn_scoped(s, move || wrapper(thread)).map(drop)
            };
            // The pool's shares start their workers on this scope too, through the
            // wrapper, until `build_scoped` ends.
            // SAFETY: `_close` closes the spawner when this frame ends (also on
            // unwinding), before the scope and `spawn_one` it borrows.
            let scoped = unsafe { ScopedSpawner::new(Box::new(spawn_one)) };
            let _close = CloseScope(&scoped);
            let registry = self.spawn_handler(spawn_one).build_registry()?;
            registry.shares.set_scoped(scoped.clone());
            let pool = ThreadPool::from_registry(registry);
            let result = unwind::halt_unwinding(|| with_pool(&pool));
            drop(pool);
            match result {
                Ok(r) => Ok(r),
                Err(p) => unwind::resume_unwinding(p),
            }
        })
    }
}

impl<S> ThreadPoolBuilder<S> {
    /// Starts the worker threads with `spawn` instead of `std::thread`: it is called
    /// once per worker with a [`ThreadBuilder`] and must arrange for
    /// [`ThreadBuilder::run`] to be called on the new thread (a thread of the user's own
    /// pool, a scoped thread, ...). An error it returns makes `build` fail with it.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .spawn_handler(|thread| {
    ///         std::thread::Builder::new().spawn(move || thread.run())?;
    ///         Ok(())
    ///     })
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(pool.install(|| prorata::current_num_threads()), 2);
    /// ```
    pub fn spawn_handler<F>(self, spawn: F) -> ThreadPoolBuilder<CustomSpawn<F>>
    where
        F: FnMut(ThreadBuilder) -> io::Result<()>,
    {
        ThreadPoolBuilder {
            config: self.config,
            spawn: CustomSpawn(spawn),
        }
    }

    /// Number of worker threads; 0 (the default) means the environment variable
    /// `PRORATA_NUM_THREADS` if it holds a positive number, else the number of CPUs.
    /// Values above [`max_num_threads`](crate::max_num_threads) are clamped.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    /// assert_eq!(pool.current_num_threads(), 4);
    /// ```
    pub fn num_threads(mut self, n: usize) -> Self {
        self.config.num_threads = n;
        self
    }

    /// Makes the thread calling `build` worker 0 of the pool: it does not run a main loop,
    /// but it executes the pool's jobs whenever it waits inside the pool (and `join` or
    /// `scope` called on it run in this pool). It stops being a worker when the pool is
    /// dropped on this thread (or when the thread exits); a new thread then takes worker
    /// 0's place until the pool's queued and spawned work is done. A pool dropped while
    /// this thread uses its worker (from inside a `join` or `scope` on it, or a job it
    /// runs) leaves it worker 0 until the thread exits, as Rayon always does. Until then,
    /// jobs queued on worker 0 run only when this thread waits in the pool or another
    /// worker steals them; with `num_threads(1)`, work injected from other threads waits
    /// for this thread.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .use_current_thread()
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(pool.current_thread_index(), Some(0));
    /// ```
    pub fn use_current_thread(mut self) -> Self {
        self.config.use_current_thread = true;
        self
    }

    /// Names the worker threads: `f` gets the worker's index.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(1)
    ///     .thread_name(|i| format!("worker-{i}"))
    ///     .build()
    ///     .unwrap();
    /// let name = pool.install(|| std::thread::current().name().map(String::from));
    /// assert_eq!(name.as_deref(), Some("worker-0"));
    /// ```
    pub fn thread_name<F>(mut self, f: F) -> Self
    where
        F: FnMut(usize) -> String + 'static,
    {
        self.config.thread_name = Some(Box::new(f));
        self
    }

    /// The stack size of the worker threads, in bytes (also of the workers of the
    /// pool's shares).
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().stack_size(1 << 20).build().unwrap();
    /// assert_eq!(pool.install(|| 1), 1);
    /// ```
    pub fn stack_size(mut self, bytes: usize) -> Self {
        self.config.stack_size = Some(bytes);
        self
    }

    /// Called with the payload of a panic in a job started by `spawn`, `spawn_fifo` or
    /// `spawn_broadcast` (in the pool or in one of its shares), or in a start or exit
    /// handler (panics in `join`, `scope`,
    /// `install` and `broadcast` go back to their caller instead). **Without a panic
    /// handler, such a panic aborts the process**, as in Rayon: nobody waits for a
    /// spawned job, so there is nobody to report it to. If the handler itself panics,
    /// the process aborts.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    /// let seen = Arc::new(AtomicUsize::new(0));
    /// let s = Arc::clone(&seen);
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(1)
    ///     .panic_handler(move |_| { s.fetch_add(1, Ordering::SeqCst); tx.send(()).unwrap(); })
    ///     .build()
    ///     .unwrap();
    /// pool.spawn(|| panic!("oops"));
    /// rx.recv().unwrap();
    /// assert_eq!(seen.load(Ordering::SeqCst), 1);
    /// ```
    pub fn panic_handler<H>(mut self, handler: H) -> Self
    where
        H: Fn(Box<dyn std::any::Any + Send>) + Send + Sync + 'static,
    {
        self.config.handlers.panic = Some(Arc::new(handler));
        self
    }

    /// Called on each worker thread when it starts, with its index. A panic goes to the
    /// [panic handler](Self::panic_handler) (the process aborts without one) and the
    /// worker runs on.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .start_handler(|i| assert!(i < 2))
    ///     .build()
    ///     .unwrap();
    /// # drop(pool);
    /// ```
    pub fn start_handler<H>(mut self, handler: H) -> Self
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.config.handlers.start = Some(Box::new(handler));
        self
    }

    /// Called on each worker thread when it exits, with its index. A panic goes to the
    /// [panic handler](Self::panic_handler) (the process aborts without one).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    /// let exited = Arc::new(AtomicUsize::new(0));
    /// let e = Arc::clone(&exited);
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .exit_handler(move |_| { e.fetch_add(1, Ordering::SeqCst); tx.send(()).unwrap(); })
    ///     .build()
    ///     .unwrap();
    /// drop(pool); // returns at once; the workers exit once idle
    /// rx.iter().take(2).for_each(drop);
    /// assert_eq!(exited.load(Ordering::SeqCst), 2);
    /// ```
    pub fn exit_handler<H>(mut self, handler: H) -> Self
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.config.handlers.exit = Some(Box::new(handler));
        self
    }

    /// How the pool divides its cores among its shares (default: stride).
    ///
    /// Shares divide the pool's *cores* (see [`share_cores`](Self::share_cores)),
    /// not its workers.
    ///
    /// ```
    /// use prorata::SharePolicy;
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .share_policy(SharePolicy::Lottery)
    ///     .build()
    ///     .unwrap();
    /// ```
    pub fn share_policy(mut self, policy: crate::SharePolicy) -> Self {
        self.config.share_policy = policy;
        self
    }

    /// The scheduling quantum of the pool's shares (default 4 ms): how often a share
    /// over its proportion is asked to give a core back. While more than 50 shares
    /// per core compete, the turns shorten (to 1 ms at the least, never longer than
    /// this) so that each competing share gets a turn about every 200 ms: their
    /// proportions hold over windows of a few of their turns.
    ///
    /// `build` fails with [`ThreadPoolBuildErrorKind::ZeroShareQuantum`] on zero.
    ///
    /// ```
    /// use prorata::{ThreadPoolBuilder, ThreadPoolBuildErrorKind};
    /// use std::time::Duration;
    ///
    /// let pool = ThreadPoolBuilder::new().share_quantum(Duration::from_millis(2)).build().unwrap();
    /// let err = ThreadPoolBuilder::new().share_quantum(Duration::ZERO).build().unwrap_err();
    /// assert_eq!(err.kind(), ThreadPoolBuildErrorKind::ZeroShareQuantum);
    /// ```
    pub fn share_quantum(mut self, quantum: std::time::Duration) -> Self {
        self.config.share_quantum = Some(quantum);
        self
    }

    /// The number of cores the pool's shares divide among themselves: at most this
    /// many workers of all its shares together run at once (each holds one of this
    /// many core permits while it runs). Clamped to the number of threads. The
    /// default is the number of threads or
    /// [`std::thread::available_parallelism`], whichever is smaller: with more
    /// workers than cores, the permits still stand for real cores, so the
    /// allocator, not the operating system, decides which share runs.
    ///
    /// Shares divide *cores*, not workers: with more workers than cores, only
    /// that many workers of the shares run at once, and the others wait for a
    /// permit. Waits inside prorata (`join`, `scope`, `install`, a parallel
    /// iterator) give the core back, but work that blocks on other workers of the
    /// same share in some other way (a [`std::sync::Barrier`] across all of a
    /// share's workers inside `broadcast`, say) can wait for a permit that a
    /// blocked worker holds: such work needs `share_cores` at least the number of
    /// workers it waits on.
    ///
    /// `build` fails with [`ThreadPoolBuildErrorKind::ZeroShareCores`] on 0.
    ///
    /// ```
    /// use prorata::{ThreadPoolBuilder, ThreadPoolBuildErrorKind};
    ///
    /// // Eight workers per share, but at most two of them run at once.
    /// let pool = ThreadPoolBuilder::new().num_threads(8).share_cores(2).build().unwrap();
    /// let s = pool.share(10).unwrap();
    /// assert_eq!(s.current_num_threads(), 8);
    /// assert_eq!(s.install(|| 6 * 7), 42);
    ///
    /// let err = ThreadPoolBuilder::new().share_cores(0).build().unwrap_err();
    /// assert_eq!(err.kind(), ThreadPoolBuildErrorKind::ZeroShareCores);
    /// ```
    pub fn share_cores(mut self, n: usize) -> Self {
        self.config.share_cores = Some(n);
        self
    }

    /// The work-stealing deque each worker owns (see [`DequeKind`]). Without this call,
    /// the environment variable `PRORATA_DEQUE` decides (`chase-lev` or `bwos`; other
    /// values are ignored), else [`DequeKind::ChaseLev`]. A pool's
    /// [shares](crate::ThreadPool::share) use the pool's kind.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::DequeKind;
    ///
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .deque(DequeKind::Bwos)
    ///     .build()
    ///     .unwrap();
    /// let sum: u64 = pool.install(|| (1..=1000u64).into_par_iter().sum());
    /// assert_eq!(sum, 500_500);
    /// ```
    pub fn deque(mut self, kind: DequeKind) -> Self {
        self.config.deque = Some(kind);
        self
    }

    /// The barrier a thief pays when it takes a job that its owner has not offered yet
    /// (the pending second half of a `join`, a job a BWoS deque keeps private): see
    /// [`ThiefBarrier`]. Without this call, `PRORATA_BARRIER=fence` in the environment
    /// (any case) asks for [`ThiefBarrier::Fence`], else it is
    /// [`ThiefBarrier::Membarrier`].
    ///
    /// The barrier is the process's, not the pool's: every worker's `join` reads one
    /// setting. The first pool built in the process (this builder's [`build`](Self::build)
    /// or [`build_global`](Self::build_global), or the global pool started on first use)
    /// decides it and, unless it chose fences, registers the process for `membarrier`
    /// (where the kernel allows it; where it does not, the process uses fences).
    /// A pool built later with [`ThiefBarrier::Fence`] switches the whole process to
    /// fences from then on: the workers of pools already running fence at their next
    /// `join`, and thieves claim from each of them again once it has reached a `join`
    /// or safe point. A pool built later with [`ThiefBarrier::Membarrier`] changes
    /// nothing. Nothing switches back. A pool's shares use the process's barrier.
    ///
    /// ```
    /// use prorata::{ThiefBarrier, ThreadPoolBuilder};
    ///
    /// // The first pool of this process: it never registers for `membarrier`, and
    /// // no thief interrupts the other CPUs.
    /// let pool = ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .thief_barrier(ThiefBarrier::Fence)
    ///     .build()
    ///     .unwrap();
    /// # assert_eq!(prorata::deque_bench::barrier_name(), "fence");
    /// assert_eq!(pool.join(|| 1, || 2), (1, 2));
    /// ```
    ///
    /// The global pool, before its first use:
    ///
    /// ```
    /// use prorata::{ThiefBarrier, ThreadPoolBuilder};
    ///
    /// ThreadPoolBuilder::new()
    ///     .thief_barrier(ThiefBarrier::Fence)
    ///     .build_global()
    ///     .unwrap();
    /// # assert_eq!(prorata::deque_bench::barrier_name(), "fence");
    /// assert_eq!(prorata::join(|| 1, || 2), (1, 2));
    /// ```
    pub fn thief_barrier(mut self, barrier: ThiefBarrier) -> Self {
        self.config.thief_barrier = Some(barrier);
        self
    }

    /// **Deprecated, as in Rayon**: a hint that each worker should run its own queued
    /// jobs oldest first (a breadth-first walk of a tree of spawns) instead of newest
    /// first. Thieves still take the oldest job. A worker's deque is then Chase-Lev's
    /// whatever [`deque`](Self::deque) says, since BWoS keeps the owner's end LIFO, and
    /// the second half of a `join` still runs right after the first when nobody stole
    /// it. A pool's shares inherit the setting. [`scope_fifo`](crate::scope_fifo)
    /// gives the same order for one scope.
    ///
    /// ```
    /// #![allow(deprecated)]
    /// use std::sync::Mutex;
    ///
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(1)
    ///     .breadth_first()
    ///     .build()
    ///     .unwrap();
    /// let order = Mutex::new(Vec::new());
    /// pool.scope(|s| {
    ///     for i in 0..4 {
    ///         let order = &order;
    ///         s.spawn(move |_| order.lock().unwrap().push(i));
    ///     }
    /// });
    /// assert_eq!(order.into_inner().unwrap(), [0, 1, 2, 3]);
    /// ```
    #[deprecated(note = "use `scope_fifo` and `spawn_fifo` for similar effect")]
    pub fn breadth_first(mut self) -> Self {
        self.config.breadth_first = true;
        self
    }

    /// The deque kind: the builder's, else `PRORATA_DEQUE`'s, else the default.
    fn resolved_deque(&self) -> DequeKind {
        self.config
            .deque
            .or_else(DequeKind::from_env)
            .unwrap_or_default()
    }

    /// What a share's sub-pool takes from the pool (or share) it is made from, so
    /// that work behaves in a share as in its pool: the panic handler (a panic in a
    /// job spawned into a share goes where the pool's would) and the stack size (a
    /// job that fits in the pool's stacks fits in the share's), and the kind of deque.
    pub(crate) fn inherit(mut self, parent: &Registry) -> Self {
        self.config.handlers.panic = parent.handlers.panic.clone();
        self.config.stack_size = parent.stack_size;
        self.config.deque = Some(parent.deque);
        self.config.breadth_first = parent.breadth_first;
        self
    }

    /// The tickets of the jobs run on the pool outside any share (plain
    /// `install`, `join`, `par_iter`, `spawn`), against its top-level shares
    /// (default 100). From the pool's first share on, its own workers take a core
    /// like a share's do, so the pool's own jobs get their fraction and no more,
    /// and [`ThreadPool::stats`] reports what they received.
    ///
    /// `build` fails with [`ThreadPoolBuildErrorKind::ZeroRootTickets`] on 0.
    ///
    /// ```
    /// use prorata::{ThreadPoolBuilder, ThreadPoolBuildErrorKind};
    ///
    /// // The pool's own jobs weigh 100 against a share's 300: a quarter of the cores.
    /// let pool = ThreadPoolBuilder::new().num_threads(2).root_tickets(100).build().unwrap();
    /// let background = pool.share(300).unwrap();
    /// assert_eq!(pool.install(|| 6 * 7) + background.install(|| 0), 42);
    ///
    /// let err = ThreadPoolBuilder::new().root_tickets(0).build().unwrap_err();
    /// assert_eq!(err.kind(), ThreadPoolBuildErrorKind::ZeroRootTickets);
    /// ```
    pub fn root_tickets(mut self, tickets: u32) -> Self {
        self.config.root_tickets = Some(tickets);
        self
    }

    /// Keeps the number of the pool's workers that run at once equal to the
    /// number of CPUs the process may use now, as its container's CPU quota and
    /// its affinity mask change: a pod resized from 4 CPUs to 1 then runs one
    /// worker at a time, instead of keeping 4 busy threads that the kernel
    /// throttles. Off by default.
    ///
    /// The quota is the cgroup's (v2 `cpu.max`, v1 `cpu.cfs_quota_us` over
    /// `cpu.cfs_period_us`, found through `/proc/self/cgroup`), rounded up
    /// (1.5 CPUs: 2 workers), at most the CPUs of the affinity mask
    /// (`Cpus_allowed_list` in `/proc/self/status`; elsewhere std's
    /// [`available_parallelism`](std::thread::available_parallelism)), the
    /// pool's threads and [`share_cores`](Self::share_cores) if set, and at
    /// least 1. A missing, unreadable or malformed file, or `max`, means no
    /// limit from the quota; off Linux there is none either. With
    /// [`use_current_thread`](Self::use_current_thread), worker 0 (the thread
    /// that built the pool, a thread of the user's) takes no permit, so it may
    /// run the pool's jobs beside as many workers as the quota allows.
    ///
    /// Beside the pool's own jobs, its [shares](crate::ThreadPool::share)
    /// divide the permits the quota allows. As after a first share anywhere in
    /// the process, the iterators of every pool of the process then time the
    /// runs between their safe points and check their worker's flags there.
    ///
    /// The pool takes core permits from the start, as a pool does from its
    /// first [share](crate::ThreadPool::share) on: its workers run its jobs
    /// only while they hold one, with as many permits as the reading. A thread
    /// of the pool named `prorata-quota` re-reads the files every 100 ms and
    /// changes the number of permits when the reading changes. Raised, waiting
    /// workers start at once; lowered, workers beyond the new number give their
    /// core back at their next safe point (a job's start, a `join`, an
    /// iterator's leaf about every 40 µs), so a change takes effect within about
    /// a tenth of a second. The thread exits when the pool is dropped. The pool's
    /// threads stay as many as [`num_threads`](Self::num_threads) says: only as
    /// many run at once as the quota allows.
    ///
    /// ```
    /// use prorata::prelude::*;
    ///
    /// let pool = prorata::ThreadPoolBuilder::new()
    ///     .num_threads(4)
    ///     .follow_cpu_quota()
    ///     .build()
    ///     .unwrap();
    /// let sum: u64 = pool.install(|| (1..=1000u64).into_par_iter().sum());
    /// assert_eq!(sum, 500_500);
    /// ```
    pub fn follow_cpu_quota(mut self) -> Self {
        self.config.follow_cpu_quota = true;
        self
    }

    /// Not part of the API: [`follow_cpu_quota`](Self::follow_cpu_quota) reads
    /// the quota from `dir` (`cpu.max`, else `cpu.cfs_quota_us` and
    /// `cpu.cfs_period_us`) instead of the process's cgroup, so that tests
    /// change a quota by writing a file. No effect without `follow_cpu_quota`.
    #[doc(hidden)]
    pub fn cgroup_dir_for_tests(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.config.cgroup_dir = Some(dir.into());
        self
    }

    /// Makes the workers start only when the pool has work and exit after `idle`
    /// without any, started by `spawn` (standard threads if `None`). For share
    /// sub-pools: their threads follow their use.
    pub(crate) fn retire_idle(mut self, idle: std::time::Duration, spawn: Option<Spawner>) -> Self {
        self.config.retire = Some((idle, spawn));
        self
    }

    /// The thread names of a retiring pool's workers, made once for many pools
    /// (instead of `thread_name`, which would format them at every build).
    pub(crate) fn retire_names(mut self, names: Arc<[Option<String>]>) -> Self {
        self.config.retire_names = Some(names);
        self
    }

    /// Builds the pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().build().unwrap();
    /// assert!(pool.current_num_threads() >= 1);
    /// ```
    pub fn build(self) -> Result<ThreadPool, ThreadPoolBuildError>
    where
        S: ThreadSpawn,
    {
        self.build_registry().map(ThreadPool::from_registry)
    }

    /// Builds the global pool, used by the free functions ([`join`](crate::join),
    /// [`spawn`](crate::spawn), ...) outside any pool. Fails if it was built already
    /// (explicitly, or lazily by an earlier use).
    ///
    /// ```
    /// let first = prorata::ThreadPoolBuilder::new().build_global();
    /// assert!(prorata::ThreadPoolBuilder::new().build_global().is_err());
    /// # drop(first);
    /// ```
    pub fn build_global(self) -> Result<(), ThreadPoolBuildError>
    where
        S: ThreadSpawn,
    {
        global::init_global(|| self.build_registry())
    }

    fn resolved_num_threads(&self) -> usize {
        let n = if self.config.num_threads > 0 {
            self.config.num_threads
        } else {
            std::env::var("PRORATA_NUM_THREADS")
                .ok()
                .and_then(|s| s.trim().parse::<usize>().ok())
                .filter(|&n| n > 0)
                .unwrap_or_else(num_cpus::get)
        };
        n.clamp(1, THREADS_MAX)
    }

    /// Makes the registry and starts its threads through `spawn`; on failure, stops the
    /// threads already started and returns the error.
    pub(crate) fn build_registry(mut self) -> Result<Arc<Registry>, ThreadPoolBuildError>
    where
        S: ThreadSpawn,
    {
        if self.config.share_cores == Some(0) {
            return Err(ThreadPoolBuildError::new(
                ThreadPoolBuildErrorKind::ZeroShareCores,
            ));
        }
        if self.config.share_quantum == Some(std::time::Duration::ZERO) {
            return Err(ThreadPoolBuildError::new(
                ThreadPoolBuildErrorKind::ZeroShareQuantum,
            ));
        }
        if self.config.root_tickets == Some(0) {
            return Err(ThreadPoolBuildError::new(
                ThreadPoolBuildErrorKind::ZeroRootTickets,
            ));
        }
        if self.config.use_current_thread && WorkerThread::current().is_some() {
            return Err(ThreadPoolBuildError::new(
                ThreadPoolBuildErrorKind::CurrentThreadAlreadyInPool,
            ));
        }
        let n = self.resolved_num_threads();
        // Whether the retiring pool's threads are spare threads that have already
        // started in this process (see below).
        let mut spares_proven = false;
        // A retiring pool's threads are prorata's unless a spawn function was given.
        let mut makes_threads = self.spawn.makes_std_threads();
        let retire = self.config.retire.take().map(|(idle, spawn)| {
            makes_threads &= spawn.is_none();
            spares_proven = spawn.is_none() && super::spare_threads::proven();
            assert!(
                !self.config.use_current_thread,
                "prorata: a retiring pool runs no user thread"
            );
            RetireSpec {
                idle,
                spawn: spawn.unwrap_or_else(|| Arc::new(super::spare_threads::spawn)),
                names: match self.config.retire_names.take() {
                    Some(names) if names.len() >= n => names,
                    _ => (0..n)
                        .map(|i| self.config.thread_name.as_mut().map(|f| f(i)))
                        .collect(),
                },
                stack_size: self.config.stack_size,
            }
        });
        if let Some(barrier) = self.config.thief_barrier {
            crate::deque::barrier::choose(barrier == ThiefBarrier::Fence);
        }
        let (registry, deques) = Registry::new(
            n,
            std::mem::take(&mut self.config.handlers),
            self.config.stack_size,
            self.resolved_deque(),
            self.config.breadth_first,
            retire,
        );
        // `follow_cpu_quota`: as many permits as the quota's reading now (at
        // most `share_cores` and the threads), and a timer that follows it.
        let quota = self.config.follow_cpu_quota.then(|| {
            let files = match &self.config.cgroup_dir {
                Some(dir) => CgroupFiles::in_dir(dir),
                None => CgroupFiles::of_this_process(),
            };
            let cap = self.config.share_cores.map_or(n, |c| c.min(n));
            let cores = files.cores(cap);
            (files, cap, cores)
        });
        registry.shares.configure(super::shares::ShareConfig {
            policy: self.config.share_policy,
            quantum: self.config.share_quantum,
            cores: quota
                .as_ref()
                .map_or(self.config.share_cores, |q| Some(q.2)),
            root_tickets: self.config.root_tickets,
            current_thread_worker: self.config.use_current_thread,
        });
        if makes_threads {
            registry.set_makes_threads();
        }
        if let Some((files, cap, cores)) = quota {
            // The pool's workers take a core permit before each job from the
            // start (as from a first share on): their flags are raised before
            // any of them starts.
            let root = super::shares::root_share(&registry);
            let permits = Arc::downgrade(&root.permits);
            let follower = QuotaFollower::start(files, cap, permits, cores, &registry.exits)
                .map_err(ThreadPoolBuildError::thread_spawn)?;
            let _ = registry.quota.set(follower);
        }
        // If `thread_name` or `spawn` panics, the threads already started must still end.
        let guard = TerminateOnUnwind(&registry);
        let mut current: Option<Local<_>> = None;
        for (index, deque) in deques.into_iter().enumerate() {
            if self.config.use_current_thread && index == 0 {
                current = Some(deque);
                continue;
            }
            let thread = ThreadBuilder::new(
                self.config.thread_name.as_mut().map(|f| f(index)),
                self.config.stack_size,
                WorkerThread::new(Arc::clone(&registry), index, deque),
            );
            if let Err(e) = self.spawn.spawn(thread) {
                // Stop the threads already started (they exit once they see the latch).
                drop(guard);
                return Err(ThreadPoolBuildError::thread_spawn(e));
            }
        }
        if let Some(retirement) = &registry.retire {
            // A retiring pool's first worker starts once now, so that a thread the OS
            // refuses is this build's error (later restarts report theirs to the
            // call that gave the work); idle, it retires within `Retirement::idle`.
            // Once spare threads have started in this process, none starts: a share
            // made per request costs no thread. The others start for work only: a
            // thousand shares of a 256-worker pool must not start 256,000 threads.
            if n > 0 && !spares_proven {
                registry.sleep.wake_specific_thread(0);
            }
            if let Some(e) = retirement.end_of_build() {
                drop(guard);
                return Err(ThreadPoolBuildError::thread_spawn(e));
            }
        }
        std::mem::forget(guard);
        if let Some(deque) = current {
            adopt_current_thread(Box::new(WorkerThread::new(Arc::clone(&registry), 0, deque)));
        }
        Ok(registry)
    }
}

/// Closes a `build_scoped` pool's spawner when its frame ends.
struct CloseScope<'a>(&'a Arc<ScopedSpawner>);

impl Drop for CloseScope<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Terminates a registry under construction unless forgotten: on an error or a panic while
/// starting its threads, the threads already started exit instead of waiting forever.
struct TerminateOnUnwind<'a>(&'a Registry);

impl Drop for TerminateOnUnwind<'_> {
    fn drop(&mut self) {
        self.0.terminate();
    }
}
