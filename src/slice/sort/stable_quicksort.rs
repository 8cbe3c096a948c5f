//! A stable quicksort, for inputs with few distinct values.
//!
//! A merge sort of `n` elements always makes about `n log n` comparisons; with
//! `k` distinct values a quicksort that sets the elements equal to its pivot
//! aside needs only about `n log k`. Each partition copies the elements into a
//! buffer, those going left from its front and those going right from its back
//! (so both keep their order), then copies them back: stable. When the pivot's
//! neighbours in the sample say that it is frequent, the piece is split in
//! three: less than, equal to (set aside, sorted already) and greater than the
//! pivot.
//!
//! Panic safety: a partition only reads the slice while it fills the buffer,
//! and the copy back cannot panic, so a panicking comparator leaves the slice
//! holding every element once. Whatever the comparator answers, elements only
//! move as a permutation, and the pivot's side is set without asking the
//! comparator, so every partition of the three-way split takes at least the
//! pivot out and the recursion ends; after too many levels a piece goes to the
//! merge sort, so the sort stays O(n log n).

use std::cmp::Ordering;
use std::ptr;

use super::insertion::insertion_sort;
use super::is_less;
use super::merge_sort::seq_merge_sort_with;
use super::pivot::sorted_sample;
use super::scratch::Scratch;

/// Pieces this short are insertion sorted.
const INSERTION_MAX: usize = 24;

/// From this length the pivot is the median of a sample of 63, below it of 15.
const BIG_SAMPLE_FROM: usize = 1 << 12;

/// Sorts `v` stably, sequentially; fastest when `v` holds few distinct values.
pub(super) fn stable_quicksort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if v.len() <= INSERTION_MAX {
        insertion_sort(v, compare);
        return;
    }
    let mut buf = Scratch::<T>::new(v.len());
    // SAFETY: `buf` has room for `v.len()` elements, is not `v`, and never owns
    // anything (a `Scratch`).
    unsafe { stable_quicksort_with(v, buf.as_mut_ptr(), compare) };
}

/// [`stable_quicksort`] with the scratch space at `buf`.
///
/// # Safety
/// `buf` has room for `v.len()` elements, does not overlap `v`, and owns
/// nothing.
pub(super) unsafe fn stable_quicksort_with<T, F>(v: &mut [T], buf: *mut T, compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let limit = 2 * (usize::BITS - v.len().leading_zeros());
    // SAFETY: the caller's contract.
    unsafe { recurse(v, buf, compare, limit) };
}

/// Sorts `v` with the scratch space at `buf`, `limit` levels before the merge
/// sort takes over.
///
/// # Safety
/// `buf` has room for `v.len()` elements and does not overlap `v`.
unsafe fn recurse<T, F>(mut v: &mut [T], buf: *mut T, compare: &F, mut limit: u32)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    loop {
        if v.len() <= INSERTION_MAX {
            insertion_sort(v, compare);
            return;
        }
        if limit == 0 {
            // SAFETY: `buf` has room for `v` (the caller's contract).
            unsafe { seq_merge_sort_with(v, buf, compare) };
            return;
        }
        limit -= 1;
        let (pivot, frequent) = choose_pivot(v, compare);
        if !frequent {
            // SAFETY: `buf` has room for `v` (the caller's contract).
            let (n_less, _) =
                unsafe { stable_partition(v, buf, pivot, false, |x, p| is_less(compare, x, p)) };
            if n_less > 0 {
                let whole = std::mem::take(&mut v);
                let (left, right) = whole.split_at_mut(n_less);
                // SAFETY: each side is shorter than `v`, so `buf` has room.
                unsafe { recurse(left, buf, compare, limit) };
                v = right;
                continue;
            }
            // Nothing is less than the pivot: nothing moved, and the pivot is
            // a smallest element. Split off the elements equal to it.
        }
        // Three ways: first `[<= pivot][> pivot]`, then the left part again
        // into `[< pivot][== pivot]`. The pivot goes left, then right, by fiat.
        // SAFETY: `buf` has room for `v`, and the left part is shorter.
        let whole = std::mem::take(&mut v);
        let (n_not_greater, pivot) =
            unsafe { stable_partition(whole, buf, pivot, true, |x, p| !is_less(compare, p, x)) };
        let (not_greater, greater) = whole.split_at_mut(n_not_greater);
        // SAFETY: as above.
        let (n_less, _) = unsafe {
            stable_partition(not_greater, buf, pivot, false, |x, p| {
                is_less(compare, x, p)
            })
        };
        // SAFETY: as above.
        unsafe { recurse(&mut not_greater[..n_less], buf, compare, limit) };
        v = greater;
    }
}

/// The index of the pivot for `v` (longer than [`INSERTION_MAX`]): the median
/// of a sample, and whether it is frequent (equal to a neighbour in the
/// sorted sample).
fn choose_pivot<T, F>(v: &[T], compare: &F) -> (usize, bool)
where
    F: Fn(&T, &T) -> Ordering,
{
    fn pick<T, F: Fn(&T, &T) -> Ordering, const N: usize>(v: &[T], compare: &F) -> (usize, bool) {
        let sample = sorted_sample::<T, F, N>(v, compare);
        let (below, at, above) = (sample[N / 2 - 1], sample[N / 2], sample[N / 2 + 1]);
        let frequent = !is_less(compare, &v[below], &v[at]) || !is_less(compare, &v[at], &v[above]);
        (at, frequent)
    }
    if v.len() >= BIG_SAMPLE_FROM {
        pick::<T, F, 63>(v, compare)
    } else {
        pick::<T, F, 15>(v, compare)
    }
}

/// Moves the elements `x` of `v` for which `goes_left(x, &v[pivot])` holds
/// before the others, keeping the order within each side. The pivot itself
/// goes left when `pivot_left`, right otherwise, without a comparison.
/// Returns the number that went left and the pivot's new index.
///
/// # Safety
/// `buf` has room for `v.len()` elements and does not overlap `v`.
unsafe fn stable_partition<T, P>(
    v: &mut [T],
    buf: *mut T,
    pivot: usize,
    pivot_left: bool,
    goes_left: P,
) -> (usize, usize)
where
    P: Fn(&T, &T) -> bool,
{
    let len = v.len();
    let src = v.as_mut_ptr();
    // SAFETY: `pivot < len`; the slice is only read until the copy back, so
    // the pivot stays in place. Each element is copied once, to the front or
    // the back of the free places of `buf` (see `Fill`), so every write is in
    // bounds and none overwrites another. A panic in `goes_left` leaves the
    // slice untouched, and `buf` owns nothing.
    unsafe {
        let pivot_ref = &*src.add(pivot);
        let mut fill = Fill {
            buf,
            rev: buf.add(len),
            n_left: 0,
        };
        let put_all = |fill: &mut Fill<T>, from: usize, to: usize| {
            // Four at a time: the loop's own counting is a fair part of the
            // cost of one element of `u64`s.
            let mut at = src.add(from);
            for _ in 0..(to - from) / 4 {
                for k in 0..4 {
                    fill.put(at.add(k), goes_left(&*at.add(k), pivot_ref));
                }
                at = at.add(4);
            }
            for k in 0..(to - from) % 4 {
                fill.put(at.add(k), goes_left(&*at.add(k), pivot_ref));
            }
        };
        put_all(&mut fill, 0, pivot);
        let pivot_rank = if pivot_left {
            fill.n_left
        } else {
            pivot - fill.n_left
        };
        fill.put(src.add(pivot), pivot_left);
        put_all(&mut fill, pivot + 1, len);
        let n_left = fill.n_left;
        // Copy back: the left side in order, the right side (which filled
        // `buf` from its end down) reversed.
        ptr::copy_nonoverlapping(buf, src, n_left);
        let (mut from, end) = (buf.add(len), src.add(len));
        let mut to = src.add(n_left);
        while to < end {
            from = from.sub(1);
            ptr::copy_nonoverlapping(from, to, 1);
            to = to.add(1);
        }
        let new_pivot = if pivot_left {
            pivot_rank
        } else {
            n_left + pivot_rank
        };
        (n_left, new_pivot)
    }
}

/// Where a partition puts the next element in its buffer of `len` places:
/// those going left fill it from the front, those going right from the back
/// down. After `i` elements, `rev` is `buf + len - i`, so the next right
/// place, `len - 1 - (i - n_left)`, is `rev - 1 + n_left`: each side's place
/// is one base plus `n_left`, picked without a branch.
struct Fill<T> {
    buf: *mut T,
    rev: *mut T,
    n_left: usize,
}

impl<T> Fill<T> {
    /// Copies `*x` to the next place of its side.
    ///
    /// # Safety
    /// Fewer than `len` elements were put so far.
    #[inline(always)]
    unsafe fn put(&mut self, x: *const T, left: bool) {
        // SAFETY: with `i < len` elements put, `n_left <= i`: the front place
        // `n_left` and the back place `len - 1 - (i - n_left)` are free and in
        // bounds (they are equal only when this is the last place).
        unsafe {
            self.rev = self.rev.sub(1);
            let base = if left { self.buf } else { self.rev };
            ptr::copy_nonoverlapping(x, base.add(self.n_left), 1);
        }
        self.n_left += left as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded xorshift sequence of values below `modulus`.
    fn random(len: usize, modulus: u64, seed: u64) -> Vec<u64> {
        let coin = super::super::test_coin(seed | 1);
        (0..len).map(|_| coin() % modulus).collect()
    }

    #[test]
    fn equal_keys_keep_their_order() {
        for modulus in [1, 2, 16, 1000, u64::MAX] {
            for len in [0, 1, 25, 100, 5000, 70_000] {
                let keyed: Vec<(u64, usize)> = random(len, modulus, len as u64 + modulus)
                    .into_iter()
                    .zip(0..)
                    .collect();
                let mut got = keyed.clone();
                stable_quicksort(&mut got, &|a: &(u64, usize), b: &(u64, usize)| {
                    a.0.cmp(&b.0)
                });
                let mut want = keyed;
                want.sort_by_key(|p| p.0);
                assert_eq!(got, want, "{len} values below {modulus}");
            }
        }
    }

    #[test]
    fn an_inconsistent_comparator_leaves_a_permutation() {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        let state = AtomicU64::new(3);
        let coin = |_: &u64, _: &u64| {
            let mut x = state.load(Relaxed);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            state.store(x, Relaxed);
            [Ordering::Less, Ordering::Equal, Ordering::Greater][(x % 3) as usize]
        };
        for len in [30, 500, 20_000] {
            let input = random(len, 8, 5);
            let mut got = input.clone();
            stable_quicksort(&mut got, &coin);
            got.sort();
            let mut want = input;
            want.sort();
            assert_eq!(got, want);
        }
    }
}
