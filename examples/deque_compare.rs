//! The pool with each worker deque, in one run: BWoS against Chase-Lev (the default).
//!
//! `cargo run --release --example deque_compare`
//!
//! Each workload runs on a pool built with `DequeKind::ChaseLev` and on one built with
//! `DequeKind::Bwos`, in interleaved rounds; the table gives the median times, their
//! ratio, and the ratio of the best times (below 1: BWoS is faster; on a busy machine
//! the best times are the steadier). The deques alone are in `benches/deque.rs`.

use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use prorata::prelude::*;
use prorata::{DequeKind, ThreadPool, ThreadPoolBuilder};

const ROUNDS: usize = 15;
const KINDS: [DequeKind; 2] = [DequeKind::ChaseLev, DequeKind::Bwos];

fn fib(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    let (a, b) = prorata::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// `n` spawns of almost nothing into one scope; returns how many ran.
fn spawns(n: usize) -> usize {
    let ran = AtomicUsize::new(0);
    prorata::scope(|s| {
        for i in 0..n {
            let ran = &ran;
            s.spawn(move |_| {
                black_box(i);
                ran.fetch_add(1, Ordering::Relaxed);
            });
        }
    });
    ran.into_inner()
}

fn map_sum(v: &[u64]) -> u64 {
    v.par_iter().map(|x| x * x % 7).sum()
}

fn sorted(v: &[u64], stable: bool) -> Vec<u64> {
    let mut v = v.to_vec();
    if stable {
        v.par_sort();
    } else {
        v.par_sort_unstable();
    }
    v
}

fn main() {
    let threads = num_cpus::get();
    println!("{threads} cores; {ROUNDS} interleaved rounds");
    println!(
        "{:<38} {:>12} {:>12} {:>9} {:>9}",
        "workload", "chase-lev", "bwos", "median", "best"
    );
    let pools = |workers| KINDS.map(|kind| pool(workers, kind));
    let all = pools(threads);
    row("scope, 10^6 tiny spawns", &all, || spawns(1_000_000));
    for workers in [1, threads] {
        row(
            &format!("fib(27) through join, {workers} worker(s)"),
            &pools(workers),
            || fib(black_box(27)),
        );
    }
    let v: Vec<u64> = (0..10_000_000).collect();
    row("par_iter().map().sum(), 10^7", &all, || map_sum(&v));
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let random: Vec<u64> = (0..1_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect();
    row("par_sort, 10^6 random u64", &all, || sorted(&random, true));
    row("par_sort_unstable, 10^6 random u64", &all, || {
        sorted(&random, false)
    });
}

/// A pool of `workers` threads using deques of `kind`.
fn pool(workers: usize, kind: DequeKind) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(workers)
        .deque(kind)
        .build()
        .unwrap()
}

/// Times `f` in each pool in interleaved rounds, checks the results agree, prints.
fn row<R: PartialEq + std::fmt::Debug + Send>(
    name: &str,
    pools: &[ThreadPool; 2],
    f: impl Fn() -> R + Sync,
) {
    let results = pools.each_ref().map(|p| p.install(&f));
    assert_eq!(results[0], results[1], "{name}: the deques disagree");
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..ROUNDS {
        for (pool, t) in pools.iter().zip(&mut times) {
            let start = Instant::now();
            black_box(pool.install(&f));
            t.push(start.elapsed().as_secs_f64());
        }
    }
    let [c, b] = times.map(|mut t| {
        t.sort_by(f64::total_cmp);
        (t[t.len() / 2], t[0])
    });
    println!(
        "{name:<38} {:>10.2}ms {:>10.2}ms {:>9.2} {:>9.2}",
        c.0 * 1e3,
        b.0 * 1e3,
        b.0 / c.0,
        b.1 / c.1
    );
}
