//! `map().collect::<Vec<_>>()` on 10^7 items: prorata against Rayon and sequential std,
//! in one run. Also `unzip` (in place, both sides) and `partition` (in pieces).
//!
//! Run with `cargo bench --bench collect`; quote ratios taken in one run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};

const N: usize = 10_000_000;

fn work(x: usize) -> u64 {
    (x as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(17)
}

fn odd(x: &u64) -> bool {
    x % 2 == 1
}

/// Short settings: the machine is small and shared.
fn group<'c>(c: &'c mut Criterion, name: &str) -> BenchmarkGroup<'c, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group
}

fn map_collect(c: &mut Criterion) {
    let mut g = group(c, "map_collect_1e7");
    g.bench_function("std", |b| {
        b.iter(|| black_box((0..N).map(work).collect::<Vec<u64>>()))
    });
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| black_box((0..N).into_par_iter().map(work).collect::<Vec<u64>>()))
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| black_box((0..N).into_par_iter().map(work).collect::<Vec<u64>>()))
    });
    g.finish();
}

type Halves = (Vec<usize>, Vec<u64>);

fn unzip(c: &mut Criterion) {
    let mut g = group(c, "map_unzip_1e7");
    g.bench_function("std", |b| {
        b.iter(|| black_box((0..N).map(|x| (x, work(x))).unzip::<_, _, Vec<_>, Vec<_>>()))
    });
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| black_box::<Halves>((0..N).into_par_iter().map(|x| (x, work(x))).unzip()))
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| black_box::<Halves>((0..N).into_par_iter().map(|x| (x, work(x))).unzip()))
    });
    g.finish();
}

type Sides = (Vec<u64>, Vec<u64>);

fn partition(c: &mut Criterion) {
    let mut g = group(c, "map_partition_1e7");
    g.bench_function("std", |b| {
        b.iter(|| black_box::<Sides>((0..N).map(work).partition(odd)))
    });
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| black_box::<Sides>((0..N).into_par_iter().map(work).partition(odd)))
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| black_box::<Sides>((0..N).into_par_iter().map(work).partition(odd)))
    });
    g.finish();
}

criterion_group!(benches, map_collect, unzip, partition);
criterion_main!(benches);
