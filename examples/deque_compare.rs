//! The pool with each worker deque, beside Rayon and a sequential loop, on the
//! workloads of docs/benchmarks.md: `scope` with 10^6 tiny spawns, fib through `join`,
//! `par_iter` map-sum and the sorts.
//!
//! `cargo run --release --example deque_compare`
//!
//! Each workload runs on a prorata pool built with `DequeKind::ChaseLev`, one built
//! with `DequeKind::Bwos`, a Rayon pool of as many threads, and sequentially, in
//! interleaved rounds (each starting with the next variant). The table gives the median times and the ratios of BWoS to each
//! of the others (below 1: BWoS is faster); `best` is the ratio of the best times
//! against Chase-Lev, the steadier one on a busy machine. The deques alone are in
//! `benches/deque.rs`.

use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use prorata::{DequeKind, ThreadPool, ThreadPoolBuilder};

const ROUNDS: usize = 11;

/// The workloads, written once for each library.
macro_rules! workloads {
    ($module:ident, $lib:ident) => {
        mod $module {
            use super::*;
            use $lib::prelude::*;

            pub fn fib(n: u32) -> u64 {
                if n < 2 {
                    return n as u64;
                }
                let (a, b) = $lib::join(|| fib(n - 1), || fib(n - 2));
                a + b
            }

            /// `n` spawns of almost nothing into one scope; returns how many ran.
            pub fn spawns(n: usize) -> usize {
                let ran = AtomicUsize::new(0);
                $lib::scope(|s| {
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

            pub fn map_sum(v: &[u64]) -> u64 {
                v.par_iter().map(|x| x * x % 7).sum()
            }

            pub fn sorted(v: &[u64], stable: bool) -> Vec<u64> {
                let mut v = v.to_vec();
                if stable {
                    v.par_sort();
                } else {
                    v.par_sort_unstable();
                }
                v
            }
        }
    };
}

workloads!(ours, prorata);
workloads!(theirs, rayon);

/// The sequential equivalents.
mod seq {
    use super::*;

    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            n as u64
        } else {
            fib(n - 1) + fib(n - 2)
        }
    }

    pub fn spawns(n: usize) -> usize {
        let ran = AtomicUsize::new(0);
        (0..n).for_each(|i| {
            black_box(i);
            ran.fetch_add(1, Ordering::Relaxed);
        });
        ran.into_inner()
    }

    pub fn map_sum(v: &[u64]) -> u64 {
        v.iter().map(|x| x * x % 7).sum()
    }

    pub fn sorted(v: &[u64], stable: bool) -> Vec<u64> {
        let mut v = v.to_vec();
        if stable {
            v.sort()
        } else {
            v.sort_unstable()
        }
        v
    }
}

/// Pools of `workers` threads: prorata's with each deque, and Rayon's.
struct Pools {
    chase_lev: ThreadPool,
    bwos: ThreadPool,
    rayon: rayon::ThreadPool,
}

impl Pools {
    fn new(workers: usize) -> Pools {
        let ours = |kind| {
            ThreadPoolBuilder::new()
                .num_threads(workers)
                .deque(kind)
                .build()
                .unwrap()
        };
        Pools {
            chase_lev: ours(DequeKind::ChaseLev),
            bwos: ours(DequeKind::Bwos),
            rayon: rayon::ThreadPoolBuilder::new()
                .num_threads(workers)
                .build()
                .unwrap(),
        }
    }
}

fn main() {
    let threads = num_cpus::get();
    println!("{threads} cores; {ROUNDS} interleaved rounds; median times; ratios of bwos to each");
    println!(
        "{:<36} {:>10} {:>10} {:>10} {:>10} {:>7} {:>7} {:>7} {:>7}",
        "workload", "chase-lev", "bwos", "rayon", "seq", "/c-l", "best", "/rayon", "/seq"
    );
    let all = Pools::new(threads);
    row(
        "scope, 10^6 tiny spawns",
        &all,
        || ours::spawns(1_000_000),
        || theirs::spawns(1_000_000),
        || seq::spawns(1_000_000),
    );
    for workers in [1, threads] {
        row(
            &format!("fib(27) through join, {workers} worker(s)"),
            &Pools::new(workers),
            || ours::fib(black_box(27)),
            || theirs::fib(black_box(27)),
            || seq::fib(black_box(27)),
        );
    }
    let v: Vec<u64> = (0..10_000_000).collect();
    row(
        "par_iter().map().sum(), 10^7",
        &all,
        || ours::map_sum(&v),
        || theirs::map_sum(&v),
        || seq::map_sum(&v),
    );
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let random: Vec<u64> = (0..1_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect();
    for (name, stable) in [("par_sort", true), ("par_sort_unstable", false)] {
        row(
            &format!("{name}, 10^6 random u64"),
            &all,
            || ours::sorted(&random, stable),
            || theirs::sorted(&random, stable),
            || seq::sorted(&random, stable),
        );
    }
}

/// Times the workload in each pool and sequentially in interleaved rounds, checks
/// that the results agree, prints a row.
fn row<R: PartialEq + std::fmt::Debug + Send>(
    name: &str,
    pools: &Pools,
    ours: impl Fn() -> R + Sync,
    theirs: impl Fn() -> R + Sync + Send,
    seq: impl Fn() -> R,
) {
    let runners: [&dyn Fn() -> R; 4] = [
        &|| pools.chase_lev.install(&ours),
        &|| pools.bwos.install(&ours),
        &|| pools.rayon.install(&theirs),
        &seq,
    ];
    let expected = seq();
    for run in &runners {
        assert_eq!(
            run(),
            expected,
            "{name}: a result differs from the sequential one"
        );
    }
    let mut times: [Vec<f64>; 4] = Default::default();
    for round in 0..ROUNDS {
        // Each round starts with the next variant, so that none always follows the same
        // one: the previous pool's idle workers still search for work for a while, on a
        // core the next one needs (with a fixed order, Chase-Lev always ran after Rayon
        // and the sequential loop, and its fib on 2 workers took 1.2 ms instead of 0.6
        // in half the runs; now that slow mode falls on either pool).
        for k in 0..runners.len() {
            let i = (round + k) % runners.len();
            let start = Instant::now();
            black_box(runners[i]());
            times[i].push(start.elapsed().as_secs_f64());
        }
    }
    let [c, b, r, s] = times.map(|mut t| {
        t.sort_by(f64::total_cmp);
        (t[t.len() / 2], t[0])
    });
    let ms = |t: (f64, f64)| format!("{:.2}ms", t.0 * 1e3);
    println!(
        "{name:<36} {:>10} {:>10} {:>10} {:>10} {:>7.2} {:>7.2} {:>7.2} {:>7.2}",
        ms(c),
        ms(b),
        ms(r),
        ms(s),
        b.0 / c.0,
        b.1 / c.1,
        b.0 / r.0,
        b.0 / s.0
    );
}
