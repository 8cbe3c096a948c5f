//! `par_split`, `par_split_inclusive` and their `_mut` twins: unindexed, cut at a
//! separator near the middle of each piece.

use super::cut::{CutProducer, Cutter};
use crate::iter::plumbing::*;
use crate::iter::*;
use std::fmt;
use std::ops::Range;

/// Splits that drop the separator: `split(a ++ [sep] ++ b) == split(a) ++ split(b)`.
pub(super) struct Exclusive<'p, P>(pub(super) &'p P);

/// Splits that keep the separator at the end of the left piece:
/// `split_inclusive(a ++ [sep] ++ b) == split_inclusive(a ++ [sep]) ++ split_inclusive(b)`.
pub(super) struct Inclusive<'p, P>(pub(super) &'p P);

impl<'data, 'p, T: Sync, P: Fn(&T) -> bool + Sync> Cutter<&'data [T]> for Exclusive<'p, P> {
    type Item = &'data [T];
    fn candidates(len: usize) -> Range<usize> {
        0..len
    }
    fn is_cut(&self, slice: &[T], index: usize) -> bool {
        (self.0)(&slice[index])
    }
    fn cut(slice: &'data [T], index: usize) -> (&'data [T], &'data [T]) {
        (&slice[..index], &slice[index + 1..])
    }
    fn fold<F: Folder<Self::Item>>(&self, slice: &'data [T], folder: F) -> F {
        folder.consume_iter(slice.split(self.0))
    }
    fn fold_uncut<F: Folder<Self::Item>>(slice: &'data [T], folder: F) -> F {
        // No separator: the whole slice, even empty, is one piece.
        folder.consume(slice)
    }
}

impl<'data, 'p, T: Send, P: Fn(&T) -> bool + Sync> Cutter<&'data mut [T]> for Exclusive<'p, P> {
    type Item = &'data mut [T];
    fn candidates(len: usize) -> Range<usize> {
        0..len
    }
    fn is_cut(&self, slice: &[T], index: usize) -> bool {
        (self.0)(&slice[index])
    }
    fn cut(slice: &'data mut [T], index: usize) -> (&'data mut [T], &'data mut [T]) {
        let (left, right) = slice.split_at_mut(index);
        (left, &mut right[1..])
    }
    fn fold<F: Folder<Self::Item>>(&self, slice: &'data mut [T], folder: F) -> F {
        folder.consume_iter(slice.split_mut(self.0))
    }
    fn fold_uncut<F: Folder<Self::Item>>(slice: &'data mut [T], folder: F) -> F {
        // No separator: the whole slice, even empty, is one piece.
        folder.consume(slice)
    }
}

impl<'data, 'p, T: Sync, P: Fn(&T) -> bool + Sync> Cutter<&'data [T]> for Inclusive<'p, P> {
    type Item = &'data [T];
    fn candidates(len: usize) -> Range<usize> {
        // A separator in last place would leave an empty right piece: no progress.
        0..len.saturating_sub(1)
    }
    fn is_cut(&self, slice: &[T], index: usize) -> bool {
        (self.0)(&slice[index])
    }
    fn cut(slice: &'data [T], index: usize) -> (&'data [T], &'data [T]) {
        slice.split_at(index + 1)
    }
    fn fold<F: Folder<Self::Item>>(&self, slice: &'data [T], folder: F) -> F {
        folder.consume_iter(slice.split_inclusive(self.0))
    }
    fn fold_uncut<F: Folder<Self::Item>>(slice: &'data [T], folder: F) -> F {
        // No separator before the last element: one piece, unless empty.
        folder.consume_iter(Some(slice).filter(|s| !s.is_empty()))
    }
}

impl<'data, 'p, T: Send, P: Fn(&T) -> bool + Sync> Cutter<&'data mut [T]> for Inclusive<'p, P> {
    type Item = &'data mut [T];
    fn candidates(len: usize) -> Range<usize> {
        0..len.saturating_sub(1)
    }
    fn is_cut(&self, slice: &[T], index: usize) -> bool {
        (self.0)(&slice[index])
    }
    fn cut(slice: &'data mut [T], index: usize) -> (&'data mut [T], &'data mut [T]) {
        slice.split_at_mut(index + 1)
    }
    fn fold<F: Folder<Self::Item>>(&self, slice: &'data mut [T], folder: F) -> F {
        folder.consume_iter(slice.split_inclusive_mut(self.0))
    }
    fn fold_uncut<F: Folder<Self::Item>>(slice: &'data mut [T], folder: F) -> F {
        // No separator before the last element: one piece, unless empty.
        folder.consume_iter(Some(slice).filter(|s| !s.is_empty()))
    }
}

/// Declares one public split iterator: its struct, `Debug`, constructor and
/// `ParallelIterator` impl over the cutter `$cut`.
macro_rules! split_iterator {
    ($(#[$doc:meta])* $name:ident, $slice:ty, $bound:ident, $cut:ident) => {
        $(#[$doc])*
        #[must_use = "iterators are lazy and do nothing unless consumed"]
        pub struct $name<'data, T, P> {
            slice: $slice,
            separator: P,
        }

        impl<'data, T, P> $name<'data, T, P> {
            pub(super) fn new(slice: $slice, separator: P) -> Self {
                $name { slice, separator }
            }
        }

        impl<T: fmt::Debug, P> fmt::Debug for $name<'_, T, P> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("slice", &self.slice)
                    .finish_non_exhaustive()
            }
        }

        impl<'data, T, P> ParallelIterator for $name<'data, T, P>
        where
            T: $bound,
            P: Fn(&T) -> bool + Sync + Send,
        {
            type Item = $slice;

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: UnindexedConsumer<Self::Item>,
            {
                let cutter = $cut(&self.separator);
                bridge_unindexed(CutProducer::new(self.slice, &cutter), consumer)
            }
        }
    };
}

split_iterator! {
    /// Parallel iterator over subslices separated by matching elements, made by
    /// [`par_split`](super::ParallelSlice::par_split).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let it: prorata::slice::Split<'_, i32, _> = [1, 0, 2].par_split(|x| *x == 0);
    /// it.for_each(|piece| assert_eq!(piece.len(), 1));
    /// ```
    Split, &'data [T], Sync, Exclusive
}

split_iterator! {
    /// Parallel iterator over subslices each ending with a matching element, made by
    /// [`par_split_inclusive`](super::ParallelSlice::par_split_inclusive).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let it: prorata::slice::SplitInclusive<'_, i32, _> =
    ///     [1, 0, 2, 0].par_split_inclusive(|x| *x == 0);
    /// it.for_each(|piece| assert_eq!(piece.len(), 2));
    /// ```
    SplitInclusive, &'data [T], Sync, Inclusive
}

split_iterator! {
    /// Parallel iterator over mutable subslices separated by matching elements, made
    /// by [`par_split_mut`](super::ParallelSliceMut::par_split_mut).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 0, 2];
    /// let it: prorata::slice::SplitMut<'_, i32, _> = v.par_split_mut(|x| *x == 0);
    /// it.for_each(|piece| piece[0] *= 10);
    /// assert_eq!(v, [10, 0, 20]);
    /// ```
    SplitMut, &'data mut [T], Send, Exclusive
}

split_iterator! {
    /// Parallel iterator over mutable subslices each ending with a matching element,
    /// made by [`par_split_inclusive_mut`](super::ParallelSliceMut::par_split_inclusive_mut).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = [1, 0, 2, 0];
    /// let it: prorata::slice::SplitInclusiveMut<'_, i32, _> =
    ///     v.par_split_inclusive_mut(|x| *x == 0);
    /// it.for_each(|piece| piece[0] *= 10);
    /// assert_eq!(v, [10, 0, 20, 0]);
    /// ```
    SplitInclusiveMut, &'data mut [T], Send, Inclusive
}

impl<T, P: Clone> Clone for Split<'_, T, P> {
    fn clone(&self) -> Self {
        Split::new(self.slice, self.separator.clone())
    }
}

impl<T, P: Clone> Clone for SplitInclusive<'_, T, P> {
    fn clone(&self) -> Self {
        SplitInclusive::new(self.slice, self.separator.clone())
    }
}
