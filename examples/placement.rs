//! Where the OS runs a pool's workers: how often a round of fib through `join` on a
//! 2-worker pool runs all on one core, for prorata and Rayon, with one pool alone and
//! with three pools in turn.
//!
//! Each round records, in its sequential leaves, the CPUs that ran them
//! (`sched_getcpu`) and the workers that ran them. A round on one CPU with both workers
//! means the OS put the two threads on one core and left them there (each ran a moment
//! ago, so the kernel's load balancer counts it cache-hot and does not move it); a round
//! with one worker means the second never took part.
//!
//! `cargo run --release --example placement -- [ROUNDS]` (Linux; default 300 rounds).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// CPUs and workers that ran a leaf in this round (bit masks).
static CPUS: AtomicU64 = AtomicU64::new(0);
static WORKERS: AtomicU64 = AtomicU64::new(0);

#[cfg(target_os = "linux")]
fn current_cpu() -> u32 {
    unsafe extern "C" {
        fn sched_getcpu() -> i32;
    }
    // SAFETY: a plain query of the calling thread's CPU, with no arguments.
    let cpu = unsafe { sched_getcpu() };
    cpu.clamp(0, 63) as u32
}

#[cfg(not(target_os = "linux"))]
fn current_cpu() -> u32 {
    0
}

fn note_leaf() {
    CPUS.fetch_or(1 << current_cpu(), Ordering::Relaxed);
    let worker = prorata::current_thread_index()
        .or_else(rayon::current_thread_index)
        .unwrap_or(63)
        .min(63);
    WORKERS.fetch_or(1 << worker, Ordering::Relaxed);
}

fn fib_seq(n: u32) -> u64 {
    if n < 2 {
        u64::from(n)
    } else {
        fib_seq(n - 1) + fib_seq(n - 2)
    }
}

fn fib_prorata(n: u32) -> u64 {
    if n < 12 {
        note_leaf();
        return fib_seq(n);
    }
    let (a, b) = prorata::join(|| fib_prorata(n - 1), || fib_prorata(n - 2));
    a + b
}

fn fib_rayon(n: u32) -> u64 {
    if n < 12 {
        note_leaf();
        return fib_seq(n);
    }
    let (a, b) = rayon::join(|| fib_rayon(n - 1), || fib_rayon(n - 2));
    a + b
}

/// Round counts of one pool: all, on one CPU with both workers, with one worker only;
/// and the median times (ms) of the rounds on two CPUs and on one.
#[derive(Default)]
struct Tally {
    rounds: usize,
    one_cpu: usize,
    one_worker: usize,
    two_cpus_ms: Vec<f64>,
    one_cpu_ms: Vec<f64>,
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn run(tally: &mut Tally, f: impl FnOnce() -> u64) {
    CPUS.store(0, Ordering::Relaxed);
    WORKERS.store(0, Ordering::Relaxed);
    let start = Instant::now();
    black_box(f());
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let (cpus, workers) = (
        CPUS.load(Ordering::Relaxed),
        WORKERS.load(Ordering::Relaxed),
    );
    tally.rounds += 1;
    if workers.count_ones() < 2 {
        tally.one_worker += 1;
    } else if cpus.count_ones() < 2 {
        tally.one_cpu += 1;
        tally.one_cpu_ms.push(ms);
    } else {
        tally.two_cpus_ms.push(ms);
    }
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(300, |a| a.parse().expect("a round count"));
    let prorata_pool = || {
        prorata::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    };
    let rayon_pool = || {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    };
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    {
        let a = prorata_pool();
        for _ in 0..rounds {
            run(tallies.entry("prorata, alone").or_default(), || {
                a.install(|| fib_prorata(black_box(30)))
            });
        }
    }
    {
        let r = rayon_pool();
        for _ in 0..rounds {
            run(tallies.entry("Rayon, alone").or_default(), || {
                r.install(|| fib_rayon(black_box(30)))
            });
        }
    }
    {
        let (a, b, r) = (prorata_pool(), prorata_pool(), rayon_pool());
        for _ in 0..rounds {
            run(
                tallies.entry("prorata A, three pools in turn").or_default(),
                || a.install(|| fib_prorata(black_box(30))),
            );
            run(
                tallies.entry("prorata B, three pools in turn").or_default(),
                || b.install(|| fib_prorata(black_box(30))),
            );
            run(
                tallies.entry("Rayon, three pools in turn").or_default(),
                || r.install(|| fib_rayon(black_box(30))),
            );
        }
    }
    println!("fib(30) through join on 2-worker pools, {rounds} rounds each");
    println!(
        "| pool | rounds on one CPU, both workers | rounds with one worker | ms, two CPUs | ms, one CPU |"
    );
    println!("|---|---|---|---|---|");
    for (name, t) in &mut tallies {
        println!(
            "| {name} | {} of {} | {} | {:.2} | {:.2} |",
            t.one_cpu,
            t.rounds,
            t.one_worker,
            median(&mut t.two_cpus_ms),
            median(&mut t.one_cpu_ms)
        );
    }
}
