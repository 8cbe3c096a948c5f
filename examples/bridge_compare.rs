//! `par_bridge` against sequential code and Rayon, on a pool of each library (one run,
//! interleaved rounds, best of each).
//!
//! `cargo run --release --example bridge_compare -- [rounds] [workers] [filter]`
//! (default: 15 rounds, 2 workers, every row; a filter keeps the rows whose name
//! contains it).
//!
//! Rows:
//! - light: orx-parallel's `reduce_iter_into_par` benchmark, 131,072 items: the work
//!   is in the sequential iterator's `map` and `filter` (a Fibonacci loop of up to 200
//!   steps and a `format!`), pulled under the bridge's lock; the reduce after the bridge
//!   compares two strings and drops one.
//! - light, 0.25 us: arithmetic in `next()`, nothing but a sum after the bridge.
//! - balanced: as much work after the bridge as in `next()` (0.5 us each): two
//!   workers can take turns at the lock, and should.
//! - crowded: 0.5 us in `next()` and 0.1 to 0.4 us after the bridge: the lock is the
//!   bottleneck, and a second worker saves the first only the work after it.
//! - heavy: a cheap `next()` and 25 us of work per item after the bridge, which
//!   should scale with the workers.
//!
//! Every result is checked against the sequential std equivalent first. A round times
//! the three versions once each, in an order that rotates from round to round; the
//! figure kept is the best time over the rounds.

use std::hint::black_box;
use std::time::Instant;

#[path = "common/both.rs"]
mod both;

/// The same workload, with each library's prelude in scope: `(prorata, rayon)`.
macro_rules! both {
    ($body:expr) => {
        (
            || {
                use prorata::prelude::*;
                $body
            },
            || {
                use rayon::prelude::*;
                $body
            },
        )
    };
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Output {
    name: String,
}

fn fibonacci(n: u32) -> u32 {
    let (mut a, mut b) = (0u32, 1u32);
    for _ in 0..n {
        let c = a.wrapping_add(b);
        a = b;
        b = c;
    }
    a
}

/// orx-parallel's `map`: a Fibonacci loop and a small allocation.
fn light_map(idx: &usize) -> Output {
    let prefix = match idx % 7 {
        0 => "zero-",
        3 => "three-",
        _ => "sth-",
    };
    let fib = fibonacci(black_box(*idx as u32));
    Output {
        name: format!("{prefix}-fib-{fib}"),
    }
}

fn light_filter(a: &Output) -> bool {
    !a.name.ends_with('1')
}

fn light_reduce(a: Output, b: Output) -> Output {
    if a.name < b.name { a } else { b }
}

/// About 1.2 ns of arithmetic per round on the machine of docs/benchmarks.md.
fn spin(x: u64, rounds: u64) -> u64 {
    let mut h = x;
    for i in 0..rounds {
        h = black_box(h.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) ^ i);
    }
    h
}

/// orx-parallel's inputs: 0..200, pseudo-random (a fixed xorshift, not its ChaCha).
fn inputs(len: usize) -> Vec<usize> {
    both::xorshift(0x2545_F491_4F6C_DD1D)
        .take(len)
        .map(|x| (x % 201) as usize)
        .collect()
}

struct Bench {
    rounds: usize,
    ours: prorata::ThreadPool,
    theirs: rayon::ThreadPool,
    only: Option<String>,
}

impl Bench {
    /// Checks both parallel versions against the sequential one, then times the three;
    /// prints one row.
    fn row<R: PartialEq + std::fmt::Debug + Send>(
        &self,
        name: &str,
        seq: impl Fn() -> R,
        (ours, theirs): (impl Fn() -> R + Sync, impl Fn() -> R + Sync),
    ) {
        if self
            .only
            .as_ref()
            .is_some_and(|only| !name.contains(only.as_str()))
        {
            return;
        }
        let expected = seq();
        assert_eq!(self.ours.install(&ours), expected, "{name}: prorata");
        assert_eq!(self.theirs.install(&theirs), expected, "{name}: rayon");
        let time = |k: usize| {
            let start = Instant::now();
            match k {
                0 => drop(black_box(seq())),
                1 => drop(black_box(self.ours.install(&ours))),
                _ => drop(black_box(self.theirs.install(&theirs))),
            }
            start.elapsed().as_secs_f64()
        };
        let mut best = [f64::MAX; 3];
        for round in 0..self.rounds {
            for i in 0..3 {
                let k = (round + i) % 3;
                best[k] = best[k].min(time(k));
            }
        }
        println!(
            "{name:<52} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
            best[0] * 1e3,
            best[1] * 1e3,
            best[2] * 1e3,
            best[1] / best[0],
            best[1] / best[2],
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds = args.next().and_then(|s| s.parse().ok()).unwrap_or(15);
    let workers = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let (ours, theirs) = both::pools(workers);
    let b = Bench {
        rounds,
        ours,
        theirs,
        only: args.next(),
    };
    println!("{workers} workers; best of {rounds} interleaved rounds");
    println!(
        "{:<52} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "workload", "seq ms", "ours ms", "rayon ms", "ours/seq", "ours/ray"
    );

    let input = inputs(131_072);
    let input = &input;
    b.row(
        "light: 128K iter().map().filter().par_bridge().reduce",
        || {
            input
                .iter()
                .map(light_map)
                .filter(light_filter)
                .reduce(light_reduce)
        },
        both!(
            input
                .iter()
                .map(light_map)
                .filter(light_filter)
                .par_bridge()
                .reduce_with(light_reduce)
        ),
    );
    b.row(
        "light: 128K iter().map(0.25 us).par_bridge().sum",
        || {
            (0..131_072u64)
                .map(|x| spin(x, 200))
                .fold(0u64, u64::wrapping_add)
        },
        both!(
            (0..131_072u64)
                .map(|x| spin(x, 200))
                .par_bridge()
                .reduce(|| 0, u64::wrapping_add)
        ),
    );
    b.row(
        "balanced: 32K iter().map(0.5 us).par_bridge().map(0.5 us)",
        || {
            (0..32_768u64)
                .map(|x| spin(x, 400))
                .map(|x| spin(x, 400))
                .fold(0u64, u64::wrapping_add)
        },
        both!(
            (0..32_768u64)
                .map(|x| spin(x, 400))
                .par_bridge()
                .map(|x| spin(x, 400))
                .reduce(|| 0, u64::wrapping_add)
        ),
    );
    // The lock is the bottleneck (0.5 us in next()), with some work after it: where
    // a second worker starts to pay (the bridge's CHEAP, 200 ns).
    for (after, rounds) in [("0.1", 80), ("0.2", 160), ("0.4", 330)] {
        b.row(
            &format!("crowded: 32K iter().map(0.5 us).par_bridge().map({after} us)"),
            || {
                (0..32_768u64)
                    .map(|x| spin(x, 400))
                    .map(|x| spin(x, rounds))
                    .fold(0u64, u64::wrapping_add)
            },
            both!(
                (0..32_768u64)
                    .map(|x| spin(x, 400))
                    .par_bridge()
                    .map(|x| spin(x, rounds))
                    .reduce(|| 0, u64::wrapping_add)
            ),
        );
    }
    b.row(
        "heavy: 2K iter().par_bridge().map(25 us).sum",
        || {
            (0..2048u64)
                .map(|x| spin(x, 20_000))
                .fold(0u64, u64::wrapping_add)
        },
        both!(
            (0..2048u64)
                .par_bridge()
                .map(|x| spin(x, 20_000))
                .reduce(|| 0, u64::wrapping_add)
        ),
    );
}
