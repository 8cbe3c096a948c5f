//! A short tour of prorata. Run with `cargo run --release --example tour`.
//!
//! Each stop shows one capability, checks its result against sequential std code,
//! and prints how long the parallel version takes against the sequential one, as a
//! user would see it: after a warm-up run of each, in interleaved rounds (parallel
//! first in one round, sequential first in the next), the ratio of the median times
//! and the ratio of the best times. On a machine shared with other work the median
//! moves from run to run; the best is the steadier figure.

use prorata::prelude::*;
use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Interleaved rounds per row, after one warm-up run of each version.
const ROUNDS: usize = 9;

fn main() {
    let workers = prorata::current_num_threads();
    println!("prorata tour: {workers} workers in the global pool");
    println!("parallel / sequential time: median and best of {ROUNDS} interleaved rounds");
    if workers < 2 {
        println!("(with one core, parallel code cannot beat sequential code)");
    }
    println!();
    join_stop();
    iterator_stop();
    text_stop();
    sort_stop();
    shares_stop();
    serving_stop();
    control_stop();
}

/// Runs `f` once and returns how long it took and its result.
fn timed<R>(f: impl FnOnce() -> R) -> (Duration, R) {
    let start = Instant::now();
    let out = f();
    (start.elapsed(), out)
}

/// Median and best of some durations.
fn median_best(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[0])
}

/// Times a parallel and a sequential version of the same computation: one warm-up run
/// of each, then `ROUNDS` rounds alternating which goes first, each result checked
/// against the other. Each closure returns the time of what it measured (so that
/// preparing an input can stay outside) and its result. Returns the median times.
fn compare<R: PartialEq + Debug>(
    what: &str,
    mut par: impl FnMut() -> (Duration, R),
    mut seq: impl FnMut() -> (Duration, R),
) -> (Duration, Duration) {
    assert_eq!(par().1, seq().1, "{what}");
    let (mut par_times, mut seq_times) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let ((tp, p), (ts, s)) = if round % 2 == 0 {
            let p = par();
            (p, seq())
        } else {
            let s = seq();
            (par(), s)
        };
        assert_eq!(p, s, "{what}");
        par_times.push(tp);
        seq_times.push(ts);
    }
    let (par_median, par_best) = median_best(par_times);
    let (seq_median, seq_best) = median_best(seq_times);
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!(
        "  {what:<46} median {:.2}  best {:.2}  ({:.1} ms against {:.1} ms)",
        ratio(par_median, seq_median),
        ratio(par_best, seq_best),
        par_median.as_secs_f64() * 1e3,
        seq_median.as_secs_f64() * 1e3,
    );
    (par_median, seq_median)
}

/// fib(n) through `join`, sequential below `cutoff` (0: every call forks).
fn fib_join(n: u32, cutoff: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    if n < cutoff {
        return fib_seq(n);
    }
    let (a, b) = prorata::join(|| fib_join(n - 1, cutoff), || fib_join(n - 2, cutoff));
    a + b
}

fn fib_seq(n: u32) -> u64 {
    if n < 2 {
        n as u64
    } else {
        fib_seq(std::hint::black_box(n - 1)) + fib_seq(n - 2)
    }
}

fn join_stop() {
    println!("1. join: fork-join recursion");
    compare(
        "fib(32) through join, sequential below 20",
        || timed(|| fib_join(32, 20)),
        || timed(|| fib_seq(32)),
    );
    // What a join costs, where nothing else hides it: one worker, every call forks.
    let one = prorata::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let n = 25;
    let (par, seq) = compare(
        "fib(25), every call forks, on 1 worker",
        || one.install(|| timed(|| fib_join(n, 0))),
        || timed(|| fib_seq(n)),
    );
    // fib(n) makes fib(n + 1) - 1 calls that fork.
    let joins = fib_seq(n + 1) - 1;
    let per_join = (par.as_nanos() as f64 - seq.as_nanos() as f64) / joins as f64;
    println!("  on 1 worker a join costs about {per_join:.1} ns beyond the function call\n");
}

fn iterator_stop() {
    println!("2. parallel iterators: `use prorata::prelude::*` instead of rayon's");
    let v: Vec<u64> = (0..10_000_000).collect();
    compare(
        "map().sum() over 10^7 u64",
        || timed(|| v.par_iter().map(|x| x * x % 7).sum::<u64>()),
        || timed(|| v.iter().map(|x| x * x % 7).sum::<u64>()),
    );
    compare(
        "filter().map().collect() over 10^7",
        || {
            timed(|| {
                v.par_iter()
                    .filter(|x| *x % 3 == 0)
                    .map(|x| x / 3)
                    .collect::<Vec<_>>()
            })
        },
        || {
            timed(|| {
                v.iter()
                    .filter(|x| *x % 3 == 0)
                    .map(|x| x / 3)
                    .collect::<Vec<_>>()
            })
        },
    );
    let first = v.par_iter().position_first(|&x| x > 1234 && x % 1000 == 0);
    assert_eq!(first, Some(2000));
    println!("  position_first, find_first, ... return the sequentially first match: {first:?}\n");
}

fn text_stop() {
    println!("3. slices and strings");
    let text = "the quick brown fox jumps over the lazy dog\n".repeat(200_000);
    let five = |line: &str| line.split_whitespace().filter(|w| w.len() == 5).count();
    compare(
        "words of 5 letters, line by line, in 8.8 MB",
        || timed(|| text.par_lines().map(five).sum::<usize>()),
        || timed(|| text.lines().map(five).sum::<usize>()),
    );
    compare(
        "the same, par_split_whitespace() of it all",
        || timed(|| text.par_split_whitespace().filter(|w| w.len() == 5).count()),
        || timed(|| text.split_whitespace().filter(|w| w.len() == 5).count()),
    );
    let sums: Vec<u64> = (0..1_000u64)
        .collect::<Vec<_>>()
        .par_chunks(100)
        .map(|c| c.iter().sum())
        .collect();
    println!("  par_chunks(100) sums: {:?} ...\n", &sums[..3]);
}

fn sort_stop() {
    println!("4. parallel sorts (10^6 random u64; the copy of the input is not timed)");
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let input: Vec<u64> = (0..1_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect();
    let sorted_by = |input: &Vec<u64>, sort: &dyn Fn(&mut Vec<u64>)| {
        let mut v = input.clone();
        let (t, ()) = timed(|| sort(&mut v));
        (t, v)
    };
    compare(
        "par_sort_unstable against sort_unstable",
        || sorted_by(&input, &|v| v.par_sort_unstable()),
        || sorted_by(&input, &|v| v.sort_unstable()),
    );
    compare(
        "par_sort (stable) against sort",
        || sorted_by(&input, &|v| v.par_sort()),
        || sorted_by(&input, &|v| v.sort()),
    );
    // A descending input is checked and reversed in one pass.
    let mut reversed = input.clone();
    reversed.sort_unstable_by(|a, b| b.cmp(a));
    compare(
        "the same in descending order, par_sort",
        || sorted_by(&reversed, &|v| v.par_sort()),
        || sorted_by(&reversed, &|v| v.sort()),
    );
    println!();
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
    println!(
        "  (`cargo run --release --example latency`: a short query in a 900-ticket share stays fast\n   while a 100-ticket background runs, beside Rayon)"
    );
}

/// The smallest executor: polls `f` on this thread, parking until it is woken. A
/// server would `.await` the same futures on tokio.
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = std::sync::Arc::new(Unpark(std::thread::current())).into();
    let mut cx = std::task::Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}

fn serving_stop() {
    println!("\n6. serving: a share per request, awaited from async code");
    let pool = prorata::ThreadPoolBuilder::new().build().unwrap();
    let tenant = pool.share(900).unwrap();
    let requests = 1000u64;
    let t = Instant::now();
    for r in 0..requests {
        // Making the share starts no thread; `spawn_future` runs the closure on the
        // pool's workers under the share's tickets, and the future gives its result.
        let request = tenant.share(100).unwrap();
        let sum = block_on(
            request
                .spawn_future(move || (0..10_000u64).into_par_iter().map(|i| i ^ r).sum::<u64>()),
        );
        assert_eq!(sum, (0..10_000u64).map(|i| i ^ r).sum::<u64>());
    }
    let per = t.elapsed() / requests as u32;
    println!(
        "  {requests} requests, each its own share of the tenant's: {per:?} a request, all correct"
    );
    println!(
        "  (`cargo run --release --example server`: tokio + axum, a share per request, beside Rayon\n   from spawn_blocking)"
    );
}

fn control_stop() {
    println!("\n7. control: a ceiling, a blocked worker, a lock held around a parallel call");
    let pool = prorata::ThreadPoolBuilder::new().build().unwrap();
    // A share that may hold one core at most, even alone on an idle pool.
    let compaction = pool.share(100).unwrap();
    compaction.set_max_cores(Some(1)).unwrap();
    let t = Instant::now();
    let sum = compaction.install(|| {
        (0..4_000_000u64)
            .into_par_iter()
            .map(|i| work(i) & 1)
            .sum::<u64>()
    });
    assert_eq!(sum, (0..4_000_000u64).map(|i| work(i) & 1).sum::<u64>());
    let cores = compaction.stats().core_time.as_secs_f64() / t.elapsed().as_secs_f64();
    println!(
        "  a share capped at 1 core, alone on {} workers: used {cores:.2} cores",
        pool.current_num_threads()
    );
    // The only worker waits for a message that another job of its pool sends: a plain
    // `recv()` would never return; inside `block_in_place` a relief thread runs the job.
    let one = prorata::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let rx = std::sync::Mutex::new(rx);
    let got = one.install(|| {
        prorata::scope(|s| {
            s.spawn(move |_| tx.send(42).unwrap());
            prorata::block_in_place(|| rx.lock().unwrap().recv().unwrap())
        })
    });
    println!("  a 1-worker pool's only worker blocked on a message its pool sends: got {got}");
    // Rayon #592: each item holds a lock around an inner parallel loop; without
    // `isolate` a waiting holder may start another item, which blocks on the lock.
    let lock = std::sync::Mutex::new(0u64);
    pool.install(|| {
        (0..64u64).into_par_iter().for_each(|i| {
            let mut total = lock.lock().unwrap();
            *total +=
                prorata::isolate(|| (0..10_000u64).into_par_iter().map(|x| x ^ i).sum::<u64>());
        })
    });
    let want: u64 = (0..64u64)
        .map(|i| (0..10_000u64).map(|x| x ^ i).sum::<u64>())
        .sum();
    assert_eq!(lock.into_inner().unwrap(), want);
    println!("  64 items each holding a lock around an isolated parallel loop: done, sum checked");
    pool.wait();
    println!("  (`ThreadPool::wait` ended the pool and joined its threads)");
}
