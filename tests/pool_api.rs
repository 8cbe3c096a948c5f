//! Every public function of the pool, one behaviour each.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use prorata::{ThreadPool, ThreadPoolBuildErrorKind, ThreadPoolBuilder, Yield};

fn pool(n: usize) -> ThreadPool {
    ThreadPoolBuilder::new().num_threads(n).build().unwrap()
}

#[test]
fn builder_options() {
    let started = Arc::new(AtomicUsize::new(0));
    let exited = Arc::new(AtomicUsize::new(0));
    let (s, e) = (Arc::clone(&started), Arc::clone(&exited));
    let (exit_tx, exit_rx) = mpsc::channel();
    let exit_tx = Mutex::new(exit_tx);
    let p = ThreadPoolBuilder::new()
        .num_threads(3)
        .thread_name(|i| format!("pw-{i}"))
        .stack_size(256 * 1024)
        .start_handler(move |i| {
            assert!(i < 3);
            s.fetch_add(1, Ordering::SeqCst);
        })
        .exit_handler(move |i| {
            assert!(i < 3);
            e.fetch_add(1, Ordering::SeqCst);
            exit_tx.lock().unwrap().send(i).unwrap();
        })
        .build()
        .unwrap();
    let names = p.broadcast(|_| std::thread::current().name().unwrap().to_string());
    assert_eq!(names, ["pw-0", "pw-1", "pw-2"]);
    drop(p);
    let mut exits: Vec<usize> = exit_rx.iter().take(3).collect();
    exits.sort();
    assert_eq!(exits, [0, 1, 2]);
    assert_eq!(started.load(Ordering::SeqCst), 3);
    assert_eq!(exited.load(Ordering::SeqCst), 3);
    assert!(format!("{:?}", ThreadPoolBuilder::new().num_threads(2)).contains("num_threads: 2"));
}

#[test]
fn num_threads_zero_means_default_and_huge_is_clamped() {
    let p = ThreadPoolBuilder::new().num_threads(0).build().unwrap();
    assert!(p.current_num_threads() >= 1);
    assert!(prorata::max_num_threads() >= 256);
}

#[test]
fn spawn_failure_is_an_error_not_a_panic() {
    let err = ThreadPoolBuilder::new()
        .num_threads(2)
        .stack_size(usize::MAX / 2)
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ThreadPoolBuildErrorKind::ThreadSpawn);
    assert!(std::error::Error::source(&err).is_some());
    // Rayon shows the operating system's error alone.
    let rayon_err = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .stack_size(usize::MAX / 2)
        .build()
        .unwrap_err();
    assert_eq!(err.to_string(), rayon_err.to_string());
}

#[test]
fn use_current_thread_makes_caller_worker_zero() {
    let p = ThreadPoolBuilder::new()
        .num_threads(2)
        .use_current_thread()
        .build()
        .unwrap();
    assert_eq!(p.current_thread_index(), Some(0));
    assert_eq!(prorata::current_thread_index(), Some(0));
    assert_eq!(prorata::current_num_threads(), 2);
    let (a, b) = prorata::join(|| 1, || 2);
    assert_eq!(a + b, 3);
    // A second pool cannot also take this thread.
    let err = ThreadPoolBuilder::new()
        .use_current_thread()
        .build()
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ThreadPoolBuildErrorKind::CurrentThreadAlreadyInPool
    );
    assert_eq!(
        err.to_string(),
        "The current thread is already part of another thread pool."
    );
    drop(p);
    assert_eq!(prorata::current_thread_index(), None);
}

/// A `use_current_thread` pool of `n` workers built on a new thread, which runs `f` with
/// it, then exits; returns the indices of the workers that ran a broadcast spawned
/// before `f` (worker 0's part runs on the building thread when it waits or yields, or
/// on the thread that takes worker 0's place when that thread lets it go).
fn with_current_thread_pool(n: usize, f: impl FnOnce(ThreadPool) + Send + 'static) -> Vec<usize> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let p = ThreadPoolBuilder::new()
            .num_threads(n)
            .use_current_thread()
            .build()
            .unwrap();
        let tx = Mutex::new(tx);
        p.spawn_broadcast(move |ctx| tx.lock().unwrap().send(ctx.index()).unwrap());
        f(p);
    })
    .join()
    .unwrap();
    let mut ran: Vec<usize> = rx.iter().take(n).collect();
    ran.sort_unstable();
    ran
}

#[test]
fn use_current_thread_pool_dropped_inside_a_join_on_its_thread() {
    // The join's second half may be queued on worker 0's deque: the thread stays
    // worker 0 (until it exits, as with Rayon) instead of handing the worker to a new
    // thread under the join's feet.
    let ran = with_current_thread_pool(2, |p| {
        let mut slot = Some(p);
        let (inside, b) = prorata::join(
            || {
                drop(slot.take());
                prorata::current_thread_index()
            },
            || 2,
        );
        assert_eq!((inside, b), (Some(0), 2));
        assert_eq!(prorata::current_thread_index(), Some(0));
    });
    assert_eq!(ran, [0, 1]);
}

#[test]
fn use_current_thread_pool_dropped_inside_a_scope_or_a_job_on_its_thread() {
    // A scope's body: the scope then waits on worker 0 for its jobs.
    let ran = with_current_thread_pool(2, |p| {
        let mut slot = Some(p);
        let done = AtomicUsize::new(0);
        prorata::in_place_scope(|s| {
            for _ in 0..4 {
                s.spawn(|_| {
                    done.fetch_add(1, Ordering::SeqCst);
                });
            }
            drop(slot.take());
            assert_eq!(prorata::current_thread_index(), Some(0));
        });
        assert_eq!(done.load(Ordering::SeqCst), 4);
        assert_eq!(prorata::current_thread_index(), Some(0));
    });
    assert_eq!(ran, [0, 1]);

    // A job that worker 0 runs from `yield_local`, dropping the pool it belongs to.
    let ran = with_current_thread_pool(1, |p| {
        let slot = Mutex::new(Some(p));
        prorata::scope(|s| {
            s.spawn(|_| {
                let pool: Option<ThreadPool> = slot.lock().unwrap().take();
                drop(pool);
                assert_eq!(prorata::current_thread_index(), Some(0));
            });
            while prorata::yield_local() == Some(Yield::Executed) {}
            assert!(slot.lock().unwrap().is_none());
            assert_eq!(prorata::current_thread_index(), Some(0));
        });
    });
    assert_eq!(ran, [0]);
}

#[test]
fn build_scoped_runs_wrapper_on_each_thread() {
    let wrapped = AtomicUsize::new(0);
    let borrowed = [1, 2, 3];
    let r = ThreadPoolBuilder::new()
        .num_threads(2)
        .build_scoped(
            |t| {
                wrapped.fetch_add(1, Ordering::SeqCst);
                t.run()
            },
            |p| p.install(|| borrowed.iter().sum::<i32>()),
        )
        .unwrap();
    assert_eq!(r, 6);
    assert_eq!(wrapped.load(Ordering::SeqCst), 2);
}

#[test]
fn thread_pool_queries() {
    let p = pool(2);
    assert_eq!(p.current_num_threads(), 2);
    assert_eq!(p.current_thread_index(), None);
    assert_eq!(p.current_thread_has_pending_tasks(), None);
    assert_eq!(p.yield_now(), None);
    assert_eq!(p.yield_local(), None);
    let idx = p.install(|| (p.current_thread_index(), prorata::current_thread_index()));
    assert!(idx.0.is_some() && idx.0 == idx.1);
    assert!(format!("{p:?}").contains("num_threads: 2"));
}

#[test]
fn pending_tasks_and_yield_local_see_join_b() {
    let p = pool(1);
    p.install(|| {
        let ran_b = AtomicUsize::new(0);
        prorata::join(
            || {
                assert_eq!(p.current_thread_has_pending_tasks(), Some(true));
                // Runs B (the only local job) right here.
                assert_eq!(prorata::yield_local(), Some(Yield::Executed));
                assert_eq!(ran_b.load(Ordering::SeqCst), 1);
                assert_eq!(p.yield_local(), Some(Yield::Idle));
            },
            || {
                ran_b.fetch_add(1, Ordering::SeqCst);
            },
        );
        assert_eq!(ran_b.load(Ordering::SeqCst), 1);
    });
}

#[test]
fn yield_now_runs_a_spawned_job() {
    let p = pool(1);
    let (tx, rx) = mpsc::channel();
    p.install(|| {
        prorata::spawn(move || tx.send(()).unwrap());
        assert_eq!(prorata::yield_now(), Some(Yield::Executed));
        assert_eq!(p.yield_now(), Some(Yield::Idle));
    });
    rx.recv().unwrap();
    assert_eq!(prorata::yield_now(), None);
    assert_eq!(prorata::yield_local(), None);
}

#[test]
fn spawn_inside_pool_goes_to_that_pool() {
    let p = pool(2);
    let (tx, rx) = mpsc::channel();
    p.install(|| {
        let tx2 = tx.clone();
        prorata::spawn(move || tx2.send(prorata::current_num_threads()).unwrap());
        prorata::spawn_fifo(move || tx.send(prorata::current_num_threads()).unwrap());
    });
    assert_eq!(rx.recv().unwrap(), 2);
    assert_eq!(rx.recv().unwrap(), 2);
}

#[test]
fn global_spawn_and_broadcast() {
    let (tx, rx) = mpsc::channel();
    let tx2 = tx.clone();
    prorata::spawn(move || tx.send(1).unwrap());
    prorata::spawn_fifo(move || tx2.send(2).unwrap());
    let mut got: Vec<i32> = rx.iter().take(2).collect();
    got.sort();
    assert_eq!(got, [1, 2]);
    let n = prorata::current_num_threads();
    let v = prorata::broadcast(|ctx| (ctx.index(), ctx.num_threads()));
    assert_eq!(v, (0..n).map(|i| (i, n)).collect::<Vec<_>>());
    let (tx, rx) = mpsc::channel();
    prorata::spawn_broadcast(move |ctx| tx.send(ctx.index()).unwrap());
    let mut idx: Vec<usize> = rx.iter().take(n).collect();
    idx.sort();
    assert_eq!(idx, (0..n).collect::<Vec<_>>());
}

#[test]
fn broadcast_from_inside_and_across_pools() {
    let a = pool(2);
    let b = pool(3);
    let v = a.install(|| {
        (
            prorata::broadcast(|c| c.index()),
            b.broadcast(|c| c.index()),
        )
    });
    assert_eq!(v, (vec![0, 1], vec![0, 1, 2]));
    let (tx, rx) = mpsc::channel();
    b.spawn_broadcast(move |c| tx.send(c.num_threads()).unwrap());
    assert_eq!(rx.iter().take(3).collect::<Vec<_>>(), [3, 3, 3]);
}

#[test]
fn scope_orders_on_one_worker() {
    let p = pool(1);
    let order = Mutex::new(Vec::new());
    p.scope(|s| {
        for i in 0..4 {
            let order = &order;
            s.spawn(move |_| order.lock().unwrap().push(i));
        }
    });
    assert_eq!(*order.lock().unwrap(), [3, 2, 1, 0], "scope: newest first");
    let order = Mutex::new(Vec::new());
    p.scope_fifo(|s| {
        for i in 0..4 {
            let order = &order;
            s.spawn_fifo(move |_| order.lock().unwrap().push(i));
        }
    });
    assert_eq!(
        *order.lock().unwrap(),
        [0, 1, 2, 3],
        "scope_fifo: oldest first"
    );
}

#[test]
fn in_place_scopes_run_body_on_caller() {
    let p = pool(2);
    let caller = std::thread::current().id();
    let count = AtomicUsize::new(0);
    p.in_place_scope(|s| {
        assert_eq!(std::thread::current().id(), caller);
        for _ in 0..10 {
            s.spawn(|_| {
                assert!(prorata::current_thread_index().is_some());
                count.fetch_add(1, Ordering::SeqCst);
            });
        }
    });
    p.in_place_scope_fifo(|s| {
        assert_eq!(std::thread::current().id(), caller);
        s.spawn_fifo(|_| {
            count.fetch_add(1, Ordering::SeqCst);
        });
    });
    prorata::in_place_scope(|s| {
        s.spawn(|_| {
            count.fetch_add(1, Ordering::SeqCst);
        })
    });
    prorata::in_place_scope_fifo(|s| {
        s.spawn_fifo(|_| {
            count.fetch_add(1, Ordering::SeqCst);
        })
    });
    // From a worker: the scope's jobs go to that worker's pool.
    p.install(|| {
        prorata::in_place_scope(|s| {
            s.spawn(|_| {
                count.fetch_add(1, Ordering::SeqCst);
            })
        })
    });
    assert_eq!(count.load(Ordering::SeqCst), 14);
}

#[test]
fn scope_spawn_broadcast_runs_on_every_worker() {
    let p = pool(3);
    let hits = Mutex::new(Vec::new());
    p.scope(|s| {
        s.spawn_broadcast(|_, ctx| hits.lock().unwrap().push(ctx.index()));
    });
    p.scope_fifo(|s| {
        s.spawn_broadcast(|_, ctx| hits.lock().unwrap().push(ctx.index() + 10));
    });
    let mut h = hits.into_inner().unwrap();
    h.sort();
    assert_eq!(h, [0, 1, 2, 10, 11, 12]);
}

#[test]
fn global_free_functions_from_plain_thread() {
    let mut v = [0; 3];
    prorata::scope(|s| {
        for (i, x) in v.iter_mut().enumerate() {
            s.spawn(move |_| *x = i + 1);
        }
    });
    assert_eq!(v, [1, 2, 3]);
    prorata::scope_fifo(|s| {
        for x in v.iter_mut() {
            s.spawn_fifo(move |_| *x *= 2);
        }
    });
    assert_eq!(v, [2, 4, 6]);
    assert_eq!(prorata::current_thread_index(), None);
}

#[test]
fn nested_installs_across_pools_do_not_deadlock() {
    let a = pool(1);
    let b = pool(1);
    // a's only worker waits on b, and b's job needs a: the waiting worker keeps running
    // a's jobs, so this completes.
    let r = a.install(|| b.install(|| a.install(|| prorata::join(|| 1, || 2))));
    assert_eq!(r, (1, 2));
}

#[test]
fn drop_from_inside_the_pool_does_not_hang() {
    let slot = Arc::new(Mutex::new(Some(pool(2))));
    let (tx, rx) = mpsc::channel();
    let s2 = Arc::clone(&slot);
    slot.lock().unwrap().as_ref().unwrap().spawn(move || {
        let p = s2.lock().unwrap().take().unwrap();
        drop(p);
        tx.send(()).unwrap();
    });
    rx.recv().unwrap();
    assert!(slot.lock().unwrap().is_none());
}

#[test]
fn drop_lets_queued_work_finish() {
    let p = pool(2);
    let (tx, rx) = mpsc::channel();
    for i in 0..100 {
        let tx = tx.clone();
        p.spawn(move || tx.send(i).unwrap());
    }
    drop(p);
    drop(tx);
    let mut done: Vec<usize> = rx.iter().collect();
    done.sort();
    assert_eq!(done, (0..100).collect::<Vec<_>>());
}

#[test]
fn busy_leaves_bound_on_queued_jobs() {
    fn recurse(depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (a, b) = prorata::join(|| recurse(depth - 1), || recurse(depth - 1));
        a + b
    }
    const D: u32 = 14;
    for n in [1, 2, 4] {
        let p = pool(n);
        p.broadcast(|_| prorata::debug_take_max_queued_jobs());
        assert_eq!(p.install(|| recurse(D)), 1 << D);
        let maxes = p.broadcast(|_| prorata::debug_take_max_queued_jobs().unwrap());
        for (i, m) in maxes.iter().enumerate() {
            assert!(
                *m <= D as usize,
                "worker {i} of {n} queued {m} jobs > depth {D}"
            );
        }
        assert!(maxes.iter().any(|&m| m > 0));
    }
    assert_eq!(prorata::debug_take_max_queued_jobs(), None);
}

#[test]
fn scoped_broadcast_body_is_dropped_before_scope_ends() {
    struct CountOnDrop<'a>(&'a AtomicUsize);
    impl Drop for CountOnDrop<'_> {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let p = pool(3);
    for _ in 0..50 {
        let dropped = AtomicUsize::new(0);
        p.scope(|s| {
            let guard = CountOnDrop(&dropped);
            s.spawn_broadcast(move |_, _| {
                let _ = &guard;
            });
        });
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
        let dropped = AtomicUsize::new(0);
        p.scope_fifo(|s| {
            let guard = CountOnDrop(&dropped);
            s.spawn_broadcast(move |_, _| {
                let _ = &guard;
            });
        });
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
    }
}

#[test]
fn panic_while_building_stops_started_threads() {
    let exited = Arc::new(AtomicUsize::new(0));
    let e = Arc::clone(&exited);
    let r = std::panic::catch_unwind(move || {
        ThreadPoolBuilder::new()
            .num_threads(3)
            .thread_name(|i| {
                assert!(i < 1, "no name for worker {i}");
                format!("w{i}")
            })
            .exit_handler(move |_| {
                e.fetch_add(1, Ordering::SeqCst);
            })
            .build()
    });
    assert!(r.is_err());
    // Worker 0 was started before the panic: it must exit (not wait forever).
    let start = std::time::Instant::now();
    while exited.load(Ordering::SeqCst) < 1 && start.elapsed() < std::time::Duration::from_secs(20)
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert_eq!(exited.load(Ordering::SeqCst), 1);
}

/// The order in which a one-thread pool runs a tree of spawns (each job spawns two
/// children until depth 3), recorded by `$crate_`'s scope.
macro_rules! spawn_order {
    ($crate_:ident, $builder:expr) => {{
        fn tree<'s>(s: &$crate_::Scope<'s>, order: &'s Mutex<Vec<u32>>, node: u32) {
            order.lock().unwrap().push(node);
            if node < 8 {
                s.spawn(move |s| tree(s, order, 2 * node));
                s.spawn(move |s| tree(s, order, 2 * node + 1));
            }
        }
        let order = Mutex::new(Vec::new());
        $builder
            .num_threads(1)
            .build()
            .unwrap()
            .scope(|s| tree(s, &order, 1));
        order.into_inner().unwrap()
    }};
}

#[test]
#[allow(deprecated)]
fn breadth_first_runs_spawns_in_rayons_order() {
    let ours = spawn_order!(prorata, ThreadPoolBuilder::new().breadth_first());
    let theirs = spawn_order!(rayon, rayon::ThreadPoolBuilder::new().breadth_first());
    assert_eq!(ours, theirs);
    assert_eq!(ours, (1..16).collect::<Vec<_>>(), "level by level");
    let ours = spawn_order!(prorata, ThreadPoolBuilder::new());
    let theirs = spawn_order!(rayon, rayon::ThreadPoolBuilder::new());
    assert_eq!(ours, theirs, "depth first without the hint");
    let bwos = ThreadPoolBuilder::new().deque(prorata::DequeKind::Bwos);
    assert_eq!(
        spawn_order!(prorata, bwos.breadth_first()),
        (1..16).collect::<Vec<_>>()
    );
}
