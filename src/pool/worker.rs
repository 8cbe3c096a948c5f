//! Worker threads: the per-thread state, the search for work, and waiting on a latch
//! while executing other jobs of the same pool.

use std::cell::Cell;
use std::ptr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::job::JobRef;
use super::latch::CoreLatch;
use super::preempt;
use super::registry::{Registry, WorkerCounters};
use super::scope::JobFifo;
use super::yield_now::Yield;
use crate::deque::{Local, Steal};

thread_local! {
    /// The worker running on this thread, or null.
    static WORKER_THREAD: Cell<*const WorkerThread> = const { Cell::new(ptr::null()) };
}

/// A small xorshift generator for picking victims (no need for quality, only speed).
struct XorShift64Star {
    state: Cell<u64>,
}

impl XorShift64Star {
    fn new(seed: u64) -> Self {
        // Any non-zero seed works; mix the index so workers differ.
        let seed = seed
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .max(1);
        XorShift64Star {
            state: Cell::new(seed),
        }
    }

    fn next_usize(&self, n: usize) -> usize {
        let mut x = self.state.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state.set(x);
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// The state of one worker, owned by its thread.
pub(crate) struct WorkerThread {
    deque: Local<JobRef>,
    /// The FIFO behind `spawn_fifo` tokens pushed by this worker.
    fifo: JobFifo,
    index: usize,
    rng: XorShift64Star,
    registry: Arc<Registry>,
    /// This worker's preemption flag (in the registry, which `registry` keeps alive).
    preempt: *const std::sync::atomic::AtomicBool,
    /// Instrumentation: the most jobs this worker's deque held right after a push.
    max_queued: Cell<usize>,
    /// This worker's job and steal counters (in the registry), or null when its
    /// pool counts nothing.
    counters: *const WorkerCounters,
}

// SAFETY: the only non-Send fields are `preempt` and `counters`, pointers into the
// registry that the worker's own `Arc<Registry>` keeps alive wherever the worker is
// moved; what they point to is atomic.
unsafe impl Send for WorkerThread {}

impl WorkerThread {
    /// A worker for `registry` at `index`, owning `deque`.
    pub(crate) fn new(registry: Arc<Registry>, index: usize, deque: Local<JobRef>) -> Self {
        let preempt = &raw const registry.thread_infos[index].preempt;
        let counters = registry
            .counters
            .get(index)
            .map_or(ptr::null(), |c| &raw const **c);
        WorkerThread {
            preempt,
            counters,
            deque,
            fifo: JobFifo::new(),
            index,
            rng: XorShift64Star::new(index as u64),
            registry,
            max_queued: Cell::new(0),
        }
    }

    /// The worker of the current thread, if it is one.
    #[inline]
    pub(crate) fn current() -> Option<&'static WorkerThread> {
        let p = WORKER_THREAD.with(Cell::get);
        // SAFETY: the pointer is set by `set_current` for exactly as long as the worker
        // lives (it is cleared before the worker is dropped), and only this thread uses it.
        unsafe { p.as_ref() }
    }

    /// Makes `worker` the current thread's worker until `clear_current`.
    ///
    /// # Safety
    /// `worker` must stay alive and in place until `clear_current` is called on this thread.
    pub(crate) unsafe fn set_current(worker: *const WorkerThread) {
        WORKER_THREAD.with(|w| {
            assert!(w.get().is_null(), "prorata: thread is already a worker");
            w.set(worker);
        });
    }

    /// The current thread is no longer a worker.
    pub(crate) fn clear_current() {
        WORKER_THREAD.with(|w| w.set(ptr::null()));
    }

    /// This worker's index in its pool.
    #[inline]
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// The pool this worker belongs to.
    #[inline]
    pub(crate) fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// Whether this worker's own deque holds jobs.
    #[inline]
    pub(crate) fn has_local_jobs(&self) -> bool {
        !self.deque.is_empty()
    }

    /// Makes every job of this worker's deque stealable (before it parks: a BWoS deque
    /// keeps some private until its owner's next push or pop).
    pub(crate) fn grant_local_jobs(&self) {
        self.deque.grant_all();
    }

    /// Pushes a job on this worker's deque, waking a sleeper if one is needed.
    #[inline]
    pub(crate) fn push(&self, job: JobRef) {
        let len_before = self.deque.len();
        self.deque.push(job);
        if len_before >= self.max_queued.get() {
            self.max_queued.set(len_before + 1);
        }
        self.registry.sleep.new_internal_jobs(1, len_before == 0);
    }

    /// Pushes a job to run in FIFO order with this worker's other `spawn_fifo` jobs.
    ///
    /// # Safety
    /// Same as [`WorkerThread::push`] with `job`: it is live until executed.
    pub(crate) unsafe fn push_fifo(&self, job: JobRef) {
        // SAFETY: this worker outlives its tokens: it exits only when the pool terminates,
        // after every pending spawn has run.
        let token = unsafe { self.fifo.push(job) };
        self.push(token);
    }

    /// Runs one job found anywhere in the pool, if any.
    pub(crate) fn yield_now(&self) -> Yield {
        self.run_one(self.find_work())
    }

    /// Runs one job of this worker's own deque, if any.
    pub(crate) fn yield_local(&self) -> Yield {
        self.run_one(self.take_local_job())
    }

    fn run_one(&self, job: Option<JobRef>) -> Yield {
        match job {
            Some(job) => {
                // SAFETY: a queued job is live until executed, and executed once.
                unsafe { self.execute(job) };
                Yield::Executed
            }
            None => Yield::Idle,
        }
    }

    /// Returns and resets the instrumentation counter of queued jobs.
    pub(crate) fn take_max_queued(&self) -> usize {
        self.max_queued.replace(self.deque.len())
    }

    /// Pops this worker's newest job, or one broadcast to it.
    #[inline]
    pub(crate) fn take_local_job(&self) -> Option<JobRef> {
        if let Some(job) = self.deque.pop() {
            return Some(job);
        }
        let broadcasts = &self.registry.thread_infos[self.index].broadcasts;
        loop {
            match broadcasts.steal() {
                Steal::Success(job) => return Some(job),
                Steal::Empty => return None,
                Steal::Retry => {}
            }
        }
    }

    /// Steals the oldest job of a random other worker.
    fn steal(&self) -> Option<JobRef> {
        let infos = &self.registry.thread_infos;
        let n = infos.len();
        if n <= 1 {
            return None;
        }
        let start = self.rng.next_usize(n);
        loop {
            let mut retry = false;
            for victim in (start..n).chain(0..start) {
                if victim == self.index {
                    continue;
                }
                match infos[victim].stealer.steal() {
                    Steal::Success(job) => {
                        if let Some(c) = self.counters() {
                            WorkerCounters::bump(&c.steals);
                        }
                        return Some(job);
                    }
                    Steal::Empty => {}
                    Steal::Retry => retry = true,
                }
            }
            if !retry {
                return None;
            }
        }
    }

    /// Any job: own deque, then other workers', then the injector.
    pub(crate) fn find_work(&self) -> Option<JobRef> {
        self.take_local_job()
            .or_else(|| {
                // A share worker that gave its core back takes one before it steals
                // (one relaxed load otherwise): a job stolen by a worker that then
                // waits for a core would wait with it, out of reach of the share's
                // running workers. Only when there is work to steal: a retiring
                // worker (nothing left) must exit without waiting for a core.
                if self.preempt_pending() && self.registry.has_work(self.index) {
                    self.check_preempt();
                }
                self.steal()
            })
            .or_else(|| self.registry.pop_injected_job(&self.deque))
    }

    /// Executes a job on this worker (a job start is a safe point).
    ///
    /// # Safety
    /// Same as [`JobRef::execute`].
    #[inline]
    pub(crate) unsafe fn execute(&self, job: JobRef) {
        self.check_preempt();
        if let Some(c) = self.counters() {
            WorkerCounters::bump(&c.jobs);
        }
        // SAFETY: forwarded from the caller.
        unsafe { job.execute() }
    }

    /// This worker's counters, if its pool counts (a share's sub-pool).
    #[inline]
    fn counters(&self) -> Option<&WorkerCounters> {
        // SAFETY: null, or a pointer into the registry, which `self.registry` keeps
        // alive as long as `self`.
        unsafe { self.counters.as_ref() }
    }

    /// Whether this worker's preemption flag is set (one relaxed load).
    #[inline]
    fn preempt_pending(&self) -> bool {
        // SAFETY: the flag lives in the registry, kept alive by `self.registry`.
        unsafe { (*self.preempt).load(Ordering::Relaxed) }
    }

    /// The per-worker preemption check (one relaxed load on the fast path).
    #[inline]
    pub(crate) fn check_preempt(&self) {
        if self.preempt_pending() {
            preempt::preempt_requested(self);
        }
    }

    /// Executes jobs of this pool until `latch` is set, sleeping when there are none.
    #[inline]
    pub(crate) fn wait_until(&self, latch: &CoreLatch) {
        if !latch.probe() {
            self.wait_until_cold(latch);
        }
    }

    #[cold]
    fn wait_until_cold(&self, latch: &CoreLatch) {
        self.run_until(latch);
        preempt::worker_resumed(self);
    }

    /// Executes jobs of this pool until `latch` is set, sleeping when there are none;
    /// returns without taking back a core given up while sleeping (the caller does,
    /// if it goes on with work).
    fn run_until(&self, latch: &CoreLatch) {
        preempt::worker_waiting(self);
        let sleep = &self.registry.sleep;
        // Counted idle only after a fruitless search: leapfrogging onto a job found at
        // once costs no write to the shared sleep counters.
        let mut idle = None;
        while !latch.probe() {
            if let Some(job) = self.find_work() {
                if idle.take().is_some() {
                    sleep.work_found();
                }
                // SAFETY: a queued job is live until executed, and executed once.
                unsafe { self.execute(job) };
            } else {
                let state = idle.get_or_insert_with(|| sleep.start_looking(self.index));
                sleep.no_work_found(state, latch, || self.registry.has_work(self.index));
            }
        }
        if idle.is_some() {
            sleep.work_found();
        }
    }

    /// The main loop of a worker thread: run jobs until the pool terminates.
    pub(crate) fn main_loop(&self) {
        let registry = Arc::clone(&self.registry);
        if let Some(handler) = &registry.handlers.start {
            if super::unwind::halt_unwinding(|| handler(self.index)).is_err() {
                eprintln!("prorata: a start handler panicked; aborting");
                std::process::abort();
            }
        }
        // Not `wait_until`: a retiring worker (its pool, maybe a dropped share's, is
        // terminating) has no work left, so it exits without taking back the core it
        // gave up while sleeping; one it still holds goes back in the exit handler.
        let terminate = &registry.thread_infos[self.index].terminate;
        if !terminate.probe() {
            self.run_until(terminate);
        }
        debug_assert!(
            self.deque.is_empty(),
            "prorata: worker exits with queued jobs"
        );
        if let Some(handler) = &registry.handlers.exit {
            if super::unwind::halt_unwinding(|| handler(self.index)).is_err() {
                eprintln!("prorata: an exit handler panicked; aborting");
                std::process::abort();
            }
        }
    }
}
