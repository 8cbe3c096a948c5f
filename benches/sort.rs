//! Parallel sorts: prorata against Rayon and sequential std, side by side, on
//! the grid of lengths (10^3 to 10^7) and input shapes of `sort_compare`.
//!
//! For each input (shape, length) and each of stable and unstable sorting, the
//! group holds `std`, `rayon` and `prorata`; compare times within one group.
//! The whole grid takes a while; a filter runs part of it, for example
//! `cargo bench --bench sort -- 'sort/stable/u64-few-distinct'`.

use std::cmp::Ordering;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// `len` random `u64`s from a fixed seed.
fn random(len: usize) -> Vec<u64> {
    let mut rng = StdRng::seed_from_u64(0x5EED);
    (0..len).map(|_| rng.random()).collect()
}

/// The `u64` inputs of one length.
fn u64_inputs(len: usize) -> Vec<(&'static str, Vec<u64>)> {
    let random = random(len);
    let mut sorted = random.clone();
    sorted.sort_unstable();
    let reversed: Vec<u64> = sorted.iter().rev().copied().collect();
    let few: Vec<u64> = random.iter().map(|x| x % 16).collect();
    // Ascending runs of about 1000, then 1% of the elements swapped at random.
    let mut runs: Vec<u64> = random
        .chunks(1000)
        .flat_map(|c| {
            let mut c = c.to_vec();
            c.sort_unstable();
            c
        })
        .collect();
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..len / 200 {
        runs.swap(rng.random_range(0..len), rng.random_range(0..len));
    }
    vec![
        ("random", random),
        ("few-distinct", few),
        ("sorted", sorted),
        ("reversed", reversed),
        ("runs-noise", runs),
    ]
}

/// An `f64` ordered by `total_cmp`.
#[derive(Clone, Copy, PartialEq)]
struct Float(f64);

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

/// Benches std, Rayon and prorata on `input`, stable and unstable.
fn bench_input<T: Clone + Ord + Send>(c: &mut Criterion, name: &str, input: &[T]) {
    for stable in [true, false] {
        let kind = if stable { "stable" } else { "unstable" };
        let mut group = c.benchmark_group(format!("sort/{kind}/{name}/{}", input.len()));
        let mut run = |label: &str, sort: fn(&mut [T])| {
            group.bench_function(label, |b| {
                b.iter_batched_ref(|| input.to_vec(), |v| sort(v), BatchSize::LargeInput)
            });
        };
        if stable {
            run("std", |v| v.sort());
            run("rayon", rayon::slice::ParallelSliceMut::par_sort);
            run("prorata", prorata::prelude::ParallelSliceMut::par_sort);
        } else {
            run("std", |v| v.sort_unstable());
            run("rayon", rayon::slice::ParallelSliceMut::par_sort_unstable);
            run(
                "prorata",
                prorata::prelude::ParallelSliceMut::par_sort_unstable,
            );
        }
        group.finish();
    }
}

fn sorts(c: &mut Criterion) {
    for len in [1_000, 10_000, 100_000, 1_000_000, 10_000_000] {
        for (name, input) in u64_inputs(len) {
            bench_input(c, &format!("u64-{name}"), &input);
        }
        let random = random(len);
        let pairs: Vec<(u32, u32)> = random
            .iter()
            .map(|&x| ((x >> 32) as u32 % 1024, x as u32))
            .collect();
        bench_input(c, "u32-pairs", &pairs);
        let floats: Vec<Float> = random
            .iter()
            .map(|&x| Float((x as i64) as f64 * 1e-9))
            .collect();
        bench_input(c, "f64-total-cmp", &floats);
        if len <= 1_000_000 {
            let strings: Vec<String> = random.iter().map(|x| x.to_string()).collect();
            bench_input(c, "string", &strings);
            let structs: Vec<[u64; 8]> = random
                .iter()
                .map(|&x| [x % 64, x, 1, 2, 3, 4, 5, 6])
                .collect();
            bench_input(c, "64-byte", &structs);
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = sorts
}
criterion_main!(benches);
