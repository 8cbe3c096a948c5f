//! What a short foreground computation feels while a long background one runs.
//!
//! One thread runs a *query* every 4 ms: a `par_iter` of 10,000 items of about 0.1 µs
//! (about 1 ms of CPU). Another thread runs a *background* `par_iter` of 200,000 such
//! items in a loop. Each query's latency is taken from the caller's side and compared
//! with the same queries run with nothing else going on; the background's items per
//! second are compared with the background alone. The setups, side by side in one run:
//!
//! * prorata, a share of 900 tickets for the queries and one of 100 for the background,
//!   under each policy (stride, lottery, multi-winner lottery);
//! * prorata, one pool, both callers `install`ing into it (no shares);
//! * Rayon, one pool, both callers `install`ing into it;
//! * Rayon, two pools, one per caller (the OS divides the cores between their threads).
//!
//! `cargo run --release --example latency -- [workers...] [--secs S] [--only TEXT]`
//! (default: 2 and 8 workers, 2 s per setup; `--only` runs the setups whose name
//! contains TEXT, e.g. `--only "one pool"`).

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use prorata::SharePolicy;

/// Items per query and per background call.
const QUERY_ITEMS: u64 = 10_000;
const BACKGROUND_ITEMS: u64 = 200_000;
/// A query starts every this long (or as soon as the last one ended, if later).
const QUERY_PERIOD: Duration = Duration::from_millis(4);

#[path = "common/work_item.rs"]
mod work_item;
use work_item::item;

fn query() -> u64 {
    use prorata::prelude::*;
    (0..QUERY_ITEMS).into_par_iter().map(item).sum()
}

fn query_rayon() -> u64 {
    use rayon::prelude::*;
    (0..QUERY_ITEMS).into_par_iter().map(item).sum()
}

fn background() -> u64 {
    use prorata::prelude::*;
    (0..BACKGROUND_ITEMS).into_par_iter().map(item).sum()
}

fn background_rayon() -> u64 {
    use rayon::prelude::*;
    (0..BACKGROUND_ITEMS).into_par_iter().map(item).sum()
}

/// How to run a query and a background call in one setup.
trait Setup: Sync {
    fn query(&self) -> u64;
    fn background(&self) -> u64;
}

/// prorata: a share for each (or the same pool for both).
struct Prorata<'a> {
    fg: &'a (dyn Fn(&(dyn Fn() -> u64 + Sync)) -> u64 + Sync),
    bg: &'a (dyn Fn(&(dyn Fn() -> u64 + Sync)) -> u64 + Sync),
}

impl Setup for Prorata<'_> {
    fn query(&self) -> u64 {
        (self.fg)(&query)
    }
    fn background(&self) -> u64 {
        (self.bg)(&background)
    }
}

/// Rayon: one pool for both, or one each.
struct Rayon<'a> {
    fg: &'a rayon::ThreadPool,
    bg: &'a rayon::ThreadPool,
}

impl Setup for Rayon<'_> {
    fn query(&self) -> u64 {
        self.fg.install(query_rayon)
    }
    fn background(&self) -> u64 {
        self.bg.install(background_rayon)
    }
}

/// Latencies of the queries (sorted) and background items per second.
struct Outcome {
    latencies: Vec<Duration>,
    background_rate: f64,
}

impl Outcome {
    fn percentile(&self, p: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let i = ((self.latencies.len() - 1) as f64 * p).round() as usize;
        self.latencies[i]
    }
}

/// Runs the queries (if `queries`) and the background (if `background`) for `secs`,
/// counting the background's items over the window in which the queries ran.
fn measure(setup: &dyn Setup, queries: bool, background: bool, secs: f64) -> Outcome {
    let stop = AtomicBool::new(false);
    let items = AtomicU64::new(0);
    let mut latencies = Vec::new();
    let span = Duration::from_secs_f64(secs);
    let mut rate = 0.0;
    thread::scope(|s| {
        if background {
            s.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    black_box(setup.background());
                    items.fetch_add(BACKGROUND_ITEMS, Ordering::Relaxed);
                }
            });
            // Let the background take the cores first.
            thread::sleep(Duration::from_millis(50));
        }
        let before = items.load(Ordering::Relaxed);
        let start = Instant::now();
        if queries {
            let mut next = start;
            while start.elapsed() < span {
                let now = Instant::now();
                if now < next {
                    thread::sleep(next - now);
                }
                let t = Instant::now();
                black_box(setup.query());
                latencies.push(t.elapsed());
                next += QUERY_PERIOD;
                next = next.max(Instant::now());
            }
        } else {
            thread::sleep(span);
        }
        let done = items.load(Ordering::Relaxed) - before;
        rate = done as f64 / start.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
    });
    latencies.sort();
    Outcome {
        latencies,
        background_rate: rate,
    }
}

fn row(name: &str, setup: &dyn Setup, secs: f64, only: &str) {
    if !name.contains(only) {
        return;
    }
    // Alone first: the queries with nothing else, the background with nothing else.
    let alone = measure(setup, true, false, secs / 2.0);
    let bg_alone = measure(setup, false, true, secs / 2.0);
    let both = measure(setup, true, true, secs);
    let base = alone.percentile(0.5).as_secs_f64();
    let ratio = |p: f64| both.percentile(p).as_secs_f64() / base;
    println!(
        "| {name} | {:.0} µs | {:.0} µs | {:.2} | {:.2} | {:.2} | {:.0}% |",
        base * 1e6,
        both.percentile(0.5).as_secs_f64() * 1e6,
        ratio(0.5),
        ratio(0.9),
        ratio(0.99),
        100.0 * both.background_rate / bg_alone.background_rate.max(1.0),
    );
}

fn main() {
    let mut workers = Vec::new();
    let mut secs = 2.0;
    let mut only = String::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--secs" {
            secs = args.next().and_then(|s| s.parse().ok()).expect("--secs S");
        } else if a == "--only" {
            only = args.next().expect("--only TEXT");
        } else {
            workers.push(a.parse::<usize>().expect("a worker count"));
        }
    }
    if workers.is_empty() {
        workers = vec![2, 8];
    }
    for &n in &workers {
        println!(
            "\n{n} workers; query p50 alone and with the background, then latency with the background / alone"
        );
        println!(
            "| setup | query alone p50 | with background p50 | p50 / alone | p90 | p99 | background / alone |"
        );
        println!("|---|---|---|---|---|---|---|");
        for (policy, name) in [
            (SharePolicy::Stride, "prorata, shares 900:100, stride"),
            (SharePolicy::Lottery, "prorata, shares 900:100, lottery"),
            (
                SharePolicy::MultiWinnerLottery,
                "prorata, shares 900:100, multi-winner",
            ),
        ] {
            let pool = prorata::ThreadPoolBuilder::new()
                .num_threads(n)
                .share_policy(policy)
                .build()
                .unwrap();
            let fg = pool.share(900).unwrap();
            let bg = pool.share(100).unwrap();
            let setup = Prorata {
                fg: &|f| fg.install(f),
                bg: &|f| bg.install(f),
            };
            row(name, &setup, secs, &only);
        }
        {
            let pool = prorata::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            let setup = Prorata {
                fg: &|f| pool.install(f),
                bg: &|f| pool.install(f),
            };
            row("prorata, one pool, no shares", &setup, secs, &only);
        }
        {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            row(
                "Rayon, one pool",
                &Rayon {
                    fg: &pool,
                    bg: &pool,
                },
                secs,
                &only,
            );
        }
        {
            let fg = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            let bg = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            row("Rayon, two pools", &Rayon { fg: &fg, bg: &bg }, secs, &only);
        }
    }
}
