//! `String::par_drain(range)`: the chars of a range, moved out in parallel.

use std::ops::{Range, RangeBounds};

use super::ParallelString;
use crate::iter::plumbing::UnindexedConsumer;
use crate::iter::{ParallelDrainRange, ParallelIterator};

/// Parallel iterator over the chars of a range of a `String`, which it removes, made
/// by [`par_drain`](crate::iter::ParallelDrainRange::par_drain). The range is removed
/// when the iterator is dropped, whether or not it was driven, and the string keeps
/// its capacity.
///
/// ```
/// use prorata::prelude::*;
/// let mut s = String::from("añb-c");
/// let it: prorata::string::Drain<'_> = s.par_drain(1..4);
/// it.for_each(|c| assert!(c == 'ñ' || c == 'b'));
/// assert_eq!(s, "a-c");
/// ```
#[derive(Debug)]
pub struct Drain<'a> {
    string: &'a mut String,
    range: Range<usize>,
}

impl<'a> ParallelDrainRange<usize> for &'a mut String {
    type Iter = Drain<'a>;
    type Item = char;

    /// # Panics
    /// If the range does not fit in the string, or does not start and end at char
    /// boundaries, as std's `String::drain`.
    #[track_caller]
    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> Drain<'a> {
        let range = crate::iter::sources::drain::checked_range(range, self.len());
        assert!(
            self.is_char_boundary(range.start) && self.is_char_boundary(range.end),
            "drain range {range:?} does not start and end at char boundaries"
        );
        Drain {
            string: self,
            range,
        }
    }
}

impl ParallelIterator for Drain<'_> {
    type Item = char;

    fn drive_unindexed<C: UnindexedConsumer<char>>(self, consumer: C) -> C::Result {
        // The chars are `Copy`: read them in place; `drop` removes them afterwards.
        self.string[self.range.clone()]
            .par_chars()
            .drive_unindexed(consumer)
    }
}

impl Drop for Drain<'_> {
    fn drop(&mut self) {
        self.string.drain(self.range.clone());
    }
}
