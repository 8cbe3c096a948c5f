//! Threads that cannot be started: a spawn handler that refuses (or panics at) the
//! k-th spawn, a `thread_name` that panics at the k-th worker. `build` fails with the
//! error (or the panic goes on to its caller), the threads already started exit, and
//! the pool's memory is freed (the handlers it owned are dropped), for pools of
//! several sizes and every k, in prorata as in Rayon.

use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::child;

const SIZES: [usize; 5] = [1, 2, 3, 5, 8];

/// How the k-th worker fails to start.
#[derive(Clone, Copy, Debug)]
enum Failure {
    /// The spawn handler returns an error.
    Refused,
    /// The spawn handler panics.
    SpawnPanics,
    /// The `thread_name` closure panics.
    NamePanics,
}

macro_rules! spawn_failure_cases {
    ($module:ident, $lib:ident, $tag:literal) => {
        mod $module {
            use super::*;

            /// Builds a pool of `n` whose k-th worker fails to start as `how` says;
            /// checks what `build` returns and that nothing is left behind.
            pub fn fail_kth(n: usize, k: usize, how: Failure) {
                let prefix = format!("{}{:?}{n}.{k}.", $tag, how as u8);
                let witness = Arc::new(());
                let exits = Arc::new(AtomicUsize::new(0));
                let (w, e, names) = (Arc::clone(&witness), Arc::clone(&exits), prefix.clone());
                let built = catch_unwind(AssertUnwindSafe(|| {
                    $lib::ThreadPoolBuilder::new()
                        .num_threads(n)
                        .thread_name(move |i| {
                            if matches!(how, Failure::NamePanics) && i == k {
                                panic!("no name for {k}");
                            }
                            format!("{names}{i}")
                        })
                        .start_handler(move |_| {
                            let _ = &w;
                        })
                        .exit_handler(move |_| {
                            e.fetch_add(1, Ordering::SeqCst);
                        })
                        .spawn_handler(|t| {
                            if t.index() == k {
                                match how {
                                    Failure::Refused => {
                                        return Err(io::Error::other(format!("refused {k}")));
                                    }
                                    Failure::SpawnPanics => panic!("spawn {k} panics"),
                                    Failure::NamePanics => {}
                                }
                            }
                            let name = t.name().expect("named").to_owned();
                            std::thread::Builder::new()
                                .name(name)
                                .spawn(move || t.run())?;
                            Ok(())
                        })
                        .build()
                }));
                let what = format!("{} pool of {n}, worker {k} {how:?}", stringify!($lib));
                match (how, built) {
                    (Failure::Refused, Ok(Err(err))) => {
                        assert!(
                            err.to_string().contains(&format!("refused {k}")),
                            "{what}: {err}"
                        );
                    }
                    (Failure::SpawnPanics | Failure::NamePanics, Err(_)) => {}
                    (_, Ok(Ok(_))) => panic!("{what}: build succeeded"),
                    (_, other) => panic!("{what}: unexpected {:?}", other.map(|r| r.map(drop))),
                }
                assert!(
                    child::eventually(|| child::live_threads(&prefix) == 0),
                    "{what}: {} threads left",
                    child::live_threads(&prefix)
                );
                assert!(
                    child::eventually(|| Arc::strong_count(&witness) == 1),
                    "{what}: the pool's handlers were never dropped"
                );
                assert_eq!(exits.load(Ordering::SeqCst), k, "{what}: exit handlers run");
            }
        }
    };
}

spawn_failure_cases!(ours, prorata, "p");
spawn_failure_cases!(theirs, rayon, "r");

fn every_k(how: Failure) {
    for n in SIZES {
        for k in 0..n {
            theirs::fail_kth(n, k, how);
            ours::fail_kth(n, k, how);
        }
    }
}

#[test]
fn refused_kth_spawn_fails_build_and_leaves_nothing() {
    every_k(Failure::Refused);
}

#[test]
fn panicking_spawn_handler_leaves_nothing() {
    every_k(Failure::SpawnPanics);
}

#[test]
fn panicking_thread_name_leaves_nothing() {
    every_k(Failure::NamePanics);
}

/// The error of a refused spawn says what it is and carries the handler's error.
#[test]
fn refused_spawn_error_kind_and_source() {
    let err = prorata::ThreadPoolBuilder::new()
        .num_threads(2)
        .spawn_handler(|_| Err(io::Error::other("no threads today")))
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), prorata::ThreadPoolBuildErrorKind::ThreadSpawn);
    let source = std::error::Error::source(&err).expect("the io::Error");
    assert_eq!(source.to_string(), "no threads today");
    assert_eq!(
        err.to_string(),
        "could not start a worker thread: no threads today"
    );
}

/// With `use_current_thread`, a failed build leaves the calling thread outside any
/// pool, so it can build again.
#[test]
fn failed_build_with_use_current_thread_leaves_the_thread_free() {
    let err = prorata::ThreadPoolBuilder::new()
        .num_threads(3)
        .use_current_thread()
        .spawn_handler(|t| {
            if t.index() == 2 {
                return Err(io::Error::other("refused"));
            }
            std::thread::spawn(move || t.run());
            Ok(())
        })
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), prorata::ThreadPoolBuildErrorKind::ThreadSpawn);
    assert_eq!(prorata::current_thread_index(), None);
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(2)
        .use_current_thread()
        .build()
        .unwrap();
    assert_eq!(pool.current_thread_index(), Some(0));
}
