//! Jobs whose spawner blocks in user code until they run: with either deque another
//! worker must take them, as with Rayon. (With BWoS the owner's newest jobs are private
//! until its next push, pop or safe point; an idle worker robs them when the owner makes
//! none, see `src/deque/bwos/stealer.rs`.) Each case runs under a watchdog, so a hang
//! fails the test instead of stalling the suite.

use std::sync::mpsc;
use std::time::Duration;

use prorata::{DequeKind, ThreadPool, ThreadPoolBuilder};

const KINDS: [DequeKind; 2] = [DequeKind::ChaseLev, DequeKind::Bwos];
/// A worker blocks, so at least one other must run the jobs.
const THREADS: [usize; 2] = [2, 3];
/// Far longer than any case takes on a loaded machine.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Runs `case` on a pool of each kind and size, failing if one does not finish in time.
fn on_every_pool(what: &str, case: fn(&ThreadPool)) {
    for kind in KINDS {
        for threads in THREADS {
            let (done, finished) = mpsc::channel();
            std::thread::spawn(move || {
                let pool = ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .deque(kind)
                    .build()
                    .unwrap();
                case(&pool);
                let _ = done.send(());
            });
            assert!(
                finished.recv_timeout(WATCHDOG).is_ok(),
                "{what}: hung with {kind:?} on {threads} workers"
            );
        }
    }
}

#[test]
fn scope_body_waits_for_its_second_spawn() {
    on_every_pool("two spawns", |pool| {
        pool.scope(|s| {
            let (tx, rx) = mpsc::channel();
            s.spawn(|_| {});
            s.spawn(move |_| tx.send(2).unwrap());
            assert_eq!(rx.recv().unwrap(), 2);
        })
    });
}

#[test]
fn scope_body_waits_for_many_spawns() {
    // 100 spawns fill more than one block of a BWoS deque (64 slots).
    on_every_pool("many spawns", |pool| {
        for n in [3, 64, 65, 100] {
            pool.scope(|s| {
                let (tx, rx) = mpsc::channel();
                for i in 0..n {
                    let tx = tx.clone();
                    s.spawn(move |_| tx.send(i).unwrap());
                }
                let mut got: Vec<usize> = (0..n).map(|_| rx.recv().unwrap()).collect();
                got.sort_unstable();
                assert_eq!(got, (0..n).collect::<Vec<_>>());
            })
        }
    });
}

#[test]
fn spawned_job_waits_for_the_jobs_it_spawns() {
    on_every_pool("nested spawns", |pool| {
        let (tx, rx) = mpsc::channel();
        pool.scope(|s| {
            s.spawn(move |s| {
                let (inner_tx, inner_rx) = mpsc::channel();
                for i in 0..3 {
                    let inner_tx = inner_tx.clone();
                    s.spawn(move |_| inner_tx.send(i).unwrap());
                }
                let sum: i32 = (0..3).map(|_| inner_rx.recv().unwrap()).sum();
                tx.send(sum).unwrap();
            });
        });
        assert_eq!(rx.recv().unwrap(), 3);
    });
}

#[test]
fn install_waits_for_pool_spawns() {
    on_every_pool("pool spawns", |pool| {
        pool.install(|| {
            let (tx, rx) = mpsc::channel();
            for i in 0..4 {
                let tx = tx.clone();
                prorata::spawn(move || tx.send(i).unwrap());
            }
            let mut got: Vec<i32> = (0..4).map(|_| rx.recv().unwrap()).collect();
            got.sort_unstable();
            assert_eq!(got, vec![0, 1, 2, 3]);
        })
    });
}

#[test]
fn repeated_blocking_scopes() {
    // Many rounds, so that the owner's blocks are reused and robbed in every state.
    on_every_pool("repeated", |pool| {
        for round in 0..200 {
            pool.scope(|s| {
                let (tx, rx) = mpsc::channel();
                for i in 0..(round % 5 + 2) {
                    let tx = tx.clone();
                    // The body stops listening once the last job has sent: an earlier
                    // one may run after it on another worker (their order across
                    // workers is unspecified, as with Rayon), and finds no receiver.
                    s.spawn(move |_| {
                        let _ = tx.send(i);
                    });
                }
                let last = round % 5 + 1;
                while rx.recv().unwrap() != last {}
            })
        }
    });
}

#[test]
fn waiting_worker_runs_another_callers_call() {
    // The second half of a join blocks until another thread's `install` has run. The
    // half's own worker is blocked, so the worker waiting for that half (or a third one)
    // must run the other call: a waiting worker leaves calls from outside to others
    // for a while, but only for a while.
    on_every_pool("a call from outside while a join waits", |pool| {
        use std::sync::atomic::{AtomicBool, Ordering};
        for _ in 0..20 {
            let b_started = AtomicBool::new(false);
            let other_ran = AtomicBool::new(false);
            std::thread::scope(|s| {
                let (a, b) = pool.install(|| {
                    prorata::join(
                        || {
                            while !b_started.load(Ordering::Acquire) {
                                std::hint::spin_loop();
                            }
                            1
                        },
                        || {
                            b_started.store(true, Ordering::Release);
                            let caller = s.spawn(|| {
                                pool.install(|| other_ran.store(true, Ordering::Release));
                            });
                            while !other_ran.load(Ordering::Acquire) {
                                std::thread::yield_now();
                            }
                            caller.join().unwrap();
                            2
                        },
                    )
                });
                assert_eq!((a, b), (1, 2));
            });
        }
    });
}
