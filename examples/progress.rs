//! Progress bars on parallel iterators (feature `progress`): first one bar over a
//! parallel prime count, then two shares of one pool, 3:1, each counting primes with its
//! own bar: the first gets three times the core time of the second until it is done,
//! then the second gets every core and speeds up.
//!
//! `cargo run --release --features progress --example progress -- [limit]`

use prorata::prelude::*;
use prorata::progress::{MultiProgress, ParallelProgressIterator, ProgressBar, ProgressStyle};

/// Trial division: a few microseconds per number near a million, and uneven (even
/// numbers are quick), so the pieces of the work take different times.
fn is_prime(n: u32) -> bool {
    let n = u64::from(n);
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

fn style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix:>12} [{elapsed_precise}] {wide_bar} {pos}/{len}")
        .expect("a valid template")
}

/// Counts the primes below `limit`, counting the numbers checked into `bar`.
fn count_primes(limit: u32, bar: ProgressBar) -> usize {
    (0..limit)
        .into_par_iter()
        .progress_with(bar)
        .filter(|&n| is_prime(n))
        .count()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let limit: u32 = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 3_000_000,
    };

    // One bar: its length is the iterator's (a range of u32 is indexed, as in Rayon).
    let primes = (0..limit)
        .into_par_iter()
        .progress_with_style(style())
        .with_prefix("one bar")
        .filter(|&n| is_prime(n))
        .count();
    println!("{primes} primes below {limit}");

    // Two shares of one pool, 3:1, the same work each, one bar each.
    let pool = prorata::ThreadPoolBuilder::new().build()?;
    let (fast, slow) = (pool.share(300)?, pool.share(100)?);
    let bars = MultiProgress::new();
    let bar = |name: &'static str| {
        let bar = bars.add(ProgressBar::new(limit.into()).with_style(style()));
        bar.with_prefix(name)
    };
    let (fast_bar, slow_bar) = (bar("300 tickets"), bar("100 tickets"));
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| fast.install(|| count_primes(limit, fast_bar)));
        let b = s.spawn(|| slow.install(|| count_primes(limit, slow_bar)));
        (a.join().expect("no panic"), b.join().expect("no panic"))
    });
    assert_eq!((a, b), (primes, primes));
    println!(
        "both shares found {primes} primes; core time: {:?} and {:?}",
        fast.stats().core_time,
        slow.stats().core_time
    );
    Ok(())
}
