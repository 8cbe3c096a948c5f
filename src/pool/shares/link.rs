//! What a pool's registry knows of shares, and the hooks the pool calls.
//!
//! A pool that makes shares (the *root*) holds the [`Permits`] of its cores, made
//! at its first share. A share's own sub-pool holds its [`ShareWorkers`]: one
//! permit handle per worker and whether that worker holds a core now. The pool
//! calls [`PoolShares::on_safe_point`] when a worker's preemption flag is up (job
//! start, join, iterator safe point) and [`PoolShares::on_idle`] when a worker
//! runs out of work (it then searches, then sleeps).

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::stalled_starts::{StallMark, StalledStarts, Watched};
use crate::pool::ScopedSpawner;
use crate::shares::{Config, Permits, ShareId, SharePolicy, WorkerHandle, thread_clock};
use crate::trace::Kind;

/// The shares state of one pool's registry.
#[derive(Debug, Default)]
pub(crate) struct PoolShares {
    /// Settings from the builder.
    config: OnceLock<ShareConfig>,
    /// The root's permits, made at its first share.
    permits: OnceLock<Arc<Permits>>,
    /// This pool's workers as the permits see them: a share's sub-pool's, or a
    /// root pool's own (its jobs outside any share, from its first share on).
    member: OnceLock<Arc<ShareWorkers>>,
    /// A `build_scoped` pool's spawner: its shares' workers start on its scope.
    scoped: OnceLock<Arc<ScopedSpawner>>,
}

/// The shares settings of a pool, from its builder.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ShareConfig {
    pub(crate) policy: SharePolicy,
    pub(crate) quantum: Option<Duration>,
    pub(crate) cores: Option<usize>,
    /// Weight of the pool's own jobs against its top-level shares.
    pub(crate) root_tickets: Option<u32>,
    /// Worker 0 is the thread that built the pool (`use_current_thread`): a user's
    /// thread, which takes no core (it could hold one outside the pool).
    pub(crate) current_thread_worker: bool,
}

/// The workers of a share's sub-pool (or of a root pool), as the permits see them.
#[derive(Debug)]
pub(crate) struct ShareWorkers {
    pub(crate) permits: Arc<Permits>,
    pub(crate) id: ShareId,
    handles: Vec<WorkerHandle>,
    /// Whether each worker holds a core (written only by that worker).
    holding: Vec<AtomicBool>,
    /// How often each worker yields at its paced safe points while its share
    /// defers to another (see [`DeferPacing`]).
    pacing: Vec<DeferPacing>,
    /// How many workers run on a core right now: holding one, and not parked at a
    /// safe point waiting to get it back.
    on_core: AtomicU32,
    /// What [`ShareWorkers::may_start`] last read from the allocator: the cores the
    /// share's tickets are worth (rounded up, at least one), whether a core was
    /// free, and when (the permits' clock; `u64::MAX`: never).
    worth: AtomicU32,
    core_free: AtomicBool,
    read_at: AtomicU64,
    /// The list of the shares of these permits that the thread bound refused
    /// a start, one for all of them (see `stalled_starts.rs`).
    pub(crate) stalls: Arc<StalledStarts>,
    /// When the thread bound last refused this share a start and whether the
    /// share is on that list, and how to start a thread for it anyway.
    stall: StallMark,
    start_anyway: StartAnyway,
}

/// Starts a thread of a share's sub-pool past its thread bound, if work waits
/// for one (see [`ShareWorkers::start_anyway`]).
pub(crate) struct StartAnyway(Box<dyn Fn() + Send + Sync>);

impl StartAnyway {
    pub(crate) fn new(f: impl Fn() + Send + Sync + 'static) -> Self {
        StartAnyway(Box::new(f))
    }

    /// For a pool whose starts are never refused (a root pool).
    pub(crate) fn never() -> Self {
        StartAnyway::new(|| {})
    }
}

impl std::fmt::Debug for StartAnyway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StartAnyway")
    }
}

impl PoolShares {
    /// Records the builder's settings (before any share is made).
    pub(crate) fn configure(&self, config: ShareConfig) {
        let _ = self.config.set(config);
    }

    /// This (root) pool's `workers` workers as the permits see them, made on
    /// first use with the permits: as many as the builder's `share_cores` (at
    /// most `workers`), by default `workers` or the machine's available
    /// parallelism, whichever is smaller. From then on the pool's own workers
    /// take part as the root share: they take a core before running a job, and
    /// `raise(i)` raises worker `i`'s flag.
    pub(crate) fn root_share(
        &self,
        workers: usize,
        raise: impl Fn(usize) + Clone + Send + Sync + 'static,
    ) -> &Arc<ShareWorkers> {
        let config = self.config.get().copied().unwrap_or_default();
        let permits = self.permits.get_or_init(|| {
            let cores = permit_count(workers, config.cores);
            let mut c = Config::new(cores.clamp(1, u32::MAX as usize) as u32);
            c.policy = config.policy;
            c.own_clocks = thread_clock::AVAILABLE;
            if let Some(q) = config.quantum {
                c.quantum_nanos = q.as_nanos().clamp(1, u128::from(u64::MAX)) as u64;
            }
            if let Some(t) = config.root_tickets {
                c.root_tickets = t;
            }
            Arc::new(Permits::new(c))
        });
        self.member.get_or_init(|| {
            let root = permits.root();
            let member = Arc::new(ShareWorkers::new(
                permits.clone(),
                Arc::default(),
                root,
                workers,
                raise.clone(),
                StartAnyway::never(),
            ));
            let first = usize::from(config.current_thread_worker);
            (first..workers).for_each(&raise);
            member
        })
    }

    /// Whether this pool's workers take a core permit before they run (a share's
    /// sub-pool, or a root pool once it has made a share).
    #[inline]
    pub(crate) fn takes_permits(&self) -> bool {
        self.member.get().is_some()
    }

    /// Records the spawner of a `build_scoped` pool.
    pub(crate) fn set_scoped(&self, spawner: Arc<ScopedSpawner>) {
        let _ = self.scoped.set(spawner);
    }

    /// The spawner of a `build_scoped` pool, if this is one.
    pub(crate) fn scoped(&self) -> Option<&Arc<ScopedSpawner>> {
        self.scoped.get()
    }

    /// The root's permits, if it has made a share.
    pub(crate) fn permits_made(&self) -> Option<&Arc<Permits>> {
        self.permits.get()
    }

    /// Whether this pool is a share made (directly or through other shares) from
    /// the pool whose shares state is `root`, or is that pool taking part in its own
    /// division: both then use `root`'s permits.
    pub(crate) fn is_within(&self, root: &PoolShares) -> bool {
        match (self.member.get(), root.permits.get()) {
            (Some(member), Some(permits)) => Arc::ptr_eq(&member.permits, permits),
            _ => false,
        }
    }

    /// The root is going away: no new shares.
    pub(crate) fn shut_down(&self) {
        if let Some(p) = self.permits.get() {
            p.with(|a| a.shut_down());
        }
    }

    pub(crate) fn set_member(&self, member: Arc<ShareWorkers>) {
        let _ = self.member.set(member);
    }

    /// A thread of this pool's share is about to wait for a job it injected into
    /// `to`'s share: it lends its tickets to `to` until the guard is dropped
    /// (transfer). `None` when either pool is not a share of the same pool.
    pub(crate) fn lend_to(&self, to: &PoolShares) -> Option<Lend> {
        let (from, to) = (self.member.get()?, to.member.get()?);
        if !Arc::ptr_eq(&from.permits, &to.permits) || from.id == to.id {
            return None;
        }
        Some(Lend::new(&from.permits, from.id, to.id))
    }

    /// A worker of this pool passed a paced safe point (an iterator leaf's, about
    /// every 40 µs) holding a core. While its share competes with one worth more
    /// cores by its tickets (see `Permits::defers_to_other`), it lets the OS run
    /// another thread that is ready on this core first (a `sched_yield`, about a
    /// microsecond): the thread of a caller of that share that just woke up, or a
    /// woken worker about to ask for a core. Without it, a kernel that does not
    /// preempt a running thread for a waking one (a server kernel: no wake-up
    /// preemption while the running thread's time slice lasts, and slices end at
    /// a timer tick, 4 ms at 250 Hz) left that thread waiting up to several
    /// milliseconds behind the holders, whatever the tickets said. It yields too
    /// while a worker granted a core has not started running (see
    /// `Permits::starting`). With nothing else ready, the yield returns at once.
    /// Yields that let another thread run long, most likely one of another
    /// program, are held to a budget (see [`DeferPacing`]).
    /// Notes the processor it runs on too, ends the quantum if it is over while
    /// a worker waits (see `Permits::end_quantum_if_due`), and naps if another
    /// holder's thread shares its processor (see `Permits::spread`).
    /// Returns whether it yielded.
    pub(crate) fn on_paced_safe_point(&self, index: usize) -> bool {
        let Some(m) = self.member.get() else {
            return false;
        };
        if let Some(h) = m.handles.get(index) {
            // Where it runs now, for a waiter to tell whether it can (see
            // `Permits`' `give_up_for_off_core`).
            h.note_cpu();
            m.permits.publish_time(h);
            m.permits.end_quantum_if_due();
            m.permits.spread(h);
            m.look_for_stalls();
        }
        let defers = m.permits.defers_to_other(m.id) || m.permits.starting();
        defers
            && m.pacing
                .get(index)
                .is_some_and(|p| p.defer(m.permits.now()))
    }

    /// Worker `index`'s preemption flag was up: take a core if it has none, give
    /// it back if the allocator asked. Blocks until the worker may run.
    #[cold]
    pub(crate) fn on_safe_point(&self, index: usize) {
        if let Some(m) = self.member.get() {
            m.on_safe_point(index);
        }
    }

    /// `n` sleeping workers of this pool were woken for a job one of its workers
    /// published. Each will ask for a core as soon as the OS runs it; when no core is
    /// free, the allocator asks now the holders its policy would take one from to
    /// give it back at their next safe point, and keeps the freed core for this
    /// share a moment (wake-up preemption: the woken worker then starts on a core
    /// freed for it, rather than waiting for the OS to run it beside the holders and
    /// only then asking). On by default; `PRORATA_WAKEUP_PREEMPTION=0` turns it off
    /// (the woken worker then competes once it asks).
    pub(crate) fn workers_woken(&self, n: u32) {
        if !wakeup_preemption() {
            return;
        }
        if let Some(m) = self.member.get() {
            m.permits.anticipate(m.id, n);
        }
    }

    /// Whether work that a worker of this pool (a share's sub-pool) pushed may
    /// start another thread beside the `live` ones (always, for a pool without
    /// shares, or unless the bound is on: see [`thread_bound`]); see
    /// [`ShareWorkers::may_start`].
    pub(crate) fn may_start_thread(&self, live: usize) -> bool {
        if !thread_bound() {
            return true;
        }
        self.member.get().is_none_or(|m| m.may_start(live))
    }

    /// The thread bound refused this pool's share a start (see
    /// `stalled_starts.rs`).
    pub(crate) fn note_refused_start(&self) {
        if let Some(m) = self.member.get() {
            m.note_refused();
        }
    }

    /// The work a refused start was for is taken.
    pub(crate) fn no_start_waits(&self) {
        if let Some(m) = self.member.get() {
            m.no_start_waits();
        }
    }

    /// Whether one of this pool's `live` threads that is about to sleep is one
    /// its share would not keep (never without the bound, nor for a pool
    /// without shares); see [`ShareWorkers::is_spare`].
    pub(crate) fn thread_is_spare(&self, live: usize) -> bool {
        thread_bound() && self.member.get().is_some_and(|m| m.is_spare(live))
    }

    /// Worker `index` ran out of work (or exits). Returns whether it gave a core
    /// back (the pool then raises its flag, so that it takes one before its next
    /// job).
    pub(crate) fn on_idle(&self, index: usize) -> bool {
        self.member.get().is_some_and(|m| m.release(index))
    }
}

/// How many threads a share whose tickets are worth `cores` cores may run on
/// cores at once: the cores rounded up, and one more for a share worth a core
/// or more. Other programs share the processors, and a share's holder may get
/// less than a whole one from the OS; the allocator charges the processor time
/// used and would make the difference up from the other shares, but only to a
/// thread of the share that waits for a core. (A 2:1:1 tree on 2 cores beside
/// one busy loop: 38 : 31 : 31 with one thread for the share worth a core.)
/// At most as many shares as cores are worth a core, so this adds at most a
/// thread per core.
fn thread_worth(cores: f64) -> u32 {
    if cores >= 1.0 {
        cores.ceil().min(f64::from(u32::MAX / 2)) as u32 + 1
    } else {
        1
    }
}

/// Whether a share's threads are bounded by the cores it is worth (unless
/// `PRORATA_SHARE_THREAD_BOUND=0`), read once.
///
/// A share's tasks that wait for each other outside prorata (a channel, a spin
/// on a flag) need as many threads as wait at once, and a share worth less than
/// a core runs one. When its one thread blocks in the first task, the second
/// starts once the share has been stuck for
/// [`STUCK_AFTER`](super::stalled_starts::STUCK_AFTER); with the bound off,
/// at once.
fn thread_bound() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("PRORATA_SHARE_THREAD_BOUND").is_none_or(|v| v != "0"))
}

/// Whether wake-up preemption is on (unless `PRORATA_WAKEUP_PREEMPTION=0`), read once.
fn wakeup_preemption() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("PRORATA_WAKEUP_PREEMPTION").is_none_or(|v| v != "0"))
}

/// The number of core permits of a pool of `workers` workers whose builder asked
/// for `asked` (`None`: as many as the machine runs at once).
fn permit_count(workers: usize, asked: Option<usize>) -> usize {
    let cores = asked.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(workers, std::num::NonZeroUsize::get)
    });
    cores.clamp(1, workers.max(1))
}

impl Drop for ShareWorkers {
    fn drop(&mut self) {
        // The `Share` and the sub-pool's threads are gone (this is dropped with their
        // registry): a worker that still holds a core can only be one that never
        // exited. Then a share leaves the tree (the root's workers, those of a pool
        // with shares, leave the root in place for the shares that outlive them).
        for (h, holding) in self.handles.iter().zip(&self.holding) {
            if holding.load(Ordering::Relaxed) {
                self.permits.release(h);
            }
            self.permits.unregister_worker(h);
        }
        if self.id != self.permits.root() {
            self.permits.with(|a| a.retire(self.id));
        }
    }
}

/// A transfer of tickets in progress; ends when dropped (even on a panic).
#[derive(Debug)]
pub(crate) struct Lend {
    permits: Arc<Permits>,
    from: ShareId,
    to: ShareId,
}

impl Lend {
    /// `from` lends its tickets to `to` until the guard is dropped.
    pub(crate) fn new(permits: &Arc<Permits>, from: ShareId, to: ShareId) -> Lend {
        permits.with(|a| a.lend(from, to));
        Lend {
            permits: permits.clone(),
            from,
            to,
        }
    }
}

impl Drop for Lend {
    fn drop(&mut self) {
        self.permits.with(|a| a.end_lend(self.from, self.to));
    }
}

/// A worker's yields to the threads its share defers to (see
/// [`PoolShares::on_paced_safe_point`]), within a budget of time.
///
/// The yields are for threads of this program: a caller of the other share
/// that just woke up, or a worker granted a core that the OS has not run yet.
/// They run for microseconds before they block or move on. A thread of another
/// program that keeps a processor busy takes the whole of its time slice at
/// a yield instead (a millisecond or more), and a holder that yielded at every
/// safe point ran a fraction of the time of the holders beside it: the
/// allocator, which charges each share the processor time its threads used,
/// then saw that share as owed and never took its core back, and its items fell
/// far below its part (3:1 on 2 cores beside one busy loop, one thread per
/// share: 88 : 12 instead of 75 : 25). So each yield is charged the time it took beyond
/// [`SHORT_YIELD`], against a budget that grows by a fiftieth of the time
/// that passes (up to [`YIELD_BUDGET_CAP`]); the worker yields only while the
/// budget is not spent. Yields that let the program's own threads run cost
/// nothing; other programs get at most about 2% of the holder's time this way.
#[derive(Debug, Default)]
struct DeferPacing {
    /// Nanoseconds of long yields the worker may still spend (negative: owed).
    budget: AtomicI64,
    /// When the budget was last topped up (the permits' clock; 0: never).
    topped_at: AtomicU64,
}

/// The part of a yield that is free: a thread of the program woken for a
/// moment has run by then.
const SHORT_YIELD: Duration = Duration::from_micros(20);

/// The most a worker saves up for long yields.
const YIELD_BUDGET_CAP: Duration = Duration::from_millis(1);

/// The budget grows by one nanosecond for every this many that pass.
const YIELD_BUDGET_RATE: u64 = 50;

impl DeferPacing {
    /// A paced safe point of this worker at `now` (the permits' clock), while
    /// its share defers to another: yields the processor unless the budget is
    /// spent; says whether it yielded. Only the worker itself calls it, so
    /// plain loads and stores.
    fn defer(&self, now: u64) -> bool {
        self.defer_with(now, || {
            let start = std::time::Instant::now();
            std::thread::yield_now();
            start.elapsed()
        })
    }

    /// [`DeferPacing::defer`], yielding by `yield_for`, which says how long the
    /// yield took.
    fn defer_with(&self, now: u64, yield_for: impl FnOnce() -> Duration) -> bool {
        let since = now.saturating_sub(self.topped_at.load(Ordering::Relaxed));
        self.topped_at.store(now, Ordering::Relaxed);
        let gained = i64::try_from(since / YIELD_BUDGET_RATE).unwrap_or(i64::MAX);
        let budget = self
            .budget
            .load(Ordering::Relaxed)
            .saturating_add(gained)
            .min(YIELD_BUDGET_CAP.as_nanos() as i64);
        if budget < 0 {
            self.budget.store(budget, Ordering::Relaxed);
            return false;
        }
        let long = yield_for().saturating_sub(SHORT_YIELD);
        let cost = i64::try_from(long.as_nanos()).unwrap_or(i64::MAX);
        self.budget
            .store(budget.saturating_sub(cost), Ordering::Relaxed);
        true
    }
}

impl ShareWorkers {
    /// Registers `n` workers of share `id` with `permits`, whose shares' stalled
    /// starts are listed in `stalls`; `on_flag(i)` raises worker `i`'s pool flag.
    pub(crate) fn new(
        permits: Arc<Permits>,
        stalls: Arc<StalledStarts>,
        id: ShareId,
        n: usize,
        on_flag: impl Fn(usize) + Clone + Send + Sync + 'static,
        start_anyway: StartAnyway,
    ) -> Self {
        let handles = (0..n)
            .map(|i| {
                let f = on_flag.clone();
                permits.register_worker_with(Some(Box::new(move || f(i))))
            })
            .collect();
        ShareWorkers {
            permits,
            id,
            handles,
            holding: (0..n).map(|_| AtomicBool::new(false)).collect(),
            pacing: (0..n).map(|_| DeferPacing::default()).collect(),
            on_core: AtomicU32::new(0),
            worth: AtomicU32::new(1),
            core_free: AtomicBool::new(false),
            read_at: AtomicU64::new(u64::MAX),
            stalls,
            stall: StallMark::new(),
            start_anyway,
        }
    }

    /// Whether work the share's own workers pushed may start another thread beside
    /// its `live` ones (started, not retired). Only while every one of them runs on
    /// a core: a thread that waits for a core already asks the allocator for one
    /// more, and a second waiter would only add a stack. Then only if the share
    /// runs on fewer cores than its tickets are worth among the active shares, or
    /// a core is free for whoever asks (work conservation: a share alone, or
    /// beside shares that want fewer cores than they are worth, gets them all).
    /// So a share runs at most one thread more than the cores it has held at
    /// once; 200 shares on 2 cores run about one thread each. (Work from outside,
    /// and wake-ups of a sleeping thread, are not bounded.)
    fn may_start(&self, live: usize) -> bool {
        let on_core = self.on_core.load(Ordering::Relaxed) as usize;
        let may = live <= on_core && self.has_room(on_core);
        if may {
            self.no_start_waits();
        }
        may
    }

    /// The bound refused this share a start: noted, and the share listed with
    /// the stalled starts (see `stalled_starts.rs`).
    fn note_refused(self: &Arc<Self>) {
        if self.stall.refused(self.permits.now()) {
            self.stalls.watch(Arc::downgrade(self));
            self.stalls.keep_watching(&self.permits);
        }
    }

    /// No refused start waits any more (one started, or its work was taken).
    fn no_start_waits(&self) {
        self.stall.clear();
    }

    /// Whether one of the share's `live` threads, about to sleep, is one too
    /// many: the others are as many as the cores its tickets are worth (see
    /// [`ShareWorkers::may_start`]), and no core is free. Whether they hold
    /// cores now does not count: between two calls none does, and a thread
    /// retired then had to start again for the next call (a thread started at
    /// each call of the latency example's queries made them 1.85 times slower).
    fn is_spare(&self, live: usize) -> bool {
        live >= 2 && !self.has_room(live - 1)
    }

    /// Whether the share has room for a thread beside `threads` of its own:
    /// they are fewer than the cores its tickets are worth among the active
    /// shares (see [`thread_worth`]), or a core is free for whoever asks.
    ///
    /// The allocator is read at most every eighth of a quantum, and only when its
    /// lock is free: pushes ask this often, and must not queue behind it.
    fn has_room(&self, threads: usize) -> bool {
        let now = self.permits.now();
        let at = self.read_at.load(Ordering::Relaxed);
        if at == u64::MAX || now.saturating_sub(at) >= self.permits.quantum_nanos() / 8 {
            if let Some((cores, free)) = self.permits.try_thread_reading(self.id) {
                self.worth.store(thread_worth(cores), Ordering::Relaxed);
                self.core_free.store(free, Ordering::Relaxed);
                self.read_at.store(now, Ordering::Relaxed);
            }
        }
        threads < self.worth.load(Ordering::Relaxed) as usize
            || self.core_free.load(Ordering::Relaxed)
    }

    fn on_safe_point(&self, i: usize) {
        let h = &self.handles[i];
        if !self.holding[i].load(Ordering::Relaxed) {
            crate::pool::note_current(Kind::CoreWait, 0);
            self.permits.acquire(h, self.id);
            crate::pool::note_current(Kind::CoreGranted, 0);
            self.holding[i].store(true, Ordering::Relaxed);
            self.on_core.fetch_add(1, Ordering::Relaxed);
        } else if h.should_yield() {
            crate::pool::note_current(Kind::Preempted, 0);
            self.on_core.fetch_sub(1, Ordering::Relaxed);
            self.permits.yield_now(h);
            self.on_core.fetch_add(1, Ordering::Relaxed);
            crate::pool::note_current(Kind::CoreGranted, 0);
        }
    }

    /// Gives worker `i`'s core back if it holds one; returns whether it did.
    pub(crate) fn release(&self, i: usize) -> bool {
        if !self.holding[i].load(Ordering::Relaxed) {
            return false;
        }
        self.holding[i].store(false, Ordering::Relaxed);
        self.on_core.fetch_sub(1, Ordering::Relaxed);
        crate::pool::note_current(Kind::CoreReleased, 0);
        self.permits.release(&self.handles[i]);
        self.look_for_stalls();
        true
    }

    /// Looks at the stalled starts now and then (see `stalled_starts.rs`): a
    /// stuck share gets its thread.
    fn look_for_stalls(&self) {
        if self.stalls.may_hold_any() {
            self.stalls.look(self.permits.now());
        }
    }
}

impl Watched for Arc<ShareWorkers> {
    fn mark(&self) -> &StallMark {
        &self.stall
    }

    fn on_core(&self) -> bool {
        self.on_core.load(Ordering::Relaxed) != 0
    }

    fn start_anyway(&self) {
        (self.start_anyway.0)();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{DeferPacing, permit_count, thread_worth};

    #[test]
    fn a_share_worth_a_core_may_run_a_thread_more() {
        assert_eq!(thread_worth(0.0), 1);
        assert_eq!(thread_worth(0.01), 1);
        assert_eq!(thread_worth(0.999), 1);
        assert_eq!(thread_worth(1.0), 2);
        assert_eq!(thread_worth(1.5), 3);
        assert_eq!(thread_worth(2.0), 3);
        assert_eq!(thread_worth(f64::INFINITY), u32::MAX / 2 + 1);
        assert_eq!(thread_worth(f64::NAN), 1);
    }

    /// Runs `points` paced safe points 100 µs apart, each yield taking
    /// `took(i)`; returns how many yielded and the time they took.
    fn pace(points: u64, took: impl Fn(u64) -> Duration) -> (u64, Duration) {
        let p = DeferPacing::default();
        let (mut yields, mut spent) = (0, Duration::ZERO);
        let mut now = 1_000_000_000;
        for i in 0..points {
            let mut t = Duration::ZERO;
            if p.defer_with(now, || {
                t = took(i);
                t
            }) {
                yields += 1;
                spent += t;
            }
            now += 100_000 + t.as_nanos() as u64;
        }
        (yields, spent)
    }

    #[test]
    fn short_yields_are_free() {
        let (yields, _) = pace(10_000, |_| Duration::from_micros(15));
        assert_eq!(yields, 10_000);
    }

    #[test]
    fn long_yields_take_about_a_fiftieth_of_the_time() {
        // Another program's busy thread takes 3 ms at each yield.
        let (yields, spent) = pace(100_000, |_| Duration::from_millis(3));
        let total = Duration::from_micros(100) * 100_000 + spent;
        let part = spent.as_secs_f64() / total.as_secs_f64();
        assert!(yields > 1, "{yields} yields");
        assert!((0.015..0.025).contains(&part), "{part}");
    }

    #[test]
    fn after_long_yields_short_ones_come_back() {
        // Long yields, then short ones: once the last long yield is paid back
        // (at most 3 ms, at 2 µs a point: 1,500 points), every point yields.
        let (yields, _) = pace(20_000, |i| {
            if i < 10_000 {
                Duration::from_millis(3)
            } else {
                Duration::from_micros(1)
            }
        });
        let (long_only, _) = pace(10_000, |_| Duration::from_millis(3));
        assert!(yields >= long_only + 10_000 - 1_500, "{yields} of 20,000");
    }

    #[test]
    fn permits_are_cores_not_workers() {
        let machine = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(permit_count(8, None), machine.min(8));
        assert_eq!(permit_count(1, None), 1);
        assert_eq!(permit_count(8, Some(2)), 2);
        assert_eq!(permit_count(2, Some(8)), 2);
        assert_eq!(permit_count(8, Some(8)), 8);
    }
}
