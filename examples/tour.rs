//! A short tour of prorata. Run with `cargo run --release --example tour`.
//!
//! Each stop shows one capability, checks its result against sequential std code,
//! and prints the parallel / sequential time ratio measured in this run.

use prorata::prelude::*;
use std::time::{Duration, Instant};

fn main() {
    println!(
        "prorata tour: {} workers in the global pool\n",
        prorata::current_num_threads()
    );
    join_stop();
    iterator_stop();
    text_stop();
}

/// Runs `f` five times and returns the median duration and the last result.
fn time<R>(mut f: impl FnMut() -> R) -> (Duration, R) {
    let mut runs: Vec<(Duration, R)> = (0..5)
        .map(|_| {
            let start = Instant::now();
            let out = f();
            (start.elapsed(), out)
        })
        .collect();
    runs.sort_by_key(|(d, _)| *d);
    runs.swap_remove(2)
}

fn report(what: &str, parallel: Duration, sequential: Duration) {
    let ratio = parallel.as_secs_f64() / sequential.as_secs_f64();
    println!("  {what:<44} parallel/sequential time = {ratio:.2}");
}

fn fib_join(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    let (a, b) = prorata::join(|| fib_join(n - 1), || fib_join(n - 2));
    a + b
}

fn fib_seq(n: u32) -> u64 {
    if n < 2 {
        n as u64
    } else {
        fib_seq(n - 1) + fib_seq(n - 2)
    }
}

fn join_stop() {
    println!("1. join: fork-join with no cut-off (every call forks)");
    let (par, a) = time(|| fib_join(30));
    let (seq, b) = time(|| fib_seq(30));
    assert_eq!(a, b);
    report("fib(30) through join (1.3M joins)", par, seq);
    // fib(n) makes fib(n + 1) - 1 calls that fork.
    let joins = fib_seq(31) - 1;
    let per_join = (par.as_nanos() as f64 - seq.as_nanos() as f64) / joins as f64;
    println!("  about {per_join:.1} ns of overhead per join\n");
}

fn iterator_stop() {
    println!("2. parallel iterators: `use prorata::prelude::*` instead of rayon's");
    let v: Vec<u64> = (0..10_000_000).collect();
    let (par, a) = time(|| v.par_iter().map(|x| x * x % 7).sum::<u64>());
    let (seq, b) = time(|| v.iter().map(|x| x * x % 7).sum::<u64>());
    assert_eq!(a, b);
    report("map().sum() over 10^7 u64", par, seq);

    let (par, a) = time(|| {
        v.par_iter()
            .filter(|x| *x % 3 == 0)
            .map(|x| x / 3)
            .collect::<Vec<_>>()
    });
    let (seq, b) = time(|| {
        v.iter()
            .filter(|x| *x % 3 == 0)
            .map(|x| x / 3)
            .collect::<Vec<_>>()
    });
    assert_eq!(a, b);
    report("filter().map().collect() over 10^7", par, seq);

    let first = v.par_iter().position_first(|&x| x > 1234 && x % 1000 == 0);
    assert_eq!(first, Some(2000));
    println!("  position_first, find_first, ... return the sequentially first match: {first:?}\n");
}

fn text_stop() {
    println!("3. slices and strings");
    let text = "the quick brown fox jumps over the lazy dog\n".repeat(200_000);
    let (par, a) = time(|| text.par_split_whitespace().filter(|w| w.len() == 5).count());
    let (seq, b) = time(|| text.split_whitespace().filter(|w| w.len() == 5).count());
    assert_eq!(a, b);
    report("words of 5 letters in 8.8 MB of text", par, seq);
    let sums: Vec<u64> = (0..1_000u64)
        .collect::<Vec<_>>()
        .par_chunks(100)
        .map(|c| c.iter().sum())
        .collect();
    println!("  par_chunks(100) sums: {:?} ...\n", &sums[..3]);
}
