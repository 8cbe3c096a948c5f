//! Pools dropped with work in flight on the thread that is their worker 0
//! (`use_current_thread`), or outliving that thread: the work queued there still
//! runs, and the pool's workers exit once it has.

use std::sync::mpsc::channel;
use std::sync::{Arc, Barrier};

macro_rules! current_thread_cases {
    ($module:ident, $lib:ident) => {
        mod $module {
            use super::*;

            /// Jobs spawned with `spawn` or `spawn_fifo` from worker 0 while worker 1
            /// is busy, then the pool dropped on worker 0's thread: worker 1 runs
            /// them all once free. Each round on a new thread: in Rayon, the thread
            /// stays worker 0 of the dropped pool.
            pub fn spawned_from_worker_0_then_dropped(fifo: bool) {
                for _ in 0..20 {
                    std::thread::spawn(move || round(fifo)).join().unwrap();
                }
            }

            fn round(fifo: bool) {
                {
                    let pool = $lib::ThreadPoolBuilder::new()
                        .num_threads(2)
                        .use_current_thread()
                        .build()
                        .unwrap();
                    let (tx, rx) = channel();
                    let busy = Arc::new(Barrier::new(2));
                    let b = Arc::clone(&busy);
                    let (started_tx, started_rx) = channel();
                    pool.spawn(move || {
                        started_tx.send(()).unwrap();
                        b.wait();
                    });
                    // Worker 1 took the blocking job; the next ones stay queued here.
                    started_rx.recv().unwrap();
                    for i in 0..64 {
                        let tx = tx.clone();
                        let job = move || tx.send(i).unwrap();
                        if fifo {
                            $lib::spawn_fifo(job);
                        } else {
                            $lib::spawn(job);
                        }
                    }
                    drop(pool);
                    busy.wait();
                    let mut got: Vec<i32> = rx.iter().take(64).collect();
                    got.sort();
                    assert_eq!(got, (0..64).collect::<Vec<_>>());
                }
            }
        }
    };
}

current_thread_cases!(ours, prorata);
current_thread_cases!(theirs, rayon);

#[test]
fn spawn_from_worker_0_then_drop() {
    theirs::spawned_from_worker_0_then_dropped(false);
    ours::spawned_from_worker_0_then_dropped(false);
}

/// Before the fix, the FIFO that `spawn_fifo` queues a worker's jobs in belonged to
/// the worker, and was freed with worker 0 when the pool was dropped on its thread,
/// while worker 1 still had to run the jobs (a use after free, found by the soak).
#[test]
fn spawn_fifo_from_worker_0_then_drop() {
    theirs::spawned_from_worker_0_then_dropped(true);
    ours::spawned_from_worker_0_then_dropped(true);
}

/// Waits up to 10 s for a message (a job that never runs fails the test, not hangs it).
fn recv<T>(rx: &std::sync::mpsc::Receiver<T>) -> T {
    rx.recv_timeout(std::time::Duration::from_secs(10))
        .expect("a job that should have run never ran")
}

/// A `spawn_broadcast` from worker 0's thread, then the pool dropped there: every
/// worker runs the job, worker 0 too (on a thread that takes its place), and every
/// worker then exits. Before the fix, worker 0's job never ran, so the other
/// workers never exited either. (In Rayon the thread stays worker 0 of the dropped
/// pool and the job waits for it for ever, so this runs against prorata only.)
#[test]
fn spawn_broadcast_from_worker_0_then_drop() {
    std::thread::spawn(|| {
        let exits = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let e = Arc::clone(&exits);
        let pool = prorata::ThreadPoolBuilder::new()
            .num_threads(3)
            .use_current_thread()
            .exit_handler(move |_| {
                e.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            })
            .build()
            .unwrap();
        let (tx, rx) = channel();
        pool.spawn_broadcast(move |c| tx.send(c.index()).unwrap());
        drop(pool);
        let mut got: Vec<usize> = (0..3).map(|_| recv(&rx)).collect();
        got.sort();
        assert_eq!(got, [0, 1, 2]);
        let all_exited =
            crate::child::eventually(|| exits.load(std::sync::atomic::Ordering::SeqCst) == 3);
        assert!(
            all_exited,
            "{} of 3 workers exited",
            exits.load(std::sync::atomic::Ordering::SeqCst)
        );
    })
    .join()
    .unwrap();
}

/// A pool whose only worker is the calling thread: jobs spawned, then the pool
/// dropped on that thread: they still run (before the fix, nobody ever ran them).
#[test]
fn only_worker_is_current_thread_spawn_then_drop() {
    std::thread::spawn(|| {
        let pool = prorata::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build()
            .unwrap();
        let (tx, rx) = channel();
        let tx2 = tx.clone();
        pool.spawn(move || tx.send(1).unwrap());
        pool.spawn_fifo(move || tx2.send(2).unwrap());
        drop(pool);
        let mut got = [recv(&rx), recv(&rx)];
        got.sort();
        assert_eq!(got, [1, 2]);
    })
    .join()
    .unwrap();
}

/// The thread that is worker 0 exits while the pool lives on elsewhere: a thread
/// takes worker 0's place, so a broadcast still reaches every worker (before the
/// fix it waited for ever for worker 0).
#[test]
fn worker_0_thread_exits_while_the_pool_lives() {
    let pool = std::thread::spawn(|| {
        prorata::ThreadPoolBuilder::new()
            .num_threads(2)
            .use_current_thread()
            .build()
            .unwrap()
    })
    .join()
    .unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || tx.send(pool.broadcast(|c| c.index())).unwrap());
    assert_eq!(recv(&rx), [0, 1]);
}

/// A `use_current_thread` pool built by a thread-local's destructor on a thread whose
/// thread-local holding worker 0 was destroyed already: worker 0 goes to a new thread
/// at once and the pool works. Before the fix, adopting the thread as worker 0 first
/// registered the worker, then panicked on the destroyed thread-local, inside a
/// thread-local destructor (the process aborted), leaving the thread pointing to the
/// dropped worker meanwhile.
#[test]
fn use_current_thread_pool_built_while_its_thread_exits() {
    use prorata::prelude::*;
    use std::cell::RefCell;

    struct BuildsAPool(std::sync::mpsc::Sender<usize>);
    impl Drop for BuildsAPool {
        fn drop(&mut self) {
            let pool = prorata::ThreadPoolBuilder::new()
                .num_threads(2)
                .use_current_thread()
                .build()
                .unwrap();
            let sum = pool.install(|| (0..100usize).into_par_iter().sum());
            self.0.send(sum).unwrap();
        }
    }
    thread_local!(static LATE: RefCell<Option<BuildsAPool>> = const { RefCell::new(None) });

    if crate::child::case().is_none() {
        let out = crate::child::run(
            crate::test_path!(use_current_thread_pool_built_while_its_thread_exits),
            "prorata",
        );
        assert!(
            out.status.success(),
            "{:?}; stderr:\n{}",
            out.status,
            crate::child::stderr(&out)
        );
        return;
    }
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        // Thread-locals are destroyed in the reverse order of their first use: `LATE`
        // after the one holding worker 0, which the first pool uses.
        LATE.with(|l| *l.borrow_mut() = Some(BuildsAPool(tx)));
        drop(
            prorata::ThreadPoolBuilder::new()
                .num_threads(1)
                .use_current_thread()
                .build()
                .unwrap(),
        );
    })
    .join()
    .unwrap();
    assert_eq!(recv(&rx), 4950);
}
