//! prorata leaves the CPU affinity of threads alone: the thread that built a
//! `use_current_thread` pool (a user's thread), workers that the user pinned in
//! the start handler, and workers whose jobs set their own affinity keep exactly
//! the mask they were given, at every moment, while shares compete for the cores.
//!
//! Each test watches the threads' masks from another thread (`sched_getaffinity`
//! on their thread ids) while two busy shares and the watched threads' own work
//! pass paced safe points, and fails at the first mask that differs. A thread
//! allowed a single processor cannot be moved off it, so the watched masks hold
//! two processors; on a machine that lets this process run on fewer, the tests
//! have nothing to check and return. Linux only; its own test binary, its tests
//! one at a time. No timing is asserted: each runs for a while, then checks.

#![cfg(target_os = "linux")]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prorata::ThreadPoolBuilder;
use prorata::prelude::*;

mod common;
use common::work::{keep_busy, one_at_a_time, spin};

/// How long the watched threads work beside the busy shares.
const RUN: Duration = Duration::from_secs(2);

/// The calling thread's id.
fn gettid() -> libc::pid_t {
    // SAFETY: `gettid` takes no arguments and cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as libc::pid_t }
}

/// The processors thread `tid` may run on (0: the calling thread), `None` if
/// it has exited.
fn affinity(tid: libc::pid_t) -> Option<Vec<usize>> {
    // SAFETY: a `cpu_set_t` is plain bits; all zeroes is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `set` is a valid `cpu_set_t` of `size` bytes.
    if unsafe { libc::sched_getaffinity(tid, size, &mut set) } != 0 {
        return None;
    }
    let cpus = (0..libc::CPU_SETSIZE as usize)
        // SAFETY: `c` is below CPU_SETSIZE, within the set.
        .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
        .collect();
    Some(cpus)
}

/// Lets the calling thread run on `cpus` only.
fn set_affinity(cpus: &[usize]) {
    // SAFETY: a `cpu_set_t` is plain bits; all zeroes is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &c in cpus {
        // SAFETY: `c` came from `affinity`, so it is below CPU_SETSIZE.
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `set` is a valid `cpu_set_t` of `size` bytes, for the calling thread.
    assert_eq!(unsafe { libc::sched_setaffinity(0, size, &set) }, 0);
}

/// The processors this process may run on, if they are two or more (else the
/// tests have nothing to check).
fn two_or_more_cpus() -> Option<Vec<usize>> {
    let cpus = affinity(0).expect("the calling thread's affinity");
    if cpus.len() < 2 {
        eprintln!("skipped: this process may run on {cpus:?} only");
        return None;
    }
    Some(cpus)
}

/// Reads the mask of each thread of `watched` until `stop`; at the first that
/// differs from the mask it was given, notes it and sets `stop`. Returns the
/// differences seen (empty if none), as text.
fn watch(watched: &Mutex<Vec<(libc::pid_t, Vec<usize>)>>, stop: &AtomicBool) -> Vec<String> {
    let mut seen = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let threads = watched.lock().unwrap().clone();
        for (tid, given) in threads {
            // A thread that exited has no mask to check.
            if let Some(now) = affinity(tid).filter(|now| *now != given) {
                seen.push(format!("thread {tid}: given {given:?}, found {now:?}"));
            }
        }
        if !seen.is_empty() {
            stop.store(true, Ordering::Relaxed);
        }
    }
    seen
}

/// Runs `work` on this thread beside two busy shares of `pool` (100 tickets
/// each, as many as the pool's own jobs have by default, so that the three take
/// turns on the cores) and a watcher of `watched`,
/// until `work` returns or the watcher saw a mask change. `work` gets the flag
/// that tells it to stop early. Returns the watcher's findings.
fn run_beside_busy_shares(
    pool: &prorata::ThreadPool,
    watched: &Mutex<Vec<(libc::pid_t, Vec<usize>)>>,
    work: impl FnOnce(&AtomicBool),
) -> Vec<String> {
    let shares = [pool.share(100).unwrap(), pool.share(100).unwrap()];
    let stop = AtomicBool::new(false);
    let items = [AtomicU64::new(0), AtomicU64::new(0)];
    std::thread::scope(|s| {
        keep_busy(s, &shares, &stop, &items);
        let watcher = s.spawn(|| watch(watched, &stop));
        work(&stop);
        stop.store(true, Ordering::Relaxed);
        watcher.join().unwrap()
    })
}

/// Busy `par_iter` work on `pool` for [`RUN`], or until `stop`.
fn busy_par_iter(pool: &prorata::ThreadPool, stop: &AtomicBool) {
    let t0 = Instant::now();
    pool.install(|| {
        let _ = (0..u64::MAX / 2).into_par_iter().try_for_each(|i| {
            if stop.load(Ordering::Relaxed) || t0.elapsed() > RUN {
                return Err(());
            }
            std::hint::black_box(spin(i));
            Ok(())
        });
    });
}

/// The thread that built a `use_current_thread` pool is a user's thread that
/// prorata did not create: running the pool's jobs beside competing shares, it
/// keeps its mask all along (its paced safe points once narrowed it to move it
/// to another processor, and restored it).
#[test]
fn the_building_thread_keeps_its_affinity() {
    let _one_at_a_time = one_at_a_time();
    let Some(mine) = two_or_more_cpus() else {
        return;
    };
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_cores(2)
        .use_current_thread()
        .build()
        .unwrap();
    let watched = Mutex::new(vec![(gettid(), mine.clone())]);
    let seen = run_beside_busy_shares(&pool, &watched, |stop| busy_par_iter(&pool, stop));
    assert!(
        seen.is_empty(),
        "the building thread's mask changed: {seen:?}"
    );
    assert_eq!(affinity(0), Some(mine), "its mask after the run");
}

/// Workers that the start handler pinned to two processors keep exactly that
/// mask while they run the pool's own jobs beside competing shares.
#[test]
fn workers_pinned_by_the_start_handler_keep_their_mask() {
    let _one_at_a_time = one_at_a_time();
    let Some(cpus) = two_or_more_cpus() else {
        return;
    };
    let mask = cpus[..2].to_vec();
    let watched = Arc::new(Mutex::new(Vec::new()));
    let pool = {
        let (watched, mask) = (watched.clone(), mask.clone());
        ThreadPoolBuilder::new()
            .num_threads(2)
            .share_cores(2)
            .start_handler(move |_| {
                set_affinity(&mask);
                watched.lock().unwrap().push((gettid(), mask.clone()));
            })
            .build()
            .unwrap()
    };
    // Both workers have started (and been pinned) once a broadcast ran on them.
    pool.broadcast(|_| ());
    let seen = run_beside_busy_shares(&pool, &watched, |stop| busy_par_iter(&pool, stop));
    assert!(seen.is_empty(), "a pinned worker's mask changed: {seen:?}");
    let threads = watched.lock().unwrap().clone();
    assert_eq!(threads.len(), 2, "both workers started");
    for (tid, given) in threads {
        assert_eq!(
            affinity(tid),
            Some(given),
            "worker {tid}'s mask after the run"
        );
    }
}

/// A share's workers whose job set their affinity (from inside the job, after
/// the worker started) keep that mask while their share competes with others.
#[test]
fn a_mask_set_from_inside_a_job_is_kept() {
    let _one_at_a_time = one_at_a_time();
    let Some(cpus) = two_or_more_cpus() else {
        return;
    };
    let mask = cpus[..2].to_vec();
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_cores(2)
        .build()
        .unwrap();
    let share = pool.share(100).unwrap();
    let watched = Mutex::new(Vec::new());
    let t0 = Instant::now();
    let seen = run_beside_busy_shares(&pool, &watched, |stop| {
        while !stop.load(Ordering::Relaxed) && t0.elapsed() < RUN {
            // Each call pins the workers it runs on (threads of an idle share
            // exit and start again, so each call watches the ones it has now).
            share.broadcast(|_| {
                set_affinity(&mask);
                let mut watched = watched.lock().unwrap();
                let me = gettid();
                if !watched.iter().any(|(tid, _)| *tid == me) {
                    watched.push((me, mask.clone()));
                }
            });
            share.install(|| {
                let _ = (0..200_000u64).into_par_iter().try_for_each(|i| {
                    if stop.load(Ordering::Relaxed) {
                        return Err(());
                    }
                    std::hint::black_box(spin(i));
                    Ok(())
                });
            });
        }
    });
    assert!(seen.is_empty(), "a share worker's mask changed: {seen:?}");
    assert!(
        !watched.lock().unwrap().is_empty(),
        "the share's workers ran"
    );
}
