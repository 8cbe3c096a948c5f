//! Counts the comparator calls of prorata's, Rayon's and std's sorts on the
//! same inputs, stable and unstable, and prints the counts and their ratios.
//! Counts do not depend on the machine's load, so unlike times they can be
//! compared across runs and machines.
//!
//! ```text
//! cargo run --release --example sort_calls [len ...]
//! ```
//!
//! Without lengths it counts at 5·10^4 and 10^6. `THREADS` sets the pools'
//! threads (default 2).

use std::cmp::Ordering;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Comparator calls, counted.
static CALLS: AtomicU64 = AtomicU64::new(0);

/// A counted plain comparison.
fn counted(a: &u64, b: &u64) -> Ordering {
    CALLS.fetch_add(1, Relaxed);
    a.cmp(b)
}

/// The comparator calls of one sort of a fresh copy of `input`.
fn calls(input: &[u64], sort: impl FnOnce(&mut [u64])) -> u64 {
    let mut v = input.to_vec();
    CALLS.store(0, Relaxed);
    sort(&mut v);
    let n = CALLS.load(Relaxed);
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "sorted");
    n
}

/// `v` with about `swaps` random pairs swapped.
fn with_swaps(mut v: Vec<u64>, swaps: usize, seed: u64) -> Vec<u64> {
    let mut rng = StdRng::seed_from_u64(seed);
    let n = v.len();
    for _ in 0..swaps {
        v.swap(rng.random_range(0..n), rng.random_range(0..n));
    }
    v
}

fn main() {
    use prorata::prelude::ParallelSliceMut as P;
    use rayon::slice::ParallelSliceMut as R;
    let lens: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse().expect("a length"))
        .collect();
    let lens = if lens.is_empty() {
        vec![50_000, 1_000_000]
    } else {
        lens
    };
    let threads = std::env::var("THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(2);
    let ours = prorata::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a prorata pool");
    let theirs = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon pool");
    println!("{threads} threads; comparator calls, prorata / Rayon / std, and prorata over each");
    for len in lens {
        let mut rng = StdRng::seed_from_u64(42);
        let random: Vec<u64> = (0..len).map(|_| rng.random()).collect();
        let few: Vec<u64> = random.iter().map(|x| x % 16).collect();
        let swaps = (len as f64).sqrt() as usize;
        let ascending = with_swaps((0..len as u64).collect(), swaps, 3);
        let descending = with_swaps((0..len as u64).rev().collect(), swaps, 4);
        for (shape, input) in [
            ("random u64", &random),
            ("16 distinct", &few),
            ("nearly ascending", &ascending),
            ("nearly descending", &descending),
        ] {
            for stable in [true, false] {
                let (p, r, s) = if stable {
                    (
                        ours.install(|| calls(input, |v| P::par_sort_by(v, counted))),
                        theirs.install(|| calls(input, |v| R::par_sort_by(v, counted))),
                        calls(input, |v| v.sort_by(counted)),
                    )
                } else {
                    (
                        ours.install(|| calls(input, |v| P::par_sort_unstable_by(v, counted))),
                        theirs.install(|| calls(input, |v| R::par_sort_unstable_by(v, counted))),
                        calls(input, |v| v.sort_unstable_by(counted)),
                    )
                };
                println!(
                    "{shape:<18} {len:>8} {:<8} {p:>10} / {r:>10} / {s:>10}   /rayon {:5.2} /std {:5.2}",
                    if stable { "stable" } else { "unstable" },
                    p as f64 / r as f64,
                    p as f64 / s as f64,
                );
            }
        }
    }
}
