//! Retiring idle workers and starting them again (a pool opts in; share sub-pools
//! do), so that a pool's threads follow its use: fifty idle shares hold no
//! threads, a share's workers start when it has work.
//!
//! A retired worker is, for the sleep protocol, a sleeping worker whose thread is
//! gone: it stays counted as an inactive sleeper, so the protocol's guarantees
//! carry over unchanged (`sleep.rs`): whoever publishes work either sees it counted
//! and wakes it, or is seen by it before it sleeps. Waking a retired worker
//! restarts it instead of notifying it (`Sleep::wake_specific_thread` calls
//! [`Retirement::restart`]). A pool's workers start retired (never started) and
//! retire again after [`Retirement::idle`] asleep in their main loop, where their
//! stack holds nothing.
//!
//! The thieves' ends of a worker's deque live in the registry, so a restarted
//! worker must own the same deque: the retiring thread hands it back to its slot
//! ([`Handoff::park`]) after its exit handler has run, and the restart takes it
//! from there. The two may come in either order: a restart that finds no deque
//! yet leaves a note, and the retiring thread then starts the new thread itself.
//! A pool that terminates restarts nobody (its retired workers have nothing
//! left to run). The handoff is model-checked with loom (`loom_tests.rs`).

use std::io;
use std::sync::{Arc, Weak};
use std::time::Duration;

use super::job::JobRef;
use super::registry::Registry;
use super::sync::Mutex;
use super::thread_builder::{DefaultSpawn, ThreadBuilder, ThreadSpawn};
use super::worker::WorkerThread;
use crate::deque::Local;

/// Starts a worker thread (detached, like every worker thread: a pool's drop does not
/// wait for them).
pub(crate) type Spawner = Arc<dyn Fn(ThreadBuilder) -> io::Result<()> + Send + Sync>;

/// What a retiring pool needs to start its workers again.
pub(crate) struct RetireSpec {
    /// How long a worker sleeps in its main loop before its thread exits.
    pub(crate) idle: Duration,
    pub(crate) spawn: Spawner,
    /// Each worker's thread name (the builder's, computed once; shares' names are
    /// made once for all of them).
    pub(crate) names: Arc<[Option<String>]>,
    pub(crate) stack_size: Option<usize>,
}

/// The retirement state of a pool: one slot per worker.
pub(crate) struct Retirement {
    spec: RetireSpec,
    deques: Vec<Handoff<Local<JobRef>>>,
    /// While the pool is being built: the first thread that could not start.
    build_error: std::sync::Mutex<Option<Option<io::Error>>>,
    /// After the build: why the last start of a retired worker failed, if it did
    /// (cleared by the next start that succeeds).
    restart_error: std::sync::Mutex<Option<String>>,
    /// Whether `restart_error` holds one (set under its lock): every call from
    /// outside the pool asks, and reads only this while restarts succeed.
    restart_failing: std::sync::atomic::AtomicBool,
    /// Threads started and not yet retired.
    live: std::sync::atomic::AtomicUsize,
}

impl Retirement {
    /// Retirement for workers owning `deques` (all parked: nobody runs yet).
    pub(crate) fn new(spec: RetireSpec, deques: Vec<Local<JobRef>>) -> Self {
        let deques = deques.into_iter().map(Handoff::parked).collect();
        Retirement {
            spec,
            deques,
            build_error: std::sync::Mutex::new(Some(None)),
            restart_error: std::sync::Mutex::new(None),
            restart_failing: std::sync::atomic::AtomicBool::new(false),
            live: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// How long a worker sleeps before it retires.
    pub(crate) fn idle(&self) -> Duration {
        self.spec.idle
    }

    /// The pool is built: returns the error of a thread that could not start meanwhile;
    /// from now on such a failure leaves the worker retired (see [`Retirement::start`]).
    pub(crate) fn end_of_build(&self) -> Option<io::Error> {
        let mut building = self.build_error.lock().unwrap_or_else(|e| e.into_inner());
        building.take().flatten()
    }

    /// Retired worker `index` was woken: start a thread for it, now if its deque
    /// is back, else when the retiring thread hands it back. Nobody starts in a
    /// pool that terminates. Returns false if its thread could not start (it
    /// stays retired).
    pub(crate) fn restart(&self, registry: &Arc<Registry>, index: usize) -> bool {
        let terminating = || registry.thread_infos[index].terminate.probe();
        match self.deques[index].restart(terminating) {
            Some(deque) => self.start(registry, index, deque),
            None => true,
        }
    }

    /// Why the last start of a retired worker failed, if the last one did.
    pub(crate) fn restart_error(&self) -> Option<String> {
        if !self
            .restart_failing
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            return None;
        }
        self.restart_error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Worker `index`'s thread never started: its deque goes back to its slot.
    pub(crate) fn unstarted(&self, index: usize, deque: Local<JobRef>) {
        self.live.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        self.deques[index].put_back(deque);
    }

    /// How many of the pool's threads run now (started, not retired): awake,
    /// asleep, or parked waiting for a core.
    pub(crate) fn live_threads(&self) -> usize {
        self.live.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Worker `index`'s thread retired (after its exit handler): its deque goes
    /// back to its slot, or to a new thread if a restart came meanwhile.
    pub(crate) fn park(&self, registry: &Arc<Registry>, index: usize, deque: Local<JobRef>) {
        self.live.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        let terminating = || registry.thread_infos[index].terminate.probe();
        if let Some(deque) = self.deques[index].park(deque, terminating) {
            if !self.start(registry, index, deque) {
                // The wake-up that wanted it found it awake: it is retired again, and
                // a sleeping worker, if any, takes the wake-up instead.
                registry.sleep.restart_failed(index);
            }
        }
    }

    /// Starts a thread for worker `index` with `deque`; returns whether it started.
    ///
    /// If the thread cannot start (the OS refuses one: a thread limit, no memory
    /// for its stack), the deque is back in its slot (the dropped builder returns
    /// it) and the worker stays retired: the pool goes on with the threads it has,
    /// the next wake-up tries again, and a call from outside the pool that finds no
    /// thread at all is told (see `Registry::in_worker_cold`).
    fn start(&self, registry: &Arc<Registry>, index: usize, deque: Local<JobRef>) -> bool {
        // It retired asleep on its terminate latch: that wait is over.
        registry.thread_infos[index].terminate.wake_up();
        let thread = || {
            ThreadBuilder::new(
                self.spec.names[index].clone(),
                self.spec.stack_size,
                WorkerThread::new(Arc::clone(registry), index, deque),
            )
        };
        // Counted from before the spawn: a thread that never runs is uncounted
        // when its builder hands the deque back (`unstarted`).
        self.live.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let started = (self.spec.spawn)(thread());
        let mut last = self.restart_error.lock().unwrap_or_else(|e| e.into_inner());
        let failing = &self.restart_failing;
        match started {
            Ok(()) => {
                *last = None;
                failing.store(false, std::sync::atomic::Ordering::Relaxed);
                true
            }
            Err(e) => {
                let mut building = self.build_error.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(first) = building.as_mut() {
                    first.get_or_insert(e);
                    return true;
                }
                *last = Some(e.to_string());
                failing.store(true, std::sync::atomic::Ordering::Relaxed);
                false
            }
        }
    }
}

/// Hands an item (a worker's deque) from a retiring thread to the next one,
/// whichever of the two comes first.
pub(crate) struct Handoff<T> {
    state: Mutex<HandoffState<T>>,
}

struct HandoffState<T> {
    parked: Option<T>,
    /// A restart came before the item was parked.
    wanted: bool,
}

impl<T> Handoff<T> {
    /// A handoff holding `item` (a worker not started yet).
    pub(crate) fn parked(item: T) -> Self {
        Handoff {
            state: Mutex::new(HandoffState {
                parked: Some(item),
                wanted: false,
            }),
        }
    }

    /// A handoff whose item is in use (a running worker).
    #[cfg(all(test, loom))]
    pub(crate) fn in_use() -> Self {
        Handoff {
            state: Mutex::new(HandoffState {
                parked: None,
                wanted: false,
            }),
        }
    }

    /// The item's thread retired: returns the item if a new thread must start with
    /// it now (a restart came first, and `stopped` is false), else keeps it.
    pub(crate) fn park(&self, item: T, stopped: impl FnOnce() -> bool) -> Option<T> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if std::mem::take(&mut s.wanted) && !stopped() {
            return Some(item);
        }
        s.parked = Some(item);
        None
    }

    /// The item's new thread never started: the item is parked again, and nobody
    /// wants a thread for it any more (the wake-up that did has been answered).
    pub(crate) fn put_back(&self, item: T) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.parked = Some(item);
        s.wanted = false;
    }

    /// A new thread is wanted: returns the item if it is parked (and `stopped` is
    /// false), else notes the wish for `park`.
    pub(crate) fn restart(&self, stopped: impl FnOnce() -> bool) -> Option<T> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if stopped() {
            return None;
        }
        match s.parked.take() {
            Some(item) => Some(item),
            None => {
                s.wanted = true;
                None
            }
        }
    }
}

/// Starts the share workers of a `build_scoped` pool on its scoped threads,
/// through its wrapper (so they get the thread-local set-up its own workers get),
/// while the scope lasts. When `build_scoped` ends it is closed: the idle workers
/// it started retire at once (the scope waits for them), and a worker restarted
/// later (a share kept past `build_scoped`, which the share API refuses, or one
/// racing with the close) runs on a standard thread.
pub(crate) struct ScopedSpawner {
    spawn: std::sync::Mutex<Option<ScopedFn>>,
    /// The pools whose workers it starts.
    pools: std::sync::Mutex<Vec<Weak<Registry>>>,
}

impl std::fmt::Debug for ScopedSpawner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScopedSpawner")
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

/// Starts one scoped thread; its lifetime is erased (see [`ScopedSpawner::new`]).
type ScopedFn = Box<dyn Fn(ThreadBuilder) -> io::Result<()> + Send + Sync>;

impl ScopedSpawner {
    /// A spawner calling `spawn`.
    ///
    /// # Safety
    /// [`ScopedSpawner::close`] must be called before anything `spawn` borrows
    /// goes away (the scope ends).
    pub(crate) unsafe fn new<'a>(
        spawn: Box<dyn Fn(ThreadBuilder) -> io::Result<()> + Send + Sync + 'a>,
    ) -> Arc<Self> {
        // SAFETY: only the lifetime changes; the box is called only under the
        // lock, and `close` drops it under the lock before `'a` ends (the
        // caller's promise), so no call outlives what it borrows.
        let spawn: ScopedFn = unsafe { std::mem::transmute(spawn) };
        Arc::new(ScopedSpawner {
            spawn: std::sync::Mutex::new(Some(spawn)),
            pools: std::sync::Mutex::new(Vec::new()),
        })
    }

    /// Whether the scope has ended.
    pub(crate) fn is_closed(&self) -> bool {
        self.spawn
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
    }

    /// The spawner a retiring pool starts its workers with.
    pub(crate) fn spawner(self: &Arc<Self>) -> Spawner {
        let me = Arc::clone(self);
        Arc::new(move |thread| {
            let spawn = me.spawn.lock().unwrap_or_else(|e| e.into_inner());
            match spawn.as_ref() {
                Some(f) => f(thread),
                None => DefaultSpawn.spawn(thread),
            }
        })
    }

    /// `registry`'s workers are started by this spawner.
    pub(crate) fn track(&self, registry: &Arc<Registry>) {
        let mut pools = self.pools.lock().unwrap_or_else(|e| e.into_inner());
        pools.retain(|p| p.strong_count() > 0);
        pools.push(Arc::downgrade(registry));
    }

    /// The scope ends: no more scoped threads, and the idle workers started here
    /// retire now.
    pub(crate) fn close(&self) {
        drop(self.spawn.lock().unwrap_or_else(|e| e.into_inner()).take());
        let pools = std::mem::take(&mut *self.pools.lock().unwrap_or_else(|e| e.into_inner()));
        for registry in pools.iter().filter_map(Weak::upgrade) {
            registry.sleep.retire_idle_now();
        }
    }
}
