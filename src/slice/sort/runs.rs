//! Detection of inputs that are already sorted or strictly descending.
//!
//! A random input fails the check within its first few pairs, so it costs
//! nothing; a sorted or reversed one is the whole sort, as in std. Once a
//! first stretch checked alone looked ascending, the check runs on all threads
//! (as Rayon's merge sort checks its chunks in parallel) from about two million
//! elements (a quarter of a million for the stable sort). A descending input
//! is checked and reversed in one pass from both ends on the calling thread:
//! reading and writing it once beats two passes on two threads.

use std::cmp::Ordering;
use std::ptr;

use super::fork::for_each_par;
use super::is_less;

/// Ascending inputs at least this long are checked in parallel by the
/// unstable sort. Below it the check runs on the calling thread, as Rayon's
/// does: waking a second thread costs more than it saves on a check this
/// short (measurements: `docs/benchmarks.md`, section "Why the sorts'
/// constants are what they are").
pub(super) const PARALLEL_FROM: usize = 1 << 21;

/// The same for the stable sort. Rayon's stable sort checks its chunks on
/// all threads, so it finishes a long sorted input in about half the time of
/// a check on one thread; from this length checking on all threads pays,
/// below it waking a second thread costs more than it saves (measurements:
/// `docs/benchmarks.md`, section "Why the sorts' constants are what they
/// are").
pub(super) const STABLE_PARALLEL_FROM: usize = 1 << 18;

/// Reversals of at least this many elements ([`par_reverse`], for inputs the
/// unstable sort's sample finds descending) run on all threads: from here the
/// sequential reversal takes far longer than a fork (measurements:
/// `docs/benchmarks.md`, section "Why the sorts' constants are what they
/// are").
const PARALLEL_REVERSE_FROM: usize = 1 << 15;

/// Elements checked on the calling thread before any fork.
const PROBE: usize = 4096;

/// Elements per parallel task.
const CHUNK: usize = 1 << 13;

/// If `v` is one non-descending run, leaves it; if it is one strictly
/// descending run, reverses it (strictness keeps equal elements in order, so
/// this is right for the stable sort too). Returns whether `v` is now sorted.
/// An ascending `v` of `ascending_parallel_from` elements or more is checked
/// on all threads; a descending one is checked and reversed in one pass on
/// this thread ([`reverse_if_descending`]): reading and writing it once is
/// faster than a check and a reversal on both threads, even on the longest
/// inputs (measurements: `docs/benchmarks.md`, section "Why the sorts'
/// constants are what they are").
pub(super) fn finish_if_monotonic<T, F>(
    v: &mut [T],
    compare: &F,
    ascending_parallel_from: usize,
) -> bool
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if v.len() < 2 {
        return true;
    }
    // Each neighbouring pair is compared once: a sorted or strictly
    // descending input costs `len - 1` calls of the comparator, as in std.
    if is_less(compare, &v[1], &v[0]) {
        return reverse_if_descending(v, compare);
    }
    let probe = v.len().min(PROBE);
    if !is_ascending(&v[1..probe], compare) {
        return false;
    }
    let parallel = v.len() >= ascending_parallel_from;
    let rest = &mut v[probe - 1..];
    if parallel {
        par_is_ascending(rest, compare)
    } else {
        is_ascending(rest, compare)
    }
}

/// If `v` is strictly descending, reverses it and returns true; else leaves
/// it as it was and returns false; the caller found `v[1] < v[0]`. One pass
/// from both ends: each step checks the two outermost pairs not yet checked,
/// then swaps the two outermost elements not yet swapped, so that the input
/// is read and written once (a check then a reversal reads it twice). Each
/// pair is compared once (the first by the caller, the middle one of an even
/// length by the last step's left check alone), so a descending input costs
/// `len - 1` calls, as in std. A pair that is not descending stops the pass,
/// and the swaps made are undone, which costs no more than they did. A
/// panicking comparator leaves a permutation: only swaps move elements.
fn reverse_if_descending<T, F>(v: &mut [T], compare: &F) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    let half = len / 2;
    let base = v.as_mut_ptr();
    let mut swapped = 0;
    // SAFETY: with `i < half <= len / 2` and `j = len - 1 - i`, the indices
    // `i < i + 1 <= j` and `i <= j - 1 < j` are below `len`, and `i != j`, so
    // the swap's two places differ. The places compared at step `i` are
    // `i`, `i + 1`, `j - 1` and `j`, none swapped yet (steps before swapped
    // `..i` and `j + 1..`), so the pairs are checked in their given order.
    // The references end before the swap.
    unsafe {
        while swapped < half {
            let (i, j) = (swapped, len - 1 - swapped);
            let descends = (i == 0 || is_less(compare, &*base.add(i + 1), &*base.add(i)))
                && (j - 1 == i || is_less(compare, &*base.add(j), &*base.add(j - 1)));
            if !descends {
                break;
            }
            ptr::swap_nonoverlapping(base.add(i), base.add(j), 1);
            swapped += 1;
        }
    }
    if swapped == half {
        return true;
    }
    for i in 0..swapped {
        v.swap(i, len - 1 - i);
    }
    false
}

/// Whether `v` is non-descending.
fn is_ascending<T, F>(v: &[T], compare: &F) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    // Neighbours a block at a time, each block's answers and-ed without a
    // branch: one branch per block, and the loop over a block unrolls, so a
    // sorted input is checked faster than by a check that stops at once, as
    // std's does (measurements: `docs/benchmarks.md`, section "Why the
    // sorts' constants are what they are"); the first block of a random
    // input costs a few comparisons more.
    const BLOCK: usize = 16;
    let mut blocks = v.windows(BLOCK + 1).step_by(BLOCK);
    let mut checked = 0;
    for block in blocks.by_ref() {
        let ascends = (0..BLOCK).fold(true, |ok, k| {
            ok & !is_less(compare, &block[k + 1], &block[k])
        });
        if !ascends {
            return false;
        }
        checked += BLOCK;
    }
    let rest = &v[checked.min(v.len())..];
    let Some(next) = rest.get(1..) else {
        return true;
    };
    rest.iter().zip(next).all(|(a, b)| !is_less(compare, b, a))
}

/// Neighbouring pairs [`looks_presorted`] looks at.
const PRESORTED_PAIRS: usize = 32;

/// Whether `v` looks sorted or reversed in the main, with some elements out
/// of place: of [`PRESORTED_PAIRS`] neighbouring pairs spread over it, at most
/// a quarter descend, or at most a quarter do not. A random input has about
/// half of each (one in about 140 looks presorted); a `v` shorter than four
/// times the pairs never does.
pub(super) fn looks_presorted<T, F>(v: &[T], compare: &F) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    if len < 4 * PRESORTED_PAIRS {
        return false;
    }
    let step = (len - 1) / PRESORTED_PAIRS;
    let descents = (0..PRESORTED_PAIRS)
        .filter(|&k| is_less(compare, &v[k * step + 1], &v[k * step]))
        .count();
    let few = PRESORTED_PAIRS / 4;
    descents <= few || descents >= PRESORTED_PAIRS - few
}

/// [`is_ascending`] on disjoint chunks in parallel (each element is read by
/// one task only, as `T: Send` requires), then the pairs across chunk borders
/// on this thread.
fn par_is_ascending<T, F>(v: &mut [T], compare: &F) -> bool
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let mut chunks: Vec<(&mut [T], bool)> = v.chunks_mut(CHUNK).map(|c| (c, false)).collect();
    for_each_par(&mut chunks, &|(chunk, ok)| {
        *ok = is_ascending(chunk, compare);
    });
    if !chunks.iter().all(|&(_, ok)| ok) {
        return false;
    }
    chunks.windows(2).all(|pair| {
        let (last, first) = (pair[0].0.last(), pair[1].0.first());
        let (Some(a), Some(b)) = (last, first) else {
            return true;
        };
        !is_less(compare, b, a)
    })
}

/// Reverses `v`, in parallel when it is long: chunks of the front half swap
/// with their mirror images in the back half.
pub(super) fn par_reverse<T: Send>(v: &mut [T]) {
    if v.len() < PARALLEL_REVERSE_FROM || crate::current_num_threads() < 2 {
        v.reverse();
        return;
    }
    let half = v.len() / 2;
    let (front, rest) = v.split_at_mut(half);
    let back_start = rest.len() - half;
    let back = &mut rest[back_start..];
    let mut pairs: Vec<(&mut [T], &mut [T])> = front
        .chunks_mut(CHUNK)
        .zip(back.rchunks_mut(CHUNK))
        .collect();
    for_each_par(&mut pairs, &|(a, b)| {
        for (x, y) in a.iter_mut().zip(b.iter_mut().rev()) {
            std::mem::swap(x, y);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_runs_are_checked_in_parallel_and_reversed() {
        let pool = crate::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        // The unstable sort's threshold and the stable sort's, each just
        // past it (a ragged last chunk, of even and odd length).
        for from in [PARALLEL_FROM, STABLE_PARALLEL_FROM] {
            for len in [from + CHUNK / 3, from + CHUNK / 3 + 1] {
                check_long_runs(&pool, from, len);
            }
        }
    }

    #[test]
    fn one_descent_anywhere_is_found() {
        for len in 0..60usize {
            let sorted: Vec<usize> = (0..len).collect();
            assert!(is_ascending(&sorted, &usize::cmp), "{len}");
            for at in 1..len {
                let mut v = sorted.clone();
                v.swap(at - 1, at);
                assert!(!is_ascending(&v, &usize::cmp), "{len}, at {at}");
            }
        }
    }

    #[test]
    fn a_descending_input_is_reversed_and_any_other_left_as_it_was() {
        for len in 2..40usize {
            let mut v: Vec<usize> = (0..len).rev().collect();
            assert!(finish_if_monotonic(&mut v, &usize::cmp, usize::MAX));
            assert!(v.iter().copied().eq(0..len), "reversed, {len}");
            // One pair not strictly descending anywhere: an ascent, or two
            // equal neighbours (reversing would swap them: not stable).
            for at in 1..len {
                let mut ascent: Vec<usize> = (0..len).rev().collect();
                ascent.swap(at - 1, at);
                let mut tie: Vec<usize> = (0..len).rev().collect();
                tie[at] = tie[at - 1];
                for given in [ascent, tie] {
                    if given.windows(2).all(|pair| pair[0] <= pair[1]) {
                        // Sorted already (two elements): nothing to do.
                        continue;
                    }
                    let mut v = given.clone();
                    assert!(!finish_if_monotonic(&mut v, &usize::cmp, usize::MAX));
                    assert_eq!(v, given, "left as it was, {len} at {at}");
                }
            }
        }
    }

    /// Sorted, reversed, and one descent at a chunk border or inside a
    /// chunk, ascending and descending, checked with `from` as the
    /// threshold of the parallel check.
    fn check_long_runs(pool: &crate::ThreadPool, from: usize, len: usize) {
        let mut reversed: Vec<usize> = (0..len).rev().collect();
        assert!(pool.install(|| finish_if_monotonic(&mut reversed, &usize::cmp, from)));
        assert!(reversed.iter().copied().eq(0..len), "reversed, {len}");
        let mut sorted: Vec<usize> = (0..len).collect();
        assert!(pool.install(|| finish_if_monotonic(&mut sorted, &usize::cmp, from)));
        // A border of the chunks checked in parallel (those of what the
        // probe left), and inside a chunk.
        for at in [PROBE - 1 + CHUNK, 3 * CHUNK + 5] {
            let mut v: Vec<usize> = (0..len).collect();
            v.swap(at - 1, at);
            assert!(!pool.install(|| finish_if_monotonic(&mut v, &usize::cmp, from)));
            let mut v: Vec<usize> = (0..len).rev().collect();
            v.swap(at - 1, at);
            assert!(!pool.install(|| finish_if_monotonic(&mut v, &usize::cmp, from)));
        }
    }
}
