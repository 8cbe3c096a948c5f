//! Worker threads: the per-thread state, the search for work, and waiting on a latch
//! while executing other jobs of the same pool.

use std::cell::Cell;
use std::ptr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::flags::WorkerFlags;
use super::frames::{CAPACITY, FrameStack};
use super::isolate;
use super::job::JobRef;
use super::latch::{CoreLatch, SpinLatch};
use super::preempt;
use super::registry::{Registry, ThreadInfo};
use super::retire::Retirement;
use super::sleep::Slept;
use super::stats::WorkerCounters;
use super::unwind::AbortIfPanic;
use super::yield_now::Yield;
use crate::deque::{Local, Steal};
use crate::trace::Kind;

thread_local! {
    /// The worker running on this thread, or null.
    static WORKER_THREAD: Cell<*const WorkerThread> = const { Cell::new(ptr::null()) };
    /// What the registry keeps of that worker (its flags and join frames), or null: a
    /// `join` starts here, so that its fast path reads no field of the worker.
    static WORKER_INFO: Cell<*const ThreadInfo> = const { Cell::new(ptr::null()) };
}

/// A worker of a 2-worker pool publishes a pending join frame at most every 50 µs
/// when it is asked or starts a job (before it waits it publishes them all): thieves
/// then take a piece of a busy worker's fine-grained work at most that often, while
/// coarse work still spreads within that delay. A pool of which `n` workers can run
/// at once divides this budget by `n` (see [`publish_interval`] and
/// [`WorkerThread::running`]): a busy worker may have up to `n - 1` thieves to
/// feed. On 16 processors, a call of 10,000 items of 0.1 µs on an idle
/// pool of 16 took 265 µs at the median with 50 µs between publications, and 227
/// µs with 10 (Rayon 227-239), four sleepers woken at each job's first join.
const PUBLISH_BUDGET: Duration = Duration::from_micros(100);

/// How often a worker of a pool of which `running` workers can run at once may
/// publish (see [`PUBLISH_BUDGET`]): 50 µs for 2, 6 µs for 16.
fn publish_interval(running: usize) -> Duration {
    PUBLISH_BUDGET / running.max(2) as u32
}

/// How many sleeping workers the first frame of a job wakes when it is published,
/// in a pool of which `running` workers can run at once (see
/// [`WorkerThread::running`]): about the square root (1 for up to 3,
/// 4 for 16, 16 for 256), so that a call spreads over an idle pool in about two
/// wake-up latencies, as Rayon's wake-up at each push does, while the worker that
/// publishes pays only that many wake-ups (each a system call). Measured on 16
/// processors: one sleeper per first frame woke the 8th worker about 250 µs into a
/// call of 10,000 items of 0.1 µs (1 ms of work) and the 16th never; four woke the
/// 16th within about 160 µs. Waking more workers than can run only makes them queue
/// for processors (64 workers of shares on 2 processors completed 30% fewer items).
fn first_frame_wakes(running: usize) -> u32 {
    ((running as f64).sqrt() as u32).max(1)
}

/// The processors this process may run on (read once).
fn processors() -> usize {
    static PROCESSORS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *PROCESSORS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The most jobs one steal takes from a BWoS deque (half of what the victim's block
/// offers, up to this): the thief runs the first and queues the rest, so a worker that
/// spawns many small jobs is robbed once per batch, not once per job. Chase-Lev deques
/// are stolen from a job at a time.
const STEAL_BATCH: usize = 8;

/// How long a worker that waits for a stolen half of its own work leaves new calls
/// from outside the pool to others, while the job it started from its main loop is
/// young (see [`WorkerThread::find_work_waiting`]): longer than the last piece of a
/// call usually takes (a leaf runs a few hundred microseconds between safe points),
/// short next to a quantum.
const INJECTED_AFTER: Duration = Duration::from_millis(1);
/// From this age on, the job a worker started from its main loop counts as long: a
/// worker that waits within it starts a new call from outside at once, as Rayon's do.
const LONG_JOB: Duration = Duration::from_millis(2);

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
    /// Frame-stack pushes at indices `1..=high_water` take the fast path while no
    /// request closes the gate (`flags.rs`): below the high-water mark of the stack
    /// (instrumentation sees every new high on the slow path), and not the first frame
    /// of a job (which is published at once).
    high_water: Cell<usize>,
    /// When this worker last published a frame on request or at a job's start.
    last_publish: Cell<Option<Instant>>,
    /// Whether a thief took the last join frame this worker published (rather than
    /// the worker taking it back itself): the first frame of its next job is then
    /// published at once, without waiting out [`publish_interval`].
    publish_taken: Cell<bool>,
    /// The pool's workers or the machine's processors, whichever is fewer (see
    /// [`WorkerThread::running`]).
    running: usize,
    /// When this worker last started a job from its main loop (the age of the work
    /// its waits belong to, see [`WorkerThread::find_work_waiting`]).
    outer_start: Cell<Option<Instant>>,
    index: usize,
    rng: XorShift64Star,
    registry: Arc<Registry>,
    /// What the registry keeps of this worker (its flags and pending join frames), which
    /// `registry` keeps alive.
    info: *const ThreadInfo,
    /// Instrumentation: the most jobs this worker's deque held right after a push.
    max_queued: Cell<usize>,
    /// This worker's counters (in the registry).
    counters: *const WorkerCounters,
    /// How many calls on its thread's stack hold a reference to this worker across user
    /// code, besides joins (see [`WorkerThread::in_use`]).
    uses: Cell<usize>,
}

// SAFETY: the only non-Send fields are `info` and `counters`, pointers into the
// registry that the worker's own `Arc<Registry>` keeps alive wherever the worker is
// moved; what they point to is atomic.
unsafe impl Send for WorkerThread {}

impl WorkerThread {
    /// A worker for `registry` at `index`, owning `deque`.
    pub(crate) fn new(registry: Arc<Registry>, index: usize, deque: Local<JobRef>) -> Self {
        let info: *const ThreadInfo = &*registry.thread_infos[index];
        let counters: *const WorkerCounters = &*registry.counters[index];
        let workers = registry.num_threads();
        WorkerThread {
            running: workers.min(processors()),
            info,
            counters,
            deque,
            high_water: Cell::new(0),
            last_publish: Cell::new(None),
            publish_taken: Cell::new(false),
            outer_start: Cell::new(None),
            index,
            rng: XorShift64Star::new(index as u64),
            registry,
            max_queued: Cell::new(0),
            uses: Cell::new(0),
        }
    }

    /// The worker of the current thread, if it is one.
    ///
    /// The reference is not `'static`: it is valid while the worker stays this thread's,
    /// which `set_current`'s callers guarantee for as long as any code on this thread's
    /// stack may hold it (a worker thread's whole main loop; for the worker 0 of a
    /// `use_current_thread` pool, until [`WorkerThread::is_in_use`] is false, see
    /// `current_thread.rs`).
    #[inline]
    pub(crate) fn current() -> Option<&'static WorkerThread> {
        let p = WORKER_THREAD.with(Cell::get);
        // SAFETY: the pointer is set by `set_current` and cleared before the worker is
        // dropped or leaves this thread, never while a reference from here is still held
        // on this thread's stack (see above); only this thread uses the worker.
        unsafe { p.as_ref() }
    }

    /// What the registry keeps of the current thread's worker, if it is one.
    #[inline]
    pub(crate) fn current_info() -> Option<&'static ThreadInfo> {
        let p = WORKER_INFO.with(Cell::get);
        // SAFETY: set and cleared with `WORKER_THREAD`, under the same rule; the worker's
        // registry, which holds the info, outlives the worker.
        unsafe { p.as_ref() }
    }

    /// Runs `f`, during which this worker is *in use* on its thread: the caller holds a
    /// reference to it across user code (a scope's body and wait, a wait for a latch, a
    /// yield: jobs run there). A join needs no call: its pending frame marks the worker
    /// in use. The worker 0 of a `use_current_thread` pool stays on its thread while it
    /// is in use, even if its pool is dropped meanwhile (see `current_thread.rs`).
    #[inline]
    pub(crate) fn in_use<R>(&self, f: impl FnOnce() -> R) -> R {
        /// Ends the use, also on unwinding (a scope re-raises a panic from inside).
        struct Leave<'a>(&'a Cell<usize>);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                self.0.set(self.0.get() - 1);
            }
        }
        self.uses.set(self.uses.get() + 1);
        let _leave = Leave(&self.uses);
        f()
    }

    /// Whether code on this thread's stack may hold a reference to this worker (inside
    /// [`WorkerThread::in_use`], or a join whose frame is recorded). Owner only.
    pub(crate) fn is_in_use(&self) -> bool {
        self.uses.get() > 0 || self.frames().len() > 0
    }

    /// Makes `worker` the current thread's worker until `clear_current`.
    ///
    /// # Safety
    /// `worker` must stay alive, in place and this thread's alone until `clear_current`
    /// is called on this thread, which must not happen while code on this thread's stack
    /// may still use a reference from [`WorkerThread::current`] (or `current_info`).
    pub(crate) unsafe fn set_current(worker: *const WorkerThread) {
        WORKER_THREAD.with(|w| {
            assert!(w.get().is_null(), "prorata: thread is already a worker");
            w.set(worker);
        });
        // SAFETY: `worker` is alive per the contract.
        WORKER_INFO.with(|i| i.set(unsafe { (*worker).info }));
    }

    /// Runs `f` (a worker thread's whole life) with this worker as the current thread's,
    /// and unregisters it when `f` returns or unwinds: the thread never keeps a pointer
    /// to a worker that its caller then drops.
    pub(crate) fn run_as_current<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Unregister;
        impl Drop for Unregister {
            fn drop(&mut self) {
                WorkerThread::clear_current();
            }
        }
        // SAFETY: `self` is borrowed for the whole call, so it stays alive and in place,
        // and it is this thread's alone (a `WorkerThread` is not `Sync`, so no other
        // thread holds a reference). `Unregister` clears it when the call ends, also on
        // unwinding, once nothing that `f` ran holds a reference any more.
        unsafe { WorkerThread::set_current(self) };
        let _unregister = Unregister;
        f()
    }

    /// The current thread is no longer a worker.
    pub(crate) fn clear_current() {
        WORKER_INFO.with(|i| i.set(ptr::null()));
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

    /// Whether this worker has jobs of its own pending: on its deque, or second halves
    /// of its joins not published yet.
    #[inline]
    pub(crate) fn has_local_jobs(&self) -> bool {
        !self.deque.is_empty() || self.frames().has_pending()
    }

    /// Makes every job of this worker's deque stealable (before it parks: a BWoS deque
    /// keeps some private until its owner's next push or pop).
    pub(crate) fn grant_local_jobs(&self) {
        self.deque.grant_all();
    }

    /// Pushes a job on this worker's deque, waking a sleeper if one is needed.
    #[inline]
    pub(crate) fn push(&self, job: JobRef) {
        self.push_waking(job, 1);
    }

    /// Pushes a job on this worker's deque, waking up to `wakes` sleepers (fewer if
    /// workers are looking for work already).
    #[inline]
    fn push_waking(&self, job: JobRef, wakes: u32) {
        // A job queued inside an isolated region belongs to it (`isolate.rs`).
        let job = isolate::mark(job, self.region());
        let len_before = self.deque.len();
        self.deque.push(job);
        self.note_queued(len_before + 1 + self.frames().pending());
        let announced = self
            .registry
            .sleep
            .new_internal_jobs(wakes, len_before == 0);
        if announced.woken > 0 {
            // A worker of a share woken for this job will ask for a core: the
            // allocator may take one back for it now (see `shares::PoolShares`).
            self.registry.shares.workers_woken(announced.woken);
        }
        if announced.idle || !self.info().barrier.note() {
            // A worker is looking for work or asleep: a BWoS deque, which keeps a lone
            // job private, shows it this one now (Chase-Lev shows every job). Where
            // idle workers cannot rob private jobs (since a switch to fences, until
            // this worker has said that it fences: see `deque/barrier.rs`), every job
            // is shown at once, so that an owner blocked in user code hides none.
            self.deque.grant_all();
        }
    }

    /// The index of the current thread's worker's (`info`) next join frame, if it may
    /// take the fast path ([`WorkerThread::record_fast_frame`]): not the first frame of
    /// a job, below the high-water mark, and no request raised. A request raised for
    /// this worker (a thief's publication request, the shares' preemption) closes the
    /// fast path's gate (`flags.rs`), so the slow path ([`WorkerThread::push_frame`])
    /// answers it.
    #[inline]
    pub(crate) fn fast_frame(info: &ThreadInfo) -> Option<usize> {
        info.frames.fast_index(info.flags.gate())
    }

    /// Records the second half of a join at `index`, from [`WorkerThread::fast_frame`].
    ///
    /// # Safety
    /// `info` is the current thread's worker's, and nothing was recorded since `index`
    /// came from `fast_frame`. `job` is a join's (see `push_frame`).
    #[inline]
    pub(crate) unsafe fn record_fast_frame(info: &ThreadInfo, index: usize, job: JobRef) {
        // SAFETY: forwarded from the caller; the gate is below the capacity.
        unsafe { info.frames.record_fast(index, job) };
    }

    /// Records the second half of a join (see `frames.rs`) on the slow path, and
    /// answers the requests raised for this worker.
    ///
    /// # Safety
    /// `job` is a `StackJob<SpinLatch, _, _>`'s (its latch is initialised when the
    /// frame is handed out, see [`SpinLatch`]), which stays in place until it is taken
    /// back or its latch is set.
    pub(crate) unsafe fn push_frame(&self, job: JobRef) -> usize {
        let index = self.record_frame(job);
        let flags = self.flags();
        if flags.any() || flags.gate_closed(self.high_water.get()) {
            self.answer_requests();
        }
        index
    }

    /// Takes back frame `index` of the current thread's worker (`info`) once the
    /// join's first half has returned: true if its job was never published, so the
    /// caller runs it inline; false if it is on the deque or was stolen from it.
    #[inline]
    pub(crate) fn take_frame(info: &ThreadInfo, index: usize) -> bool {
        info.frames.pop(index)
    }

    /// Records a frame on the slow path.
    fn record_frame(&self, job: JobRef) -> usize {
        // After a switch to fences, thieves claim this worker's frames once it says
        // that it sees it (see `deque/barrier.rs`): at the first frame of each job, at
        // least.
        self.info().barrier.note();
        let frames = self.frames();
        if frames.is_full() {
            self.publish_all();
        }
        let index = match frames.push_slow(job) {
            Ok(index) => index,
            Err((index, job)) => {
                self.prepare_frame(&job);
                self.note(Kind::Publish, 0);
                self.push(job);
                return index;
            }
        };
        // A new high-water mark (the fast path's limit is at most `CAPACITY - 1`); the
        // gate opens to it when the caller answers the requests.
        self.high_water
            .set(self.high_water.get().max(index.min(CAPACITY - 1)));
        self.note_queued(self.deque.len() + frames.pending());
        if index == 0 {
            // The first frame of a job: published, as in eager work stealing, so that
            // pushing it wakes sleeping workers for coarse work (unless this worker
            // published very recently and took that frame back itself: a stream of
            // small jobs stays on it, while calls whose halves thieves take, such as a
            // search that ends soon after its first split, still spread at once).
            let wakes = first_frame_wakes(self.running());
            self.publish_paced(self.publish_taken.get(), wakes);
        }
        index
    }

    /// How many workers of this pool can run at once, as its wake-ups and its
    /// pacing of publications count them: its workers or the machine's
    /// processors, whichever is fewer, and no more than 2 in a pool of shares.
    /// Each worker woken there must take a core permit from the shares'
    /// allocator: waking four at once for each job of 16 shares on 16
    /// processors made twice the allocator's calls and completed a third fewer
    /// items.
    fn running(&self) -> usize {
        if self.registry.shares.takes_permits() {
            self.running.min(2)
        } else {
            self.running
        }
    }

    /// Notes whether a thief took the frame this worker published last (see
    /// `publish_taken`).
    #[inline]
    pub(crate) fn note_publish_taken(&self, taken: bool) {
        self.publish_taken.set(taken);
    }

    /// Moves the oldest pending join frame to the deque if thieves have nothing of
    /// this worker's to take and, unless `at_once`, it did not publish within
    /// `publish_interval`; the frame's push wakes up to `wakes` sleepers.
    fn publish_paced(&self, at_once: bool, wakes: u32) {
        if !self.frames().has_pending() || !self.deque.is_empty() {
            return;
        }
        let now = Instant::now();
        let interval = publish_interval(self.running());
        if !at_once
            && self
                .last_publish
                .get()
                .is_some_and(|last| now.duration_since(last) < interval)
        {
            return;
        }
        self.last_publish.set(Some(now));
        self.publish_oldest(wakes);
    }

    /// Initialises the latch of a join frame's job that leaves the frame stack.
    fn prepare_frame(&self, job: &JobRef) {
        // SAFETY: every job of a frame stack is a join's `StackJob`, whose latch comes
        // first (`push_frame`); it is being handed out by its owner.
        unsafe { SpinLatch::init(job.data().cast(), &self.registry, self.index) };
    }

    /// Moves the oldest pending join frame to the deque; false if none is pending.
    fn publish_oldest(&self, wakes: u32) -> bool {
        let Some(job) = self.frames().publish_oldest(|job| self.prepare_frame(job)) else {
            return false;
        };
        self.note(Kind::Publish, 0);
        self.push_waking(job, wakes);
        true
    }

    /// Moves every unpublished join frame to the deque (before this worker waits, yields
    /// or parks, so that others can run them).
    #[inline]
    pub(crate) fn publish_all(&self) {
        while self.publish_oldest(1) {}
    }

    /// An iterator's safe point: the requests raised for this worker are answered.
    #[inline]
    pub(crate) fn safe_point(&self) {
        self.check_flags();
    }

    /// Instrumentation: `queued` jobs are pending on this worker now.
    #[inline]
    fn note_queued(&self, queued: usize) {
        if queued > self.max_queued.get() {
            self.max_queued.set(queued);
        }
    }

    /// Pushes a job to run in FIFO order with this worker's other `spawn_fifo` jobs.
    ///
    /// # Safety
    /// Same as [`WorkerThread::push`] with `job`: it is live until executed.
    pub(crate) unsafe fn push_fifo(&self, job: JobRef) {
        if self.region() != 0 {
            // Inside an isolated region the FIFO's next job, which a token runs, may
            // be an outer one: the job is queued itself (isolated, in no order).
            self.push(job);
            return;
        }
        // The FIFO is in the registry, not in this worker: the worker can go away
        // before its tokens run (worker 0 of a `use_current_thread` pool dropped on its
        // thread leaves them to the others).
        let fifo = &self.registry.thread_infos[self.index].fifo;
        // SAFETY: the registry outlives the token: only its own workers, which hold it
        // alive, take jobs from its deques.
        let token = unsafe { fifo.push(job) };
        self.push(token);
    }

    /// Runs one job found anywhere in the pool, if any (inside an isolated region,
    /// one of that region's).
    pub(crate) fn yield_now(&self) -> Yield {
        self.in_use(|| {
            self.publish_all();
            let job = match self.region() {
                0 => self.find_work(),
                region => self.find_work_isolated(region, true),
            };
            self.run_one(job)
        })
    }

    /// Runs one job of this worker's own deque, if any (inside an isolated region,
    /// one of that region's).
    pub(crate) fn yield_local(&self) -> Yield {
        self.in_use(|| {
            self.publish_all();
            self.run_one(self.take_own_job())
        })
    }

    /// This worker's newest job or one broadcast to it, for a wait or a yield:
    /// inside an isolated region, only one of the region's.
    pub(crate) fn take_own_job(&self) -> Option<JobRef> {
        match self.region() {
            0 => self.take_local_job(),
            region => self.find_work_isolated(region, false),
        }
    }

    /// The isolated region this worker runs in, 0 outside any (`isolate.rs`).
    #[inline]
    pub(crate) fn region(&self) -> usize {
        self.info().region.load(Ordering::Relaxed)
    }

    /// Records the other pools' isolated regions this worker's work is for
    /// (`isolate::carrying`), for a thief that claims one of its frames; returns
    /// what it was.
    pub(crate) fn set_carried(&self, carried: isolate::Context) -> isolate::Context {
        let mut slot = self
            .info()
            .carried
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        std::mem::replace(&mut *slot, carried)
    }

    /// Puts this worker in `region`; returns the region it was in.
    pub(crate) fn set_region(&self, region: usize) -> usize {
        // Sequentially consistent: a thief that claims a frame recorded after this
        // reads the region after the frame (`Registry::claim_frame_in`).
        self.info().region.swap(region, Ordering::SeqCst)
    }

    /// A job of `region` for this worker, which waits inside it (see `isolate.rs`):
    /// its own newest job if the region's, a broadcast of the region, or (with
    /// `claim`) a frame claimed from a worker in the same region. An outer job on
    /// top of its deque stays there (the region queued nothing below it); a job of
    /// another region goes to the injector, for a worker outside any region.
    fn find_work_isolated(&self, region: usize, claim: bool) -> Option<JobRef> {
        if let Some(job) = self.deque.pop() {
            match isolate::region_of(&job) {
                r if r == region => return Some(job),
                0 => self.deque.push(job),
                _ => self.registry.inject(job),
            }
        }
        // A broadcast of another region waits for this worker to leave the region
        // (it runs on its worker and nowhere else); a call made back into this pool
        // for the region's work (`isolate.rs`) comes from the injector.
        let broadcasts = &self.registry.thread_infos[self.index].broadcasts;
        if let Some(job) = isolate::take_if_in(broadcasts, region)
            .or_else(|| self.registry.take_injected_in(region))
        {
            return Some(job);
        }
        if !claim {
            return None;
        }
        let start = self.rng.next_usize(self.registry.num_threads());
        let job = self
            .registry
            .claim_frame_in(self.index, start, Some(region));
        job.inspect(|_| self.note(Kind::Claim, 0))
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

    /// Returns and resets the instrumentation counter of queued jobs (on the deque or
    /// pending unpublished).
    pub(crate) fn take_max_queued(&self) -> usize {
        let frames = self.frames();
        let high_water = frames.len().min(CAPACITY).saturating_sub(1);
        self.high_water.set(high_water);
        self.flags().close_gate();
        self.max_queued.replace(self.deque.len() + frames.pending())
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
                match infos[victim]
                    .stealer
                    .steal_batch_and_pop(&self.deque, STEAL_BATCH)
                {
                    Steal::Success(job) => {
                        infos[victim].flags.raise_publish();
                        self.note(Kind::Steal, victim as u32);
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

    /// Claims another worker's oldest pending join frame, from a random victim on.
    fn claim_frame(&self) -> Option<JobRef> {
        let start = self.rng.next_usize(self.registry.num_threads());
        let job = self.registry.claim_frame(self.index, start);
        job.inspect(|_| self.note(Kind::Claim, 0))
    }

    /// Any job: own deque, then other workers', then the injector.
    pub(crate) fn find_work(&self) -> Option<JobRef> {
        self.find_queued_work().or_else(|| {
            self.registry
                .pop_injected_job(&self.deque, &self.info().barrier)
        })
    }

    /// A job of this pool's running calls: own deque, then other workers'.
    fn find_queued_work(&self) -> Option<JobRef> {
        self.take_local_job().or_else(|| {
            // A share worker that gave its core back takes one before it steals
            // (one relaxed load otherwise): a job stolen by a worker that then
            // waits for a core would wait with it, out of reach of the share's
            // running workers. Only when there is work to steal: a retiring
            // worker (nothing left) must exit without waiting for a core.
            if self.flags().preempt_pending() && self.registry.has_work(self.index) {
                self.check_flags();
            }
            self.steal()
        })
    }

    /// Any job for a worker that waits for a stolen half of its own work (a join, a
    /// scope): as [`WorkerThread::find_work`], but a new call from outside the pool (the
    /// injector) only if the job this worker started from its main loop is older than
    /// [`LONG_JOB`], or once the wait has lasted [`INJECTED_AFTER`] (`waiting_since` is
    /// when a call was first found there). A call started here runs on top of the
    /// wait, which cannot end before it does: a long call (another caller's `install`)
    /// taken at once would hold up a short one whose last piece was about to come
    /// back, while a short call taken within a long one costs that one little (and
    /// starts the short one long before the long one ends).
    fn find_work_waiting(&self, waiting_since: &mut Option<Instant>) -> Option<JobRef> {
        self.find_queued_work().or_else(|| {
            if !self.registry.has_injected_jobs() {
                return None;
            }
            let now = Instant::now();
            let since = *waiting_since.get_or_insert_with(|| {
                self.registry.wake_for_injected();
                now
            });
            let long_job = self
                .outer_start
                .get()
                .is_some_and(|start| now.duration_since(start) >= LONG_JOB);
            if !long_job && now.duration_since(since) < INJECTED_AFTER {
                return None;
            }
            self.registry
                .pop_injected_job(&self.deque, &self.info().barrier)
        })
    }

    /// Executes a job on this worker (a job start is a safe point).
    ///
    /// # Safety
    /// Same as [`JobRef::execute`].
    #[inline]
    pub(crate) unsafe fn execute(&self, job: JobRef) {
        self.check_flags();
        self.note(Kind::JobStart, 0);
        // No job unwinds out of its execution: each kind catches its closure's panics,
        // and hands on those of what it does after (a panic payload's or a closure's
        // drop: see `scope.rs`, `broadcast.rs`). One that unwound anyway (the last
        // reference to another pool's registry, dropped in a latch's `set`, runs the
        // drop of that pool's handlers; or a bug) would unwind through what this
        // worker's stack holds (the second half of a join that a thief runs, a scope
        // whose jobs borrow from it): abort instead, as Rayon's workers do.
        let abort = AbortIfPanic;
        // SAFETY: forwarded from the caller.
        unsafe { job.execute() };
        std::mem::forget(abort);
        self.note(Kind::JobEnd, 0);
    }

    /// This worker's counters (see `stats.rs`).
    #[inline]
    pub(crate) fn counters(&self) -> &WorkerCounters {
        // SAFETY: a pointer into the registry, which `self.registry` keeps alive as
        // long as `self`.
        unsafe { &*self.counters }
    }

    /// This worker's request flags.
    #[inline]
    fn flags(&self) -> &WorkerFlags {
        &self.info().flags
    }

    /// This worker's pending join frames.
    #[inline]
    fn frames(&self) -> &FrameStack {
        &self.info().frames
    }

    #[inline]
    pub(crate) fn info(&self) -> &ThreadInfo {
        // SAFETY: the info lives in the registry, kept alive by `self.registry`.
        unsafe { &*self.info }
    }

    /// Answers the requests raised for this worker (one relaxed load when none is).
    #[inline]
    pub(crate) fn check_flags(&self) {
        if self.flags().any() {
            self.answer_requests();
        }
    }

    #[cold]
    #[inline(never)]
    fn answer_requests(&self) {
        // A thief that cannot claim from this worker (see `record_frame`) asks.
        self.info().barrier.note();
        let requests = self.flags().take(self.high_water.get());
        if requests.publish() {
            // An idle thief asked: besides a pending frame, every queued job becomes
            // stealable (a BWoS deque keeps its newest private until its owner's next
            // push or pop, which a busy owner may not do for a while).
            self.deque.grant_all();
            self.publish_paced(false, 1);
        }
        if requests.preempt() {
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
        self.in_use(|| {
            self.publish_all();
            let _ = self.run_until(latch, true, None);
            preempt::worker_resumed(self);
        })
    }

    /// Executes jobs of this pool until `latch` is set, sleeping when there are none;
    /// returns without taking back a core given up while sleeping (the caller does,
    /// if it goes on with work). With `retire`, returns `true` instead once asleep
    /// that long: the thread must then exit (`retire.rs`). A worker `waiting` for a
    /// stolen half of its own work takes new calls from outside only after a while
    /// ([`WorkerThread::find_work_waiting`]).
    fn run_until(&self, latch: &CoreLatch, waiting: bool, retire: Option<Duration>) -> bool {
        let sleep = &self.registry.sleep;
        // Counted idle only after a fruitless search: leapfrogging onto a job found at
        // once costs no write to the shared sleep counters.
        let mut idle: Option<super::sleep::IdleState> = None;
        let mut waiting_since = None;
        // Inside an isolated region (only a wait can be), the region's jobs only.
        let region = self.region();
        while !latch.probe() {
            let found = if region != 0 {
                let claim = idle
                    .as_ref()
                    .is_some_and(super::sleep::IdleState::should_claim);
                self.find_work_isolated(region, claim)
            } else if waiting {
                self.find_work_waiting(&mut waiting_since)
            } else {
                self.find_work()
            };
            let job = found.or_else(|| {
                // About to sleep, or back from a sentinel's nap (see `sleep.rs`): busy
                // workers were asked to publish and did not, so claim a pending frame of
                // theirs directly, paying for a process-wide barrier.
                idle.as_ref()
                    .is_some_and(|idle| region == 0 && idle.should_claim())
                    .then(|| self.claim_frame())
                    .flatten()
            });
            if let Some(job) = job {
                if idle.take().is_some() {
                    sleep.work_found();
                }
                if !waiting {
                    // One clock read per job found from the main loop (a steal, a
                    // call from outside), none on the joins' paths.
                    self.outer_start.set(Some(Instant::now()));
                }
                // SAFETY: a queued job is live until executed, and executed once.
                unsafe { self.execute(job) };
            } else {
                // Nothing anywhere: ask the busy workers to publish a pending join frame
                // at their next join or safe point (see `frames.rs`).
                self.registry.request_publication(self.index);
                let state = idle
                    .get_or_insert_with(|| sleep.start_looking(self.index).retiring_after(retire));
                let slept = sleep.no_work_found(state, latch, || {
                    if region == 0 {
                        self.registry.has_work(self.index)
                    } else {
                        // Work of other regions is not this worker's to wait for;
                        // a broadcast to it, or a call from outside, may be the
                        // region's.
                        !self.registry.thread_infos[self.index].broadcasts.is_empty()
                            || self.registry.has_injected_jobs()
                    }
                });
                if slept == Slept::Retired {
                    // Still counted as an idle sleeper: whoever wakes it restarts it.
                    return true;
                }
            }
        }
        if idle.is_some() {
            sleep.work_found();
        }
        false
    }

    /// Runs this worker's jobs, on a relief thread, while the thread it belongs to
    /// blocks in `block_in_place` (`blocking.rs`), until `latch` is set: as a wait
    /// for a stolen half would, between the pool's start and exit handlers (the
    /// relief is a thread of its own). A core it takes goes back at the end.
    pub(crate) fn relieve(&self, latch: &CoreLatch) {
        let registry = Arc::clone(&self.registry);
        registry.run_start_handler(self.index);
        self.in_use(|| {
            let _ = self.run_until(latch, true, None);
        });
        preempt::worker_idle();
        registry.run_exit_handler(self.index);
    }

    /// The main loop of a worker thread: run jobs until the pool terminates, or
    /// until this thread retires (returns `true`: see `retire.rs`).
    pub(crate) fn main_loop(&self) -> bool {
        let registry = Arc::clone(&self.registry);
        registry.run_start_handler(self.index);
        // Not `wait_until`: a retiring worker (its pool, maybe a dropped share's, is
        // terminating) has no work left, so it exits without taking back the core it
        // gave up while sleeping; one it still holds goes back in the exit handler.
        let terminate = &registry.thread_infos[self.index].terminate;
        let retire = registry.retire.as_ref().map(Retirement::idle);
        if retire.is_some() {
            // A retiring pool's worker starts as a retired sleeper woken (its thread
            // retired asleep, or never ran): its timeline's sleep ends here. Not
            // counted as a wake-up.
            registry.trace.record(self.index, Kind::SleepEnd, 1);
        }
        let retired = !terminate.probe() && self.run_until(terminate, false, retire);
        debug_assert!(
            self.deque.is_empty(),
            "prorata: worker exits with queued jobs"
        );
        // A core it holds (a worker of a share, or of a pool with shares) goes back.
        preempt::worker_idle();
        registry.run_exit_handler(self.index);
        retired
    }

    /// This worker's thread never started (its spawn failed): a retiring pool takes
    /// its deque back for the next start.
    pub(crate) fn never_ran(self) {
        if let Some(retirement) = self.registry.retire.as_ref() {
            retirement.unstarted(self.index, self.deque);
        }
    }

    /// This worker's thread retired (its exit handler has run and it is no longer
    /// the thread's current worker): its deque goes back to its slot for the next
    /// thread.
    pub(crate) fn hand_back(self) {
        let retirement = self.registry.retire.as_ref().expect("retired");
        retirement.park(&self.registry, self.index, self.deque);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn two_workers_keep_their_pacing_and_wake_one_sleeper() {
        assert_eq!(publish_interval(1), Duration::from_micros(50));
        assert_eq!(publish_interval(2), Duration::from_micros(50));
        assert_eq!(publish_interval(16), Duration::from_nanos(6_250));
        assert_eq!(first_frame_wakes(1), 1);
        assert_eq!(first_frame_wakes(2), 1);
        assert_eq!(first_frame_wakes(3), 1);
        assert_eq!(first_frame_wakes(16), 4);
        assert_eq!(first_frame_wakes(256), 16);
    }
}
