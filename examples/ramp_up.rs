//! How fast a call from outside the pool spreads over an idle pool's workers: the
//! latency a user feels for one short `par_iter` when the pool had nothing to do.
//!
//! A caller thread runs a *query* (a `par_iter` of `ITEMS` items of about 0.1 µs,
//! summed) every 4 ms, so the workers go back to sleep between queries, on a prorata
//! pool and a Rayon pool of the same size, in alternating blocks. Printed for each:
//! the query's latency (median, 90th percentile), and when the workers joined in: the
//! median over the queries of the time from the call to the first item run by the
//! k-th worker to take part, for k = 2, N/4, N/2 and N.
//!
//! ```text
//! cargo run --release --example ramp_up -- [workers] [--queries N] [--items N]
//! ```
//! (default: every processor, 200 queries of 10,000 items).

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const PERIOD: Duration = Duration::from_millis(4);

#[path = "common/work_item.rs"]
mod work_item;
use work_item::item;

#[path = "common/both.rs"]
mod both;

/// When each worker ran its first item of the current query (ns after the call; 0: not yet).
struct FirstItems {
    start: Instant,
    at: Vec<AtomicU64>,
}

impl FirstItems {
    fn new(n: usize) -> Self {
        FirstItems {
            start: Instant::now(),
            at: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn reset(&mut self) {
        self.start = Instant::now();
        for a in &self.at {
            a.store(0, Ordering::Relaxed);
        }
    }

    fn seen(&self, worker: Option<usize>) {
        if let Some(slot) = worker.and_then(|w| self.at.get(w)) {
            if slot.load(Ordering::Relaxed) == 0 {
                let ns = self.start.elapsed().as_nanos() as u64;
                slot.store(ns.max(1), Ordering::Relaxed);
            }
        }
    }

    /// The times at which the workers joined in, sorted (ns).
    fn joined(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self
            .at
            .iter()
            .map(|a| a.load(Ordering::Relaxed))
            .filter(|&t| t > 0)
            .collect();
        v.sort_unstable();
        v
    }
}

struct Timings {
    latency: Vec<f64>,
    /// prorata's counters over the queries (jobs, steals, published, claimed,
    /// sleeps, wake-ups).
    counts: [u64; 6],
    /// Per query: the time the k-th worker joined (µs), for each k of `ks`.
    joined: Vec<Vec<Option<f64>>>,
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn run(
    queries: usize,
    ks: &[usize],
    first: &mut FirstItems,
    query: &mut dyn FnMut(&FirstItems) -> u64,
) -> Timings {
    let mut t = Timings {
        counts: [0; 6],
        latency: Vec::new(),
        joined: Vec::new(),
    };
    let mut next = Instant::now();
    for _ in 0..queries {
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
        next = Instant::now() + PERIOD;
        first.reset();
        let begin = Instant::now();
        black_box(query(first));
        t.latency.push(begin.elapsed().as_secs_f64() * 1e6);
        let joined = first.joined();
        t.joined.push(
            ks.iter()
                .map(|&k| joined.get(k - 1).map(|&ns| ns as f64 / 1e3))
                .collect(),
        );
    }
    t
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(|v| v.parse::<usize>().expect("a number"))
    };
    let workers = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let queries = opt("--queries").unwrap_or(200);
    let items = opt("--items").unwrap_or(10_000) as u64;
    let mut ks = vec![2, workers / 4, workers / 2, workers];
    ks.retain(|&k| k >= 2);
    ks.dedup();

    let (ours, theirs) = both::pools(workers);
    let mut first = FirstItems::new(workers);
    let mut results: Vec<(&str, Timings)> = vec![];
    let blocks = 4;
    for block in 0..blocks * 2 {
        let (name, t) = if block % 2 == 0 {
            let before = ours.stats();
            let mut t = run(queries / blocks, &ks, &mut first, &mut |f| {
                use prorata::prelude::*;
                ours.install(|| {
                    (0..items)
                        .into_par_iter()
                        .map(|i| {
                            f.seen(prorata::current_thread_index());
                            item(i)
                        })
                        .sum()
                })
            });
            let after = ours.stats();
            t.counts = [
                after.jobs - before.jobs,
                after.steals - before.steals,
                after.frames_published - before.frames_published,
                after.frames_claimed - before.frames_claimed,
                after.sleeps - before.sleeps,
                after.wake_ups - before.wake_ups,
            ];
            ("prorata", t)
        } else {
            let t = run(queries / blocks, &ks, &mut first, &mut |f| {
                use rayon::prelude::*;
                theirs.install(|| {
                    (0..items)
                        .into_par_iter()
                        .map(|i| {
                            f.seen(rayon::current_thread_index());
                            item(i)
                        })
                        .sum()
                })
            });
            ("rayon", t)
        };
        match results.iter_mut().find(|(n, _)| *n == name) {
            Some((_, all)) => {
                all.latency.extend(t.latency);
                all.joined.extend(t.joined);
                for (a, b) in all.counts.iter_mut().zip(t.counts) {
                    *a += b;
                }
            }
            None => results.push((name, t)),
        }
    }
    println!(
        "{workers} workers, {} queries of {items} items every {} ms (µs; medians over the queries)",
        queries / blocks * blocks,
        PERIOD.as_millis()
    );
    let head: Vec<String> = ks.iter().map(|k| format!("worker {k} joins")).collect();
    println!("| pool | p50 | p90 | {} |", head.join(" | "));
    println!("|---|---|---|{}", "---|".repeat(ks.len()));
    let mut counts = None;
    for (name, mut t) in results {
        if name == "prorata" {
            counts = Some((t.counts, t.latency.len()));
        }
        let p50 = percentile(&mut t.latency, 0.5);
        let p90 = percentile(&mut t.latency, 0.9);
        let cols: Vec<String> = (0..ks.len())
            .map(|i| {
                let mut v: Vec<f64> = t.joined.iter().filter_map(|j| j[i]).collect();
                let missing = t.joined.len() - v.len();
                if v.is_empty() {
                    return "never".to_string();
                }
                let m = percentile(&mut v, 0.5);
                if missing > 0 {
                    format!("{m:.0} ({missing} never)")
                } else {
                    format!("{m:.0}")
                }
            })
            .collect();
        println!("| {name} | {p50:.0} | {p90:.0} | {} |", cols.join(" | "));
    }
    if let Some((c, n)) = counts {
        let per = |x: u64| x as f64 / n as f64;
        println!(
            "prorata per query: {:.1} jobs, {:.1} steals, {:.1} frames published, {:.1} claimed, {:.1} sleeps, {:.1} wake-ups",
            per(c[0]),
            per(c[1]),
            per(c[2]),
            per(c[3]),
            per(c[4]),
            per(c[5])
        );
    }
}
