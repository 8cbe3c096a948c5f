//! Measures a share's ceiling on its cores (`Share::set_max_cores`): a lone share
//! with a ceiling of 1 on a 2-core pool, and how the rest is split when it has
//! 400 tickets (1.14 cores' worth) against two other shares of 100 and 200 (the targets of issue 54: at
//! most 1.05 cores of CPU over a second, and the leftover within 1 point of the
//! others' ticket proportion). Prints; asserts nothing. Results: docs/benchmarks.md.
//!
//! cargo run --release --example share_ceiling

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{Share, ThreadPoolBuilder};

/// Keeps `share` busy (a long `par_iter` of small items) until `stop`.
fn busy(share: &Share, stop: &AtomicBool) {
    share.install(|| {
        let _ = (0..usize::MAX / 2).into_par_iter().try_for_each(|i| {
            if stop.load(Ordering::Relaxed) {
                return Err(());
            }
            let mut x = i as u64;
            for _ in 0..200 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            std::hint::black_box(x);
            Ok(())
        });
    });
}

/// Core time each of `shares` held over `window`, after `warm_up`, while all of
/// them are kept busy.
fn measure(shares: &[&Share], warm_up: Duration, window: Duration) -> Vec<f64> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        for share in shares {
            let stop = &stop;
            s.spawn(move || busy(share, stop));
        }
        std::thread::sleep(warm_up);
        let before: Vec<Duration> = shares.iter().map(|s| s.stats().core_time).collect();
        let t0 = Instant::now();
        std::thread::sleep(window);
        let after: Vec<Duration> = shares.iter().map(|s| s.stats().core_time).collect();
        let wall = t0.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
        after
            .iter()
            .zip(&before)
            .map(|(a, b)| (*a - *b).as_secs_f64() / wall)
            .collect()
    })
}

fn main() {
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_cores(2)
        .build()
        .unwrap();
    let a = pool.share(100).unwrap();
    a.set_max_cores(Some(1)).unwrap();
    for run in 0..3 {
        let cores = measure(&[&a], Duration::from_millis(200), Duration::from_secs(1));
        println!(
            "run {run}: a lone share with a ceiling of 1 on 2 cores used {:.3} cores",
            cores[0]
        );
    }
    // 400 tickets of 700: worth 1.14 cores, held to 1 by the ceiling.
    a.set_tickets(400).unwrap();
    let b = pool.share(100).unwrap();
    let c = pool.share(200).unwrap();
    for run in 0..3 {
        let cores = measure(
            &[&a, &b, &c],
            Duration::from_millis(500),
            Duration::from_secs(2),
        );
        let left = cores[1] + cores[2];
        println!(
            "run {run}: a (400, ceiling 1) {:.3} cores, b (100) {:.3}, c (200) {:.3}: b's part of the \
             leftover {:.1}% (tickets: 33.3%)",
            cores[0],
            cores[1],
            cores[2],
            100.0 * cores[1] / left
        );
    }
}
