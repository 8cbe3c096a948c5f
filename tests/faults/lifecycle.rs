//! Pools dropped with work in flight on the thread that is their worker 0
//! (`use_current_thread`): the work queued there still runs, on the other workers.

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
