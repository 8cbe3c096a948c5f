//! Times std, rayon and prorata sorts side by side (median of 5 runs each) and
//! prints the ratios. Run with `cargo run --release --example sort_compare [len]`.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Median time of 5 runs of `sort` on fresh copies of `input`.
fn median_time<T: Clone>(input: &[T], sort: impl Fn(&mut Vec<T>)) -> Duration {
    let mut times: Vec<Duration> = (0..5)
        .map(|_| {
            let mut v = input.to_vec();
            let start = Instant::now();
            sort(&mut v);
            let t = start.elapsed();
            std::hint::black_box(&v);
            t
        })
        .collect();
    times.sort();
    times[2]
}

/// Prints one line: the three times and the ratios.
fn compare<T: Clone + Ord + Send>(name: &str, input: &[T], stable: bool) {
    let (std_t, rayon_t, ours_t) = if stable {
        (
            median_time(input, |v| v.sort()),
            median_time(input, |v| {
                rayon::slice::ParallelSliceMut::par_sort(&mut v[..])
            }),
            median_time(input, |v| {
                prorata::prelude::ParallelSliceMut::par_sort(&mut v[..])
            }),
        )
    } else {
        (
            median_time(input, |v| v.sort_unstable()),
            median_time(input, |v| {
                rayon::slice::ParallelSliceMut::par_sort_unstable(&mut v[..])
            }),
            median_time(input, |v| {
                prorata::prelude::ParallelSliceMut::par_sort_unstable(&mut v[..])
            }),
        )
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name:<28} std {:8.2} ms  rayon {:8.2} ms  prorata {:8.2} ms | std/prorata {:5.2}x  std/rayon {:5.2}x  prorata/rayon {:5.2}",
        ms(std_t),
        ms(rayon_t),
        ms(ours_t),
        ms(std_t) / ms(ours_t),
        ms(std_t) / ms(rayon_t),
        ms(ours_t) / ms(rayon_t),
    );
}

fn main() {
    let len: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("length"))
        .unwrap_or(10_000_000);
    let mut rng = StdRng::seed_from_u64(42);
    let random: Vec<u64> = (0..len).map(|_| rng.r#gen()).collect();
    println!("{} threads, {len} elements", prorata::current_num_threads());
    for stable in [false, true] {
        let kind = if stable { "stable" } else { "unstable" };
        compare(&format!("{kind} random u64"), &random, stable);
        let few: Vec<u64> = random.iter().map(|x| x % 16).collect();
        compare(&format!("{kind} few-distinct u64"), &few, stable);
        let mut sorted = random.clone();
        sorted.sort_unstable();
        compare(&format!("{kind} sorted u64"), &sorted, stable);
        sorted.reverse();
        compare(&format!("{kind} reversed u64"), &sorted, stable);
        let strings: Vec<String> = random[..len / 10].iter().map(|x| x.to_string()).collect();
        compare(&format!("{kind} String (len/10)"), &strings, stable);
    }
}
