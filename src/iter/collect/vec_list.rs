//! Collecting in pieces: every leaf fills a `Vec` of its own, and the pieces are
//! chained in order into a `LinkedList<Vec<T>>`. Joining two pieces is O(1), so this
//! is the way to gather iterators of unknown length (after `filter`, `flat_map`, ...).
//!
//! These helpers are `pub(crate)` so that every collection of the crate builds on
//! them (see the module documentation of `collect`).

use std::cell::Cell;
use std::collections::LinkedList;
use std::marker::PhantomData;

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
/// out). Stateless: every split makes the same consumer.
pub(crate) struct PieceList<P>(PhantomData<fn() -> P>);

/// Collects a `Vec` per leaf.
pub(super) type VecListConsumer<T> = PieceList<Vec<T>>;

impl<P> PieceList<P> {
    pub(crate) fn new() -> Self {
        PieceList(PhantomData)
    }
}

impl<T, P: Piece<T>> Consumer<T> for PieceList<P> {
    type Folder = LeafPiece<P>;
    type Reducer = ChainPieces;
    type Result = LinkedList<P>;

    fn split_at(self, _index: usize) -> (Self, Self, ChainPieces) {
        (PieceList::new(), PieceList::new(), ChainPieces)
    }

    fn into_folder(self) -> LeafPiece<P> {
        LeafPiece(P::default())
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T, P: Piece<T>> UnindexedConsumer<T> for PieceList<P> {
    fn split_off_left(&self) -> Self {
        PieceList::new()
    }

    fn to_reducer(&self) -> ChainPieces {
        ChainPieces
    }

    /// No user code sees the pieces (they are gathered into one collection), so the
    /// items of `flat_map`'s small inner iterators may share them.
    #[allow(clippy::type_complexity)]
    fn continue_after<CB>(
        &self,
        before: Option<LinkedList<P>>,
        callback: CB,
    ) -> Result<CB::Output, (Option<LinkedList<P>>, CB)>
    where
        CB: ContinueCallback<T, LinkedList<P>>,
    {
        Ok(callback.call(ContinuePieces {
            before: Cell::new(before.unwrap_or_default()),
            marker: PhantomData,
        }))
    }
}

/// What `PieceList::continue_after` hands on: a `PieceList` whose leftmost leaf goes
/// on filling the last of the pieces gathered before it, and that asks not to be
/// split. A type of its own, so that `PieceList`'s leaves (which loops move by value)
/// stay a bare piece.
struct ContinuePieces<P> {
    /// The pieces before this consumer's items. A `Cell` because `split_off_left(&self)`
    /// hands them to the new left consumer (the first one split off is the leftmost,
    /// as in intersperse); empty in every other consumer split off this one.
    before: Cell<LinkedList<P>>,
    marker: PhantomData<fn() -> P>,
}

impl<P> ContinuePieces<P> {
    fn split_off(&self) -> Self {
        ContinuePieces {
            before: Cell::new(self.before.take()),
            marker: PhantomData,
        }
    }
}

impl<T, P: Piece<T>> Consumer<T> for ContinuePieces<P> {
    type Folder = ContinueLeaf<P>;
    type Reducer = ChainPieces;
    type Result = LinkedList<P>;

    fn split_at(self, _index: usize) -> (Self, Self, ChainPieces) {
        let left = self.split_off();
        (left, self, ChainPieces)
    }

    fn into_folder(self) -> ContinueLeaf<P> {
        let mut before = self.before.into_inner();
        // The last piece is taken out to be filled, an empty one left in its place
        // (no list node is freed and made again).
        let piece = before.back_mut().map(std::mem::take).unwrap_or_default();
        ContinueLeaf { before, piece }
    }

    fn full(&self) -> bool {
        false
    }

    fn fold_whole(&self) -> bool {
        true
    }
}

impl<T, P: Piece<T>> UnindexedConsumer<T> for ContinuePieces<P> {
    fn split_off_left(&self) -> Self {
        self.split_off()
    }

    fn to_reducer(&self) -> ChainPieces {
        ChainPieces
    }
}

/// The piece a leaf of `ContinuePieces` fills, after the pieces gathered before it.
struct ContinueLeaf<P> {
    /// Non-empty pieces, except the last one when `piece` was taken out of it.
    before: LinkedList<P>,
    piece: P,
}

impl<T, P: Piece<T>> Folder<T> for ContinueLeaf<P> {
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
        let ContinueLeaf { mut before, piece } = self;
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

/// The piece one leaf fills.
pub(crate) struct LeafPiece<P>(P);

impl<T, P: Piece<T>> Folder<T> for LeafPiece<P> {
    type Result = LinkedList<P>;

    fn consume(mut self, item: T) -> Self {
        self.0.push_item(item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        self.0.extend_items(iter);
        self
    }

    fn complete(self) -> LinkedList<P> {
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
pub(crate) struct ChainPieces;

impl<T> Reducer<LinkedList<T>> for ChainPieces {
    fn reduce(self, mut left: LinkedList<T>, mut right: LinkedList<T>) -> LinkedList<T> {
        left.append(&mut right);
        left
    }
}
