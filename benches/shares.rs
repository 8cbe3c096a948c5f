//! Shares benchmarks. First the table of `examples/shares` in a shorter run (one
//! window per proportions run, 10 hand-over trials, 5 lone-share rounds; printed,
//! not criterion): the ticket fractions each policy achieves for both usage
//! patterns on 2 and 8 workers, hand-over, a lone share against a plain pool, the
//! CPU and the threads of idle shares. Then criterion: the cost of running inside a
//! lone share (against the plain pool and Rayon), and the time two competing shares
//! (3:1) take to finish the same work against one after the other.
//!
//! Run: `cargo bench --bench shares` (`PRORATA_SHARES_TABLE=0` skips the table).

#![allow(missing_docs)] // criterion's macros generate undocumented functions

#[path = "../examples/shares/measure.rs"]
mod measure;

use std::time::Duration;

use criterion::Criterion;

const N: usize = 1 << 20;

fn small_item(i: usize) -> u64 {
    let mut x = i as u64;
    for _ in 0..20 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

fn work() {
    use prorata::prelude::*;
    (0..N).into_par_iter().for_each(|i| {
        std::hint::black_box(small_item(i));
    });
}

fn rayon_work() {
    use rayon::prelude::*;
    (0..N).into_par_iter().for_each(|i| {
        std::hint::black_box(small_item(i));
    });
}

fn lone_share(c: &mut Criterion) {
    let threads = 2;
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let plain = prorata::ThreadPoolBuilder::new()
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
                std::hint::black_box(small_item(i));
            })
        })
    });
    g.bench_function("rayon_pool", |b| b.iter(|| rayon_pool.install(rayon_work)));
    g.bench_function("prorata_pool", |b| b.iter(|| plain.install(work)));
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

fn main() {
    if std::env::var("PRORATA_SHARES_TABLE").as_deref() != Ok("0") {
        let micros = measure::calibrate(3.0);
        println!("shares table (items of {micros:.2} µs, one window per run):");
        measure::report(&measure::Plan {
            windows: 1,
            trials: 10,
            rounds: 5,
            workers: vec![2, 8],
            cores: 2,
            policies: measure::POLICIES.to_vec(),
            only: None,
            detail: false,
        });
    }
    let mut c = Criterion::default().configure_from_args();
    lone_share(&mut c);
    two_shares(&mut c);
    c.final_summary();
}
