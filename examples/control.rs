//! What `block_in_place` and `isolate` give and cost, on a 2-worker pool, variants
//! interleaved round by round (best and median of the rounds):
//!
//! - **blocking**: one job sleeps 100 ms (a blocking read) while the rest of the pool
//!   computes (a stream of `par_iter` calls). The pool's compute rate meanwhile, in
//!   cores' worth of the rate of both workers on the same stream with nothing
//!   blocked: with a plain sleep the blocked worker's core is lost; with
//!   `block_in_place` a relief thread takes its place.
//! - **isolation**: an outer `par_iter` of 64 items, each running an inner
//!   `par_iter` of 2,000 small items, with the inner loop inside `isolate` or not.
//!
//! ```sh
//! cargo run --release --example control -- [rounds]
//! ```

#[path = "common/work_item.rs"]
mod work_item;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prorata::ThreadPool;
use prorata::prelude::*;
use work_item::item;

/// How long the blocking job blocks.
const BLOCK: Duration = Duration::from_millis(100);

#[derive(Clone, Copy, PartialEq)]
enum Blocker {
    /// Nobody blocks: both workers run the same work for `BLOCK`.
    None,
    /// One job sleeps in plain user code.
    Plain,
    /// One job sleeps inside `block_in_place`.
    Relieved,
}

/// Items computed per second while the blocker (if any) blocks.
fn compute_rate(pool: &ThreadPool, blocker: Blocker) -> f64 {
    let items = AtomicU64::new(0);
    let start = Instant::now();
    // Parallel work until `BLOCK` has passed.
    let compute = || {
        while start.elapsed() < BLOCK {
            // Counted once per call, not per item: a shared counter bumped by every
            // item would cost more than the items.
            let done = (0..1024u64)
                .into_par_iter()
                .map(|i| std::hint::black_box((0..10).fold(i, |x, _| item(x))))
                .count();
            items.fetch_add(done as u64, Ordering::Relaxed);
        }
    };
    pool.install(|| {
        prorata::join(
            || match blocker {
                // This worker helps with the other's work while it waits for it.
                Blocker::None => {}
                Blocker::Plain => std::thread::sleep(BLOCK),
                Blocker::Relieved => prorata::block_in_place(|| std::thread::sleep(BLOCK)),
            },
            compute,
        )
    });
    items.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64()
}

/// Seconds for the outer loop of 64 items, each an inner loop of 2,000.
fn nested_loop(pool: &ThreadPool, isolated: bool) -> f64 {
    let start = Instant::now();
    let total: u64 = pool.install(|| {
        (0..64u64)
            .into_par_iter()
            .map(|i| {
                let inner = || {
                    (0..2_000u64)
                        .into_par_iter()
                        .map(|x| item(x ^ i))
                        .sum::<u64>()
                };
                if isolated {
                    prorata::isolate(inner)
                } else {
                    inner()
                }
            })
            .sum()
    });
    std::hint::black_box(total);
    start.elapsed().as_secs_f64()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(15);
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let variants = [Blocker::None, Blocker::Plain, Blocker::Relieved];
    let mut rates: [Vec<f64>; 3] = Default::default();
    let mut nested: [Vec<f64>; 2] = Default::default();
    for _ in 0..rounds {
        for (k, &blocker) in variants.iter().enumerate() {
            rates[k].push(compute_rate(&pool, blocker));
        }
        for (k, isolated) in [false, true].into_iter().enumerate() {
            nested[k].push(nested_loop(&pool, isolated));
        }
    }
    let alone_best = rates[0].iter().copied().fold(0.0, f64::max);
    let alone_median = median(&mut rates[0].clone());
    println!("2 workers, {rounds} rounds, one job blocking {BLOCK:?} while the rest computes");
    println!("| blocking job | compute rate, cores' worth (best) | (median) |");
    println!("|---|---|---|");
    for (k, name) in [
        "none (both workers on the stream)",
        "plain sleep",
        "inside block_in_place",
    ]
    .into_iter()
    .enumerate()
    {
        let best = rates[k].iter().copied().fold(0.0, f64::max);
        let med = median(&mut rates[k]);
        println!(
            "| {name} | {:.2} | {:.2} |",
            2.0 * best / alone_best,
            2.0 * med / alone_median
        );
    }
    let plain = median(&mut nested[0]);
    let isolated = median(&mut nested[1]);
    println!();
    println!("| nested loops (64 x 2,000 items) | median ms | ratio |");
    println!("|---|---|---|");
    println!("| inner loop as is | {:.2} | 1.00 |", plain * 1e3);
    println!(
        "| inner loop inside isolate | {:.2} | {:.2} |",
        isolated * 1e3,
        isolated / plain
    );
}
