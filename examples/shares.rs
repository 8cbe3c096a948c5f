//! Ticket shares, measured from outside: competing shares run the same CPU-bound
//! `par_iter` of many equal items; once a second the example prints, per share, its
//! ticket fraction (target) and the fraction of all items it completed in that
//! second (achieved), as a bar chart. Then the hand-over time (how long after one
//! share finishes the other runs on every core) and the lone-share overhead.
//!
//! `cargo run --release --example shares -- [threads] [seconds] [stride|lottery]`

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{Share, SharePolicy, ThreadPool, ThreadPoolBuilder};

/// About a microsecond of work that the optimiser cannot remove.
fn item(i: usize) -> u64 {
    let mut x = i as u64;
    for _ in 0..200 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

/// Runs `share`'s par_iter, counting items, until `stop`.
fn run_until(share: &Share, count: &AtomicU64, stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        share.install(|| {
            (0..2_000_000usize).into_par_iter().for_each(|i| {
                if !stop.load(Ordering::Relaxed) {
                    std::hint::black_box(item(i));
                    count.fetch_add(1, Ordering::Relaxed);
                }
            })
        });
    }
}

fn bar(f: f64) -> String {
    "#".repeat((f * 40.0).round() as usize)
}

/// Competes `shares` (with target fractions `targets`) for `seconds` seconds,
/// printing a chart per second; returns the worst error (percentage points).
fn compete(names: &[&str], shares: &[Share], targets: &[f64], seconds: u64) -> f64 {
    let stop = AtomicBool::new(false);
    let counts: Vec<AtomicU64> = shares.iter().map(|_| AtomicU64::new(0)).collect();
    let mut worst: f64 = 0.0;
    std::thread::scope(|s| {
        for (share, count) in shares.iter().zip(&counts) {
            let stop = &stop;
            s.spawn(move || run_until(share, count, stop));
        }
        let mut last: Vec<u64> = vec![0; shares.len()];
        for sec in 0..=seconds {
            std::thread::sleep(Duration::from_secs(1));
            let now: Vec<u64> = counts.iter().map(|c| c.load(Ordering::Relaxed)).collect();
            let window: Vec<u64> = now.iter().zip(&last).map(|(n, l)| n - l).collect();
            last = now;
            if sec == 0 {
                continue; // warm-up second
            }
            let total = window.iter().sum::<u64>().max(1) as f64;
            println!("  second {sec}:");
            for ((name, &w), &t) in names.iter().zip(&window).zip(targets) {
                let f = w as f64 / total;
                worst = worst.max((f - t).abs() * 100.0);
                println!("    {name:>6} target {:5.1}% |{:<40}|", t * 100.0, bar(t));
                println!("    {:>6} got    {:5.1}% |{:<40}|", "", f * 100.0, bar(f));
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    let core: Vec<f64> = shares
        .iter()
        .map(|s| s.stats().core_time.as_secs_f64())
        .collect();
    let total: f64 = core.iter().sum();
    let core: Vec<String> = core
        .iter()
        .map(|c| format!("{:.1}%", c / total * 100.0))
        .collect();
    println!(
        "  core time held (allocator's accounts), whole run: {}",
        core.join(" : ")
    );
    worst
}

/// Hand-over trials the summary takes the median of.
const HAND_OVER_TRIALS: usize = 5;

/// Milliseconds from the end of a 9-ticket share's work until a 1-ticket share,
/// sampled every 100 µs, completes items at 90% of its solo rate.
fn hand_over(pool: &ThreadPool) -> f64 {
    let (fg, bg) = (pool.share(9).unwrap(), pool.share(1).unwrap());
    let (stop, stop_fg) = (AtomicBool::new(false), AtomicBool::new(false));
    let (count, fg_count) = (AtomicU64::new(0), AtomicU64::new(0));
    let solo = {
        let t0 = (Instant::now(), count.load(Ordering::Relaxed));
        let stop_solo = AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| run_until(&bg, &count, &stop_solo));
            std::thread::sleep(Duration::from_millis(300));
            stop_solo.store(true, Ordering::Relaxed);
        });
        (count.load(Ordering::Relaxed) - t0.1) as f64 / t0.0.elapsed().as_secs_f64()
    };
    let mut result = f64::NAN;
    std::thread::scope(|s| {
        s.spawn(|| run_until(&bg, &count, &stop));
        s.spawn(|| run_until(&fg, &fg_count, &stop_fg));
        std::thread::sleep(Duration::from_millis(300));
        stop_fg.store(true, Ordering::Relaxed);
        let t_end = Instant::now();
        let mut prev = (Instant::now(), count.load(Ordering::Relaxed));
        let mut window = Vec::new();
        while t_end.elapsed() < Duration::from_millis(100) {
            std::thread::sleep(Duration::from_micros(100));
            let now = (Instant::now(), count.load(Ordering::Relaxed));
            window.push((
                now.0,
                (now.1 - prev.1) as f64 / (now.0 - prev.0).as_secs_f64(),
            ));
            prev = now;
        }
        // The first moment from which a 1 ms moving average stays above 90%.
        for (i, (t, _)) in window.iter().enumerate() {
            let avg: Vec<f64> = window[i..].iter().take(10).map(|w| w.1).collect();
            if avg.len() == 10 && avg.iter().sum::<f64>() / 10.0 >= 0.9 * solo {
                result = (*t - t_end).as_secs_f64() * 1e3;
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    result
}

/// Time of the same par_iter on the pool and inside its only share.
fn lone_share_overhead(pool: &ThreadPool) -> f64 {
    let share = pool.share(1).unwrap();
    let work = || {
        (0..3_000_000usize).into_par_iter().for_each(|i| {
            std::hint::black_box(item(i));
        })
    };
    let mut best = (f64::MAX, f64::MAX);
    for _ in 0..5 {
        let t = Instant::now();
        pool.install(work);
        best.0 = best.0.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        share.install(work);
        best.1 = best.1.min(t.elapsed().as_secs_f64());
    }
    best.1 / best.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let threads = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let seconds = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    let policy = match args.get(3).map(String::as_str) {
        Some("lottery") => SharePolicy::Lottery,
        _ => SharePolicy::Stride,
    };
    let pool = ThreadPoolBuilder::new()
        .num_threads(threads)
        .share_policy(policy)
        .build()
        .unwrap();
    println!("{threads} workers, {policy:?}, {seconds} one-second windows per scenario");
    let mut summary = Vec::new();
    for tickets in [&[3u32, 1][..], &[9, 1], &[3, 2, 1]] {
        println!("tickets {tickets:?}");
        let shares: Vec<Share> = tickets.iter().map(|&t| pool.share(t).unwrap()).collect();
        let total: u32 = tickets.iter().sum();
        let targets: Vec<f64> = tickets
            .iter()
            .map(|&t| f64::from(t) / f64::from(total))
            .collect();
        let names: Vec<String> = tickets.iter().map(|t| format!("{t}t")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let worst = compete(&names, &shares, &targets, seconds);
        summary.push((format!("{tickets:?}"), worst));
    }
    println!("currency: alice(300) = t1(200) + t2(100), bob(100)");
    let alice = pool.share(300).unwrap();
    let shares = vec![
        alice.share(200).unwrap(),
        alice.share(100).unwrap(),
        pool.share(100).unwrap(),
    ];
    let worst = compete(&["t1", "t2", "bob"], &shares, &[0.5, 0.25, 0.25], seconds);
    summary.push(("currency tree".into(), worst));
    drop(shares);
    println!("summary ({threads} workers, {policy:?}): worst error per 1 s window");
    for (name, worst) in summary {
        println!("  {name:>14}: {worst:.1} percentage points");
    }
    // The median of several trials: one trial is at the mercy of the OS (a
    // descheduled worker stalls the 1 ms moving average it waits for).
    let mut trials: Vec<f64> = (0..HAND_OVER_TRIALS).map(|_| hand_over(&pool)).collect();
    let missed = trials.iter().filter(|ms| ms.is_nan()).count();
    trials.retain(|ms| !ms.is_nan());
    trials.sort_by(f64::total_cmp);
    match trials.get(HAND_OVER_TRIALS / 2) {
        Some(median) => println!(
            "hand-over: median {median:.2} ms of {HAND_OVER_TRIALS} trials (fastest {:.2}, slowest {:.2}, {missed} over 100 ms)",
            trials[0],
            trials[trials.len() - 1]
        ),
        None => println!("hand-over: 90% of the solo rate not reached in 100 ms in most trials"),
    }
    println!(
        "lone share / plain pool time: {:.3}",
        lone_share_overhead(&pool)
    );
}
