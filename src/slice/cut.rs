//! The unindexed producer behind splits and groups: it cuts a slice where a separator
//! (or a group boundary) lies near the middle, so that the sequential method run on
//! each piece yields, end to end, exactly what it yields on the whole slice. The
//! predicate is asked about each place once (for `par_chunk_by`: exactly once per
//! pair of neighbours), as in Rayon.

use crate::iter::plumbing::{Folder, UnindexedProducer};
use std::ops::Range;

/// A shared or mutable slice whose elements can be read.
pub(super) trait SliceRef: Send + Sized {
    /// The element type.
    type Elem;
    /// Reads the elements.
    fn elems(&self) -> &[Self::Elem];
}

impl<T: Sync> SliceRef for &[T] {
    type Elem = T;
    fn elems(&self) -> &[T] {
        self
    }
}

impl<T: Send> SliceRef for &mut [T] {
    type Elem = T;
    fn elems(&self) -> &[T] {
        self
    }
}

/// How one kind of split finds its cut points and runs sequentially.
pub(super) trait Cutter<S: SliceRef>: Sync {
    /// The items (subslices).
    type Item;
    /// The indices where a cut may fall in a slice of `len` elements, chosen so that
    /// both pieces of any cut are smaller than the whole.
    fn candidates(len: usize) -> Range<usize>;
    /// True when `slice` may be cut at `index`.
    fn is_cut(&self, slice: &[S::Elem], index: usize) -> bool;
    /// Cuts at `index`, a point where `is_cut` holds.
    fn cut(slice: S, index: usize) -> (S, S);
    /// Feeds the items of `slice` to `folder`, using the sequential method.
    fn fold<F: Folder<Self::Item>>(&self, slice: S, folder: F) -> F;
    /// Feeds the items of `slice`, known to hold no cut point among its candidates,
    /// to `folder` without asking the predicate again.
    fn fold_uncut<F: Folder<Self::Item>>(slice: S, folder: F) -> F;
}

/// Cuts a slice at cut points near its middle. Every candidate is tested at most
/// once over the whole traversal, as in Rayon: a piece remembers how far its
/// candidates are untested (`tail`); those from `tail` on are known not to be cuts.
pub(super) struct CutProducer<'c, S, C> {
    slice: S,
    cutter: &'c C,
    /// Candidates at `tail` and beyond were tested and are not cut points.
    tail: usize,
}

impl<'c, S: SliceRef, C: Cutter<S>> CutProducer<'c, S, C> {
    pub(super) fn new(slice: S, cutter: &'c C) -> Self {
        let tail = slice.elems().len();
        CutProducer {
            slice,
            cutter,
            tail,
        }
    }

    /// The untested candidates (an empty range when all were tested).
    fn untested(&self) -> Range<usize> {
        let range = C::candidates(self.slice.elems().len());
        range.start..range.end.min(self.tail).max(range.start)
    }

    /// The first cut point from the middle on, else the last one before it, with the
    /// `tail` of the left piece and whether the right piece holds untested candidates.
    fn find_cut(&self) -> Option<(usize, usize, bool)> {
        let untested = self.untested();
        let elems = self.slice.elems();
        let is_cut = |i: &usize| self.cutter.is_cut(elems, *i);
        let mid = (elems.len() / 2).clamp(untested.start, untested.end);
        if let Some(index) = (mid..untested.end).find(is_cut) {
            // The left piece was tested from `mid` on; the right one not at all.
            return Some((index, mid, true));
        }
        // Everything from the cut on was tested.
        let index = (untested.start..mid).rev().find(is_cut)?;
        Some((index, index, false))
    }
}

impl<S: SliceRef, C: Cutter<S>> UnindexedProducer for CutProducer<'_, S, C> {
    type Item = C::Item;

    fn split(self) -> (Self, Option<Self>) {
        let Some((index, left_tail, right_untested)) = self.find_cut() else {
            return (CutProducer { tail: 0, ..self }, None);
        };
        let len = self.slice.elems().len();
        let (left, right) = C::cut(self.slice, index);
        // Candidates keep their place, shifted by where the right piece starts.
        let right_start = len - right.elems().len();
        let right_tail = match right_untested {
            true => self.tail.saturating_sub(right_start),
            false => 0,
        };
        let piece = |slice, tail| CutProducer {
            slice,
            cutter: self.cutter,
            tail,
        };
        (piece(left, left_tail), Some(piece(right, right_tail)))
    }

    fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
        let untested = self.untested();
        if self.tail >= C::candidates(self.slice.elems().len()).end {
            return self.cutter.fold(self.slice, folder);
        }
        // The last cut among the untested candidates splits the piece into a part
        // the sequential method handles and a part known to hold no cut.
        let elems = self.slice.elems();
        let last = untested.rev().find(|&i| self.cutter.is_cut(elems, i));
        let Some(index) = last else {
            return C::fold_uncut(self.slice, folder);
        };
        let (left, right) = C::cut(self.slice, index);
        let folder = self.cutter.fold(left, folder);
        if folder.full() {
            return folder;
        }
        C::fold_uncut(right, folder)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::iter::plumbing::Folder;

    struct Push<T>(Vec<T>);

    impl<T> Folder<T> for Push<T> {
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

    /// Splits as far as the producer allows, then folds the pieces in order.
    pub(crate) fn split_fully<P: UnindexedProducer>(producer: P, out: &mut Vec<P::Item>) {
        match producer.split() {
            (left, Some(right)) => {
                split_fully(left, out);
                split_fully(right, out);
            }
            (whole, None) => out.extend(whole.fold_with(Push(Vec::new())).complete()),
        }
    }

    fn split_all<'a, C: Cutter<&'a [u8], Item = &'a [u8]>>(v: &'a [u8], c: &C) -> Vec<&'a [u8]> {
        let mut got = Vec::new();
        split_fully(CutProducer::new(v, c), &mut got);
        got
    }

    #[test]
    fn splitting_all_the_way_down_matches_std() {
        use crate::slice::chunk_by::Boundary;
        use crate::slice::split::{Exclusive, Inclusive};
        let is_zero = |x: &u8| *x == 0;
        let same = |a: &u8, b: &u8| a == b;
        for len in 0..40u8 {
            let v: Vec<u8> = (0..len).map(|i| i % 5 % 3).collect();
            let split: Vec<_> = v.split(is_zero).collect();
            assert_eq!(split_all(&v, &Exclusive(&is_zero)), split);
            let inclusive: Vec<_> = v.split_inclusive(is_zero).collect();
            assert_eq!(split_all(&v, &Inclusive(&is_zero)), inclusive);
            let runs: Vec<_> = v.chunk_by(same).collect();
            assert_eq!(split_all(&v, &Boundary(&same)), runs);
        }
    }
}
