//! Collecting in pieces: every leaf fills a `Vec` of its own, and the pieces are
//! chained in order into a `LinkedList<Vec<T>>`. Joining two pieces is O(1), so this
//! is the way to gather iterators of unknown length (after `filter`, `flat_map`, ...).
//!
//! These helpers are `pub(crate)` so that every collection of the crate builds on
//! them (see the module documentation of `collect`).

use std::collections::LinkedList;

use either::Either;

use super::into_vec::extend_in_place;
use crate::iter::ParallelIterator;
use crate::iter::plumbing::*;

/// Gathers the items of `iter` in order: one `Vec` written in place when the length is
/// known (`Left`), a list of pieces otherwise (`Right`).
pub(crate) fn fast_collect<I>(iter: I) -> Either<Vec<I::Item>, LinkedList<Vec<I::Item>>>
where
    I: ParallelIterator,
{
    match iter.opt_len() {
        Some(len) => {
            let mut vec = Vec::new();
            extend_in_place(&mut vec, len, iter);
            Either::Left(vec)
        }
        None => Either::Right(iter.drive_unindexed(VecListConsumer)),
    }
}

/// Gathers the items of `iter` in order, as a list of non-empty vectors (what
/// `ParallelIterator::collect_vec_list` returns).
pub(crate) fn collect_vec_list<I>(iter: I) -> LinkedList<Vec<I::Item>>
where
    I: ParallelIterator,
{
    match fast_collect(iter) {
        Either::Left(vec) if vec.is_empty() => LinkedList::new(),
        Either::Left(vec) => LinkedList::from([vec]),
        Either::Right(list) => list,
    }
}

/// The number of items in a list of pieces, to reserve room for all of them at once.
pub(crate) fn total_len<T>(list: &LinkedList<Vec<T>>) -> usize {
    list.iter().map(Vec::len).sum()
}

/// Collects a piece per leaf. Stateless: every split makes the same consumer.
pub(super) struct VecListConsumer;

impl<T: Send> Consumer<T> for VecListConsumer {
    type Folder = VecPiece<T>;
    type Reducer = ChainPieces;
    type Result = LinkedList<Vec<T>>;

    fn split_at(self, _index: usize) -> (Self, Self, ChainPieces) {
        (VecListConsumer, VecListConsumer, ChainPieces)
    }

    fn into_folder(self) -> VecPiece<T> {
        VecPiece(Vec::new())
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T: Send> UnindexedConsumer<T> for VecListConsumer {
    fn split_off_left(&self) -> Self {
        VecListConsumer
    }

    fn to_reducer(&self) -> ChainPieces {
        ChainPieces
    }
}

/// The piece one leaf fills.
pub(super) struct VecPiece<T>(Vec<T>);

impl<T> Folder<T> for VecPiece<T> {
    type Result = LinkedList<Vec<T>>;

    fn consume(mut self, item: T) -> Self {
        self.0.push(item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        // `extend` reserves from the size hint, unlike a loop of pushes.
        self.0.extend(iter);
        self
    }

    fn complete(self) -> LinkedList<Vec<T>> {
        if self.0.is_empty() {
            LinkedList::new()
        } else {
            LinkedList::from([self.0])
        }
    }

    fn full(&self) -> bool {
        false
    }
}

/// Chains the pieces of the right half after those of the left half.
pub(super) struct ChainPieces;

impl<T> Reducer<LinkedList<T>> for ChainPieces {
    fn reduce(self, mut left: LinkedList<T>, mut right: LinkedList<T>) -> LinkedList<T> {
        left.append(&mut right);
        left
    }
}
