//! The overhead workloads of docs/benchmarks.md under criterion: `join` (fib without
//! cut-off) on 1 and 2 workers, small, medium and large `map().sum()`,
//! `filter().map().collect()`, and an `install` round trip into a warm pool; prorata, Rayon
//! and sequential code side by side in each group. `cargo run --release --example overhead`
//! prints the same workloads as ratios in one run, with the coarse speed-ups and the idle
//! CPU. The tree groups are chili's benchmark (a balanced tree of boxed nodes summed by a
//! `join` per node) with chili, the heartbeat scheduler, beside prorata, Rayon and
//! sequential code; the tree of 2^24 - 1 nodes runs only with `OVERHEAD_LARGE_TREE=1` in
//! the environment.
//!
//! Run: `cargo bench --bench overhead`.

#![allow(missing_docs)] // criterion's macros generate undocumented functions

#[path = "../examples/overhead/workloads.rs"]
mod workloads;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use workloads::{Node, heartbeat, ours, sequential, theirs};

fn pools(n: usize) -> (prorata::ThreadPool, rayon::ThreadPool) {
    let ours = prorata::ThreadPoolBuilder::new().num_threads(n).build();
    let theirs = rayon::ThreadPoolBuilder::new().num_threads(n).build();
    (ours.unwrap(), theirs.unwrap())
}

fn joins(c: &mut Criterion) {
    for workers in [1, 2] {
        let (p, r) = pools(workers);
        let mut g = c.benchmark_group(format!("fib(25) through join, {workers} worker(s)"));
        g.bench_function("sequential", |b| b.iter(|| sequential::fib(black_box(25))));
        g.bench_function("prorata", |b| {
            b.iter(|| p.install(|| ours::fib(black_box(25))))
        });
        g.bench_function("rayon", |b| {
            b.iter(|| r.install(|| theirs::fib(black_box(25))))
        });
        g.finish();
    }
}

fn trees(c: &mut Criterion) {
    let large = std::env::var_os("OVERHEAD_LARGE_TREE").is_some();
    let sizes: &[u32] = if large {
        &[10, 16, 20, 24]
    } else {
        &[10, 16, 20]
    };
    for &layers in sizes {
        let tree = Node::tree(layers);
        for workers in [1, 2] {
            let (p, r) = pools(workers);
            let chili = chili::ThreadPool::with_config(chili::Config {
                thread_count: std::num::NonZero::new(workers),
                ..Default::default()
            });
            let name = format!("sum of a tree of 2^{layers}-1 nodes, {workers} worker(s)");
            let mut g = c.benchmark_group(name);
            if layers >= 20 {
                g.sample_size(10);
            }
            g.bench_function("sequential", |b| {
                b.iter(|| sequential::tree_sum(black_box(&tree)))
            });
            g.bench_function("prorata", |b| {
                b.iter(|| p.install(|| ours::tree_sum(black_box(&tree))))
            });
            g.bench_function("rayon", |b| {
                b.iter(|| r.install(|| theirs::tree_sum(black_box(&tree))))
            });
            g.bench_function("chili", |b| {
                b.iter(|| heartbeat::tree_sum(black_box(&tree), &mut chili.scope()))
            });
            g.finish();
        }
    }
}

fn sums(c: &mut Criterion) {
    let (p, r) = pools(2);
    for n in [1_000u64, 100_000, 10_000_000] {
        let v: Vec<u64> = (0..n).collect();
        let mut g = c.benchmark_group(format!("map().sum() of {n} in install"));
        g.bench_function("sequential", |b| {
            b.iter(|| sequential::map_sum(black_box(&v)))
        });
        g.bench_function("prorata", |b| {
            b.iter(|| p.install(|| ours::map_sum(black_box(&v))))
        });
        g.bench_function("rayon", |b| {
            b.iter(|| r.install(|| theirs::map_sum(black_box(&v))))
        });
        g.finish();
    }
    // Many small calls made by a worker (no round trip per call).
    let v: Vec<u64> = (0..1_000).collect();
    let mut g = c.benchmark_group("100 x map().sum() of 1000 from a worker");
    let seq = || {
        (0..100)
            .map(|_| sequential::map_sum(black_box(&v)))
            .sum::<u64>()
    };
    g.bench_function("sequential", |b| b.iter(seq));
    g.bench_function("prorata", |b| {
        b.iter(|| p.install(|| (0..100).map(|_| ours::map_sum(black_box(&v))).sum::<u64>()))
    });
    g.bench_function("rayon", |b| {
        b.iter(|| {
            r.install(|| {
                (0..100)
                    .map(|_| theirs::map_sum(black_box(&v)))
                    .sum::<u64>()
            })
        })
    });
    g.finish();
}

fn collects(c: &mut Criterion) {
    let (p, r) = pools(2);
    let v: Vec<u64> = (0..10_000_000).collect();
    let mut g = c.benchmark_group("filter().map().collect() of 10^7");
    g.sample_size(10);
    g.bench_function("sequential", |b| {
        b.iter(|| sequential::filter_collect(black_box(&v)))
    });
    g.bench_function("prorata", |b| {
        b.iter(|| p.install(|| ours::filter_collect(black_box(&v))))
    });
    g.bench_function("rayon", |b| {
        b.iter(|| r.install(|| theirs::filter_collect(black_box(&v))))
    });
    g.finish();
}

fn round_trips(c: &mut Criterion) {
    let (p, r) = pools(2);
    let mut g = c.benchmark_group("install() round trip into a warm pool");
    g.bench_function("prorata", |b| b.iter(|| p.install(|| black_box(1))));
    g.bench_function("rayon", |b| b.iter(|| r.install(|| black_box(1))));
    g.finish();
}

criterion_group!(benches, joins, trees, sums, collects, round_trips);
criterion_main!(benches);
