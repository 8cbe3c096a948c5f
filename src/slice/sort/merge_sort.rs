//! The stable merge sort, parallel and sequential.
//!
//! The slice is cut into 2^levels leaves, each sorted on its own, then merged
//! pairwise back up with [`par_merge`], moving elements between the slice and
//! one buffer of the same length ("ping-pong"), so each level is one pass over
//! the data. Leaves sit at an even depth when they are big enough, so the final
//! merge lands in the slice without an extra copy. The parallel sort's leaves
//! are sorted by the sequential one, whose own leaves (at most 32 elements) are
//! insertion sorted. Nothing here panics by itself, whatever the comparator
//! answers (std's sort does since Rust 1.81; Rayon's does not).
//!
//! Memory: the parallel sort's leaves are sorted (each with a buffer of its
//! own) before its buffer is allocated; the most it holds at once is that one
//! buffer of the slice's length.
//!
//! Panic safety: the buffer only ever holds bitwise copies, never owns
//! anything (its `Vec` has length 0). A merge *into the buffer* only reads the
//! slice, which still holds every element; a merge *into the slice* has a guard
//! that moves every unmerged element into the slice on unwind. So on a panic
//! the slice holds each element exactly once.

use std::cmp::Ordering;
use std::ptr;

use super::MIN_LEAF;
use super::insertion::insertion_sort;
use super::par_merge::par_merge;
use super::raw::SendPtr;

/// The longest leaf of the sequential sort, insertion sorted.
const RUN_MAX: usize = 32;

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
    sort_leaves(
        v,
        levels,
        &|leaf| super::seq_stable_sort(leaf, compare),
        true,
    );
    merge_all(v, levels, Some(grain), compare);
}

/// Sorts `v` stably on this thread.
pub(super) fn seq_merge_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    if len <= RUN_MAX {
        insertion_sort(v, compare);
        return;
    }
    // An even number of halvings that leaves runs of at most `RUN_MAX`.
    let mut levels = usize::BITS - (len / (RUN_MAX + 1)).leading_zeros();
    levels += levels % 2;
    sort_leaves(v, levels, &|run| insertion_sort(run, compare), false);
    merge_all(v, levels, None, compare);
}

/// Merges the sorted leaves of `v` back up through a buffer of its length: in
/// parallel, in pieces of about `grain` elements, when there is a `grain`.
fn merge_all<T, F>(v: &mut [T], levels: u32, grain: Option<usize>, compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    let mut buf: Vec<T> = Vec::with_capacity(len);
    // SAFETY: `v` and `buf` are distinct allocations of `len` slots each, owned
    // by this call for its duration; `buf` never becomes the owner of anything
    // (its length stays 0) and the slice ends up holding every element once.
    unsafe {
        merge_levels(
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

/// Runs `a` and `b`, in parallel when `parallel`.
fn both<A: FnOnce() + Send, B: FnOnce() + Send>(parallel: bool, a: A, b: B) {
    if parallel {
        crate::join(a, b);
    } else {
        a();
        b();
    }
}

/// Sorts each of the 2^`levels` leaves of `v` (cut in halves, as
/// [`merge_levels`] cuts) with `sort_leaf`, in parallel when `parallel`.
fn sort_leaves<T, S>(v: &mut [T], levels: u32, sort_leaf: &S, parallel: bool)
where
    T: Send,
    S: Fn(&mut [T]) + Sync,
{
    if levels == 0 {
        sort_leaf(v);
        return;
    }
    let (low, high) = v.split_at_mut(v.len() / 2);
    both(
        parallel,
        || sort_leaves(low, levels - 1, sort_leaf, parallel),
        || sort_leaves(high, levels - 1, sort_leaf, parallel),
    );
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

/// Merges the sorted leaves of the `len` elements at `v` (cut in halves
/// `levels` times); the result ends at `buf` when `into_buf`, else at `v`.
/// With a `grain`, the halves and the merges run in parallel (merge pieces of
/// about `grain` elements); without one, everything runs on this thread.
///
/// # Safety
/// `v` holds `len` initialized elements and `buf` has room for `len`; both are
/// disjoint and used by this call alone. When `into_buf`, the elements at `v`
/// stay the owners (the buffer holds copies).
unsafe fn merge_levels<T, F>(
    v: SendPtr<T>,
    buf: SendPtr<T>,
    len: usize,
    levels: u32,
    into_buf: bool,
    grain: Option<usize>,
    compare: &F,
) where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if levels == 0 {
        if into_buf {
            // SAFETY: `buf` has room for `len` and does not overlap `v`.
            unsafe { ptr::copy_nonoverlapping(v.0, buf.0, len) };
        }
        return;
    }
    let mid = len / 2;
    // SAFETY: the halves `[0, mid)` and `[mid, len)` of both ranges are disjoint
    // and in bounds; each half is merged into the place this merge reads from.
    unsafe {
        let (v_hi, buf_hi) = (v.add(mid), buf.add(mid));
        let half =
            move |v, buf, len| merge_levels(v, buf, len, levels - 1, !into_buf, grain, compare);
        both(
            grain.is_some(),
            move || half(v, buf, mid),
            move || half(v_hi, buf_hi, len - mid),
        );
        let (src, dest) = if into_buf { (v, buf) } else { (buf, v) };
        let pieces = grain.unwrap_or(usize::MAX);
        par_merge(src, mid, src.add(mid), len - mid, dest, pieces, compare);
    }
}
