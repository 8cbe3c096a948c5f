//! Helpers shared by the `iter_indexed_*` and `iter_sources_*` tests: pools of several
//! sizes, and collecting a parallel iterator into a `Vec` in order through the public
//! plumbing (so the tests do not depend on `collect`).

#![allow(dead_code)]

use prorata::iter::ParallelIterator;
use prorata::iter::plumbing::*;

pub const LENGTHS: [usize; 7] = [0, 1, 2, 7, 4097, 10_000, 100_000];

pub fn pools() -> Vec<prorata::ThreadPool> {
    [1, 2, 8]
        .into_iter()
        .map(|n| {
            prorata::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect()
}

/// The items, in the iterator's order.
pub fn to_vec<I: ParallelIterator>(iter: I) -> Vec<I::Item> {
    iter.drive_unindexed(VecConsumer)
}

struct VecConsumer;

impl<T: Send> Consumer<T> for VecConsumer {
    type Folder = VecFolder<T>;
    type Reducer = Concat;
    type Result = Vec<T>;

    fn split_at(self, _index: usize) -> (Self, Self, Concat) {
        (VecConsumer, VecConsumer, Concat)
    }

    fn into_folder(self) -> VecFolder<T> {
        VecFolder(Vec::new())
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T: Send> UnindexedConsumer<T> for VecConsumer {
    fn split_off_left(&self) -> Self {
        VecConsumer
    }

    fn to_reducer(&self) -> Concat {
        Concat
    }
}

pub struct VecFolder<T>(Vec<T>);

impl<T> Folder<T> for VecFolder<T> {
    type Result = Vec<T>;

    fn consume(mut self, item: T) -> Self {
        self.0.push(item);
        self
    }

    fn complete(self) -> Vec<T> {
        self.0
    }

    fn full(&self) -> bool {
        false
    }
}

pub struct Concat;

impl<T> Reducer<Vec<T>> for Concat {
    fn reduce(self, mut left: Vec<T>, mut right: Vec<T>) -> Vec<T> {
        left.append(&mut right);
        left
    }
}

/// Counts the items of each sequential piece (each folder).
pub fn pieces<I: ParallelIterator>(iter: I) -> Vec<usize> {
    iter.drive_unindexed(PieceConsumer)
}

struct PieceConsumer;

impl<T> Consumer<T> for PieceConsumer {
    type Folder = PieceFolder;
    type Reducer = Concat;
    type Result = Vec<usize>;

    fn split_at(self, _index: usize) -> (Self, Self, Concat) {
        (PieceConsumer, PieceConsumer, Concat)
    }

    fn into_folder(self) -> PieceFolder {
        PieceFolder(0)
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T> UnindexedConsumer<T> for PieceConsumer {
    fn split_off_left(&self) -> Self {
        PieceConsumer
    }

    fn to_reducer(&self) -> Concat {
        Concat
    }
}

pub struct PieceFolder(usize);

impl<T> Folder<T> for PieceFolder {
    type Result = Vec<usize>;

    fn consume(self, _item: T) -> Self {
        PieceFolder(self.0 + 1)
    }

    fn complete(self) -> Vec<usize> {
        vec![self.0]
    }

    fn full(&self) -> bool {
        false
    }
}

/// Counts live values: every one made must be dropped exactly once.
pub mod drops {
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[derive(Debug)]
    pub struct Counted<'a> {
        pub value: usize,
        live: &'a AtomicUsize,
    }

    impl<'a> Counted<'a> {
        pub fn new(value: usize, live: &'a AtomicUsize) -> Self {
            live.fetch_add(1, Ordering::SeqCst);
            Counted { value, live }
        }
    }

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            let before = self.live.fetch_sub(1, Ordering::SeqCst);
            assert!(before > 0, "dropped twice");
        }
    }
}
