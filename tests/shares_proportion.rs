//! Competing shares get the cores in proportion to their tickets, measured from
//! outside by the items each one's `par_iter` completes in a window. Its own test
//! binary, so that no other test competes for the cores meanwhile; bounds are
//! generous (the machine is small and shared), and no timing is asserted.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{SharePolicy, ThreadPoolBuilder};

/// About a microsecond of work that the optimiser cannot remove.
fn spin(i: u64) -> u64 {
    let mut x = i;
    for _ in 0..200 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

/// Runs one CPU-bound `par_iter` per share until `window` is over; returns the
/// items each did.
fn compete(policy: SharePolicy, tickets: &[u32], window: Duration) -> Vec<u64> {
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_policy(policy)
        .build()
        .unwrap();
    let shares: Vec<_> = tickets.iter().map(|&t| pool.share(t).unwrap()).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let done: Vec<AtomicU64> = tickets.iter().map(|_| AtomicU64::new(0)).collect();
    std::thread::scope(|s| {
        for (share, count) in shares.iter().zip(&done) {
            let stop = &stop;
            s.spawn(move || {
                share.install(|| {
                    // Many more items than the window allows; after `stop` they cost nothing.
                    (0..20_000_000usize).into_par_iter().for_each(|i| {
                        if !stop.load(Ordering::Relaxed) {
                            std::hint::black_box(spin(i as u64));
                            count.fetch_add(1, Ordering::Relaxed);
                        }
                    })
                })
            });
        }
        let t0 = Instant::now();
        while t0.elapsed() < window {
            std::thread::sleep(Duration::from_millis(10));
        }
        stop.store(true, Ordering::Relaxed);
    });
    done.iter().map(|c| c.load(Ordering::Relaxed)).collect()
}

#[test]
fn three_to_one_gets_about_three_times_the_items() {
    let done = compete(SharePolicy::Stride, &[3, 1], Duration::from_millis(800));
    let ratio = done[0] as f64 / done[1].max(1) as f64;
    assert!((2.0..=4.0).contains(&ratio), "stride: {done:?}");
    // Lottery is noisier over short windows: a wider bound.
    let done = compete(SharePolicy::Lottery, &[3, 1], Duration::from_millis(800));
    let ratio = done[0] as f64 / done[1].max(1) as f64;
    assert!((1.5..=6.0).contains(&ratio), "lottery: {done:?}");
}
