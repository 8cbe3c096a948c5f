//! Inputs and pools shared by the sort tests.
#![allow(dead_code)] // each test file uses a different part

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Lengths around every cutoff of the sorts (std below 4096, leaves of 2048).
pub const LENGTHS: &[usize] = &[
    0, 1, 2, 3, 7, 64, 100, 2047, 2048, 2049, 4095, 4096, 4097, 5000, 8191, 8193, 20_000, 100_000,
    150_000, 300_000,
];

/// Thread counts of the pools every test runs under.
pub const THREADS: &[usize] = &[1, 2, 8];

/// Runs `f` inside a pool of each size in [`THREADS`].
pub fn on_pools(f: impl Fn(usize) + Sync) {
    for &n in THREADS {
        let pool = prorata::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap();
        pool.install(|| f(n));
    }
}

/// Makes an input of a given length from a seed.
pub type Generator = fn(usize, u64) -> Vec<u32>;

/// The input shapes: name and generator.
pub fn shapes() -> Vec<(&'static str, Generator)> {
    vec![
        ("random", |n, s| {
            rng(s)
                .sample_iter(rand::distr::StandardUniform)
                .take(n)
                .collect()
        }),
        ("sorted", |n, _| (0..n as u32).collect()),
        ("reversed", |n, _| (0..n as u32).rev().collect()),
        ("all-equal", |n, _| vec![7; n]),
        ("few-distinct", |n, s| {
            let mut r = rng(s);
            (0..n).map(|_| r.random_range(0..4)).collect()
        }),
        ("sorted-then-noise", |n, s| {
            let mut r = rng(s);
            let mut v: Vec<u32> = (0..n as u32).collect();
            for _ in 0..n / 100 + 1 {
                if n > 0 {
                    let (i, j) = (r.random_range(0..n), r.random_range(0..n));
                    v.swap(i, j);
                }
            }
            v
        }),
        ("reversed-but-last", |n, _| {
            let mut v: Vec<u32> = (0..n as u32).rev().collect();
            if let Some(last) = v.last_mut() {
                *last = n as u32;
            }
            v
        }),
        ("organ-pipe", |n, _| {
            (0..n).map(|i| i.min(n - i) as u32).collect()
        }),
    ]
}

/// A seeded generator.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// Values tagged with their original index, to check stability.
pub fn tagged(values: &[u32]) -> Vec<(u32, usize)> {
    values.iter().copied().zip(0..).collect()
}
