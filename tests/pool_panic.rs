//! Panics: caught, re-raised in the caller after all sibling jobs finished; the pool stays
//! usable; spawned panics go to the panic handler (or abort the process without one).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

use prorata::ThreadPoolBuilder;

mod common;
use common::panics::PanicsOnDrop;

fn pool(n: usize) -> prorata::ThreadPool {
    ThreadPoolBuilder::new().num_threads(n).build().unwrap()
}

fn message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

fn slow_count(done: &AtomicUsize) {
    // Long enough that a thief is likely mid-job when the other side panics.
    for _ in 0..1000 {
        std::hint::black_box(());
    }
    done.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn join_panic_in_a_waits_for_b() {
    let pool = pool(2);
    for _ in 0..50 {
        let done = AtomicUsize::new(0);
        let r = catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| prorata::join(|| panic!("left"), || slow_count(&done)))
        }));
        assert_eq!(message(r.unwrap_err()), "left");
        assert_eq!(
            done.load(Ordering::SeqCst),
            1,
            "B finished before the panic surfaced"
        );
    }
    assert_eq!(pool.install(|| prorata::join(|| 1, || 2)), (1, 2));
}

#[test]
fn join_panic_in_b_is_reraised() {
    let pool = pool(2);
    for _ in 0..50 {
        let done = AtomicUsize::new(0);
        let r = catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| prorata::join(|| slow_count(&done), || panic!("right")))
        }));
        assert_eq!(message(r.unwrap_err()), "right");
        assert_eq!(done.load(Ordering::SeqCst), 1);
    }
    assert_eq!(pool.join(|| 3, || 4), (3, 4));
}

#[test]
fn join_both_panic_reraises_one() {
    let pool = pool(2);
    let r = catch_unwind(AssertUnwindSafe(|| {
        pool.join(|| panic!("a"), || panic!("b"))
    }));
    let m = message(r.unwrap_err());
    assert!(m == "a" || m == "b");
    assert_eq!(pool.join(|| 5, || 6), (5, 6));
}

#[test]
fn scope_panic_after_all_jobs() {
    let pool = pool(3);
    let done = AtomicUsize::new(0);
    let r = catch_unwind(AssertUnwindSafe(|| {
        pool.scope(|s| {
            for i in 0..20 {
                let done = &done;
                s.spawn(move |_| {
                    if i == 7 {
                        panic!("job 7");
                    }
                    slow_count(done);
                });
            }
        })
    }));
    assert_eq!(message(r.unwrap_err()), "job 7");
    assert_eq!(done.load(Ordering::SeqCst), 19);
    // Body panics too: jobs still all run.
    let done = AtomicUsize::new(0);
    let r = catch_unwind(AssertUnwindSafe(|| {
        prorata::in_place_scope(|s| {
            for _ in 0..5 {
                s.spawn(|_| slow_count(&done));
            }
            panic!("body");
        })
    }));
    assert_eq!(message(r.unwrap_err()), "body");
    assert_eq!(done.load(Ordering::SeqCst), 5);
    assert_eq!(pool.install(|| 1), 1);
}

/// Spins (running other jobs of the pool) until the scope has recorded a panic.
fn until_a_panic_is_recorded(s: &impl std::fmt::Debug) {
    while !format!("{s:?}").contains("panicked: true") {
        if prorata::yield_now() != Some(prorata::Yield::Executed) {
            std::hint::spin_loop();
        }
    }
}

#[test]
fn scope_job_panic_whose_payload_panics_on_drop_does_not_escape_the_job() {
    // The scope keeps the first panic and drops later ones: a later payload whose drop
    // panics must not unwind out of the job (the scope would never be told the job is
    // done, and the worker would unwind through whatever waits on its stack).
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    let pool = pool(2);
    let r = catch_unwind(AssertUnwindSafe(|| {
        pool.scope(|s| {
            s.spawn(|_| panic!("first"));
            s.spawn(|s| {
                until_a_panic_is_recorded(s);
                std::panic::panic_any(PanicsOnDrop(&DROPS));
            });
        })
    }));
    assert_eq!(message(r.unwrap_err()), "first");
    assert_eq!(DROPS.load(Ordering::SeqCst), 1);
    assert_eq!(pool.install(|| 1), 1);
}

#[test]
fn scope_body_panic_whose_payload_panics_on_drop_waits_for_the_jobs() {
    // Same, for the body's panic: the scope must still wait for its jobs and re-raise
    // the first panic, not unwind at once with the payload's.
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    let pool = pool(2);
    let r = catch_unwind(AssertUnwindSafe(|| {
        pool.scope(|s| {
            s.spawn(|_| panic!("first"));
            until_a_panic_is_recorded(s);
            std::panic::panic_any(PanicsOnDrop(&DROPS));
        })
    }));
    assert_eq!(message(r.unwrap_err()), "first");
    assert_eq!(DROPS.load(Ordering::SeqCst), 1);
    assert_eq!(pool.install(|| 1), 1);
}

#[test]
fn scope_broadcast_body_whose_drop_panics_is_a_panic_of_the_scope() {
    // The body of a scoped broadcast is dropped by whoever lets go of it last (a worker
    // after its run, or the spawning thread): a panic there is re-raised by the scope
    // once everything is done, like a panic of the body itself.
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    let pool = pool(2);
    let ran = AtomicUsize::new(0);
    let r = catch_unwind(AssertUnwindSafe(|| {
        pool.in_place_scope(|s| {
            let bomb = PanicsOnDrop(&DROPS);
            let ran = &ran;
            s.spawn_broadcast(move |_, _| {
                let _ = &bomb;
                ran.fetch_add(1, Ordering::SeqCst);
            });
        })
    }));
    assert_eq!(message(r.unwrap_err()), "dropped");
    assert_eq!(ran.load(Ordering::SeqCst), 2);
    assert_eq!(DROPS.load(Ordering::SeqCst), 1);
    assert_eq!(pool.install(|| 1), 1);
}

#[test]
fn spawn_broadcast_op_whose_drop_panics_goes_to_the_handler() {
    // A spawned broadcast's closure is dropped after its last run: a panic there goes
    // to the panic handler, like a panic of the closure, not through a worker's stack.
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .panic_handler(move |p| tx.lock().unwrap().send(message(p)).unwrap())
        .build()
        .unwrap();
    let ran = std::sync::Arc::new(AtomicUsize::new(0));
    let bomb = PanicsOnDrop(&DROPS);
    let counter = std::sync::Arc::clone(&ran);
    pool.spawn_broadcast(move |_| {
        let _ = &bomb;
        counter.fetch_add(1, Ordering::SeqCst);
    });
    assert_eq!(rx.recv().unwrap(), "dropped");
    assert_eq!(ran.load(Ordering::SeqCst), 2);
    assert_eq!(DROPS.load(Ordering::SeqCst), 1);
    assert_eq!(pool.install(|| 1), 1);
    assert_eq!(pool.broadcast(|ctx| ctx.index()), [0, 1]);
}

#[test]
fn install_panic_reraised_from_plain_and_cross_pool() {
    let a = pool(2);
    let b = pool(2);
    let r = catch_unwind(AssertUnwindSafe(|| {
        a.install(|| -> i32 { panic!("install") })
    }));
    assert_eq!(message(r.unwrap_err()), "install");
    let r = a.install(|| {
        catch_unwind(AssertUnwindSafe(|| {
            b.install(|| -> i32 { panic!("cross") })
        }))
    });
    assert_eq!(message(r.unwrap_err()), "cross");
    assert_eq!(a.install(|| b.install(|| 9)), 9);
}

#[test]
fn broadcast_panic_after_all_workers() {
    let pool = pool(4);
    let ran = AtomicUsize::new(0);
    let r = catch_unwind(AssertUnwindSafe(|| {
        pool.broadcast(|ctx| {
            ran.fetch_add(1, Ordering::SeqCst);
            if ctx.index() == 2 {
                panic!("worker 2");
            }
        })
    }));
    assert_eq!(message(r.unwrap_err()), "worker 2");
    assert_eq!(ran.load(Ordering::SeqCst), 4);
    assert_eq!(pool.broadcast(|ctx| ctx.index()), [0, 1, 2, 3]);
}

#[test]
fn spawn_panic_goes_to_handler() {
    let (tx, rx) = std::sync::mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .panic_handler(move |p| tx.lock().unwrap().send(message(p)).unwrap())
        .build()
        .unwrap();
    pool.spawn(|| panic!("spawned"));
    pool.spawn_fifo(|| panic!("spawned"));
    pool.spawn_broadcast(|_| panic!("spawned"));
    pool.scope(|_| ()); // still usable
    drop(pool); // the spawned jobs still run
    let seen: Vec<String> = rx.iter().take(4).collect();
    assert!(seen.iter().all(|m| m == "spawned"), "{seen:?}");
}

const CHILD_ENV: &str = "PRORATA_TEST_ABORT_CHILD";

#[test]
fn spawn_panic_without_handler_aborts() {
    if std::env::var_os(CHILD_ENV).is_some() {
        // Child: this must abort the process.
        let pool = pool(1);
        pool.spawn(|| panic!("nobody catches this"));
        drop(pool); // returns at once; the job still runs, and aborts
        std::thread::sleep(std::time::Duration::from_secs(60));
        std::process::exit(0); // not reached if the pool aborts
    }
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            "spawn_panic_without_handler_aborts",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(CHILD_ENV, "1")
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "the child process should have aborted"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no panic handler"), "stderr: {stderr}");
}
