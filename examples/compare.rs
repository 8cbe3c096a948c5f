//! Side-by-side timings: prorata against Rayon and against sequential std, in one run.
//!
//! `cargo run --release --example compare`
//!
//! Each workload runs its three versions in turn, round after round, and reports
//! the ratios of the median times (lower is faster for the first name), so slow
//! drifts of a shared machine hit all three alike. Sorts are in `sort_compare`.

use std::hint::black_box;
use std::time::Instant;

const ROUNDS: usize = 9;

/// The parallel workloads, written once and instantiated for each library, so that
/// both run word for word the same code.
macro_rules! parallel_workloads {
    ($krate:ident) => {
        use $krate::prelude::*;

        pub fn fib(n: u32) -> u64 {
            if n < 2 {
                return n as u64;
            }
            let (a, b) = $krate::join(|| fib(n - 1), || fib(n - 2));
            a + b
        }

        pub fn map_sum(v: &[u64]) -> u64 {
            v.par_iter().map(|x| x * x % 7).sum()
        }

        pub fn map_collect(v: &[u64]) -> Vec<u64> {
            v.par_iter().map(|x| x ^ 0x5555).collect()
        }

        pub fn filter_collect(v: &[u64]) -> Vec<u64> {
            v.par_iter()
                .filter(|x| *x % 3 == 0)
                .map(|x| x / 3)
                .collect()
        }

        pub fn filter_count(v: &[u64]) -> usize {
            v.par_iter().filter(|x| *x % 3 == 0).count()
        }
    };
}

/// The workloads against prorata's prelude.
mod ours {
    parallel_workloads!(prorata);
}

/// The workloads against Rayon's prelude.
mod theirs {
    parallel_workloads!(rayon);
}

/// The same workloads, sequentially.
mod sequential {
    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            n as u64
        } else {
            fib(n - 1) + fib(n - 2)
        }
    }

    pub fn map_sum(v: &[u64]) -> u64 {
        v.iter().map(|x| x * x % 7).sum()
    }

    pub fn map_collect(v: &[u64]) -> Vec<u64> {
        v.iter().map(|x| x ^ 0x5555).collect()
    }

    pub fn filter_collect(v: &[u64]) -> Vec<u64> {
        v.iter().filter(|x| *x % 3 == 0).map(|x| x / 3).collect()
    }

    pub fn filter_count(v: &[u64]) -> usize {
        v.iter().filter(|x| *x % 3 == 0).count()
    }
}

fn main() {
    let threads = num_cpus::get();
    println!("{threads} cores; ratios of median times over {ROUNDS} interleaved rounds");
    println!(
        "{:<34} {:>15} {:>13} {:>11}",
        "workload", "prorata/rayon", "prorata/seq", "rayon/seq"
    );
    for workers in [1, threads] {
        let pool = prorata::ThreadPoolBuilder::new()
            .num_threads(workers)
            .build()
            .unwrap();
        let rpool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .build()
            .unwrap();
        row(
            &format!("fib(30) through join, {workers} worker(s)"),
            || sequential::fib(black_box(30)),
            || pool.install(|| ours::fib(black_box(30))),
            || rpool.install(|| theirs::fib(black_box(30))),
        );
    }
    for len in [1_000u64, 100_000, 10_000_000] {
        let v: Vec<u64> = (0..len).collect();
        row(
            &format!("map().sum(), {len} items"),
            || sequential::map_sum(&v),
            || ours::map_sum(&v),
            || theirs::map_sum(&v),
        );
    }
    let v: Vec<u64> = (0..10_000_000).collect();
    row(
        "map().collect::<Vec<_>>(), 10^7",
        || sequential::map_collect(&v),
        || ours::map_collect(&v),
        || theirs::map_collect(&v),
    );
    row(
        "filter().map().collect(), 10^7",
        || sequential::filter_collect(&v),
        || ours::filter_collect(&v),
        || theirs::filter_collect(&v),
    );
    row(
        "filter().count(), 10^7",
        || sequential::filter_count(&v),
        || ours::filter_count(&v),
        || theirs::filter_count(&v),
    );
}

/// Times the three versions in interleaved rounds, checks they agree, prints ratios.
fn row<R: PartialEq + std::fmt::Debug>(
    name: &str,
    seq: impl Fn() -> R,
    ours: impl Fn() -> R,
    theirs: impl Fn() -> R,
) {
    assert_eq!(ours(), seq(), "{name}: prorata disagrees with sequential");
    assert_eq!(theirs(), seq(), "{name}: rayon disagrees with sequential");
    // Small workloads are repeated so that one timing is well above the clock's grain.
    let reps = reps_for(&seq);
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..ROUNDS {
        times[0].push(timed(reps, &seq));
        times[1].push(timed(reps, &ours));
        times[2].push(timed(reps, &theirs));
    }
    let [s, o, t] = times.map(median);
    println!("{name:<34} {:>15.2} {:>13.2} {:>11.2}", o / t, o / s, t / s);
}

fn reps_for<R>(f: &impl Fn() -> R) -> u32 {
    let once = timed(1, f).max(1e-9);
    ((0.02 / once).ceil() as u32).clamp(1, 100_000)
}

fn timed<R>(reps: u32, f: &impl Fn() -> R) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        black_box(f());
    }
    (start.elapsed() / reps).as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
