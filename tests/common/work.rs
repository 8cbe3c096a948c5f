//! Work for the shares' tests to run (CPU-bound items whose cost is known), and
//! the lock that keeps the tests of a binary that measures shares from running at
//! once.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::thread::Scope;
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{Share, ThreadPool, ThreadPoolBuilder};

/// Held by a test for its whole run where the tests of one binary must not run
/// at once: the test harness runs them on as many threads as there are cores, and
/// a test that measures how shares divide the cores, or counts their threads,
/// would measure the other test's pools too. One lock per test binary.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    // A test that failed while holding it poisons it; the next may still run.
    TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// About a microsecond of work that the optimiser cannot remove.
pub fn spin(i: u64) -> u64 {
    let mut x = i;
    for _ in 0..200 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

/// Keeps each of `shares` busy on a thread of `scope` (one long `par_iter` of
/// [`spin`]s, counting its items in `items`) until `stop`; returns once every
/// one of them has run an item, or panics if one has not within 20 s.
pub fn keep_busy<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    shares: &'env [Share],
    stop: &'env AtomicBool,
    items: &'env [AtomicU64],
) {
    for (share, count) in shares.iter().zip(items) {
        scope.spawn(move || {
            share.install(|| {
                let _ = (0..usize::MAX / 2).into_par_iter().try_for_each(|i| {
                    if stop.load(Ordering::Relaxed) {
                        return Err(());
                    }
                    std::hint::black_box(spin(i as u64));
                    count.fetch_add(1, Ordering::Relaxed);
                    Ok(())
                });
            })
        });
    }
    let t0 = Instant::now();
    while items.iter().any(|n| n.load(Ordering::Relaxed) == 0) {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "a busy share never ran"
        );
        std::thread::yield_now();
    }
}

/// A pool of 2 workers on 2 cores with three equal shares, each worth two
/// thirds of a core: one for the test, and two to keep busy ([`keep_busy`]).
pub fn three_equal_shares() -> (ThreadPool, Share, [Share; 2]) {
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_cores(2)
        .build()
        .unwrap();
    let share = pool.share(1).unwrap();
    let others = [pool.share(1).unwrap(), pool.share(1).unwrap()];
    (pool, share, others)
}

/// The `n`th Fibonacci number through `join` at every level (no cut-off): many
/// joins, each half small.
pub fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = prorata::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// The same, sequentially: what [`fib`] must equal.
pub fn fib_seq(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fib_seq(n - 1) + fib_seq(n - 2)
    }
}
