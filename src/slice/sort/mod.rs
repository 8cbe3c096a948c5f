//! Parallel sorts: a stable merge sort with a parallel merge, an unstable
//! quicksort with sampled pivots, and a cached-key sort built on the latter.
//!
//! Every sort first hands small inputs, single-thread pools and zero-sized types
//! to std (so it is never slower than std where parallelism cannot pay), and
//! finishes already sorted or strictly descending inputs in one pass, as std does.

mod cached_key;
mod merge_sort;
mod par_merge;
mod partition;
mod pivot;
mod quicksort;
mod raw;
mod runs;

use std::cmp::Ordering;

pub(crate) use cached_key::cached_key_sort;

/// Below this length a sort is handed to std at once: forking cannot pay.
const SEQUENTIAL_CUTOFF: usize = 4096;

/// The smallest piece a parallel sort gives to std's sort as a leaf.
const MIN_LEAF: usize = 2048;

/// Sorts `v` stably with `compare`, in parallel when it pays.
pub(crate) fn stable_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if goes_to_std::<T>(v.len()) {
        v.sort_by(compare);
        return;
    }
    if runs::finish_if_monotonic(v, compare) {
        return;
    }
    merge_sort::par_merge_sort(v, compare);
}

/// Sorts `v` with `compare` without keeping equal elements in order, in place.
pub(crate) fn unstable_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if goes_to_std::<T>(v.len()) {
        v.sort_unstable_by(compare);
        return;
    }
    if runs::finish_if_monotonic(v, compare) {
        return;
    }
    quicksort::par_quicksort(v, compare);
}

/// Whether a sort of `len` elements of `T` should simply call std.
fn goes_to_std<T>(len: usize) -> bool {
    size_of::<T>() == 0 || len <= SEQUENTIAL_CUTOFF || crate::current_num_threads() < 2
}

/// `a < b` under `compare`.
#[inline(always)]
fn is_less<T, F: Fn(&T, &T) -> Ordering>(compare: &F, a: &T, b: &T) -> bool {
    compare(a, b) == Ordering::Less
}
