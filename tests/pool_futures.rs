//! `spawn_future` on the global pool, a `ThreadPool` and a `Share`: results, panics,
//! where the closure runs, dropped futures (a closure not started never runs; every
//! result and payload is dropped once), pools and shares dropped while futures of
//! them are pending, and a real executor (tokio). No timing is asserted
//! (`tests/shares_per_request.rs` checks that many such calls leave nothing behind).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::task::{Context, Poll, Waker};

use prorata::prelude::*;
use prorata::{Share, ThreadPool, ThreadPoolBuilder};

mod common;
use common::executor::{block_on, block_on_counting};
use common::panics::{PanicsOnDrop, message_of};

/// Counts the drops of the values it makes (values that outlive the test's frame).
#[derive(Clone, Default)]
struct DropCounter(Arc<AtomicUsize>);

struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl DropCounter {
    fn new() -> Self {
        Self::default()
    }
    fn make(&self) -> Counted {
        Counted(self.0.clone())
    }
    fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

fn pool(n: usize) -> ThreadPool {
    ThreadPoolBuilder::new().num_threads(n).build().unwrap()
}

/// A pool of one worker held busy until the returned sender is dropped or sent to.
fn blocked_pool() -> (ThreadPool, mpsc::Sender<()>) {
    let pool = pool(1);
    let (release, wait) = mpsc::channel::<()>();
    let (started, is_started) = mpsc::channel();
    pool.spawn(move || {
        started.send(()).unwrap();
        let _ = wait.recv();
    });
    is_started.recv().unwrap();
    (pool, release)
}

#[test]
fn results_equal_the_closures_on_every_kind_of_pool() {
    let v: Vec<u64> = (0..10_000).collect();
    let expected: u64 = v.iter().sum();
    let p = pool(2);
    let s = p.share(10).unwrap();
    let sub = s.share(3).unwrap();
    let (a, b, c, d) = (v.clone(), v.clone(), v.clone(), v);
    assert_eq!(
        block_on(prorata::spawn_future(move || a.par_iter().sum::<u64>())),
        expected
    );
    assert_eq!(
        block_on(p.spawn_future(move || b.par_iter().sum::<u64>())),
        expected
    );
    assert_eq!(
        block_on(s.spawn_future(move || c.par_iter().sum::<u64>())),
        expected
    );
    assert_eq!(
        block_on(sub.spawn_future(move || d.par_iter().sum::<u64>())),
        expected
    );
}

#[test]
fn the_closure_runs_on_a_worker_of_the_pool_it_was_given_to() {
    let p = ThreadPoolBuilder::new()
        .num_threads(2)
        .thread_name(|i| format!("futures-{i}"))
        .build()
        .unwrap();
    let name = || std::thread::current().name().map(str::to_owned);
    let (index, on) = block_on(p.spawn_future(move || (prorata::current_thread_index(), name())));
    assert!(index.is_some());
    assert!(on.unwrap().starts_with("futures-"));
    let s = p.share(5).unwrap();
    let (index, on) = block_on(s.spawn_future(move || (prorata::current_thread_index(), name())));
    assert!(index.is_some());
    assert!(on.unwrap().starts_with("prorata-share-"));
    // From inside a pool, the free function spawns into that pool.
    let inner = p.install(|| prorata::spawn_future(name));
    assert!(block_on(inner).unwrap().starts_with("futures-"));
}

#[test]
fn a_panic_resumes_where_the_future_is_awaited() {
    let p = pool(2);
    let s = p.share(5).unwrap();
    for fut in [
        p.spawn_future(|| -> u32 { panic!("boom in pool") }),
        s.spawn_future(|| -> u32 { panic!("boom in pool") }),
        prorata::spawn_future(|| -> u32 { panic!("boom in pool") }),
    ] {
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| block_on(fut)));
        assert_eq!(message_of(&*caught.unwrap_err()), "boom in pool");
    }
    // The pool and the share are still usable.
    assert_eq!(
        block_on(p.spawn_future(|| 1)) + block_on(s.spawn_future(|| 2)),
        3
    );
}

#[test]
fn the_waker_is_woken_when_the_result_is_ready() {
    let p = pool(1);
    let (go, wait) = mpsc::channel::<()>();
    let fut = p.spawn_future(move || {
        wait.recv().unwrap();
        7
    });
    let waiter = std::thread::spawn(move || block_on_counting(fut));
    std::thread::sleep(std::time::Duration::from_millis(20));
    go.send(()).unwrap();
    let (v, wakes) = waiter.join().unwrap();
    assert_eq!(v, 7);
    assert!(wakes <= 1, "woken {wakes} times for one result");
}

#[test]
fn polling_after_the_result_panics_with_a_clear_message() {
    let p = pool(1);
    let mut fut = Box::pin(p.spawn_future(|| 5));
    let mut cx = Context::from_waker(Waker::noop());
    let v = loop {
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            break v;
        }
        std::thread::yield_now();
    };
    assert_eq!(v, 5);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = fut.as_mut().poll(&mut cx);
    }));
    assert_eq!(
        message_of(&*caught.unwrap_err()),
        "prorata: a SpawnFuture was polled after it returned its result"
    );
}

#[test]
fn a_closure_whose_future_was_dropped_before_it_started_never_runs() {
    let (p, release) = blocked_pool();
    let ran = Arc::new(AtomicBool::new(false));
    let drops = DropCounter::new();
    let captured = drops.make();
    let flag = ran.clone();
    let fut = p.spawn_future(move || {
        let _keep = &captured;
        flag.store(true, Ordering::SeqCst);
    });
    drop(fut); // never blocks, though the pool's one worker is busy
    release.send(()).unwrap();
    // Jobs from outside start in order: once this one ran, the dropped one was taken.
    block_on(p.spawn_future(|| ()));
    assert!(!ran.load(Ordering::SeqCst));
    assert_eq!(drops.count(), 1, "the closure was dropped once, unrun");
}

#[test]
fn results_and_payloads_of_dropped_futures_are_dropped_once() {
    static PAYLOAD_DROPS: AtomicUsize = AtomicUsize::new(0);
    let p = pool(1);
    let drops = DropCounter::new();
    // Dropped while running: the result is dropped on the worker.
    let (started, is_started) = mpsc::channel();
    let (go, wait) = mpsc::channel::<()>();
    let value = drops.make();
    let fut = p.spawn_future(move || {
        started.send(()).unwrap();
        wait.recv().unwrap();
        value
    });
    is_started.recv().unwrap();
    drop(fut);
    go.send(()).unwrap();
    // Dropped while running, ending in a panic whose payload panics when dropped.
    let (started, is_started) = mpsc::channel();
    let (go, wait) = mpsc::channel::<()>();
    let fut = p.spawn_future(move || {
        started.send(()).unwrap();
        wait.recv().unwrap();
        std::panic::panic_any(PanicsOnDrop(&PAYLOAD_DROPS))
    });
    is_started.recv().unwrap();
    drop(fut);
    go.send(()).unwrap();
    // Dropped after it finished: the result is dropped with the future.
    let done = block_on_ready_then_drop(p.spawn_future({
        let value = drops.make();
        move || value
    }));
    assert!(done);
    block_on(p.spawn_future(|| ()));
    assert_eq!(drops.count(), 2);
    assert_eq!(PAYLOAD_DROPS.load(Ordering::SeqCst), 1);
    // The pool still works: no panic reached its (absent) handler.
    assert_eq!(block_on(p.spawn_future(|| 3)), 3);
}

/// Waits until the job behind `fut` has finished (without taking its result), then
/// drops the future; returns true.
fn block_on_ready_then_drop<T: Send + 'static>(fut: prorata::SpawnFuture<T>) -> bool {
    while format!("{fut:?}").contains("waiting") {
        std::thread::yield_now();
    }
    drop(fut);
    true
}

#[test]
fn futures_of_a_dropped_pool_still_resolve() {
    let (p, release) = blocked_pool();
    let futs: Vec<_> = (0..10u64).map(|i| p.spawn_future(move || i * i)).collect();
    drop(p);
    release.send(()).unwrap();
    let got: Vec<u64> = futs.into_iter().map(block_on).collect();
    assert_eq!(got, (0..10u64).map(|i| i * i).collect::<Vec<_>>());
}

#[test]
fn futures_of_a_dropped_share_still_resolve() {
    let p = pool(2);
    let tenant = p.share(100).unwrap();
    let (go, wait) = mpsc::channel::<()>();
    let wait = Arc::new(std::sync::Mutex::new(wait));
    let futs: Vec<_> = (0..20u64)
        .map(|i| {
            let request: Share = tenant.share(1).unwrap();
            let wait = wait.clone();
            let fut = request.spawn_future(move || {
                if i == 0 {
                    let _ = wait.lock().unwrap().recv();
                }
                (0..=i).into_par_iter().sum::<u64>()
            });
            drop(request);
            fut
        })
        .collect();
    drop(tenant);
    go.send(()).unwrap();
    let got: Vec<u64> = futs.into_iter().map(block_on).collect();
    assert_eq!(got, (0..20u64).map(|i| i * (i + 1) / 2).collect::<Vec<_>>());
}

#[test]
fn tokio_tasks_await_a_share_per_request() {
    let p = pool(2);
    let tenant = Arc::new(p.share(100).unwrap());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let total: u64 = rt.block_on(async {
        let tasks: Vec<_> = (0..200u64)
            .map(|i| {
                let tenant = tenant.clone();
                tokio::spawn(async move {
                    let request = tenant.share(1 + (i % 7) as u32).unwrap();
                    let fut = request.spawn_future(move || (0..=i).into_par_iter().sum::<u64>());
                    fut.await
                })
            })
            .collect();
        let mut total = 0;
        for t in tasks {
            total += t.await.unwrap();
        }
        total
    });
    assert_eq!(total, (0..200u64).map(|i| i * (i + 1) / 2).sum::<u64>());
    // A panic comes out of the await, as a tokio task's panic.
    let caught = rt.block_on(async {
        let request = tenant.share(1).unwrap();
        tokio::spawn(request.spawn_future(|| -> u8 { panic!("request failed") })).await
    });
    let err = caught.unwrap_err();
    assert!(err.is_panic());
    assert_eq!(message_of(&*err.into_panic()), "request failed");
}
