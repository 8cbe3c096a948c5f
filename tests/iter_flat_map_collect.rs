//! `flat_map` and `flat_map_iter` collected into collections, with items that own heap
//! memory: the results equal the sequential std ones (in order, empty inner vectors
//! included), a panic in the closure reaches the caller with every item dropped
//! exactly once, and consumers whose pieces user code sees (`fold`, `map_init`) still
//! get the pieces Rayon gives them.
//!
//! `collect` folds small inner iterators into the piece it is filling; these tests
//! cover both that path and the one of longer inner iterators (driven on their own).

mod common;

use std::collections::LinkedList;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use common::cases::{noise, pool, pools};
use common::drops::{Board, Tracked};
use prorata::prelude::*;

/// Inner lengths for input `i`: mostly small (0 to 6: the folded path, empty ones
/// included), now and then long (100 or 300: driven on their own).
fn inner_len(i: usize) -> usize {
    match noise(i) % 50 {
        0 => 300,
        1 => 100,
        n => (n % 7) as usize,
    }
}

/// What input `i` becomes: strings naming `i` and their place.
fn expand(i: usize) -> Vec<String> {
    (0..inner_len(i)).map(|j| format!("{i}-{j}")).collect()
}

const LENS: &[usize] = &[0, 1, 2, 7, 100, 5000, 40_000];

#[test]
fn flat_map_collect_equals_std() {
    for pool in pools() {
        for &len in LENS {
            let expected: Vec<String> = (0..len).flat_map(expand).collect();
            pool.install(|| {
                let got: Vec<String> = (0..len).into_par_iter().flat_map(expand).collect();
                assert_eq!(got, expected, "flat_map, len {len}");
                let got: Vec<String> = (0..len).into_par_iter().flat_map_iter(expand).collect();
                assert_eq!(got, expected, "flat_map_iter, len {len}");
                let got: Vec<String> = (0..len).into_par_iter().map(expand).flatten().collect();
                assert_eq!(got, expected, "flatten, len {len}");
            });
        }
    }
}

#[test]
fn flat_map_of_adapted_inner_iterators_collects_in_order() {
    for pool in pools() {
        for &len in LENS {
            let expected: Vec<String> = (0..len)
                .flat_map(|i| expand(i).into_iter().map(|s| s + "!"))
                .map(|s| s.to_uppercase())
                .collect();
            pool.install(|| {
                let got: Vec<String> = (0..len)
                    .into_par_iter()
                    .flat_map(|i| expand(i).into_par_iter().map(|s| s + "!"))
                    .map(|s| s.to_uppercase())
                    .collect();
                assert_eq!(got, expected, "len {len}");
            });
        }
    }
}

#[test]
fn flat_map_into_nested_vecs_and_other_collections() {
    let len = 20_000;
    // Items that are themselves vectors of strings (some empty).
    let nested = |i: usize| -> Vec<Vec<String>> {
        (0..inner_len(i) % 4)
            .map(|j| (0..j).map(|k| format!("{i}.{j}.{k}")).collect())
            .collect()
    };
    let expected: Vec<Vec<String>> = (0..len).flat_map(nested).collect();
    let joined: String = (0..len).flat_map(expand).collect();
    let listed: LinkedList<String> = (0..len).flat_map(expand).collect();
    for pool in pools() {
        pool.install(|| {
            let got: Vec<Vec<String>> = (0..len).into_par_iter().flat_map(nested).collect();
            assert_eq!(got, expected);
            let got: String = (0..len).into_par_iter().flat_map(expand).collect();
            assert_eq!(got, joined);
            let got: LinkedList<String> = (0..len).into_par_iter().flat_map(expand).collect();
            assert_eq!(got, listed);
            let list = (0..len).into_par_iter().flat_map(expand).collect_vec_list();
            assert!(list.iter().all(|piece| !piece.is_empty()), "an empty piece");
            assert!(list.into_iter().flatten().eq(listed.iter().cloned()));

            let mut extended = vec!["first".to_string()];
            extended.par_extend((0..len).into_par_iter().flat_map(expand));
            assert_eq!(extended[0], "first");
            assert!(extended[1..].iter().eq(listed.iter()));
        });
    }
}

#[test]
fn flat_map_of_only_empty_inner_vecs_collects_nothing() {
    for pool in pools() {
        pool.install(|| {
            let got: Vec<String> = (0..10_000usize)
                .into_par_iter()
                .flat_map(|_| Vec::<String>::new())
                .collect();
            assert!(got.is_empty() && got.capacity() == 0);
            // No piece at all, not empty ones.
            let list = (0..10_000usize)
                .into_par_iter()
                .flat_map(|_| Vec::<String>::new())
                .collect_vec_list();
            assert!(list.is_empty(), "{} empty pieces", list.len());
        });
    }
}

/// Runs `run(board, bad)`, which must panic with "boom", on every pool, for a panic at
/// the first, a middle and the last call of the closure; checks the message and that
/// every item made was dropped once.
fn panics_balanced(run: impl Fn(&Board, usize) + Sync) {
    common::panics::panics_balanced(PANIC_LEN, PANIC_LEN * 9, run);
}

const PANIC_LEN: usize = 20_000;

/// The tracked items input `i` becomes: 0 to 6 of them, or 8 for one input in 64
/// (ids `9 i` to `9 i + 7`; `9 i + 8` is left for one more).
fn tracked(board: &Board, i: usize) -> Vec<Tracked<'_>> {
    let n = if i % 64 == 5 { 8 } else { i % 7 };
    (0..n).map(|j| board.item(9 * i + j)).collect()
}

#[test]
fn panic_in_flat_map_closure_drops_every_item_once() {
    panics_balanced(|board, bad| {
        let _: Vec<Tracked> = (0..PANIC_LEN)
            .into_par_iter()
            .flat_map(|i| {
                let items = tracked(board, i);
                assert!(i != bad, "boom at {bad}");
                items
            })
            .collect();
    });
}

#[test]
fn panic_in_flat_map_iter_closure_drops_every_item_once() {
    panics_balanced(|board, bad| {
        let _: Vec<Tracked> = (0..PANIC_LEN)
            .into_par_iter()
            .flat_map_iter(|i| {
                let items = tracked(board, i);
                assert!(i != bad, "boom at {bad}");
                items
            })
            .collect();
    });
}

#[test]
fn panic_inside_an_inner_iterator_drops_every_item_once() {
    panics_balanced(|board, bad| {
        let _: Vec<Tracked> = (0..PANIC_LEN)
            .into_par_iter()
            .flat_map(|i| {
                let mut items = tracked(board, i);
                items.push(board.item(9 * i + 8));
                items.into_par_iter().map(move |t| {
                    assert!(t.id != 9 * bad + 8, "boom at {bad}");
                    t
                })
            })
            .collect();
    });
}

/// The pieces a `fold` after `flat_map` makes over `0..n` on a pool of `workers`
/// (each inner vector of 4 items may be split), with prorata and with Rayon.
fn fold_pieces(workers: usize, n: usize) -> (usize, usize) {
    let ours = {
        let pieces = AtomicUsize::new(0);
        let sum = pool(workers).install(|| {
            (0..n)
                .into_par_iter()
                .flat_map(|i| vec![i; 4])
                .fold(
                    || {
                        pieces.fetch_add(1, Relaxed);
                        0
                    },
                    |a, x| a + x,
                )
                .collect::<Vec<usize>>()
        });
        assert_eq!(sum.iter().sum::<usize>(), 4 * (0..n).sum::<usize>());
        pieces.into_inner()
    };
    (ours, rayon_fold_pieces(workers, n))
}

/// The same with Rayon.
fn rayon_fold_pieces(workers: usize, n: usize) -> usize {
    use rayon::iter::{IntoParallelIterator, ParallelIterator};
    let pieces = AtomicUsize::new(0);
    let sum: usize = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .unwrap()
        .install(|| {
            IntoParallelIterator::into_par_iter(0..n)
                .flat_map(|i| vec![i; 4])
                .fold(
                    || {
                        pieces.fetch_add(1, Relaxed);
                        0
                    },
                    |a, x| a + x,
                )
                .sum()
        });
    assert_eq!(sum, 4 * (0..n).sum::<usize>());
    pieces.into_inner()
}

#[test]
fn fold_after_flat_map_sees_as_many_pieces_as_with_rayon() {
    // One worker: nothing is stolen, so both counts are deterministic: Rayon splits
    // every inner vector of 4 in two, and prorata's drivers split as Rayon's.
    for n in [1, 10, 1000, 20_000] {
        let (ours, theirs) = fold_pieces(1, n);
        assert_eq!(ours, theirs, "n = {n}");
    }
    // Two workers: Rayon splits every inner vector into 4 pieces when nothing is
    // stolen (steals only add pieces).
    let (ours, _) = fold_pieces(2, 20_000);
    assert!(ours >= 4 * 20_000, "two workers: {ours} pieces");
}

/// How often `map_init` after `flat_map` over `0..n` (3 items per input) calls its
/// init on a pool of one worker, with prorata and with Rayon.
fn map_init_inits(n: usize) -> (usize, usize) {
    let expected: Vec<usize> = (0..n).flat_map(|i| [i; 3]).collect();
    let ours = AtomicUsize::new(0);
    let got: Vec<usize> = pool(1).install(|| {
        (0..n)
            .into_par_iter()
            .flat_map(|i| vec![i; 3])
            .map_init(|| ours.fetch_add(1, Relaxed), |_, x| x)
            .collect()
    });
    assert_eq!(got, expected);
    let theirs = AtomicUsize::new(0);
    let got: Vec<usize> = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| {
            use rayon::iter::{IntoParallelIterator, ParallelIterator};
            IntoParallelIterator::into_par_iter(0..n)
                .flat_map(|i| vec![i; 3])
                .map_init(|| theirs.fetch_add(1, Relaxed), |_, x| x)
                .collect()
        });
    assert_eq!(got, expected);
    (ours.into_inner(), theirs.into_inner())
}

#[test]
fn map_init_after_flat_map_inits_as_often_as_with_rayon() {
    // `map_init` calls its init once per piece; on one worker (nothing stolen) Rayon
    // splits every inner vector of 3 in two, and so does prorata, although `collect`
    // alone would fold them into the piece it is filling.
    for n in [1, 10, 10_000] {
        let (ours, theirs) = map_init_inits(n);
        assert_eq!(ours, theirs, "n = {n}");
    }
}
