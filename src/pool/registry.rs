//! The registry: the shared state of one pool (its workers' stealers, the injector, the
//! sleep state, the handlers) and the ways into it from outside.

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::job::{JobRef, StackJob};
use super::latch::{CoreLatch, LatchRef, LockLatch, SpinLatch};
use super::sleep::Sleep;
use super::unwind;
use super::worker::WorkerThread;
use crate::deque::{DequeKind, Injector, Local, Steal, Stealer};

/// A handler called with a worker's index (start and exit handlers).
pub(crate) type IndexHandler = dyn Fn(usize) + Send + Sync;
/// A handler called with the payload of a panic in a spawned job.
pub(crate) type PanicHandler = dyn Fn(Box<dyn Any + Send>) + Send + Sync;

/// What the registry keeps about each worker.
pub(crate) struct ThreadInfo {
    /// The thieves' end of the worker's deque.
    pub(crate) stealer: Stealer<JobRef>,
    /// Jobs that only this worker may run (broadcasts).
    pub(crate) broadcasts: Injector<JobRef>,
    /// Set when the pool terminates; the worker's main loop waits on it.
    pub(crate) terminate: CoreLatch,
    /// The per-worker preemption flag, checked at safe points, joins and job starts (the
    /// shares layer sets it to ask for the core back).
    pub(crate) preempt: AtomicBool,
}

/// Counters of one worker of a pool that counts (a share's sub-pool): written only
/// by that worker (relaxed load and store, no read-modify-write), summed on read.
#[derive(Debug, Default)]
pub(crate) struct WorkerCounters {
    /// Jobs the worker took from a queue and ran.
    pub(crate) jobs: AtomicU64,
    /// Jobs the worker stole from another worker's deque.
    pub(crate) steals: AtomicU64,
}

impl WorkerCounters {
    /// Adds one to `counter`; only the owning worker calls this.
    #[inline]
    pub(crate) fn bump(counter: &AtomicU64) {
        counter.store(counter.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }
}

/// The handlers given to the builder.
#[derive(Default)]
pub(crate) struct Handlers {
    pub(crate) panic: Option<Box<PanicHandler>>,
    pub(crate) start: Option<Box<IndexHandler>>,
    pub(crate) exit: Option<Box<IndexHandler>>,
}

/// The shared state of a pool.
pub(crate) struct Registry {
    pub(crate) thread_infos: Vec<crossbeam_utils::CachePadded<ThreadInfo>>,
    pub(crate) sleep: Sleep,
    injector: Injector<JobRef>,
    /// One count for each `ThreadPool` handle and each pending `spawn`; at zero the
    /// workers are told to exit.
    terminate_count: AtomicUsize,
    pub(crate) handlers: Handlers,
    /// Ticket shares: this pool's permits (if it has shares), or its share's workers.
    pub(crate) shares: crate::shares::PoolShares,
    /// One entry per worker when the pool counts its jobs and steals (a share's
    /// sub-pool); empty otherwise, and then the workers count nothing.
    pub(crate) counters: Box<[crossbeam_utils::CachePadded<WorkerCounters>]>,
}

impl Registry {
    /// A registry for `n` workers, with their deques' owner ends (one per worker, of
    /// kind `deque`); `count` gives each worker job and steal counters.
    pub(crate) fn new(
        n: usize,
        handlers: Handlers,
        count: bool,
        deque: DequeKind,
    ) -> (Arc<Registry>, Vec<Local<JobRef>>) {
        let deques: Vec<Local<JobRef>> = (0..n).map(|_| Local::new(deque)).collect();
        let thread_infos = deques
            .iter()
            .map(|d| {
                crossbeam_utils::CachePadded::new(ThreadInfo {
                    stealer: d.stealer(),
                    broadcasts: Injector::new(),
                    terminate: CoreLatch::new(),
                    preempt: AtomicBool::new(false),
                })
            })
            .collect();
        let registry = Arc::new(Registry {
            thread_infos,
            sleep: Sleep::new(n),
            injector: Injector::new(),
            terminate_count: AtomicUsize::new(1),
            handlers,
            shares: Default::default(),
            counters: (0..if count { n } else { 0 })
                .map(|_| Default::default())
                .collect(),
        });
        (registry, deques)
    }

    /// Number of workers.
    #[inline]
    pub(crate) fn num_threads(&self) -> usize {
        self.thread_infos.len()
    }

    /// An identity for "is this worker mine".
    #[inline]
    pub(crate) fn id(&self) -> usize {
        self as *const Registry as usize
    }

    /// Queues a job from outside the pool and wakes a worker if needed.
    pub(crate) fn inject(&self, job: JobRef) {
        let was_empty = self.injector.is_empty();
        self.injector.push(job);
        self.sleep.new_injected_jobs(1, was_empty);
    }

    /// Pushes on the current worker's deque if it belongs to this pool, else injects.
    pub(crate) fn inject_or_push(&self, job: JobRef) {
        match WorkerThread::current() {
            Some(worker) if worker.registry().id() == self.id() => worker.push(job),
            _ => self.inject(job),
        }
    }

    /// Queues one job for each worker (`jobs` yields exactly `num_threads` jobs) and
    /// wakes every worker that sleeps.
    pub(crate) fn inject_broadcast(&self, jobs: impl Iterator<Item = JobRef>) {
        let mut count = 0;
        for (info, job) in self.thread_infos.iter().zip(jobs) {
            info.broadcasts.push(job);
            count += 1;
        }
        debug_assert_eq!(count, self.num_threads());
        for index in 0..count {
            self.sleep.wake_specific_thread(index);
        }
    }

    /// Takes injected jobs (a batch into `worker`'s deque) and returns one.
    pub(crate) fn pop_injected_job(&self, worker: &Local<JobRef>) -> Option<JobRef> {
        loop {
            match self.injector.steal_batch_and_pop(worker) {
                Steal::Success(job) => return Some(job),
                Steal::Empty => return None,
                Steal::Retry => {}
            }
        }
    }

    /// Whether work that worker `index` could take is waiting: injected, broadcast to it,
    /// or queued on any worker's deque (the last check before sleeping).
    pub(crate) fn has_work(&self, index: usize) -> bool {
        !self.injector.is_empty()
            || !self.thread_infos[index].broadcasts.is_empty()
            || self
                .thread_infos
                .iter()
                .any(|info| !info.stealer.is_empty())
    }

    /// One more reason to keep the workers alive (a handle or a pending spawn).
    pub(crate) fn increment_terminate_count(&self) {
        let old = self.terminate_count.fetch_add(1, Ordering::AcqRel);
        assert!(old != 0, "prorata: spawn into a pool that has terminated");
        assert!(old < usize::MAX / 2, "prorata: terminate count overflow");
    }

    /// One reason fewer; at zero every worker is told to exit once idle.
    pub(crate) fn terminate(&self) {
        if self.terminate_count.fetch_sub(1, Ordering::AcqRel) == 1 {
            for (index, info) in self.thread_infos.iter().enumerate() {
                // SAFETY: the latch lives in the registry, which `self` keeps alive.
                if unsafe { CoreLatch::set(&info.terminate) } {
                    self.sleep.wake_specific_thread(index);
                }
            }
        }
    }

    /// Hands the panic of a spawned job to the panic handler; without one, aborts (as
    /// Rayon does: a spawned job has nobody to report to).
    pub(crate) fn handle_panic(&self, payload: Box<dyn Any + Send>) {
        match &self.handlers.panic {
            Some(handler) => {
                if unwind::halt_unwinding(|| handler(payload)).is_err() {
                    eprintln!("prorata: the panic handler panicked; aborting");
                    std::process::abort();
                }
            }
            None => {
                eprintln!(
                    "prorata: a spawned job panicked and the pool has no panic handler; aborting"
                );
                std::process::abort();
            }
        }
    }

    /// Runs `op` on a worker of this pool: directly if the current thread is one, else by
    /// injecting it and waiting (stealing its own pool's work if the caller is a worker of
    /// another pool, blocking if it is a plain thread).
    #[inline]
    pub(crate) fn in_worker<OP, R>(self: &Arc<Self>, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread, bool) -> R + Send,
        R: Send,
    {
        match WorkerThread::current() {
            Some(worker) if worker.registry().id() == self.id() => op(worker, false),
            Some(worker) => self.in_worker_cross(worker, op),
            None => self.in_worker_cold(op),
        }
    }

    #[cold]
    fn in_worker_cold<OP, R>(self: &Arc<Self>, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread, bool) -> R + Send,
        R: Send,
    {
        thread_local!(static LOCK_LATCH: LockLatch = LockLatch::new());
        LOCK_LATCH.with(|latch| {
            let job = StackJob::new(
                |_| {
                    let worker = WorkerThread::current().expect("prorata: injected job off-pool");
                    op(worker, true)
                },
                LatchRef::new(latch),
            );
            // SAFETY: `job` stays on this stack frame until its latch is set below.
            self.inject(unsafe { job.as_job_ref() });
            latch.wait_and_reset();
            job.into_result()
        })
    }

    #[cold]
    fn in_worker_cross<OP, R>(self: &Arc<Self>, current: &WorkerThread, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread, bool) -> R + Send,
        R: Send,
    {
        let latch = SpinLatch::cross(current.registry(), current.index());
        let job = StackJob::new(
            |_| {
                let worker = WorkerThread::current().expect("prorata: injected job off-pool");
                op(worker, true)
            },
            latch,
        );
        // A worker of share A waiting on share B lends A's tickets to B meanwhile.
        let _lend = current.registry().shares.lend_to(&self.shares);
        // SAFETY: `job` stays on this stack frame until its latch is set below.
        self.inject(unsafe { job.as_job_ref() });
        current.wait_until(&job.latch.core);
        job.into_result()
    }
}
