//! The inputs of the sort grid, shared by `examples/sort_compare.rs` and
//! `benches/sort.rs`: random `u64`s from a fixed seed and the shapes made from
//! them.

use std::cmp::Ordering;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// An `f64` ordered by `total_cmp`.
#[derive(Clone, Copy, PartialEq)]
pub struct Float(pub f64);

impl Eq for Float {}

impl PartialOrd for Float {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Float {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// `len` random `u64`s from `seed`.
pub fn random(len: usize, seed: u64) -> Vec<u64> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..len).map(|_| rng.random()).collect()
}

/// `v` with about `swaps` random pairs swapped.
pub fn with_swaps<T>(mut v: Vec<T>, swaps: usize, seed: u64) -> Vec<T> {
    let mut rng = StdRng::seed_from_u64(seed);
    let n = v.len();
    for _ in 0..swaps {
        v.swap(rng.random_range(0..n), rng.random_range(0..n));
    }
    v
}

/// The names of the `u64` shapes, in the grid's order.
pub const U64_SHAPES: [&str; 6] = [
    "random",
    "16 distinct",
    "sorted",
    "reversed",
    "runs+noise",
    "4 runs",
];

/// The `u64` shape `name` (one of [`U64_SHAPES`]) made from `random`: itself,
/// 16 distinct values, sorted, reversed, ascending runs of about 1000 with
/// 1% of the elements moved at random, or four sorted runs of a quarter each
/// (four sorted lists appended to each other).
pub fn u64_shape(name: &str, random: &[u64]) -> Vec<u64> {
    match name {
        "random" => random.to_vec(),
        "16 distinct" => random.iter().map(|x| x % 16).collect(),
        "sorted" | "reversed" => {
            let mut sorted = random.to_vec();
            sorted.sort_unstable();
            if name == "reversed" {
                sorted.reverse();
            }
            sorted
        }
        "runs+noise" => {
            let runs: Vec<u64> = random
                .chunks(1000)
                .flat_map(|c| {
                    let mut c = c.to_vec();
                    c.sort_unstable();
                    c
                })
                .collect();
            with_swaps(runs, random.len() / 200, 7)
        }
        "4 runs" => random
            .chunks(random.len().div_ceil(4).max(1))
            .flat_map(|c| {
                let mut c = c.to_vec();
                c.sort_unstable();
                c
            })
            .collect(),
        _ => panic!("no u64 shape named {name}"),
    }
}

/// `(u32, u32)` pairs with about 1024 distinct first fields.
pub fn pairs(random: &[u64]) -> Vec<(u32, u32)> {
    random
        .iter()
        .map(|&x| ((x >> 32) as u32 % 1024, x as u32))
        .collect()
}

/// Two-word records, `(u64, u64)`: the first word random, the second its
/// complement (16 bytes, compared by the first word but for ties).
pub fn records(random: &[u64]) -> Vec<(u64, u64)> {
    random.iter().map(|&x| (x, !x)).collect()
}

/// `f64`s of both signs.
pub fn floats(random: &[u64]) -> Vec<Float> {
    random
        .iter()
        .map(|&x| Float((x as i64) as f64 * 1e-9))
        .collect()
}

/// The numbers as decimal `String`s.
pub fn strings(random: &[u64]) -> Vec<String> {
    random.iter().map(|x| x.to_string()).collect()
}

/// 64-byte elements ordered by their first two fields (64 distinct first ones).
pub fn structs(random: &[u64]) -> Vec<[u64; 8]> {
    random
        .iter()
        .map(|&x| [x % 64, x, 1, 2, 3, 4, 5, 6])
        .collect()
}
