//! A share runs about as many threads as the cores its tickets are worth: 200
//! shares running at once on a 4-worker pool of 2 cores start about one thread each
//! (not four), and each still completes items. Its own test binary, so that no other
//! test's threads are counted or compete; no timing is asserted. The bound is on
//! unless `PRORATA_SHARE_THREAD_BOUND=0`; the test sets it on in any case.
#![cfg(target_os = "linux")]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prorata::ThreadPoolBuilder;
use prorata::prelude::*;

mod common;
use common::work::spin;

const SHARES: usize = 200;
const WORKERS: usize = 4;
const CORES: usize = 2;

/// The threads of this process whose name starts with `prefix`.
fn threads_named(prefix: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with(prefix))
        .count()
}

/// What one window of the run saw.
struct Window {
    /// Items each share completed in the window.
    items: Vec<u64>,
    /// Core time each share's workers held in the window (the CPU time the
    /// allocator charged), in seconds.
    core: Vec<f64>,
    /// The most share threads seen at once during the whole run so far.
    most_threads: usize,
}

/// Runs one CPU-bound `par_iter` in each of `SHARES` equal shares at once; once every
/// share has started, measures `windows` windows of `window` each.
fn run(windows: usize, window: Duration) -> Vec<Window> {
    // SAFETY: this binary's only test sets it before any pool exists, and no other
    // thread reads the environment meanwhile.
    unsafe { std::env::set_var("PRORATA_SHARE_THREAD_BOUND", "1") };
    let pool = ThreadPoolBuilder::new()
        .num_threads(WORKERS)
        .share_cores(CORES)
        .thread_name(|i| format!("own-{i}"))
        .build()
        .unwrap();
    let shares: Vec<_> = (0..SHARES).map(|_| pool.share(10).unwrap()).collect();
    let stop = AtomicBool::new(false);
    let done: Vec<AtomicU64> = (0..SHARES).map(|_| AtomicU64::new(0)).collect();
    let calls: Vec<AtomicU64> = (0..SHARES).map(|_| AtomicU64::new(0)).collect();
    let read = || {
        done.iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect::<Vec<_>>()
    };
    let mut out = Vec::new();
    std::thread::scope(|s| {
        for ((share, count), calls) in shares.iter().zip(&done).zip(&calls) {
            let stop = &stop;
            s.spawn(move || {
                share.install(|| {
                    // Short `par_iter`s in a loop: each share stops soon after `stop`.
                    while !stop.load(Ordering::Relaxed) {
                        (0..1000u64).into_par_iter().for_each(|i| {
                            std::hint::black_box(spin(i));
                            count.fetch_add(1, Ordering::Relaxed);
                        });
                        calls.fetch_add(1, Ordering::Relaxed);
                    }
                })
            });
        }
        let mut most = 0;
        let sample = |most: &mut usize| *most = (*most).max(threads_named("prorata-share"));
        // Every share starts (a generous deadline, so that a starved share fails
        // the test rather than hanging it).
        let t0 = Instant::now();
        while read().contains(&0) && t0.elapsed() < Duration::from_secs(120) {
            sample(&mut most);
            std::thread::sleep(Duration::from_millis(20));
        }
        let unstarted = read().iter().filter(|&&c| c == 0).count();
        if unstarted > 0 {
            stop.store(true, Ordering::Relaxed);
            panic!("{unstarted} of {SHARES} shares never ran");
        }
        let core = || {
            shares
                .iter()
                .map(|s| s.stats().core_time.as_secs_f64())
                .collect::<Vec<_>>()
        };
        for _ in 0..windows {
            let (before, core_before) = (read(), core());
            let t0 = Instant::now();
            while t0.elapsed() < window {
                sample(&mut most);
                std::thread::sleep(Duration::from_millis(50));
            }
            let (after, core_after) = (read(), core());
            out.push(Window {
                items: after.iter().zip(&before).map(|(a, b)| a - b).collect(),
                core: core_after
                    .iter()
                    .zip(&core_before)
                    .map(|(a, b)| a - b)
                    .collect(),
                most_threads: most,
            });
        }
        stop.store(true, Ordering::Relaxed);
    });
    // Every item of every call ran once: no job was lost while threads waited to
    // start.
    for (share, (count, calls)) in done.iter().zip(&calls).enumerate() {
        let (count, calls) = (count.load(Ordering::Relaxed), calls.load(Ordering::Relaxed));
        assert_eq!(count, calls * 1000, "share {share}: items of {calls} calls");
    }
    out
}

#[test]
fn two_hundred_shares_run_about_a_thread_each_and_none_starves() {
    let windows = run(3, Duration::from_secs(2));
    // The largest distance of a share from an equal part, as a fraction of it.
    let spread = |v: &[f64]| {
        let part = v.iter().sum::<f64>() / v.len() as f64;
        v.iter()
            .map(|&x| (x - part).abs() / part)
            .fold(0.0, f64::max)
    };
    for w in &windows {
        // What the proportion was (reported, not asserted: on a small shared
        // machine a 2 s window is about twenty 1 ms turns for each of 200 shares).
        // Core time is what the allocator divides; the items also depend on
        // whether the share's code ran in the CPU time its thread was charged.
        let items: Vec<f64> = w.items.iter().map(|&n| n as f64).collect();
        eprintln!(
            "share threads at most {}; worst share {:.0}% from its part of the items, {:.0}% of the core time",
            w.most_threads,
            100.0 * spread(&items),
            100.0 * spread(&w.core),
        );
        // One thread per running share, and a few more that held a core for it.
        assert!(
            w.most_threads <= SHARES + 2 * CORES,
            "{} share threads for {SHARES} shares on {CORES} cores",
            w.most_threads
        );
    }
    // None starves: every share completes items over the three windows.
    for share in 0..SHARES {
        let items: u64 = windows.iter().map(|w| w.items[share]).sum();
        assert!(items > 0, "share {share} did nothing in 6 s");
    }
}
