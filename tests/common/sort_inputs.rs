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
        // A few sorted runs: lists sorted apart and appended to each other.
        ("two-runs", |n, s| runs(n, s, &[true, true])),
        ("four-runs-up-and-down", |n, s| {
            runs(n, s, &[true, false, true, false])
        }),
        // Eight runs over the same few values: equal elements in every run,
        // which a stable merge of the runs keeps in their runs' order.
        ("eight-runs-with-ties", |n, _| {
            let run = n.div_ceil(8).max(1);
            (0..n).map(|i| (i % run / 3) as u32).collect()
        }),
        ("sorted-then-a-few", |n, s| {
            let mut v: Vec<u32> = (0..n as u32).map(|x| 2 * x).collect();
            let tail = n.min(5);
            let mut r = rng(s);
            for x in &mut v[n - tail..] {
                *x = r.random_range(0..2 * n as u32 + 1);
            }
            v
        }),
    ]
}

/// `n` random values in `directions.len()` runs of about equal length, each
/// sorted ascending (`true`) or descending.
fn runs(n: usize, seed: u64, directions: &[bool]) -> Vec<u32> {
    let mut v: Vec<u32> = rng(seed)
        .sample_iter(rand::distr::StandardUniform)
        .take(n)
        .collect();
    let run = n.div_ceil(directions.len()).max(1);
    for (chunk, &ascending) in v.chunks_mut(run).zip(directions) {
        chunk.sort_unstable();
        if !ascending {
            chunk.reverse();
        }
    }
    v
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
