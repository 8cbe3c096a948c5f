//! Parallel sorts: a stable merge sort with a parallel merge, an unstable
//! quicksort with sampled pivots, and a cached-key sort built on the latter.
//!
//! Every sort first finishes already sorted or strictly descending inputs in
//! one pass, as std does (our check was measured faster than std's on sorted
//! and reversed `u64`s; on other inputs it stops at the first descent), then
//! sorts small inputs, single-thread pools and zero-sized types sequentially.
//! The unstable sort then sorts an input that looks nearly sorted (or
//! reversed) by setting its few misplaced elements aside and merging them
//! back ([`outliers`]), in about one pass of comparisons, where a quicksort
//! would partition it level after level.
//!
//! No sort calls std's: since Rust 1.81 those panic when the comparator is not a
//! total order, and Rayon's never do. Ours leave the slice as some permutation
//! of its elements then, as Rayon's. The sequential sorts are an introsort
//! ([`seq_quicksort`]), a merge sort of natural runs
//! ([`merge_sort::seq_merge_sort`]) and, for inputs with few distinct values,
//! a stable quicksort that sets equal elements aside
//! ([`stable_quicksort`]).

mod cached_key;
mod fork;
mod insertion;
mod merge_sort;
mod nearly_sorted;
mod outliers;
mod par_merge;
mod par_partition;
mod partition;
mod pivot;
mod quicksort;
mod raw;
mod runs;
mod seq_quicksort;
mod small_sort;
mod stable_block;
mod stable_quicksort;

/// A seeded xorshift sequence for the sorts' unit tests: a closure callable through a
/// shared reference, so that a predicate or a comparator can draw from it too.
#[cfg(test)]
fn test_coin(seed: u64) -> impl Fn() -> u64 {
    let state = std::cell::Cell::new(seed);
    move || {
        let mut x = state.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        state.set(x);
        x
    }
}

use std::cell::Cell;
use std::cmp::Ordering;
use std::time::{Duration, Instant};

pub(crate) use cached_key::cached_key_sort;

/// Below this length an unstable sort is handed to std at once: forking
/// cannot pay.
const SEQUENTIAL_CUTOFF: usize = 4096;

/// Below this length a stable sort is handed to std at once. It is higher than
/// the unstable one because the merge sort pays for a buffer of the whole
/// slice and one more pass per level, which std's stable sort (a run-adaptive
/// merge sort itself) does not; measured on 2 cores, the parallel one starts
/// to win between 10^5 and 2 * 10^5 elements.
const STABLE_SEQUENTIAL_CUTOFF: usize = 1 << 17;

/// Below this length an unstable sort of an input with few distinct values
/// (as its sample suggests) runs sequentially: measured on 2 cores, the
/// sequential sort of 10^5 such elements takes under half a millisecond, less
/// than the parallel one spends on waking threads and joining, while 10^6
/// (some 4 ms of work, which Rayon sorts in parallel) leaves room for two
/// threads to win; the timings of a shared machine did not settle where
/// between the two the parallel sort starts to pay.
const FEW_DISTINCT_SEQUENTIAL_CUTOFF: usize = 1 << 19;

/// The smallest piece a parallel sort gives to std's sort as a leaf.
const MIN_LEAF: usize = 2048;

/// Sorts `v` stably with `compare`, in parallel when it pays.
pub(crate) fn stable_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if runs::finish_if_monotonic(v, compare) {
        return;
    }
    if goes_sequential::<T>(v.len(), STABLE_SEQUENTIAL_CUTOFF) {
        if v.len() < FEW_DISTINCT_CHECK_FROM || crate::current_num_threads() < 2 {
            seq_stable_sort(v, compare);
            return;
        }
        // The sample that looks for few distinct values is timed: with a costly
        // comparator, a short input is worth sorting in parallel too.
        let calls = Cell::new(0u32);
        let counted = |a: &T, b: &T| {
            calls.set(calls.get() + 1);
            compare(a, b)
        };
        let start = Instant::now();
        let few = pivot::looks_few_distinct(v, &counted);
        let per_call = start.elapsed() / calls.get().max(1);
        if few {
            stable_quicksort::stable_quicksort(v, compare);
        } else if per_call * sequential_calls(v.len()) > COSTLY_SEQUENTIAL_COMPARISONS {
            merge_sort::par_merge_sort(v, compare);
        } else {
            merge_sort::seq_merge_sort(v, compare);
        }
        return;
    }
    merge_sort::par_merge_sort(v, compare);
}

/// A stable sort shorter than `STABLE_SEQUENTIAL_CUTOFF` goes parallel all the same
/// when its comparisons alone would take longer than this on one thread: the merge
/// sort's extra buffer and passes, which keep cheap comparisons sequential up to
/// there, are small next to that (a comparator of microseconds, a key that
/// allocates).
const COSTLY_SEQUENTIAL_COMPARISONS: Duration = Duration::from_millis(8);

/// About how many comparisons a merge sort of `len` elements makes (`len log2 len`).
fn sequential_calls(len: usize) -> u32 {
    let log = usize::BITS - len.leading_zeros();
    u32::try_from(len.saturating_mul(log as usize)).unwrap_or(u32::MAX)
}

/// Below this length the stable sort does not look for few distinct values:
/// the sample costs about a thousand comparisons.
const FEW_DISTINCT_CHECK_FROM: usize = 1 << 12;

/// Sorts `v` stably on this thread: by the stable quicksort when a sample
/// suggests few distinct values (it sets equal elements aside, about
/// `n log k` comparisons for `k` values), else by the merge sort.
fn seq_stable_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if v.len() >= FEW_DISTINCT_CHECK_FROM && pivot::looks_few_distinct(v, compare) {
        stable_quicksort::stable_quicksort(v, compare);
    } else {
        merge_sort::seq_merge_sort(v, compare);
    }
}

/// Sorts `v` with `compare` without keeping equal elements in order, in place.
pub(crate) fn unstable_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if runs::finish_if_monotonic(v, compare) || outliers::sort_if_nearly_sorted(v, compare) {
        return;
    }
    if goes_sequential::<T>(v.len(), SEQUENTIAL_CUTOFF)
        || v.len() < FEW_DISTINCT_SEQUENTIAL_CUTOFF && pivot::looks_few_distinct(v, compare)
    {
        seq_quicksort::seq_unstable_sort(v, compare);
        return;
    }
    quicksort::par_quicksort(v, compare);
}

/// Whether a sort of `len` elements of `T` should run sequentially.
fn goes_sequential<T>(len: usize, cutoff: usize) -> bool {
    size_of::<T>() == 0 || len <= cutoff || crate::current_num_threads() < 2
}

/// `a < b` under `compare`.
#[inline(always)]
fn is_less<T, F: Fn(&T, &T) -> Ordering>(compare: &F, a: &T, b: &T) -> bool {
    compare(a, b) == Ordering::Less
}
