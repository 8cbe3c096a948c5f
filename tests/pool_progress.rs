//! Progress when user code blocks: a closure that waits for work its own worker has
//! left pending (the other half of its `join`, a sibling piece of a `par_iter`) must
//! not wait for ever while other workers could run that work, as in Rayon. Each case
//! runs against both libraries.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Barrier};

macro_rules! progress_cases {
    ($module:ident, $lib:ident) => {
        mod $module {
            use super::*;
            use $lib::prelude::*;

            fn pool(n: usize) -> $lib::ThreadPool {
                $lib::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .unwrap()
            }

            /// The first half of a nested join waits on a channel the second half sends to.
            pub fn nested_join_waits_for_its_other_half() {
                let pool = pool(2);
                let got = pool.install(|| {
                    $lib::join(
                        || {
                            let (tx, rx) = mpsc::channel();
                            $lib::join(move || rx.recv().unwrap(), move || tx.send(7).unwrap()).0
                        },
                        || 1,
                    )
                });
                assert_eq!(got, (7, 1));
            }

            /// Deeper: the blocking join sits under three levels of joins on the worker.
            pub fn deep_join_waits_for_its_other_half() {
                fn nest(depth: u32) -> u32 {
                    if depth == 0 {
                        let (tx, rx) = mpsc::channel();
                        return $lib::join(move || rx.recv().unwrap(), move || tx.send(1).unwrap())
                            .0;
                    }
                    let (a, b) = $lib::join(|| nest(depth - 1), || 1);
                    a + b
                }
                assert_eq!(pool(2).install(|| nest(3)), 4);
            }

            /// Both halves of a join meet at a barrier: each must run on its own thread.
            pub fn join_halves_meet_at_a_barrier() {
                let pool = pool(3);
                let barrier = Arc::new(Barrier::new(2));
                let b2 = Arc::clone(&barrier);
                let (x, y) = pool.install(|| {
                    $lib::join(
                        || {
                            $lib::join(
                                || {
                                    barrier.wait();
                                    1
                                },
                                move || {
                                    b2.wait();
                                    2
                                },
                            )
                        },
                        || 0,
                    )
                });
                assert_eq!((x, y), ((1, 2), 0));
            }

            /// A producer and a consumer on a bounded channel, in each item of a small
            /// `par_iter` on a pool with threads to spare.
            pub fn producer_and_consumer_in_each_item() {
                let pool = pool(8);
                let sums: Vec<u64> = pool.install(|| {
                    (0..3u64)
                        .into_par_iter()
                        .map(|k| {
                            let (tx, rx) = mpsc::sync_channel(1);
                            let (_, sum) = $lib::join(
                                move || (0..100u64).for_each(|i| tx.send(i * k).unwrap()),
                                move || rx.iter().sum::<u64>(),
                            );
                            sum
                        })
                        .collect()
                });
                assert_eq!(sums, [0, 4950, 9900]);
            }

            /// A scope's body waits on a channel its second spawn sends to (the first
            /// spawn keeps a thief busy for a moment).
            pub fn scope_body_waits_for_its_second_spawn() {
                let got = pool(2).install(|| {
                    $lib::scope(|s| {
                        let (tx, rx) = mpsc::channel();
                        s.spawn(|_| {});
                        s.spawn(move |_| tx.send(5).unwrap());
                        rx.recv().unwrap()
                    })
                });
                assert_eq!(got, 5);
            }

            /// The same, but the body joins while it waits (a safe point, where a
            /// worker answers an idle thief's request for work).
            pub fn scope_body_joins_while_waiting_for_its_second_spawn() {
                let done = AtomicBool::new(false);
                pool(2).install(|| {
                    $lib::scope(|s| {
                        s.spawn(|_| {});
                        s.spawn(|_| done.store(true, Ordering::Release));
                        while !done.load(Ordering::Acquire) {
                            $lib::join(|| std::hint::spin_loop(), || {});
                        }
                    })
                });
            }
        }
    };
}

progress_cases!(ours, prorata);
progress_cases!(theirs, rayon);

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
    nested_join_waits_for_its_other_half,
    deep_join_waits_for_its_other_half,
    join_halves_meet_at_a_barrier,
    producer_and_consumer_in_each_item,
    scope_body_joins_while_waiting_for_its_second_spawn,
);

/// Not with the BWoS deque, which keeps its owner's newest jobs private until the
/// owner's next push, pop or safe point: an owner blocked in user code never makes them
/// stealable (see `DequeKind::Bwos`). CI reruns this file with `PRORATA_DEQUE=bwos`.
#[test]
fn scope_body_waits_for_its_second_spawn() {
    theirs::scope_body_waits_for_its_second_spawn();
    let bwos = std::env::var("PRORATA_DEQUE").is_ok_and(|v| v.trim().eq_ignore_ascii_case("bwos"));
    if !bwos {
        ours::scope_body_waits_for_its_second_spawn();
    }
}
