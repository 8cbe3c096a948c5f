//! `prorata::progress` (feature `progress`): the bar ends at the number of items that
//! went through it, whichever path drives the iterator (consumer, producer, unindexed),
//! however the work is split and stolen (pools of 1, 2 and 8 workers, forced fine
//! splits, a share), when the call short-circuits and when a closure panics; and the
//! results are those of std's sequential iterators.
//!
//! Run with `cargo test --release --features progress --test progress`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use prorata::iter::plumbing::{Producer, ProducerCallback};
use prorata::prelude::*;
use prorata::progress::{ParallelProgressIterator, ProgressBar};

#[path = "iter_adaptors_support.rs"]
mod support;
use support::{LENS, for_all_cases, noise};

/// A bar that draws nothing, so the tests only count.
fn bar() -> ProgressBar {
    ProgressBar::hidden()
}

fn input(len: usize) -> Vec<u64> {
    (0..len).map(noise).collect()
}

/// One test per way of driving the wrapped iterator. Each body gets the input `v` and a
/// fresh `bar`, returns `(result, expected, items)`: the parallel result, std's, and
/// how many items should have gone through the bar.
macro_rules! bar_ends_at_item_count {
    ($($name:ident: |$v:ident, $bar:ident| $body:expr;)*) => {$(
        #[test]
        fn $name() {
            for_all_cases(|len| {
                let $v = input(len);
                let $bar = bar();
                let (got, want, items) = $body;
                assert_eq!(got, want, "len {len}");
                assert_eq!($bar.position(), items as u64, "len {len}");
            });
        }
    )*};
}

bar_ends_at_item_count! {
    // Indexed, through `drive` (collect) and `drive_unindexed` (sum).
    collect_through_consumer: |v, bar| (
        v.par_iter().progress_with(bar.clone()).map(|x| x / 3).collect::<Vec<_>>(),
        v.iter().map(|x| x / 3).collect::<Vec<_>>(),
        v.len(),
    );
    sum_through_unindexed_consumer: |v, bar| (
        v.par_iter().progress_with(bar.clone()).map(|x| x % 1000).sum::<u64>(),
        v.iter().map(|x| x % 1000).sum::<u64>(),
        v.len(),
    );
    // Fine forced splits: many pieces, each with its own tally.
    fine_splits: |v, bar| (
        v.par_iter().with_max_len(3).progress_with(bar.clone()).map(|x| x & 1).sum::<u64>(),
        v.iter().map(|x| x & 1).sum::<u64>(),
        v.len(),
    );
    // Through the producer: zip, enumerate, rev, chunks read the pieces' iterators.
    zip_reads_producer: |v, bar| (
        v.par_iter().progress_with(bar.clone()).zip(v.par_iter().rev()).map(|(a, b)| a ^ b)
            .collect::<Vec<_>>(),
        v.iter().zip(v.iter().rev()).map(|(a, b)| a ^ b).collect::<Vec<_>>(),
        v.len(),
    );
    enumerate_reads_producer: |v, bar| (
        v.par_iter().progress_with(bar.clone()).enumerate().map(|(i, x)| x.wrapping_mul(i as u64))
            .collect::<Vec<_>>(),
        v.iter().enumerate().map(|(i, x)| x.wrapping_mul(i as u64)).collect::<Vec<_>>(),
        v.len(),
    );
    rev_reads_from_the_back: |v, bar| (
        v.par_iter().progress_with(bar.clone()).rev().copied().collect::<Vec<_>>(),
        v.iter().rev().copied().collect::<Vec<_>>(),
        v.len(),
    );
    chunks_read_producer: |v, bar| (
        v.par_iter().progress_with(bar.clone()).chunks(7).map(|c| c.len()).collect::<Vec<_>>(),
        v.chunks(7).map(|c| c.len()).collect::<Vec<_>>(),
        v.len(),
    );
    // Through the producer's `fold_with` (a length limit after the bar keeps the
    // producer path and delegates folding).
    producer_fold_with: |v, bar| (
        v.par_iter().progress_with(bar.clone()).with_max_len(5).map(|x| x >> 3)
            .collect::<Vec<_>>(),
        v.iter().map(|x| x >> 3).collect::<Vec<_>>(),
        v.len(),
    );
    // A whole piece's iterator folded at once, longer than a tally's chunk.
    producer_iterator_folded: |v, bar| (
        v.par_iter().progress_with(bar.clone()).with_producer(FoldAll),
        v.iter().fold(0, |a, x| a ^ x),
        v.len(),
    );
    // An unsplittable source: one leaf hands its whole iterator to the folder.
    unsplittable_source: |v, bar| (
        prorata::iter::split(0..v.len(), |r| (r, None))
            .flat_map_iter(|r| r)
            .progress_with(bar.clone())
            .map(|i| v[i] % 5)
            .sum::<u64>(),
        v.iter().map(|x| x % 5).sum::<u64>(),
        v.len(),
    );
    // Unindexed sources and a bar placed after a filter.
    after_filter: |v, bar| (
        v.par_iter().filter(|x| *x % 3 == 0).progress_with(bar.clone()).count(),
        v.iter().filter(|x| *x % 3 == 0).count(),
        v.iter().filter(|x| *x % 3 == 0).count(),
    );
    flat_map_iter_source: |v, bar| (
        v.par_iter().flat_map_iter(|x| 0..x % 4).progress_with(bar.clone()).sum::<u64>(),
        v.iter().flat_map(|x| 0..x % 4).sum::<u64>(),
        v.iter().map(|x| x % 4).sum::<u64>(),
    );
    par_bridge_source: |v, bar| (
        v.iter().par_bridge().progress_with(bar.clone()).map(|x| x % 10).sum::<u64>(),
        v.iter().map(|x| x % 10).sum::<u64>(),
        v.len(),
    );
}

/// Folds a producer's whole sequential iterator, without splitting it.
struct FoldAll;

impl<'a> ProducerCallback<&'a u64> for FoldAll {
    type Output = u64;
    fn callback<P: Producer<Item = &'a u64>>(self, producer: P) -> u64 {
        producer.into_iter().fold(0, |a, x| a ^ x)
    }
}

/// A short-circuiting search stops early: the bar has exactly the items that went on
/// to the rest of the chain (counted by an `inspect` after the bar).
#[test]
fn short_circuit_counts_what_went_through() {
    for_all_cases(|len| {
        let (v, bar, seen) = (input(len), bar(), AtomicU64::new(0));
        let target = v.get(len / 2).copied();
        let found = v
            .par_iter()
            .progress_with(bar.clone())
            .inspect(|_| _ = seen.fetch_add(1, Relaxed))
            .find_first(|&&x| Some(x) == target);
        assert_eq!(found.copied(), target);
        assert_eq!(bar.position(), seen.load(Relaxed), "len {len}");
    });
}

/// A panic in a closure after the bar propagates; the bar still has every item that
/// reached the closure, no more (the counts are handed over as the pieces unwind).
#[test]
fn panic_counts_what_went_through() {
    for_all_cases(|len| {
        if len == 0 {
            return;
        }
        let (bar, seen) = (bar(), AtomicU64::new(0));
        let result = catch_unwind(AssertUnwindSafe(|| {
            (0..len)
                .into_par_iter()
                .progress_with(bar.clone())
                .for_each(|i| {
                    seen.fetch_add(1, Relaxed);
                    assert!(i != len / 2, "boom");
                })
        }));
        assert!(result.is_err(), "len {len}");
        assert_eq!(bar.position(), seen.load(Relaxed), "len {len}");
    });
}

/// `progress()` makes a bar of the iterator's length, and it ends full.
#[test]
fn progress_ends_at_its_length() {
    for_all_cases(|len| {
        let it = (0..len).into_par_iter().progress();
        let bar = it.progress.clone();
        assert_eq!(bar.length(), Some(len as u64));
        it.for_each(|_| ());
        assert_eq!(bar.position(), len as u64);
    });
}

/// Called from outside any pool (the caller starts alone, then the global pool joins
/// in) and inside shares that compete for the cores (workers park at safe points).
#[test]
fn outside_the_pool_and_in_competing_shares() {
    for len in LENS {
        let bar = bar();
        let total: usize = (0..len).into_par_iter().progress_with(bar.clone()).sum();
        assert_eq!((total, bar.position()), ((0..len).sum(), len as u64));
    }
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let (fg, bg) = (pool.share(300).unwrap(), pool.share(100).unwrap());
    let (fg_bar, bg_bar) = (bar(), bar());
    let count = |share: &prorata::Share, bar: &ProgressBar| {
        share.install(|| {
            let n = (0..400_000u64).into_par_iter().progress_with(bar.clone());
            n.filter(|x| noise(*x as usize) % 2 == 0).count()
        })
    };
    std::thread::scope(|s| {
        s.spawn(|| count(&fg, &fg_bar));
        s.spawn(|| count(&bg, &bg_bar));
    });
    assert_eq!((fg_bar.position(), bg_bar.position()), (400_000, 400_000));
}
