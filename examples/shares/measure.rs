//! The shares measurements, taken from outside the library: what a user
//! sees, counted in items of about 3 µs that each share completes.
//!
//! Shared by `examples/shares/main.rs` (the full table) and `benches/shares.rs` (a
//! shorter run of the same table), so both measure the same thing.
//!
//! * **Proportions.** Each share's thread runs one of two patterns: *long* (one
//!   `install` that runs until the window ends) or *repeated* (`install` of a
//!   `par_iter` of 20,000 items in a loop, about 50 ms a call, as a service would).
//!   After a 300 ms warm-up, the items each share completes in each 1 s window are
//!   compared with its ticket fraction; the figure is the worst error over the
//!   windows, in percentage points. For the repeated pattern, the mean time from
//!   one call's return to the next call's first item is printed too: while a
//!   share is between two calls the others may use every core (work conservation),
//!   so long gaps (a busy machine's wake-up latencies) cost it its fraction.
//! * **Hand-over.** Two 1:1 shares; one runs long, the other runs a `par_iter` of
//!   20,000 items. From the end of that `par_iter`'s last item until as many workers
//!   of the other share as there are cores have started an item.
//! * **Lone share.** The same `par_iter` in a share of an otherwise empty pool and in
//!   a plain pool that never made a share (interleaved rounds, median of the ratios).
//! * **Idle CPU.** CPU used in one second by the whole process (`getrusage`) while
//!   every share of a pool is idle, from 1.5 s after they last ran.
//! * **Threads.** Threads alive 2 s after 50 shares of a 4-worker pool each ran once,
//!   beyond the threads that existed before the pool and the pool's own 4.

#![allow(dead_code)] // the bench uses part of it

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{Share, SharePolicy, ShareStats, ThreadPool, ThreadPoolBuilder};

/// Iterations of the item's loop (set by [`calibrate`]).
static ITERS: AtomicU32 = AtomicU32::new(700);

/// One item of work that the optimiser cannot remove (about 3 µs once calibrated).
#[inline(never)]
pub fn item(i: usize) -> u64 {
    let mut x = i as u64;
    for _ in 0..ITERS.load(Relaxed) {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

/// CPU time of the calling thread, in nanoseconds (wall time where threads have
/// no CPU clock).
fn thread_cpu_ns(wall: Instant) -> u64 {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid place to write to.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64;
        }
    }
    wall.elapsed().as_nanos() as u64
}

/// Sets the item's length to about `micros` µs of CPU on this machine; returns
/// the measured length (µs per item, median of 7 timings). Timed in the thread's
/// CPU time, so that a busy machine does not make items shorter.
pub fn calibrate(micros: f64) -> f64 {
    let per_item = || {
        let wall = Instant::now();
        let mut t: Vec<f64> = (0..7)
            .map(|_| {
                let start = thread_cpu_ns(wall);
                (0..2000).for_each(|i| {
                    black_box(item(i));
                });
                (thread_cpu_ns(wall) - start) as f64 / 1e3 / 2000.0
            })
            .collect();
        t.sort_by(f64::total_cmp);
        t[3]
    };
    let mut now = per_item();
    // A few rounds: one timing on a busy machine can be far off.
    for _ in 0..4 {
        let iters = f64::from(ITERS.load(Relaxed)) * micros / now;
        ITERS.store(iters.round().max(1.0) as u32, Relaxed);
        now = per_item();
        if (now / micros - 1.0).abs() < 0.05 {
            break;
        }
    }
    now
}

/// The share policies compared, by the name the command lines use.
pub const POLICIES: &[(&str, SharePolicy)] = &[
    ("stride", SharePolicy::Stride),
    ("lottery", SharePolicy::Lottery),
    ("multi", SharePolicy::MultiWinnerLottery),
];

/// How each share's thread uses its share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// One `install` running until the window ends.
    Long,
    /// `install` of a 20,000-item `par_iter`, in a loop.
    Repeated,
}

/// The shares competing in a proportions run.
#[derive(Debug, Clone, Copy)]
pub enum Scenario {
    /// Top-level shares with these tickets.
    Flat(&'static [u32]),
    /// alice(300) = t1(200) + t2(100), against bob(100): 50 : 25 : 25.
    Tree,
}

/// The scenarios measured: 3:1, 9:1, 3:2:1 and a two-level currency tree.
pub const SCENARIOS: &[Scenario] = &[
    Scenario::Flat(&[3, 1]),
    Scenario::Flat(&[9, 1]),
    Scenario::Flat(&[3, 2, 1]),
    Scenario::Tree,
];

impl Scenario {
    pub fn name(self) -> String {
        match self {
            Scenario::Flat(t) => t.iter().map(u32::to_string).collect::<Vec<_>>().join(":"),
            Scenario::Tree => "tree".into(),
        }
    }

    /// The competing shares, their target fractions, and parents to keep alive.
    fn build(self, pool: &ThreadPool) -> (Vec<Share>, Vec<f64>, Vec<Share>) {
        match self {
            Scenario::Flat(tickets) => {
                let total: u32 = tickets.iter().sum();
                let shares = tickets.iter().map(|&t| pool.share(t).unwrap()).collect();
                let targets = tickets
                    .iter()
                    .map(|&t| f64::from(t) / f64::from(total))
                    .collect();
                (shares, targets, Vec::new())
            }
            Scenario::Tree => {
                let alice = pool.share(300).unwrap();
                let shares = vec![
                    alice.share(200).unwrap(),
                    alice.share(100).unwrap(),
                    pool.share(100).unwrap(),
                ];
                (shares, vec![0.5, 0.25, 0.25], vec![alice])
            }
        }
    }
}

/// A pool of `workers` workers sharing `cores` cores under `policy`.
pub fn pool(workers: usize, cores: usize, policy: SharePolicy) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(workers)
        .share_cores(cores)
        .share_policy(policy)
        .build()
        .unwrap()
}

/// Time between two calls of the repeated pattern: from one `install` returning
/// to the first item of the next (the caller's and a worker's wake-ups, and the
/// wait for a core), summed over the calls.
#[derive(Default)]
struct Gaps {
    nanos: AtomicU64,
    calls: AtomicU64,
}

/// Runs `pattern` in `share`, counting items in `count`, until `stop`.
fn run_pattern(share: &Share, pattern: Pattern, count: &AtomicU64, stop: &AtomicBool, gaps: &Gaps) {
    match pattern {
        Pattern::Long => share.install(|| {
            let _ = (0..usize::MAX / 2).into_par_iter().try_for_each(|i| {
                if stop.load(Relaxed) {
                    return Err(());
                }
                black_box(item(i));
                count.fetch_add(1, Relaxed);
                Ok(())
            });
        }),
        Pattern::Repeated => {
            let mut returned: Option<Instant> = None;
            while !stop.load(Relaxed) {
                let first = AtomicBool::new(true);
                share.install(|| {
                    (0..20_000usize).into_par_iter().for_each(|i| {
                        if first.load(Relaxed) && first.swap(false, Relaxed) {
                            if let Some(t) = returned {
                                gaps.nanos.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
                                gaps.calls.fetch_add(1, Relaxed);
                            }
                        }
                        black_box(item(i));
                        count.fetch_add(1, Relaxed);
                    })
                });
                returned = Some(Instant::now());
            }
        }
    }
}

/// Items each share completed in each window, as fractions of all items.
pub struct Windows {
    pub targets: Vec<f64>,
    pub fractions: Vec<Vec<f64>>,
    /// Mean time between two calls (repeated pattern), in milliseconds.
    pub gap_ms: Option<f64>,
}

impl Windows {
    /// The worst error against the targets over the windows, in percentage points.
    pub fn worst(&self) -> f64 {
        self.fractions
            .iter()
            .flat_map(|w| w.iter().zip(&self.targets).map(|(f, t)| (f - t).abs()))
            .fold(0.0, f64::max)
            * 100.0
    }

    /// The window with the worst error, as "a : b : c" percentages.
    pub fn worst_window(&self) -> String {
        let err = |w: &Vec<f64>| {
            w.iter()
                .zip(&self.targets)
                .map(|(f, t)| (f - t).abs())
                .fold(0.0, f64::max)
        };
        let w = self
            .fractions
            .iter()
            .max_by(|a, b| err(a).total_cmp(&err(b)))
            .expect("at least one window");
        percentages(w)
    }
}

/// "a : b : c" with one decimal.
pub fn percentages(f: &[f64]) -> String {
    f.iter()
        .map(|x| format!("{:.1}", x * 100.0))
        .collect::<Vec<_>>()
        .join(" : ")
}

/// Runs `scenario` with `pattern` on `pool` for a 300 ms warm-up and `windows` 1 s
/// windows; returns each window's fractions. With `detail`, prints each window's
/// items and core time of each share (see [`print_detail`]).
pub fn proportions(
    pool: &ThreadPool,
    scenario: Scenario,
    pattern: Pattern,
    windows: usize,
    detail: bool,
) -> Windows {
    let (shares, targets, _parents) = scenario.build(pool);
    let stop = AtomicBool::new(false);
    let counts: Vec<AtomicU64> = shares.iter().map(|_| AtomicU64::new(0)).collect();
    let gaps = Gaps::default();
    let snapshot = || counts.iter().map(|c| c.load(Relaxed)).collect::<Vec<u64>>();
    let mut fractions = Vec::new();
    std::thread::scope(|s| {
        for (share, count) in shares.iter().zip(&counts) {
            let (stop, gaps) = (&stop, &gaps);
            s.spawn(move || run_pattern(share, pattern, count, stop, gaps));
        }
        let start = Instant::now() + Duration::from_millis(300);
        sleep_until(start);
        let mut last = snapshot();
        let stats = || shares.iter().map(Share::stats).collect::<Vec<_>>();
        let mut last_stats = stats();
        for w in 1..=windows {
            sleep_until(start + Duration::from_secs(w as u64));
            let now = snapshot();
            if detail {
                let now_stats = stats();
                print_detail(scenario, pattern, &now, &last, &now_stats, &last_stats);
                last_stats = now_stats;
            }
            let done: Vec<u64> = now.iter().zip(&last).map(|(n, l)| n - l).collect();
            let total = done.iter().sum::<u64>().max(1) as f64;
            fractions.push(done.iter().map(|&d| d as f64 / total).collect());
            last = now;
        }
        stop.store(true, Relaxed);
    });
    let calls = gaps.calls.load(Relaxed);
    let gap_ms = (calls > 0).then(|| gaps.nanos.load(Relaxed) as f64 / calls as f64 / 1e6);
    Windows {
        targets,
        fractions,
        gap_ms,
    }
}

/// One window of one run, share by share: its part of the items and of the
/// core time (percent), and the grants and preemptions of its workers. A share
/// whose items and core time both fall short of its part while it is never
/// preempted holds a core that its threads do not get to use.
fn print_detail(
    scenario: Scenario,
    pattern: Pattern,
    items: &[u64],
    items_before: &[u64],
    stats: &[ShareStats],
    stats_before: &[ShareStats],
) {
    let done: Vec<u64> = items.iter().zip(items_before).map(|(n, l)| n - l).collect();
    let core: Vec<Duration> = stats
        .iter()
        .zip(stats_before)
        .map(|(n, l)| n.core_time.saturating_sub(l.core_time))
        .collect();
    let all_items = done.iter().sum::<u64>().max(1) as f64;
    let all_core = core
        .iter()
        .sum::<Duration>()
        .as_secs_f64()
        .max(f64::MIN_POSITIVE);
    let shares: Vec<String> = (0..done.len())
        .map(|i| {
            format!(
                "items {:.1}% core {:.1}% grants {} preempted {}",
                100.0 * done[i] as f64 / all_items,
                100.0 * core[i].as_secs_f64() / all_core,
                stats[i].grants - stats_before[i].grants,
                stats[i].preemptions - stats_before[i].preemptions,
            )
        })
        .collect();
    println!(
        "  {} {:?}: {}",
        scenario.name(),
        pattern,
        shares.join(" | ")
    );
}

fn sleep_until(t: Instant) {
    let now = Instant::now();
    if t > now {
        std::thread::sleep(t - now);
    }
}

/// Hand-over trials on a pool of `workers` workers and `cores` cores: two 1:1
/// shares, B running long; in each trial A runs a 20,000-item `par_iter`, and the
/// trial measures from the end of A's last item until `cores` distinct workers of B
/// have started an item. Returns the trials in milliseconds (NaN: not within 200 ms).
pub fn hand_over(workers: usize, cores: usize, policy: SharePolicy, trials: usize) -> Vec<f64> {
    let pool = pool(workers, cores, policy);
    let (a, b) = (pool.share(1).unwrap(), pool.share(1).unwrap());
    let base = Instant::now();
    let nanos = || base.elapsed().as_nanos() as u64;
    let stop = AtomicBool::new(false);
    let a_done = AtomicBool::new(false);
    let a_end = AtomicU64::new(0);
    let first: Vec<AtomicU64> = (0..workers).map(|_| AtomicU64::new(0)).collect();
    let mut out = Vec::new();
    std::thread::scope(|s| {
        s.spawn(|| {
            b.install(|| {
                let _ = (0..usize::MAX / 2).into_par_iter().try_for_each(|i| {
                    if stop.load(Relaxed) {
                        return Err(());
                    }
                    if a_done.load(Acquire) {
                        let w = prorata::current_thread_index().unwrap_or(0);
                        let _ = first[w].compare_exchange(0, nanos(), Relaxed, Relaxed);
                    }
                    black_box(item(i));
                    Ok(())
                });
            })
        });
        std::thread::sleep(Duration::from_millis(100));
        for _ in 0..trials {
            first.iter().for_each(|f| f.store(0, Relaxed));
            a_done.store(false, Release);
            let left = AtomicUsize::new(20_000);
            a.install(|| {
                (0..20_000usize).into_par_iter().for_each(|i| {
                    black_box(item(i));
                    if left.fetch_sub(1, AcqRel) == 1 {
                        a_end.store(nanos(), Relaxed);
                        a_done.store(true, Release);
                    }
                })
            });
            let deadline = Instant::now() + Duration::from_millis(200);
            let reached = || {
                let mut t: Vec<u64> = first
                    .iter()
                    .map(|f| f.load(Relaxed))
                    .filter(|&t| t > 0)
                    .collect();
                t.sort_unstable();
                t.get(cores - 1).copied()
            };
            let mut got = reached();
            while got.is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_micros(200));
                got = reached();
            }
            let end = a_end.load(Relaxed);
            out.push(got.map_or(f64::NAN, |t| t.saturating_sub(end) as f64 / 1e6));
            // B alone on every core for a moment, as between two requests.
            std::thread::sleep(Duration::from_millis(20));
        }
        stop.store(true, Relaxed);
    });
    out
}

/// Median and worst of hand-over trials (NaN counts as worst).
pub fn median_and_worst(trials: &[f64]) -> (f64, f64) {
    let mut t: Vec<f64> = trials
        .iter()
        .map(|&x| if x.is_nan() { f64::INFINITY } else { x })
        .collect();
    t.sort_by(f64::total_cmp);
    (t[t.len() / 2], t[t.len() - 1])
}

/// Time of a 100,000-item `par_iter` in a lone share over its time in a plain pool
/// that never made a share (`rounds` interleaved rounds, median ratio).
pub fn lone_share(workers: usize, cores: usize, policy: SharePolicy, rounds: usize) -> f64 {
    let plain = ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .unwrap();
    let pool = pool(workers, cores, policy);
    let share = pool.share(1).unwrap();
    let job = || {
        (0..100_000usize).into_par_iter().for_each(|i| {
            black_box(item(i));
        })
    };
    let time = |f: &dyn Fn()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    plain.install(job);
    share.install(job);
    let mut ratios: Vec<f64> = (0..rounds)
        .map(|r| {
            // Alternate which goes first, so that neither always runs on a warm machine.
            let (p, s) = if r % 2 == 0 {
                let p = time(&|| plain.install(job));
                (p, time(&|| share.install(job)))
            } else {
                let s = time(&|| share.install(job));
                (time(&|| plain.install(job)), s)
            };
            s / p
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

/// CPU time (ns) used so far by this process, exited threads included
/// (`getrusage`; `None` where unavailable).
pub fn process_cpu_ns() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: an all-zero `rusage` is a valid value to be overwritten.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `ru` is a valid place to write to.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } == 0 {
            let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
            return Some((us(ru.ru_utime) + us(ru.ru_stime)) * 1000);
        }
    }
    None
}

/// Threads of this process now.
pub fn threads_now() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/task").ok()?.count())
}

/// Percent of one core the process uses over one second while the three shares of
/// a pool (each of which ran a `par_iter`) are idle, from 1.5 s after they ran.
pub fn idle_cpu(workers: usize, cores: usize, policy: SharePolicy) -> Option<f64> {
    let pool = pool(workers, cores, policy);
    let shares: Vec<Share> = (1..=3).map(|t| pool.share(t).unwrap()).collect();
    std::thread::scope(|s| {
        for share in &shares {
            s.spawn(|| {
                share.install(|| {
                    (0..20_000usize).into_par_iter().for_each(|i| {
                        black_box(item(i));
                    })
                })
            });
        }
    });
    // Past the shares' idle worker lifetime (1 s): their threads have exited.
    std::thread::sleep(Duration::from_millis(1500));
    let (before, t) = (process_cpu_ns()?, Instant::now());
    std::thread::sleep(Duration::from_secs(1));
    let used = process_cpu_ns()? - before;
    Some(used as f64 / t.elapsed().as_nanos() as f64 * 100.0)
}

/// Threads alive `idle` after 50 shares of a 4-worker pool each ran a small
/// `par_iter` (all 50 still alive), beyond those before the pool and its own 4.
pub fn threads_after_idle_shares(policy: SharePolicy, idle: Duration) -> Option<isize> {
    let before = threads_now()?;
    let pool = ThreadPoolBuilder::new()
        .num_threads(4)
        .share_policy(policy)
        .build()
        .unwrap();
    let shares: Vec<Share> = (0..50).map(|_| pool.share(1).unwrap()).collect();
    for s in &shares {
        s.install(|| {
            (0..2_000usize).into_par_iter().for_each(|i| {
                black_box(item(i));
            })
        });
    }
    std::thread::sleep(idle);
    let now = threads_now()?;
    drop(shares);
    Some(now as isize - before as isize - 4)
}

/// What to measure (see `examples/shares/main.rs` for the command line).
pub struct Plan {
    /// One-second windows per proportions run.
    pub windows: usize,
    /// Hand-over trials.
    pub trials: usize,
    /// Lone-share rounds.
    pub rounds: usize,
    /// Worker counts.
    pub workers: Vec<usize>,
    /// The cores the pools share (`share_cores`): 2, this project's machines, unless
    /// `--cores` says otherwise.
    pub cores: usize,
    pub policies: Vec<(&'static str, SharePolicy)>,
    /// Parts to run (`prop`, `handover`, `lone`, `idle`, `threads`); all if `None`.
    pub only: Option<Vec<String>>,
    /// Print each proportions window share by share (`--detail`).
    pub detail: bool,
}

impl Plan {
    fn wants(&self, part: &str) -> bool {
        self.only
            .as_ref()
            .is_none_or(|o| o.iter().any(|p| p == part))
    }
}

/// Measures and prints the whole table for `args`.
pub fn report(args: &Plan) {
    if args.wants("prop") {
        proportions_table(args);
    }
    let mut rows: Vec<(String, Vec<String>, &str)> = Vec::new();
    for &w in &args.workers {
        if args.wants("handover") {
            let cells = args
                .policies
                .iter()
                .map(|&(_, p)| {
                    let t = hand_over(w, args.cores, p, args.trials);
                    let (median, worst) = median_and_worst(&t);
                    format!("{median:.2} / {worst:.2}")
                })
                .collect();
            rows.push((
                format!(
                    "hand-over ms, median / worst of {}, {w} workers",
                    args.trials
                ),
                cells,
                "1 / 5",
            ));
        }
        if args.wants("lone") {
            let cells = args
                .policies
                .iter()
                .map(|&(_, p)| format!("{:.3}", lone_share(w, args.cores, p, args.rounds)))
                .collect();
            rows.push((
                format!("lone share / plain pool, {w} workers"),
                cells,
                "0.99-1.01",
            ));
        }
        if args.wants("idle") {
            let cells = args
                .policies
                .iter()
                .map(|&(_, p)| match idle_cpu(w, args.cores, p) {
                    Some(pct) => format!("{pct:.3}%"),
                    None => "n/a".into(),
                })
                .collect();
            rows.push((
                format!("CPU of idle shares over 1 s, {w} workers"),
                cells,
                "0%",
            ));
        }
    }
    if args.wants("threads") {
        let cells = args
            .policies
            .iter()
            .map(
                |&(_, p)| match threads_after_idle_shares(p, Duration::from_secs(2)) {
                    Some(n) => n.to_string(),
                    None => "n/a".into(),
                },
            )
            .collect();
        rows.push((
            "threads beyond the pool's 4, 2 s after 50 shares ran".into(),
            cells,
            "<= 8",
        ));
    }
    if !rows.is_empty() {
        let names: Vec<&str> = args.policies.iter().map(|p| p.0).collect();
        println!("\n| measure | {} | target |", names.join(" | "));
        println!("|---|{}---|", "---|".repeat(names.len()));
        for (name, cells, target) in rows {
            println!("| {name} | {} | {target} |", cells.join(" | "));
        }
    }
}

/// The proportions table: one row per workers, policy and pattern.
fn proportions_table(args: &Plan) {
    let names: Vec<String> = SCENARIOS.iter().map(|s| s.name()).collect();
    println!(
        "\nworst 1 s window, points off the ticket fraction (target: 1 for stride, 2 for the lotteries)"
    );
    println!(
        "| workers (cores) | policy | pattern | {} | worst | its window | gap between calls |",
        names.join(" | ")
    );
    println!("|---|---|---|{}---|---|---|", "---|".repeat(names.len()));
    for &w in &args.workers {
        for &(pname, policy) in &args.policies {
            for pattern in [Pattern::Long, Pattern::Repeated] {
                let pool = pool(w, args.cores, policy);
                let runs: Vec<Windows> = SCENARIOS
                    .iter()
                    .map(|&s| proportions(&pool, s, pattern, args.windows, args.detail))
                    .collect();
                let cells: Vec<String> = runs.iter().map(|r| format!("{:.1}", r.worst())).collect();
                let worst = runs
                    .iter()
                    .zip(SCENARIOS)
                    .max_by(|a, b| a.0.worst().total_cmp(&b.0.worst()))
                    .expect("scenarios");
                let gaps: Vec<f64> = runs.iter().filter_map(|r| r.gap_ms).collect();
                let gap = match gaps.len() {
                    0 => "-".to_string(),
                    n => format!("{:.2} ms", gaps.iter().sum::<f64>() / n as f64),
                };
                println!(
                    "| {w} ({}) | {pname} | {pattern:?} | {} | {:.1} | {} got {} | {gap} |",
                    args.cores.min(w),
                    cells.join(" | "),
                    worst.0.worst(),
                    worst.1.name(),
                    worst.0.worst_window()
                );
            }
        }
    }
}
