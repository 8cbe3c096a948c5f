//! In-place two-way partition of a slice by a predicate.

use std::ptr;

/// Moves the elements for which `goes_left` holds to the front of `v`, keeping
/// the others behind them, and returns how many went left. Not stable.
///
/// Branch-free Lomuto: every element is swapped with the first one that did not
/// go left, and the boundary advances by the predicate's answer, so there is no
/// unpredictable branch. Only whole swaps move elements, after the predicate
/// answered, so a panicking predicate leaves a permutation of `v`.
pub(super) fn partition<T, P>(v: &mut [T], mut goes_left: P) -> usize
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
