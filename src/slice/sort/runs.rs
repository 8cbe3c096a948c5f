//! Detection of inputs that are already sorted or strictly descending.
//!
//! The check runs on the calling thread, as std's does: it is a single pass
//! limited by memory bandwidth, so forking for it costs more (waking a worker,
//! waiting for a descheduled thief) than it can win, above all on small inputs
//! or a loaded machine.

use std::cmp::Ordering;

use super::is_less;

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
    let Some((first, rest)) = v.split_first() else {
        return true;
    };
    let Some(second) = rest.first() else {
        return true;
    };
    // Pairs of neighbours through zipped slice iterators: no bounds checks in
    // the loop, so it runs as fast as std's own check.
    let pairs = || v.iter().zip(rest);
    if is_less(compare, second, first) {
        if pairs().all(|(a, b)| is_less(compare, b, a)) {
            v.reverse();
            return true;
        }
        false
    } else {
        pairs().all(|(a, b)| !is_less(compare, b, a))
    }
}
