//! Finishing nearly sorted pieces of the unstable sort in about two passes.
//!
//! A nearly sorted input (a sorted one with a few elements out of place, or
//! such an input reversed) still costs a quicksort every level of partitions
//! down to its leaves, although after a few levels most pieces have no element
//! out of place, or only a handful. So each piece first looks at a few evenly
//! spaced elements: when those are in order (or all strictly descending, and the
//! piece is reversed), one pass counts the places where a neighbour descends,
//! stopping early past a few; when there are that few, each misplaced pair is
//! swapped and its two elements moved into place by insertion, within a budget
//! of moves. A piece that turns out sorted is done; any other goes on to be
//! partitioned, having cost a fraction of a pass (a random piece fails the
//! sample within its first pairs, a nearly sorted one with many misplaced
//! elements fails the counting pass early).
//!
//! Elements only move by swaps and by insertions whose guard puts the held
//! element back, so a panicking or inconsistent comparator leaves a
//! permutation, and every loop is bounded whatever the comparator answers.

use std::cmp::Ordering;
use std::mem::ManuallyDrop;
use std::ptr;

use super::insertion::{Hole, insert_tail_within};
use super::is_less;

/// Pieces shorter than this are not looked at: their sort is cheap, and a
/// sample of nine elements of a short random piece is in order too often.
pub(super) const NEARLY_SORTED_FROM: usize = 64;

/// Gaps between the sampled elements (nine of them, both ends included).
const SAMPLE_GAPS: usize = 8;

/// A piece with more descending neighbours than this is left to the quicksort
/// (each misplaced element makes at most two).
const MAX_DESCENTS: usize = 8;

/// The order a few evenly spaced elements of a piece are in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Trend {
    /// Non-descending.
    Ascending,
    /// Strictly descending.
    Descending,
    /// Neither.
    Mixed,
}

/// The order of nine evenly spaced elements of `v` (both ends included), at
/// most eight comparisons and usually two on a random piece. `v` has at least
/// [`SAMPLE_GAPS`] + 1 elements.
pub(super) fn sample_trend<T, F>(v: &[T], compare: &F) -> Trend
where
    F: Fn(&T, &T) -> Ordering,
{
    // Inner points only: a partition leaves its last moved element at the
    // front of its left side, out of place.
    let at = |k: usize| &v[(k + 1) * v.len() / (SAMPLE_GAPS + 2)];
    let descending = is_less(compare, at(1), at(0));
    for k in 1..SAMPLE_GAPS {
        if is_less(compare, at(k + 1), at(k)) != descending {
            return Trend::Mixed;
        }
    }
    if descending {
        Trend::Descending
    } else {
        Trend::Ascending
    }
}

/// What [`try_finish`] found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Finish {
    /// The piece is sorted now.
    Sorted,
    /// The piece looked sorted (or reversed, and is reversed now) but is not:
    /// it is worth a partition that keeps its order ([`super::partition::partition_around`]).
    NearlySorted,
    /// The sample was in no order.
    Unordered,
}

/// If the sample says `v` looks sorted (or reversed: then it is reversed with
/// `reverse`), tries to finish it by insertion.
pub(super) fn try_finish<T, F, R>(v: &mut [T], compare: &F, reverse: R) -> Finish
where
    F: Fn(&T, &T) -> Ordering,
    R: FnOnce(&mut [T]),
{
    let trend = sample_trend(v, compare);
    if trend == Trend::Mixed {
        return Finish::Unordered;
    }
    if trend == Trend::Descending {
        reverse(v);
    }
    if finish_by_insertion(v, compare) {
        Finish::Sorted
    } else {
        Finish::NearlySorted
    }
}

/// Sorts `v` if it has at most [`MAX_DESCENTS`] descending neighbours and
/// their fixing stays within a budget of moves; returns whether `v` is sorted.
/// Whatever the answer, `v` holds a permutation of its elements.
pub(super) fn finish_by_insertion<T, F>(v: &mut [T], compare: &F) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    let Some(rest) = v.get(1..) else {
        return true;
    };
    // Counting first (a pass of predictable branches) keeps a piece with many
    // misplaced elements from paying for insertions before it gives up.
    let mut descents = 0;
    for (a, b) in v.iter().zip(rest) {
        if is_less(compare, b, a) {
            descents += 1;
            if descents > MAX_DESCENTS {
                return false;
            }
        }
    }
    if descents == 0 {
        return true;
    }
    // Each misplaced element travels about a third of the piece on average.
    let mut budget = 2 * len;
    let mut i = 1;
    for _ in 0..=MAX_DESCENTS {
        while i < len && !is_less(compare, &v[i], &v[i - 1]) {
            i += 1;
        }
        if i == len {
            return true;
        }
        // `v[..i]` is sorted: the smaller of the pair goes left into it, the
        // greater right into the rest.
        v.swap(i - 1, i);
        if !shift_left(&mut v[..i], compare, &mut budget)
            || !shift_right(&mut v[i..], compare, &mut budget)
        {
            return false;
        }
    }
    false
}

/// Moves the last element of `v` left past every greater one, one move per
/// unit of `budget`; returns false when the budget ran out first (the element
/// then stays where it got to).
fn shift_left<T, F>(v: &mut [T], compare: &F, budget: &mut usize) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    if v.len() < 2 {
        return true;
    }
    insert_tail_within(v, compare, || {
        let left = *budget > 0;
        *budget = budget.saturating_sub(1);
        left
    })
}

/// Moves the first element of `v` right past every smaller one, as
/// [`shift_left`] does the other way.
fn shift_right<T, F>(v: &mut [T], compare: &F, budget: &mut usize) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    if len < 2 || !is_less(compare, &v[1], &v[0]) {
        return true;
    }
    let base = v.as_mut_ptr();
    // SAFETY: as in `insertion::insert_tail_within`, mirrored: the hole starts at
    // 0 and moves right, each step filling it from its right neighbour.
    unsafe {
        let mut hole = Hole {
            element: ManuallyDrop::new(ptr::read(base)),
            dest: base,
        };
        // The next element is less (checked above): each step moves it left,
        // then compares with the one after.
        let mut i = 0;
        loop {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            ptr::copy_nonoverlapping(base.add(i + 1), base.add(i), 1);
            i += 1;
            hole.dest = base.add(i);
            if i + 1 == len || !is_less(compare, &*base.add(i + 1), &hole.element) {
                break;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finishes_nearly_sorted_pieces_and_keeps_permutations() {
        let coin = super::super::test_coin(11);
        for len in [64usize, 65, 100, 1000, 5000] {
            for swaps in [0usize, 1, 2, 3, 5, 40] {
                for descending in [false, true] {
                    let mut v: Vec<u64> = (0..len as u64).map(|x| x / 3).collect();
                    for _ in 0..swaps {
                        let (a, b) = (coin() as usize % len, coin() as usize % len);
                        v.swap(a, b);
                    }
                    if descending {
                        v.reverse();
                    }
                    let mut want = v.clone();
                    want.sort();
                    let mut got = v.clone();
                    let done = try_finish(&mut got, &u64::cmp, <[u64]>::reverse) == Finish::Sorted;
                    if done {
                        assert_eq!(got, want, "{len} {swaps} {descending}");
                    } else {
                        got.sort();
                        assert_eq!(got, want, "a permutation");
                    }
                    // A swap may hit a sampled element; none cannot fail.
                    if swaps == 0 {
                        assert!(done, "{len} {swaps} {descending}");
                    }
                    let random =
                        |_: &u64, _: &u64| [Ordering::Less, Ordering::Greater][coin() as usize % 2];
                    let mut got = v.clone();
                    try_finish(&mut got, &random, <[u64]>::reverse);
                    got.sort();
                    assert_eq!(got, want, "a permutation");
                }
            }
        }
    }
}
