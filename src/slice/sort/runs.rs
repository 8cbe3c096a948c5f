//! Detection of inputs that are already sorted or strictly descending.

use std::cmp::Ordering;

use super::is_less;

/// Comparisons made between two checks for an early exit: with no branch
/// inside a block, the loop runs at the speed of the comparisons.
const BLOCK: usize = 32;

/// If `v` is one non-descending run, leaves it; if it is one strictly
/// descending run, reverses it (strictness keeps equal elements in order, so
/// this is right for the stable sort too). Returns whether `v` is now sorted.
///
/// On a random input this stops after one block of comparisons, so it costs
/// nothing; on a sorted or reversed one it is the whole sort, as in std.
pub(super) fn finish_if_monotonic<T, F>(v: &mut [T], compare: &F) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    if v.len() < 2 {
        return true;
    }
    if is_less(compare, &v[1], &v[0]) {
        let descending = all_pairs(v, |a, b| is_less(compare, b, a));
        if descending {
            v.reverse();
        }
        descending
    } else {
        all_pairs(v, |a, b| !is_less(compare, b, a))
    }
}

/// Whether `holds(v[k - 1], v[k])` for every `k`, checked block by block.
fn all_pairs<T>(v: &[T], holds: impl Fn(&T, &T) -> bool) -> bool {
    let mut start = 1;
    while start < v.len() {
        let end = (start + BLOCK).min(v.len());
        let mut ok = true;
        for k in start..end {
            ok &= holds(&v[k - 1], &v[k]);
        }
        if !ok {
            return false;
        }
        start = end;
    }
    true
}
