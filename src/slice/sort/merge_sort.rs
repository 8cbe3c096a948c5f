//! The stable parallel merge sort.
//!
//! The slice is cut into 2^levels leaves sorted by std's stable sort, then
//! merged pairwise back up with [`par_merge`], moving elements between the
//! slice and one buffer of the same length ("ping-pong"), so each level is one
//! pass over the data. Leaves sit at an even depth when they are big enough,
//! so the final merge lands in the slice without an extra copy.
//!
//! Panic safety: the buffer only ever holds bitwise copies, never owns
//! anything (its `Vec` has length 0). A merge *into the buffer* only reads the
//! slice, which still holds every element; a merge *into the slice* has a guard
//! that moves every unmerged element into the slice on unwind. So on a panic
//! the slice holds each element exactly once.

use std::cmp::Ordering;
use std::ptr;

use super::MIN_LEAF;
use super::par_merge::par_merge;
use super::raw::SendPtr;

/// Sorts `v` stably in parallel; `v` is longer than the sequential cutoff.
pub(super) fn par_merge_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    let threads = crate::current_num_threads();
    let levels = leaf_levels(len, threads);
    // Merge pieces: a few per thread at the top level, so stealing can balance.
    let grain = (len / (8 * threads)).max(MIN_LEAF);
    let mut buf: Vec<T> = Vec::with_capacity(len);
    // SAFETY: `v` and `buf` are distinct allocations of `len` slots each, owned
    // by this call for its duration; `buf` never becomes the owner of anything
    // (its length stays 0) and the slice ends up holding every element once.
    unsafe {
        sort_levels(
            SendPtr(v.as_mut_ptr()),
            SendPtr(buf.as_mut_ptr()),
            len,
            levels,
            false,
            grain,
            compare,
        );
    }
}

/// How many halving levels to cut `len` elements into for `threads` threads:
/// about two leaves per thread, an even number of levels when the leaves are
/// still big enough.
fn leaf_levels(len: usize, threads: usize) -> u32 {
    let wanted = (2 * threads).next_power_of_two().trailing_zeros();
    let mut levels = wanted + wanted % 2;
    while levels > 0 && len >> levels < MIN_LEAF {
        levels -= 1;
    }
    levels
}

/// Sorts the `len` elements at `v`; the result ends at `buf` when `into_buf`,
/// else at `v`.
///
/// # Safety
/// `v` holds `len` initialized elements and `buf` has room for `len`; both are
/// disjoint and used by this call alone. When `into_buf`, the elements at `v`
/// stay the owners (the buffer holds copies).
unsafe fn sort_levels<T, F>(
    v: SendPtr<T>,
    buf: SendPtr<T>,
    len: usize,
    levels: u32,
    into_buf: bool,
    grain: usize,
    compare: &F,
) where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if levels == 0 {
        // SAFETY: `v` holds `len` initialized elements used by this call alone.
        let leaf = unsafe { std::slice::from_raw_parts_mut(v.0, len) };
        leaf.sort_by(compare);
        if into_buf {
            // SAFETY: `buf` has room for `len` and does not overlap `v`.
            unsafe { ptr::copy_nonoverlapping(v.0, buf.0, len) };
        }
        return;
    }
    let mid = len / 2;
    // SAFETY: the halves `[0, mid)` and `[mid, len)` of both ranges are disjoint
    // and in bounds; each half is sorted into the place its merge reads from.
    unsafe {
        let (v_hi, buf_hi) = (v.add(mid), buf.add(mid));
        crate::join(
            move || sort_levels(v, buf, mid, levels - 1, !into_buf, grain, compare),
            move || {
                sort_levels(
                    v_hi,
                    buf_hi,
                    len - mid,
                    levels - 1,
                    !into_buf,
                    grain,
                    compare,
                )
            },
        );
        let (src, dest) = if into_buf { (v, buf) } else { (buf, v) };
        par_merge(src, mid, src.add(mid), len - mid, dest, grain, compare);
    }
}
