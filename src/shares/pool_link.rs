//! What a pool's registry knows of shares, and the hooks the pool calls.
//!
//! A pool that makes shares (the *root*) holds the [`Permits`] of its cores, made
//! at its first share. A share's own sub-pool holds its [`ShareWorkers`]: one
//! permit handle per worker and whether that worker holds a core now. The pool
//! calls [`PoolShares::on_safe_point`] when a worker's preemption flag is up (job
//! start, join, iterator safe point) and [`PoolShares::on_idle`] when a worker
//! runs out of work (it then searches, then sleeps).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::allocator::Config;
use super::permits::{Permits, WorkerHandle};
use super::policy::SharePolicy;
use super::thread_clock;
use super::tree::ShareId;
use crate::pool::ScopedSpawner;
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
    /// How many workers run on a core right now: holding one, and not parked at a
    /// safe point waiting to get it back.
    on_core: AtomicU32,
    /// What [`ShareWorkers::may_start`] last read from the allocator: the cores the
    /// share's tickets are worth (rounded up, at least one), whether a core was
    /// free, and when (the permits' clock; `u64::MAX`: never).
    worth: AtomicU32,
    core_free: AtomicBool,
    read_at: AtomicU64,
}

impl PoolShares {
    /// Records the builder's settings (before any share is made).
    pub(crate) fn configure(&self, config: ShareConfig) {
        let _ = self.config.set(config);
    }

    /// The permits of this (root) pool of `workers` workers, made on first use:
    /// as many as the builder's `share_cores` (at most `workers`), by default
    /// `workers` or the machine's available parallelism, whichever is smaller.
    /// From then on the pool's own workers take part as the root share: they take
    /// a core before running a job, and `raise(i)` raises worker `i`'s flag.
    pub(crate) fn root_permits(
        &self,
        workers: usize,
        raise: impl Fn(usize) + Clone + Send + Sync + 'static,
    ) -> &Arc<Permits> {
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
                root,
                workers,
                raise.clone(),
            ));
            let first = usize::from(config.current_thread_worker);
            (first..workers).for_each(&raise);
            member
        });
        permits
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
    /// every 100 µs) holding a core. While its share competes with one worth more
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
    /// Notes the processor it runs on too, and ends the quantum if it is over
    /// while a worker waits (see `Permits::end_quantum_if_due`).
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
        }
        let defers = m.permits.defers_to_other(m.id) || m.permits.starting();
        if defers {
            std::thread::yield_now();
        }
        defers
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
    /// shares); see [`ShareWorkers::may_start`].
    ///
    /// Opt-in for now (`PRORATA_SHARE_THREAD_BOUND=1`): bounded shares show
    /// the allocator a demand of the cores they hold, and on 2 cores the
    /// shares example's two-level tree was up to 1.8 points off its tickets
    /// with the bound on, against 1.3 off (and flat pairs showed single
    /// windows 25-40 points off with it on); see the scaling page.
    pub(crate) fn may_start_thread(&self, live: usize) -> bool {
        if !thread_bound() {
            return true;
        }
        self.member.get().is_none_or(|m| m.may_start(live))
    }

    /// Worker `index` ran out of work (or exits). Returns whether it gave a core
    /// back (the pool then raises its flag, so that it takes one before its next
    /// job).
    pub(crate) fn on_idle(&self, index: usize) -> bool {
        self.member.get().is_some_and(|m| m.release(index))
    }
}

/// Whether a share's threads are bounded by the cores it holds
/// (`PRORATA_SHARE_THREAD_BOUND=1`), read once.
fn thread_bound() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("PRORATA_SHARE_THREAD_BOUND").is_some_and(|v| v == "1"))
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

impl ShareWorkers {
    /// Registers `n` workers; `on_flag(i)` raises worker `i`'s pool flag.
    pub(crate) fn new(
        permits: Arc<Permits>,
        id: ShareId,
        n: usize,
        on_flag: impl Fn(usize) + Clone + Send + Sync + 'static,
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
            on_core: AtomicU32::new(0),
            worth: AtomicU32::new(1),
            core_free: AtomicBool::new(false),
            read_at: AtomicU64::new(u64::MAX),
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
    ///
    /// The allocator is read at most every eighth of a quantum, and only when its
    /// lock is free: pushes ask this often, and must not queue behind it.
    fn may_start(&self, live: usize) -> bool {
        let on_core = self.on_core.load(Ordering::Relaxed) as usize;
        if live > on_core {
            return false;
        }
        let now = self.permits.now();
        let at = self.read_at.load(Ordering::Relaxed);
        if at == u64::MAX || now.saturating_sub(at) >= self.permits.quantum_nanos() / 8 {
            if let Some((cores, free)) = self.permits.try_thread_reading(self.id) {
                let worth = cores.ceil().clamp(1.0, f64::from(u32::MAX)) as u32;
                self.worth.store(worth, Ordering::Relaxed);
                self.core_free.store(free, Ordering::Relaxed);
                self.read_at.store(now, Ordering::Relaxed);
            }
        }
        on_core < self.worth.load(Ordering::Relaxed) as usize
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
        true
    }
}

#[cfg(test)]
mod tests {
    use super::permit_count;

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
