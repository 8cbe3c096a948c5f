//! The unindexed producer behind splits and groups: it cuts a slice where a separator
//! (or a group boundary) lies near the middle, so that the sequential method run on
//! each piece yields, end to end, exactly what it yields on the whole slice.

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
}

/// Cuts a slice at cut points near its middle, never rescanning a stretch known to
/// hold none.
pub(super) struct CutProducer<'c, S, C> {
    slice: S,
    cutter: &'c C,
    /// True when the slice is known to hold no cut point.
    clean: bool,
}

impl<'c, S: SliceRef, C: Cutter<S>> CutProducer<'c, S, C> {
    pub(super) fn new(slice: S, cutter: &'c C) -> Self {
        CutProducer {
            slice,
            cutter,
            clean: false,
        }
    }

    /// The cut point nearest below the middle, else the nearest above it; `true` with
    /// it when everything before it was found clean.
    fn find_cut(&self) -> Option<(usize, bool)> {
        let elems = self.slice.elems();
        let range = C::candidates(elems.len());
        let mid = elems.len() / 2;
        let is_cut = |i: &usize| self.cutter.is_cut(elems, *i);
        let below = range.start..mid.clamp(range.start, range.end);
        if let Some(index) = below.clone().rev().find(is_cut) {
            return Some((index, false));
        }
        (below.end..range.end)
            .find(is_cut)
            .map(|index| (index, true))
    }
}

impl<S: SliceRef, C: Cutter<S>> UnindexedProducer for CutProducer<'_, S, C> {
    type Item = C::Item;

    fn split(self) -> (Self, Option<Self>) {
        let found = if self.clean { None } else { self.find_cut() };
        let Some((index, left_clean)) = found else {
            let clean = CutProducer {
                clean: true,
                ..self
            };
            return (clean, None);
        };
        let (left, right) = C::cut(self.slice, index);
        let piece = |slice, clean| CutProducer {
            slice,
            cutter: self.cutter,
            clean,
        };
        (piece(left, left_clean), Some(piece(right, false)))
    }

    fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
        self.cutter.fold(self.slice, folder)
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
