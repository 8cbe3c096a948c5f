//! `ThreadPool::wait`: the pool ends and the call returns only once the threads it
//! started have exited. Threads are counted in `/proc/self/task` by name (each test
//! names its pool's threads with a prefix of its own, under the kernel's 15
//! characters); every case runs under a watchdog, so a hang fails the test instead of
//! stalling the suite. No timing is asserted: the jobs that sleep only make sure that
//! the pool still has something to finish when `wait` is called, so that a `wait`
//! that did not wait would be seen.
#![cfg(target_os = "linux")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use prorata::ThreadPoolBuilder;
use prorata::prelude::*;

mod common;
use common::executor::live_threads_named;
use common::panics::panic_message;
use common::watchdog::{WATCHDOG, finishes_within};

/// Long enough that a pool is still busy when `wait` is called right after.
const BUSY: Duration = Duration::from_millis(30);

/// The message of `ThreadPool::wait` called from inside its pool.
const INSIDE: &str =
    "prorata: ThreadPool::wait called from inside the pool, which it would wait for";

/// A counter for an exit handler, and the handler.
fn exit_counter() -> (Arc<AtomicUsize>, impl Fn(usize) + Send + Sync + 'static) {
    let exited = Arc::new(AtomicUsize::new(0));
    let e = Arc::clone(&exited);
    (exited, move |_| {
        e.fetch_add(1, Ordering::SeqCst);
    })
}

#[test]
fn no_thread_of_the_pool_remains() {
    finishes_within(WATCHDOG, "wait", || {
        let pool = ThreadPoolBuilder::new()
            .num_threads(4)
            .thread_name(|i| format!("sd-gone-{i}"))
            .build()
            .unwrap();
        let sum: u64 = pool.install(|| (0..10_000u64).into_par_iter().sum());
        assert_eq!(sum, 49_995_000);
        // Each worker has run (a thread takes its name once it runs): the count
        // sees them all.
        pool.broadcast(|_| ());
        assert_eq!(
            live_threads_named("sd-gone-"),
            4,
            "the count sees the workers"
        );
        pool.spawn(|| std::thread::sleep(BUSY));
        pool.wait();
        assert_eq!(live_threads_named("sd-gone-"), 0);
    });
}

#[test]
fn queued_spawns_run_before_it_returns() {
    finishes_within(WATCHDOG, "wait", || {
        let pool = ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|i| format!("sd-queue-{i}"))
            .build()
            .unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        // The only worker is held until the others are queued behind it.
        let (open, gate) = mpsc::channel::<()>();
        pool.spawn(move || {
            gate.recv().unwrap();
            std::thread::sleep(BUSY);
        });
        for _ in 0..100 {
            let ran = Arc::clone(&ran);
            pool.spawn(move || {
                ran.fetch_add(1, Ordering::SeqCst);
                // A spawn from a spawned job counts too.
                let again = Arc::clone(&ran);
                prorata::spawn(move || {
                    again.fetch_add(1, Ordering::SeqCst);
                });
            });
        }
        open.send(()).unwrap();
        pool.wait();
        assert_eq!(ran.load(Ordering::SeqCst), 200);
        assert_eq!(live_threads_named("sd-queue-"), 0);
    });
}

#[test]
fn exit_handler_ran_for_every_worker() {
    finishes_within(WATCHDOG, "wait", || {
        let (exited, on_exit) = exit_counter();
        let pool = ThreadPoolBuilder::new()
            .num_threads(3)
            .thread_name(|i| format!("sd-exit-{i}"))
            .exit_handler(on_exit)
            .build()
            .unwrap();
        pool.spawn_broadcast(|_| std::thread::sleep(BUSY));
        pool.wait();
        assert_eq!(exited.load(Ordering::SeqCst), 3);
    });
}

#[test]
fn jobs_running_when_called_finish_first() {
    finishes_within(WATCHDOG, "wait", || {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .thread_name(|i| format!("sd-busy-{i}"))
            .build()
            .unwrap();
        let finished = Arc::new(AtomicUsize::new(0));
        let (started, running) = mpsc::channel();
        let f = Arc::clone(&finished);
        pool.spawn_broadcast(move |_| {
            started.send(()).unwrap();
            std::thread::sleep(BUSY);
            f.fetch_add(1, Ordering::SeqCst);
        });
        // Both jobs run now.
        running.iter().take(2).for_each(drop);
        pool.wait();
        assert_eq!(finished.load(Ordering::SeqCst), 2);
        assert_eq!(live_threads_named("sd-busy-"), 0);
    });
}

#[test]
fn from_its_own_worker_it_panics() {
    let message = finishes_within(WATCHDOG, "wait from a worker", || {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .thread_name(|i| format!("sd-self-{i}"))
            .build()
            .unwrap();
        // The pool's handle goes to one of its own jobs, which calls `wait`.
        let (handle, pool_here) = mpsc::channel();
        let (tell, told) = mpsc::channel();
        pool.spawn(move || {
            let pool: prorata::ThreadPool = pool_here.recv().unwrap();
            tell.send(panic_message(move || pool.wait())).unwrap();
        });
        handle.send(pool).unwrap();
        told.recv().unwrap()
    });
    assert_eq!(message, INSIDE);
}

#[test]
fn from_a_worker_of_its_share_it_panics() {
    let message = finishes_within(WATCHDOG, "wait from a share's worker", || {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .share_cores(1)
            .thread_name(|i| format!("sd-shin-{i}"))
            .build()
            .unwrap();
        let share = pool.share(10).unwrap();
        let message = share.install(move || panic_message(move || pool.wait()));
        drop(share);
        message
    });
    assert_eq!(message, INSIDE);
}

#[test]
fn many_pools_leave_no_thread() {
    finishes_within(WATCHDOG, "wait in a loop", || {
        for round in 0..40 {
            let pool = ThreadPoolBuilder::new()
                .num_threads(3)
                .thread_name(|i| format!("sd-many-{i}"))
                .build()
                .unwrap();
            let n: usize = pool.install(|| {
                (0..1000usize)
                    .into_par_iter()
                    .filter(|x| x % 7 == 0)
                    .count()
            });
            assert_eq!(n, 143);
            pool.spawn(|| std::thread::sleep(Duration::from_millis(2)));
            pool.wait();
            assert_eq!(live_threads_named("sd-many-"), 0, "round {round}");
        }
    });
}

#[test]
fn with_a_spawn_handler_every_run_has_returned() {
    finishes_within(WATCHDOG, "wait with a spawn handler", || {
        let (exited, on_exit) = exit_counter();
        let threads = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&threads);
        let pool = ThreadPoolBuilder::new()
            .num_threads(3)
            .thread_name(|i| format!("sd-hand-{i}"))
            .exit_handler(on_exit)
            .spawn_handler(move |thread| {
                let b = std::thread::Builder::new().name(thread.name().unwrap().to_owned());
                kept.lock().unwrap().push(b.spawn(move || thread.run())?);
                Ok(())
            })
            .build()
            .unwrap();
        pool.spawn_broadcast(|_| std::thread::sleep(BUSY));
        pool.wait();
        // Every worker's `run` has returned (its exit handler ran before); the
        // threads are the handler's to join.
        assert_eq!(exited.load(Ordering::SeqCst), 3);
        for t in threads.lock().unwrap().drain(..) {
            t.join().unwrap();
        }
    });
}

#[test]
fn shares_are_not_waited_for() {
    finishes_within(WATCHDOG, "wait with a share", || {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .thread_name(|i| format!("sd-share-{i}"))
            .build()
            .unwrap();
        let share = pool.share(10).unwrap();
        let sum: u64 = share.install(|| (0..1000u64).into_par_iter().sum());
        assert_eq!(sum, 499_500);
        pool.spawn(|| std::thread::sleep(BUSY));
        pool.wait();
        assert_eq!(live_threads_named("sd-share-"), 0);
        // The share is a pool of its own: it still works.
        assert_eq!(share.install(|| 6 * 7), 42);
    });
}

/// The two cases of `use_current_thread` look at the threads named
/// `prorata-worker-0` (`prorata-worker-` in the kernel's 15 characters), which only
/// they start in this binary: one at a time.
static CURRENT_THREAD: Mutex<()> = Mutex::new(());

/// `prorata-worker-0`, as `/proc` shows it.
const HANDED_OFF: &str = "prorata-worker-";

#[test]
fn use_current_thread_called_on_the_building_thread() {
    let _one = CURRENT_THREAD.lock().unwrap_or_else(|e| e.into_inner());
    finishes_within(WATCHDOG, "wait on the building thread", || {
        let (exited, on_exit) = exit_counter();
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .use_current_thread()
            .thread_name(|i| format!("sd-cur-{i}"))
            .exit_handler(on_exit)
            .build()
            .unwrap();
        // Work for worker 0 that this thread never runs: the thread that takes
        // worker 0 over runs it.
        pool.spawn_broadcast(|_| std::thread::sleep(BUSY));
        pool.wait();
        assert_eq!(exited.load(Ordering::SeqCst), 2, "both workers ended");
        assert_eq!(live_threads_named("sd-cur-"), 0);
        assert_eq!(live_threads_named(HANDED_OFF), 0, "the takeover is joined");
    });
}

#[test]
fn use_current_thread_called_on_another_thread() {
    let _one = CURRENT_THREAD.lock().unwrap_or_else(|e| e.into_inner());
    finishes_within(WATCHDOG, "wait on another thread", || {
        let (exited, on_exit) = exit_counter();
        let (pool_out, pool_in) = mpsc::channel();
        let (release, released) = mpsc::channel::<()>();
        // The building thread stays worker 0 until it exits, after the wait.
        let builder = std::thread::spawn(move || {
            let pool = ThreadPoolBuilder::new()
                .num_threads(2)
                .use_current_thread()
                .thread_name(|i| format!("sd-oth-{i}"))
                .exit_handler(on_exit)
                .build()
                .unwrap();
            pool_out.send(pool).unwrap();
            released.recv().unwrap();
        });
        let pool: prorata::ThreadPool = pool_in.recv().unwrap();
        pool.wait();
        // Worker 1 is gone; worker 0 is still the building thread's.
        assert_eq!(live_threads_named("sd-oth-"), 0);
        assert_eq!(exited.load(Ordering::SeqCst), 1);
        release.send(()).unwrap();
        builder.join().unwrap();
        // The thread that took worker 0 over at the building thread's exit ends on
        // its own: let it go before the other case counts.
        while exited.load(Ordering::SeqCst) < 2 || live_threads_named(HANDED_OFF) > 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

#[test]
fn the_quota_thread_of_a_pool_that_follows_its_quota_is_joined_too() {
    finishes_within(WATCHDOG, "quota thread", || {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .follow_cpu_quota()
            .build()
            .unwrap();
        assert_eq!(
            pool.install(|| (0..100u64).into_par_iter().sum::<u64>()),
            4950
        );
        // The thread names itself once it runs (on a loaded machine, after the
        // build returned): wait for it under the watchdog.
        while live_threads_named("prorata-quota") == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(live_threads_named("prorata-quota"), 1);
        pool.wait();
        assert_eq!(live_threads_named("prorata-quota"), 0);
    });
}
