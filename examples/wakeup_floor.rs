//! What the operating system gives a thread that wakes while every core is busy: the
//! floor under any query latency measured on a machine whose cores a background
//! computation keeps busy.
//!
//! One thread per core spins (the background, as a share's workers would, each
//! holding a core); another thread sleeps until a deadline every 4 ms and records how
//! late it runs. Printed: the lateness percentiles with the spinners at the default
//! priority, with them at the lowest (`nice 19`), and with nothing spinning.
//!
//! `cargo run --release --example wakeup_floor -- [--secs S]` (Linux; elsewhere the
//! lowest-priority row is skipped).

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// Spins until `stop`, at `nice` (0: the default).
fn spin(stop: &AtomicBool, nice: i32) {
    if nice != 0 {
        set_nice(nice);
    }
    let mut x = 1u64;
    while !stop.load(Ordering::Relaxed) {
        for _ in 0..1000 {
            x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}

#[cfg(target_os = "linux")]
fn set_nice(nice: i32) {
    unsafe extern "C" {
        fn setpriority(which: i32, who: u32, prio: i32) -> i32;
        fn gettid() -> i32;
    }
    const PRIO_PROCESS: i32 = 0;
    // SAFETY: plain system calls on this thread's own id; a failure leaves the
    // priority as it was (reported as such by the row's label).
    let ok = unsafe { setpriority(PRIO_PROCESS, gettid() as u32, nice) } == 0;
    assert!(ok, "setpriority failed");
}

#[cfg(not(target_os = "linux"))]
fn set_nice(_: i32) {}

/// Lateness of a thread waking every 4 ms for `secs` (and computing for `burst` each
/// time, as a query's worker would), while `spinners` threads spin at `nice`; sorted.
fn lateness(spinners: usize, nice: i32, burst: Duration, secs: f64) -> Vec<Duration> {
    let stop = AtomicBool::new(false);
    let mut late = Vec::new();
    thread::scope(|s| {
        for _ in 0..spinners {
            s.spawn(|| spin(&stop, nice));
        }
        thread::sleep(Duration::from_millis(50));
        let start = Instant::now();
        let mut next = start + Duration::from_millis(4);
        while start.elapsed().as_secs_f64() < secs {
            let now = Instant::now();
            if next > now {
                thread::sleep(next - now);
            }
            let woke = Instant::now();
            late.push(woke.saturating_duration_since(next));
            let mut x = 1u64;
            while woke.elapsed() < burst {
                x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            next += Duration::from_millis(4);
        }
        stop.store(true, Ordering::Relaxed);
    });
    late.sort();
    late
}

fn main() {
    let mut secs = 2.0;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--secs" {
            secs = args.next().and_then(|s| s.parse().ok()).expect("--secs S");
        }
    }
    let cores = thread::available_parallelism().map_or(2, |n| n.get());
    println!("A thread waking every 4 ms, {cores} cores: how late it runs (µs)");
    println!("| the cores' other threads | p50 | p90 | p99 | max |");
    println!("|---|---|---|---|---|");
    let ms = Duration::from_millis(1);
    let mut rows = vec![
        ("none", 0, 0, Duration::ZERO),
        ("one spinner per core, nice 0", cores, 0, Duration::ZERO),
        (
            "the same, the waking thread computes 1 ms each time",
            cores,
            0,
            ms,
        ),
    ];
    if cfg!(target_os = "linux") {
        rows.push((
            "one spinner per core, nice 19, 1 ms each time",
            cores,
            19,
            ms,
        ));
    }
    for (name, spinners, nice, burst) in rows {
        let late = lateness(spinners, nice, burst, secs);
        let p = |q: f64| late[((late.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
        println!(
            "| {name} | {:.0} | {:.0} | {:.0} | {:.0} |",
            p(0.5),
            p(0.9),
            p(0.99),
            p(1.0)
        );
    }
}
