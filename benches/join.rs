//! Overhead of `join`: fib(n) with no cut-off through `prorata::join`, sequentially, and
//! through `rayon::join`, on a 1-worker and an all-cores pool; then wake-up latency of an
//! idle pool and the CPU an idle pool burns in one second (both printed, not criterion).
//!
//! Run: `cargo bench --bench join`. Quote ratios taken in one run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};

const N: u64 = 25;

/// Joins made by fib(n) through join: one per call with n >= 2, that is fib(n+1) - 1.
fn joins_in_fib(n: u64) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n + 1 {
        (a, b) = (b, a + b);
    }
    a - 1
}

fn fib_seq(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    fib_seq(n - 1) + fib_seq(n - 2)
}

fn fib_prorata(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = prorata::join(|| fib_prorata(n - 1), || fib_prorata(n - 2));
    a + b
}

fn fib_rayon(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = rayon::join(|| fib_rayon(n - 1), || fib_rayon(n - 2));
    a + b
}

fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A prorata pool and a rayon pool of `threads` workers each.
fn pools(threads: usize) -> (prorata::ThreadPool, rayon::ThreadPool) {
    let p = prorata::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build();
    let r = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    (p.unwrap(), r.unwrap())
}

fn bench_fib(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("fib{N}"));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("sequential", |b| b.iter(|| fib_seq(black_box(N))));
    for threads in [1, all_cores()] {
        let (p, r) = pools(threads);
        g.bench_with_input(BenchmarkId::new("prorata", threads), &N, |b, &n| {
            b.iter(|| p.install(|| fib_prorata(black_box(n))))
        });
        g.bench_with_input(BenchmarkId::new("rayon", threads), &N, |b, &n| {
            b.iter(|| r.install(|| fib_rayon(black_box(n))))
        });
    }
    g.finish();
    println!("fib({N}) makes {} joins per run", joins_in_fib(N));
}

fn bench_install_hot(c: &mut Criterion) {
    // Back-to-back installs: the workers are still spinning (no sleep involved).
    let mut g = c.benchmark_group("install_hot");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let p = prorata::ThreadPoolBuilder::new().build().unwrap();
    let r = rayon::ThreadPoolBuilder::new().build().unwrap();
    g.bench_function("prorata", |b| b.iter(|| p.install(|| black_box(1))));
    g.bench_function("rayon", |b| b.iter(|| r.install(|| black_box(1))));
    g.finish();
}

/// The criterion groups of this bench.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench_fib(&mut c);
    bench_install_hot(&mut c);
}

/// Median time for `run` after the pool has been idle long enough for its workers to
/// sleep.
fn cold_latency(mut run: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..100)
        .map(|_| {
            std::thread::sleep(Duration::from_millis(5));
            let t = Instant::now();
            run();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// CPU time (ns) used so far by all threads of this process, from /proc.
fn process_cpu_ns() -> Option<u64> {
    let mut total = 0;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// CPU used by the process over one second of idleness (all pools built, nothing to do).
fn idle_cpu(label: &str) {
    std::thread::sleep(Duration::from_millis(200)); // let the workers fall asleep
    let (Some(before), t) = (process_cpu_ns(), Instant::now()) else {
        println!("idle CPU: /proc/self/task/*/schedstat not readable");
        return;
    };
    std::thread::sleep(Duration::from_secs(1));
    let used = process_cpu_ns().unwrap_or(before) - before;
    let wall = t.elapsed().as_nanos() as f64;
    println!(
        "idle CPU over 1 s, {label}: {:.3} ms ({:.4}% of one core)",
        used as f64 / 1e6,
        100.0 * used as f64 / wall
    );
}

fn wake_up_and_idle() {
    let n = all_cores();
    {
        let p = prorata::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap();
        p.install(|| fib_prorata(20));
        let lp = cold_latency(|| {
            black_box(p.install(|| black_box(1)));
        });
        idle_cpu(&format!("prorata pool of {n}"));
        drop(p);
        let r = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap();
        r.install(|| fib_rayon(20));
        let lr = cold_latency(|| {
            black_box(r.install(|| black_box(1)));
        });
        idle_cpu(&format!("rayon pool of {n}"));
        println!(
            "wake-up latency (install into an idle pool of {n}, median of 100): prorata {:?}, rayon {:?}, ratio {:.2}",
            lp,
            lr,
            lp.as_secs_f64() / lr.as_secs_f64()
        );
    }
    let p16 = prorata::ThreadPoolBuilder::new()
        .num_threads(16)
        .build()
        .unwrap();
    p16.install(|| fib_prorata(20));
    idle_cpu("prorata pool of 16");
}

/// Interleaved runs (prorata, rayon, sequential, in turn, 41 rounds): the medians and
/// their ratios are robust to the load of a shared machine drifting during the run.
fn paired_fib() {
    fn time(f: impl FnOnce() -> u64) -> f64 {
        // Let the other pool's workers fall asleep so they do not compete for the cores.
        std::thread::sleep(Duration::from_millis(3));
        let t = Instant::now();
        black_box(f());
        t.elapsed().as_secs_f64()
    }
    fn median(mut v: Vec<f64>) -> f64 {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    }
    let joins = joins_in_fib(N) as f64;
    for threads in [1, all_cores()] {
        let (p, r) = pools(threads);
        let (mut tp, mut tr, mut ts) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..41 {
            tp.push(time(|| p.install(|| fib_prorata(black_box(N)))));
            tr.push(time(|| r.install(|| fib_rayon(black_box(N)))));
            ts.push(time(|| fib_seq(black_box(N))));
        }
        let (mp, mr, ms) = (median(tp), median(tr), median(ts));
        println!(
            "paired fib({N}), {threads} worker(s): prorata/rayon {:.2}, prorata/sequential {:.2}, rayon/sequential {:.2}; ns per join: prorata {:.1}, rayon {:.1}",
            mp / mr,
            mp / ms,
            mr / ms,
            mp * 1e9 / joins,
            mr * 1e9 / joins
        );
    }
}

/// `PRORATA_CALLGRIND=seq|prorata|rayon`: run fib once on a 1-worker pool and exit, for
/// instruction counts under `valgrind --tool=callgrind` (repeatable, unlike timings).
fn callgrind_mode(which: &str) {
    let p = prorata::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let r = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let v = match which {
        "seq" => fib_seq(black_box(N)),
        "prorata" => p.install(|| fib_prorata(black_box(N))),
        _ => r.install(|| fib_rayon(black_box(N))),
    };
    println!("{which}: fib({N}) = {v}");
}

fn main() {
    if let Ok(which) = std::env::var("PRORATA_CALLGRIND") {
        return callgrind_mode(&which);
    }
    benches();
    paired_fib();
    wake_up_and_idle();
    Criterion::default().configure_from_args().final_summary();
}
