//! Parallel sorts: a stable merge sort with a parallel merge, an unstable
//! quicksort with sampled pivots, and a cached-key sort built on the latter.
//!
//! Every sort first finishes already sorted or strictly descending inputs in
//! one pass, as std does (ours checks sixteen pairs at a time and reverses
//! while it checks, at 0.4-0.6 of std's time on sorted and reversed `u64`s;
//! on other inputs it stops within the first sixteen pairs), then
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
/// forking cannot pay. Above it, with two threads, the parallel sorts won
/// (stable and unstable, warm pool, on 2 cores: the stable one took 0.72 of
/// std's stable sort's time at 5,000 random `u64`s, 0.64 at 10^4, where the
/// sequential merge sort took 1.44 and 1.0).
const SEQUENTIAL_CUTOFF: usize = 4096;

/// Below this length an unstable sort of an input with few distinct values
/// (as its sample suggests) runs sequentially: std's way of setting equal
/// elements aside makes such sorts cheap, so forking pays later than for
/// random input. On 2 cores (16 distinct `u64`s, warm pool, three runs of 31
/// rounds) the parallel sort took 0.80-0.96 of std's time at 3 * 10^4, and
/// 0.84-1.15 at 10^5, against 1.05-1.19 and 1.04-1.18 sequentially; at
/// 1.6 * 10^4 both took about std's time.
const FEW_DISTINCT_SEQUENTIAL_CUTOFF: usize = 1 << 14;

/// The same for the stable sort, whose sequential stable quicksort sets equal
/// elements aside: 16 distinct `u64`s on 2 cores (three runs of 11 rounds)
/// took 1.03-1.07 of std's time at 4 * 10^4 sequentially against 1.03-1.51
/// by the parallel merge sort (whose leaves set equal elements aside), 1.08
/// against 0.91-1.59 at 7 * 10^4, and 1.10 against 0.77-1.13 at 1.2 * 10^5.
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
/// to the quicksort too. 64-byte elements on 1 worker (two interleaved runs
/// of 21 rounds) took 0.77-0.86 of std's time by the merge sort from 1,000 to
/// 2,000 elements, and 1.01-1.20 from 2,500 to 3,000; by the quicksort
/// 0.98-1.06 and 0.90-0.96.
const LARGE_QUICKSORT_FROM: usize = 2048;

/// From this length, elements of 49 to 64 bytes go to the merge sort, which
/// copies each once per level where a partition copies it twice; shorter
/// inputs stay with the quicksort, whose fewer waits on the comparator pay
/// for its copies while the piece is small. 64-byte elements on a machine of
/// 16 processors (two of them, three interleaved runs of 11 rounds): on 1
/// worker at 10^5, 1.01-1.02 of std's time by the quicksort against
/// 1.05-1.06 by the merge sort, at 10^6 1.01-1.02 against 0.92-0.93; on 2
/// workers (leaves of a quarter), 0.95-0.96 of Rayon's time against
/// 1.00-1.18 at 10^5, 0.89-0.93 against 0.85-0.87 at 10^6. Elements of 48
/// bytes still gain from the quicksort at 10^6 (see [`quicksort_suits`]).
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
/// Below [`QUICKSORT_BELOW`] elements the quicksort is as fast as std's
/// stable sort on random inputs, where the merge sort's chain of dependent
/// choices makes it a quarter slower, so it takes every input that does not
/// look sorted or reversed in the main ([`runs::looks_presorted`], 32
/// comparisons), which the merge sort sorts in a few passes by merging its
/// long runs. Large elements ([`par_merge::is_large`]) stay with the merge
/// sort below [`LARGE_QUICKSORT_FROM`] elements: it copies each once per level
/// where a partition copies it twice. Longer inputs go to the quicksort when a
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
///   element with one pivot, and the processor overlaps those. On 1 worker,
///   random `String`s took 1.08-1.13 of std's stable sort's time at 10^4,
///   1.09-1.29 at 10^5 and 0.61-0.71 at 10^6 by the quicksort, against
///   1.17-1.20, 1.79-2.04 and 0.91-0.97 by the merge sort.
/// * For elements of 9 to 32 bytes, the merge's choice of the next element,
///   a select for one word, compiles to a branch, which random input
///   mispredicts half the time. Random `(u64, u64)`s on 1 worker took
///   2.23-2.47 of std's time by the merge sort from 10^4 to 10^6 and
///   1.02-1.19 by the quicksort (`sort_compare`); sorted by a `u64` key,
///   records of 24 and 32 bytes took 1.8-2.5 by the merge sort and 0.77-0.99
///   by the quicksort. Elements of 33 to 64 bytes merge with a branch on
///   each answer, mispredicted as often, and a partition copies them twice
///   per level where a merge copies them once and a half, yet the
///   quicksort's fewer waits still pay for them: `[u64; 6]` on 1 worker at
///   10^6 took 122-129 ms by the quicksort, 149-166 by the merge sort; at 64
///   bytes the quicksort wins only on shorter inputs ([`WIDE_MERGE_FROM`]).
///
/// Larger elements stay with the merge sort, where the copies outweigh the
/// waits: on 1 worker, 50,000 `[u64; 16]`s took 7.7-10.0 ms by the quicksort,
/// 5.0-5.2 by the merge sort and 5.8-6.1 by Rayon's, and 10^6 `[u64; 12]`s
/// 234-243 ms by the quicksort against 188-190.
///
/// One-word values (`u64`, `(u32, u32)`, `f64`) go to the quicksort when
/// sorted by their own order (`own_order`, from `par_sort`), which is cheap
/// for them: the merge's chains of dependent choices made random `u64`s take
/// 1.17-1.28 of std's time on 1 worker at 10^5 and 10^6, the quicksort
/// 1.03-1.06. With another comparator they stay with the merge sort, which
/// makes about a tenth fewer comparisons, and the comparator may be costly:
/// `par_sort_by` with one of about 100 ns called it 847,626 times on 50,000
/// random `u64`s by the quicksort, 764,141 by the merge sort (Rayon's sort
/// 771,469), and took 1.08 of Rayon's time against 1.04.
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
/// per 2 MiB (64-byte elements on 1 worker, three interleaved runs of 7
/// rounds at 10^6, a 32 MB buffer against 64 MB, the halves sorted by the
/// quicksort: 1.00-1.01 of std's time against 1.04-1.06). Halving costs a
/// merge pass where it saves little memory: at 10^6 `(u64, u64)`s and
/// `String`s (buffers of 16 and 24 MB, recycled either way) the halves took
/// 0.82-0.89 of std's time against 0.76-0.83 whole, and 16 distinct `u64`s
/// at 10^7 (80 MB, halved to 40, both mapped) 0.82-0.94 against 0.70.
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
