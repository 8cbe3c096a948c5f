//! Work for the shares' tests to run: CPU-bound items whose cost is known.

/// About a microsecond of work that the optimiser cannot remove.
pub fn spin(i: u64) -> u64 {
    let mut x = i;
    for _ in 0..200 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::Scope;
use std::time::{Duration, Instant};

use prorata::Share;
use prorata::prelude::*;

/// Keeps each of `shares` busy on a thread of `scope` (one long `par_iter` of
/// [`spin`]s, counting its items in `items`) until `stop`; returns once every
/// one of them has run an item, or panics if one has not within 20 s.
pub fn keep_busy<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    shares: &'env [Share],
    stop: &'env AtomicBool,
    items: &'env [AtomicU64],
) {
    for (share, count) in shares.iter().zip(items) {
        scope.spawn(move || {
            share.install(|| {
                let _ = (0..usize::MAX / 2).into_par_iter().try_for_each(|i| {
                    if stop.load(Ordering::Relaxed) {
                        return Err(());
                    }
                    std::hint::black_box(spin(i as u64));
                    count.fetch_add(1, Ordering::Relaxed);
                    Ok(())
                });
            })
        });
    }
    let t0 = Instant::now();
    while items.iter().any(|n| n.load(Ordering::Relaxed) == 0) {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "a busy share never ran"
        );
        std::thread::yield_now();
    }
}
