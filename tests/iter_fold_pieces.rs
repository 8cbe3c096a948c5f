//! How many pieces `fold` makes (each piece starts from a fresh identity, so users see
//! the count), beside Rayon: about two per worker when nothing is stolen, more only
//! where pieces are stolen.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The pieces of one `fold` over `0..n` on a prorata pool of `workers`, with its sum.
fn ours(workers: usize, n: u64) -> (usize, u64) {
    use prorata::prelude::*;
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .unwrap();
    let pieces = AtomicUsize::new(0);
    let identity = || {
        pieces.fetch_add(1, Relaxed);
        0u64
    };
    let sum = pool.install(|| {
        (0..n)
            .into_par_iter()
            .fold(identity, |a, x| a + x)
            .sum::<u64>()
    });
    (pieces.into_inner(), sum)
}

/// The same on a Rayon pool.
fn theirs(workers: usize, n: u64) -> (usize, u64) {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .unwrap();
    let pieces = AtomicUsize::new(0);
    let identity = || {
        pieces.fetch_add(1, Relaxed);
        0u64
    };
    let sum = pool.install(|| {
        (0..n)
            .into_par_iter()
            .fold(identity, |a, x| a + x)
            .sum::<u64>()
    });
    (pieces.into_inner(), sum)
}

#[test]
fn one_worker_folds_as_many_pieces_as_rayon() {
    // One worker: nothing can be stolen, so the count is deterministic.
    for n in [0, 1, 2, 1000, 1 << 20] {
        let (p, sum) = ours(1, n);
        let (r, rayon_sum) = theirs(1, n);
        assert_eq!(sum, rayon_sum);
        assert_eq!(sum, (0..n).sum::<u64>());
        assert!(
            p <= 2 * r.max(1) && r <= 2 * p.max(1),
            "n = {n}: prorata {p}, rayon {r}"
        );
    }
}

#[test]
fn two_workers_fold_about_as_many_pieces_as_rayon() {
    // Steals add pieces and depend on timing: compare the fewest over a few runs, the
    // runs where the least was stolen.
    let n = 1 << 22;
    let fewest = |f: fn(usize, u64) -> (usize, u64)| {
        (0..8)
            .map(|_| {
                let (pieces, sum) = f(2, n);
                assert_eq!(sum, (0..n).sum::<u64>());
                pieces
            })
            .min()
            .unwrap()
    };
    let (p, r) = (fewest(ours), fewest(theirs));
    assert!(p >= 2, "two workers split at least once: {p}");
    assert!(p <= 3 * r && r <= 3 * p, "prorata {p}, rayon {r}");
}
