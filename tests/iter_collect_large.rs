//! Collecting an iterator of unknown length whose pieces are large: the pieces are moved
//! into the final vector in parallel. Every item must arrive once, in order, and be
//! dropped exactly once.

use prorata::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

static LIVE: AtomicUsize = AtomicUsize::new(0);

/// An item that counts the live instances.
#[derive(Debug, PartialEq)]
struct Counted(u64);

impl Counted {
    fn new(x: u64) -> Self {
        LIVE.fetch_add(1, Ordering::SeqCst);
        Counted(x)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

#[test]
fn large_unindexed_collects_move_every_item_once() {
    for workers in [1, 2, 8] {
        let pool = prorata::ThreadPoolBuilder::new()
            .num_threads(workers)
            .build()
            .unwrap();
        for len in [1u64 << 17, 1 << 20] {
            let got: Vec<Counted> = pool.install(|| {
                (0..len)
                    .into_par_iter()
                    .filter(|x| x % 3 != 0)
                    .map(Counted::new)
                    .collect()
            });
            let expected: Vec<u64> = (0..len).filter(|x| x % 3 != 0).collect();
            assert_eq!(got.len(), expected.len(), "{workers} workers, {len}");
            assert!(got.iter().zip(&expected).all(|(a, b)| a.0 == *b));
            assert_eq!(LIVE.load(Ordering::SeqCst), expected.len());
            drop(got);
            assert_eq!(LIVE.load(Ordering::SeqCst), 0);
            // Appending to a vector that holds items already.
            let mut v = vec![Counted::new(u64::MAX)];
            pool.install(|| {
                v.par_extend(
                    (0..len)
                        .into_par_iter()
                        .filter(|x| x % 2 == 0)
                        .map(Counted::new),
                )
            });
            assert_eq!(v.len() as u64, 1 + len / 2);
            assert_eq!(v[0].0, u64::MAX);
            assert!(v[1..].iter().enumerate().all(|(i, c)| c.0 == 2 * i as u64));
            drop(v);
            assert_eq!(LIVE.load(Ordering::SeqCst), 0);
        }
    }
}
