//! The unindexed producer behind the per-char iterators (`par_chars`, `par_bytes`,
//! `par_matches`, ...): it cuts a string at the char boundary nearest after its middle
//! and remembers where each piece starts, for the iterators that report byte offsets.

use crate::iter::plumbing::{Folder, UnindexedProducer};

/// What one iterator does with a piece of the string.
pub(super) trait Leaf<'ch>: Sync {
    /// The items.
    type Item;
    /// Feeds the items of `piece`, which starts at byte `offset` of the whole
    /// string, to `folder`.
    fn fold<F: Folder<Self::Item>>(&self, piece: &'ch str, offset: usize, folder: F) -> F;
}

/// A piece of a string, cut at char boundaries.
pub(super) struct Pieces<'ch, 'l, L> {
    piece: &'ch str,
    offset: usize,
    leaf: &'l L,
}

impl<'ch, 'l, L: Leaf<'ch>> Pieces<'ch, 'l, L> {
    pub(super) fn new(whole: &'ch str, leaf: &'l L) -> Self {
        Pieces {
            piece: whole,
            offset: 0,
            leaf,
        }
    }
}

/// The first char boundary at or after the middle of `s`.
pub(super) fn middle_boundary(s: &str) -> usize {
    (s.len() / 2..s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(s.len())
}

/// Bytes in one run of a per-char leaf (`par_chars`, `par_bytes`, ...).
const RUN_BYTES: usize = 4096;

/// Where the first run of `s` ends: the first char boundary at or after
/// `RUN_BYTES`, or the end of `s`.
pub(super) fn run_end(s: &str) -> usize {
    if s.len() <= RUN_BYTES {
        return s.len();
    }
    (RUN_BYTES..s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(s.len())
}

impl<'ch, L: Leaf<'ch>> UnindexedProducer for Pieces<'ch, '_, L> {
    type Item = L::Item;

    fn split(self) -> (Self, Option<Self>) {
        let mid = middle_boundary(self.piece);
        if mid == 0 || mid == self.piece.len() {
            return (self, None);
        }
        let (left, right) = self.piece.split_at(mid);
        let right = Pieces {
            piece: right,
            offset: self.offset + mid,
            leaf: self.leaf,
        };
        (
            Pieces {
                piece: left,
                ..self
            },
            Some(right),
        )
    }

    fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
        self.leaf.fold(self.piece, self.offset, folder)
    }
}
