//! What recording a timeline costs: the join and map-sum workloads of the benchmarks on
//! one pool, timed in interleaved rounds while no recording runs and while one does.
//!
//! ```sh
//! cargo run --release --features trace --example trace_cost [rounds]
//! ```
//!
//! Prints, per workload, the ratio of the median times (recording / not recording)
//! and the events a round records. What the feature costs while no recording runs is
//! measured by `ci/join_instructions.sh` (build it with and without `--features trace`):
//! nothing is recorded or checked on the fast path of a `join`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use prorata::prelude::*;

fn fib(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let (a, b) = prorata::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn map_sum(v: &[u64]) -> u64 {
    v.par_iter().map(|x| x * x % 7).sum()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Times `reps` calls of `f`.
fn timed<R>(reps: usize, f: &impl Fn() -> R) -> Duration {
    let start = Instant::now();
    for _ in 0..reps {
        black_box(f());
    }
    start.elapsed()
}

/// Runs `f` in interleaved rounds without and with a recording of `pool`; prints the
/// ratio of the medians and the events of the last recording.
fn row<R>(pool: &prorata::ThreadPool, rounds: usize, reps: usize, name: &str, f: impl Fn() -> R) {
    let (mut off, mut on, mut events, mut lost) = (Vec::new(), Vec::new(), 0, 0);
    for _ in 0..rounds {
        off.push(timed(reps, &f));
        pool.start_trace();
        on.push(timed(reps, &f));
        let trace = pool.stop_trace();
        events = trace.lanes().iter().map(|l| l.events.len()).sum::<usize>();
        lost = trace.lost_events();
    }
    let ratio = median(on).as_secs_f64() / median(off).as_secs_f64();
    println!(
        "{name:<44} {ratio:>9.3} {:>12} {lost:>8}",
        events / reps.max(1)
    );
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(cores)
        .build()
        .expect("a pool");
    println!("{cores} workers; medians of {rounds} interleaved rounds");
    println!(
        "{:<44} {:>9} {:>12} {:>8}",
        "workload", "on / off", "events/call", "lost"
    );
    row(&pool, rounds, 3, "fib(30) through join, in install", || {
        pool.install(|| fib(black_box(30)))
    });
    let mid: Vec<u64> = (0..100_000).collect();
    row(
        &pool,
        rounds,
        200,
        "map().sum() of 10^5 through install",
        || pool.install(|| map_sum(black_box(&mid))),
    );
    let big: Vec<u64> = (0..10_000_000).collect();
    row(
        &pool,
        rounds,
        3,
        "map().sum() of 10^7 through install",
        || pool.install(|| map_sum(black_box(&big))),
    );
}
