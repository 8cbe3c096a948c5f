//! Helpers shared by the `iter_adaptors_*` and `iter_consumers_*` tests (included
//! with `#[path]`; compiled alone it holds no tests).
#![allow(dead_code)]

use prorata::prelude::*;

/// Lengths every method is checked at: empty, one, small, around a leaf's safe-point
/// run (4096), and large.
pub const LENS: [usize; 7] = [0, 1, 2, 7, 100, 4097, 100_000];

/// Pools of 1, 2 and 8 workers.
pub fn pools() -> Vec<prorata::ThreadPool> {
    [1, 2, 8]
        .into_iter()
        .map(|n| {
            prorata::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect()
}

/// Runs `check(len)` inside every pool, for every length in `LENS`.
pub fn for_all_cases(check: impl Fn(usize) + Sync) {
    for pool in pools() {
        for len in LENS {
            pool.install(|| check(len));
        }
    }
}

/// The items of `iter`, in order (built with `fold` and `reduce`, which keep order).
pub fn to_vec<I: ParallelIterator>(iter: I) -> Vec<I::Item> {
    iter.fold(Vec::new, |mut v, x| {
        v.push(x);
        v
    })
    .reduce(Vec::new, |mut a, mut b| {
        a.append(&mut b);
        a
    })
}

/// The items of `iter` sorted, for adaptors whose order is unspecified.
pub fn sorted<I>(iter: I) -> Vec<I::Item>
where
    I: ParallelIterator<Item: Ord>,
{
    let mut v = to_vec(iter);
    v.sort();
    v
}

/// A deterministic pseudo-random value for index `i` (no shared generator needed).
pub fn noise(i: usize) -> u64 {
    let mut x = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
