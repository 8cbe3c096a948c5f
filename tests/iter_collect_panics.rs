//! Panics while collecting: every item made is dropped exactly once, none twice, and
//! the panic reaches the caller. Iterators that lie about their length get a clear
//! panic, never undefined behaviour.

mod common;

use std::collections::LinkedList;
use std::sync::atomic::{AtomicBool, Ordering};

use common::cases::pools;
use common::drops::{Board, Tracked};
use common::panics::panic_message;
use common::plumbing::Unindexed;
use either::Either;
use prorata::iter::plumbing::*;
use prorata::prelude::*;

const LEN: usize = if cfg!(miri) { 40 } else { 20_000 };
/// Where the map closure panics: the first item, one in the middle, the last one.
const PANIC_AT: [usize; 4] = [0, 1, LEN / 2 + 3, LEN - 1];

/// Makes the tracked item of an index, or panics.
type Make<'b> = dyn Fn(usize) -> Tracked<'b> + Sync + 'b;

/// Runs `collect_with(make)` on every pool for every panic position, where `make(i)`
/// panics at that position, and checks that the panic got out and every item made was
/// dropped once.
fn check_panic_safety(collect_with: impl for<'b> Fn(&'b Make<'b>) + Sync) {
    for pool in pools() {
        for at in PANIC_AT {
            let board = Board::new(LEN);
            let make = |i: usize| {
                if i == at {
                    panic!("boom at {i}");
                }
                board.item(i)
            };
            let message = panic_message(|| pool.install(|| collect_with(&make)));
            assert_eq!(message, format!("boom at {at}"));
            board.assert_all_dropped_once();
        }
    }
}

#[test]
fn collect_in_place_drops_what_was_written() {
    check_panic_safety(|make| {
        let _: Vec<Tracked> = (0..LEN).into_par_iter().map(make).collect();
    });
}

#[test]
fn collect_in_pieces_drops_what_was_gathered() {
    check_panic_safety(|make| {
        let _: Vec<Tracked> = Unindexed((0..LEN).into_par_iter()).map(make).collect();
    });
}

#[test]
fn collect_into_a_linked_list_drops_what_was_linked() {
    check_panic_safety(|make| {
        let _: LinkedList<Tracked> = (0..LEN).into_par_iter().map(make).collect();
    });
    check_panic_safety(|make| {
        let _: LinkedList<Tracked> = Unindexed((0..LEN).into_par_iter()).map(make).collect();
    });
}

#[test]
fn collect_into_vec_drops_what_was_written() {
    check_panic_safety(|make| {
        let mut target = Vec::new();
        (0..LEN)
            .into_par_iter()
            .map(make)
            .collect_into_vec(&mut target);
    });
}

#[test]
fn par_extend_keeps_the_old_items_intact() {
    for pool in pools() {
        let old = Board::new(3);
        let new = Board::new(LEN);
        let mut target: Vec<Tracked> = (0..3).map(|i| old.item(i)).collect();
        let message = panic_message(|| {
            pool.install(|| {
                target.par_extend((0..LEN).into_par_iter().map(|i| {
                    assert!(i != LEN / 3, "boom");
                    new.item(i)
                }))
            })
        });
        assert!(message.contains("boom"));
        new.assert_all_dropped_once();
        assert_eq!(target.len(), 3);
        assert_eq!(target.iter().map(|t| t.id).collect::<Vec<_>>(), [0, 1, 2]);
        drop(target);
        old.assert_all_dropped_once();
    }
}

#[test]
fn unzip_drops_both_halves() {
    check_panic_safety(|make| {
        let _: (Vec<Tracked>, Vec<usize>) = (0..LEN).into_par_iter().map(|i| (make(i), i)).unzip();
    });
    check_panic_safety(|make| {
        let _: (Vec<usize>, Vec<Tracked>) = Unindexed((0..LEN).into_par_iter())
            .map(|i| (i, make(i)))
            .unzip();
    });
}

#[test]
fn unzip_into_vecs_drops_both_halves() {
    // Two boards: one for each side of the pairs.
    for pool in pools() {
        for at in PANIC_AT {
            let (left, right) = (Board::new(LEN), Board::new(LEN));
            let message = panic_message(|| {
                pool.install(|| {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    (0..LEN)
                        .into_par_iter()
                        .map(|i| {
                            assert!(i != at, "boom");
                            (left.item(i), right.item(i))
                        })
                        .unzip_into_vecs(&mut a, &mut b);
                })
            });
            assert!(message.contains("boom"));
            left.assert_all_dropped_once();
            right.assert_all_dropped_once();
        }
    }
}

#[test]
fn partition_drops_both_sides() {
    check_panic_safety(|make| {
        let _: (Vec<Tracked>, Vec<Tracked>) = (0..LEN)
            .into_par_iter()
            .map(make)
            .partition(|t| t.id % 3 == 0);
    });
    check_panic_safety(|make| {
        let _: (Vec<Tracked>, Vec<usize>) = (0..LEN).into_par_iter().partition_map(|i| {
            let item = make(i);
            if i % 2 == 0 {
                Either::Left(item)
            } else {
                Either::Right(item.id)
            }
        });
    });
}

#[test]
fn collect_string_and_option_propagate_panics() {
    let message = panic_message(|| {
        let _: String = (0..LEN)
            .into_par_iter()
            .map(|i| if i == 77 { panic!("char {i}") } else { 'x' })
            .collect();
    });
    assert_eq!(message, "char 77");
    check_panic_safety(|make| {
        let _: Option<Vec<Tracked>> = (0..LEN).into_par_iter().map(|i| Some(make(i))).collect();
    });
}

// ---- Iterators that lie about their length -----------------------------------------

/// Claims `claimed` items but its producer yields `actual` (made on `board`).
struct Liar<'b> {
    claimed: usize,
    actual: usize,
    board: &'b Board,
}

impl<'b> ParallelIterator for Liar<'b> {
    type Item = Tracked<'b>;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.claimed)
    }
}

impl IndexedParallelIterator for Liar<'_> {
    fn len(&self) -> usize {
        self.claimed
    }

    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(LiarProducer {
            ids: 0..self.actual,
            board: self.board,
        })
    }
}

/// Yields the tracked items of its ids; splits clamp to what it really has.
struct LiarProducer<'b> {
    ids: std::ops::Range<usize>,
    board: &'b Board,
}

impl<'b> Producer for LiarProducer<'b> {
    type Item = Tracked<'b>;
    type IntoIter = std::vec::IntoIter<Tracked<'b>>;

    fn into_iter(self) -> Self::IntoIter {
        self.ids
            .map(|i| self.board.item(i))
            .collect::<Vec<_>>()
            .into_iter()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let mid = (self.ids.start + index).min(self.ids.end);
        let board = self.board;
        (
            LiarProducer {
                ids: self.ids.start..mid,
                board,
            },
            LiarProducer {
                ids: mid..self.ids.end,
                board,
            },
        )
    }
}

/// Collects a [`Liar`] into a fresh vector with `collect_into_vec` (or `collect`),
/// expecting a panic; checks that nothing was kept or leaked and returns the message
/// and how many items were made.
fn collect_liar(
    pool: &prorata::ThreadPool,
    claimed: usize,
    actual: usize,
    into_vec: bool,
) -> (String, usize) {
    let board = Board::new(claimed.max(actual));
    let liar = || Liar {
        claimed,
        actual,
        board: &board,
    };
    let mut target = Vec::new();
    let message = panic_message(|| {
        pool.install(|| {
            if into_vec {
                liar().collect_into_vec(&mut target);
            } else {
                target = liar().collect();
            }
        })
    });
    assert!(target.is_empty());
    (message, board.assert_all_dropped_once())
}

#[test]
fn too_few_items_panic_clearly_and_leak_nothing() {
    for pool in pools() {
        for (claimed, actual) in [(1, 0), (1000, 600), (LEN, LEN - 1), (LEN, 1)] {
            let expected = format!("expected {claimed} total writes, but got {actual}");
            for into_vec in [false, true] {
                let (message, made) = collect_liar(&pool, claimed, actual, into_vec);
                assert_eq!(message, expected);
                assert_eq!(made, actual);
            }
        }
    }
}

#[test]
fn too_many_items_panic_clearly_and_leak_nothing() {
    for pool in pools() {
        for (claimed, actual) in [(0, 1), (600, 1000), (LEN - 1, LEN)] {
            for into_vec in [false, true] {
                let (message, _) = collect_liar(&pool, claimed, actual, into_vec);
                assert!(message.contains("more items than"), "{message}");
            }
        }
    }
}

#[test]
fn a_known_length_driven_without_index_panics_clearly() {
    /// Claims a length but splits like an unindexed iterator.
    struct Pretender(AtomicBool);
    impl ParallelIterator for Pretender {
        type Item = u8;
        fn drive_unindexed<C: UnindexedConsumer<u8>>(self, consumer: C) -> C::Result {
            let left = consumer.split_off_left();
            let reducer = consumer.to_reducer();
            self.0.store(true, Ordering::Relaxed);
            reducer.reduce(
                left.into_folder().complete(),
                consumer.into_folder().complete(),
            )
        }
        fn opt_len(&self) -> Option<usize> {
            Some(4)
        }
    }
    let message = panic_message(|| {
        let _: Vec<u8> = Pretender(AtomicBool::new(false)).collect();
    });
    assert!(message.contains("without an index"), "{message}");
}

#[test]
fn owned_sources_collected_with_a_panic_drop_everything_once() {
    for pool in pools() {
        for at in PANIC_AT {
            let board = Board::new(LEN);
            let source: Vec<Tracked> = (0..LEN).map(|i| board.item(i)).collect();
            let message = panic_message(|| {
                let _: Vec<Tracked> = pool.install(|| {
                    source
                        .into_par_iter()
                        .map(|t| {
                            assert!(t.id != at, "boom");
                            t
                        })
                        .collect()
                });
            });
            assert!(message.contains("boom"));
            assert_eq!(board.assert_all_dropped_once(), LEN);
        }
    }
}

#[test]
fn owned_sources_collect_by_moving_every_item() {
    for pool in pools() {
        let board = Board::new(LEN);
        let source: Vec<Tracked> = (0..LEN).map(|i| board.item(i)).collect();
        let (even, odd): (Vec<Tracked>, Vec<Tracked>) =
            pool.install(|| source.into_par_iter().partition(|t| t.id % 2 == 0));
        assert!(even.iter().all(|t| t.id % 2 == 0) && odd.iter().all(|t| t.id % 2 == 1));
        assert_eq!(even.len() + odd.len(), LEN);
        drop((even, odd));
        assert_eq!(board.assert_all_dropped_once(), LEN);
    }
}
