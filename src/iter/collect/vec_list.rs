//! Collecting in pieces: every leaf fills a `Vec` of its own, and the pieces are
//! chained in order into a `LinkedList<Vec<T>>`. Joining two pieces is O(1), so this
//! is the way to gather iterators of unknown length (after `filter`, `flat_map`, ...).
//!
//! These helpers are `pub(crate)` so that every collection of the crate builds on
//! them (see the module documentation of `collect`).

use std::cell::Cell;
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
        None => Either::Right(iter.drive_unindexed(VecListConsumer::new())),
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

/// What one leaf fills: a `Vec`, a `String`, ...
pub(crate) trait Piece<T>: Default + Send {
    /// Appends one item.
    fn push_item(&mut self, item: T);

    /// Appends all items of `iter`.
    fn extend_items<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        iter.into_iter().for_each(|item| self.push_item(item));
    }

    /// True when nothing was appended.
    fn is_empty(&self) -> bool;
}

impl<T: Send> Piece<T> for Vec<T> {
    fn push_item(&mut self, item: T) {
        self.push(item);
    }

    fn extend_items<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        // `extend` reserves from the size hint, unlike a loop of pushes.
        self.extend(iter);
    }

    fn is_empty(&self) -> bool {
        self.is_empty()
    }
}

/// Collects a piece `P` per leaf, chained in order into a list (empty pieces are left
/// out). Every split makes the same consumer, except that the one a `flat_map` makes
/// with [`UnindexedConsumer::continue_after`] carries the pieces gathered before it.
pub(crate) struct PieceList<P> {
    /// The pieces before this consumer's items; its leftmost leaf goes on filling the
    /// last of them. Empty but for consumers made by `continue_after`. A `Cell` because
    /// `split_off_left(&self)` hands them to the new left consumer (the first one split
    /// off is the leftmost, as in intersperse).
    before: Cell<LinkedList<P>>,
    /// Fold the input whole (see [`Consumer::fold_whole`]): set by `continue_after`.
    whole: bool,
}

/// Collects a `Vec` per leaf.
pub(super) type VecListConsumer<T> = PieceList<Vec<T>>;

impl<P> PieceList<P> {
    pub(crate) fn new() -> Self {
        PieceList {
            before: Cell::new(LinkedList::new()),
            whole: false,
        }
    }
}

impl<T, P: Piece<T>> Consumer<T> for PieceList<P> {
    type Folder = LeafPiece<P>;
    type Reducer = ChainPieces;
    type Result = LinkedList<P>;

    fn split_at(self, _index: usize) -> (Self, Self, ChainPieces) {
        let right = PieceList {
            before: Cell::new(LinkedList::new()),
            whole: self.whole,
        };
        (self, right, ChainPieces)
    }

    fn into_folder(self) -> LeafPiece<P> {
        let mut before = self.before.into_inner();
        // The last piece is taken out to be filled, an empty one left in its place
        // (no list node is freed and made again).
        let piece = before.back_mut().map(std::mem::take).unwrap_or_default();
        LeafPiece { before, piece }
    }

    fn full(&self) -> bool {
        false
    }

    fn fold_whole(&self) -> bool {
        self.whole
    }
}

impl<T, P: Piece<T>> UnindexedConsumer<T> for PieceList<P> {
    fn split_off_left(&self) -> Self {
        PieceList {
            before: Cell::new(self.before.take()),
            whole: self.whole,
        }
    }

    fn to_reducer(&self) -> ChainPieces {
        ChainPieces
    }

    /// No user code sees the pieces (they are gathered into one collection), so the
    /// items of `flat_map`'s small inner iterators may share them. Pieces this consumer
    /// still carries come first: they are left of everything split off it.
    fn continue_after(&self, before: Option<LinkedList<P>>) -> Result<Self, Option<LinkedList<P>>> {
        let mut list = self.before.take();
        list.append(&mut before.unwrap_or_default());
        Ok(PieceList {
            before: Cell::new(list),
            whole: true,
        })
    }
}

/// The piece one leaf fills, after the pieces gathered before it (see `PieceList`).
pub(crate) struct LeafPiece<P> {
    /// Non-empty pieces, except the last one when `piece` was taken out of it.
    before: LinkedList<P>,
    piece: P,
}

impl<T, P: Piece<T>> Folder<T> for LeafPiece<P> {
    type Result = LinkedList<P>;

    fn consume(mut self, item: T) -> Self {
        self.piece.push_item(item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        self.piece.extend_items(iter);
        self
    }

    fn complete(self) -> LinkedList<P> {
        let LeafPiece { mut before, piece } = self;
        match before.back_mut() {
            // Lists hold no empty piece: an empty last one is where `piece` came from.
            Some(last) if last.is_empty() => *last = piece,
            _ if piece.is_empty() => {}
            _ => before.push_back(piece),
        }
        before
    }

    fn full(&self) -> bool {
        false
    }
}

/// Chains the pieces of the right half after those of the left half.
pub(crate) struct ChainPieces;

impl<T> Reducer<LinkedList<T>> for ChainPieces {
    fn reduce(self, mut left: LinkedList<T>, mut right: LinkedList<T>) -> LinkedList<T> {
        left.append(&mut right);
        left
    }
}
