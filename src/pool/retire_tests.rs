//! A pool whose idle workers retire (what share sub-pools use): threads start when
//! there is work and exit after a while idle; restarted workers keep their
//! index, name and deque, the start and exit handlers run once per thread, no job
//! is lost, and after the pool is dropped every thread exits.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::Duration;

use super::ThreadPoolBuilder;
use super::tests::eventually;
use crate::prelude::*;

struct Counts {
    started: Arc<AtomicUsize>,
    exited: Arc<AtomicUsize>,
}

/// A retiring pool of `n` workers (idle 20 ms) that counts thread starts and exits.
fn retiring_pool(n: usize) -> (super::ThreadPool, Counts) {
    let (started, exited) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (s, e) = (started.clone(), exited.clone());
    let pool = ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("retiring-{i}"))
        .start_handler(move |_| {
            s.fetch_add(1, SeqCst);
        })
        .exit_handler(move |_| {
            e.fetch_add(1, SeqCst);
        })
        .retire_idle(Duration::from_millis(20), None)
        .build()
        .unwrap();
    (pool, Counts { started, exited })
}

impl Counts {
    /// Threads alive now.
    fn alive(&self) -> usize {
        self.started.load(SeqCst) - self.exited.load(SeqCst)
    }
}

#[test]
fn no_worker_starts_at_build_once_spare_threads_run_then_only_for_work() {
    // Once a spare thread has started in this process (here: for another retiring
    // pool's work), a retiring pool starts no thread at build; work starts them.
    // (Before that, its first worker starts at build, so that a thread the OS
    // refuses is the build's error: only the process's first such build, which
    // other tests of this binary may have made already.)
    let (warm, _) = retiring_pool(1);
    assert_eq!(warm.install(|| 1), 1);
    assert!(super::spare_threads::proven());
    let (pool, counts) = retiring_pool(4);
    assert_eq!(counts.started.load(SeqCst), 0);
    assert_eq!(pool.install(|| 6 * 7), 42);
    assert!(counts.started.load(SeqCst) >= 1);
    assert!(eventually(|| counts.alive() == 0));
}

#[test]
fn idle_workers_retire_and_restart_with_their_index_and_name() {
    let (pool, counts) = retiring_pool(4);
    for round in 0..4 {
        // Every worker runs (a broadcast restarts the retired ones), under its name.
        let names =
            pool.broadcast(|c| (c.index(), std::thread::current().name().map(String::from)));
        for (i, (index, name)) in names.into_iter().enumerate() {
            assert_eq!(index, i);
            assert_eq!(name.as_deref(), Some(format!("retiring-{i}").as_str()));
        }
        let v: Vec<u64> = pool.install(|| (0..100_000u64).into_par_iter().map(|x| x ^ 7).collect());
        assert_eq!(v, (0..100_000u64).map(|x| x ^ 7).collect::<Vec<_>>());
        // Then they all retire.
        assert!(
            eventually(|| counts.alive() == 0),
            "round {round}: {} threads still alive",
            counts.alive()
        );
    }
    assert!(
        counts.started.load(SeqCst) >= 16,
        "each round restarts every worker"
    );
    drop(pool);
    assert!(eventually(|| counts.alive() == 0));
}

#[test]
fn dropping_the_pool_lets_its_threads_finish_and_starts_none() {
    let (pool, counts) = retiring_pool(3);
    let done = Arc::new(AtomicUsize::new(0));
    for _ in 0..30 {
        let done = done.clone();
        pool.spawn(move || {
            std::hint::black_box((0..10_000u64).sum::<u64>());
            done.fetch_add(1, SeqCst);
        });
    }
    drop(pool);
    // The drop does not wait (as in Rayon), but every spawned job runs and every thread
    // that started exits.
    assert!(eventually(|| done.load(SeqCst) == 30 && counts.alive() == 0));
    // A pool dropped while all its workers are retired starts nobody.
    let (pool, counts) = retiring_pool(3);
    pool.install(|| ());
    assert!(eventually(|| counts.alive() == 0));
    let before = counts.started.load(SeqCst);
    drop(pool);
    assert_eq!(counts.started.load(SeqCst), before);
}

/// Jobs keep arriving while workers retire: each must be run (none left with no
/// worker to run it), across many retire/restart races.
#[test]
fn no_job_is_lost_while_workers_retire() {
    let (started, exited) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (s, e) = (started.clone(), exited.clone());
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .start_handler(move |_| {
            s.fetch_add(1, SeqCst);
        })
        .exit_handler(move |_| {
            e.fetch_add(1, SeqCst);
        })
        // Retire as soon as asleep: the race with new work is as frequent as it gets.
        .retire_idle(Duration::ZERO, None)
        .build()
        .unwrap();
    let ran = AtomicUsize::new(0);
    let mut seen = HashSet::new();
    for i in 0..2_000usize {
        let (a, b) = pool.join(|| i, prorata_index);
        assert_eq!(a, i);
        seen.insert(b);
        ran.fetch_add(1, SeqCst);
        if i % 100 == 0 {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    assert_eq!(ran.load(SeqCst), 2_000);
    // The loop's pauses usually let a worker retire; on a loaded machine the race may
    // not have happened yet, so keep pausing and calling until a worker restarted.
    let restarted = eventually(|| {
        assert_eq!(pool.join(|| 1, || 2), (1, 2));
        started.load(SeqCst) > 2
    });
    assert!(restarted, "workers retired and restarted");
    drop(pool);
    assert!(eventually(|| started.load(SeqCst) == exited.load(SeqCst)));
    assert!(!seen.is_empty());
}

fn prorata_index() -> usize {
    crate::current_thread_index().expect("runs on a worker")
}
