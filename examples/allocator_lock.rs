//! How busy the allocator that divides a pool's cores is, with real threads: a
//! pool of 64 workers and 64 core permits (on this machine, far fewer processors:
//! oversubscribed) shared by 16 shares, each a query server's client that runs
//! short `par_iter`s with idle gaps between them, so that cores change hands all
//! the time.
//!
//! Printed, per second of the run: the calls into the allocator (each takes its
//! one lock), those that found the lock held and waited, how much time they
//! waited together (in cores: 0.01 is a hundredth of one core spent waiting), and
//! the grants, parks and preemptions of all the shares; with the process's
//! context switches (Linux).
//!
//! ```text
//! cargo run --release --example allocator_lock -- [--secs S] [--workers N] [--shares N]
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;

/// About a microsecond of work that the optimiser cannot remove.
fn spin(i: u64) -> u64 {
    let mut x = i;
    for _ in 0..200 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

/// Context switches of the whole process so far, voluntary and not, of every
/// thread it ran (Linux).
fn context_switches() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `rusage` is plain numbers; all zeroes is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `usage` is a valid `rusage` to write to.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        Some((usage.ru_nvcsw + usage.ru_nivcsw) as u64)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| v.parse().expect("a number"))
        .unwrap_or(default)
}

fn main() {
    let secs = arg("--secs", 3);
    let workers = arg("--workers", 64) as usize;
    let n_shares = arg("--shares", 16) as usize;
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(workers)
        .share_cores(workers)
        .build()
        .unwrap();
    // Tickets from 1 to 1,000, spread evenly on a log scale.
    let shares: Vec<_> = (0..n_shares)
        .map(|i| {
            let t = 1000f64.powf(i as f64 / (n_shares.max(2) - 1) as f64);
            pool.share(t.round() as u32).unwrap()
        })
        .collect();
    let stop = AtomicBool::new(false);
    let items = AtomicU64::new(0);
    let (start, before, switches_before) = std::thread::scope(|s| {
        for (i, share) in shares.iter().enumerate() {
            let (stop, items) = (&stop, &items);
            s.spawn(move || {
                let mut r = 0x9E37_79B9_7F4A_7C15u64 ^ i as u64;
                while !stop.load(Ordering::Relaxed) {
                    // A query of 500 to 20,000 items (about 0.5 to 20 ms of work
                    // on one core), then an idle gap of up to 2 ms.
                    r ^= r << 13;
                    r ^= r >> 7;
                    r ^= r << 17;
                    let n = 500 + r % 19_500;
                    share.install(|| {
                        (0..n).into_par_iter().for_each(|j| {
                            std::hint::black_box(spin(j));
                        })
                    });
                    items.fetch_add(n, Ordering::Relaxed);
                    std::thread::sleep(Duration::from_micros(r % 2000));
                }
            });
        }
        // A second of warm-up, then the measured run.
        std::thread::sleep(Duration::from_secs(1));
        let start = (Instant::now(), items.load(Ordering::Relaxed));
        let before = pool.stats();
        let switches = context_switches();
        std::thread::sleep(Duration::from_secs(secs));
        let measured = (start, before, switches);
        stop.store(true, Ordering::Relaxed);
        measured
    });
    let done = items.load(Ordering::Relaxed) - start.1;
    let elapsed = start.0.elapsed().as_secs_f64();
    let after = pool.stats();
    let per_s = |a: u64, b: u64| (a - b) as f64 / elapsed;
    let (mut grants, mut parks, mut preemptions) = (0, 0, 0);
    for share in &shares {
        let st = share.stats();
        (grants, parks, preemptions) = (
            grants + st.grants,
            parks + st.parks,
            preemptions + st.preemptions,
        );
    }
    println!(
        "{workers} workers and permits, {n_shares} shares, {} processors, {secs} s measured",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "allocator calls/s {:.0}; waited for the lock/s {:.0} ({:.1}% of calls); waiting {:.4} cores",
        per_s(after.allocator_calls, before.allocator_calls),
        per_s(after.allocator_waits, before.allocator_waits),
        100.0 * (after.allocator_waits - before.allocator_waits) as f64
            / (after.allocator_calls - before.allocator_calls).max(1) as f64,
        (after.allocator_wait_time - before.allocator_wait_time).as_secs_f64() / elapsed,
    );
    println!("items of finished queries/s {:.0}", done as f64 / elapsed);
    println!(
        "since the start, all shares: {grants} grants, {parks} parks, {preemptions} preemptions"
    );
    if let (Some(b), Some(a)) = (switches_before, context_switches()) {
        println!("context switches/s: {:.0}", per_s(a, b));
    }
}
