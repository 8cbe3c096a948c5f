//! Shares on a real pool: the pool API inside a share, proportions between
//! competing shares (generous bounds, measured from outside by items done), and
//! work conservation.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use prorata::prelude::*;
use prorata::{ShareError, ThreadPoolBuilder};

mod common;
use common::work::{keep_busy, spin, three_equal_shares};

/// Waits until `done()` holds; a generous deadline turns a hang into a failure.
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited for {what}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn the_pool_api_works_inside_a_share() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let s = pool.share(10).unwrap();
    let v: Vec<u64> = (0..10_000u64).collect();
    let sum = AtomicU64::new(0);
    s.install(|| {
        v.par_iter().for_each(|x| {
            sum.fetch_add(x * 2, Ordering::Relaxed);
        })
    });
    assert_eq!(sum.into_inner(), v.iter().map(|x| x * 2).sum::<u64>());
    assert_eq!(s.join(|| 1, || 2), (1, 2));
    let mut hits = [0u8; 4];
    s.scope(|sc| {
        for h in hits.iter_mut() {
            sc.spawn(move |_| *h = 1);
        }
    });
    assert_eq!(hits, [1; 4]);
    assert_eq!(s.broadcast(|c| c.index()).len(), 2);
    assert_eq!(s.install(prorata::current_num_threads), 2);
    let child = s.share(3).unwrap();
    assert_eq!(child.install(|| 5), 5);
    assert!(s.stats().grants >= 1);
}

#[test]
fn share_errors() {
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(pool.share(0).unwrap_err(), ShareError::ZeroTickets);
    let a = pool.share(u32::MAX - 1).unwrap();
    assert_eq!(pool.share(2).unwrap_err(), ShareError::TicketOverflow);
    assert_eq!(a.set_tickets(0), Err(ShareError::ZeroTickets));
    drop(a);
    // The dropped share's tickets are gone once its worker has exited (the drop does
    // not wait for it).
    eventually("the dropped share's tickets to go", || {
        pool.share(2).is_ok()
    });
}

#[test]
fn a_panic_in_a_share_propagates_and_the_share_stays_usable() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let s = pool.share(1).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.install(|| (0..100).into_par_iter().for_each(|i| assert!(i != 50)))
    }));
    assert!(r.is_err());
    assert_eq!(s.install(|| 3), 3);
}

#[test]
fn dropping_a_share_lets_its_work_finish() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let s = pool.share(7).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    for i in 0..50 {
        let tx = tx.clone();
        s.spawn(move || {
            std::hint::black_box(spin(1));
            tx.send(i).unwrap();
        });
    }
    drop(s);
    drop(tx);
    let mut done: Vec<u64> = rx.iter().collect();
    done.sort();
    assert_eq!(done, (0..50).collect::<Vec<_>>());
    // Its tickets go once its workers exit: a share of the whole range fits again.
    eventually("the dropped share's tickets to go", || {
        pool.share(u32::MAX).is_ok()
    });
}

#[test]
fn a_share_waiting_on_another_lends_it_its_tickets_and_completes() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let a = pool.share(300).unwrap();
    let b = pool.share(100).unwrap();
    let v: Vec<usize> = (0..50_000).collect();
    let total = AtomicU64::new(0);
    a.install(|| {
        // A worker of a blocks on b: b runs with a's tickets too, and nothing hangs.
        b.install(|| {
            v.par_iter().for_each(|&x| {
                total.fetch_add(x as u64, Ordering::Relaxed);
            })
        })
    });
    assert_eq!(total.into_inner(), v.iter().map(|&x| x as u64).sum::<u64>());
}

#[test]
fn currencies_and_competing_shares_complete_every_item() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let alice = pool.share(300).unwrap();
    let t1 = alice.share(200).unwrap();
    let t2 = alice.share(100).unwrap();
    let bob = pool.share(100).unwrap();
    let counts: Vec<AtomicU64> = (0..3).map(|_| AtomicU64::new(0)).collect();
    std::thread::scope(|s| {
        for (share, count) in [&t1, &t2, &bob].into_iter().zip(&counts) {
            s.spawn(move || {
                share.install(|| {
                    (0..200_000usize).into_par_iter().for_each(|i| {
                        std::hint::black_box(i);
                        count.fetch_add(1, Ordering::Relaxed);
                    })
                })
            });
        }
    });
    for c in &counts {
        assert_eq!(c.load(Ordering::Relaxed), 200_000);
    }
    assert!(t1.stats().core_time > Duration::ZERO);
}

#[test]
fn a_share_of_the_global_pool() {
    let s = prorata::share(5).unwrap();
    let hits = AtomicU64::new(0);
    s.install(|| {
        (0..1000usize).into_par_iter().for_each(|_| {
            hits.fetch_add(1, Ordering::Relaxed);
        })
    });
    assert_eq!(hits.into_inner(), 1000);
}

#[test]
fn share_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<prorata::Share>();
    check::<prorata::ShareStats>();
    check::<ShareError>();
}

#[test]
fn no_new_shares_once_the_pool_is_dropped() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let a = pool.share(1).unwrap();
    drop(pool);
    assert_eq!(a.share(1).unwrap_err(), ShareError::PoolShuttingDown);
    // The share itself keeps working until it is dropped.
    assert_eq!(a.install(|| 2 + 2), 4);
}

#[test]
fn a_share_that_ran_a_par_iter_reports_its_jobs() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let s = pool.share(3).unwrap();
    assert_eq!((s.stats().jobs, s.stats().steals), (0, 0));
    let sum: u64 = s.install(|| (0..100_000u64).into_par_iter().map(spin).count() as u64);
    assert_eq!(sum, 100_000);
    let st = s.stats();
    assert!(st.jobs > 0, "{st:?}");
    assert!(st.steals <= st.jobs, "{st:?}");
    // A plain pool's workers count nothing, and a sibling share has its own count.
    let other = pool.share(1).unwrap();
    assert_eq!(other.stats().jobs, 0);
}

/// A dropped share's workers exit without taking a core: the drop completes while
/// another share's worker holds the only permit and never reaches a safe point
/// (it blocks on a channel). Before, each retiring worker took a permit just to
/// exit, so this drop waited for the other share to give its core back.
#[test]
fn a_dropped_share_retires_without_taking_a_core() {
    use std::sync::mpsc::channel;
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_cores(1)
        .build()
        .unwrap();
    let busy = pool.share(1).unwrap();
    let leaving = pool.share(1).unwrap();
    // The leaving share has run (its workers took the core, then gave it back as
    // they went to sleep).
    assert_eq!(leaving.install(|| 2 + 2), 4);
    let (started_tx, started_rx) = channel();
    let (release_tx, release_rx) = channel::<()>();
    busy.spawn(move || {
        started_tx.send(()).unwrap();
        // Holds the only core, outside any prorata wait, until released.
        let _ = release_rx.recv();
    });
    started_rx.recv().unwrap();
    let (dropped_tx, dropped_rx) = channel();
    let dropper = std::thread::spawn(move || {
        drop(leaving);
        dropped_tx.send(()).unwrap();
    });
    // Generous: the drop needs no core, so it ends long before this; if it waited
    // for one, it would wait here until the core is released below.
    let dropped_first = dropped_rx.recv_timeout(Duration::from_secs(30)).is_ok();
    release_tx.send(()).unwrap();
    dropper.join().unwrap();
    assert!(dropped_first, "the dropped share waited for a core to exit");
    assert_eq!(busy.install(|| 3), 3);
}

/// With shares, the pool's own jobs take cores too, but the thread that built a
/// `use_current_thread` pool is a user's thread: it takes none (it could hold one
/// outside the pool), so its joins run even while a share holds the only core.
#[test]
fn the_current_thread_worker_takes_no_core() {
    use std::sync::mpsc::channel;
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_cores(1)
        .use_current_thread()
        .build()
        .unwrap();
    let busy = pool.share(1).unwrap();
    let (started_tx, started_rx) = channel();
    let (release_tx, release_rx) = channel::<()>();
    busy.spawn(move || {
        started_tx.send(()).unwrap();
        // Holds the only core, outside any prorata wait, until released.
        let _ = release_rx.recv();
    });
    started_rx.recv().unwrap();
    // Worker 0 is this thread: `join` runs both halves here if need be.
    let (a, b) = pool.join(|| 1, || 2);
    assert_eq!((a, b), (1, 2));
    release_tx.send(()).unwrap();
    let v: Vec<u64> = pool.install(|| (0..1000u64).into_par_iter().map(|x| x * 2).collect());
    assert_eq!(v, (0..1000u64).map(|x| x * 2).collect::<Vec<_>>());
    drop(busy);
}

#[test]
fn root_tickets_zero_is_an_error() {
    let err = ThreadPoolBuilder::new()
        .root_tickets(0)
        .build()
        .unwrap_err();
    assert_eq!(
        err.kind(),
        prorata::ThreadPoolBuildErrorKind::ZeroRootTickets
    );
    assert!(err.to_string().contains("root_tickets(0)"));
}

/// Shares of a `build_scoped` pool: their workers are started on the pool's scope
/// through its wrapper (a thread-local it sets is seen by every item a share
/// runs), they borrow the caller's data, competing shares and the pool's own job
/// complete every item, and `build_scoped` returns (the shares' idle workers
/// retire when it ends).
#[test]
fn shares_of_a_scoped_pool_run_inside_its_wrapper() {
    use std::cell::Cell;
    thread_local!(static IN_WRAPPER: Cell<bool> = const { Cell::new(false) });
    let data: Vec<u64> = (0..100_000).collect();
    let want: u64 = data.iter().sum();
    let sum_in_wrapper = || {
        data.par_iter()
            .map(|&x| {
                assert!(
                    IN_WRAPPER.with(Cell::get),
                    "an item ran outside the wrapper"
                );
                x
            })
            .sum::<u64>()
    };
    let total = ThreadPoolBuilder::new()
        .num_threads(2)
        .build_scoped(
            |thread| {
                IN_WRAPPER.with(|w| w.set(true));
                thread.run()
            },
            |pool| {
                let (a, b) = (pool.share(3).unwrap(), pool.share(1).unwrap());
                let child = a.share(1).unwrap();
                let (sa, sb, sc) = std::thread::scope(|s| {
                    let ha = s.spawn(|| a.install(sum_in_wrapper));
                    let hb = s.spawn(|| b.install(sum_in_wrapper));
                    let hc = s.spawn(|| child.install(sum_in_wrapper));
                    (ha.join().unwrap(), hb.join().unwrap(), hc.join().unwrap())
                });
                let own = pool.install(sum_in_wrapper);
                assert!(pool.stats().grants >= 1);
                sa + sb + sc + own
            },
        )
        .unwrap();
    assert_eq!(total, 4 * want);
}

/// A share kept past `build_scoped` is refused work (its workers would run
/// outside the wrapper, on a scope that has ended), with a clear panic.
#[test]
fn a_share_kept_past_build_scoped_refuses_work() {
    let share = ThreadPoolBuilder::new()
        .num_threads(2)
        .build_scoped(
            |thread| thread.run(),
            |pool| {
                let s = pool.share(1).unwrap();
                assert_eq!(s.install(|| 5), 5);
                s
            },
        )
        .unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| share.install(|| 1)));
    let payload = r.expect_err("work given after build_scoped returned");
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    assert!(msg.contains("build_scoped"), "{msg}");
    drop(share);
}

/// Two tasks of a share that wait for each other outside prorata (a channel)
/// both run, while other shares keep every core busy: the share starts a
/// thread for the second task while the first blocks (Rayon's pools do the same
/// with two threads or more). The receiving task is spawned last, so its
/// thread takes it first. Under the thread bound (on unless
/// `PRORATA_SHARE_THREAD_BOUND=0`), the share, worth two thirds of a core,
/// runs one thread, and gets its second from the watch on stalled starts (the
/// busy shares' workers or the permits' timer look). A generous timeout makes
/// a stuck share fail the test rather than hang it.
#[test]
fn tasks_of_a_share_that_wait_for_each_other_both_run() {
    use std::sync::atomic::AtomicBool;
    use std::sync::mpsc;

    let (_pool, a, others) = three_equal_shares();
    let stop = AtomicBool::new(false);
    let busy = [AtomicU64::new(0), AtomicU64::new(0)];
    let received = std::thread::scope(|s| {
        keep_busy(s, &others, &stop, &busy);
        let (tx, rx) = mpsc::channel::<u32>();
        let mut received = None;
        let got = &mut received;
        a.install(|| {
            prorata::scope(|scope| {
                scope.spawn(move |_| {
                    let _ = tx.send(7);
                });
                scope.spawn(move |_| *got = Some(rx.recv_timeout(Duration::from_secs(20))));
            })
        });
        stop.store(true, Ordering::Relaxed);
        received
    });
    assert_eq!(received, Some(Ok(7)));
}
