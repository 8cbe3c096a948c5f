//! Partitioning one large piece on several threads at once.
//!
//! `ParallelSliceMut` asks only `T: Send`, so two threads may never read the
//! same pivot at the same time. Each block of the piece therefore gets a pivot
//! of its own: neighbouring elements of a large sorted sample, around its
//! median. The blocks are partitioned around their pivots in parallel, then
//! the elements below their block's pivot are gathered to the front by
//! parallel swaps of equal ranges.
//!
//! The two sides are then apart except for a narrow band: an element between
//! the smallest and the largest pivot may sit on either side. Once both sides
//! are sorted, that band is exactly where the two sorted runs overlap, and
//! [`mend_seam`] merges the overlap. With pivots that are neighbours in a sample
//! of 511, the band holds about `(blocks - 1) / 512` of the elements in
//! expectation; if it is wider the result is still sorted, only the mend takes
//! longer (one merge of two runs, linear in the band).
//!
//! Elements only move by swaps, so a panicking or inconsistent comparator
//! leaves a permutation of the input.

use std::cmp::Ordering;

use super::fork::for_each_par;
use super::is_less;
use super::partition::partition;
use super::pivot::sorted_sample;

/// Elements in the sample the pivots come from.
const SAMPLE: usize = 511;

/// The most blocks one partition uses (its pivots must fit in the sample).
pub(super) const MAX_BLOCKS: usize = 64;

/// The fewest elements per block worth a thread of its own.
pub(super) const MIN_BLOCK: usize = 1 << 15;

/// Longest range one task swaps while gathering.
const SWAP_CHUNK: usize = 1 << 16;

/// Partitions `v` in `blocks` blocks at once (2 to [`MAX_BLOCKS`], and `v` at
/// least [`SAMPLE`] long) and returns `mid`: with a consistent comparator,
/// every element of `v[..mid]` is less than the largest pivot and every element
/// of `v[mid..]` is not less than the smallest one.
pub(super) fn par_partition<T, F>(v: &mut [T], blocks: usize, compare: &F) -> usize
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    debug_assert!((2..=MAX_BLOCKS).contains(&blocks) && v.len() >= SAMPLE);
    // Equal blocks; the last takes the remainder.
    let starts: Vec<usize> = (0..blocks).map(|i| i * (v.len() / blocks)).collect();
    let sample = sorted_sample::<T, F, SAMPLE>(v, compare);
    let first = SAMPLE / 2 - (blocks - 1) / 2;
    let mut pivots = sample[first..first + blocks].to_vec();
    place_pivots(v, &mut pivots, &starts);

    let mut pieces: Vec<(&mut [T], usize)> = split_at_starts(v, &starts)
        .into_iter()
        .map(|block| (block, 0))
        .collect();
    for_each_par(&mut pieces, &|(block, n_less)| {
        *n_less = partition_around_first(block, compare);
    });
    let counts: Vec<(usize, usize)> = pieces.iter().map(|(b, less)| (b.len(), *less)).collect();
    let mid = counts.iter().map(|&(_, less)| less).sum();
    gather(v, &counts, mid);
    mid
}

/// Moves pivot `i` (at index `pivots[i]`) to `starts[i]`, the first place of
/// block `i`, so each block's task owns its pivot.
fn place_pivots<T>(v: &mut [T], pivots: &mut [usize], starts: &[usize]) {
    for i in 0..pivots.len() {
        let (from, to) = (pivots[i], starts[i]);
        v.swap(from, to);
        // Whatever sat at `to` now sits at `from`; if it is a later pivot,
        // follow it. (An earlier pivot is never there: each sits at its start.)
        for later in &mut pivots[i + 1..] {
            if *later == to {
                *later = from;
            }
        }
    }
}

/// Cuts `v` into the blocks that begin at `starts` (the first is 0).
fn split_at_starts<'a, T>(mut v: &'a mut [T], starts: &[usize]) -> Vec<&'a mut [T]> {
    let mut blocks = Vec::with_capacity(starts.len());
    for pair in starts.windows(2) {
        let (block, rest) = v.split_at_mut(pair[1] - pair[0]);
        blocks.push(block);
        v = rest;
    }
    blocks.push(v);
    blocks
}

/// Partitions `block` around its first element; afterwards the block holds
/// the elements less than the pivot, then the pivot, then the others. Returns
/// how many are less.
fn partition_around_first<T, F>(block: &mut [T], compare: &F) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    let (pivot, rest) = block.split_first_mut().expect("a block is never empty");
    let n_less = partition(rest, |x| is_less(compare, x, pivot));
    block.swap(0, n_less);
    n_less
}

/// Swaps the elements not less than their pivot that lie before `mid` with the
/// elements less than their pivot that lie after it, in parallel. `counts`
/// holds each block's (length, elements less than its pivot), in order.
fn gather<T: Send>(v: &mut [T], counts: &[(usize, usize)], mid: usize) {
    let mut misplaced_front = Vec::new();
    let mut misplaced_back = Vec::new();
    let mut start = 0;
    for &(len, less) in counts {
        let split = start + less;
        push_clipped(&mut misplaced_front, split..start + len, 0..mid);
        push_clipped(&mut misplaced_back, start..split, mid..v.len());
        start += len;
    }
    let swaps = pair_ranges(&misplaced_front, &misplaced_back);
    let mut pairs = carve_pairs(v, mid, &swaps);
    for_each_par(&mut pairs, &|(a, b)| a.swap_with_slice(b));
}

/// Pushes the part of `range` inside `within`, if any.
fn push_clipped(
    to: &mut Vec<(usize, usize)>,
    range: std::ops::Range<usize>,
    within: std::ops::Range<usize>,
) {
    let (lo, hi) = (range.start.max(within.start), range.end.min(within.end));
    if lo < hi {
        to.push((lo, hi));
    }
}

/// Pairs two lists of ranges of equal total length, in order, into
/// `(front start, back start, length)` swaps of at most [`SWAP_CHUNK`].
fn pair_ranges(front: &[(usize, usize)], back: &[(usize, usize)]) -> Vec<(usize, usize, usize)> {
    let mut swaps = Vec::new();
    let (mut fi, mut bi) = (0, 0);
    let (mut f, mut b) = (front.first().copied(), back.first().copied());
    while let (Some((f_lo, f_hi)), Some((b_lo, b_hi))) = (f, b) {
        let len = (f_hi - f_lo).min(b_hi - b_lo).min(SWAP_CHUNK);
        swaps.push((f_lo, b_lo, len));
        f = if f_lo + len == f_hi {
            fi += 1;
            front.get(fi).copied()
        } else {
            Some((f_lo + len, f_hi))
        };
        b = if b_lo + len == b_hi {
            bi += 1;
            back.get(bi).copied()
        } else {
            Some((b_lo + len, b_hi))
        };
    }
    swaps
}

/// The ranges of `swaps` as pairs of disjoint slices; front ranges lie before
/// `mid`, back ranges after it, each list in increasing order.
fn carve_pairs<'a, T>(
    v: &'a mut [T],
    mid: usize,
    swaps: &[(usize, usize, usize)],
) -> Vec<(&'a mut [T], &'a mut [T])> {
    let (mut front, mut back) = v.split_at_mut(mid);
    let (mut front_at, mut back_at) = (0, mid);
    let mut pairs = Vec::with_capacity(swaps.len());
    for &(f, b, len) in swaps {
        let (_, rest) = std::mem::take(&mut front).split_at_mut(f - front_at);
        let (f_piece, rest) = rest.split_at_mut(len);
        front = rest;
        front_at = f + len;
        let (_, rest) = std::mem::take(&mut back).split_at_mut(b - back_at);
        let (b_piece, rest) = rest.split_at_mut(len);
        back = rest;
        back_at = b + len;
        pairs.push((f_piece, b_piece));
    }
    pairs
}

/// Given `v[..mid]` and `v[mid..]` each sorted, sorts `v` by merging the part
/// where they overlap: the elements of the left run greater than the right
/// run's first, and those of the right run less than the left run's last.
/// Everything before that part is not greater than all of the right run, and
/// everything after it not less than all of the left run, so they stay put.
pub(super) fn mend_seam<T, F>(v: &mut [T], mid: usize, compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if mid == 0 || mid == v.len() {
        return;
    }
    let (left, right) = v.split_at(mid);
    let (last, first) = (&left[mid - 1], &right[0]);
    if !is_less(compare, first, last) {
        return;
    }
    let start = left.partition_point(|x| !is_less(compare, first, x));
    let end = mid + right.partition_point(|x| is_less(compare, x, last));
    // Two sorted runs: the merge sort's runs are in order already, and every
    // merge but those across `mid` ends after one comparison.
    super::merge_sort::seq_merge_sort(&mut v[start..end], compare);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize) -> crate::ThreadPool {
        crate::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// A seeded xorshift sequence.
    fn random(len: usize, seed: u64) -> Vec<u64> {
        let coin = super::super::test_coin(seed | 1);
        (0..len).map(|_| coin()).collect()
    }

    #[test]
    fn pivots_follow_each_other_to_their_blocks() {
        let mut v: Vec<usize> = (0..10).collect();
        // Pivot 1 sits where pivot 0 must go.
        let mut pivots = vec![5, 0];
        place_pivots(&mut v, &mut pivots, &[0, 5]);
        assert_eq!((v[0], v[5]), (5, 0));
    }

    #[test]
    fn only_a_narrow_band_straddles_the_split() {
        for blocks in [2, 3, 8] {
            let input = random(200_000, blocks as u64);
            let mut v = input.clone();
            let mid = pool(blocks).install(|| par_partition(&mut v, blocks, &u64::cmp));
            let lowest_right = *v[mid..].iter().min().unwrap();
            let straddling = v[..mid].iter().filter(|&&x| x > lowest_right).count();
            assert!(
                straddling < v.len() / 50,
                "{straddling} with {blocks} blocks"
            );
            assert!(mid > v.len() / 4 && mid < 3 * v.len() / 4, "mid {mid}");
            v.sort_unstable();
            let mut expected = input;
            expected.sort_unstable();
            assert_eq!(v, expected, "a permutation with {blocks} blocks");
        }
    }

    #[test]
    fn mending_the_seam_of_two_overlapping_runs_sorts_them() {
        for (left, right) in [
            (0..100, 50..150),
            (0..10, 0..10),
            (50..60, 0..100),
            (0..5, 5..9),
        ] {
            let mut v: Vec<u32> = left.clone().chain(right.clone()).collect();
            let mid = left.len();
            mend_seam(&mut v, mid, &u32::cmp);
            let mut expected: Vec<u32> = left.chain(right).collect();
            expected.sort();
            assert_eq!(v, expected);
        }
    }
}
