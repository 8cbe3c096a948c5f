//! The stable merge sort, parallel and sequential.
//!
//! The slice is cut into 2^levels leaves, each sorted on its own, then merged
//! pairwise back up with [`par_merge`], moving elements between the slice and
//! one buffer of the same length ("ping-pong"), so each level is one pass over
//! the data. Leaves sit at an even depth when they are big enough, so the final
//! merge lands in the slice without an extra copy. The parallel sort's leaves
//! are sorted sequentially. The sequential merge sort works on natural runs
//! (short ones extended by insertion) and merges them in a balanced order, moving only
//! the runs that need a merge, so a nearly sorted input costs few passes. Nothing here panics by itself, whatever the comparator
//! answers (std's sort does since Rust 1.81; Rayon's does not).
//!
//! Memory: one buffer of the slice's length ([`Scratch`]), which the
//! parallel sort's leaves share (each its own range) before the merges use it.
//!
//! Panic safety: the buffer only ever holds bitwise copies, never owns
//! anything (a [`Scratch`] drops no elements). A merge *into the buffer* only reads the
//! slice, which still holds every element; a merge *into the slice* has a guard
//! that moves every unmerged element into the slice on unwind. So on a panic
//! the slice holds each element exactly once.

use std::cmp::Ordering;
use std::ptr;

use super::MIN_LEAF;
use super::insertion::{binary_insertion_sort_from, insertion_sort};
use super::is_less;
use super::par_merge::{merge_out_of_order, par_merge};
use super::raw::SendPtr;
use super::scratch::Scratch;
use super::stable_block::{BLOCK, sort_block};

/// Slices this short are insertion sorted.
pub(super) const RUN_MAX: usize = 20;

/// The shortest natural run the sequential sort keeps as it is: where the
/// runs are shorter, it sorts blocks of [`BLOCK`] elements instead. Runs
/// of a block's length or more are worth keeping, since merging them in
/// takes no more than the merges that sort a block.
const MIN_RUN: usize = BLOCK;

/// Sorts `v` stably in parallel; `v` is longer than the sequential cutoff.
/// One buffer of `v`'s length serves every leaf (each sorts with its own
/// range of it) and then the merges: fresh memory costs a page fault per
/// page on first touch, so it is touched once, by the leaves, in parallel.
pub(super) fn par_merge_sort<T, F>(v: &mut [T], compare: &F, own_order: bool)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    let threads = crate::current_num_threads();
    let levels = leaf_levels(len, threads);
    // Merge pieces: a few per thread at the top level, so stealing can balance.
    let grain = (len / (8 * threads)).max(MIN_LEAF);
    let mut buf = Scratch::<T>::new(len);
    let buf = SendPtr(buf.as_mut_ptr());
    // SAFETY: each leaf gets the range of the buffer that matches its range of
    // `v` (`sort_leaves` cuts both alike), so the leaves' buffers are disjoint
    // and have room for them; the buffer owns nothing, and outlives the calls.
    sort_leaves(
        v,
        buf,
        levels,
        &|leaf, leaf_buf| unsafe {
            super::seq_stable_sort_with(leaf, leaf_buf.0, compare, own_order)
        },
        true,
    );
    // SAFETY: `buf` has room for `len` elements, is not `v`'s memory, owns
    // nothing, and no leaf uses it any more.
    unsafe { merge_all(v, buf, levels, Some(grain), compare) };
}

/// Sorts `v` stably on this thread: natural runs (a strictly descending one
/// reversed) of at least [`MIN_RUN`] elements, and sorted blocks
/// ([`sort_block`]) where the runs are shorter, then merged in the order
/// powersort picks (see [`merge_runs`]).
pub(super) fn seq_merge_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if v.len() <= RUN_MAX {
        insertion_sort(v, compare);
        return;
    }
    let mut buf = Scratch::<T>::new(v.len());
    // SAFETY: a buffer of `v`'s length, of its own, owning nothing.
    unsafe { seq_merge_sort_with(v, buf.as_mut_ptr(), compare) };
}

/// [`seq_merge_sort`] with the buffer at `buf`.
///
/// # Safety
/// `buf` has room for `v.len()` elements, does not overlap `v`, and owns
/// nothing (its places may hold anything; they are only written, then read).
pub(super) unsafe fn seq_merge_sort_with<T, F>(v: &mut [T], buf: *mut T, compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    if len <= RUN_MAX {
        insertion_sort(v, compare);
        return;
    }
    let mut runs = Vec::with_capacity(len / MIN_RUN + 2);
    let mut start = 0;
    while start < len {
        // SAFETY: `buf` has room for `len` elements, so for `len - start`
        // from `start`, and is not `v`; it owns nothing (the caller's
        // contract).
        let end = unsafe { next_run(&mut v[start..], buf.add(start), compare) };
        runs.push(Run {
            start,
            end: start + end,
            in_buf: false,
        });
        start += end;
    }
    // SAFETY: as above.
    unsafe { merge_runs(v, buf, runs, compare) };
}

/// Makes a sorted run at the front of `v` and returns its length: the longest
/// non-descending (or strictly descending, then reversed: strictness keeps
/// equal elements in order) prefix if it is at least [`MIN_RUN`] long, else a
/// sorted block of [`BLOCK`] elements (the prefix is sorted already, but a
/// block's sort costs less than inserting the rest into it), or the whole
/// rest of `v`, sorted by binary insertion, when it is shorter than a block.
///
/// # Safety
/// `buf` has room for `v.len()` elements, does not overlap `v`, and owns
/// nothing.
unsafe fn next_run<T, F>(v: &mut [T], buf: *mut T, compare: &F) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    let mut end = 1;
    if len >= 2 {
        if is_less(compare, &v[1], &v[0]) {
            end = 2;
            while end < len && is_less(compare, &v[end], &v[end - 1]) {
                end += 1;
            }
            v[..end].reverse();
        } else {
            end = 2;
            while end < len && !is_less(compare, &v[end], &v[end - 1]) {
                end += 1;
            }
        }
    }
    if end >= MIN_RUN {
        return end;
    }
    if len >= BLOCK {
        // SAFETY: `v` holds a block, and `buf` has room for it (the caller's
        // contract).
        unsafe { sort_block(v, buf, compare) };
        return BLOCK;
    }
    binary_insertion_sort_from(v, end, compare);
    len
}

/// A sorted run of the sequential merge sort: where it starts and ends, and
/// whether its sorted elements are in the buffer (the slice's same places then
/// hold the same elements in another order) or in the slice.
#[derive(Clone, Copy)]
struct Run {
    start: usize,
    end: usize,
    in_buf: bool,
}

/// Merges neighbouring runs until one is left, then makes sure it is in `v`,
/// through `buf`.
/// Which neighbours merge when is powersort's rule: each boundary between two
/// runs gets a power (how deep the boundary between the runs' midpoints sits
/// in a perfectly balanced merge tree over `0..len`), and a stack of runs is
/// merged down while its top boundary is deeper than the new one. Runs of
/// unequal lengths (natural runs of a nearly sorted input, or a short last
/// run) are then merged as a nearly optimal tree would, not blindly in pairs:
/// pairing 4097 runs of 12 merged a run of 71 into one of 49,152 at the end.
///
/// Panic safety: a merge reads one place and writes the other over the same
/// range, and a merge into the slice has a guard that finishes it. So the
/// slice's range of each run always holds that run's elements, each once.
///
/// # Safety
/// `buf` has room for `v.len()` elements, does not overlap `v`, and owns none.
unsafe fn merge_runs<T, F>(v: &mut [T], buf: *mut T, runs: Vec<Run>, compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    let (v_ptr, buf_ptr) = (SendPtr(v.as_mut_ptr()), SendPtr(buf));
    let mut runs = runs.into_iter();
    let Some(first) = runs.next() else {
        return;
    };
    // Every run not being merged, so that the buffer's runs go back to the
    // slice when this returns or unwinds.
    let mut pending = Pending {
        v: v_ptr,
        buf: buf_ptr,
        stack: Vec::new(),
        current: Some(first),
    };
    // SAFETY: `v` and `buf` are distinct allocations of `len` slots (the
    // caller's contract); runs are disjoint ranges of both. `buf` never owns
    // anything: every element in it also sits in `v`'s same range. The two
    // runs of a merge leave `pending` for the merge and come back as one, so
    // on unwind each run is either in `pending` or in the hands of
    // `merge_pair`, which leaves its elements in the slice.
    unsafe {
        let merge = |left: Run, right: Run| merge_pair(v_ptr, buf_ptr, left, right, compare);
        for next in runs {
            let current = pending.current.take().expect("a current run");
            let power = node_power(len, current.start, next.start, next.end);
            let mut current = current;
            while let Some(&(top, top_power)) = pending.stack.last() {
                if top_power <= power {
                    break;
                }
                pending.stack.pop();
                current = merge(top, current);
            }
            pending.stack.push((current, power));
            pending.current = Some(next);
        }
        while let Some((top, _)) = pending.stack.pop() {
            let current = pending.current.take().expect("a current run");
            pending.current = Some(merge(top, current));
        }
    }
    // Dropping `pending` copies the last run into the slice if it is in the
    // buffer.
}

/// The runs of [`merge_runs`] that no merge holds: dropped, it copies those
/// whose sorted elements are in the buffer back into the slice (their places
/// there hold the same elements, in another order). A comparator may have
/// changed the buffer's copies through a shared reference, so those are the
/// ones the slice must end with, also when a later comparison panics.
struct Pending<T> {
    v: SendPtr<T>,
    buf: SendPtr<T>,
    stack: Vec<(Run, u32)>,
    current: Option<Run>,
}

impl<T> Drop for Pending<T> {
    fn drop(&mut self) {
        let runs = self.stack.iter().map(|&(run, _)| run).chain(self.current);
        for run in runs.filter(|run| run.in_buf) {
            // SAFETY: the run's range is in bounds of both allocations, which
            // do not overlap, and the slice's places hold the same elements as
            // the buffer's: the copy overwrites stale copies only.
            unsafe {
                ptr::copy_nonoverlapping(
                    self.buf.0.add(run.start),
                    self.v.0.add(run.start),
                    run.end - run.start,
                );
            }
        }
    }
}

/// Copies `len` elements from `from` to `to` when dropped: the slice gets the
/// buffer's copies back if a comparison of them panics.
struct CopyBack<T> {
    from: *const T,
    to: *mut T,
    len: usize,
}

impl<T> Drop for CopyBack<T> {
    fn drop(&mut self) {
        // SAFETY: the creator's promise: `from` and `to` hold `len` places
        // each, apart, and `to`'s hold stale copies of `from`'s elements.
        unsafe { ptr::copy_nonoverlapping(self.from, self.to, self.len) };
    }
}

/// Powersort's power of the boundary between the runs `start..mid` and
/// `mid..end` of `0..len`: one more than the number of leading bits the two
/// midpoints share as fractions of `len`. Deeper boundaries merge first.
fn node_power(len: usize, start: usize, mid: usize, end: usize) -> u32 {
    // Twice the midpoints, over twice the length, as fractions: of 31 bits
    // in `u64` arithmetic while that holds them (a 128-bit division is a call
    // of its own), else of 62 bits in `u128`. One sort always takes the same
    // branch, and powers are only compared with each other.
    if let Ok(len32) = u32::try_from(len) {
        let (len, a, b) = (u64::from(len32), (start + mid) as u64, (mid + end) as u64);
        let x = (a << 31) / len;
        let y = (b << 31) / len;
        return (x ^ y).leading_zeros();
    }
    let (len, a, b) = (len as u128, (start + mid) as u128, (mid + end) as u128);
    let x = ((a << 62) / len) as u64;
    let y = ((b << 62) / len) as u64;
    (x ^ y).leading_zeros()
}

/// Merges the neighbouring runs `left` and `right` and returns the run they
/// make: a pair already in order is only joined; a pair in the slice is merged
/// into the buffer, one in the buffer into the slice; a mixed pair first
/// copies its buffer part back into the slice.
///
/// # Safety
/// As in [`merge_runs`]: `v` and `buf` are distinct, have room for both runs,
/// and each run's elements are in the place its `in_buf` says.
unsafe fn merge_pair<T, F>(
    v: SendPtr<T>,
    buf: SendPtr<T>,
    left: Run,
    right: Run,
    compare: &F,
) -> Run
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let (start, mid, end) = (left.start, left.end, right.end);
    // SAFETY: the runs are in bounds of both allocations (the caller's
    // contract); a copy from the buffer lands on places that hold the same
    // elements, so it loses nothing.
    unsafe {
        let at = |in_buf: bool, i: usize| if in_buf { buf.add(i) } else { v.add(i) };
        if left.in_buf != right.in_buf {
            let (from, to) = if left.in_buf {
                (start, mid)
            } else {
                (mid, end)
            };
            ptr::copy_nonoverlapping(buf.add(from).0, v.add(from).0, to - from);
        }
        let src_in_buf = left.in_buf && right.in_buf;
        let src = at(src_in_buf, 0);
        // A panic in the comparison of two elements of the buffer leaves the
        // runs' changed copies there: `back` moves them into the slice.
        let back = src_in_buf.then(|| CopyBack {
            from: buf.add(start).0,
            to: v.add(start).0,
            len: end - start,
        });
        let in_order = !is_less(compare, &*src.add(mid).0, &*src.add(mid - 1).0);
        std::mem::forget(back);
        if in_order {
            return Run {
                start,
                end,
                in_buf: src_in_buf,
            };
        }
        let dest = at(!src_in_buf, start);
        merge_out_of_order(
            src.add(start),
            mid - start,
            src.add(mid),
            end - mid,
            dest,
            compare,
        );
        Run {
            start,
            end,
            in_buf: !src_in_buf,
        }
    }
}

/// Merges the sorted leaves of `v` back up through `buf`: in parallel, in
/// pieces of about `grain` elements, when there is a `grain`.
///
/// # Safety
/// `buf` has room for `v.len()` elements, does not overlap `v`, owns nothing,
/// and nobody else uses it during the call.
unsafe fn merge_all<T, F>(
    v: &mut [T],
    buf: SendPtr<T>,
    levels: u32,
    grain: Option<usize>,
    compare: &F,
) where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    // SAFETY: `v` and `buf` are distinct ranges of `len` slots each, used by
    // this call alone (the caller's contract); `buf` never becomes the owner of
    // anything and the slice ends up holding every element once.
    unsafe {
        merge_levels(
            SendPtr(v.as_mut_ptr()),
            buf,
            len,
            levels,
            false,
            grain,
            compare,
        )
    };
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
/// [`merge_levels`] cuts) with `sort_leaf`, in parallel when `parallel`; each
/// leaf gets with it the matching range of the buffer at `buf` (cut alike).
fn sort_leaves<T, S>(v: &mut [T], buf: SendPtr<T>, levels: u32, sort_leaf: &S, parallel: bool)
where
    T: Send,
    S: Fn(&mut [T], SendPtr<T>) + Sync,
{
    if levels == 0 {
        sort_leaf(v, buf);
        return;
    }
    let mid = v.len() / 2;
    let (low, high) = v.split_at_mut(mid);
    // SAFETY: only a position: the buffer has room for `v.len()` elements (the
    // callers'), so `mid` lies within it; it is dereferenced by the leaves.
    let buf_high = unsafe { buf.add(mid) };
    both(
        parallel,
        move || sort_leaves(low, buf, levels - 1, sort_leaf, parallel),
        move || sort_leaves(high, buf_high, levels - 1, sort_leaf, parallel),
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
