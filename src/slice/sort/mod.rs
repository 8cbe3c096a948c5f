//! Parallel sorts: a stable merge sort with a parallel merge, an unstable
//! quicksort with sampled pivots, and a cached-key sort built on the latter.
//!
//! Every sort first finishes already sorted or strictly descending inputs in
//! one pass on the calling thread, as std does (ours checks sixteen pairs at a
//! time and reverses while it checks, which costs less than std's check pair
//! by pair and separate reversal; on other inputs it stops within the first
//! sixteen pairs; see [`runs`]), comparing each neighbouring pair once
//! (`n - 1` calls of the comparator, as std's), then sorts small inputs,
//! single-thread pools and zero-sized types sequentially on the calling
//! thread too. So a program that calls `v.par_sort_unstable()` from its main
//! thread on such an input never waits for a round trip into the pool, and
//! its comparator runs on the main thread, as std's sort runs it (Rayon's
//! sorts of up to 2,000 elements do the same; its stable sort of a longer
//! sorted input checks it on the pool's threads). Only the check of a sorted
//! input of 2^18 elements or more (2^21 for the unstable sort) goes to all
//! threads, once its first 4,096 elements were found in order.
//!
//! The unstable sort then sorts an input that looks nearly sorted (or
//! reversed) by setting its few misplaced elements aside and merging them
//! back ([`outliers`]), in about one pass of comparisons, where a quicksort
//! would partition it level after level.
//!
//! A few sorted runs (lists sorted apart and appended) are taken whole by the
//! stable sort's merge sort, and sorted by the unstable one's quicksort, which
//! allocates nothing and so cannot merge them; its pivots are drawn so that
//! run borders at the quarters of a piece do not make them lopsided
//! ([`seq_quicksort`]).
//!
//! No sort calls std's: since Rust 1.81 those panic when the comparator is not a
//! total order, and Rayon's never do. Ours leave the slice as some permutation
//! of its elements then, as Rayon's. The sequential sorts are an introsort
//! ([`seq_quicksort`]), a merge sort of natural runs
//! ([`merge_sort::seq_merge_sort`]) and, for inputs with few distinct values
//! and most that do not look nearly sorted (which ones: [`prefers_quicksort`]),
//! a stable quicksort that sets equal elements aside ([`stable_quicksort`]).

mod cached_key;
mod fork;
mod frozen;
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
mod scratch;
mod seq_quicksort;
mod small_sort;
mod stable_block;
mod stable_quicksort;

/// A seeded xorshift sequence for the sorts' unit tests: a closure callable through a
/// shared reference, from any thread (its state is an atomic), so that a predicate or a
/// comparator can draw from it too.
#[cfg(test)]
fn test_coin(seed: u64) -> impl Fn() -> u64 + Sync {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let state = AtomicU64::new(seed);
    move || {
        let mut x = state.load(Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        state.store(x, Relaxed);
        x
    }
}

/// A comparator that answers at random, from [`test_coin`], for the tests of
/// inconsistent comparators (`Sync`, as the merges and the parallel sorts want).
#[cfg(test)]
fn random_answers<T>(seed: u64) -> impl Fn(&T, &T) -> Ordering + Sync {
    let coin = test_coin(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    move |_, _| [Ordering::Less, Ordering::Equal, Ordering::Greater][(coin() % 3) as usize]
}

use std::cmp::Ordering;

pub(crate) use cached_key::cached_key_sort;

/// Below this length a sort runs sequentially on the caller's thread at once:
/// forking cannot pay, the parallel sort's overhead exceeding what a second
/// thread saves. From about this length, with two threads, both parallel
/// sorts beat the sequential ones on random input (measurements:
/// `docs/benchmarks.md`, section "Why the sorts' constants are what they
/// are").
const SEQUENTIAL_CUTOFF: usize = 4096;

/// Below this length an unstable sort of an input with few distinct values
/// (as its sample suggests) runs sequentially: std's way of setting equal
/// elements aside makes such sorts cheap, so forking pays later than for
/// random input. This is about where the parallel sort of such input starts
/// to beat the sequential one (measurements: `docs/benchmarks.md`, section
/// "Why the sorts' constants are what they are").
const FEW_DISTINCT_SEQUENTIAL_CUTOFF: usize = 1 << 14;

/// The same for the stable sort, whose sequential stable quicksort sets equal
/// elements aside: below this length it is about as fast as the parallel
/// merge sort (whose leaves set equal elements aside too), and far steadier
/// (measurements: `docs/benchmarks.md`, section "Why the sorts' constants are
/// what they are").
const STABLE_FEW_DISTINCT_SEQUENTIAL_CUTOFF: usize = 1 << 16;

/// The smallest piece a parallel sort sorts sequentially as a leaf.
const MIN_LEAF: usize = 2048;

/// Sorts `v` stably with `compare`, in parallel when it pays. `own_order`
/// says that `compare` is the elements' own order (`par_sort`), which the
/// choice of the sequential sort takes as cheap for small plain types (see
/// [`quicksort_suits`]); any other comparator may be costly.
pub(crate) fn stable_sort<T, F>(v: &mut [T], compare: &F, own_order: bool)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if size_of::<T>() == 0 {
        return; // see `unstable_sort`
    }
    if runs::finish_if_monotonic(v, compare, runs::STABLE_PARALLEL_FROM) {
        return;
    }
    if goes_sequential::<T>(v.len(), SEQUENTIAL_CUTOFF) {
        seq_stable_sort(v, compare, own_order);
        return;
    }
    if v.len() < STABLE_FEW_DISTINCT_SEQUENTIAL_CUTOFF && pivot::looks_few_distinct(v, compare) {
        stable_quicksort::stable_quicksort(v, compare, true);
        return;
    }
    merge_sort::par_merge_sort(v, compare, own_order);
}

/// From this length, below [`QUICKSORT_BELOW`], elements of 33 to 64 bytes go
/// to the quicksort too: on shorter inputs the merge sort, which copies them
/// fewer times, is the faster; from here the quicksort, whose comparisons do
/// not wait on each other, is (measurements: `docs/benchmarks.md`, section
/// "Why the sorts' constants are what they are").
const LARGE_QUICKSORT_FROM: usize = 2048;

/// From this length, elements of 49 to 64 bytes go to the merge sort, which
/// copies each once per level where a partition copies it twice; shorter
/// inputs stay with the quicksort, whose fewer waits on the comparator pay
/// for its copies while the piece is small. For 64-byte elements the
/// quicksort wins at 10^5 and the merge sort at 10^6, sequentially and in the
/// parallel sort's leaves; elements of 48 bytes still gain from the quicksort
/// at 10^6 (see [`quicksort_suits`]; measurements: `docs/benchmarks.md`,
/// section "Why the sorts' constants are what they are").
const WIDE_MERGE_FROM: usize = 1 << 17;

/// Below this length the sequential stable sort is the stable quicksort unless
/// `v` looks nearly sorted or reversed (or holds elements over 32 bytes, fewer
/// than [`LARGE_QUICKSORT_FROM`]); from it, the merge sort unless a sample
/// suggests few distinct values (the sample costs about a thousand
/// comparisons) or the quicksort suits its elements better.
const QUICKSORT_BELOW: usize = 1 << 12;

/// Whether the sequential stable sort of `v` should be the stable quicksort,
/// which sets equal elements aside, rather than the merge sort, which takes
/// natural runs whole.
///
/// Below [`QUICKSORT_BELOW`] elements the quicksort keeps up with std's
/// stable sort on random inputs, where the merge sort's chain of dependent
/// choices makes it clearly slower (measurements: `docs/benchmarks.md`,
/// section "Why the sorts' constants are what they are"), so it takes every
/// input that does not look sorted or reversed in the main
/// ([`runs::looks_presorted`], 32 comparisons), which the merge sort sorts in
/// a few passes by merging its long runs. Large elements
/// ([`par_merge::is_large`]) stay with the merge sort below
/// [`LARGE_QUICKSORT_FROM`] elements: it copies each once per level where a
/// partition copies it twice. Longer inputs go to the quicksort when a
/// sample suggests few distinct values (it then makes about `n log k`
/// comparisons for `k` values, the merge sort `n log n`), or when the
/// quicksort suits their elements better ([`quicksort_suits`]; those of more
/// than 48 bytes only below [`WIDE_MERGE_FROM`]) and they do not look sorted
/// or reversed.
///
/// `None` stands for the merge sort, `Some(few_distinct)` for the quicksort,
/// told whether the sample suggested few distinct values.
fn prefers_quicksort<T, F>(v: &[T], compare: &F, own_order: bool) -> Option<bool>
where
    F: Fn(&T, &T) -> Ordering,
{
    if v.len() >= QUICKSORT_BELOW {
        if pivot::looks_few_distinct(v, compare) {
            return Some(true);
        }
        let wide_and_long = size_of::<T>() > 48 && v.len() >= WIDE_MERGE_FROM;
        return (quicksort_suits::<T>(own_order)
            && !wide_and_long
            && !runs::looks_presorted(v, compare))
        .then_some(false);
    }
    let suits = !par_merge::is_large::<T>()
        || v.len() >= LARGE_QUICKSORT_FROM && quicksort_suits::<T>(own_order);
    (suits && !runs::looks_presorted(v, compare)).then_some(false)
}

/// Whether the stable quicksort sorts long random inputs of `T` faster than
/// the merge sort, for either of two reasons.
///
/// * Elements that own memory of their own (`String`, `Vec`, `Box`: they need
///   dropping) are compared through pointers. A merge waits on each answer
///   before it can load the next element, where a partition compares every
///   element with one pivot, and the processor overlaps those.
/// * For elements of 9 to 32 bytes, the merge's choice of the next element,
///   a select for one word, compiles to a branch, which random input
///   mispredicts half the time. Elements of 33 to 64 bytes merge with a
///   branch on each answer, mispredicted as often, and a partition copies
///   them twice per level where a merge copies them once and a half, yet the
///   quicksort's fewer waits still pay for them; at 64 bytes the quicksort
///   wins only on shorter inputs ([`WIDE_MERGE_FROM`]).
///
/// Larger elements stay with the merge sort, where the copies outweigh the
/// waits.
///
/// One-word values (`u64`, `(u32, u32)`, `f64`) go to the quicksort when
/// sorted by their own order (`own_order`, from `par_sort`), which is cheap
/// for them, so that the merge's chains of dependent choices cost more than
/// the quicksort's extra comparisons. With another comparator they stay with
/// the merge sort, which makes about a tenth fewer comparisons, since the
/// comparator may be costly.
///
/// Measurements for each case: `docs/benchmarks.md`, section "Why the sorts'
/// constants are what they are".
const fn quicksort_suits<T>(own_order: bool) -> bool {
    size_of::<T>() <= 64 && (size_of::<T>() > 8 || std::mem::needs_drop::<T>() || own_order)
}

/// Sorts `v` stably on this thread: by the stable quicksort or the merge
/// sort, as [`prefers_quicksort`] says.
fn seq_stable_sort<T, F>(v: &mut [T], compare: &F, own_order: bool)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    if len <= merge_sort::RUN_MAX {
        insertion::insertion_sort(v, compare);
        return;
    }
    let buf_len = seq_buffer_len::<T>(len);
    let mut buf = scratch::Scratch::<T>::new(buf_len);
    let buf = buf.as_mut_ptr();
    if buf_len >= len {
        // SAFETY: a buffer of `v`'s length, of its own, owning nothing.
        unsafe { seq_stable_sort_with(v, buf, compare, own_order) };
        return;
    }
    let mid = len / 2;
    let (low, high) = v.split_at_mut(mid);
    // SAFETY: the buffer has room for `len - mid >= mid` elements, so for
    // either half and for the left one's copy in the merge; it is no part of
    // `v` and owns nothing.
    unsafe {
        seq_stable_sort_with(low, buf, compare, own_order);
        seq_stable_sort_with(high, buf, compare, own_order);
        par_merge::merge_in_place(v, mid, buf, compare);
    }
}

/// The sequential stable sort's buffer length for `len` elements: `len`,
/// unless a buffer that long would be mapped afresh for the sort
/// ([`scratch::is_mapped`]) and one of half the length would not. Then the
/// sort takes the half and sorts `v` as two halves merged through it
/// ([`par_merge::merge_in_place`]), as std's stable sort does from 8 MB: a
/// recycled buffer costs nothing, where a fresh mapping costs a page fault
/// per 2 MiB, more than the extra merge. Halving is not worth its merge pass
/// where the buffer would be recycled anyway or mapped either way
/// (measurements: `docs/benchmarks.md`, section "Why the sorts' constants are
/// what they are").
fn seq_buffer_len<T>(len: usize) -> usize {
    let half = len - len / 2;
    if scratch::is_mapped::<T>(len) && !scratch::is_mapped::<T>(half) {
        half
    } else {
        len
    }
}

/// [`seq_stable_sort`] with the scratch space at `buf`.
///
/// # Safety
/// `buf` has room for `v.len()` elements, does not overlap `v`, and owns
/// nothing.
unsafe fn seq_stable_sort_with<T, F>(v: &mut [T], buf: *mut T, compare: &F, own_order: bool)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    // SAFETY: the caller's contract, passed on.
    unsafe {
        if let Some(few_distinct) = prefers_quicksort(v, compare, own_order) {
            stable_quicksort::stable_quicksort_with(v, buf, compare, few_distinct);
        } else {
            merge_sort::seq_merge_sort_with(v, buf, compare);
        }
    }
}

/// Sorts `v` with `compare` without keeping equal elements in order, in place.
pub(crate) fn unstable_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if size_of::<T>() == 0 {
        // Zero-sized elements cannot be told apart: std's and Rayon's sorts
        // leave them as they are without calling the comparator.
        return;
    }
    if runs::finish_if_monotonic(v, compare, runs::PARALLEL_FROM)
        || outliers::sort_if_nearly_sorted(v, compare)
    {
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

/// The comparator's answer for `a < b`: `Less` or else `Greater`. The sorts
/// of `T: Ord` and by key compare with `PartialOrd::lt`, as std's and
/// Rayon's do (a type whose `lt` does more than its `cmp` is asked the same
/// questions), and the sorts only ever ask whether one element is less than
/// another, so they never need `Equal`.
#[inline(always)]
pub(crate) fn less_or_not(less: bool) -> Ordering {
    if less {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// `a < b` under `compare`.
#[inline(always)]
fn is_less<T, F: Fn(&T, &T) -> Ordering>(compare: &F, a: &T, b: &T) -> bool {
    compare(a, b) == Ordering::Less
}
