//! In-place two-way partition of a slice by a predicate.
//!
//! Three schemes, picked by the element size, all but the last without an
//! unpredictable branch. Elements of one or two words take a Lomuto pass that
//! swaps every element (a swap is two loads and two stores in registers).
//! Medium elements take a Lomuto pass that keeps one element out of the slice
//! and moves every other one twice: two copies per element instead of a
//! swap's three, which pays once an element is several words (measured with
//! cachegrind, the whole sequential sort: about 17% fewer instructions on
//! 64-byte elements, 13% more on `u64`s). Large elements take a Hoare pass
//! that only moves the elements on the wrong side, one swap per pair: there
//! the bytes moved cost more than the mispredicted branches.
//!
//! All only move an element after the predicate answered for it, and keep a
//! permutation of `v` at every call of the predicate (the element held out is
//! written back by a guard if the predicate panics), so none panics on its
//! own or loses an element, whatever the predicate answers.

use std::mem::ManuallyDrop;
use std::ptr;

use super::insertion::Hole;

/// Elements up to this size are partitioned by swaps.
const SWAP_MAX_SIZE: usize = 16;

/// Elements up to this size are partitioned by the Lomuto pass with a hole.
const BRANCHLESS_MAX_SIZE: usize = 96;

/// Moves the elements for which `goes_left` holds to the front of `v`, keeping
/// the others behind them, and returns how many went left. Not stable.
pub(super) fn partition<T, P>(v: &mut [T], goes_left: P) -> usize
where
    P: FnMut(&T) -> bool,
{
    if size_of::<T>() <= SWAP_MAX_SIZE {
        swapping_lomuto(v, goes_left)
    } else if size_of::<T>() <= BRANCHLESS_MAX_SIZE {
        cyclic_lomuto(v, goes_left)
    } else {
        hoare(v, goes_left)
    }
}

/// Partitions `v` around its element at `pivot` for a piece that looks
/// nearly sorted, keeping both sides nearly sorted: the pivot is rotated to
/// the front (the elements before it shift up one place, in order), the rest
/// is partitioned by Hoare's scheme, which only swaps the pairs found on the
/// wrong sides (with predictable branches here), and the pivot is rotated back
/// between the sides. A Lomuto pass would carry elements of the right side
/// along, and parking the pivot by a swap would put an element out of place,
/// both scattering what partitions below could skip. Returns the pivot's new
/// index: the elements before it are those `less` than it.
pub(super) fn partition_around<T, L>(v: &mut [T], pivot: usize, less: L) -> usize
where
    L: Fn(&T, &T) -> bool,
{
    v[..=pivot].rotate_right(1);
    let (p, rest) = v.split_first_mut().expect("the pivot is in `v`");
    let n_less = hoare(rest, |x| less(x, p));
    v[..=n_less].rotate_left(1);
    n_less
}

/// Branch-free Lomuto by swaps: every element is swapped with the first one
/// that did not go left, and the boundary advances by the predicate's answer.
fn swapping_lomuto<T, P>(v: &mut [T], mut goes_left: P) -> usize
where
    P: FnMut(&T) -> bool,
{
    let base = v.as_mut_ptr();
    let mut n_left = 0;
    for i in 0..v.len() {
        // SAFETY: `n_left <= i < v.len()`, so both pointers are in bounds; the
        // reference given to `goes_left` ends before the swap; `ptr::swap`
        // allows the two places to be the same.
        unsafe {
            let current = base.add(i);
            let left = goes_left(&*current);
            ptr::swap(base.add(n_left), current);
            n_left += left as usize;
        }
    }
    n_left
}

/// Branch-free Lomuto with a hole.
///
/// The first element is held out, leaving a hole. Before element `i` is
/// placed, `v[..n_left]` went left, `v[n_left..i - 1]` did not, and the hole is
/// at `i - 1`. Placing `v[i]`: the first element that did not go left moves
/// into the hole (the end of its group), `v[i]` moves into its place, the hole
/// moves to `i`, and `n_left` grows by the predicate's answer. If `v[i]` went
/// left it stays at the end of the left group; if not, it is the first of the
/// right group, which is still contiguous. The held element is placed last by
/// the same two moves.
fn cyclic_lomuto<T, P>(v: &mut [T], mut goes_left: P) -> usize
where
    P: FnMut(&T) -> bool,
{
    let len = v.len();
    if len == 0 {
        return 0;
    }
    let base = v.as_mut_ptr();
    // SAFETY: every pointer is `base` plus an index below `len`
    // (`n_left <= i - 1 < i < len`). At every call of `goes_left` exactly one
    // place, `hole.dest`, is empty and its element is in `hole`, whose drop
    // writes it back, also when `goes_left` panics. The move into the hole may
    // come from the hole itself (when `n_left == i - 1`), hence `ptr::copy`;
    // the move of `v[i]` to `v[n_left]` never overlaps (`n_left < i`). The
    // references given to `goes_left` end before anything moves.
    unsafe {
        let mut hole = Hole {
            element: ManuallyDrop::new(ptr::read(base)),
            dest: base,
        };
        let mut n_left = 0;
        for i in 1..len {
            let current = base.add(i);
            let left = goes_left(&*current);
            let first_right = base.add(n_left);
            ptr::copy(first_right, hole.dest, 1);
            ptr::copy_nonoverlapping(current, first_right, 1);
            hole.dest = current;
            n_left += left as usize;
        }
        let left = goes_left(&hole.element);
        let first_right = base.add(n_left);
        ptr::copy(first_right, hole.dest, 1);
        // Dropping the hole writes the held element at `first_right`.
        hole.dest = first_right;
        n_left + left as usize
    }
}

/// Hoare's partition: scans from both ends and swaps the pairs found on the
/// wrong sides. Any answers of `goes_left` keep both scans inside `v`.
fn hoare<T, P>(v: &mut [T], mut goes_left: P) -> usize
where
    P: FnMut(&T) -> bool,
{
    let (mut l, mut r) = (0, v.len());
    loop {
        while l < r && goes_left(&v[l]) {
            l += 1;
        }
        while l < r && !goes_left(&v[r - 1]) {
            r -= 1;
        }
        if l >= r {
            return l;
        }
        r -= 1;
        v.swap(l, r);
        l += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All schemes split at the right place, keep every element, and survive
    /// predicates that answer at random or panic.
    #[test]
    fn all_schemes_partition_and_keep_a_permutation() {
        let coin = super::super::test_coin(11);
        for len in 0..100 {
            let v: Vec<u64> = (0..len).map(|_| coin() % 20).collect();
            let mut want = v.clone();
            want.sort();
            for use_hoare in [false, true] {
                let scheme = |v: &mut [u64], p: &mut dyn FnMut(&u64) -> bool| {
                    if use_hoare {
                        hoare(v, p)
                    } else {
                        cyclic_lomuto(v, p)
                    }
                };
                let mut got = v.clone();
                let n = scheme(&mut got, &mut |x: &u64| *x < 10);
                assert_eq!(n, v.iter().filter(|x| **x < 10).count());
                assert!(got[..n].iter().all(|x| *x < 10));
                assert!(got[n..].iter().all(|x| *x >= 10));
                got.sort();
                assert_eq!(got, want);

                let mut got = v.clone();
                let n = scheme(&mut got, &mut |_: &u64| coin() % 2 == 0);
                assert!(n <= len);
                got.sort();
                assert_eq!(got, want, "a permutation");

                let mut got = v.clone();
                let calls = std::cell::Cell::new(0);
                let stop = len / 2;
                let mut panicky = |_: &u64| {
                    calls.set(calls.get() + 1);
                    assert!(calls.get() <= stop, "stop here");
                    coin() % 2 == 0
                };
                let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    scheme(&mut got, &mut panicky)
                }));
                assert_eq!(caught.is_err(), len > stop);
                got.sort();
                assert_eq!(got, want, "a permutation after a panic");
            }
        }
    }
}
