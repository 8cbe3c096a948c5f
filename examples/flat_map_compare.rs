//! `flat_map` into a `Vec` of items that own heap memory, as in orx-parallel's own
//! benchmark: 131,072 inputs, each mapped to a `Vec` of 4 structs holding a formatted
//! `String`. The sequential loop, Rayon, orx-parallel and prorata in one run.
//!
//! `cargo run --release --example flat_map_compare -- [rounds] [workers] [filter]`
//! (default: 30 rounds, 2 workers, every version; a filter times only the versions
//! whose name contains it, for a profiler).
//!
//! Rayon and prorata run inside `install` on a pool of `workers` threads, orx-parallel
//! with `num_threads(workers)` on its default pool, the sequential loop on the main
//! thread. A round times every version once, in an order that rotates from round to
//! round; the figure kept is each version's best time over the rounds, so that a shared
//! machine's slow moments hit them alike and drop out. Every result is checked against
//! the sequential one first. The collected vectors are dropped inside the timing, as
//! in the original benchmark (which returns them from the timed closure).

use std::hint::black_box;
use std::time::Instant;

use orx_parallel::{IntoParIter as _, Par as _};

#[path = "common/both.rs"]
mod both;

/// One item of the output: a name made with `format!`, so every item owns a heap block.
#[derive(Debug, PartialEq, Eq)]
struct Output {
    name: String,
}

/// The `n`-th Fibonacci number, wrapping (inputs run to 200).
fn fib(n: usize) -> u32 {
    let (mut a, mut b) = (0u32, 1u32);
    for _ in 0..n {
        (a, b) = (b, a.wrapping_add(b));
    }
    a
}

fn output(x: usize) -> Output {
    let label = match x % 7 {
        0 => "zero-",
        3 => "three-",
        _ => "sth-",
    };
    Output {
        name: format!("{label}-fib-{}", fib(x)),
    }
}

/// What each input becomes: four items.
fn expand(x: &usize) -> Vec<Output> {
    (*x..*x + 4).map(output).collect()
}

/// The inputs: numbers below 201 from a fixed-seed generator (xorshift).
fn inputs(len: usize) -> Vec<usize> {
    both::xorshift(0x9E37_79B9_7F4A_7C15)
        .take(len)
        .map(|x| (x % 201) as usize)
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(30);
    let workers: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let only = args.next();
    let (ours, theirs) = both::pools(workers);
    let input = inputs(131_072);
    let input = &input[..];

    let seq = || input.iter().flat_map(expand).collect::<Vec<_>>();
    let rayon_flat_map = || {
        use rayon::prelude::*;
        theirs.install(|| input.par_iter().flat_map(expand).collect::<Vec<_>>())
    };
    let rayon_flat_map_iter = || {
        use rayon::prelude::*;
        theirs.install(|| input.par_iter().flat_map_iter(expand).collect::<Vec<_>>())
    };
    let orx = || {
        input
            .into_par()
            .num_threads(workers)
            .flat_map(expand)
            .collect::<Vec<_>>()
    };
    let prorata_flat_map = || {
        use prorata::prelude::*;
        ours.install(|| input.par_iter().flat_map(expand).collect::<Vec<_>>())
    };
    let prorata_flat_map_iter = || {
        use prorata::prelude::*;
        ours.install(|| input.par_iter().flat_map_iter(expand).collect::<Vec<_>>())
    };
    let versions: [(&str, &(dyn Fn() -> Vec<Output> + Sync)); 6] = [
        ("sequential", &seq),
        ("rayon flat_map", &rayon_flat_map),
        ("rayon flat_map_iter", &rayon_flat_map_iter),
        ("orx-parallel flat_map", &orx),
        ("prorata flat_map", &prorata_flat_map),
        ("prorata flat_map_iter", &prorata_flat_map_iter),
    ];

    let expected = seq();
    for (name, f) in versions {
        assert!(
            f() == expected,
            "{name}: result differs from the sequential one"
        );
    }
    let mut best = [f64::MAX; 6];
    for round in 0..rounds {
        for k in 0..versions.len() {
            let k = (k + round) % versions.len();
            if only
                .as_ref()
                .is_some_and(|only| !versions[k].0.contains(only.as_str()))
            {
                continue;
            }
            let start = Instant::now();
            drop(black_box(versions[k].1()));
            best[k] = best[k].min(start.elapsed().as_secs_f64());
        }
    }

    println!(
        "{workers} workers, {} inputs x 4 items; best of {rounds} interleaved rounds",
        input.len()
    );
    println!(
        "{:<24} {:>9} {:>8} {:>8} {:>8}",
        "version", "ms", "/ seq", "/ rayon", "/ orx"
    );
    for (k, (name, _)) in versions.iter().enumerate() {
        println!(
            "{name:<24} {:>9.2} {:>8.2} {:>8.2} {:>8.2}",
            best[k] * 1e3,
            best[k] / best[0],
            best[k] / best[1],
            best[k] / best[3],
        );
    }
}
