//! The unstable parallel quicksort, in place.
//!
//! Each level picks the median of a sample as pivot, partitions around it and
//! sorts the two sides with `join`; pieces small enough for a fair share of a
//! thread's work go to std's `sort_unstable_by`. Many equal elements are
//! handled as in pdqsort: the right side remembers its pivot (its "ancestor",
//! a lower bound of all its elements); when a new pivot is not greater than
//! the ancestor, all elements equal to it are put in front in one pass and
//! dropped from the recursion.
//!
//! The partition at each level runs on one thread: `ParallelSliceMut` only
//! asks `T: Send`, so a pivot cannot be read by two threads at once. A pivot is
//! only ever read by the one task that owns it (it is passed as `&mut T`).
//!
//! Elements only move by swaps made after the comparator answered, so a panic
//! or an inconsistent comparator leaves a permutation of the input. The number
//! of parallel levels is bounded, so bad pivots cannot make it quadratic.

use std::cmp::Ordering;

use super::partition::partition;
use super::pivot::median_of_sample;
use super::{MIN_LEAF, is_less};

/// Sorts `v` (longer than the sequential cutoff) in parallel, unstably.
pub(super) fn par_quicksort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let threads = crate::current_num_threads();
    // Leaves of about 1/(4 threads) of the input: enough pieces for stealing
    // to balance, while a side up to a third bigger than its half still stops.
    let leaf = (v.len() / (3 * threads)).max(MIN_LEAF);
    let max_depth = 2 * (usize::BITS - threads.leading_zeros()) + 6;
    recurse(v, compare, None, leaf, max_depth);
}

/// Sorts `v`, all of whose elements are not less than `ancestor` (if any).
fn recurse<T, F>(v: &mut [T], compare: &F, ancestor: Option<&mut T>, leaf: usize, depth: u32)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if v.len() <= leaf || depth == 0 {
        v.sort_unstable_by(compare);
        return;
    }
    let chosen = median_of_sample(v, compare);
    v.swap(0, chosen);
    let (pivot, rest) = v.split_first_mut().expect("v is longer than a leaf");
    if let Some(lower) = ancestor.as_deref() {
        if !is_less(compare, lower, pivot) {
            // The pivot equals the lower bound: everything not greater than it is
            // equal to it and already in its final place once moved to the front.
            let n_equal = partition(rest, |x| !is_less(compare, pivot, x));
            recurse(&mut rest[n_equal..], compare, ancestor, leaf, depth - 1);
            return;
        }
    }
    let n_less = partition(rest, |x| is_less(compare, x, pivot));
    v.swap(0, n_less);
    let (left, right) = v.split_at_mut(n_less);
    let (pivot, right) = right.split_first_mut().expect("the pivot is there");
    crate::join(
        || recurse(left, compare, ancestor, leaf, depth - 1),
        || recurse(right, compare, Some(pivot), leaf, depth - 1),
    );
}
