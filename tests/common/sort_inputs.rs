//! Inputs for the sort tests: lengths around the sorts' cut-offs and input shapes.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Lengths around every cutoff of the sorts (std below 4096, leaves of 2048).
pub const LENGTHS: &[usize] = &[
    0, 1, 2, 3, 7, 64, 100, 300, 2047, 2048, 2049, 4095, 4096, 4097, 5000, 8191, 8193, 20_000,
    40_000, 100_000, 150_000, 300_000,
];

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
        // Enough values that a quicksort's pivot rarely meets its equals in
        // one level, few enough that they repeat everywhere.
        ("sixteen-distinct", |n, s| {
            let mut r = rng(s);
            (0..n).map(|_| r.random_range(0..16)).collect()
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
        // Runs of three equal values: a non-strictly descending input must
        // not be reversed as a whole by a stable sort.
        ("ascending-with-ties", |n, _| {
            (0..n as u32).map(|x| x / 3).collect()
        }),
        ("descending-with-ties", |n, _| {
            (0..n as u32).rev().map(|x| x / 3).collect()
        }),
        // About the square root of the length of random swaps.
        ("nearly-ascending", |n, s| {
            with_swaps((0..n as u32).collect(), s)
        }),
        ("nearly-descending", |n, s| {
            with_swaps((0..n as u32).rev().collect(), s)
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

/// `v` with about the square root of its length of random pairs swapped.
fn with_swaps(mut v: Vec<u32>, seed: u64) -> Vec<u32> {
    let n = v.len();
    let mut r = rng(seed);
    for _ in 0..(n as f64).sqrt() as usize {
        v.swap(r.random_range(0..n), r.random_range(0..n));
    }
    v
}

/// A seeded generator.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// Values tagged with their original index, to check stability.
pub fn tagged(values: &[u32]) -> Vec<(u32, usize)> {
    values.iter().copied().zip(0..).collect()
}
