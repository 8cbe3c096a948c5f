//! The sequential unstable sort: an introsort in the manner of pdqsort, for the
//! pieces the parallel quicksort leaves and for inputs too small to fork.
//!
//! Pivots are medians (of 3, of 3 medians of 3, or of a sample of 63 on long pieces),
//! partitions are those of [`partition`] (branch-free for small elements), runs of equal
//! elements are set aside in one pass (a piece remembers the pivot bounding it from
//! below: a new pivot not greater than it means everything up to it is equal), short
//! pieces go to sorting networks, insertion and one merge ([`small_sort`]), a piece that looks
//! nearly sorted (or reversed) is finished by insertion when it is ([`super::nearly_sorted`]),
//! and a piece that took too many bad pivots is heapsorted.
//! Elements only move after the comparator answered, and whatever the comparator
//! answers, or wherever it panics, the slice is left a permutation of its
//! elements: nothing here panics by itself or loses an element.

use std::cmp::Ordering;

use super::insertion::heapsort;
use super::is_less;
use super::nearly_sorted::{Finish, NEARLY_SORTED_FROM, try_finish};
use super::partition::{partition, partition_around};
use super::pivot::median_of_sample;
use super::small_sort::{small_sort, small_sort_max};

/// From this length the pivot is the median of three medians of three.
const NINTHER_FROM: usize = 64;

/// From this length the pivot is the median of a sample of 63 elements (sorting
/// the sample costs about a thousand comparisons).
const SAMPLE_FROM: usize = 1 << 14;

/// Sorts `v` unstably, sequentially.
pub(super) fn seq_unstable_sort<T, F>(v: &mut [T], compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    let limit = 2 * (usize::BITS - v.len().leading_zeros());
    seq_quicksort(v, compare, None, limit);
}

/// Sorts `v`, all of whose elements are not less than `ancestor` (if any), with
/// `limit` bad partitions allowed before heapsort takes over.
pub(super) fn seq_quicksort<'a, T, F>(
    mut v: &'a mut [T],
    compare: &F,
    mut ancestor: Option<&'a T>,
    mut limit: u32,
) where
    F: Fn(&T, &T) -> Ordering,
{
    loop {
        if v.len() <= small_sort_max::<T>() {
            small_sort(v, compare);
            return;
        }
        if limit == 0 {
            heapsort(v, compare);
            return;
        }
        let mut ordered = false;
        if v.len() >= NEARLY_SORTED_FROM {
            match try_finish(v, compare, <[T]>::reverse) {
                Finish::Sorted => return,
                Finish::NearlySorted => ordered = true,
                Finish::Unordered => {}
            }
        }
        limit -= 1;
        let chosen = choose_pivot(v, compare);
        let whole = std::mem::take(&mut v);
        if ancestor.is_some_and(|lower| !is_less(compare, lower, &whole[chosen])) {
            // Everything not greater than the pivot equals it: in place already.
            whole.swap(0, chosen);
            let (pivot, rest) = whole.split_first_mut().expect("longer than a leaf");
            let n_equal = partition(rest, |x| !is_less(compare, pivot, x));
            v = &mut whole[1 + n_equal..];
            continue;
        }
        let n_less = if ordered {
            partition_around(whole, chosen, |x, p| is_less(compare, x, p))
        } else {
            whole.swap(0, chosen);
            let (pivot, rest) = whole.split_first_mut().expect("longer than a leaf");
            let n_less = partition(rest, |x| is_less(compare, x, pivot));
            whole.swap(0, n_less);
            n_less
        };
        let (left, right) = whole.split_at_mut(n_less);
        let (pivot, right) = right.split_first_mut().expect("the pivot is there");
        // Recurse into the left side, loop on the right: every level spends
        // one of `limit`'s partitions, so the stack stays within `limit`
        // frames, and no branch guesses which side is shorter.
        seq_quicksort(left, compare, ancestor, limit);
        (v, ancestor) = (right, Some(&*pivot));
    }
}

/// The index of a good pivot for `v` (longer than the small sort takes).
///
/// The ninther's three triples sit at a place drawn in each third of `v`
/// (from a fixed seed, as [`median_of_sample`]'s), not at its quarters: an
/// input of two or four sorted runs of equal length (lists sorted apart and
/// appended), and every piece a partition makes of it, has its run borders
/// at the quarters, where each triple holds the end of one run and the start
/// of the next, so all three medians were the smallest or greatest elements
/// of their runs, the partitions lopsided, and the pieces heapsorted (four
/// runs of 10^5 `u64`s: 23.7 million instructions against 15.1 million for a
/// random input, std's sort 15.9 million).
fn choose_pivot<T, F>(v: &[T], compare: &F) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    if len >= SAMPLE_FROM {
        return median_of_sample(v, compare);
    }
    if len < NINTHER_FROM {
        return median3(v, compare, len / 4, len / 2, 3 * len / 4);
    }
    // One xorshift step of a seed from the length; three 16-bit fields of it
    // scaled to `0..third - 2` by a multiplication (a division per pivot cost
    // a random input 1-2% more instructions).
    let third = len / 3;
    let mut bits = (len as u64) ^ 0x9E37_79B9_7F4A_7C15;
    bits ^= bits << 13;
    bits ^= bits >> 7;
    bits ^= bits << 17;
    let span = (third - 2) as u64;
    // In `1..len - 1`: `k * third + 1 + (third - 3) <= len - 2`.
    let center = |k: usize| k * third + 1 + ((((bits >> (16 * k)) & 0xFFFF) * span) >> 16) as usize;
    let (a, b, c) = (center(0), center(1), center(2));
    let around = |i: usize| median3(v, compare, i - 1, i, i + 1);
    median3(v, compare, around(a), around(b), around(c))
}

/// The index of the median of `v[a]`, `v[b]` and `v[c]`.
fn median3<T, F>(v: &[T], compare: &F, a: usize, b: usize, c: usize) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    // All three answers, then selects: the comparisons do not wait on each
    // other, and no branch depends on them.
    let ab = is_less(compare, &v[a], &v[b]);
    let bc = is_less(compare, &v[b], &v[c]);
    let ac = is_less(compare, &v[a], &v[c]);
    // `a` below both or above both: the median is the middle of `b` and `c`.
    let of_b_c = if ab == bc { b } else { c };
    if ab == ac { of_b_c } else { a }
}
