//! Detection of inputs that are already sorted or strictly descending, checked
//! (and reversed) in parallel.

use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::{MIN_LEAF, is_less};

/// Comparisons made between two checks for an early exit: with no branch
/// inside a block, the loop runs at the speed of the comparisons.
const BLOCK: usize = 32;

/// Pairs checked on the calling thread before going parallel: a random input
/// fails here at once, so it pays for no fork.
const QUICK_CHECK: usize = 256;

/// If `v` is one non-descending run, leaves it; if it is one strictly
/// descending run, reverses it (strictness keeps equal elements in order, so
/// this is right for the stable sort too). Returns whether `v` is now sorted.
///
/// On a random input this stops after a block of comparisons, so it costs
/// nothing; on a sorted or reversed input it is the whole sort, done by all
/// threads (std does it on one).
pub(super) fn finish_if_monotonic<T, F>(v: &mut [T], compare: &F) -> bool
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if v.len() < 2 {
        return true;
    }
    if is_less(compare, &v[1], &v[0]) {
        let descending = all_pairs(v, &|a: &T, b: &T| is_less(compare, b, a));
        if descending {
            par_reverse(v);
        }
        descending
    } else {
        all_pairs(v, &|a: &T, b: &T| !is_less(compare, b, a))
    }
}

/// Whether `holds(v[k - 1], v[k])` for every `k`: a quick look at the start,
/// then the whole slice in parallel.
fn all_pairs<T, P>(v: &mut [T], holds: &P) -> bool
where
    T: Send,
    P: Fn(&T, &T) -> bool + Sync,
{
    let stop = AtomicBool::new(false);
    let quick = v.len().min(QUICK_CHECK);
    all_pairs_sequential(&v[..quick], holds, &stop)
        && all_pairs_parallel(&mut v[quick - 1..], holds, &stop)
}

/// [`all_pairs_sequential`] on halves run by `join`; the pair across the cut
/// is checked before forking. The first failure sets `stop` for everyone.
fn all_pairs_parallel<T, P>(v: &mut [T], holds: &P, stop: &AtomicBool) -> bool
where
    T: Send,
    P: Fn(&T, &T) -> bool + Sync,
{
    if v.len() <= 4 * MIN_LEAF {
        return all_pairs_sequential(v, holds, stop);
    }
    let mid = v.len() / 2;
    if !holds(&v[mid - 1], &v[mid]) {
        stop.store(true, Relaxed);
        return false;
    }
    let (lo, hi) = v.split_at_mut(mid);
    let (a, b) = crate::join(
        || all_pairs_parallel(lo, holds, stop),
        || all_pairs_parallel(hi, holds, stop),
    );
    a && b
}

/// Checks the pairs of `v` block by block, giving up when `stop` is set.
fn all_pairs_sequential<T, P>(v: &[T], holds: &P, stop: &AtomicBool) -> bool
where
    P: Fn(&T, &T) -> bool,
{
    let mut start = 1;
    while start < v.len() {
        let end = (start + BLOCK).min(v.len());
        let mut ok = true;
        for k in start..end {
            ok &= holds(&v[k - 1], &v[k]);
        }
        if !ok {
            stop.store(true, Relaxed);
            return false;
        }
        if stop.load(Relaxed) {
            return false;
        }
        start = end;
    }
    true
}

/// Reverses `v`, swapping mirrored pieces in parallel.
fn par_reverse<T: Send>(v: &mut [T]) {
    let half = v.len() / 2;
    let (front, rest) = v.split_at_mut(half);
    let back_start = rest.len() - half;
    swap_mirrored(front, &mut rest[back_start..]);
}

/// Swaps `a[i]` with `b[b.len() - 1 - i]` for every `i`; `a` and `b` have the
/// same length.
fn swap_mirrored<T: Send>(a: &mut [T], b: &mut [T]) {
    if a.len() <= 8 * MIN_LEAF {
        for (x, y) in a.iter_mut().zip(b.iter_mut().rev()) {
            std::mem::swap(x, y);
        }
        return;
    }
    let m = a.len() / 2;
    let (a_lo, a_hi) = a.split_at_mut(m);
    let b_cut = b.len() - m;
    let (b_lo, b_hi) = b.split_at_mut(b_cut);
    crate::join(|| swap_mirrored(a_lo, b_hi), || swap_mirrored(a_hi, b_lo));
}
