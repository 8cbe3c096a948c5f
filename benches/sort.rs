//! Parallel sorts: prorata against rayon and sequential std, side by side.
//!
//! For each input (shape, length) and each of stable and unstable sorting, the
//! group holds `std`, `rayon` and `prorata`; compare times within one group.

use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// `len` random `u64`s from a fixed seed.
fn random(len: usize) -> Vec<u64> {
    let mut rng = StdRng::seed_from_u64(0x5EED);
    (0..len).map(|_| rng.random()).collect()
}

/// The named inputs of one length.
fn inputs(len: usize) -> Vec<(&'static str, Vec<u64>)> {
    let random = random(len);
    let mut sorted = random.clone();
    sorted.sort_unstable();
    let reversed: Vec<u64> = sorted.iter().rev().copied().collect();
    let few: Vec<u64> = random.iter().map(|x| x % 16).collect();
    vec![
        ("random", random),
        ("sorted", sorted),
        ("reversed", reversed),
        ("few-distinct", few),
    ]
}

/// Benches std, rayon and prorata on `input`, stable and unstable.
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
    for len in [100_000, 1_000_000] {
        for (name, input) in inputs(len) {
            bench_input(c, &format!("u64-{name}"), &input);
        }
        let strings: Vec<String> = random(len).iter().map(|x| x.to_string()).collect();
        bench_input(c, "string-random", &strings);
    }
    bench_input(c, "u64-random", &random(10_000_000));
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
