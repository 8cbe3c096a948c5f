//! `block_in_place`: the closure runs on the calling thread while a relief thread runs
//! the blocked worker's jobs, so the pool keeps working; never more than twice the
//! pool's threads. Cases that would deadlock without a relief (the only worker blocks on
//! a message that another job of the same pool sends) run under a watchdog.

mod common;

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use common::watchdog::{WATCHDOG, finishes_within};
use prorata::prelude::*;
use prorata::{ThreadPool, ThreadPoolBuilder};

fn pool(threads: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

#[test]
fn the_only_worker_blocks_on_a_message_another_job_of_its_pool_sends() {
    finishes_within(WATCHDOG, "one worker", || {
        let pool = pool(1);
        for _ in 0..20 {
            let (tx, rx) = mpsc::channel();
            let rx = std::sync::Mutex::new(rx);
            let got = pool.install(|| {
                prorata::scope(|s| {
                    s.spawn(move |_| tx.send(42).unwrap());
                    prorata::block_in_place(|| rx.lock().unwrap().recv().unwrap())
                })
            });
            assert_eq!(got, 42);
        }
    });
}

#[test]
fn every_worker_blocks_at_once_and_the_reliefs_run_the_senders() {
    for threads in [1, 2, 4] {
        finishes_within(WATCHDOG, &format!("{threads} workers"), move || {
            let pool = pool(threads);
            let (txs, rxs): (Vec<_>, Vec<_>) = (0..threads).map(|_| mpsc::channel()).unzip();
            let rxs: Vec<_> = rxs.into_iter().map(std::sync::Mutex::new).collect();
            let got: Vec<u64> = pool.install(|| {
                prorata::scope(|s| {
                    for (i, tx) in txs.into_iter().enumerate() {
                        s.spawn(move |_| {
                            // Sent only once every worker blocks (or is relieved).
                            std::thread::sleep(Duration::from_millis(5));
                            tx.send(i as u64).unwrap()
                        });
                    }
                    (0..threads)
                        .into_par_iter()
                        .map(|i| {
                            let rx = rxs[i].lock().unwrap();
                            prorata::block_in_place(|| rx.recv().unwrap())
                        })
                        .collect()
                })
            });
            assert_eq!(got, (0..threads as u64).collect::<Vec<_>>());
        });
    }
}

#[test]
fn the_closure_runs_on_the_calling_thread_which_is_no_worker_meanwhile() {
    let pool = pool(2);
    pool.install(|| {
        let me = std::thread::current().id();
        let index = prorata::current_thread_index();
        assert!(index.is_some());
        let inside = prorata::block_in_place(|| {
            (std::thread::current().id(), prorata::current_thread_index())
        });
        assert_eq!(inside, (me, None));
        // The worker is back on its thread.
        assert_eq!(prorata::current_thread_index(), index);
        let (a, b) = prorata::join(|| 1, || 2);
        assert_eq!(a + b, 3);
    });
}

#[test]
fn results_and_panics_come_back_and_the_worker_goes_on() {
    let pool = pool(2);
    for _ in 0..20 {
        assert_eq!(pool.install(|| prorata::block_in_place(|| 7)), 7);
        let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.install(|| prorata::block_in_place(|| panic!("blocked and failed")))
        }))
        .expect_err("the panic is lost");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"blocked and failed"));
        let index = pool.install(prorata::current_thread_index);
        assert!(index.is_some());
        let v: Vec<u64> = pool.install(|| (0..10_000u64).into_par_iter().map(|x| x + 1).collect());
        assert_eq!(v, (1..10_001u64).collect::<Vec<_>>());
    }
}

#[test]
fn outside_a_pool_or_with_a_spawn_handler_the_closure_runs_in_place() {
    assert_eq!(prorata::block_in_place(|| 5), 5);
    let pool = ThreadPoolBuilder::new()
        .num_threads(1)
        .spawn_handler(|thread| {
            std::thread::spawn(move || thread.run());
            Ok(())
        })
        .build()
        .unwrap();
    // No relief: the thread stays the worker inside the closure.
    let inside = pool.install(|| prorata::block_in_place(prorata::current_thread_index));
    assert_eq!(inside, Some(0));
}

thread_local! {
    /// Set by the pool's start handler on every thread that runs its jobs.
    static STARTED_AS: Cell<Option<usize>> = const { Cell::new(None) };
}

#[test]
fn threads_never_exceed_twice_the_pool_and_reliefs_run_the_handlers() {
    let live = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let (l1, m1, l2) = (Arc::clone(&live), Arc::clone(&most), Arc::clone(&live));
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .start_handler(move |index| {
            STARTED_AS.with(|s| s.set(Some(index)));
            let now = l1.fetch_add(1, Ordering::SeqCst) + 1;
            m1.fetch_max(now, Ordering::SeqCst);
        })
        .exit_handler(move |_| {
            l2.fetch_sub(1, Ordering::SeqCst);
        })
        .build()
        .unwrap();
    let unset = AtomicUsize::new(0);
    finishes_within(WATCHDOG, "many blocking items", {
        let pool = Arc::new(pool);
        move || {
            pool.install(|| {
                (0..200u64).into_par_iter().for_each(|i| {
                    if STARTED_AS.with(Cell::get).is_none() {
                        unset.fetch_add(1, Ordering::SeqCst);
                    }
                    if i % 4 == 0 {
                        // Nested: a relief that blocks runs its closure in place.
                        prorata::block_in_place(|| {
                            std::thread::sleep(Duration::from_millis(1));
                            prorata::block_in_place(|| std::thread::sleep(Duration::from_millis(1)))
                        });
                    }
                });
            });
            assert_eq!(
                unset.load(Ordering::SeqCst),
                0,
                "a thread ran jobs without its start handler"
            );
        }
    });
    let most = most.load(Ordering::SeqCst);
    assert!(most <= 4, "{most} threads at once for a 2-thread pool");
    assert!(most >= 3, "no relief ever started ({most} threads)");
}

#[test]
fn a_share_worker_blocks_and_its_share_goes_on() {
    finishes_within(WATCHDOG, "share", || {
        let pool = pool(1);
        let share = pool.share(100).unwrap();
        for _ in 0..10 {
            let (tx, rx) = mpsc::channel();
            let rx = std::sync::Mutex::new(rx);
            let got = share.install(|| {
                prorata::scope(|s| {
                    s.spawn(move |_| tx.send(9).unwrap());
                    prorata::block_in_place(|| rx.lock().unwrap().recv().unwrap())
                })
            });
            assert_eq!(got, 9);
        }
    });
}

#[test]
fn a_blocked_worker_inside_isolate_is_relieved_with_its_region() {
    finishes_within(WATCHDOG, "isolated", || {
        let pool = pool(1);
        let (tx, rx) = mpsc::channel();
        let rx = std::sync::Mutex::new(rx);
        let got = pool.install(|| {
            prorata::isolate(|| {
                prorata::scope(|s| {
                    s.spawn(move |_| tx.send(3).unwrap());
                    prorata::block_in_place(|| rx.lock().unwrap().recv().unwrap())
                })
            })
        });
        assert_eq!(got, 3);
    });
}
