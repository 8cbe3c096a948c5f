//! A benchmark harness built on shares: several workloads run at once, each in its own
//! slot of one pool's cores, and each one's timings do not depend on what runs beside it.
//!
//! Proportional shares are work-conserving: cores a share cannot use go to the others.
//! That is right for a server and wrong for a benchmark, whose timing would then depend
//! on its neighbours' idle moments. So each workload's slot is a currency (a share of
//! the pool) holding two shares: the workload, with nearly all of the slot's tickets,
//! and a spare with one ticket that runs a filler whenever the workload leaves a core of
//! the slot idle (between samples, in a fork-join tail). The slot's cores then stay
//! inside the slot, and a workload in a half slot gets half the cores whether its
//! neighbour is another benchmark or an empty slot (only a spare).
//!
//! The example times `map_sum` beside an empty slot and beside a parallel sort, in 1:1
//! slots, then the same two cases in a plain pool (no shares), where the neighbour
//! changes the timing.
//!
//! `cargo run --release --example bench_harness -- [samples]`

use std::hint::black_box;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{Share, ThreadPool, ThreadPoolBuilder};

/// One slot of a run: its tickets, and the workload it times (none: an empty slot,
/// held by its spare).
#[derive(Clone, Copy)]
struct Entry<'a> {
    name: &'a str,
    tickets: u32,
    work: Option<&'a (dyn Fn() + Sync)>,
}

/// A workload's sample times and the core time its share received.
struct Report {
    name: String,
    times: Vec<Duration>,
    core_time: Duration,
}

/// Samples discarded at the start of each workload (thread start-up, caches).
const WARM_UP: usize = 2;

/// Tickets of a slot's workload and of its spare, in the slot's currency.
const WORK_TICKETS: u32 = 1000;
const SPARE_TICKETS: u32 = 1;

/// A few nanoseconds of arithmetic per item that the optimiser cannot remove.
fn mix(x: u64) -> u64 {
    let mut h = x;
    for _ in 0..8 {
        h = black_box(h.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17));
    }
    h
}

/// Burns cycles on every worker of the current pool until `stop` is set.
fn fill(stop: &AtomicBool) {
    let stopped = |x: u32| {
        black_box(mix(x.into()));
        stop.load(Relaxed)
    };
    (0..u32::MAX).into_par_iter().find_any(|&x| stopped(x));
}

/// Where a slot's workload runs: in shares (`slot` holding `work` and `spare`), or
/// straight in the pool.
enum Place {
    Slot { work: Share, spare: Share },
    Plain,
}

impl Place {
    fn new(pool: &ThreadPool, shares: bool, tickets: u32) -> Place {
        if !shares {
            return Place::Plain;
        }
        let slot = pool.share(tickets).expect("tickets > 0");
        let work = slot.share(WORK_TICKETS).expect("tickets > 0");
        let spare = slot.share(SPARE_TICKETS).expect("tickets > 0");
        Place::Slot { work, spare }
    }

    fn time(&self, pool: &ThreadPool, work: &(dyn Fn() + Sync)) -> Duration {
        let start = Instant::now();
        match self {
            Place::Slot { work: share, .. } => share.install(work),
            Place::Plain => pool.install(work),
        }
        start.elapsed()
    }

    fn core_time(&self) -> Option<Duration> {
        match self {
            Place::Slot { work, .. } => Some(work.stats().core_time),
            Place::Plain => None,
        }
    }
}

/// Times `work` in `place` until `stop`, keeping the first `WARM_UP + samples` times;
/// the last of the measured workloads to have them sets `stop`.
fn sample(
    pool: &ThreadPool,
    place: &Place,
    work: &(dyn Fn() + Sync),
    samples: usize,
    (done, measured, stop): (&AtomicUsize, usize, &AtomicBool),
) -> Vec<Duration> {
    let mut times = Vec::new();
    while !stop.load(Relaxed) {
        let t = place.time(pool, work);
        if times.len() < WARM_UP + samples {
            times.push(t);
            if times.len() == WARM_UP + samples && done.fetch_add(1, Relaxed) + 1 == measured {
                stop.store(true, Relaxed);
            }
        }
    }
    times.split_off(WARM_UP)
}

/// Runs every entry at once, each on its own thread: in its own slot of `pool` when
/// `shares` is true, straight in `pool` otherwise. Each workload records `samples`
/// times; all keep running (and the spares filling) until the last has its samples.
fn run(pool: &ThreadPool, shares: bool, entries: &[Entry], samples: usize) -> Vec<Report> {
    let measured = entries.iter().filter(|e| e.work.is_some()).count();
    let (done, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    let reports = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for entry in entries {
            let (done, stop, reports) = (&done, &stop, &reports);
            s.spawn(move || {
                let place = Place::new(pool, shares, entry.tickets);
                std::thread::scope(|s| {
                    if let Place::Slot { spare, .. } = &place {
                        s.spawn(|| spare.install(|| fill(stop)));
                    }
                    let Some(work) = entry.work else { return };
                    let times = sample(pool, &place, work, samples, (done, measured, stop));
                    let core_time = place.core_time().unwrap_or_default();
                    let name = entry.name.to_string();
                    reports.lock().unwrap().push(Report {
                        name,
                        times,
                        core_time,
                    });
                });
            });
        }
    });
    let mut reports = reports.into_inner().unwrap();
    reports.sort_by(|a, b| a.name.cmp(&b.name));
    reports
}

/// Median, lowest and highest of `times`, in milliseconds.
fn spread(times: &[Duration]) -> (f64, f64, f64) {
    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    (ms[ms.len() / 2], ms[0], ms[ms.len() - 1])
}

/// Runs `entries` and prints a row per workload; returns map_sum's median.
fn report(pool: &ThreadPool, shares: bool, label: &str, entries: &[Entry], samples: usize) -> f64 {
    let start = Instant::now();
    let reports = run(pool, shares, entries, samples);
    let wall = start.elapsed().as_secs_f64();
    let mut map_sum = f64::NAN;
    for r in &reports {
        let (median, min, max) = spread(&r.times);
        let cores = match shares {
            true => format!("{:.2}", r.core_time.as_secs_f64() / wall),
            false => "-".into(),
        };
        let name = format!("{label}: {}", r.name);
        println!("{name:<34} {median:>8.2} {min:>8.2} {max:>8.2} {cores:>6}");
        if r.name == "map_sum" {
            map_sum = median;
        }
    }
    map_sum
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let samples: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 15,
    };
    let map_sum = || _ = black_box((0..10_000_000u64).into_par_iter().map(mix).sum::<u64>());
    let data: Vec<u64> = (0..2_000_000u64).map(mix).collect();
    let sort = || {
        let mut v = data.clone();
        v.par_sort_unstable();
        black_box(v);
    };
    let entry = |name, work| Entry {
        name,
        tickets: 100,
        work,
    };
    let (map_sum, sort) = (
        entry("map_sum", Some(&map_sum as _)),
        entry("sort", Some(&sort as _)),
    );
    let empty = entry("empty", None);

    let pool = ThreadPoolBuilder::new().build()?;
    let n = pool.current_num_threads();
    println!("{n} workers; {samples} samples each after {WARM_UP} of warm-up; times in ms;");
    println!("cores: the workload's core time over the run's wall time\n");
    println!(
        "{:<34} {:>8} {:>8} {:>8} {:>6}",
        "run: workload", "median", "min", "max", "cores"
    );
    let runs = [
        ("1:1 slots, beside empty", true, vec![map_sum, empty]),
        ("1:1 slots, beside sort", true, vec![map_sum, sort]),
        ("plain pool, alone", false, vec![map_sum]),
        ("plain pool, beside sort", false, vec![map_sum, sort]),
    ];
    let medians: Vec<f64> = runs
        .iter()
        .map(|(label, shares, entries)| report(&pool, *shares, label, entries, samples))
        .collect();
    println!(
        "\nmap_sum's median beside sort over its median without it: {:.2} in 1:1 slots, \
         {:.2} in a plain pool",
        medians[1] / medians[0],
        medians[3] / medians[2]
    );
    Ok(())
}
