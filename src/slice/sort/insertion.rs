//! Insertion sort, for the shortest pieces, and heapsort, the quicksort's way out of
//! bad pivots. Neither ever panics on its own: with an inconsistent comparator the
//! slice simply ends as some permutation of its elements (std's sorts panic there
//! since Rust 1.81; Rayon's and ours do not). A panicking comparator also leaves a
//! permutation.

use std::cmp::Ordering;
use std::mem::ManuallyDrop;
use std::ptr;

use super::is_less;

/// Sorts `v` stably by inserting each element into the sorted run before it.
pub(super) fn insertion_sort<T, F>(v: &mut [T], compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    for i in 1..v.len() {
        insert_tail(&mut v[..=i], compare);
    }
}

/// Sorts `v` stably whose first `sorted` elements are sorted already, finding
/// each element's place by binary search: about `log2 i` comparisons to
/// insert into `i` elements instead of `i / 2`, for the runs of the merge
/// sort, whose comparator may be costly. Equal elements go after those
/// already there. A comparator that panics or contradicts itself leaves a
/// permutation: elements move only after the search, which calls nothing
/// else.
pub(super) fn binary_insertion_sort_from<T, F>(v: &mut [T], sorted: usize, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    for i in sorted.max(1)..v.len() {
        // The first place among `v[..i]` whose element is greater than `v[i]`.
        let (mut lo, mut hi) = (0, i);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            // SAFETY: `lo <= mid < hi <= i < v.len()`: both are in bounds
            // (the search's checks cost a tenth of the merge sort's runs).
            let less = unsafe { is_less(compare, v.get_unchecked(i), v.get_unchecked(mid)) };
            if less {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        if lo < i {
            shift_into_place(&mut v[lo..=i]);
        }
    }
}

/// Moves the last element of `v` to its front and the others one place
/// right: a rotation by one, in one `memmove` (std's general rotation costs
/// several times as much for such short shifts).
fn shift_into_place<T>(v: &mut [T]) {
    let last = v.len() - 1;
    let base = v.as_mut_ptr();
    // SAFETY: `last` is in bounds. The last element is read out, the others
    // move one place right over it (an overlapping copy), and it is written
    // into the first place; nothing in between can panic, so every element
    // is in the slice once when this returns.
    unsafe {
        let moved = ptr::read(base.add(last));
        ptr::copy(base, base.add(1), last);
        ptr::write(base, moved);
    }
}

/// An element taken out of the slice, and the empty place (the hole) it goes back
/// to when dropped: where the insertion stopped, or wherever a panic left it.
pub(super) struct Hole<T> {
    pub(super) element: ManuallyDrop<T>,
    pub(super) dest: *mut T,
}

impl<T> Drop for Hole<T> {
    fn drop(&mut self) {
        // SAFETY: `dest` is the one place of the slice whose element was moved away
        // (into `element` or one place to the right), so writing fills it without
        // dropping anything.
        unsafe { ptr::copy_nonoverlapping(&*self.element, self.dest, 1) };
    }
}

/// Moves the last element of `v` left into place; `v[..len - 1]` is sorted.
/// The element is compared where it is first, then in the [`Hole`] that puts
/// it back on every exit.
pub(super) fn insert_tail<T, F>(v: &mut [T], compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    insert_tail_within(v, compare, || true);
}

/// [`insert_tail`], asking `may_move` before each move of an element one place
/// right; returns false when it says no (the moved-out element then goes into
/// the place it got to). `v` holds at least two elements.
#[inline]
pub(super) fn insert_tail_within<T, F>(
    v: &mut [T],
    compare: &F,
    mut may_move: impl FnMut() -> bool,
) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    let last = v.len() - 1;
    if !is_less(compare, &v[last], &v[last - 1]) {
        return true;
    }
    let base = v.as_mut_ptr();
    // SAFETY: `last` is in bounds. The element is copied out and its place becomes
    // the hole; every step moves one element right into the hole and moves the hole
    // left, so exactly one place is empty at any time and `Hole` fills it on every
    // exit, also if `compare` panics.
    unsafe {
        let mut hole = Hole {
            element: ManuallyDrop::new(ptr::read(base.add(last))),
            dest: base.add(last),
        };
        // The element is less than the one before it (checked above): each
        // step moves that one right, then compares with the next.
        let mut i = last;
        loop {
            if !may_move() {
                return false;
            }
            ptr::copy_nonoverlapping(base.add(i - 1), base.add(i), 1);
            i -= 1;
            hole.dest = base.add(i);
            if i == 0 || !is_less(compare, &hole.element, &*base.add(i - 1)) {
                break;
            }
        }
    }
    true
}

/// Sorts `v` in O(n log n) whatever the comparator answers, with swaps only.
pub(super) fn heapsort<T, F>(v: &mut [T], compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    for start in (0..len / 2).rev() {
        sift_down(v, start, len, compare);
    }
    for end in (1..len).rev() {
        v.swap(0, end);
        sift_down(v, 0, end, compare);
    }
}

/// Restores the max-heap order below `node` in `v[..end]`.
fn sift_down<T, F>(v: &mut [T], mut node: usize, end: usize, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    loop {
        let mut child = 2 * node + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && is_less(compare, &v[child], &v[child + 1]) {
            child += 1;
        }
        if !is_less(compare, &v[node], &v[child]) {
            return;
        }
        v.swap(node, child);
        node = child;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sort_and_survive_inconsistent_comparators() {
        let coin = super::super::test_coin(7);
        for len in 0..70 {
            let v: Vec<u64> = (0..len).map(|_| coin() % 10).collect();
            let mut want = v.clone();
            want.sort();
            for sort in [insertion_sort::<u64, fn(&u64, &u64) -> Ordering>, heapsort] {
                let mut got = v.clone();
                sort(&mut got, &(u64::cmp as fn(&u64, &u64) -> Ordering));
                assert_eq!(got, want);
            }
            // Stability: pairs by their first half only.
            let pairs: Vec<(u64, usize)> = v
                .iter()
                .map(|&x| (x % 3, 0))
                .zip(0..)
                .map(|((k, _), i)| (k, i))
                .collect();
            let mut got = pairs.clone();
            binary_insertion_sort_from(&mut got, 0, &|a: &(u64, usize), b: &(u64, usize)| {
                a.0.cmp(&b.0)
            });
            let mut want_pairs = pairs;
            want_pairs.sort_by_key(|p| p.0);
            assert_eq!(got, want_pairs);
            let random =
                |_: &u64, _: &u64| [Ordering::Less, Ordering::Greater][coin() as usize % 2];
            let mut a = v.clone();
            insertion_sort(&mut a, &random);
            let mut b = v.clone();
            heapsort(&mut b, &random);
            let mut c = v.clone();
            binary_insertion_sort_from(&mut c, 0, &random);
            for mut got in [a, b, c] {
                got.sort();
                assert_eq!(got, want, "a permutation");
            }
        }
    }
}
