//! Shared by the `iter_collect_*` tests: pools, lengths, an iterator that hides its
//! length, and items that record their drops.

#![allow(dead_code)] // each test file uses a part

use std::sync::atomic::{AtomicUsize, Ordering};

use prorata::iter::plumbing::UnindexedConsumer;
use prorata::prelude::*;

/// Pools of 1, 2 and 8 workers (fewer under Miri, which is slow).
pub fn pools() -> Vec<prorata::ThreadPool> {
    let sizes: &[usize] = if cfg!(miri) { &[1, 3] } else { &[1, 2, 8] };
    sizes
        .iter()
        .copied()
        .map(|n| {
            prorata::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect()
}

/// The lengths every test covers: empty, one, small, around a leaf's run, large.
#[cfg(not(miri))]
pub const LENS: &[usize] = &[0, 1, 2, 7, 4095, 4096, 4097, 100_000];
/// Under Miri, small lengths only.
#[cfg(miri)]
pub const LENS: &[usize] = &[0, 1, 2, 7, 33];

/// Runs `check(len)` for every length on every pool.
pub fn for_all(check: impl Fn(usize) + Sync) {
    for pool in pools() {
        for &len in LENS {
            pool.install(|| check(len));
        }
    }
}

/// Wraps an iterator and hides its length, so collections take their unindexed path.
pub struct Unindexed<I>(pub I);

impl<I: ParallelIterator> ParallelIterator for Unindexed<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        self.0.drive_unindexed(consumer)
    }
}

/// Records, per item id, how many items were made and how many times each was dropped.
pub struct Board {
    made: Vec<AtomicUsize>,
    dropped: Vec<AtomicUsize>,
}

impl Board {
    pub fn new(len: usize) -> Self {
        Board {
            made: (0..len).map(|_| AtomicUsize::new(0)).collect(),
            dropped: (0..len).map(|_| AtomicUsize::new(0)).collect(),
        }
    }

    /// A tracked item with this id.
    pub fn item(&self, id: usize) -> Tracked<'_> {
        self.made[id].fetch_add(1, Ordering::Relaxed);
        Tracked { id, board: self }
    }

    /// Asserts that every item made was dropped exactly once; returns how many were made.
    pub fn assert_all_dropped_once(&self) -> usize {
        let mut made_total = 0;
        for (id, (made, dropped)) in self.made.iter().zip(&self.dropped).enumerate() {
            let (made, dropped) = (
                made.load(Ordering::Relaxed),
                dropped.load(Ordering::Relaxed),
            );
            assert!(made <= 1, "item {id} made {made} times");
            assert_eq!(made, dropped, "item {id}: made {made}, dropped {dropped}");
            made_total += made;
        }
        made_total
    }
}

/// An item whose drop is recorded on a [`Board`].
pub struct Tracked<'b> {
    pub id: usize,
    board: &'b Board,
}

impl std::fmt::Debug for Tracked<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tracked({})", self.id)
    }
}

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.board.dropped[self.id].fetch_add(1, Ordering::Relaxed);
    }
}

/// Runs `op`, expecting a panic, and returns its message.
pub fn panic_message(op: impl FnOnce()) -> String {
    let payload =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(op)).expect_err("expected a panic");
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic>".to_string()
    }
}
