//! A pool's life: building with a spawn handler, dropping while work is in flight,
//! panicking start and exit handlers. The cases are written once and run against both
//! prorata and Rayon, which must behave the same (none of them may hang or abort).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex, mpsc};

macro_rules! lifecycle_cases {
    ($module:ident, $lib:ident) => {
        mod $module {
            use super::*;
            use $lib::ThreadPoolBuilder;

            /// A pool built and dropped at once, whose start handlers wait on a barrier
            /// the caller reaches only after the drop.
            pub fn drop_does_not_wait_for_start_handlers() {
                let barrier = Arc::new(Barrier::new(3));
                let b = Arc::clone(&barrier);
                let pool = ThreadPoolBuilder::new()
                    .num_threads(2)
                    .start_handler(move |_| {
                        b.wait();
                    })
                    .build()
                    .unwrap();
                drop(pool);
                barrier.wait();
            }

            /// A spawned job waits for something the caller sends after dropping the
            /// pool, then spawns once more from inside: both jobs run.
            pub fn drop_lets_spawned_jobs_run_and_spawn() {
                let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
                let (go_tx, go_rx) = mpsc::channel::<()>();
                let (done_tx, done_rx) = mpsc::channel();
                pool.spawn(move || {
                    go_rx.recv().unwrap();
                    let done = done_tx.clone();
                    $lib::spawn(move || done.send("second").unwrap());
                    done_tx.send("first").unwrap();
                });
                drop(pool);
                go_tx.send(()).unwrap();
                let mut got: Vec<&str> = done_rx.iter().take(2).collect();
                got.sort();
                assert_eq!(got, ["first", "second"]);
            }

            /// Start and exit handlers that panic: with a panic handler the pool starts,
            /// runs and shuts down, and every panic reaches the handler.
            pub fn handler_panics_go_to_the_panic_handler() {
                let panics = Arc::new(Mutex::new(Vec::new()));
                let seen = Arc::clone(&panics);
                let (exit_tx, exit_rx) = mpsc::channel();
                let exit_tx = Mutex::new(exit_tx);
                let pool = ThreadPoolBuilder::new()
                    .num_threads(3)
                    .panic_handler(move |p| {
                        let text = p.downcast_ref::<String>().cloned().unwrap_or_default();
                        seen.lock().unwrap().push(text);
                    })
                    .start_handler(|i| panic!("start {i}"))
                    .exit_handler(move |i| {
                        exit_tx.lock().unwrap().send(()).unwrap();
                        panic!("exit {i}")
                    })
                    .build()
                    .unwrap();
                assert_eq!(pool.install(|| 6 * 7), 42);
                assert_eq!(pool.broadcast(|c| c.index()), [0, 1, 2]);
                drop(pool);
                exit_rx.iter().take(3).for_each(drop);
                // The last exit handler's panic reaches the handler right after its send.
                while panics.lock().unwrap().len() < 6 {
                    std::thread::yield_now();
                }
                let mut got = panics.lock().unwrap().clone();
                got.sort();
                assert_eq!(
                    got,
                    [
                        "exit 0", "exit 1", "exit 2", "start 0", "start 1", "start 2"
                    ]
                );
            }

            /// A spawn handler starts the workers on the caller's own threads; a failure
            /// at the k-th spawn makes `build` fail with that error, and the threads
            /// already started exit.
            pub fn spawn_handler_starts_and_fails() {
                let running = Arc::new(AtomicUsize::new(0));
                let r = Arc::clone(&running);
                let handles = Mutex::new(Vec::new());
                let pool = ThreadPoolBuilder::new()
                    .num_threads(3)
                    .spawn_handler(|thread| {
                        let r = Arc::clone(&r);
                        let h = std::thread::Builder::new()
                            .name(format!("mine-{}", thread.index()))
                            .spawn(move || {
                                r.fetch_add(1, Ordering::SeqCst);
                                thread.run();
                                r.fetch_sub(1, Ordering::SeqCst);
                            })?;
                        handles.lock().unwrap().push(h);
                        Ok(())
                    })
                    .build()
                    .unwrap();
                let names = pool.broadcast(|_| std::thread::current().name().map(String::from));
                let names: Vec<String> = names.into_iter().map(Option::unwrap).collect();
                assert_eq!(names, ["mine-0", "mine-1", "mine-2"]);
                drop(pool);
                for h in handles.into_inner().unwrap() {
                    h.join().unwrap();
                }
                assert_eq!(running.load(Ordering::SeqCst), 0);

                for fail_at in 0..3 {
                    let handles = Mutex::new(Vec::new());
                    let err = ThreadPoolBuilder::new()
                        .num_threads(3)
                        .spawn_handler(|thread| {
                            if thread.index() == fail_at {
                                return Err(std::io::Error::other("no thread for you"));
                            }
                            handles
                                .lock()
                                .unwrap()
                                .push(std::thread::spawn(move || thread.run()));
                            Ok(())
                        })
                        .build()
                        .unwrap_err();
                    assert!(err.to_string().contains("no thread for you"), "{err}");
                    let handles = handles.into_inner().unwrap();
                    assert_eq!(handles.len(), fail_at);
                    for h in handles {
                        h.join().unwrap();
                    }
                }
            }

            /// Workers on scoped threads that borrow from the caller's stack.
            pub fn spawn_handler_with_scoped_threads() {
                let local = vec![1u64, 2, 3];
                let total = std::thread::scope(|s| {
                    let pool = ThreadPoolBuilder::new()
                        .num_threads(2)
                        .spawn_handler(|thread| {
                            std::thread::Builder::new().spawn_scoped(s, || thread.run())?;
                            Ok(())
                        })
                        .build()
                        .unwrap();
                    let total = pool.install(|| local.iter().sum::<u64>());
                    drop(pool);
                    total
                });
                assert_eq!(total, 6);
            }
        }
    };
}

lifecycle_cases!(ours, prorata);
lifecycle_cases!(theirs, rayon);

/// Runs one case under both libraries.
macro_rules! both {
    ($($case:ident),* $(,)?) => {$(
        #[test]
        fn $case() {
            theirs::$case();
            ours::$case();
        }
    )*};
}

both!(
    drop_does_not_wait_for_start_handlers,
    drop_lets_spawned_jobs_run_and_spawn,
    handler_panics_go_to_the_panic_handler,
    spawn_handler_starts_and_fails,
    spawn_handler_with_scoped_threads,
);
