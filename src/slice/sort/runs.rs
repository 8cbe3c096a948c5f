//! Detection of inputs that are already sorted or strictly descending.

use std::cmp::Ordering;

use super::is_less;

/// If `v` is one non-descending run, leaves it; if it is one strictly
/// descending run, reverses it (strictness keeps equal elements in order, so
/// this is right for the stable sort too). Returns whether `v` is now sorted.
///
/// On a random input this stops after a couple of comparisons, so it costs
/// nothing; on a sorted or reversed one it is the whole sort, as in std.
pub(super) fn finish_if_monotonic<T, F>(v: &mut [T], compare: &F) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    if v.len() < 2 {
        return true;
    }
    if is_less(compare, &v[1], &v[0]) {
        let descending = v.windows(2).all(|w| is_less(compare, &w[1], &w[0]));
        if descending {
            v.reverse();
        }
        descending
    } else {
        v.windows(2).all(|w| !is_less(compare, &w[1], &w[0]))
    }
}
