//! Sorting a nearly sorted input by setting its out-of-place elements aside.
//!
//! A sorted input with a few elements moved (or such an input reversed) is
//! sorted in about one pass of comparisons, where a quicksort partitions it
//! level after level until its pieces hold a handful of misplaced elements
//! each (about `n log2 k` comparisons for `k` of them). One pass keeps a sorted
//! sequence at the front of the slice and sets every element that breaks it
//! aside behind it: an element less than the last one kept is either itself
//! out of place (it is less than the one before too) or shows that the last
//! one kept was (it fits between the two), which is then set aside in its
//! stead. The elements set aside are sorted on their own, then merged into
//! the kept ones from the back, a few at a time, by rotations: each kept
//! element moves about twice, and each set-aside one is found its place by
//! binary search.
//!
//! Nothing is allocated: the elements set aside gather in the slice itself,
//! between the kept ones and those not yet looked at. The pass gives up when
//! more elements are set aside than the merge can take cheaply (rotations
//! cost about `k^1.5` moves besides the two passes), leaving the slice a
//! permutation for the quicksort, having cost at most a fraction of a pass
//! on inputs that only look sorted.
//!
//! Elements only move by swaps and rotations, done between calls of the
//! comparator, so a panicking or inconsistent comparator leaves a
//! permutation; every loop runs over the slice, or over the elements set
//! aside, a bounded number of times, whatever the comparator answers.

use std::cmp::Ordering;

use super::is_less;
use super::nearly_sorted::{NEARLY_SORTED_FROM, Trend, sample_trend};
use super::runs::par_reverse;
use super::seq_quicksort::seq_unstable_sort;

/// Elements looked at between two checks that the pass is not setting aside
/// too many.
const BLOCK: usize = 256;

/// Sorts `v` if a sample says it looks sorted (or reversed: it is then
/// reversed first) and it has few enough elements out of place; returns
/// whether `v` is sorted. Whatever the answer, `v` holds a permutation of its
/// elements.
pub(super) fn sort_if_nearly_sorted<T, F>(v: &mut [T], compare: &F) -> bool
where
    T: Send,
    F: Fn(&T, &T) -> Ordering,
{
    if v.len() < NEARLY_SORTED_FROM {
        return false;
    }
    match sample_trend(v, compare) {
        Trend::Mixed => return false,
        Trend::Descending => par_reverse(v),
        Trend::Ascending => {}
    }
    let Some(kept) = set_aside(v, compare, max_set_aside(v.len())) else {
        return false;
    };
    seq_unstable_sort(&mut v[kept..], compare);
    merge_set_aside(v, kept, compare);
    true
}

/// The most elements of `len` the pass may set aside: about `8 sqrt(len)`, so
/// that the merge's rotations (`k^1.5` moves for `k` elements) stay below a
/// pass or two, and at most an eighth of `len`.
fn max_set_aside(len: usize) -> usize {
    (8 * len.isqrt()).min(len / 8)
}

/// Moves a sorted subsequence of `v` to its front and the other elements
/// behind it, in some order; returns how many were kept, or `None` (leaving a
/// permutation) once more than `limit` were set aside, or more than twice
/// their share of `limit` for the part looked at.
fn set_aside<T, F>(v: &mut [T], compare: &F, limit: usize) -> Option<usize>
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    // `v[..kept]` is sorted, `v[kept..i]` set aside, `v[i..]` not looked at.
    let mut kept = 0;
    let mut start = 0;
    while start < len {
        let end = len.min(start + BLOCK);
        for i in start..end {
            if kept == 0 || !is_less(compare, &v[i], &v[kept - 1]) {
                v.swap(kept, i);
                kept += 1;
            } else if let Some(greater) = greater_kept(&v[..kept], &v[i], compare) {
                // `v[i]` fits before the last `greater` kept: those are the
                // elements out of place (greater ones moved early), and
                // `v[i]` takes the place of the first of them.
                kept -= greater;
                v.swap(kept, i);
                kept += 1;
            }
        }
        start = end;
        let aside = end - kept;
        // Twice the share of the part looked at, and a block's worth of slack
        // for the misplaced elements that happen to come first.
        if aside > limit || aside > BLOCK / 4 + 2 * (limit * end / len) {
            return None;
        }
    }
    Some(kept)
}

/// Kept elements that may be set aside to make room for one less than the
/// last: a few, so that an element moved far back costs a few comparisons,
/// while a few greater elements moved together early do not make every
/// element after them look out of place.
const MAX_GREATER: usize = 8;

/// How many of the last elements of the sorted `kept` are greater than `x`,
/// if the one before them is not (or they are all of `kept`) and they are at
/// most [`MAX_GREATER`]; the last one is known to be greater.
fn greater_kept<T, F>(kept: &[T], x: &T, compare: &F) -> Option<usize>
where
    F: Fn(&T, &T) -> Ordering,
{
    (1..=MAX_GREATER.min(kept.len()))
        .find(|&j| j == kept.len() || !is_less(compare, x, &kept[kept.len() - j - 1]))
}

/// Merges the sorted `v[..kept]` and the sorted `v[kept..]` (the shorter one)
/// in place, from the back: the greatest few of `v[kept..]` are found their
/// place in `v[..kept]` by binary search, the kept elements above it are
/// rotated past the other set-aside ones, and the few are merged into them.
fn merge_set_aside<T, F>(v: &mut [T], kept: usize, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    // `v[..w]` are kept elements and `v[w..w + m]` set-aside ones still to
    // merge; `v[w + m..]` is in place.
    let (mut w, mut m) = (kept, v.len() - kept);
    // Chunks of about `sqrt(m)`: the rotations past the other set-aside
    // elements cost about `m^2 / (2 chunk)` moves, those within the chunk
    // `m chunk / 2`.
    let chunk = m.isqrt().max(1);
    while m > 0 && w > 0 {
        let b = chunk.min(m);
        let first = w + m - b;
        let p = {
            let (head, tail) = v.split_at(w);
            let least = &tail[m - b];
            // The first kept element greater than the chunk's least.
            head.partition_point(|x| !is_less(compare, least, x))
        };
        // The kept elements above `p` go behind the other set-aside ones.
        v[p..first].rotate_left(w - p);
        merge_few(&mut v[p + m - b..w + m], w - p, compare);
        w = p;
        m -= b;
    }
}

/// Merges the sorted `s[..mid]` and the sorted, short `s[mid..]` in place:
/// from the back, each element of the short run is found its place among the
/// others by binary search and rotated there with those before it.
fn merge_few<T, F>(s: &mut [T], mid: usize, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    // `s[..a]` are long-run elements and `s[a..a + j]` short-run ones still
    // to merge; `s[a + j..]` is in place.
    let (mut a, mut j) = (mid, s.len() - mid);
    while j > 0 && a > 0 {
        let q = {
            let (head, tail) = s.split_at(a);
            let greatest = &tail[j - 1];
            head.partition_point(|x| !is_less(compare, greatest, x))
        };
        if q < a {
            s[q..a + j].rotate_left(a - q);
        }
        a = q;
        j -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sorted (or reversed) vector of `len` elements, with `swaps` random
    /// pairs swapped; many equal elements when `dups`.
    fn nearly_sorted(
        len: usize,
        swaps: usize,
        descending: bool,
        dups: bool,
        coin: &impl Fn() -> u64,
    ) -> Vec<u64> {
        let mut v: Vec<u64> = (0..len as u64)
            .map(|x| if dups { x / 7 } else { x })
            .collect();
        if descending {
            v.reverse();
        }
        for _ in 0..swaps {
            let (a, b) = (coin() as usize % len, coin() as usize % len);
            v.swap(a, b);
        }
        v
    }

    fn sorted_copy(v: &[u64]) -> Vec<u64> {
        let mut want = v.to_vec();
        want.sort();
        want
    }

    #[test]
    fn sorts_nearly_sorted_inputs_or_leaves_a_permutation() {
        let coin = super::super::test_coin(23);
        for len in [64usize, 100, 1000, 4096, 20_000] {
            let root = len.isqrt();
            for swaps in [0, 1, 2, 5, root / 2, root, 2 * root, 8 * root, len / 4] {
                for descending in [false, true] {
                    for dups in [false, true] {
                        let v = nearly_sorted(len, swaps, descending, dups, &coin);
                        let want = sorted_copy(&v);
                        let looks_ordered = sample_trend(&v, &u64::cmp) != Trend::Mixed;
                        let mut got = v.clone();
                        let done = sort_if_nearly_sorted(&mut got, &u64::cmp);
                        let what = format!("{len} {swaps} {descending} {dups}");
                        if done {
                            assert_eq!(got, want, "{what}");
                        } else {
                            assert_eq!(sorted_copy(&got), want, "a permutation, {what}");
                        }
                        // Each swap misplaces at most two elements: up to
                        // `sqrt(len)` swaps of a long input are within the
                        // limit, once the sample (which a swap may hit) looks
                        // ordered.
                        if looks_ordered && swaps <= root && len >= 1000 {
                            assert!(done, "{what}");
                        }
                        // Past `8 sqrt(len)` misplaced elements it is left to
                        // the quicksort.
                        if swaps >= 8 * root && len >= 1000 {
                            assert!(!done, "{what}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn sets_aside_each_misplaced_element_once() {
        // A large element moved to the front, a small one to the back: one each.
        let mut v: Vec<u32> = (0..1000).collect();
        v[10] = 5000;
        v[900] = 3;
        v.swap(500, 501);
        assert_eq!(set_aside(&mut v, &u32::cmp, 100), Some(997));
        assert!(v[..997].windows(2).all(|w| w[0] <= w[1]));
        // One of the neighbours swapped, either.
        let mut rest = v[997..].to_vec();
        rest.sort();
        assert!(rest == [3, 500, 5000] || rest == [3, 501, 5000], "{rest:?}");
        // Over the limit: given up, a permutation left.
        let mut v: Vec<u32> = (0..1000).rev().collect();
        assert_eq!(set_aside(&mut v, &u32::cmp, 100), None);
        v.sort();
        assert!(v.iter().copied().eq(0..1000));
    }

    #[test]
    fn merges_set_aside_elements_of_every_size() {
        let coin = super::super::test_coin(5);
        for len in [1usize, 2, 10, 100, 3000] {
            for aside in [0, 1, 2, 3, 17, len / 3, len] {
                let aside = aside.min(len);
                let mut v: Vec<u64> = (0..len).map(|_| coin() % 500).collect();
                let kept = len - aside;
                v[..kept].sort();
                v[kept..].sort();
                let want = sorted_copy(&v);
                merge_set_aside(&mut v, kept, &u64::cmp);
                assert_eq!(v, want, "{len} {aside}");
            }
        }
    }

    #[test]
    fn survives_random_and_panicking_comparators() {
        let coin = super::super::test_coin(9);
        for len in [64usize, 1000, 5000] {
            for swaps in [1, len.isqrt(), len / 3] {
                for descending in [false, true] {
                    let v = nearly_sorted(len, swaps, descending, false, &coin);
                    let want = sorted_copy(&v);
                    // Random answers: never a panic or a lost element.
                    let random = |_: &u64, _: &u64| {
                        [Ordering::Less, Ordering::Greater][coin() as usize % 3 % 2]
                    };
                    let mut got = v.clone();
                    sort_if_nearly_sorted(&mut got, &random);
                    assert_eq!(sorted_copy(&got), want, "random, {len} {swaps}");
                    // A panic after some calls: every element still there once.
                    for after in [3u64, 100, len as u64, 2 * len as u64] {
                        let calls = std::cell::Cell::new(0u64);
                        let panicky = |a: &u64, b: &u64| {
                            calls.set(calls.get() + 1);
                            assert!(calls.get() < after, "planned panic");
                            a.cmp(b)
                        };
                        let mut got = v.clone();
                        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            sort_if_nearly_sorted(&mut got, &panicky)
                        }));
                        if caught.is_err() {
                            assert_eq!(sorted_copy(&got), want, "panic, {len} {swaps} {after}");
                        }
                    }
                }
            }
        }
    }
}
