//! Stress: many workers on few cores, random fork-join trees and nested scopes; every job
//! runs exactly once.

use std::sync::atomic::{AtomicUsize, Ordering};

use prorata::ThreadPoolBuilder;
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// A random tree of joins and scopes; returns the number of leaves it ran, counting each
/// leaf run in `ran`.
fn tree(seed: u64, depth: u32, ran: &AtomicUsize) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    if depth == 0 || rng.random_ratio(1, 8) {
        ran.fetch_add(1, Ordering::Relaxed);
        return 1;
    }
    let (s1, s2, s3): (u64, u64, u64) = (rng.random(), rng.random(), rng.random());
    match rng.random_range(0..3) {
        0 => {
            let (a, b) = prorata::join(|| tree(s1, depth - 1, ran), || tree(s2, depth - 1, ran));
            a + b
        }
        1 => {
            let total = AtomicUsize::new(0);
            prorata::scope(|s| {
                for seed in [s1, s2, s3] {
                    let total = &total;
                    s.spawn(move |_| {
                        total.fetch_add(tree(seed, depth - 1, ran), Ordering::Relaxed);
                    });
                }
            });
            total.into_inner()
        }
        _ => {
            let total = AtomicUsize::new(0);
            prorata::scope_fifo(|s| {
                for seed in [s1, s2] {
                    let total = &total;
                    s.spawn_fifo(move |_| {
                        total.fetch_add(tree(seed, depth - 1, ran), Ordering::Relaxed);
                    });
                }
            });
            total.into_inner()
        }
    }
}

#[test]
fn random_trees_on_sixteen_workers() {
    let pool = ThreadPoolBuilder::new().num_threads(16).build().unwrap();
    for seed in 0..40 {
        let ran = AtomicUsize::new(0);
        let leaves = pool.install(|| tree(seed, 12, &ran));
        assert_eq!(leaves, ran.load(Ordering::Relaxed), "seed {seed}");
    }
}

#[test]
fn concurrent_callers_from_plain_threads() {
    let pool = ThreadPoolBuilder::new().num_threads(16).build().unwrap();
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let pool = &pool;
            s.spawn(move || {
                for seed in 0..10 {
                    let ran = AtomicUsize::new(0);
                    let leaves = pool.install(|| tree(t * 100 + seed, 10, &ran));
                    assert_eq!(leaves, ran.load(Ordering::Relaxed));
                }
            });
        }
    });
}

#[test]
fn fib_counts_every_call_once() {
    fn fib(n: u32, calls: &AtomicUsize) -> u64 {
        calls.fetch_add(1, Ordering::Relaxed);
        if n < 2 {
            return n as u64;
        }
        let (a, b) = prorata::join(|| fib(n - 1, calls), || fib(n - 2, calls));
        a + b
    }
    let pool = ThreadPoolBuilder::new().num_threads(16).build().unwrap();
    for _ in 0..5 {
        let calls = AtomicUsize::new(0);
        assert_eq!(pool.install(|| fib(20, &calls)), 6765);
        // fib(20) makes 2*fib(21)-1 calls.
        assert_eq!(calls.load(Ordering::Relaxed), 2 * 10946 - 1);
    }
}
