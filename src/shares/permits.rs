//! Core permits shared by the workers of all the shares of one pool.
//!
//! A worker runs jobs only while it holds a permit. It asks with
//! [`Permits::acquire`], blocking until the allocator grants its share one; gives it
//! back with [`Permits::release`] when it runs out of work or blocks; and checks
//! [`WorkerHandle::should_yield`] (one relaxed load) at its safe points, calling
//! [`Permits::yield_now`] when it is set.
//!
//! Quanta need no timer thread: preemption only matters while someone waits. A
//! holder passing a paced safe point after the quantum's end ends it
//! ([`Permits::end_quantum_if_due`]), and one waiter, the *timekeeper*, wakes up
//! at each end to end it where no holder passes one ([`Permits::tick_at`]); the
//! other waiters sleep until a grant wakes them (with a long backstop timeout). A
//! timekeeper that gets its core hands the duty to another waiter. So waking costs
//! one thread per quantum however many wait: every waiter waking each quantum cost
//! 200 shares on 2 cores twenty times the context switches, and a tenth of the
//! machine's core time. One mutex guards the
//! allocator; each worker has its own condition variable, so a grant wakes exactly
//! the worker granted. Every grant is made and signalled under the lock, and a
//! waiter re-checks its state under the lock before sleeping, so no wake-up is lost.

use std::time::{Duration, Instant};

use super::accounting::ShareStats;
use super::allocator::{Allocator, Config, WorkerId};
use super::error::ShareError;
use super::sync::{Arc, AtomicBool, Condvar, Mutex, MutexGuard, Ordering};
use super::thread_clock::ThreadClock;
use super::tree::ShareId;

/// One worker's end of the permits: its id, its wake-up, its "give the core back" flag.
#[derive(Debug)]
pub(crate) struct WorkerHandle {
    id: WorkerId,
    slot: Arc<WorkerSlot>,
}

/// Called when the allocator flags a worker: the pool raises its own per-worker
/// preemption flag there, the one its safe points load.
pub(crate) type OnFlag = Box<dyn Fn() + Send + Sync>;

struct WorkerSlot {
    /// Set by the allocator when this worker's share is over its allocation.
    yield_flag: AtomicBool,
    /// The processor its thread ran on when it last took a core or passed a paced
    /// safe point holding one (-1: unknown). A hint, so a plain std atomic.
    cpu: std::sync::atomic::AtomicI32,
    /// Granted a core and woken, not yet running (counted in the permits'
    /// `starting`). A hint, so a plain std atomic.
    starting: std::sync::atomic::AtomicBool,
    /// Napped at a paced safe point since it last got a core (see
    /// [`Permits::spread`]). Written by its own thread only; a plain std atomic.
    napped: std::sync::atomic::AtomicBool,
    /// Its thread's CPU time (ns) as the thread itself last read it while holding
    /// a core, and when (the permits' clock; 0: never): the allocator uses a
    /// recent reading instead of reading the clock itself (see
    /// [`Inner::refresh`]). Hints, so plain std atomics.
    cpu_time: std::sync::atomic::AtomicU64,
    cpu_time_at: std::sync::atomic::AtomicU64,
    wake: Condvar,
    on_flag: Option<OnFlag>,
}

impl std::fmt::Debug for WorkerSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkerSlot")
            .field("yield_flag", &self.yield_flag)
            .finish_non_exhaustive()
    }
}

impl WorkerSlot {
    /// Publishes `t` as its thread's CPU time, read at `at` on the permits' clock.
    fn publish_time(&self, t: u64, at: u64) {
        use std::sync::atomic::Ordering::{Relaxed, Release};
        self.cpu_time.store(t, Relaxed);
        self.cpu_time_at.store(at.max(1), Release);
    }

    /// Its thread's CPU time as last published, if that was less than `fresh`
    /// before `now` (on the permits' clock).
    fn recent_time(&self, now: u64, fresh: u64) -> Option<u64> {
        use std::sync::atomic::Ordering::{Acquire, Relaxed};
        let at = self.cpu_time_at.load(Acquire);
        (at != 0 && now.saturating_sub(at) < fresh).then(|| self.cpu_time.load(Relaxed))
    }

    fn flag(&self) {
        self.yield_flag.store(true, Ordering::Relaxed);
        if let Some(f) = &self.on_flag {
            f();
        }
    }
}

impl WorkerHandle {
    /// The safe-point check: whether the allocator wants this worker's core back.
    #[inline]
    pub(crate) fn should_yield(&self) -> bool {
        self.slot.yield_flag.load(Ordering::Relaxed)
    }

    /// Sets the processor last noted for this worker (for tests).
    #[cfg(test)]
    pub(crate) fn set_cpu(&self, cpu: i32) {
        self.slot
            .cpu
            .store(cpu, std::sync::atomic::Ordering::Relaxed);
    }

    /// The processor last noted for this worker (for tests).
    #[cfg(test)]
    pub(crate) fn cpu(&self) -> i32 {
        self.slot.cpu.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Publishes `t` as this worker's CPU time, read at `at` on the permits'
    /// clock, as its thread does at a paced safe point (for tests).
    #[cfg(test)]
    pub(crate) fn set_published_time(&self, t: u64, at: u64) {
        self.slot.publish_time(t, at);
    }

    /// Whether the allocator wants this worker's core back (for tests).
    #[cfg(test)]
    pub(crate) fn flagged(&self) -> bool {
        self.should_yield()
    }

    /// Notes the processor this worker's thread runs on now (it holds a core).
    pub(crate) fn note_cpu(&self) {
        self.slot
            .cpu
            .store(current_cpu(), std::sync::atomic::Ordering::Relaxed);
    }
}

/// Whether the calling thread may run on processor `cpu` and on at least one
/// other, as its affinity says. The affinity is only read: prorata never changes
/// a thread's affinity (see [`Permits::spread`]).
fn may_run_elsewhere(cpu: i32) -> bool {
    #[cfg(all(target_os = "linux", not(loom)))]
    {
        let Ok(cpu) = usize::try_from(cpu) else {
            return false;
        };
        if cpu >= libc::CPU_SETSIZE as usize {
            return false;
        }
        // SAFETY: a `cpu_set_t` is plain bits; all zeroes is the empty set.
        let mut allowed: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: `allowed` is a valid `cpu_set_t` of `size` bytes; pid 0 is the
        // calling thread. The call only reads the thread's affinity.
        if unsafe { libc::sched_getaffinity(0, size, &mut allowed) } != 0 {
            return false;
        }
        // SAFETY: `cpu` is below CPU_SETSIZE, within the set; both only read it.
        unsafe { libc::CPU_ISSET(cpu, &allowed) && libc::CPU_COUNT(&allowed) >= 2 }
    }
    #[cfg(not(all(target_os = "linux", not(loom))))]
    {
        let _ = cpu;
        false
    }
}

/// Sleeps the calling thread for the shortest time the OS sleeps a thread (its
/// timer slack): when it wakes, the OS places it again, on an idle processor of
/// those it may run on if there is one.
fn nap() {
    #[cfg(not(loom))]
    std::thread::sleep(Duration::from_nanos(1));
}

/// The processor the calling thread runs on, -1 if unknown.
fn current_cpu() -> i32 {
    #[cfg(all(target_os = "linux", not(loom)))]
    {
        // SAFETY: `sched_getcpu` takes no arguments and only reads the calling
        // thread's state.
        unsafe { libc::sched_getcpu() }
    }
    #[cfg(not(all(target_os = "linux", not(loom))))]
    {
        -1
    }
}

#[derive(Debug)]
struct Inner {
    alloc: Allocator,
    /// Indexed by worker id; `None` once the worker is unregistered.
    slots: Vec<Option<Arc<WorkerSlot>>>,
    /// The CPU clock of the thread each worker last ran on (when the allocator
    /// charges by CPU time).
    clocks: Vec<Option<ThreadClock>>,
    /// When each waiting worker's wait times out (`u64::MAX`: not waiting).
    wake_at: Vec<u64>,
    /// The workers granted a core and woken that have not started running
    /// (shared with [`Permits`], which reads it without the lock).
    starting: Arc<std::sync::atomic::AtomicU32>,
    /// The waiting worker that ends the quanta (wakes up at each end), if any
    /// waits: a worker in [`Permits::wait_for_core`], which hands the duty on when
    /// it leaves.
    timekeeper: Option<WorkerId>,
    /// Whether holders whose processor another holder took give up their core at
    /// once (see [`Inner::give_up_for_off_core`]); off only in tests of the strict
    /// protocol, where at most one thread per core ever runs past its grant.
    off_core_rule: bool,
    last_tick: u64,
    /// The permits' clock (see [`Permits::now`]), for the age of the holders'
    /// own readings of their CPU time.
    origin: Instant,
}

/// A holder's own reading of its CPU time stands for its clock while it is
/// younger than a turn (see [`Allocator::turn_nanos`]) divided by this; holders
/// publish one twice as often.
const FRESH_PER_TURN: u64 = 4;

/// The permits of one pool.
#[derive(Debug)]
pub(crate) struct Permits {
    inner: Mutex<Inner>,
    origin: Instant,
    /// Whether the allocator charges holders by their threads' CPU time.
    own_clocks: bool,
    quantum: Duration,
    /// The slot of the share that a worker of another share lets go first at its
    /// paced safe points (see [`Permits::defers_to_other`]), `NO_SLOT` if none; as
    /// of the last call into the allocator, read without the lock (a hint, so a
    /// plain std atomic even in loom models).
    deferred_to: std::sync::atomic::AtomicUsize,
    /// When the quantum under way ends, on the permits' clock, while a worker
    /// waits; `u64::MAX` while none does. A holder passing a paced safe point
    /// after that ends the quantum ([`Permits::end_quantum_if_due`]): the
    /// timekeeper's wake-up may wait for a processor as long as the OS lets a
    /// running thread keep it (several milliseconds), and quanta that ended that
    /// late made turns two to four quanta long. Read without the lock (a hint,
    /// so a plain std atomic even in loom models).
    quantum_due: std::sync::atomic::AtomicU64,
    /// How long a turn lasts now ([`Allocator::turn_nanos`], as of the last
    /// end of a quantum): holders publish their CPU time eight times a turn.
    /// Read without the lock (a hint, so a plain std atomic even in loom models).
    turn_nanos: std::sync::atomic::AtomicU64,
    /// How many workers were granted a core and woken and have not started
    /// running yet ([`Permits::starting`]).
    starting: Arc<std::sync::atomic::AtomicU32>,
    /// Calls that took the lock, those that waited for it, and how long they
    /// waited (ns): the figures of [`crate::ShareStats::allocator_calls`].
    lock_calls: std::sync::atomic::AtomicU64,
    lock_waits: std::sync::atomic::AtomicU64,
    lock_wait_nanos: std::sync::atomic::AtomicU64,
}

/// How many quanta a waiter that is not the timekeeper sleeps at most: a slip in
/// the hand-over of the duty delays the quanta by this much instead of stopping
/// them.
const BACKSTOP_QUANTA: u32 = 250;

/// No share is deferred to.
const NO_SLOT: usize = usize::MAX;

impl Permits {
    pub(crate) fn new(config: Config) -> Self {
        let starting = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let origin = Instant::now();
        Permits {
            inner: Mutex::new(Inner {
                alloc: Allocator::new(config),
                slots: Vec::new(),
                clocks: Vec::new(),
                wake_at: Vec::new(),
                starting: starting.clone(),
                timekeeper: None,
                off_core_rule: true,
                last_tick: 0,
                origin,
            }),
            origin,
            own_clocks: config.own_clocks,
            quantum: Duration::from_nanos(config.quantum_nanos.max(1)),
            deferred_to: std::sync::atomic::AtomicUsize::new(NO_SLOT),
            quantum_due: std::sync::atomic::AtomicU64::new(u64::MAX),
            turn_nanos: std::sync::atomic::AtomicU64::new(config.quantum_nanos.max(1)),
            starting,
            lock_calls: std::sync::atomic::AtomicU64::new(0),
            lock_waits: std::sync::atomic::AtomicU64::new(0),
            lock_wait_nanos: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Whether a worker of `share` should let another thread that is ready run
    /// first at its paced safe points: two or more shares of the pool compete
    /// (have demand, or had a moment ago), and another of them is worth more
    /// cores by its tickets than any other (the foreground against which this
    /// share is the background).
    pub(crate) fn defers_to_other(&self, share: ShareId) -> bool {
        let top = self.deferred_to.load(std::sync::atomic::Ordering::Relaxed);
        top != NO_SLOT && top != share.index()
    }

    /// At a paced safe point of holder `h`: if another holder's thread was last
    /// seen on the processor `h` runs on, and `h`'s thread may run on another,
    /// it naps (sleeps for the shortest time the OS sleeps a thread), so that
    /// the OS places it again when it wakes. The pool has at most a permit per
    /// processor, so another processor has no holder: two holders on one
    /// processor take turns on it (each yields to the other at its paced safe
    /// points, while another share competes) and another processor idles, for
    /// milliseconds, as the OS does not move a thread that ran a moment ago; but
    /// it puts a waking thread on an idle processor, if one of those the thread
    /// may run on is idle.
    ///
    /// At most once per hold: where no processor it may run on is idle (another
    /// program's threads run there), the OS puts the thread back beside the
    /// other holder, and a nap at each safe point would only take time from it.
    ///
    /// Only the OS moves the thread. prorata never changes a thread's affinity:
    /// the thread may be the user's (a `use_current_thread` worker 0, a worker
    /// pinned by a start handler, or any worker pinned from inside a job), and
    /// narrowing a mask and restoring it cannot be done atomically against the
    /// user's own changes to it. A worker that holds no core (a
    /// `use_current_thread` worker 0) never naps, nor does a thread allowed a
    /// single processor.
    ///
    /// Only when the lock is free. Under it, the napping holder is noted on no
    /// processor until it wakes, so that the other holder does not nap too.
    /// Returns whether it napped.
    pub(crate) fn spread(&self, h: &WorkerHandle) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let c = h.slot.cpu.load(Relaxed);
        if c < 0 {
            return false;
        }
        let Ok(inner) = self.inner.try_lock() else {
            return false;
        };
        if !inner.alloc.is_holding(h.id) || h.slot.napped.load(Relaxed) {
            return false;
        }
        let cpu = |w: WorkerId| {
            inner.slots[w.index()]
                .as_ref()
                .map_or(-1, |s| s.cpu.load(Relaxed))
        };
        if !inner
            .alloc
            .holding_workers()
            .any(|w| w != h.id && cpu(w) == c)
            || !may_run_elsewhere(c)
        {
            return false;
        }
        h.slot.cpu.store(-1, Relaxed);
        h.slot.napped.store(true, Relaxed);
        drop(inner);
        nap();
        h.note_cpu();
        true
    }

    /// Notes who is deferred to (under the lock, after each call into the allocator).
    fn note_deferred(&self, inner: &mut Inner) {
        let top = inner.alloc.top_share().unwrap_or(NO_SLOT);
        let deferred_to = &self.deferred_to;
        if deferred_to.load(std::sync::atomic::Ordering::Relaxed) != top {
            deferred_to.store(top, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Notes when the quantum under way ends, if a worker waits (under the lock,
    /// after each change of the last tick or of the timekeeper).
    fn note_due(&self, inner: &Inner) {
        let turn = inner.alloc.turn_nanos();
        let turn_nanos = &self.turn_nanos;
        if turn_nanos.load(std::sync::atomic::Ordering::Relaxed) != turn {
            turn_nanos.store(turn, std::sync::atomic::Ordering::Relaxed);
        }
        let due = match inner.timekeeper {
            Some(_) => inner.last_tick.saturating_add(turn),
            None => u64::MAX,
        };
        let quantum_due = &self.quantum_due;
        if quantum_due.load(std::sync::atomic::Ordering::Relaxed) != due {
            quantum_due.store(due, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// At a paced safe point of a holder: if a worker waits and the quantum is
    /// over, ends it (flags the holders that must give their core back, this one
    /// maybe). A load while nobody waits, a clock read while the quantum lasts;
    /// only when the lock is free.
    pub(crate) fn end_quantum_if_due(&self) {
        let due = self.quantum_due.load(std::sync::atomic::Ordering::Relaxed);
        if due == u64::MAX {
            return;
        }
        let now = self.now();
        if now < due {
            return;
        }
        let Some(mut inner) = self.try_lock() else {
            return;
        };
        let flagged = if inner.timekeeper.is_some() && self.quantum_over(&inner, now) {
            self.end_quantum(&mut inner, now)
        } else {
            self.note_due(&inner);
            Vec::new()
        };
        drop(inner);
        flag_all(flagged);
    }

    /// Whether the quantum under way is over at `now`.
    fn quantum_over(&self, inner: &Inner, now: u64) -> bool {
        now.saturating_sub(inner.last_tick) >= inner.alloc.turn_nanos()
    }

    /// Ends the quantum at `now` under the lock; returns the holders to flag
    /// once it is released.
    fn end_quantum(&self, inner: &mut Inner, now: u64) -> Vec<Arc<WorkerSlot>> {
        let flagged = inner.tick(now);
        self.note_deferred(inner);
        self.note_due(inner);
        flagged
    }

    /// The lock if it is free now (a caller that only looks, and must not
    /// queue behind the allocator).
    fn try_lock(&self) -> Option<MutexGuard<'_, Inner>> {
        match self.inner.try_lock() {
            Ok(inner) => Some(inner),
            // The allocator panics only on a caller's bug; its state stays consistent.
            Err(std::sync::TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }

    /// Whether a worker was granted a core and woken, and has not started
    /// running yet. A holder passing a paced safe point lets it run first (see
    /// `PoolShares::on_paced_safe_point`): the OS may have queued it on this
    /// holder's processor, since the one its waker leaves was still busy when
    /// it woke it, and a kernel that balances an idle processor only now and
    /// then left it there for milliseconds (a tenth of the hand-overs of 200
    /// shares on 2 cores waited 1 to 8 ms, a core idle meanwhile).
    pub(crate) fn starting(&self) -> bool {
        self.starting.load(std::sync::atomic::Ordering::Relaxed) > 0
    }

    /// A holder passing a paced safe point: publishes its thread's CPU time for
    /// the allocator (see [`Inner::refresh`]) when its last reading is older than
    /// an eighth of a quantum, so that one system call every half millisecond or
    /// so (at the default quantum) spares the allocator one per holder and decision.
    pub(crate) fn publish_time(&self, h: &WorkerHandle) {
        if !self.own_clocks {
            return;
        }
        let now = self.now();
        let turn = self.turn_nanos.load(std::sync::atomic::Ordering::Relaxed);
        let half_fresh = turn / (2 * FRESH_PER_TURN);
        if h.slot.recent_time(now, half_fresh).is_some() {
            return;
        }
        if let Some(t) = ThreadClock::current().and_then(ThreadClock::read) {
            h.slot.publish_time(t, now);
        }
    }

    /// The CPU time the allocator notes for `h` when it next reads the holders'
    /// clocks (for tests).
    #[cfg(test)]
    pub(crate) fn time_noted_for(&self, h: &WorkerHandle) -> u64 {
        let mut inner = self.lock();
        inner.refresh(None);
        inner.alloc.noted_time(h.id)
    }

    /// Nanoseconds since the permits were made: the allocator's clock.
    pub(crate) fn now(&self) -> u64 {
        self.origin.elapsed().as_nanos() as u64
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        use std::sync::atomic::Ordering::Relaxed;
        self.lock_calls.fetch_add(1, Relaxed);
        if let Some(inner) = self.try_lock() {
            return inner;
        }
        let t = Instant::now();
        // As in `try_lock`: a poisoned lock guards a consistent state.
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        self.lock_waits.fetch_add(1, Relaxed);
        let waited = t.elapsed().as_nanos() as u64;
        self.lock_wait_nanos.fetch_add(waited, Relaxed);
        inner
    }

    /// Runs `f` on the allocator under the lock (share management, stats).
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut Allocator) -> R) -> R {
        let mut inner = self.lock();
        let r = f(&mut inner.alloc);
        self.note_deferred(&mut inner);
        r
    }

    /// The length of a quantum, in nanoseconds.
    pub(crate) fn quantum_nanos(&self) -> u64 {
        self.quantum.as_nanos() as u64
    }

    /// Cores `share`'s tickets are worth among the active shares now (see
    /// `Allocator::ticket_cores`), and whether a core is free for anyone who asks;
    /// `None` if the lock is busy: the caller keeps its last reading rather than
    /// wait behind the allocator. Brings the allocator up to date first (see
    /// `Allocator::catch_up`): a share that runs alone after the others stopped
    /// may be the only one calling in, and reads here.
    pub(crate) fn try_thread_reading(&self, share: ShareId) -> Option<(f64, bool)> {
        let mut inner = self.try_lock()?;
        let now = self.now();
        if inner.alloc.is_behind(now) {
            inner.refresh(None);
            let granted = inner.alloc.catch_up(now);
            self.note_deferred(&mut inner);
            inner.wake_all(&granted);
        }
        let mut scratch = super::entitlement::Scratch::default();
        let worth = inner.alloc.ticket_cores(share, &mut scratch);
        // A free core is not for a share at its ceiling.
        let free = inner.alloc.unclaimed_cores() > 0 && !inner.alloc.at_ceiling(share);
        Some((worth, free))
    }

    pub(crate) fn root(&self) -> ShareId {
        self.with(|a| a.root())
    }

    pub(crate) fn add_share(&self, parent: ShareId, tickets: u32) -> Result<ShareId, ShareError> {
        self.with(|a| a.add_share(parent, tickets))
    }

    /// Sets (`None`: removes) `share`'s ceiling on its cores now (see
    /// `Allocator::set_ceiling`): wakes the waiters granted a core, and flags
    /// the holders beyond a lowered ceiling once the lock is released.
    pub(crate) fn set_ceiling(
        &self,
        share: ShareId,
        ceiling: Option<u32>,
    ) -> Result<(), ShareError> {
        let now = self.now();
        let flagged = {
            let mut inner = self.lock();
            inner.refresh(None);
            let (granted, flagged) = inner.alloc.set_ceiling(share, ceiling, now)?;
            self.note_deferred(&mut inner);
            inner.wake_all(&granted);
            inner.slots_of(&flagged)
        };
        flag_all(flagged);
        Ok(())
    }

    /// Changes the number of cores to `cores` (at least 1) now (see
    /// `Allocator::set_cores`): wakes the waiters granted a core, and flags the
    /// holders beyond a lowered count once the lock is released.
    pub(crate) fn set_cores(&self, cores: u32) {
        self.set_cores_at(cores, self.now());
    }

    /// [`Permits::set_cores`] at `now` (the permits' clock, or a virtual time in
    /// models and tests).
    pub(crate) fn set_cores_at(&self, cores: u32, now: u64) {
        let flagged = {
            let mut inner = self.lock();
            inner.refresh(None);
            let (granted, flagged) = inner.alloc.set_cores(cores, now);
            self.note_deferred(&mut inner);
            self.note_due(&inner);
            inner.wake_all(&granted);
            inner.slots_of(&flagged)
        };
        flag_all(flagged);
    }

    /// The number of cores (permits) now.
    pub(crate) fn cores(&self) -> u32 {
        self.lock().alloc.cores()
    }

    pub(crate) fn stats(&self, share: ShareId) -> ShareStats {
        // Holders are charged when they give their core back or at a tick; a reading
        // right after the share's work ends must count a worker that still holds one.
        let now = self.now();
        let mut inner = self.lock();
        inner.refresh(None);
        let mut stats = inner.alloc.stats(share);
        stats.core_nanos += inner.alloc.uncharged_nanos(share, now);
        use std::sync::atomic::Ordering::Relaxed;
        stats.allocator_calls = self.lock_calls.load(Relaxed);
        stats.allocator_waits = self.lock_waits.load(Relaxed);
        stats.allocator_wait_nanos = self.lock_wait_nanos.load(Relaxed);
        stats
    }

    pub(crate) fn register_worker(&self) -> WorkerHandle {
        self.register_worker_with(None)
    }

    /// Registers a worker whose flagging also calls `on_flag`.
    pub(crate) fn register_worker_with(&self, on_flag: Option<OnFlag>) -> WorkerHandle {
        let mut inner = self.lock();
        let id = inner.alloc.add_worker();
        let slot = Arc::new(WorkerSlot {
            yield_flag: AtomicBool::new(false),
            cpu: std::sync::atomic::AtomicI32::new(-1),
            starting: std::sync::atomic::AtomicBool::new(false),
            napped: std::sync::atomic::AtomicBool::new(false),
            cpu_time: std::sync::atomic::AtomicU64::new(0),
            cpu_time_at: std::sync::atomic::AtomicU64::new(0),
            wake: Condvar::new(),
            on_flag,
        });
        if inner.slots.len() <= id.index() {
            inner.slots.resize(id.index() + 1, None);
            inner.clocks.resize(id.index() + 1, None);
            inner.wake_at.resize(id.index() + 1, u64::MAX);
        }
        inner.slots[id.index()] = Some(slot.clone());
        WorkerHandle { id, slot }
    }

    /// Forgets worker `h` (its thread is gone; it holds no core and waits for none).
    pub(crate) fn unregister_worker(&self, h: &WorkerHandle) {
        let mut inner = self.lock();
        inner.started(&h.slot);
        inner.alloc.remove_worker(h.id);
        inner.slots[h.id.index()] = None;
    }

    /// Blocks until `h`, a worker of `share`, holds a core.
    pub(crate) fn acquire(&self, h: &WorkerHandle, share: ShareId) {
        let inner = self.acquire_holding(h, share, self.now());
        self.start_clock(h, inner);
    }

    /// [`Permits::acquire`] at a virtual time `now` (for models and tests).
    #[cfg(any(test, loom))]
    pub(crate) fn acquire_at(&self, h: &WorkerHandle, share: ShareId, now: u64) {
        drop(self.acquire_holding(h, share, now));
    }

    /// Asks for a core at `now` and waits for it; returns with the lock held.
    fn acquire_holding(&self, h: &WorkerHandle, share: ShareId, now: u64) -> MutexGuard<'_, Inner> {
        let mut inner = self.lock();
        inner.refresh(None);
        let granted = inner.alloc.request(h.id, share, now);
        self.note_deferred(&mut inner);
        inner.wake(&granted, h.id);
        if !inner.alloc.is_holding(h.id) {
            let flagged = inner.contend(share, now);
            if !flagged.is_empty() {
                drop(inner);
                flag_all(flagged);
                inner = self.lock();
            }
        }
        self.wait_for_core(h, inner)
    }

    /// Gives `h`'s core back; the next worker the policy picks gets it.
    pub(crate) fn release(&self, h: &WorkerHandle) {
        self.release_at(h, self.now());
    }

    pub(crate) fn release_at(&self, h: &WorkerHandle, now: u64) {
        let mut inner = self.lock();
        inner.refresh(Some(h.id));
        let granted = inner.alloc.release(h.id, now);
        self.note_deferred(&mut inner);
        inner.wake(&granted, h.id);
        inner.watch_lapse();
    }

    /// Called at a safe point when [`WorkerHandle::should_yield`] is set: gives the
    /// core to a share that is due, and blocks until `h`'s share is due again.
    pub(crate) fn yield_now(&self, h: &WorkerHandle) {
        let inner = self.yield_holding(h, self.now());
        self.start_clock(h, inner);
    }

    /// [`Permits::yield_now`] at a virtual time `now` (for models and tests).
    #[cfg(any(test, loom))]
    pub(crate) fn yield_at(&self, h: &WorkerHandle, now: u64) {
        drop(self.yield_holding(h, now));
    }

    /// Gives the core away at `now` and waits for it again; returns with the lock
    /// held.
    fn yield_holding(&self, h: &WorkerHandle, now: u64) -> MutexGuard<'_, Inner> {
        let mut inner = self.lock();
        h.slot.yield_flag.store(false, Ordering::Relaxed);
        inner.refresh(Some(h.id));
        let granted = inner.alloc.yield_core(h.id, now);
        self.note_deferred(&mut inner);
        inner.wake(&granted, h.id);
        self.wait_for_core(h, inner)
    }

    /// Starts charging `h`, which now holds a core, from this moment: the time
    /// between the grant and the moment the OS ran the woken thread (tens of
    /// microseconds to a millisecond on a busy machine) is nobody's core time.
    /// Charged from the grant, a share that is woken often (a low-ticket one)
    /// paid for those gaps and completed fewer items than its fraction.
    fn start_clock(&self, h: &WorkerHandle, mut inner: MutexGuard<'_, Inner>) {
        h.note_cpu();
        inner.started(&h.slot);
        let now = self.now();
        // The worker's thread may differ from the last time (threads retire).
        let clock = ThreadClock::current();
        inner.clocks[h.id.index()] = clock;
        if let Some(t) = clock.and_then(ThreadClock::read) {
            inner.alloc.note_time(h.id, t);
            h.slot.publish_time(t, now);
        }
        inner.alloc.start_clock(h.id, now);
    }

    /// `n` workers of `share` were woken and will ask for a core: flags the holders
    /// that should make room for them (see `Allocator::anticipate`).
    pub(crate) fn anticipate(&self, share: ShareId, n: u32) {
        let now = self.now();
        let flagged = {
            let mut inner = self.lock();
            inner.refresh(None);
            let done = inner.alloc.anticipate(share, n, now);
            let off_core = inner.give_up_for_off_core(&done.flagged, now);
            self.note_deferred(&mut inner);
            inner.wake_all(&done.granted);
            inner.wake_all(&off_core);
            inner.slots_of(&done.flagged)
        };
        flag_all(flagged);
    }

    /// Ends a quantum: flags the holders that must give their core back.
    pub(crate) fn tick_at(&self, now: u64) {
        let flagged = self.end_quantum(&mut self.lock(), now);
        flag_all(flagged);
    }

    /// Sleeps until the allocator has granted `h` a core, ending quanta meanwhile.
    fn wait_for_core<'a>(
        &'a self,
        h: &WorkerHandle,
        mut inner: MutexGuard<'a, Inner>,
    ) -> MutexGuard<'a, Inner> {
        while !inner.alloc.is_holding(h.id) {
            // The timekeeper wakes up at the end of the quantum under way, or when
            // a kept core goes back to everyone, whichever comes first; the others
            // when granted a core, or after the backstop.
            let keeper = *inner.timekeeper.get_or_insert(h.id) == h.id;
            let now = self.now();
            let wait = if keeper {
                let end = inner.last_tick.saturating_add(inner.alloc.turn_nanos());
                let end = inner.alloc.next_lapse().map_or(end, |l| l.min(end));
                Duration::from_nanos(end.saturating_sub(now))
            } else {
                self.quantum.saturating_mul(BACKSTOP_QUANTA)
            };
            // Finite from here until the worker leaves: it waits (awake or not).
            inner.wake_at[h.id.index()] = now.saturating_add(wait.as_nanos() as u64);
            self.note_due(&inner);
            inner.debug_check_timekeeper();
            let (guard, timeout) = h
                .slot
                .wake
                .wait_timeout(inner, wait)
                .unwrap_or_else(|e| e.into_inner());
            inner = guard;
            let now = self.now();
            // A kept core whose hold is over goes to the waiters. After a timeout,
            // whatever is free is handed out in any case: every path that frees a
            // core dispatches it, and this makes sure a slip there delays a waiter
            // by a quantum at most instead of stalling the pool.
            if timeout.timed_out() || inner.alloc.next_lapse().is_some_and(|l| l <= now) {
                let granted = inner.alloc.lapse(now);
                self.note_deferred(&mut inner);
                inner.wake(&granted, h.id);
            }
            if self.quantum_over(&inner, now) && !inner.alloc.is_holding(h.id) {
                let flagged = self.end_quantum(&mut inner, now);
                drop(inner);
                flag_all(flagged);
                inner = self.lock();
            }
        }
        inner.wake_at[h.id.index()] = u64::MAX;
        h.slot
            .napped
            .store(false, std::sync::atomic::Ordering::Relaxed);
        if inner.timekeeper == Some(h.id) {
            inner.pass_timekeeping(h.id);
            self.note_due(&inner);
        }
        inner.debug_check_timekeeper();
        inner
    }

    /// Turns off the rule that a holder whose processor another holder took gives
    /// up its core at once (for tests of the strict protocol).
    #[cfg(test)]
    pub(crate) fn without_off_core_rule(self) -> Self {
        self.lock().off_core_rule = false;
        self
    }

    /// Whether `h` holds a core (for tests).
    #[cfg(test)]
    pub(crate) fn holds(&self, h: &WorkerHandle) -> bool {
        self.lock().alloc.is_holding(h.id)
    }

    /// Checks the allocator's invariants, and that the timekeeper, if any, is a
    /// worker that waits (for tests).
    #[cfg(test)]
    pub(crate) fn check(&self) {
        let inner = self.lock();
        inner.alloc.check();
        if let Some(k) = inner.timekeeper {
            assert_ne!(
                inner.wake_at[k.index()],
                u64::MAX,
                "timekeeper {k:?} does not wait"
            );
        }
    }
}

impl Inner {
    /// Ends a quantum at `now`; returns the holders that must give their core back,
    /// to be flagged once the lock is released (a flag calls into the pool, which
    /// may drop the last reference to a share and so take this lock again).
    fn tick(&mut self, now: u64) -> Vec<Arc<WorkerSlot>> {
        self.last_tick = now;
        self.refresh(None);
        let flagged = self.alloc.tick(now);
        self.slots_of(&flagged)
    }

    /// A worker of `share` waits for a core: ends the quantum now if its share
    /// holds none (see `Allocator::contend`); returns the holders to flag.
    fn contend(&mut self, share: ShareId, now: u64) -> Vec<Arc<WorkerSlot>> {
        self.refresh(None);
        let flagged = self.alloc.contend(share, now);
        let off_core = self.give_up_for_off_core(&flagged, now);
        self.wake_all(&off_core);
        self.slots_of(&flagged)
    }

    /// Notes the CPU time of every holder (when the allocator charges by it): a
    /// holder's own reading if it is recent (younger than a quarter of a quantum;
    /// holders publish one at their paced safe points, see
    /// [`Permits::publish_time`]), else its thread's clock, read now, as for
    /// `me` (a holder giving its core back, charged to the end of its hold).
    ///
    /// Reading another thread's CPU clock is a system call (0.4 µs with 16
    /// threads running on 16 processors, 0.7 µs with 63), made here under the
    /// allocator's lock: reading every holder's at each decision held the lock
    /// for about 6 µs per decision with 16 holders. A reading up to a quarter
    /// of a quantum old leaves the time since uncharged until the next one:
    /// it is charged then (the allocator charges each holder the growth of
    /// its clock since it was last charged), so no time is lost.
    fn refresh(&mut self, me: Option<WorkerId>) {
        let now = self.origin.elapsed().as_nanos() as u64;
        let fresh = self.alloc.turn_nanos() / FRESH_PER_TURN;
        let holders: Vec<WorkerId> = self.alloc.holding_workers().collect();
        for w in holders {
            let recent = (Some(w) != me)
                .then(|| self.slots[w.index()].as_ref())
                .flatten()
                .and_then(|slot| slot.recent_time(now, fresh));
            let t = recent.or_else(|| self.clocks[w.index()].and_then(ThreadClock::read));
            if let Some(t) = t {
                self.alloc.note_time(w, t);
            }
        }
    }

    /// The timekeeper `me` got its core: the duty goes to the waiter due to wake
    /// up first (woken now, to wait a quantum instead), or to the next worker to
    /// wait if none does. A waiter granted a core that it has not taken yet is
    /// passed over: it is about to leave too.
    fn pass_timekeeping(&mut self, me: WorkerId) {
        let next = (0..self.wake_at.len())
            .filter(|&i| i != me.index() && self.wake_at[i] != u64::MAX)
            .map(WorkerId::from_index)
            .filter(|&w| !self.alloc.is_holding(w))
            .min_by_key(|w| self.wake_at[w.index()]);
        self.timekeeper = next;
        if let Some(slot) = next.and_then(|w| self.slots[w.index()].as_ref()) {
            slot.wake.notify_one();
        }
    }

    /// In debug builds: while some worker waits without a core, the timekeeper
    /// is one that waits.
    fn debug_check_timekeeper(&self) {
        if cfg!(debug_assertions) {
            let waits = |i: usize| self.wake_at[i] != u64::MAX;
            let someone = (0..self.wake_at.len())
                .any(|i| waits(i) && !self.alloc.is_holding(WorkerId::from_index(i)));
            assert!(
                !someone || self.timekeeper.is_some_and(|k| waits(k.index())),
                "a worker waits with nobody to end its quanta"
            );
        }
    }

    /// A core was just kept for its share: if no waiter wakes up by the time it
    /// goes back to everyone, wakes the one due first, to wait again until then.
    fn watch_lapse(&mut self) {
        let Some(lapse) = self.alloc.next_lapse() else {
            return;
        };
        let first = (0..self.wake_at.len()).min_by_key(|&i| self.wake_at[i]);
        if let Some(i) = first.filter(|&i| self.wake_at[i] != u64::MAX && self.wake_at[i] > lapse) {
            if let Some(slot) = &self.slots[i] {
                slot.wake.notify_one();
            }
        }
    }

    /// Holders just asked for their core (`flagged`) whose thread cannot be running:
    /// another holder's thread took their processor (both last noted on the same
    /// one: the OS woke a worker of the share due the core where this holder ran,
    /// and this holder waits for the processor, so it cannot reach its safe point,
    /// while the core the policy freed elsewhere idles). Each gives its core up
    /// now, as at its safe point; its thread queues for a core again when it gets
    /// there, or leaves the queue if it runs out of work first. Returns the
    /// workers granted.
    fn give_up_for_off_core(&mut self, flagged: &[WorkerId], now: u64) -> Vec<WorkerId> {
        if !self.off_core_rule {
            return Vec::new();
        }
        let cpu = |w: WorkerId| {
            self.slots[w.index()]
                .as_ref()
                .map_or(-1, |s| s.cpu.load(std::sync::atomic::Ordering::Relaxed))
        };
        let off_core: Vec<WorkerId> = flagged
            .iter()
            .copied()
            .filter(|&f| {
                let c = cpu(f);
                c >= 0
                    && self
                        .alloc
                        .holding_workers()
                        .any(|h| h != f && !self.alloc.is_flagged(h) && cpu(h) == c)
            })
            .collect();
        let mut granted = Vec::new();
        for w in off_core {
            granted.extend(self.alloc.yield_core(w, now));
        }
        granted
    }

    fn slots_of(&self, workers: &[WorkerId]) -> Vec<Arc<WorkerSlot>> {
        workers
            .iter()
            .filter_map(|w| self.slots[w.index()].clone())
            .collect()
    }

    /// Wakes the workers granted a core (the caller is none of them).
    fn wake_all(&self, granted: &[WorkerId]) {
        self.notify(granted.iter().copied());
    }

    /// Wakes the workers granted a core, except `me`, the caller, who is awake
    /// (a notification costs a system call even when nobody sleeps).
    fn wake(&self, granted: &[WorkerId], me: WorkerId) {
        self.notify(granted.iter().copied().filter(|&w| w != me));
    }

    fn notify(&self, workers: impl Iterator<Item = WorkerId>) {
        use std::sync::atomic::Ordering::Relaxed;
        for w in workers {
            if let Some(slot) = &self.slots[w.index()] {
                if !slot.starting.swap(true, Relaxed) {
                    self.starting.fetch_add(1, Relaxed);
                }
                slot.wake.notify_one();
            }
        }
    }

    /// The worker of `slot` runs (or is gone): it no longer counts as starting.
    fn started(&self, slot: &WorkerSlot) {
        use std::sync::atomic::Ordering::Relaxed;
        if slot.starting.swap(false, Relaxed) {
            self.starting.fetch_sub(1, Relaxed);
        }
    }
}

/// Raises the flags of `slots` (outside the lock).
fn flag_all(slots: Vec<Arc<WorkerSlot>>) {
    for slot in slots {
        slot.flag();
    }
}
