//! `par_bridge` with each consumer, against the sequential std equivalent: on one
//! worker (which pulls the whole iterator without the lock), and on several, with the
//! work in `next()` (where workers that mostly wait for the lock leave), after the
//! bridge (where they stay), or neither. Every item is processed once, panics in
//! `next()` and in the closures after the bridge reach the caller, and every item is
//! dropped once, whether the call ends, stops early or panics.

mod common;

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::cases::{THREADS, pool};
use common::drops::Board;
use common::panics::panic_message;
use common::work::spin;
use prorata::prelude::*;

/// Where a case's work is: `(in next(), after the bridge)`, in rounds of `spin`.
const SHAPES: &[(&str, u32, u32)] = &[
    ("no work", 0, 0),
    ("work in next()", 3, 0),
    ("work after the bridge", 0, 3),
    ("work on both sides", 2, 2),
];

/// Lengths: empty, one, a few, a few thousand (enough for the workers to meet at the
/// lock and leave it).
const LENS: &[usize] = &[0, 1, 5, 3000];

/// About `rounds` microseconds of work that the optimiser cannot remove.
fn work(x: u64, rounds: u32) -> u64 {
    (0..rounds).fold(x, |x, _| spin(x))
}

/// `x`, after `rounds` of work.
fn spend(x: u64, rounds: u32) -> u64 {
    std::hint::black_box(work(x, rounds));
    x
}

/// Runs `check(threads, shape, len)` in a pool of each size, for every shape and length.
fn cases(check: impl Fn(usize, (&str, u32, u32), usize) + Sync) {
    for &threads in THREADS {
        let pool = pool(threads);
        for &shape in SHAPES {
            for &len in LENS {
                pool.install(|| check(threads, shape, len));
            }
        }
    }
}

/// Counts, per item, how many times it was processed after the bridge.
struct Seen(Vec<AtomicUsize>);

impl Seen {
    fn new(len: usize) -> Self {
        Seen((0..len).map(|_| AtomicUsize::new(0)).collect())
    }

    /// Records item `x`, passing it on.
    fn saw(&self, x: u64) -> u64 {
        self.0[x as usize].fetch_add(1, Ordering::Relaxed);
        x
    }

    /// Asserts that every item was processed exactly once.
    fn assert_each_once(&self, what: &str) {
        for (i, n) in self.0.iter().enumerate() {
            assert_eq!(n.load(Ordering::Relaxed), 1, "{what}: item {i}");
        }
    }
}

/// Runs a consumer that records the items it sees on a fresh [`Seen`]; checks its
/// result against `want`, and that it saw each item once.
fn check<R: PartialEq + std::fmt::Debug>(
    what: &str,
    len: usize,
    want: R,
    run: impl FnOnce(&Seen) -> R,
) {
    let seen = Seen::new(len);
    assert_eq!(run(&seen), want, "{what}");
    seen.assert_each_once(what);
}

#[test]
fn par_bridge_consumers_give_std_results_and_process_each_item_once() {
    cases(|threads, (shape, before, after), len| {
        let what = |consumer| format!("{consumer}, {threads} workers, {shape}, {len} items");
        // The items are their own indices; the work on each side leaves them as they
        // are (`work` is only spent), so that each item can be recorded.
        let items = || (0..len as u64).map(move |x| spend(x, before));
        let after = move |x: u64| spend(x, after);
        let want: Vec<u64> = (0..len as u64).collect();
        let sum: u64 = want.iter().sum();

        check(&what("sum"), len, sum, |seen| {
            items().par_bridge().map(after).map(|x| seen.saw(x)).sum()
        });
        check(&what("count"), len, len, |seen| {
            items().par_bridge().map(after).map(|x| seen.saw(x)).count()
        });
        check(&what("reduce"), len, sum, |seen| {
            let bridge = items().par_bridge().map(after).map(|x| seen.saw(x));
            bridge.reduce(|| 0, |a, b| a + b)
        });
        let max = want.iter().copied().max();
        check(&what("reduce_with"), len, max, |seen| {
            let bridge = items().par_bridge().map(after).map(|x| seen.saw(x));
            bridge.reduce_with(u64::max)
        });
        check(&what("min"), len, want.iter().copied().min(), |seen| {
            items().par_bridge().map(after).map(|x| seen.saw(x)).min()
        });
        check(&what("collect"), len, want.clone(), |seen| {
            let bridge = items().par_bridge().map(after).map(|x| seen.saw(x));
            let mut got: Vec<u64> = bridge.collect();
            got.sort_unstable();
            got
        });
        check(&what("for_each"), len, (), |seen| {
            items().par_bridge().map(after).for_each(|x| {
                seen.saw(x);
            })
        });
        let set: HashSet<u64> = want.iter().copied().collect();
        check(&what("fold"), len, set, |seen| {
            let bridge = items().par_bridge().map(after).map(|x| seen.saw(x));
            let sets = bridge.fold(HashSet::new, |mut set, x| {
                set.insert(x);
                set
            });
            sets.reduce(HashSet::new, |mut a, b| {
                a.extend(b);
                a
            })
        });
        // Searches: one that finds nothing sees every item once; one that finds its
        // item stops, having seen each item at most once.
        check(&what("find_any (none)"), len, None, |seen| {
            let bridge = items().par_bridge().map(after).map(|x| seen.saw(x));
            bridge.find_any(|&x| x == u64::MAX)
        });
        let seen = Seen::new(len);
        let target = len as u64 / 2;
        let got = items()
            .par_bridge()
            .map(after)
            .map(|x| seen.saw(x))
            .find_any(|&x| x == target);
        assert_eq!(got, (len > 0).then_some(target), "{}", what("find_any"));
        assert!(
            seen.0.iter().all(|n| n.load(Ordering::Relaxed) <= 1),
            "{}: an item seen twice",
            what("find_any")
        );
        let got = items().par_bridge().map(after).all(|x| x < len as u64);
        assert!(got, "{}", what("all"));
        let got = items().par_bridge().map(after).any(|x| x == target);
        assert_eq!(got, len > 0, "{}", what("any"));
    });
}

/// An iterator of `len` items that panics with "next {at}" when asked for item `at`.
fn panicking_next(len: usize, at: usize, rounds: u32) -> impl Iterator<Item = u64> + Send {
    (0..len as u64).map(move |x| {
        assert!(x != at as u64, "next {at}");
        spend(x, rounds)
    })
}

#[test]
fn par_bridge_passes_on_a_panic_in_next() {
    for &threads in THREADS {
        let pool = pool(threads);
        for (len, at) in [(1, 0), (3000, 0), (3000, 1500), (3000, 2999)] {
            for rounds in [0, 3] {
                let what = format!("{threads} workers, item {at} of {len}, {rounds} rounds");
                let message = panic_message(|| {
                    pool.install(|| panicking_next(len, at, rounds).par_bridge().sum::<u64>());
                });
                assert_eq!(message, format!("next {at}"), "sum, {what}");
                let message = panic_message(|| {
                    pool.install(|| {
                        panicking_next(len, at, rounds).par_bridge().for_each(|x| {
                            std::hint::black_box(spin(x));
                        })
                    });
                });
                assert_eq!(message, format!("next {at}"), "for_each, {what}");
            }
        }
    }
}

#[test]
fn par_bridge_passes_on_a_panic_in_the_closures_after_it() {
    for &threads in THREADS {
        let pool = pool(threads);
        for (len, at) in [(1, 0), (3000, 0), (3000, 1500), (3000, 2999)] {
            for rounds in [0, 3] {
                let what = format!("{threads} workers, item {at} of {len}, {rounds} rounds");
                let items = || (0..len as u64).map(move |x| spend(x, rounds));
                let message = panic_message(|| {
                    pool.install(|| {
                        items()
                            .par_bridge()
                            .map(|x| {
                                assert!(x != at as u64, "map {at}");
                                x
                            })
                            .sum::<u64>()
                    });
                });
                assert_eq!(message, format!("map {at}"), "map, {what}");
                let message = panic_message(|| {
                    pool.install(|| {
                        items().par_bridge().reduce(
                            || 0,
                            |a, b| {
                                assert!(a != at as u64 && b != at as u64, "reduce {at}");
                                a.max(b)
                            },
                        )
                    });
                });
                assert_eq!(message, format!("reduce {at}"), "reduce, {what}");
                let message = panic_message(|| {
                    pool.install(|| {
                        items().par_bridge().for_each(|x| {
                            assert!(x != at as u64, "for_each {at}");
                        })
                    });
                });
                assert_eq!(message, format!("for_each {at}"), "for_each, {what}");
            }
        }
    }
}

#[test]
fn par_bridge_drops_every_item_once() {
    for &threads in THREADS {
        let pool = pool(threads);
        for len in [0, 1, 3000] {
            for rounds in [0, 3] {
                let what = format!("{threads} workers, {len} items, {rounds} rounds");
                // Consumed whole.
                let board = Board::new(len);
                let items: Vec<_> = (0..len).map(|i| board.item(i)).collect();
                let count = pool.install(|| {
                    items
                        .into_iter()
                        .par_bridge()
                        .map(|t| spend(t.id as u64, rounds))
                        .count()
                });
                assert_eq!(count, len, "{what}");
                assert_eq!(board.assert_all_dropped_once(), len, "{what}");
                // A search that stops early: the items never pulled are dropped with
                // the iterator.
                let board = Board::new(len);
                let items: Vec<_> = (0..len).map(|i| board.item(i)).collect();
                let found = pool.install(|| {
                    items
                        .into_iter()
                        .par_bridge()
                        .find_any(|t| t.id == len / 3 && work(t.id as u64, rounds) != 1)
                        .map(|t| t.id)
                });
                assert_eq!(found, (len > 0).then_some(len / 3), "{what}");
                assert_eq!(board.assert_all_dropped_once(), len, "find_any, {what}");
                // A panic in `next()` midway, and one after the bridge.
                if len > 0 {
                    let board = Board::new(len);
                    let items: Vec<_> = (0..len).map(|i| board.item(i)).collect();
                    let message = panic_message(|| {
                        pool.install(|| {
                            items
                                .into_iter()
                                .inspect(|t| assert!(t.id != len / 2, "next"))
                                .par_bridge()
                                .for_each(|t| {
                                    std::hint::black_box(work(t.id as u64, rounds));
                                })
                        })
                    });
                    assert_eq!(message, "next", "{what}");
                    assert_eq!(
                        board.assert_all_dropped_once(),
                        len,
                        "panic in next, {what}"
                    );
                    let board = Board::new(len);
                    let items: Vec<_> = (0..len).map(|i| board.item(i)).collect();
                    let message = panic_message(|| {
                        pool.install(|| {
                            items.into_iter().par_bridge().for_each(|t| {
                                assert!(t.id != len / 2, "for_each");
                                std::hint::black_box(work(t.id as u64, rounds));
                            })
                        })
                    });
                    assert_eq!(message, "for_each", "{what}");
                    assert_eq!(board.assert_all_dropped_once(), len, "panic after, {what}");
                }
            }
        }
    }
}
