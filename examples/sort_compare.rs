//! Times std, rayon and prorata sorts side by side and prints the ratios.
//!
//! Each round times the three sorts one after the other on fresh copies of the
//! same input, so load changes on a shared machine hit all three alike; the
//! figure kept is the median over the rounds (11 at 10^7 elements, 21 below).
//!
//! `cargo run --release --example sort_compare [len ...]` (default: 10^7).

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A sort to time: std, rayon or prorata, stable or unstable.
type Sorter<T> = fn(&mut [T]);

/// Median times of `sorts` on `input`, timed round-robin.
fn median_times<T: Clone>(input: &[T], sorts: &[Sorter<T>], rounds: usize) -> Vec<Duration> {
    let mut times = vec![Vec::with_capacity(rounds); sorts.len()];
    for _ in 0..rounds {
        for (sort, samples) in sorts.iter().zip(&mut times) {
            let mut v = input.to_vec();
            let start = Instant::now();
            sort(&mut v);
            samples.push(start.elapsed());
            std::hint::black_box(&v);
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2]
        })
        .collect()
}

/// Prints one line: the three median times and the ratios.
fn compare<T: Clone + Ord + Send>(name: &str, input: &[T], stable: bool) {
    let sorts: [Sorter<T>; 3] = if stable {
        [
            |v| v.sort(),
            rayon::slice::ParallelSliceMut::par_sort,
            prorata::prelude::ParallelSliceMut::par_sort,
        ]
    } else {
        [
            |v| v.sort_unstable(),
            rayon::slice::ParallelSliceMut::par_sort_unstable,
            prorata::prelude::ParallelSliceMut::par_sort_unstable,
        ]
    };
    let rounds = if input.len() >= 5_000_000 { 11 } else { 21 };
    let t = median_times(input, &sorts, rounds);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let (std_t, rayon_t, ours_t) = (ms(t[0]), ms(t[1]), ms(t[2]));
    let kind = if stable { "stable" } else { "unstable" };
    println!(
        "{kind:<8} {name:<14} {:>9} | std {std_t:8.2} ms rayon {rayon_t:8.2} ms prorata {ours_t:8.2} ms | prorata/std {:5.2} prorata/rayon {:5.2} rayon/std {:5.2}",
        input.len(),
        ours_t / std_t,
        ours_t / rayon_t,
        rayon_t / std_t,
    );
}

/// Prints what two threads can do at best on this machine: std's unstable
/// sort of each half of the input, on two threads at once (the result is not
/// sorted; there is no partition or merge at all), against std's whole sort.
fn ceiling(input: &[u64]) {
    let sorts: [Sorter<u64>; 2] = [
        |v| v.sort_unstable(),
        |v| {
            let (low, high) = v.split_at_mut(v.len() / 2);
            std::thread::scope(|s| {
                s.spawn(|| low.sort_unstable());
                high.sort_unstable();
            });
        },
    ];
    let rounds = if input.len() >= 5_000_000 { 11 } else { 21 };
    let t = median_times(input, &sorts, rounds);
    println!(
        "ceiling  {:<14} {:>9} | std {:8.2} ms, its two halves on two threads {:8.2} ms | halves/std {:5.2}",
        "u64 random",
        input.len(),
        t[0].as_secs_f64() * 1e3,
        t[1].as_secs_f64() * 1e3,
        t[1].as_secs_f64() / t[0].as_secs_f64(),
    );
}

/// All the inputs of one length, each sorted both ways.
fn compare_all(len: usize) {
    let mut rng = StdRng::seed_from_u64(42);
    let random: Vec<u64> = (0..len).map(|_| rng.random()).collect();
    let few: Vec<u64> = random.iter().map(|x| x % 16).collect();
    let mut sorted = random.clone();
    sorted.sort_unstable();
    let reversed: Vec<u64> = sorted.iter().rev().copied().collect();
    let strings: Vec<String> = random.iter().map(|x| x.to_string()).collect();
    ceiling(&random);
    for stable in [false, true] {
        compare("u64 random", &random, stable);
        compare("u64 few-dist", &few, stable);
        compare("u64 sorted", &sorted, stable);
        compare("u64 reversed", &reversed, stable);
        if len <= 1_000_000 {
            compare("String random", &strings, stable);
        }
    }
}

fn main() {
    let lens: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse().expect("a length"))
        .collect();
    let lens = if lens.is_empty() {
        vec![10_000_000]
    } else {
        lens
    };
    println!(
        "{} threads; ratios are of median times (lower is faster)",
        prorata::current_num_threads()
    );
    for len in lens {
        compare_all(len);
    }
}
