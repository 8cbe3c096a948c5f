//! A short tour of prorata. Run with `cargo run --release --example tour`.
//!
//! Each stop shows one capability, checks its result against sequential std code,
//! and prints the parallel / sequential time ratio measured in this run.

use prorata::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn main() {
    println!(
        "prorata tour: {} workers in the global pool\n",
        prorata::current_num_threads()
    );
    join_stop();
    iterator_stop();
    text_stop();
    sort_stop();
    shares_stop();
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

fn sort_stop() {
    println!("4. parallel sorts (10^7 random u64)");
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let input: Vec<u64> = (0..10_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect();
    let sorted_by = |sort: &dyn Fn(&mut Vec<u64>)| {
        time(|| {
            let mut v = input.clone();
            sort(&mut v);
            v
        })
    };
    let (par, a) = sorted_by(&|v| v.par_sort_unstable());
    let (seq, b) = sorted_by(&|v| v.sort_unstable());
    assert_eq!(a, b);
    report("par_sort_unstable vs sort_unstable", par, seq);
    let (par, a) = sorted_by(&|v| v.par_sort());
    let (seq, b) = sorted_by(&|v| v.sort());
    assert_eq!(a, b);
    report("par_sort (stable) vs sort", par, seq);
    println!("  (times include cloning the input)\n");
}

/// About a microsecond of work the optimiser cannot remove.
fn work(i: u64) -> u64 {
    (0..200).fold(i, |x, _| {
        std::hint::black_box(x.wrapping_mul(6364136223846793005) + 1)
    })
}

fn shares_stop() {
    println!("5. ticket shares: two computations compete for one pool's cores");
    let pool = prorata::ThreadPoolBuilder::new().build().unwrap();
    let tickets = [300, 100];
    let shares: Vec<prorata::Share> = tickets.iter().map(|&t| pool.share(t).unwrap()).collect();
    let done: Vec<AtomicU64> = tickets.iter().map(|_| AtomicU64::new(0)).collect();
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        for (share, count) in shares.iter().zip(&done) {
            let stop = &stop;
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    share.install(|| {
                        (0..200_000u64).into_par_iter().for_each(|i| {
                            if !stop.load(Ordering::Relaxed) {
                                std::hint::black_box(work(i));
                                count.fetch_add(1, Ordering::Relaxed);
                            }
                        })
                    });
                }
            });
        }
        std::thread::sleep(Duration::from_secs(2));
        stop.store(true, Ordering::Relaxed);
    });
    let total: u64 = done.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    let ticket_total: u32 = tickets.iter().sum();
    for (t, c) in tickets.iter().zip(&done) {
        let got = c.load(Ordering::Relaxed) as f64 / total as f64;
        let want = *t as f64 / ticket_total as f64;
        let bar = "#".repeat((got * 40.0).round() as usize);
        println!(
            "  {t:>4} tickets: target {:>5.1}%  got {:>5.1}%  {bar}",
            want * 100.0,
            got * 100.0
        );
    }
    println!("  (`cargo run --release --example shares` shows more: 9:1, 3:2:1, currencies)");
}
