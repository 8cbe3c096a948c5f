//! Sorted runs of [`BLOCK`] elements for the stable merge sort, made without
//! a branch that depends on the comparator's answers: each group of four is
//! sorted by a network of five comparisons into the buffer, then the groups
//! are merged in pairs from both ends at once ([`merge_halves_into`]), back and forth
//! between the buffer and the slice, three times.
//!
//! A binary insertion sort makes a few comparisons fewer, but each of its
//! steps is a branch that the processor guesses wrong half the time on
//! random input; here every choice is a select.
//!
//! Panic safety and inconsistent comparators: the network only reads the
//! slice and writes the buffer. A merge into the buffer only reads the slice;
//! a merge into the slice fills places whose elements the buffer holds
//! (sorted copies of the same elements), and its guard moves them back if the
//! comparator panics or contradicts itself. So the slice always holds every
//! element once.

use std::cmp::Ordering;
use std::ptr;

use super::is_less;
use super::par_merge::merge_halves_into;

/// The length of the runs [`sort_block`] makes.
pub(super) const BLOCK: usize = 32;

/// Sorts the first [`BLOCK`] elements of `v` stably, with the scratch space
/// at `buf`.
///
/// # Safety
/// `v` holds at least [`BLOCK`] elements, and `buf` has room for as many and
/// does not overlap `v`; `buf` owns nothing (it only receives copies).
pub(super) unsafe fn sort_block<T, F>(v: &mut [T], buf: *mut T, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    debug_assert!(v.len() >= BLOCK);
    let v = v.as_mut_ptr();
    // SAFETY: every range below is within the first `BLOCK` places of `v`
    // and of `buf`, which do not overlap. Groups of 4 go from `v` to `buf`,
    // pairs of them (8) back into `v`, pairs of those (16) into `buf` and the
    // last pair into `v`: each merge reads one place and writes the other
    // over the same range, as the module's panic safety needs.
    unsafe {
        for k in (0..BLOCK).step_by(4) {
            sort4_into(v.add(k), buf.add(k), compare);
        }
        for k in (0..BLOCK).step_by(8) {
            merge_halves_into(buf.add(k), 8, v.add(k), compare);
        }
        for k in (0..BLOCK).step_by(16) {
            merge_halves_into(v.add(k), 16, buf.add(k), compare);
        }
        merge_halves_into(buf, 32, v, compare);
    }
}

/// Copies the four elements at `src` to `dst`, sorted stably: the two pairs
/// are ordered, their smaller elements compared for the least, their greater
/// ones for the greatest, and the two left in the middle with each other.
/// Every answer of the comparator picks among the four places, so the copy is
/// always a permutation.
///
/// # Safety
/// `src` holds four initialized elements; `dst` has room for four and does
/// not overlap `src`.
pub(super) unsafe fn sort4_into<T, F>(src: *const T, dst: *mut T, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    // SAFETY: every pointer picked is one of `src`'s four places, and each
    // is copied once into one of `dst`'s four.
    unsafe {
        let at = |i: usize| src.add(i);
        let first_swapped = is_less(compare, &*at(1), &*at(0));
        let second_swapped = is_less(compare, &*at(3), &*at(2));
        // Each pair's smaller and greater element; on ties the earlier first.
        let (a, b) = (at(first_swapped as usize), at(!first_swapped as usize));
        let (c, d) = (
            at(2 + second_swapped as usize),
            at(2 + !second_swapped as usize),
        );
        // The least: the second pair's smaller only if strictly less. The
        // greatest: the first pair's greater only if strictly greater.
        let c_least = is_less(compare, &*c, &*a);
        let b_greatest = is_less(compare, &*d, &*b);
        let least = pick(c_least, c, a);
        let greatest = pick(b_greatest, b, d);
        // The two in the middle, the one from the first pair (earlier) left.
        let mid_left = pick(c_least, a, pick(b_greatest, c, b));
        let mid_right = pick(b_greatest, d, pick(c_least, b, c));
        let swap_mid = is_less(compare, &*mid_right, &*mid_left);
        let low = pick(swap_mid, mid_right, mid_left);
        let high = pick(swap_mid, mid_left, mid_right);
        ptr::copy_nonoverlapping(least, dst, 1);
        ptr::copy_nonoverlapping(low, dst.add(1), 1);
        ptr::copy_nonoverlapping(high, dst.add(2), 1);
        ptr::copy_nonoverlapping(greatest, dst.add(3), 1);
    }
}

/// `yes` if `cond`, else `no`, two places of one allocation, chosen by
/// arithmetic rather than by a branch: the compiler turned the nested
/// choices of [`sort4_into`] into branches, which random input mispredicts
/// half the time.
#[inline(always)]
fn pick<T>(cond: bool, yes: *const T, no: *const T) -> *const T {
    let mask = (cond as usize).wrapping_neg();
    let offset = (yes as usize).wrapping_sub(no as usize) & mask;
    no.wrapping_byte_add(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every input of four keys among 0..4 (so with every pattern of ties)
    /// comes out as std's stable sort orders it.
    #[test]
    fn the_network_sorts_four_stably() {
        for code in 0..256u32 {
            let keys: Vec<(u32, usize)> = (0..4).map(|i| ((code >> (2 * i)) & 3, i)).collect();
            let mut got: Vec<(u32, usize)> = Vec::with_capacity(4);
            // SAFETY: four elements to a vector with room for four.
            unsafe {
                sort4_into(
                    keys.as_ptr(),
                    got.as_mut_ptr(),
                    &|a: &(u32, usize), b: &(u32, usize)| a.0.cmp(&b.0),
                );
                got.set_len(4);
            }
            let mut want = keys.clone();
            want.sort_by_key(|p| p.0);
            assert_eq!(got, want, "{keys:?}");
        }
    }

    /// Blocks of random keys (few, so with ties) sort as std's stable sort
    /// does; answers at random leave a permutation.
    #[test]
    fn blocks_sort_stably_or_stay_a_permutation() {
        let coin = super::super::test_coin(3);
        for keys in [2, 7, 1000] {
            let v: Vec<(u64, usize)> = (0..BLOCK).map(|i| (coin() % keys, i)).collect();
            let mut buf: Vec<(u64, usize)> = Vec::with_capacity(BLOCK);
            let mut got = v.clone();
            // SAFETY: a block of `BLOCK` and a buffer with room for as many.
            unsafe {
                sort_block(
                    &mut got,
                    buf.as_mut_ptr(),
                    &|a: &(u64, usize), b: &(u64, usize)| a.0.cmp(&b.0),
                )
            };
            let mut want = v.clone();
            want.sort_by_key(|p| p.0);
            assert_eq!(got, want, "{keys} keys");
            let mut got = v.clone();
            let random = |_: &(u64, usize), _: &(u64, usize)| coin().cmp(&coin());
            // SAFETY: as above.
            unsafe { sort_block(&mut got, buf.as_mut_ptr(), &random) };
            got.sort();
            let mut all = v.clone();
            all.sort();
            assert_eq!(got, all, "a permutation");
        }
    }
}
