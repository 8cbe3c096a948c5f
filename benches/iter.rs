//! Adaptors and consumers side by side: prorata, rayon and sequential std, in one
//! run. `cargo bench --bench iter`; the ratios to report are prorata/rayon and
//! prorata/sequential for each group and size.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

/// A cheap mixing function, so that no compiler can sum the sequence in closed form.
#[inline]
fn work(x: usize) -> u64 {
    let x = x as u64;
    (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7) ^ x
}

fn map_sum(c: &mut Criterion) {
    let mut group = c.benchmark_group("map_sum");
    for n in [1_000usize, 100_000, 10_000_000] {
        group.bench_with_input(BenchmarkId::new("sequential", n), &n, |b, &n| {
            b.iter(|| (0..black_box(n)).map(work).sum::<u64>())
        });
        group.bench_with_input(BenchmarkId::new("rayon", n), &n, |b, &n| {
            use rayon::prelude::*;
            b.iter(|| (0..black_box(n)).into_par_iter().map(work).sum::<u64>())
        });
        group.bench_with_input(BenchmarkId::new("prorata", n), &n, |b, &n| {
            use prorata::prelude::*;
            b.iter(|| (0..black_box(n)).into_par_iter().map(work).sum::<u64>())
        });
    }
    group.finish();
}

fn filter_count(c: &mut Criterion) {
    let mut group = c.benchmark_group("filter_count");
    let n = 10_000_000usize;
    let keep = |x: &usize| work(*x) % 3 == 0;
    group.bench_function(BenchmarkId::new("sequential", n), |b| {
        b.iter(|| (0..black_box(n)).filter(keep).count())
    });
    group.bench_function(BenchmarkId::new("rayon", n), |b| {
        use rayon::prelude::*;
        b.iter(|| (0..black_box(n)).into_par_iter().filter(keep).count())
    });
    group.bench_function(BenchmarkId::new("prorata", n), |b| {
        use prorata::prelude::*;
        b.iter(|| (0..black_box(n)).into_par_iter().filter(keep).count())
    });
    group.finish();
}

fn flat_map_iter(c: &mut Criterion) {
    let mut group = c.benchmark_group("flat_map_iter");
    let n = 10_000_000usize;
    let rows = n / 16;
    let row = |i: usize| (i * 16..i * 16 + 16).map(work);
    group.bench_function(BenchmarkId::new("sequential", n), |b| {
        b.iter(|| (0..black_box(rows)).flat_map(row).sum::<u64>())
    });
    group.bench_function(BenchmarkId::new("rayon", n), |b| {
        use rayon::prelude::*;
        b.iter(|| {
            (0..black_box(rows))
                .into_par_iter()
                .flat_map_iter(row)
                .sum::<u64>()
        })
    });
    group.bench_function(BenchmarkId::new("prorata", n), |b| {
        use prorata::prelude::*;
        b.iter(|| {
            (0..black_box(rows))
                .into_par_iter()
                .flat_map_iter(row)
                .sum::<u64>()
        })
    });
    group.finish();
}

fn fold(c: &mut Criterion) {
    let mut group = c.benchmark_group("fold");
    let n = 10_000_000usize;
    let step = |acc: u64, x: usize| acc ^ work(x).rotate_left(3);
    group.bench_function(BenchmarkId::new("sequential", n), |b| {
        b.iter(|| (0..black_box(n)).fold(0u64, step))
    });
    group.bench_function(BenchmarkId::new("rayon", n), |b| {
        use rayon::prelude::*;
        b.iter(|| {
            (0..black_box(n))
                .into_par_iter()
                .fold(|| 0u64, step)
                .reduce(|| 0, |a, b| a ^ b)
        })
    });
    group.bench_function(BenchmarkId::new("prorata", n), |b| {
        use prorata::prelude::*;
        b.iter(|| {
            (0..black_box(n))
                .into_par_iter()
                .fold(|| 0u64, step)
                .reduce(|| 0, |a, b| a ^ b)
        })
    });
    group.finish();
}

fn short_settings() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = short_settings();
    targets = map_sum, filter_count, flat_map_iter, fold
}
criterion_main!(benches);
