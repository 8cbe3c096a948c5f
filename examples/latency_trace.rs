//! A timeline of short queries arriving while a long background computation runs: a
//! 2-worker pool, a share of 900 tickets for the queries and one of 100 for the
//! background (the setting of `examples/latency.rs`).
//!
//! ```sh
//! cargo run --release --features trace --example latency_trace [OUT_DIR]
//! ```
//!
//! writes `latency.svg` and `latency.json` (Chrome trace events) to OUT_DIR (default:
//! the current directory), covering one more query and a millisecond either side of
//! it, and prints, for each of 20 queries, when
//! (after the call) the query's workers woke, asked for a core, got one and started a
//! job, when the background's holders gave their cores back, and when the call returned
//! (with `LATENCY_EVENTS=1` set, every event from 3 ms before each query to its end; with `LATENCY_ALONE=1`,
//! the queries run with no background). `LATENCY_POLICY=lottery` or `multi` picks the
//! share policy (default stride), `LATENCY_QUERIES=N` runs N queries instead of 20, and
//! `LATENCY_SLOW_US=T` prints only the queries that took T µs or more, and
//! `LATENCY_WORKERS=N` sizes the pool (default 2).

use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{ThreadPoolBuilder, TraceEventKind, TraceLane};

#[path = "common/work_item.rs"]
mod work_item;
use work_item::item;

/// The first event of `lane` at or after `from` that `pick` accepts, in µs after `from`.
fn first(lane: &TraceLane, from: Duration, pick: impl Fn(&TraceEventKind) -> bool) -> String {
    lane.events
        .iter()
        .find(|e| e.at >= from && pick(&e.kind))
        .map_or_else(
            || "-".to_owned(),
            |e| format!("{:.0}", (e.at - from).as_secs_f64() * 1e6),
        )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".to_owned()));
    let policy = match std::env::var("LATENCY_POLICY").as_deref() {
        Ok("lottery") => prorata::SharePolicy::Lottery,
        Ok("multi") => prorata::SharePolicy::MultiWinnerLottery,
        _ => prorata::SharePolicy::Stride,
    };
    let queries: usize = std::env::var("LATENCY_QUERIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let slow_us: f64 = std::env::var("LATENCY_SLOW_US")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0);
    let workers: usize = std::env::var("LATENCY_WORKERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let pool = ThreadPoolBuilder::new()
        .num_threads(workers)
        .share_policy(policy)
        .build()?;
    let fg = pool.share(900)?;
    let bg = pool.share(100)?;
    let stop = AtomicBool::new(false);
    let mut calls = Vec::new();
    let background = std::env::var_os("LATENCY_ALONE").is_none();
    let trace = std::thread::scope(|s| {
        s.spawn(|| {
            while background && !stop.load(Ordering::Relaxed) {
                bg.install(|| (0..200_000u64).into_par_iter().map(item).sum::<u64>());
            }
        });
        std::thread::sleep(Duration::from_millis(100));
        pool.start_trace();
        let origin = Instant::now();
        for _ in 0..queries {
            std::thread::sleep(Duration::from_millis(4));
            let at = origin.elapsed();
            fg.install(|| (0..10_000u64).into_par_iter().map(item).sum::<u64>());
            calls.push((at, origin.elapsed()));
        }
        let trace = pool.stop_trace();
        // One more query, recorded alone for the picture: 1 ms before and after it.
        std::thread::sleep(Duration::from_millis(3));
        pool.start_trace();
        std::thread::sleep(Duration::from_millis(1));
        fg.install(|| (0..10_000u64).into_par_iter().map(item).sum::<u64>());
        std::thread::sleep(Duration::from_millis(1));
        let picture = pool.stop_trace();
        stop.store(true, Ordering::Relaxed);
        (trace, picture)
    });
    let (trace, picture) = trace;
    let lanes = trace.lanes();
    let fg_lanes: Vec<_> = lanes
        .iter()
        .filter(|l| l.pool.starts_with("share 1"))
        .collect();
    let bg_lanes: Vec<_> = lanes
        .iter()
        .filter(|l| l.pool.starts_with("share 2"))
        .collect();
    println!(
        "µs after the call: query workers woken / waiting / granted / job; background preempted; call returned"
    );
    for &(at, end) in &calls {
        if (end - at).as_secs_f64() * 1e6 < slow_us {
            continue;
        }
        let mut row = Vec::new();
        for l in &fg_lanes {
            row.push(format!(
                "w{}: {}/{}/{}/{}",
                l.worker,
                first(l, at, |k| matches!(k, TraceEventKind::SleepEnd { .. })),
                first(l, at, |k| matches!(k, TraceEventKind::CoreWait)),
                first(l, at, |k| matches!(k, TraceEventKind::CoreGranted)),
                first(l, at, |k| matches!(k, TraceEventKind::JobStart)),
            ));
        }
        for l in &bg_lanes {
            row.push(format!(
                "bg{}: {}",
                l.worker,
                first(l, at, |k| matches!(k, TraceEventKind::Preempted))
            ));
        }
        println!(
            "{}  returned {:.0}",
            row.join("  "),
            (end - at).as_secs_f64() * 1e6
        );
        if std::env::var_os("LATENCY_EVENTS").is_some() {
            for l in lanes {
                let evs: Vec<String> = l
                    .events
                    .iter()
                    .filter(|e| e.at + Duration::from_millis(3) >= at && e.at <= end)
                    .map(|e| {
                        format!(
                            "{:.0}:{:?}",
                            (e.at.as_secs_f64() - at.as_secs_f64()) * 1e6,
                            e.kind
                        )
                    })
                    .collect();
                println!("    {} w{}: {}", l.pool, l.worker, evs.join(" "));
            }
        }
    }
    picture.write_svg(File::create(dir.join("latency.svg"))?)?;
    picture.write_chrome_json(File::create(dir.join("latency.json"))?)?;
    Ok(())
}
