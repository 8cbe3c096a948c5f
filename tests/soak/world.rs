//! The pools and shares the soak threads share, and the places an operation can run
//! in: the global pool, a pool, or a share (of a pool, of the global pool, or of a
//! share: a currency).

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use prorata::{Share, ShareError, SharePolicy, ThreadPool, ThreadPoolBuilder};
use rand::RngExt;
use rand::rngs::StdRng;

use super::panics::{self, lock};
use super::stats::STATS;

/// Workers of the pools the soak built that have started and not exited yet.
pub static POOL_WORKERS_LIVE: AtomicI64 = AtomicI64::new(0);

static SERIAL: AtomicU64 = AtomicU64::new(1);

/// A pool of the world and the shares made from it.
pub struct PoolEntry {
    pub pool: ThreadPool,
    pub serial: u64,
    /// Set before the pool leaves the world (its drop may follow at any time).
    retired: Arc<AtomicBool>,
}

/// A share of the world.
pub struct ShareEntry {
    pub share: Share,
    pub serial: u64,
    pub depth: u32,
    /// Whether the share's root pool is leaving the world (new shares may then fail).
    root_retired: Arc<AtomicBool>,
}

/// Where an operation runs.
#[derive(Clone)]
pub enum Place {
    Global,
    Pool(Arc<PoolEntry>),
    Share(Arc<ShareEntry>),
}

impl Place {
    pub fn name(&self) -> String {
        match self {
            Place::Global => "global pool".into(),
            Place::Pool(p) => format!(
                "pool #{} ({} workers)",
                p.serial,
                p.pool.current_num_threads()
            ),
            Place::Share(s) => format!(
                "share #{} (depth {}, {} workers)",
                s.serial,
                s.depth,
                s.share.current_num_threads()
            ),
        }
    }

    /// Runs `f` inside this place (`install`); on the global pool, on the calling thread
    /// (the free functions it calls go to the current pool, or the global one).
    pub fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match self {
            Place::Global => f(),
            Place::Pool(p) => p.pool.install(f),
            Place::Share(s) => s.share.install(f),
        }
    }

    pub fn spawn(&self, fifo: bool, f: impl FnOnce() + Send + 'static) {
        match (self, fifo) {
            (Place::Global, false) => prorata::spawn(f),
            (Place::Global, true) => prorata::spawn_fifo(f),
            (Place::Pool(p), false) => p.pool.spawn(f),
            (Place::Pool(p), true) => p.pool.spawn_fifo(f),
            (Place::Share(s), false) => s.share.spawn(f),
            (Place::Share(s), true) => s.share.spawn_fifo(f),
        }
    }

    pub fn broadcast<R: Send>(
        &self,
        f: impl Fn(prorata::BroadcastContext<'_>) -> R + Sync,
    ) -> Vec<R> {
        match self {
            Place::Global => prorata::broadcast(f),
            Place::Pool(p) => p.pool.broadcast(f),
            Place::Share(s) => s.share.broadcast(f),
        }
    }

    pub fn num_threads(&self) -> usize {
        match self {
            Place::Global => prorata::current_num_threads(),
            Place::Pool(p) => p.pool.current_num_threads(),
            Place::Share(s) => s.share.current_num_threads(),
        }
    }
}

/// A builder of `n` workers with the soak's panic handler, start and exit handlers
/// that count live workers, and random share policy, cores and quantum.
pub fn builder(rng: &mut StdRng, n: usize) -> ThreadPoolBuilder {
    let mut b = ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("soak-pool-{i}"))
        .panic_handler(panics::handler)
        .start_handler(|_| {
            POOL_WORKERS_LIVE.fetch_add(1, Ordering::SeqCst);
        })
        .exit_handler(|_| {
            POOL_WORKERS_LIVE.fetch_sub(1, Ordering::SeqCst);
        });
    if rng.random_bool(0.5) {
        b = b.share_policy(SharePolicy::Lottery);
    }
    if rng.random_bool(0.5) {
        b = b.share_cores(rng.random_range(1..=n));
    }
    if rng.random_bool(0.5) {
        b = b.share_quantum(Duration::from_micros(rng.random_range(200..8_000)));
    }
    STATS.add(&STATS.pools_built, 1);
    b
}

/// A pool of 1 to `max_workers` workers (see [`builder`]).
pub fn build_pool(rng: &mut StdRng, max_workers: usize) -> ThreadPool {
    let n = rng.random_range(1..=max_workers);
    builder(rng, n)
        .build()
        .unwrap_or_else(|e| panic!("soak: building a pool: {e}"))
}

/// Tickets for a new share or a re-ticketing: mostly ordinary, sometimes zero.
fn tickets(rng: &mut StdRng) -> u32 {
    if rng.random_bool(0.05) {
        0
    } else {
        rng.random_range(1..=1000)
    }
}

/// Checks a share call's error: zero tickets must give `ZeroTickets`; ordinary
/// tickets may only fail when the root pool is leaving the world.
fn check_share_result<T>(r: &Result<T, ShareError>, tickets: u32, root_retired: bool) {
    match r {
        Ok(_) => crate::check!(tickets != 0, "a share call with 0 tickets succeeded"),
        Err(e) => {
            let expected = match e {
                ShareError::ZeroTickets => tickets == 0,
                ShareError::PoolShuttingDown => root_retired && tickets != 0,
                _ => false,
            };
            crate::check!(
                expected,
                "share call with {tickets} tickets failed: {e:?} ({e})"
            );
            STATS.add(&STATS.share_errors, 1);
        }
    }
}

const MAX_POOLS: usize = 3;
const MAX_SHARES: usize = 6;

/// The pools and shares all soak threads use.
pub struct World {
    pools: Mutex<Vec<Arc<PoolEntry>>>,
    shares: Mutex<Vec<Arc<ShareEntry>>>,
    /// Serialises ticket changes, so a probe with huge tickets is undone before any
    /// other share is made (an ordinary request must never overflow).
    tickets: Mutex<()>,
    pub max_workers: usize,
}

impl World {
    pub fn new(max_workers: usize) -> World {
        World {
            pools: Mutex::new(Vec::new()),
            shares: Mutex::new(Vec::new()),
            tickets: Mutex::new(()),
            max_workers,
        }
    }

    /// A random place: the global pool, one of the pools, or one of the shares.
    pub fn pick(&self, rng: &mut StdRng) -> Place {
        match rng.random_range(0..10) {
            0..=1 => Place::Global,
            2..=4 => pick(rng, &lock(&self.pools)).map_or(Place::Global, Place::Pool),
            _ => pick(rng, &lock(&self.shares)).map_or(Place::Global, Place::Share),
        }
    }

    pub fn add_pool(&self, rng: &mut StdRng) {
        if lock(&self.pools).len() >= MAX_POOLS {
            return self.drop_pool(rng);
        }
        let entry = Arc::new(PoolEntry {
            pool: build_pool(rng, self.max_workers),
            serial: SERIAL.fetch_add(1, Ordering::Relaxed),
            retired: Arc::default(),
        });
        lock(&self.pools).push(entry);
    }

    /// Takes a pool out of the world; it is dropped when the last operation using it
    /// ends (maybe right now, maybe on another thread later).
    pub fn drop_pool(&self, rng: &mut StdRng) {
        let mut pools = lock(&self.pools);
        if pools.is_empty() {
            return;
        }
        let i = rng.random_range(0..pools.len());
        pools[i].retired.store(true, Ordering::SeqCst);
        let entry = pools.swap_remove(i);
        drop(pools);
        drop(entry);
    }

    /// Makes a share of a pool, of the global pool, or of a share (a currency).
    pub fn add_share(&self, rng: &mut StdRng) {
        if lock(&self.shares).len() >= MAX_SHARES {
            return self.drop_share(rng);
        }
        enum Parent {
            Global,
            Pool(Arc<PoolEntry>),
            Share(Arc<ShareEntry>),
        }
        let parent = match rng.random_range(0..4) {
            0 => Some(Parent::Global),
            1 => pick(rng, &lock(&self.pools)).map(Parent::Pool),
            _ => pick(rng, &lock(&self.shares))
                .filter(|s| s.depth < 3)
                .map(Parent::Share),
        };
        let t = tickets(rng);
        let _serial = lock(&self.tickets);
        let (result, depth, root_retired) = match parent {
            None => return,
            Some(Parent::Global) => (prorata::share(t), 0, Arc::default()),
            Some(Parent::Pool(p)) => (p.pool.share(t), 0, Arc::clone(&p.retired)),
            Some(Parent::Share(s)) => (s.share.share(t), s.depth + 1, Arc::clone(&s.root_retired)),
        };
        check_share_result(&result, t, root_retired.load(Ordering::SeqCst));
        if let Ok(share) = result {
            STATS.add(&STATS.shares_made, 1);
            if depth > 0 {
                STATS.add(&STATS.shares_nested, 1);
            }
            let entry = ShareEntry {
                share,
                serial: SERIAL.fetch_add(1, Ordering::Relaxed),
                depth,
                root_retired,
            };
            lock(&self.shares).push(Arc::new(entry));
        }
    }

    pub fn drop_share(&self, rng: &mut StdRng) {
        let mut shares = lock(&self.shares);
        if !shares.is_empty() {
            let i = rng.random_range(0..shares.len());
            let entry = shares.swap_remove(i);
            drop(shares);
            drop(entry);
        }
    }

    /// Re-tickets a share: ordinary tickets, zero (an error), or `u32::MAX` (fine when
    /// the share has no siblings, else an overflow) undone at once.
    pub fn reticket(&self, rng: &mut StdRng) {
        let Some(s) = pick(rng, &lock(&self.shares)) else {
            return;
        };
        let _serial = lock(&self.tickets);
        STATS.add(&STATS.retickets, 1);
        if rng.random_bool(0.1) {
            match s.share.set_tickets(u32::MAX) {
                Ok(()) => {}
                Err(ShareError::TicketOverflow) => STATS.add(&STATS.share_errors, 1),
                Err(e) => crate::check!(false, "set_tickets(u32::MAX) failed with {e:?}"),
            }
            let r = s.share.set_tickets(rng.random_range(1..=1000));
            crate::check!(r.is_ok(), "set_tickets back from u32::MAX failed: {r:?}");
        } else {
            let t = tickets(rng);
            check_share_result(&s.share.set_tickets(t), t, false);
        }
    }

    /// Empties the world (the end of a run).
    pub fn clear(&self) {
        let shares = std::mem::take(&mut *lock(&self.shares));
        let pools = std::mem::take(&mut *lock(&self.pools));
        for p in &pools {
            p.retired.store(true, Ordering::SeqCst);
        }
        drop(shares);
        drop(pools);
    }
}

fn pick<T>(rng: &mut StdRng, v: &[Arc<T>]) -> Option<Arc<T>> {
    (!v.is_empty()).then(|| Arc::clone(&v[rng.random_range(0..v.len())]))
}
