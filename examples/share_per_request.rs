//! What a share per request costs: make a share, run one small `install` in it,
//! drop it, against the same `install` in a share that is kept; and whether
//! 100,000 such cycles leave the process's threads and resident memory where they
//! started.
//!
//! `cargo run --release --example share_per_request -- [workers] [cycles]`
//! (defaults: 2 workers, 100,000 cycles). Prints medians of rounds, in µs. A third
//! argument `create-drop` only makes and drops shares, for a profiler.

use std::hint::black_box;
use std::time::Instant;

#[path = "../tests/common/executor.rs"]
#[allow(dead_code)]
mod executor;
use executor::{resident_kb, threads};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Mean µs per call of `f` over `n` calls.
fn per_call(n: usize, mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_secs_f64() * 1e6 / n as f64
}

fn main() {
    let mut args = std::env::args().skip(1);
    let workers: usize = args.next().map_or(2, |a| a.parse().expect("workers"));
    let cycles: usize = args.next().map_or(100_000, |a| a.parse().expect("cycles"));
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .unwrap();
    let tenant = pool.share(100).unwrap();
    let kept = tenant.share(10).unwrap();
    let small = || (0..1000u64).map(black_box).sum::<u64>();
    if args.next().as_deref() == Some("create-drop") {
        // Only make and drop shares (for a profiler).
        for _ in 0..cycles {
            drop(black_box(tenant.share(10).unwrap()));
        }
        return;
    }
    // Warm: the kept share's threads run, the tenant's currency exists.
    for _ in 0..1000 {
        black_box(kept.install(small));
        black_box(black_box(tenant.share(10).unwrap()).install(small));
    }
    let (threads0, rss0) = (threads(), resident_kb());
    let rounds = 21;
    let n = (cycles / rounds / 3).max(1);
    let (mut create_drop, mut per_request, mut in_kept) = (vec![], vec![], vec![]);
    for _ in 0..rounds {
        create_drop.push(per_call(n, || drop(black_box(tenant.share(10).unwrap()))));
        per_request.push(per_call(n, || {
            let s = tenant.share(10).unwrap();
            black_box(s.install(small));
        }));
        in_kept.push(per_call(n, || {
            black_box(kept.install(small));
        }));
    }
    let (threads1, rss1) = (threads(), resident_kb());
    println!(
        "{workers} workers, {} cycles of each, medians of {rounds} rounds",
        n * rounds
    );
    println!(
        "  create + drop:                       {:8.2} µs",
        median(create_drop)
    );
    println!(
        "  create + install + drop:             {:8.2} µs",
        median(per_request)
    );
    println!(
        "  install in a kept share:             {:8.2} µs",
        median(in_kept)
    );
    println!("  threads before / after:              {threads0} / {threads1}");
    println!("  resident memory before / after (kB): {rss0} / {rss1}");
}
