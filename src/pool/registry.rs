//! The registry: the shared state of one pool (its workers' stealers, the injector, the
//! sleep state, the handlers) and the ways into it from outside.

use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

use super::flags::WorkerFlags;
use super::frames::FrameStack;
use super::isolate;
use super::job::{JobRef, StackJob};
use super::latch::{CoreLatch, CrossLatch, LatchRef, LockLatch, SpinLatch};
use super::retire::{RetireSpec, Retirement};
use super::scope::JobFifo;
use super::sleep::Sleep;
use super::stats::WorkerCounters;
use super::unwind;
use super::worker::WorkerThread;
use super::worker_exits::WorkerExits;
use crate::deque::{DequeKind, Injector, Local, Steal, Stealer, barrier};

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
    /// The FIFO behind the `spawn_fifo` tokens this worker pushes (here rather than
    /// in the worker, which may go away before its tokens run).
    pub(crate) fifo: JobFifo,
    /// Set when the pool terminates; the worker's main loop waits on it.
    pub(crate) terminate: CoreLatch,
    /// Requests to the worker (the shares' preemption, a thief's publication request),
    /// checked at safe points, joins and job starts.
    pub(crate) flags: WorkerFlags,
    /// The worker's pending join frames (see `frames.rs`).
    pub(crate) frames: FrameStack,
    /// The isolated region the worker runs in, 0 outside any (`isolate.rs`): written
    /// by the worker, read by a thief that claims one of its frames.
    pub(crate) region: AtomicUsize,
    /// The other pools' isolated regions whose work the worker runs (`isolate.rs`),
    /// written by the worker, read by a thief after it claimed one of its frames:
    /// the frame's job carries them too.
    pub(crate) carried: std::sync::Mutex<isolate::Context>,
    /// The worker's word that it fences, after a switch to fences (see
    /// `deque/barrier.rs`): thieves claim its frames and rob its deque only then.
    pub(crate) barrier: barrier::Owner,
}

/// The handlers given to the builder.
#[derive(Default)]
pub(crate) struct Handlers {
    /// Shared with the pool's shares, whose spawned jobs' panics it also receives.
    pub(crate) panic: Option<Arc<PanicHandler>>,
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
    /// The workers' stack size, if the builder set one (a share's workers get it too).
    pub(crate) stack_size: Option<usize>,
    /// The kind of the workers' deques (a share's workers get it too).
    pub(crate) deque: DequeKind,
    /// Whether each worker takes its own oldest job first (`breadth_first`; a share's
    /// workers too).
    pub(crate) breadth_first: bool,
    /// Ticket shares: this pool's permits (if it has shares), or its share's workers.
    pub(crate) shares: super::shares::PoolShares,
    /// Each worker's counters (`stats.rs`).
    pub(crate) counters: Box<[crossbeam_utils::CachePadded<WorkerCounters>]>,
    /// The workers' timeline (`crate::trace`; nothing without the `trace` feature).
    pub(crate) trace: crate::trace::Recorder,
    /// Set when idle workers retire (a share's sub-pool): their threads exit and
    /// start again when woken.
    pub(crate) retire: Option<Retirement>,
    /// The start gate refused a thread for work a worker of this pool pushed, and
    /// no worker has asked again since (see [`Registry::retry_refused_start`]).
    start_refused: AtomicBool,
    /// Whether prorata makes this pool's threads (not a user's spawn handler), so
    /// that it may start relief threads for `block_in_place` (`blocking.rs`).
    makes_threads: AtomicBool,
    /// The workers handed to threads and not ended yet, and the threads to join
    /// (`ThreadPool::wait`).
    pub(crate) exits: Arc<WorkerExits>,
    /// The timer thread of a pool built with `follow_cpu_quota`; stopped when
    /// the pool is dropped (or with the registry).
    pub(crate) quota: std::sync::OnceLock<super::cpu_quota::QuotaFollower>,
}

impl Registry {
    /// A registry for `n` workers, with their deques' owner ends (one per worker, of
    /// kind `deque`). With `retire`, the workers retire when idle and start when woken
    /// (`retire.rs`): none is
    /// started yet, the deques stay in the registry, and none is returned.
    pub(crate) fn new(
        n: usize,
        handlers: Handlers,
        stack_size: Option<usize>,
        deque: DequeKind,
        breadth_first: bool,
        retire: Option<RetireSpec>,
    ) -> (Arc<Registry>, Vec<Local<JobRef>>) {
        barrier::init();
        let new_deque = || {
            if breadth_first {
                Local::new_fifo()
            } else {
                Local::new(deque)
            }
        };
        let deques: Vec<Local<JobRef>> = (0..n).map(|_| new_deque()).collect();
        let thread_infos = deques
            .iter()
            .map(|d| {
                crossbeam_utils::CachePadded::new(ThreadInfo {
                    stealer: d.stealer(),
                    broadcasts: Injector::new(),
                    fifo: JobFifo::new(),
                    terminate: CoreLatch::new(),
                    flags: WorkerFlags::default(),
                    frames: FrameStack::new(),
                    region: AtomicUsize::new(0),
                    carried: std::sync::Mutex::new(Vec::new()),
                    barrier: barrier::Owner::new(),
                })
            })
            .collect();
        let counters: Box<[_]> = (0..n).map(|_| Default::default()).collect();
        let mut deques = Some(deques);
        let registry = Arc::new_cyclic(|me: &Weak<Registry>| {
            let (sleep, retire) = match retire {
                None => (Sleep::new(n), None),
                Some(spec) => {
                    let gate_me = me.clone();
                    let gate =
                        move |start| gate_me.upgrade().is_none_or(|r| r.may_run_thread(start));
                    let spare_me = me.clone();
                    let spare = move || spare_me.upgrade().is_some_and(|r| r.thread_is_spare());
                    let me = me.clone();
                    let restart = move |index: usize| match me.upgrade() {
                        Some(r) => r.retire.as_ref().expect("retiring").restart(&r, index),
                        None => true,
                    };
                    let deques = deques.take().expect("taken once");
                    let retirement = Retirement::new(spec, deques);
                    let sleep = Sleep::retiring(n, Box::new(restart))
                        .with_start_gate(Box::new(gate))
                        .with_spare_gate(Box::new(spare));
                    (sleep, Some(retirement))
                }
            };
            Registry {
                thread_infos,
                sleep,
                injector: Injector::new(),
                terminate_count: AtomicUsize::new(1),
                handlers,
                stack_size,
                deque,
                breadth_first,
                shares: Default::default(),
                counters,
                trace: crate::trace::Recorder::new(n),
                retire,
                start_refused: AtomicBool::new(false),
                makes_threads: AtomicBool::new(false),
                exits: Default::default(),
                quota: std::sync::OnceLock::new(),
            }
        });
        if let Some(deques) = deques {
            return (registry, deques);
        }
        // Each worker counts as retired while asleep on its terminate latch, so
        // terminating the pool goes through its wake-up (which starts nobody).
        for info in &registry.thread_infos {
            info.terminate.fall_asleep();
        }
        (registry, Vec::new())
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

    /// Whether work that a worker of this (retiring) pool pushes may start another
    /// thread (`start`), or wake one asleep (always: that adds no thread): a start
    /// only while its share's threads (started and not retired) all run on cores
    /// and it may get another (`PoolShares::may_start_thread`). Otherwise the work waits for
    /// the threads that run: the worker that pushed it runs or resumes, and takes
    /// it. Work from outside the pool (a call that blocks, a spawn) always may:
    /// its caller is no thread of the pool.
    fn may_run_thread(&self, start: bool) -> bool {
        let own = WorkerThread::current().is_some_and(|w| w.registry().id() == self.id());
        if !own {
            return true;
        }
        if !start {
            // A thread asleep exists already: waking it adds none.
            return true;
        }
        let live = self.retire.as_ref().map_or(0, Retirement::live_threads);
        let may = self.shares.may_start_thread(live);
        if !may {
            self.start_refused.store(true, Ordering::Relaxed);
            self.shares.note_refused_start();
        }
        may
    }

    /// Whether a thread start was refused since a worker last asked again (one
    /// relaxed load, at paced safe points).
    #[inline]
    /// Whether prorata makes this pool's threads (see `makes_threads`).
    pub(crate) fn makes_threads(&self) -> bool {
        self.makes_threads.load(Ordering::Relaxed)
    }

    /// Records that prorata makes this pool's threads (the builder, at build).
    pub(crate) fn set_makes_threads(&self) {
        self.makes_threads.store(true, Ordering::Relaxed);
    }

    pub(crate) fn start_was_refused(&self) -> bool {
        self.start_refused.load(Ordering::Relaxed)
    }

    /// Asks the start gate again for the thread it refused: its answer changes
    /// when a thread of the share gets its core, or when another share stops,
    /// and nothing pushes again in a long leaf loop (the halves a parallel
    /// iterator split off before its first thread held a core would wait for that
    /// thread to finish its own half). Called by worker `index` at its paced
    /// safe points and when it gets a core; wakes one sleeper (through the gate,
    /// which may refuse again) if work still waits.
    #[cold]
    pub(crate) fn retry_refused_start(&self, index: usize) {
        if !self.start_refused.swap(false, Ordering::Relaxed) {
            return;
        }
        if !self.has_work(index) {
            self.shares.no_start_waits();
            return;
        }
        let announced = self.sleep.new_internal_jobs(1, false);
        if announced.woken > 0 {
            // As for a worker's push (`WorkerThread::push`).
            self.shares.workers_woken(announced.woken);
        }
    }

    /// Starts a thread past the shares' thread bound for work that waits: the
    /// share's threads passed no safe point for a while since the bound refused
    /// one, so they may all block outside prorata on a task still queued (see
    /// `pool/shares/stalled_starts.rs`). Called from another share's worker.
    pub(crate) fn start_stalled(&self) {
        if !self.has_work(0) {
            return;
        }
        if self.sleep.wake_one_retired() {
            // As for a worker's push (`WorkerThread::push`).
            self.shares.workers_woken(1);
        }
    }

    /// Whether the worker about to block on this thread (of this retiring pool) is
    /// a thread its share would not start now: the others are enough. Never the
    /// last one (a share in flight keeps a thread). Two workers that ask at once
    /// may both retire; the next work then starts one again.
    fn thread_is_spare(&self) -> bool {
        let live = self.retire.as_ref().map_or(0, Retirement::live_threads);
        self.shares.thread_is_spare(live)
    }

    /// Queues a job from outside the pool and wakes a worker if needed.
    pub(crate) fn inject(&self, job: JobRef) {
        // A call made for the work of one of this pool's isolated regions belongs to
        // it (`isolate.rs`).
        let job = isolate::mark(job, isolate::carried_region(self.id()));
        let was_empty = self.injector.is_empty();
        self.injector.push(job);
        let announced = self.sleep.new_injected_jobs(1, was_empty);
        if announced.woken > 0 && WorkerThread::current().is_none() {
            // As for a worker's push (`WorkerThread::push`): a share's woken worker
            // is announced to the allocator before the OS runs it. Not for a worker
            // of another pool or share, which lends its tickets while it waits and
            // must not be asked for the core its own wait may need.
            self.shares.workers_woken(announced.woken);
        }
    }

    /// The oldest call from outside if it belongs to `region` (`isolate.rs`).
    pub(crate) fn take_injected_in(&self, region: usize) -> Option<JobRef> {
        isolate::take_if_in(&self.injector, region)
    }

    /// Whether calls from outside the pool wait in the injector.
    pub(crate) fn has_injected_jobs(&self) -> bool {
        !self.injector.is_empty()
    }

    /// A worker of this pool that waits for a stolen half of its own work leaves the
    /// injected calls to others for a while (`WorkerThread::find_work_waiting`): a
    /// sleeping worker, if any, is woken for them. The waiting worker counts as idle,
    /// so the injection itself may have woken none.
    pub(crate) fn wake_for_injected(&self) {
        let announced = self.sleep.new_internal_jobs(1, false);
        if announced.woken > 0 {
            // As for a worker's push (`WorkerThread::push`).
            self.shares.workers_woken(announced.woken);
        }
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
        // A broadcast made for an isolated region's work belongs to it, as a spawn
        // or a call does: the caller may wait for its own worker's job there.
        let region = isolate::carried_region(self.id());
        let mut count = 0;
        for (info, job) in self.thread_infos.iter().zip(jobs) {
            info.broadcasts.push(isolate::mark(job, region));
            count += 1;
        }
        debug_assert_eq!(count, self.num_threads());
        for index in 0..count {
            self.sleep.wake_specific_thread(index);
        }
    }

    /// Takes injected jobs (a batch into `worker`'s deque, whose owner's word for the
    /// barrier is `owner`) and returns one.
    pub(crate) fn pop_injected_job(
        &self,
        worker: &Local<JobRef>,
        owner: &barrier::Owner,
    ) -> Option<JobRef> {
        loop {
            match self.injector.steal_batch_and_pop(worker) {
                Steal::Success(job) => {
                    if !owner.note() {
                        // As in `WorkerThread::push`: nobody could rob the batch.
                        worker.grant_all();
                    }
                    return Some(job);
                }
                Steal::Empty => return None,
                Steal::Retry => {}
            }
        }
    }

    /// Whether work that worker `index` could take is waiting: injected, broadcast to it,
    /// queued on any worker's deque, or pending in a worker's join frames that thieves
    /// may claim (the last check before sleeping).
    pub(crate) fn has_work(&self, index: usize) -> bool {
        !self.injector.is_empty()
            || !self.thread_infos[index].broadcasts.is_empty()
            || self.thread_infos.iter().any(|info| {
                !info.stealer.is_empty() || (info.frames.has_pending() && info.barrier.claimable())
            })
    }

    /// Worker `thief` claims the oldest pending join frame of another worker, or else
    /// robs the oldest job its deque keeps private (BWoS), trying each from `start` on
    /// (see `frames.rs`, `deque/bwos/stealer.rs`); the victim is asked to publish its
    /// next.
    pub(crate) fn claim_frame(&self, thief: usize, start: usize) -> Option<JobRef> {
        self.claim_frame_in(thief, start, None)
    }

    /// As [`Registry::claim_frame`]; with `Some(region)`, for a worker that waits
    /// inside that isolated region (`isolate.rs`): only frames of workers that run in
    /// the same region, and nothing robbed from a deque (whose jobs may be of any
    /// region). A claimed frame belongs to the region its owner runs in when it is
    /// claimed (read after the claim, so the frame's recording, which the owner made
    /// inside that region, is seen first); its job is marked with that region.
    pub(crate) fn claim_frame_in(
        &self,
        thief: usize,
        start: usize,
        region: Option<usize>,
    ) -> Option<JobRef> {
        let n = self.thread_infos.len();
        (start..n).chain(0..start).find_map(|victim| {
            if victim == thief {
                return None;
            }
            let info = &self.thread_infos[victim];
            if region.is_some_and(|r| info.region.load(Ordering::SeqCst) != r) {
                return None;
            }

            if !info.barrier.claimable() {
                // Since a switch to fences, until the victim's word (see
                // `deque/barrier.rs`): it publishes when asked instead.
                info.flags.raise_publish();
                return None;
            }
            let claimed = if info.frames.has_pending() {
                // SAFETY: every job of a frame stack is a join's `StackJob`, whose latch
                // comes first; it is being handed out under the stack's lock.
                info.frames.claim_oldest(&info.barrier, |job| unsafe {
                    SpinLatch::init(job.data().cast(), self, victim);
                })
            } else {
                None
            };
            let job = match claimed {
                Some(job) => isolate::mark_with(
                    job,
                    info.region.load(Ordering::SeqCst),
                    info.carried
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .clone(),
                ),
                None if region.is_none() => info.stealer.rob(&info.barrier)?,
                None => return None,
            };
            info.flags.raise_publish();
            Some(job)
        })
    }

    /// Worker `thief` found nothing to do: every other worker is asked to publish its
    /// oldest pending join frame (a flag each checks at its next join or safe point).
    pub(crate) fn request_publication(&self, thief: usize) {
        for (index, info) in self.thread_infos.iter().enumerate() {
            if index != thief {
                info.flags.raise_publish();
            }
        }
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
                    "prorata: a spawned job or a start/exit handler panicked and the pool has no panic handler; aborting"
                );
                std::process::abort();
            }
        }
    }

    /// Runs the start handler, if any, for worker `index` (on a thread that starts
    /// running its jobs: its own, or a `block_in_place` relief).
    pub(crate) fn run_start_handler(&self, index: usize) {
        if let Some(handler) = &self.handlers.start {
            self.catch_handler_panic(|| handler(index));
        }
    }

    /// Runs the exit handler, if any, for worker `index` (as `run_start_handler`).
    pub(crate) fn run_exit_handler(&self, index: usize) {
        if let Some(handler) = &self.handlers.exit {
            self.catch_handler_panic(|| handler(index));
        }
    }

    /// Runs a start or exit handler; a panic in it goes to the panic handler (as
    /// Rayon does), which aborts the process when there is none.
    pub(crate) fn catch_handler_panic(&self, handler: impl FnOnce()) {
        if let Err(payload) = unwind::halt_unwinding(handler) {
            self.handle_panic(payload);
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
        // The isolated region this thread works for, if any, goes with the call.
        let context = isolate::current_context();
        LOCK_LATCH.with(|latch| {
            let job = StackJob::new(
                |_| {
                    let worker = WorkerThread::current().expect("prorata: injected job off-pool");
                    isolate::carrying(context, || op(worker, true))
                },
                LatchRef::new(latch),
            );
            // SAFETY: `job` stays on this stack frame until its latch is set below:
            // nothing between the injection and the wait unwinds, but the panic that
            // follows taking the job back out of the injector, unrun. Its execution
            // catches `op`'s panics (`StackJob`).
            let job_ref = unsafe { job.as_job_ref() };
            let data = job_ref.data();
            self.inject(job_ref);
            if let Some(error) = self.no_thread_can_start() {
                if self.take_back_injected(data) {
                    panic!("prorata: no thread of this pool could be started ({error}); the call did not run");
                }
            }
            latch.wait_and_reset();
            job.into_result()
        })
    }

    /// Why no thread of this pool can run a job now, if none can: its workers have
    /// all retired, and starting one again failed (a retiring pool: a share's).
    fn no_thread_can_start(&self) -> Option<String> {
        let error = self.retire.as_ref()?.restart_error()?;
        self.sleep.all_retired().then_some(error)
    }

    /// Takes the job whose data is `data` out of the injector, if it is still there;
    /// the other jobs taken out on the way go back.
    fn take_back_injected(&self, data: *const ()) -> bool {
        let mut others = Vec::new();
        let mut found = false;
        loop {
            match self.injector.steal() {
                Steal::Success(job) if isolate::inner_data(&job) == data => {
                    let _unrun = isolate::unwrap(job);
                    found = true;
                }
                Steal::Success(job) => others.push(job),
                Steal::Empty => break,
                Steal::Retry => {}
            }
        }
        for job in others {
            self.injector.push(job);
        }
        found
    }

    #[cold]
    fn in_worker_cross<OP, R>(self: &Arc<Self>, current: &WorkerThread, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread, bool) -> R + Send,
        R: Send,
    {
        let latch = CrossLatch::new(current.registry(), current.index());
        // A call from inside an isolated region carries it: a call back into the
        // caller's pool belongs to the region (see `isolate.rs`).
        let context = isolate::current_context();
        let job = StackJob::new(
            |_| {
                let worker = WorkerThread::current().expect("prorata: injected job off-pool");
                isolate::carrying(context, || op(worker, true))
            },
            latch,
        );
        // A worker of share A waiting on share B lends A's tickets to B meanwhile.
        let _lend = current.registry().shares.lend_to(&self.shares);
        // SAFETY: `job` stays on this stack frame until its latch is set: `wait_until`
        // returns only then, and does not unwind (a job it runs meanwhile would abort,
        // see `WorkerThread::execute`). Its execution catches `op`'s panics.
        self.inject(unsafe { job.as_job_ref() });
        current.wait_until(&job.latch.core);
        job.into_result()
    }
}
