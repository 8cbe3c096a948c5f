//! `Share`: a sub-pool of a pool, entitled to a proportion of its cores.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use super::link::{Lend, ShareWorkers, StartAnyway};
use crate::pool::{Registry, ScopedSpawner, Totals};
use crate::shares::ShareError;
use crate::{BroadcastContext, Scope, ScopeFifo, ThreadPool, ThreadPoolBuilder};

/// A share of a pool's cores: a sub-pool with the pool API whose workers run only
/// while the pool's allocator grants them cores, in proportion to the share's
/// tickets among the active shares (see [`crate::SharePolicy`]).
///
/// Made by [`ThreadPool::share`], [`Share::share`] (a share of a share: its tickets
/// split the parent's value, as a currency) or [`crate::share`] (the global pool).
/// Dropping a share returns at once, like dropping a [`ThreadPool`]: its queued and
/// running work finishes, and the share leaves the pool (its tickets stop counting)
/// when its last worker has exited.
///
/// Making a share starts no thread (but for the first share of a process, see
/// [`ShareError::ThreadSpawn`]) and makes no system call: its workers start when
/// it has work, on threads that other shares' workers left where there are some,
/// so a server can make a share per request (see the guide's page on serving).
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let fg = pool.share(900).unwrap();
/// let bg = pool.share(100).unwrap();
/// let (a, b) = std::thread::scope(|s| {
///     let a = s.spawn(|| fg.install(|| (0..1000u64).sum::<u64>()));
///     let b = s.spawn(|| bg.install(|| (0..100u64).sum::<u64>()));
///     (a.join().unwrap(), b.join().unwrap())
/// });
/// assert_eq!((a, b), (499500, 4950));
/// bg.set_tickets(300).unwrap();
/// ```
pub struct Share {
    pool: Option<ThreadPool>,
    workers: Arc<ShareWorkers>,
    /// Set for a share of a `build_scoped` pool: its workers start on that
    /// pool's scope, which must not have ended when the share is given work.
    scoped: Option<Arc<ScopedSpawner>>,
}

/// What a pool or a share received and did so far (see [`ThreadPool::stats`] and
/// [`Share::stats`]): from the division of the cores, core time, grants, parks and
/// preemptions; from its own workers' counters, jobs, steals, `join` halves published
/// and claimed, sleeps and wake-ups; and how busy the pool's allocator is (its
/// calls, and those that waited for its lock), the same for the pool and each share.
///
/// Each worker counts for itself (no shared counter is written), and only where it
/// does something costly anyway, never on the fast path of a `join`: the counting is
/// always on. A reading sums the workers' counters. The workers of a share count in
/// the share's figures, not in its pool's.
///
/// ```
/// use prorata::prelude::*;
///
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let s = pool.share(1).unwrap();
/// let sum: u64 = s.install(|| (0..10_000u64).into_par_iter().sum());
/// assert_eq!(sum, 49_995_000);
/// let st = s.stats();
/// assert!(st.grants >= 1);
/// assert!(st.jobs >= 1);
/// assert!(st.steals <= st.jobs);
/// assert!(st.allocator_waits <= st.allocator_calls);
/// assert!(pool.stats().allocator_calls >= st.allocator_calls);
/// ```
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShareStats {
    /// Core time its workers held.
    pub core_time: Duration,
    /// Cores granted to its workers.
    pub grants: u64,
    /// Times one of its workers parked, waiting for a core.
    pub parks: u64,
    /// Times one of its workers gave its core back because the share was over its
    /// proportion.
    pub preemptions: u64,
    /// Jobs its workers took from a queue and ran: `install`ed, spawned and broadcast
    /// jobs, and the second halves of `join`s that were published and then stolen or
    /// claimed (a half its own worker takes back runs inline and is not a job).
    pub jobs: u64,
    /// Jobs its workers stole from each other's deques.
    pub steals: u64,
    /// Second halves of `join`s that its workers moved from their pending frames to
    /// their deques, where thieves can take them (when a job starts, when a thief
    /// asks, before a worker waits).
    pub frames_published: u64,
    /// Pending `join` halves an idle worker took directly from a busy one (which was
    /// not publishing: blocked, or in a long sequential stretch).
    pub frames_claimed: u64,
    /// Times one of its workers blocked, having found nothing to do.
    pub sleeps: u64,
    /// Times another thread woke one of its sleeping workers (new work, a latch it
    /// waits on, the pool's end); a sleeper that naps and wakes by itself is not
    /// counted.
    pub wake_ups: u64,
    /// Calls into the allocator that divides the pool's cores (a grant, a
    /// give-back, the end of a quantum, a share made or dropped, a reading of
    /// these figures), made by the pool and every share of it: the same figure in
    /// the stats of each. Each takes the allocator's one lock, waiting for it if
    /// it is held (the quick looks of busy workers, which skip the allocator
    /// when its lock is held, are not counted).
    pub allocator_calls: u64,
    /// Those calls that found the allocator's lock held by another and waited.
    pub allocator_waits: u64,
    /// The time those calls waited for the lock, all together.
    pub allocator_wait_time: Duration,
}

impl ShareStats {
    /// The allocator's figures `st` with what the workers of `registry` counted.
    pub(crate) fn new(st: crate::shares::accounting::ShareStats, registry: &Registry) -> Self {
        let counted = Totals::of(&registry.counters);
        ShareStats {
            core_time: Duration::from_nanos(st.core_nanos),
            grants: st.grants,
            parks: st.parks,
            preemptions: st.preemptions,
            jobs: counted.jobs,
            steals: counted.steals,
            frames_published: counted.frames_published,
            frames_claimed: counted.frames_claimed,
            sleeps: counted.sleeps,
            wake_ups: counted.wake_ups,
            allocator_calls: st.allocator_calls,
            allocator_waits: st.allocator_waits,
            allocator_wait_time: Duration::from_nanos(st.allocator_wait_nanos),
        }
    }
}

/// A loan of one share's tickets to another, made by [`Share::lend_to`]; it ends
/// when dropped.
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let (a, b, c) = (pool.share(1).unwrap(), pool.share(1).unwrap(), pool.share(1).unwrap());
/// // Two lenders: `c` computes with three shares' worth while both loans last.
/// let (from_a, from_b) = (a.lend_to(&c).unwrap(), b.lend_to(&c).unwrap());
/// assert_eq!(c.install(|| 2 + 2), 4);
/// drop((from_a, from_b));
/// ```
#[must_use = "the loan ends when dropped"]
pub struct TicketLoan<'a> {
    _lend: Option<Lend>,
    _shares: std::marker::PhantomData<&'a Share>,
}

impl fmt::Debug for TicketLoan<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TicketLoan")
            .field("active", &self._lend.is_some())
            .finish()
    }
}

impl fmt::Debug for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Share")
            .field("num_threads", &self.current_num_threads())
            .finish_non_exhaustive()
    }
}

impl Share {
    /// A share of `tickets` under `parent` (the workers of the root pool, or of
    /// the share it is a share of: their permits, share and stalled starts), with
    /// `cores` workers; `from` is the pool or share it is made from, whose panic
    /// handler and stack size it takes; `scoped` starts the workers of a share of
    /// a `build_scoped` pool.
    pub(crate) fn create(
        from: &Registry,
        parent: &ShareWorkers,
        cores: usize,
        tickets: u32,
        scoped: Option<&Arc<ScopedSpawner>>,
    ) -> Result<Share, ShareError> {
        let permits = &parent.permits;
        let id = permits.add_share(parent.id, tickets)?;
        let built = ThreadPoolBuilder::new()
            .num_threads(cores)
            .retire_names(thread_names(cores))
            .inherit(from)
            .retire_idle(IDLE_WORKER_LIFETIME, scoped.map(ScopedSpawner::spawner))
            .build();
        // The sub-pool's builder can only fail to start its threads.
        let Ok(pool) = built else {
            permits.with(|a| a.retire(id));
            return Err(ShareError::ThreadSpawn);
        };
        if let Some(spawner) = scoped {
            spawner.track(pool.registry());
        }
        let raise = raiser(pool.registry());
        let stalled = Arc::downgrade(pool.registry());
        let start_anyway = StartAnyway::new(move || {
            if let Some(r) = stalled.upgrade() {
                r.start_stalled();
            }
        });
        let workers = Arc::new(ShareWorkers::new(
            permits.clone(),
            parent.stalls.clone(),
            id,
            cores,
            raise.clone(),
            start_anyway,
        ));
        pool.registry().shares.set_member(workers.clone());
        // Its workers run only while they hold a core: idle, they sleep at once.
        pool.registry().sleep.sleep_promptly();
        // Its workers record with the pool or share it is made from.
        crate::trace::adopt(from, pool.registry(), id.index(), tickets);
        crate::pool::enable_shares();
        // No worker holds a core yet: each takes one before its first job.
        (0..cores).for_each(raise);
        Ok(Share {
            pool: Some(pool),
            workers,
            scoped: scoped.cloned(),
        })
    }

    fn pool(&self) -> &ThreadPool {
        self.pool.as_ref().expect("a live share has its pool")
    }

    /// The sub-pool, to give it work: a share of a `build_scoped` pool cannot be
    /// given work once `build_scoped` has returned (its workers would run outside
    /// the wrapper that sets up their threads).
    fn live_pool(&self) -> &ThreadPool {
        if self.scoped.as_ref().is_some_and(|s| s.is_closed()) {
            panic!(
                "prorata: a share of a scoped pool was given work after \
                 ThreadPoolBuilder::build_scoped returned"
            );
        }
        self.pool()
    }

    /// A share of this share's value: its tickets are in this share's currency.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let alice = pool.share(300).unwrap();
    /// let t1 = alice.share(200).unwrap();
    /// let t2 = alice.share(100).unwrap();
    /// assert_eq!(t1.install(|| 1) + t2.install(|| 2), 3);
    /// ```
    pub fn share(&self, tickets: u32) -> Result<Share, ShareError> {
        let (n, scoped) = (self.current_num_threads(), self.scoped.as_ref());
        Share::create(self.pool().registry(), &self.workers, n, tickets, scoped)
    }

    /// Changes this share's tickets (inflation or deflation); effective within a
    /// quantum.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let s = pool.share(100).unwrap();
    /// s.set_tickets(300).unwrap();
    /// assert_eq!(s.set_tickets(0), Err(prorata::ShareError::ZeroTickets));
    /// ```
    pub fn set_tickets(&self, tickets: u32) -> Result<(), ShareError> {
        let w = &self.workers;
        w.permits.with(|a| a.set_tickets(w.id, tickets))
    }

    /// Sets the most cores this share may hold at once (`None`: no ceiling, the
    /// default), counting the shares made from it: it never runs more than `n`
    /// of its workers at a time, even alone on an idle pool, so that work such
    /// as a compaction or an index build leaves headroom for what is not in the
    /// pool. The cores its tickets are worth beyond `n` go to the other active
    /// shares in proportion to their tickets. A lowered ceiling takes effect at
    /// the next safe point of the workers beyond it; a raised or removed one at
    /// once.
    ///
    /// A ceiling of 0 is refused with [`ShareError::ZeroCeiling`] (a share that
    /// may hold no core would never run); a ceiling above the pool's cores is no
    /// limit.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    /// let compaction = pool.share(100).unwrap();
    /// compaction.set_max_cores(Some(1)).unwrap();
    /// assert_eq!(compaction.max_cores(), Some(1));
    /// // At most one of its workers runs at a time.
    /// assert_eq!(compaction.install(|| (0..1000u64).sum::<u64>()), 499500);
    /// assert_eq!(
    ///     compaction.set_max_cores(Some(0)),
    ///     Err(prorata::ShareError::ZeroCeiling)
    /// );
    /// compaction.set_max_cores(None).unwrap();
    /// assert_eq!(compaction.max_cores(), None);
    /// ```
    pub fn set_max_cores(&self, n: Option<usize>) -> Result<(), ShareError> {
        let w = &self.workers;
        // Past u32::MAX cores a ceiling is no limit: it saturates there.
        let n = n.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
        w.permits.set_ceiling(w.id, n)
    }

    /// This share's ceiling on its cores (see [`Share::set_max_cores`]); `None`
    /// if it has none.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let s = pool.share(100).unwrap();
    /// assert_eq!(s.max_cores(), None);
    /// s.set_max_cores(Some(1)).unwrap();
    /// assert_eq!(s.max_cores(), Some(1));
    /// ```
    pub fn max_cores(&self) -> Option<usize> {
        let w = &self.workers;
        w.permits.with(|a| a.ceiling(w.id)).map(|c| c as usize)
    }

    /// Lends this share's tickets to `to` until the returned loan is dropped
    /// (ticket transfer, Waldspurger section 2.2): code that waits for work it
    /// handed to another share lends it its rights meanwhile, so the work it waits
    /// for is not slowed by its low tickets. While the loan lasts, `to` computes
    /// with its own tickets plus this share's value (shared equally with this
    /// share's own work if it still has some); loans from several lenders add up.
    /// A `b.install(..)` called from inside this share lends automatically; this
    /// is for waits prorata does not see (a channel, a future, another thread).
    ///
    /// Lending to itself lends nothing; lending to a share of another pool is an
    /// error ([`ShareError::DifferentPools`]).
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let (waiter, worker) = (pool.share(300).unwrap(), pool.share(100).unwrap());
    /// let loan = waiter.lend_to(&worker).unwrap(); // worker now counts 400 tickets
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// worker.spawn(move || tx.send(6 * 7).unwrap());
    /// assert_eq!(rx.recv().unwrap(), 42);
    /// drop(loan); // back to 100
    ///
    /// let other = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// let stranger = other.share(1).unwrap();
    /// assert_eq!(
    ///     waiter.lend_to(&stranger).unwrap_err(),
    ///     prorata::ShareError::DifferentPools
    /// );
    /// ```
    pub fn lend_to<'a>(&'a self, to: &'a Share) -> Result<TicketLoan<'a>, ShareError> {
        let (from, to) = (&self.workers, &to.workers);
        if !Arc::ptr_eq(&from.permits, &to.permits) {
            return Err(ShareError::DifferentPools);
        }
        let lend = (from.id != to.id).then(|| Lend::new(&from.permits, from.id, to.id));
        Ok(TicketLoan {
            _lend: lend,
            _shares: std::marker::PhantomData,
        })
    }

    /// Core time, grants, parks and preemptions of this share so far, and what its
    /// own workers counted (jobs, steals, join frames, sleeps and wake-ups; not those
    /// of its child shares). Each worker counts for itself; a reading sums them.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let s = pool.share(1).unwrap();
    /// assert_eq!(s.stats().preemptions, 0);
    /// assert_eq!(s.stats().jobs, 0);
    /// s.install(|| ());
    /// assert_eq!(s.stats().jobs, 1);
    /// ```
    pub fn stats(&self) -> ShareStats {
        let st = self.workers.permits.stats(self.workers.id);
        ShareStats::new(st, self.pool().registry())
    }

    /// Runs `op` in this share (see [`ThreadPool::install`]); parallel iterators
    /// inside run in the share.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.share(5).unwrap().install(|| 6 * 7), 42);
    /// ```
    pub fn install<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce() -> R + Send,
        R: Send,
    {
        self.live_pool().install(op)
    }

    /// [`crate::join`] in this share.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.share(5).unwrap().join(|| 1, || 2), (1, 2));
    /// ```
    pub fn join<A, B, RA, RB>(&self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        self.live_pool().join(a, b)
    }

    /// [`crate::scope`] in this share.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut x = 0;
    /// pool.share(5).unwrap().scope(|s| s.spawn(|_| x = 1));
    /// assert_eq!(x, 1);
    /// ```
    pub fn scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R + Send,
        R: Send,
    {
        self.live_pool().scope(op)
    }

    /// [`crate::scope_fifo`] in this share.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut x = 0;
    /// pool.share(5).unwrap().scope_fifo(|s| s.spawn_fifo(|_| x = 1));
    /// assert_eq!(x, 1);
    /// ```
    pub fn scope_fifo<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
        R: Send,
    {
        self.live_pool().scope_fifo(op)
    }

    /// [`crate::in_place_scope`] whose spawns run in this share.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut x = 0;
    /// pool.share(5).unwrap().in_place_scope(|s| s.spawn(|_| x = 1));
    /// assert_eq!(x, 1);
    /// ```
    pub fn in_place_scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R,
    {
        self.live_pool().in_place_scope(op)
    }

    /// Runs `op` in this share in the background. A panic in `op` goes to the panic
    /// handler of the pool the share was made from (through its parent shares); as
    /// with [`ThreadPool::spawn`], the process aborts if that pool has none.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// pool.share(5).unwrap().spawn(move || tx.send(7).unwrap());
    /// assert_eq!(rx.recv().unwrap(), 7);
    /// ```
    pub fn spawn<OP>(&self, op: OP)
    where
        OP: FnOnce() + Send + 'static,
    {
        self.live_pool().spawn(op)
    }

    /// Runs `op` in this share under its tickets and returns a future of its result,
    /// to `.await` from async code (see [`crate::spawn_future`]): the way to give a
    /// request of an async server its own share. A panic in `op` resumes where the
    /// future is awaited. Dropping the share first does not cancel the job: the
    /// share's workers finish what was queued, so the future resolves; dropping the
    /// future never blocks, and an `op` not started by then does not run.
    ///
    /// ```
    /// use std::future::Future;
    /// use std::task::{Context, Poll, Waker};
    /// use prorata::prelude::*;
    ///
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let tenant = pool.share(300).unwrap();
    /// let request = tenant.share(10).unwrap(); // no thread starts here
    /// let mut fut = Box::pin(request.spawn_future(|| (0..1000u64).into_par_iter().sum::<u64>()));
    /// drop(request);
    /// let mut cx = Context::from_waker(Waker::noop());
    /// let v = loop {
    ///     match fut.as_mut().poll(&mut cx) {
    ///         Poll::Ready(v) => break v,
    ///         Poll::Pending => std::thread::yield_now(),
    ///     }
    /// };
    /// assert_eq!(v, 499_500);
    /// ```
    pub fn spawn_future<OP, T>(&self, op: OP) -> crate::SpawnFuture<T>
    where
        OP: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.live_pool().spawn_future(op)
    }

    /// Like [`Share::spawn`], in FIFO order.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// pool.share(5).unwrap().spawn_fifo(move || tx.send(7).unwrap());
    /// assert_eq!(rx.recv().unwrap(), 7);
    /// ```
    pub fn spawn_fifo<OP>(&self, op: OP)
    where
        OP: FnOnce() + Send + 'static,
    {
        self.live_pool().spawn_fifo(op)
    }

    /// Runs `op` on every worker of this share.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.share(5).unwrap().broadcast(|ctx| ctx.index()).len(), 2);
    /// ```
    pub fn broadcast<OP, R>(&self, op: OP) -> Vec<R>
    where
        OP: Fn(BroadcastContext<'_>) -> R + Sync,
        R: Send,
    {
        self.live_pool().broadcast(op)
    }

    /// Number of workers of this share (the pool's).
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    /// assert_eq!(pool.share(5).unwrap().current_num_threads(), 3);
    /// ```
    pub fn current_num_threads(&self) -> usize {
        self.pool().current_num_threads()
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        // The sub-pool finishes its jobs without this handle waiting for them (as a
        // `ThreadPool`'s drop): workers holding a core give it back as they exit,
        // sleeping ones exit without taking one. The share leaves the tree when the
        // last of them is gone (`ShareWorkers::drop`).
        drop(self.pool.take());
    }
}

/// How long a share's worker sleeps with nothing to do before its thread exits
/// (it starts again when the share has work): a share's threads follow its use,
/// so a pool's threads grow with the shares that run at once, not with the
/// shares that exist.
const IDLE_WORKER_LIFETIME: Duration = Duration::from_secs(1);

/// The thread names of a share of `n` workers, `prorata-share-{i}`: made once
/// (and again for a larger `n`), not at each share's creation.
fn thread_names(n: usize) -> Arc<[Option<String>]> {
    static NAMES: std::sync::Mutex<Option<Arc<[Option<String>]>>> = std::sync::Mutex::new(None);
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    match names.as_ref() {
        Some(made) if made.len() >= n => made.clone(),
        _ => {
            let made: Arc<[Option<String>]> =
                (0..n).map(|i| Some(format!("prorata-share-{i}"))).collect();
            *names = Some(made.clone());
            made
        }
    }
}

/// Raises worker `i`'s preemption flag in `registry`'s pool (while it lives), so
/// that its next safe point takes or gives back a core.
fn raiser(registry: &Arc<Registry>) -> impl Fn(usize) + Clone + Send + Sync + 'static {
    let registry = Arc::downgrade(registry);
    move |i: usize| {
        if let Some(r) = registry.upgrade() {
            r.thread_infos[i].flags.raise_preempt();
        }
    }
}

/// The workers of the root pool of `registry` as its permits see them, made with
/// the permits at its first share; from then on the pool's own workers take part
/// as the root share.
pub(crate) fn root_share(registry: &Arc<Registry>) -> Arc<ShareWorkers> {
    let root = registry
        .shares
        .root_share(registry.num_threads(), raiser(registry));
    // From its first share on, the pool's own workers run only while they hold a
    // core: idle, they sleep at once.
    registry.sleep.sleep_promptly();
    crate::pool::enable_shares();
    root.clone()
}

impl ShareStats {
    /// What the jobs run on `registry`'s pool outside any share received from the
    /// allocator (all zero before its first share), with what its workers counted.
    pub(crate) fn of_root(registry: &Registry) -> Self {
        let st = match registry.shares.permits_made() {
            Some(p) => p.stats(p.root()),
            None => Default::default(),
        };
        ShareStats::new(st, registry)
    }
}

/// A share of `tickets` of the global pool.
///
/// ```
/// let s = prorata::share(10).unwrap();
/// assert_eq!(s.install(|| 1 + 1), 2);
/// assert_eq!(prorata::share(0).unwrap_err(), prorata::ShareError::ZeroTickets);
/// ```
pub fn share(tickets: u32) -> Result<Share, ShareError> {
    let registry = crate::pool::global_registry();
    let root = root_share(registry);
    Share::create(registry, &root, registry.num_threads(), tickets, None)
}
