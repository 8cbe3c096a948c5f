//! `isolate`: a worker that waits inside it runs only jobs started inside it. The
//! pattern of Rayon issue #592, a lock held around a parallel call inside an outer
//! parallel loop whose items take the same lock, deadlocks without isolation (a waiting
//! worker that holds the lock starts another outer item, which blocks on it forever) and
//! completes with it. Each case runs under a watchdog, so a hang fails the test.

mod common;

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::watchdog::{WATCHDOG, finishes_within};
use prorata::prelude::*;
use prorata::{ThreadPool, ThreadPoolBuilder, Yield};

fn pool(threads: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

thread_local! {
    /// Whether this thread holds the test's lock (set while an item holds it).
    static HOLDING: Cell<bool> = const { Cell::new(false) };
}

/// The outer loop of #592: `items` items, each taking `lock`, then running an inner
/// parallel loop (through `inner`, which isolates it or not) while holding it. An item
/// that starts on a thread that already holds the lock is counted in `reentered` and
/// skips the lock: with a real `lock()` there, that thread would block forever.
fn outer_loop(
    lock: &Mutex<u64>,
    reentered: &AtomicUsize,
    items: u64,
    inner: impl Fn(&(dyn Fn() -> u64 + Sync)) -> u64 + Sync,
) -> u64 {
    (0..items)
        .into_par_iter()
        .map(|item| {
            if HOLDING.with(Cell::get) {
                reentered.fetch_add(1, Ordering::Relaxed);
                return 0;
            }
            let mut guard = lock.lock().unwrap();
            HOLDING.with(|h| h.set(true));
            let sum = inner(&|| (0..2_000u64).into_par_iter().map(|x| x ^ item).sum());
            *guard += sum;
            HOLDING.with(|h| h.set(false));
            sum
        })
        .sum()
}

/// The sum `outer_loop` returns when every item ran once.
fn expected(items: u64) -> u64 {
    (0..items)
        .map(|item| (0..2_000u64).map(|x| x ^ item).sum::<u64>())
        .sum()
}

#[test]
fn a_lock_held_around_an_isolated_loop_is_never_taken_again_on_its_thread() {
    for threads in [1, 2, 8] {
        finishes_within(WATCHDOG, &format!("{threads} workers"), move || {
            let pool = pool(threads);
            for _ in 0..50 {
                let lock = Mutex::new(0);
                let reentered = AtomicUsize::new(0);
                let total = pool
                    .install(|| outer_loop(&lock, &reentered, 64, |inner| prorata::isolate(inner)));
                assert_eq!(reentered.load(Ordering::Relaxed), 0, "{threads} workers");
                assert_eq!(total, expected(64));
                assert_eq!(lock.into_inner().unwrap(), expected(64));
            }
        });
    }
}

/// The hazard, made deterministic on two workers: the lock holder waits for a half
/// the other worker took, while an outer job that only it may run (a broadcast from
/// another thread) waits for it. Without isolation it runs that job inside its wait,
/// holding the lock (the detector counts it: a real `lock()` there would block
/// forever); inside `isolate` it does not, and runs it once the region is left.
fn holder_waits_with_an_outer_job_at_hand(isolated: bool) -> (usize, usize) {
    let pool = pool(2);
    let lock = Mutex::new(());
    let reentered = Arc::new(AtomicUsize::new(0));
    let outer_ran = Arc::new(AtomicUsize::new(0));
    pool.install(|| {
        let _guard = lock.lock().unwrap();
        HOLDING.with(|h| h.set(true));
        let inner = || {
            let b_started = AtomicBool::new(false);
            prorata::join(
                || {
                    while !b_started.load(Ordering::SeqCst) {
                        std::hint::spin_loop();
                    }
                    // From a thread outside the pool: an outer job, one per worker.
                    std::thread::scope(|t| {
                        let (reentered, outer_ran) = (reentered.clone(), outer_ran.clone());
                        t.spawn(|| {
                            pool.spawn_broadcast(move |_| {
                                if HOLDING.with(Cell::get) {
                                    reentered.fetch_add(1, Ordering::SeqCst);
                                }
                                outer_ran.fetch_add(1, Ordering::SeqCst);
                            })
                        });
                    });
                },
                || {
                    b_started.store(true, Ordering::SeqCst);
                    // Long enough that the holder waits for it.
                    std::thread::sleep(Duration::from_millis(50));
                },
            )
        };
        if isolated {
            prorata::isolate(inner);
        } else {
            inner();
        }
        HOLDING.with(|h| h.set(false));
    });
    // The broadcast's jobs run eventually, isolated or not.
    while outer_ran.load(Ordering::SeqCst) < 2 {
        std::thread::yield_now();
    }
    (
        reentered.load(Ordering::SeqCst),
        outer_ran.load(Ordering::SeqCst),
    )
}

#[test]
fn without_isolation_a_waiting_lock_holder_runs_an_outer_job() {
    let (reentered, ran) = finishes_within(WATCHDOG, "not isolated", || {
        holder_waits_with_an_outer_job_at_hand(false)
    });
    assert_eq!((reentered, ran), (1, 2));
}

#[test]
fn inside_isolate_a_waiting_lock_holder_runs_no_outer_job() {
    for _ in 0..5 {
        let (reentered, ran) = finishes_within(WATCHDOG, "isolated", || {
            holder_waits_with_an_outer_job_at_hand(true)
        });
        assert_eq!((reentered, ran), (0, 2));
    }
}

/// The pattern with a real lock and no detector: it completes on 1, 2 and 8 workers.
#[test]
fn rayon_592_completes_with_isolation() {
    for threads in [1, 2, 8] {
        finishes_within(WATCHDOG, &format!("{threads} workers"), move || {
            let pool = pool(threads);
            let lock = Mutex::new(Vec::new());
            pool.install(|| {
                (0..200u64).into_par_iter().for_each(|i| {
                    let mut cache = lock.lock().unwrap();
                    let sum: u64 =
                        prorata::isolate(|| (0..1_000u64).into_par_iter().map(|x| x * i).sum());
                    cache.push(sum);
                });
            });
            let mut sums = lock.into_inner().unwrap();
            sums.sort_unstable();
            let mut want: Vec<u64> = (0..200u64)
                .map(|i| (0..1_000u64).map(|x| x * i).sum())
                .collect();
            want.sort_unstable();
            assert_eq!(sums, want);
        });
    }
}

#[test]
fn yield_inside_isolate_runs_no_outer_job() {
    let pool = pool(1);
    let ran = AtomicBool::new(false);
    pool.install(|| {
        prorata::scope(|s| {
            s.spawn(|_| ran.store(true, Ordering::SeqCst));
            prorata::isolate(|| {
                assert_eq!(prorata::yield_local(), Some(Yield::Idle));
                assert_eq!(prorata::yield_now(), Some(Yield::Idle));
            });
            assert!(
                !ran.load(Ordering::SeqCst),
                "an outer job ran inside isolate"
            );
            // Outside the region the same call runs it.
            assert_eq!(prorata::yield_now(), Some(Yield::Executed));
            assert!(ran.load(Ordering::SeqCst));
        });
    });
}

#[test]
fn yield_inside_isolate_runs_the_regions_own_jobs() {
    let pool = pool(1);
    let ran = AtomicBool::new(false);
    pool.install(|| {
        prorata::isolate(|| {
            prorata::scope(|s| {
                s.spawn(|_| ran.store(true, Ordering::SeqCst));
                assert_eq!(prorata::yield_local(), Some(Yield::Executed));
                assert!(ran.load(Ordering::SeqCst));
            });
        });
    });
}

#[test]
fn every_kind_of_wait_inside_isolate_completes_with_the_right_results() {
    for threads in [1, 2, 4] {
        finishes_within(WATCHDOG, &format!("{threads} workers"), move || {
            let pool = pool(threads);
            pool.install(|| {
                prorata::isolate(|| {
                    let (a, b) = prorata::join(|| common::work::fib(18), || common::work::fib(17));
                    assert_eq!(a + b, common::work::fib_seq(19));
                    let hits = AtomicUsize::new(0);
                    prorata::scope(|s| {
                        for _ in 0..100 {
                            s.spawn(|_| {
                                hits.fetch_add(1, Ordering::Relaxed);
                            });
                        }
                    });
                    prorata::scope_fifo(|s| {
                        for _ in 0..100 {
                            s.spawn_fifo(|_| {
                                hits.fetch_add(1, Ordering::Relaxed);
                            });
                        }
                    });
                    assert_eq!(hits.load(Ordering::Relaxed), 200);
                    let indices = prorata::broadcast(|ctx| ctx.index());
                    assert_eq!(indices, (0..threads).collect::<Vec<_>>());
                    let v: Vec<u64> = (0..10_000u64).into_par_iter().map(|x| x * 2).collect();
                    assert_eq!(v, (0..10_000u64).map(|x| x * 2).collect::<Vec<_>>());
                    // Nested regions.
                    let inner: u64 = prorata::isolate(|| (0..1_000u64).into_par_iter().sum());
                    assert_eq!(inner, 499_500);
                });
            });
        });
    }
}

#[test]
fn isolate_outside_a_pool_runs_its_closure_and_returns_its_value() {
    assert_eq!(prorata::isolate(|| 7), 7);
    let sum: u64 = prorata::isolate(|| (0..1_000u64).into_par_iter().sum());
    assert_eq!(sum, 499_500);
}

#[test]
fn a_panic_inside_isolate_propagates_and_the_pool_goes_on() {
    let pool = pool(2);
    for _ in 0..20 {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.install(|| {
                prorata::isolate(|| {
                    (0..1_000u64).into_par_iter().for_each(|i| {
                        if i == 500 {
                            panic!("boom at 500");
                        }
                    })
                })
            })
        }));
        let payload = result.expect_err("the panic is lost");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"boom at 500"));
        // After the panic the worker is out of the region: an outer job runs in a
        // yield again.
        let ran = AtomicBool::new(false);
        pool.install(|| {
            prorata::scope(|s| {
                s.spawn(|_| ran.store(true, Ordering::SeqCst));
                while !ran.load(Ordering::SeqCst) {
                    prorata::yield_now();
                }
            })
        });
    }
}

#[test]
fn jobs_started_inside_isolate_run_isolated_on_the_thread_that_takes_them() {
    // A worker that steals a half started inside `isolate` runs its waits isolated
    // too: the re-entry detector stays at zero with the inner loop's own joins
    // nested two deep.
    finishes_within(WATCHDOG, "nested inner loops", || {
        let pool = pool(4);
        for _ in 0..20 {
            let lock = Mutex::new(0);
            let reentered = AtomicUsize::new(0);
            let total = pool.install(|| {
                outer_loop(&lock, &reentered, 32, |inner| {
                    prorata::isolate(|| {
                        prorata::join(|| (0..100u64).into_par_iter().sum::<u64>(), inner).1
                            + prorata::join(inner, || (0..100u64).into_par_iter().sum::<u64>()).0
                    })
                })
            });
            assert_eq!(reentered.load(Ordering::Relaxed), 0);
            assert_eq!(total, 2 * expected(32));
        }
    });
}

#[test]
fn an_isolated_wait_is_not_slower_to_return_than_a_time_limit_allows() {
    // Not a timing assertion: only that isolated waits with sleeping workers end (a
    // lost wake-up would hang here under the watchdog).
    finishes_within(Duration::from_secs(60), "sleepy isolated waits", || {
        let pool = pool(2);
        for _ in 0..200 {
            pool.install(|| {
                prorata::isolate(|| {
                    prorata::join(
                        || std::thread::sleep(Duration::from_micros(200)),
                        || std::thread::sleep(Duration::from_micros(300)),
                    )
                })
            });
        }
    });
}

/// A call from inside an isolated region into another pool (or a share), which calls
/// back into the first pool: the call back belongs to the region, so the only
/// worker, waiting isolated, runs it (without it, the call back would wait forever
/// for a worker that takes no call from outside).
#[test]
fn a_call_back_into_the_pool_from_another_pool_belongs_to_the_region() {
    finishes_within(WATCHDOG, "call back", || {
        let first = Arc::new(pool(1));
        let second = pool(1);
        let two = pool(2);
        let share = first.share(100).unwrap();
        for _ in 0..20 {
            let back = first.install(|| {
                prorata::isolate(|| {
                    let a = second.install(|| first.install(|| 5));
                    let b = share.install(|| first.install(|| 6));
                    let c = prorata::block_in_place(|| first.install(|| 7));
                    // The other pool's job enters a region of its own first: the
                    // call back still belongs to the first pool's region.
                    let d = second.install(|| prorata::isolate(|| first.install(|| 8)));
                    // Calls back from jobs another worker of that pool took.
                    let e: u64 = two.install(|| {
                        (0..64u64)
                            .into_par_iter()
                            .map(|i| first.install(|| i % 2))
                            .sum()
                    });
                    a + b + c + d + e
                })
            });
            assert_eq!(back, 58);
        }
    });
}
