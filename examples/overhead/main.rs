//! The overhead of the pool, prorata beside Rayon and sequential code, in one run.
//!
//! `cargo run --release --example overhead [rounds] [--trees] [--large]`
//!
//! Each row times its versions in interleaved rounds and prints ratios of the median
//! times, so that slow drifts of a shared machine hit every version alike. The tree
//! rows (chili's benchmark: the sum of a balanced binary tree of boxed nodes, one
//! `join` per node) put chili, the heartbeat scheduler, beside prorata and Rayon, and
//! take the best of the rounds; `--trees` runs only them, `--large` adds the tree of
//! 2^24 - 1 nodes (half a gigabyte, several seconds a round). The last column is the
//! sequential sum that visits the right child first, the order in which chili runs a
//! join it does not share: on trees larger than the caches it walks memory backwards
//! in address order (the tree is allocated in post-order), which is what puts chili
//! below the left-first sequential time there. Instruction
//! counts per `join` come from `ci/join_instructions.sh` (callgrind), not from here.

use std::hint::black_box;
use std::time::{Duration, Instant};

mod workloads;

use workloads::{Node, heartbeat, ours, sequential, theirs};

/// Pools of `n` workers of both libraries.
fn pools(n: usize) -> (prorata::ThreadPool, rayon::ThreadPool) {
    let ours = prorata::ThreadPoolBuilder::new().num_threads(n).build();
    let theirs = rayon::ThreadPoolBuilder::new().num_threads(n).build();
    (ours.unwrap(), theirs.unwrap())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let rounds: usize = args.iter().find_map(|s| s.parse().ok()).unwrap_or(9);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    trees(rounds, cores, flag("--large"));
    if flag("--trees") {
        return;
    }
    println!("{cores} cores; ratios of median times over {rounds} interleaved rounds");
    println!(
        "{:<52} {:>13} {:>11} {:>11}",
        "workload", "prorata/rayon", "prorata/seq", "rayon/seq"
    );
    if cores > 1 {
        machine(rounds, cores);
    }
    for workers in [1, cores] {
        let (p, r) = pools(workers);
        row(
            rounds,
            &format!("fib(32) through join in install, {workers} worker(s)"),
            || sequential::fib(black_box(32)),
            || p.install(|| ours::fib(black_box(32))),
            || r.install(|| theirs::fib(black_box(32))),
        );
    }
    let (p, r) = pools(cores);
    let small: Vec<u64> = (0..1_000).collect();
    row(
        rounds,
        "1000 x map().sum() of 10^3 from a worker",
        || {
            (0..1000)
                .map(|_| sequential::map_sum(black_box(&small)))
                .sum::<u64>()
        },
        || {
            p.install(|| {
                (0..1000)
                    .map(|_| ours::map_sum(black_box(&small)))
                    .sum::<u64>()
            })
        },
        || {
            r.install(|| {
                (0..1000)
                    .map(|_| theirs::map_sum(black_box(&small)))
                    .sum::<u64>()
            })
        },
    );
    let mid: Vec<u64> = (0..100_000).collect();
    row(
        rounds,
        "map().sum() of 10^5 through install from outside",
        || sequential::map_sum(black_box(&mid)),
        || p.install(|| ours::map_sum(black_box(&mid))),
        || r.install(|| theirs::map_sum(black_box(&mid))),
    );
    let big: Vec<u64> = (0..10_000_000).collect();
    row(
        rounds,
        "map().sum() of 10^7 through install",
        || sequential::map_sum(black_box(&big)),
        || p.install(|| ours::map_sum(black_box(&big))),
        || r.install(|| theirs::map_sum(black_box(&big))),
    );
    row_kept(
        rounds,
        "filter().map().collect() of 10^7, results kept",
        || sequential::filter_collect(black_box(&big)),
        || p.install(|| ours::filter_collect(black_box(&big))),
        || r.install(|| theirs::filter_collect(black_box(&big))),
    );
    row_kept(
        rounds,
        "map().collect() of 10^7, results kept",
        || sequential::map_collect(black_box(&big)),
        || p.install(|| ours::map_collect(black_box(&big))),
        || r.install(|| theirs::map_collect(black_box(&big))),
    );
    row(
        rounds,
        "filter().count() of 10^7",
        || sequential::filter_count(black_box(&big)),
        || p.install(|| ours::filter_count(black_box(&big))),
        || r.install(|| theirs::filter_count(black_box(&big))),
    );
    drop(big);
    round_trip(rounds, &p, &r);
    coarse(rounds.min(3));
    idle_cpu(&p, &r);
}

/// chili's benchmark: the sum of balanced trees of `2^layers - 1` boxed nodes through a
/// `join` per node, on 1 and 2 workers (`cores` at most), best of `rounds` interleaved
/// rounds whose first version turns.
fn trees(rounds: usize, cores: usize, large: bool) {
    println!("tree sums, one join per node; ratios of best times over {rounds} interleaved rounds");
    println!(
        "{:<8} {:>7} {:>10} {:>11} {:>9} {:>9} {:>13} {:>12}",
        "nodes",
        "workers",
        "seq",
        "prorata/seq",
        "rayon/seq",
        "chili/seq",
        "prorata/chili",
        "seq-right/seq"
    );
    let sizes: &[u32] = if large {
        &[10, 16, 20, 24]
    } else {
        &[10, 16, 20]
    };
    for &layers in sizes {
        let tree = Node::tree(layers);
        let nodes = (1u64 << layers) - 1;
        let mut counts = vec![1, 2.min(cores), cores];
        counts.dedup();
        for workers in counts {
            let (p, r) = pools(workers);
            let c = chili::ThreadPool::with_config(chili::Config {
                thread_count: std::num::NonZero::new(workers),
                ..Default::default()
            });
            // The tree is read by every version, each call from this thread: into the
            // pool by `install`, into chili's by a new scope (chili's caller is one of
            // its workers).
            let tree = &tree;
            let versions: [&dyn Fn() -> u64; 5] = [
                &|| sequential::tree_sum(black_box(tree)),
                &|| p.install(|| ours::tree_sum(black_box(tree))),
                &|| r.install(|| theirs::tree_sum(black_box(tree))),
                &|| heartbeat::tree_sum(black_box(tree), &mut c.scope()),
                &|| sequential::tree_sum_right_first(black_box(tree)),
            ];
            for v in &versions {
                assert_eq!(v(), nodes, "tree of {nodes}: a version disagrees");
            }
            let reps = reps_for(&versions[0]);
            let mut best = [f64::INFINITY; 5];
            for round in 0..rounds {
                for i in 0..5 {
                    let v = (round + i) % 5;
                    best[v] = best[v].min(timed(reps, &versions[v]));
                }
            }
            let [s, o, t, h, sr] = best;
            println!(
                "2^{layers:<2}-1   {workers:>7} {:>8.1}us {:>11.2} {:>9.2} {:>9.2} {:>13.2} {:>12.2}",
                s * 1e6,
                o / s,
                t / s,
                h / s,
                o / h,
                sr / s
            );
        }
    }
}

/// What the machine gives to `cores` threads at once: `cores` copies of the sequential
/// fib(32), one per thread, against one alone. On dedicated cores this is 1.00; on a
/// virtual machine whose cores share physical ones (or change speed) it is more, and a
/// row on all workers cannot do better than its one-worker ratio times this, halved.
fn machine(rounds: usize, cores: usize) {
    let alone = || sequential::fib(black_box(32));
    let at_once = || {
        std::thread::scope(|s| {
            let others: Vec<_> = (1..cores).map(|_| s.spawn(alone)).collect();
            let mine = alone();
            others
                .into_iter()
                .map(|t| t.join().unwrap())
                .fold(mine, u64::max)
        })
    };
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..rounds {
        times[0].push(timed(4, &alone));
        times[1].push(timed(4, &at_once));
    }
    let [a, b] = times.map(median);
    let name = format!("machine: fib(32) on {cores} threads at once, sequential");
    println!(
        "{name:<52} {:>13} {:>11.2}   (time of one copy alone: 1.00)",
        "",
        b / a
    );
}

/// Times the three versions in interleaved rounds, checks they agree, prints ratios.
fn row<R: PartialEq + std::fmt::Debug>(
    rounds: usize,
    name: &str,
    seq: impl Fn() -> R,
    ours: impl Fn() -> R,
    theirs: impl Fn() -> R,
) {
    assert_eq!(ours(), seq(), "{name}: prorata disagrees with sequential");
    assert_eq!(theirs(), seq(), "{name}: rayon disagrees with sequential");
    let reps = reps_for(&seq);
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..rounds {
        times[0].push(timed(reps, &seq));
        times[1].push(timed(reps, &ours));
        times[2].push(timed(reps, &theirs));
    }
    print_row(name, times.map(median));
}

/// Like [`row`], but every result of a round is kept until the round ends, so each call
/// writes fresh memory (as a program that keeps its results does).
fn row_kept<T: PartialEq + std::fmt::Debug>(
    rounds: usize,
    name: &str,
    seq: impl Fn() -> Vec<T>,
    ours: impl Fn() -> Vec<T>,
    theirs: impl Fn() -> Vec<T>,
) {
    assert_eq!(ours(), seq(), "{name}: prorata disagrees with sequential");
    assert_eq!(theirs(), seq(), "{name}: rayon disagrees with sequential");
    const KEPT: usize = 4;
    let kept = |f: &dyn Fn() -> Vec<T>| {
        let start = Instant::now();
        let results: Vec<Vec<T>> = (0..KEPT).map(|_| f()).collect();
        let t = start.elapsed().as_secs_f64() / KEPT as f64;
        drop(black_box(results));
        t
    };
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..rounds {
        times[0].push(kept(&seq));
        times[1].push(kept(&ours));
        times[2].push(kept(&theirs));
    }
    print_row(name, times.map(median));
}

fn print_row(name: &str, [s, o, t]: [f64; 3]) {
    println!("{name:<52} {:>13.2} {:>11.2} {:>11.2}", o / t, o / s, t / s);
}

/// `install` of an empty closure from this (outside) thread right after another one.
fn round_trip(rounds: usize, p: &prorata::ThreadPool, r: &rayon::ThreadPool) {
    const CALLS: u32 = 2000;
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..rounds {
        times[0].push(timed(CALLS, &|| p.install(|| black_box(1))));
        times[1].push(timed(CALLS, &|| r.install(|| black_box(1))));
    }
    let [o, t] = times.map(median);
    println!(
        "{:<52} {:>13.2} {:>11} {:>11}   ({:.1} us / {:.1} us)",
        "install() round trip into a warm pool",
        o / t,
        "",
        "",
        o * 1e6,
        t * 1e6
    );
}

/// A coarse workload: its name, and how to run it on a pool of each library.
type Coarse = (
    &'static str,
    Box<dyn Fn(&prorata::ThreadPool) -> usize>,
    Box<dyn Fn(&rayon::ThreadPool) -> usize>,
);

/// Coarse work keeps its speed-up: time on all cores against time on one worker.
fn coarse(rounds: usize) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (p1, r1) = pools(1);
    let (pn, rn) = pools(cores);
    let leaf = Duration::from_micros(10);
    let item = Duration::from_micros(100);
    let cases: [Coarse; 2] = [
        (
            "join tree of 2^14 leaves of 10 us",
            Box::new(move |p| p.install(|| ours::tree(1 << 14, leaf))),
            Box::new(move |r| r.install(|| theirs::tree(1 << 14, leaf))),
        ),
        (
            "par_iter of 10^4 items of 100 us",
            Box::new(move |p| p.install(|| ours::items(10_000, item))),
            Box::new(move |r| r.install(|| theirs::items(10_000, item))),
        ),
    ];
    for (name, ours, theirs) in &cases {
        let mut times = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..rounds {
            times[0].push(timed(1, &|| ours(&p1)));
            times[1].push(timed(1, &|| ours(&pn)));
            times[2].push(timed(1, &|| theirs(&r1)));
            times[3].push(timed(1, &|| theirs(&rn)));
        }
        let [o1, on, t1, tn] = times.map(median);
        println!(
            "{:<52} speed-up on {cores} workers: prorata {:.2}x, rayon {:.2}x",
            name,
            o1 / on,
            t1 / tn
        );
    }
}

/// CPU time all threads of this process use over one second while both pools idle.
fn idle_cpu(p: &prorata::ThreadPool, r: &rayon::ThreadPool) {
    p.install(|| ());
    r.install(|| ());
    std::thread::sleep(Duration::from_millis(20));
    let before = process_cpu();
    std::thread::sleep(Duration::from_secs(1));
    let used = process_cpu().saturating_sub(before);
    println!(
        "{:<52} {:.3} ms CPU over 1 s (both pools together)",
        "idle pools, after 20 ms",
        used.as_secs_f64() * 1e3
    );
}

/// The run time of every thread of this process so far (Linux; zero elsewhere).
fn process_cpu() -> Duration {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Duration::ZERO;
    };
    let nanos: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    Duration::from_nanos(nanos)
}

fn reps_for<R>(f: &impl Fn() -> R) -> u32 {
    let once = timed(1, f).max(1e-9);
    ((0.02 / once).ceil() as u32).clamp(1, 100_000)
}

fn timed<R>(reps: u32, f: &impl Fn() -> R) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        black_box(f());
    }
    (start.elapsed() / reps).as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
