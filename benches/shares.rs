//! Shares benchmarks: the cost of running inside a lone share (vs the plain pool, vs
//! Rayon), and the time for two competing shares (3:1) to finish the same work
//! (with the allocator switching cores between them), vs one after the other.
//! The fractions each share gets are printed by `examples/shares.rs`.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

const N: usize = 1 << 20;

fn item(i: usize) -> u64 {
    let mut x = i as u64;
    for _ in 0..20 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

fn work() {
    use prorata::prelude::*;
    (0..N).into_par_iter().for_each(|i| {
        std::hint::black_box(item(i));
    });
}

fn rayon_work() {
    use rayon::prelude::*;
    (0..N).into_par_iter().for_each(|i| {
        std::hint::black_box(item(i));
    });
}

fn lone_share(c: &mut Criterion) {
    let threads = 2;
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let share = pool.share(100).unwrap();
    let rayon_pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut g = c.benchmark_group("lone_share");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    g.bench_function("sequential", |b| {
        b.iter(|| {
            (0..N).for_each(|i| {
                std::hint::black_box(item(i));
            })
        })
    });
    g.bench_function("rayon_pool", |b| b.iter(|| rayon_pool.install(rayon_work)));
    g.bench_function("prorata_pool", |b| b.iter(|| pool.install(work)));
    g.bench_function("prorata_share", |b| b.iter(|| share.install(work)));
    g.finish();
}

fn two_shares(c: &mut Criterion) {
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let (fg, bg) = (pool.share(300).unwrap(), pool.share(100).unwrap());
    let mut g = c.benchmark_group("two_shares_3_to_1");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    g.bench_function("competing", |b| {
        b.iter(|| {
            std::thread::scope(|s| {
                s.spawn(|| fg.install(work));
                s.spawn(|| bg.install(work));
            })
        })
    });
    g.bench_function("one_after_the_other", |b| {
        b.iter(|| {
            fg.install(work);
            bg.install(work);
        })
    });
    g.finish();
}

criterion_group!(benches, lone_share, two_shares);
criterion_main!(benches);
