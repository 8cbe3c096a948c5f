//! `Share`: a sub-pool of a pool, entitled to a proportion of its cores.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::error::ShareError;
use super::permits::Permits;
use super::pool_link::{Lend, ShareWorkers};
use super::tree::ShareId;
use crate::pool::{Registry, ScopedSpawner};
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

/// What a share received so far (see [`Share::stats`]): core time, jobs, steals,
/// parks.
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
    /// Jobs its workers took from a queue and ran: `install`ed and spawned jobs,
    /// stolen halves of `join`s (the half a worker pops back itself runs inline and
    /// is not counted), broadcasts.
    pub jobs: u64,
    /// Jobs its workers stole from each other's deques.
    pub steals: u64,
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
    /// A share of `tickets` under `parent` (`None`: the root) of the pool whose
    /// permits are `permits`, with `cores` workers; `from` is the pool or share it is
    /// made from, whose panic handler and stack size it takes; `scoped` starts the
    /// workers of a share of a `build_scoped` pool.
    pub(crate) fn create(
        from: &Registry,
        permits: &Arc<Permits>,
        parent: Option<ShareId>,
        cores: usize,
        tickets: u32,
        scoped: Option<&Arc<ScopedSpawner>>,
    ) -> Result<Share, ShareError> {
        let parent = parent.unwrap_or_else(|| permits.root());
        let id = permits.add_share(parent, tickets)?;
        let built = ThreadPoolBuilder::new()
            .num_threads(cores)
            .thread_name(|i| format!("prorata-share-{i}"))
            .count_jobs()
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
        let workers = Arc::new(ShareWorkers::new(permits.clone(), id, cores, raise.clone()));
        pool.registry().shares.set_member(workers.clone());
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
        let w = &self.workers;
        let (n, scoped) = (self.current_num_threads(), self.scoped.as_ref());
        Share::create(
            self.pool().registry(),
            &w.permits,
            Some(w.id),
            n,
            tickets,
            scoped,
        )
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

    /// Core time, grants, parks, preemptions, jobs and steals of this share so far
    /// (the jobs and steals of its own workers, not of its child shares). Each
    /// worker counts its jobs and steals itself; a reading sums them.
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
        let counters = &self.pool().registry().counters;
        let sum = |f: fn(&crate::pool::WorkerCounters) -> &AtomicU64| -> u64 {
            counters.iter().map(|c| f(c).load(Ordering::Relaxed)).sum()
        };
        ShareStats::new(st, sum(|c| &c.jobs), sum(|c| &c.steals))
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

/// The permits of the root pool of `registry`, made at its first share; from then
/// on the pool's own workers take part as the root share.
pub(crate) fn root_permits(registry: &Arc<Registry>) -> Arc<Permits> {
    let permits = registry
        .shares
        .root_permits(registry.num_threads(), raiser(registry));
    crate::pool::enable_shares();
    permits.clone()
}

impl ShareStats {
    /// The allocator's figures with the jobs and steals counted by the workers.
    fn new(st: super::accounting::ShareStats, jobs: u64, steals: u64) -> Self {
        ShareStats {
            core_time: Duration::from_nanos(st.core_nanos),
            grants: st.grants,
            parks: st.parks,
            preemptions: st.preemptions,
            jobs,
            steals,
        }
    }

    /// What the allocator counted for the jobs run on `registry`'s pool outside
    /// any share (all zero before its first share).
    pub(crate) fn of_root(registry: &Registry) -> Self {
        match registry.shares.permits_made() {
            Some(p) => ShareStats::new(p.stats(p.root()), 0, 0),
            None => ShareStats::default(),
        }
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
    let permits = root_permits(registry);
    Share::create(
        registry,
        &permits,
        None,
        registry.num_threads(),
        tickets,
        None,
    )
}
