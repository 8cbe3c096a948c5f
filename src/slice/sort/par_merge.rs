//! Merging two sorted runs into a destination, split in parallel by co-ranking.
//!
//! Elements are moved bitwise from the runs to the destination. Each merge,
//! parallel or sequential, holds a [`MoveRest`] guard: whatever it has not moved
//! when the comparator panics is moved by the guard, so the destination always
//! ends up holding every element of the two runs exactly once.

use std::cmp::Ordering;
use std::ptr;

use super::frozen::is_frozen;
use super::is_less;
use super::raw::SendPtr;

/// Merges longer than this are split in two (at the longer run's middle) even
/// on one thread, so that each half checks its order and trims its ends.
const SPLIT_FROM: usize = 4096;

/// From this many elements a merge first trims what is in place already at
/// both ends ([`trim`]); below, the two comparisons or so this costs on
/// random runs are not worth it.
const TRIM_FROM: usize = 256;

/// The unmoved rest of a merge: `left..left_end`, `right..right_end`, and where
/// they go. Dropping it moves the left rest, then the right rest, to `dest`.
struct MoveRest<T> {
    left: *mut T,
    left_end: *mut T,
    right: *mut T,
    right_end: *mut T,
    dest: *mut T,
}

impl<T> MoveRest<T> {
    /// The whole runs `left[..n_left]` and `right[..n_right]`, to be moved to `dest`.
    ///
    /// # Safety
    /// Each run lies within one allocation (the pointer arithmetic stays in bounds).
    unsafe fn new(
        left: SendPtr<T>,
        n_left: usize,
        right: SendPtr<T>,
        n_right: usize,
        dest: SendPtr<T>,
    ) -> Self {
        // SAFETY: forwarded from the caller.
        unsafe {
            MoveRest {
                left: left.0,
                left_end: left.0.add(n_left),
                right: right.0,
                right_end: right.0.add(n_right),
                dest: dest.0,
            }
        }
    }
}

impl<T> Drop for MoveRest<T> {
    fn drop(&mut self) {
        // SAFETY: `left..left_end` and `right..right_end` are initialized, unmoved
        // elements, and `dest` has room for exactly both rests (each step of the
        // merge advanced `dest` by one and one of the run pointers by one). The
        // destination overlaps no run, except in [`merge_in_place`], where the
        // right run's rest is the destination's end and is not copied.
        // Empty rests are skipped: most merges end with one, and a copy of
        // nothing still calls `memcpy`.
        unsafe {
            let n_left = self.left_end.offset_from(self.left) as usize;
            if n_left > 0 {
                ptr::copy_nonoverlapping(self.left, self.dest, n_left);
            }
            let n_right = self.right_end.offset_from(self.right) as usize;
            // A right run merged in place already sits where its rest goes.
            if n_right > 0 && self.right != self.dest.add(n_left) {
                ptr::copy_nonoverlapping(self.right, self.dest.add(n_left), n_right);
            }
        }
    }
}

// SAFETY: a `MoveRest` is the exclusive right to its ranges; sending it to
// another thread moves `T`s there, which `T: Send` allows.
unsafe impl<T: Send> Send for MoveRest<T> {}

impl<T> MoveRest<T> {
    /// Whether both runs still have elements.
    #[inline(always)]
    fn both_nonempty(&self) -> bool {
        self.left != self.left_end && self.right != self.right_end
    }

    /// Number of unmoved elements in the left and right runs.
    fn lens(&self) -> (usize, usize) {
        // SAFETY: each run pointer is at or before its end, in one allocation.
        unsafe {
            (
                self.left_end.offset_from(self.left) as usize,
                self.right_end.offset_from(self.right) as usize,
            )
        }
    }

    /// Splits into the merge of `left[..i]` with `right[..j]` and the merge of
    /// the rests, each with its own part of `dest`.
    ///
    /// # Safety
    /// `i` and `j` are at most the lengths of the runs.
    unsafe fn split(self, i: usize, j: usize) -> (Self, Self) {
        let this = std::mem::ManuallyDrop::new(self);
        // SAFETY: `i`, `j` are within the runs, and `dest` has room for both.
        unsafe {
            let lo = MoveRest {
                left: this.left,
                left_end: this.left.add(i),
                right: this.right,
                right_end: this.right.add(j),
                dest: this.dest,
            };
            let hi = MoveRest {
                left: this.left.add(i),
                left_end: this.left_end,
                right: this.right.add(j),
                right_end: this.right_end,
                dest: this.dest.add(i + j),
            };
            (lo, hi)
        }
    }
}

/// Moves the merge of `left[..n_left]` and `right[..n_right]` (both sorted) into
/// `dest[..n_left + n_right]`, keeping equal elements of `left` before those of
/// `right`. Pieces longer than `grain` are split and merged in parallel.
///
/// # Safety
/// The runs hold initialized elements, `dest` is valid for the writes, the three
/// ranges do not overlap, and no one else touches them during the call. The runs
/// must be treated as moved-out afterwards (even on unwind).
pub(super) unsafe fn par_merge<T, F>(
    left: SendPtr<T>,
    n_left: usize,
    right: SendPtr<T>,
    n_right: usize,
    dest: SendPtr<T>,
    grain: usize,
    compare: &F,
) where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    // SAFETY: the caller gives these ranges to this merge alone.
    let rest = unsafe { MoveRest::new(left, n_left, right, n_right, dest) };
    // SAFETY: `rest` describes valid, disjoint ranges (the caller's contract).
    unsafe { merge_rest(rest, grain, false, compare) };
}

/// [`par_merge`] on this thread alone, for runs the caller has seen out of
/// order (`right`'s first element less than `left`'s last), so the merge does
/// not compare them again.
///
/// # Safety
/// As for [`par_merge`].
pub(super) unsafe fn merge_out_of_order<T, F>(
    left: SendPtr<T>,
    n_left: usize,
    right: SendPtr<T>,
    n_right: usize,
    dest: SendPtr<T>,
    compare: &F,
) where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    // SAFETY: the caller gives these ranges to this merge alone.
    let rest = unsafe { MoveRest::new(left, n_left, right, n_right, dest) };
    // SAFETY: `rest` describes valid, disjoint ranges (the caller's contract).
    unsafe { merge_rest(rest, usize::MAX, true, compare) };
}

/// Merges the sorted runs `v[..mid]` and `v[mid..]` into `v`, through `buf`,
/// which has room for the left run: it is copied there and merged back from
/// the front. Each element goes to a place before the right run's next
/// unread one (the places written so far number the elements taken, fewer
/// than `mid` from the left run while it lasts), so the right run is only
/// overwritten where it has been read; when the left run runs out, the
/// right run's rest is already in place. Runs already in order (the left's
/// last element not greater than the right's first) are left as they are.
///
/// A panicking comparator leaves `v` holding every element once: the
/// guard moves the left run's rest into the gap before the right run's.
///
/// # Safety
/// `mid <= v.len()`; `buf` has room for `mid` elements, does not overlap
/// `v`, and owns nothing.
pub(super) unsafe fn merge_in_place<T, F>(v: &mut [T], mid: usize, buf: *mut T, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    if mid == 0 || mid == len {
        return;
    }
    let p = v.as_mut_ptr();
    // SAFETY: `0 < mid < len`, so both reads are in `v`; `buf` has room for
    // the `mid` elements copied (the caller's contract), and the merge's
    // guard describes the runs and the destination as above: the left run's
    // copies in `buf` become the owners, their places in `v` the gap.
    unsafe {
        if !is_less(compare, &*p.add(mid), &*p.add(mid - 1)) {
            return;
        }
        ptr::copy_nonoverlapping(p, buf, mid);
        let rest = MoveRest::new(
            SendPtr(buf),
            mid,
            SendPtr(p.add(mid)),
            len - mid,
            SendPtr(p),
        );
        merge_sequential(rest, compare);
    }
}

/// The largest elements that [`merge_halves_into`] copies as soon as it
/// chooses them, where it may (one word): for them copying at once is faster
/// than choosing first, while larger elements are faster copied after all
/// the choices, following the pointers, since those copies do not wait on
/// the comparisons (measurements: `docs/benchmarks.md`, section "Why the
/// sorts' constants are what they are").
const COPY_AT_ONCE_MAX_SIZE: usize = 8;

/// Merges the two sorted halves of `src[..len]`, `src[..len / 2]` and
/// `src[len / 2..len]`, into `dest[..len]` (the left one first on ties), from
/// both ends at once as [`merge_bidirectional`] does, for short runs (the
/// stable sort's blocks and the small sorts of both quicksorts): `len / 2` steps at
/// each end, unrolled where `len` is a constant, with no check of the runs'
/// ends.
///
/// An end may compare an element the other took (near the end of the merge,
/// where a run runs out). So the elements are copied only once every
/// comparison is made, and every change the comparator makes to an element
/// through a shared reference is in the copy that ends in `dest`: the choices
/// are kept as pointers on the stack, `len` of them, and followed after. For
/// the types known to hold no interior mutability ([`is_frozen`]) of up to
/// [`COPY_AT_ONCE_MAX_SIZE`] bytes each element is copied as soon as it is
/// chosen, as std's merges do.
///
/// With an odd `len` the front takes one more element, from the left run
/// while it has any.
///
/// Every place read is inside `src[..len]`, whatever the comparator answers:
/// after `k` steps the front pointers have moved `k` places in all and the
/// back ones too, and the left run is the shorter (`len / 2`), so the right
/// run's front is read at most at `len / 2 + len / 2 - 1` and the left run's
/// back at least at `0`.
///
/// If the comparator contradicted itself so that the ends took some element
/// twice, or if it panics, the runs are moved to `dest` unmerged.
///
/// # Safety
/// `src[..len]` holds two sorted runs as above, `dest` has room for `len`
/// and does not overlap `src`, both for this call alone; `len` is at most 64.
#[inline(always)]
pub(super) unsafe fn merge_halves_into<T, F>(src: *mut T, len: usize, dest: *mut T, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    let half = len / 2;
    // SAFETY: the caller gives these ranges to this merge alone; every read
    // below is inside `src[..len]` (see above), and every write inside
    // `dest[..len]`. `src` is not written, and until the comparisons are over
    // `dest` receives only bitwise copies that `rest`'s drop writes over if
    // the merge did not take each element once (nothing in `dest` is dropped),
    // so a panic or a contradiction leaves the runs whole for it to move.
    unsafe {
        let right = src.add(half);
        let mut rest = MoveRest::new(
            SendPtr(src),
            half,
            SendPtr(right),
            len - half,
            SendPtr(dest),
        );
        // A constant: the compiler keeps one of the two ways of copying.
        let copy_at_once = size_of::<T>() <= COPY_AT_ONCE_MAX_SIZE && is_frozen::<T>();
        let mut picks = [std::mem::MaybeUninit::<*const T>::uninit(); 64];
        assert!(len <= picks.len(), "a short run");
        let mut pick = |i: usize, from: *const T| {
            if copy_at_once {
                // Written over when `rest` is dropped below, unless the
                // merge took each element once.
                ptr::copy_nonoverlapping(from, dest.add(i), 1);
            } else {
                picks[i].write(from);
            }
        };
        let (mut l, mut r) = (src, right);
        let (mut l_last, mut r_last) =
            (right.wrapping_sub(1), src.wrapping_add(len).wrapping_sub(1));
        for k in 0..half {
            let take_right = is_less(compare, &*r, &*l);
            pick(k, if take_right { r } else { l });
            r = r.wrapping_add(take_right as usize);
            l = l.wrapping_add(1).wrapping_sub(take_right as usize);
            // Ties go to the right run's last element, which comes last.
            let take_left = is_less(compare, &*r_last, &*l_last);
            pick(len - 1 - k, if take_left { l_last } else { r_last });
            l_last = l_last.wrapping_sub(take_left as usize);
            r_last = r_last.wrapping_sub(1).wrapping_add(take_left as usize);
        }
        if len % 2 == 1 {
            // The middle element: the left run's next if it has one left.
            let left_has = l <= l_last;
            pick(half, if left_has { l } else { r });
            l = l.wrapping_add(left_has as usize);
            r = r.wrapping_add(!left_has as usize);
        }
        // Each element taken once: the front and back met in both runs.
        if l == l_last.wrapping_add(1) && r == r_last.wrapping_add(1) {
            if !copy_at_once {
                for (i, pick) in picks[..len].iter().enumerate() {
                    ptr::copy_nonoverlapping(pick.assume_init(), dest.add(i), 1);
                }
            }
            // Nothing left to move.
            rest.left = rest.left_end;
            rest.right = rest.right_end;
        }
        // Dropping `rest` moves what it still holds: nothing, or both runs
        // unmerged.
        drop(rest);
    }
}

/// Merges what `rest` describes, splitting it in parallel above `grain`.
/// Whatever happens (a panic here, or a half that the pool never runs because
/// the other half panicked), every guard is dropped or finishes, so `dest`
/// receives every element once.
///
/// # Safety
/// `rest` describes valid, disjoint runs and destination owned by this call.
unsafe fn merge_rest<T, F>(rest: MoveRest<T>, grain: usize, out_of_order: bool, compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let (n_left, n_right) = rest.lens();
    if n_left == 0 || n_right == 0 {
        return; // dropping `rest` moves the one nonempty run
    }
    // SAFETY: both runs are nonempty, so their last and first elements exist.
    if !out_of_order && unsafe { !is_less(compare, &*rest.right, &*rest.left_end.sub(1)) } {
        return; // already in order: dropping `rest` moves the left run, then the right
    }
    if n_left + n_right < TRIM_FROM {
        // SAFETY: as above; the merge's guard moves whatever it has not.
        unsafe { merge_here(rest, compare) };
        return;
    }
    // SAFETY: as above; the runs are initialized and nonempty.
    let (i0, j1) = unsafe { trim(&rest, n_left, n_right, compare) };
    // The left run's first `i0` elements and the right run's elements from
    // `j1` on are in place already: the guards `head` and `tail` move them
    // (when dropped, also on unwind), and only the middle is merged.
    // SAFETY: `i0 <= n_left` and `j1 <= n_right` (`trim`'s promise).
    let (head, rest) = unsafe { rest.split(i0, 0) };
    drop(head);
    // SAFETY: as above, within what is left of the runs.
    let (rest, _tail) = unsafe { rest.split(n_left - i0, j1) };
    let (n_left, n_right) = rest.lens();
    if n_left == 0 || n_right == 0 {
        return;
    }
    if n_left + n_right <= SPLIT_FROM {
        // SAFETY: as above; the merge's guard moves whatever it has not.
        unsafe { merge_here(rest, compare) };
        return;
    }
    // SAFETY: the runs are initialized; a panic here leaves `rest` to move them.
    let (i, j) = unsafe { co_rank(rest.left, n_left, rest.right, n_right, compare) };
    // SAFETY: `co_rank` returns `i <= n_left` and `j <= n_right`.
    let (lo, hi) = unsafe { rest.split(i, j) };
    if n_left + n_right <= grain {
        // Halves on this thread: each checks its order and trims its ends, so
        // a merge of nearly sorted runs skips whatever is in place between
        // the few elements that are not.
        // SAFETY: the halves' ranges are disjoint parts of ours; each guard
        // moves its half's elements, also on unwind.
        unsafe {
            merge_rest(lo, grain, false, compare);
            merge_rest(hi, grain, false, compare);
        }
        return;
    }
    // Each half owns its guard: if the pool drops a half unrun, the guard
    // still moves that half's elements.
    // SAFETY: the halves' ranges are disjoint parts of ours.
    crate::join(
        move || unsafe { merge_rest(lo, grain, false, compare) },
        move || unsafe { merge_rest(hi, grain, false, compare) },
    );
}

/// Merges `rest` on this thread: split in two independent merges at the
/// longer run's middle and both run at once ([`merge_bidirectional_pair`])
/// from [`PAIR_FROM`] elements, as one two-ended merge below.
///
/// # Safety
/// `rest` describes valid, disjoint runs and destination owned by this call.
unsafe fn merge_here<T, F>(rest: MoveRest<T>, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    let (n_left, n_right) = rest.lens();
    if n_left + n_right < PAIR_FROM || n_left == 0 || n_right == 0 || is_large::<T>() {
        // SAFETY: the caller's contract.
        unsafe { merge_bidirectional(rest, compare) };
        return;
    }
    // SAFETY: the runs are initialized and nonempty; a panic in `co_rank`
    // leaves `rest` to move them, and `co_rank`'s indices are in bounds.
    unsafe {
        let (i, j) = co_rank(rest.left, n_left, rest.right, n_right, compare);
        let (lo, hi) = rest.split(i, j);
        merge_bidirectional_pair(lo, hi, compare);
    }
}

/// From this many elements a merge on one thread runs as two at once.
const PAIR_FROM: usize = 64;

/// Whether elements of `T` are large (over 32 bytes): then their copies, not
/// the chains of comparisons, bound a merge. Such merges run one at a time,
/// not paired, and each step branches on the comparator's answer, where
/// small elements are chosen by a select: the processor then starts the
/// loads of the next copy on its guess instead of waiting for the answer,
/// which for such elements wins though the branch is mispredicted about half
/// the time (measurements: `docs/benchmarks.md`, section "Why the sorts'
/// constants are what they are").
pub(super) const fn is_large<T>() -> bool {
    size_of::<T>() > 32
}

/// How many elements at the front of the left run go before the right run's
/// first element, and from where on the right run's elements go after the
/// left run's last one, as `(i0, j1)`: both by galloping (probing 1, 2, 4, ...
/// elements in, then a binary search), so a merge of a short run into a long
/// one (natural runs of a nearly sorted input) costs comparisons for the
/// short run's span, not the long run's length, while a merge of random runs
/// pays about two comparisons per end. Indices stay in bounds whatever the
/// comparator answers.
///
/// # Safety
/// Both runs of `rest` hold `n_left` and `n_right` initialized elements.
unsafe fn trim<T, F>(
    rest: &MoveRest<T>,
    n_left: usize,
    n_right: usize,
    compare: &F,
) -> (usize, usize)
where
    F: Fn(&T, &T) -> Ordering,
{
    // SAFETY: the caller guarantees both runs are initialized and unshared.
    let (left, right) = unsafe {
        (
            std::slice::from_raw_parts(rest.left, n_left),
            std::slice::from_raw_parts(rest.right, n_right),
        )
    };
    // Left elements not greater than the right run's first go first (ties keep
    // the left one first); right elements not less than the left run's last
    // go last.
    let i0 = gallop(n_left, |i| !is_less(compare, &right[0], &left[i]));
    let from_end = gallop(n_right, |k| {
        !is_less(compare, &right[n_right - 1 - k], &left[n_left - 1])
    });
    (i0, n_right - from_end)
}

/// The length of the prefix of `0..len` on which `holds` is true, `holds`
/// being true then false (if it is not, some index in `0..=len` comes back):
/// probes at 0, 1, 3, 7, ..., then a binary search in the last gap, so a
/// prefix of length `k` costs about `2 log2 k` calls.
fn gallop(len: usize, holds: impl Fn(usize) -> bool) -> usize {
    // `holds` is true on `..known`; `probe` runs through 0, 1, 3, 7, ...
    let (mut known, mut probe, mut step) = (0, 0, 1);
    let mut bound = len;
    while probe < len {
        if !holds(probe) {
            bound = probe;
            break;
        }
        known = probe + 1;
        probe += step;
        step *= 2;
    }
    // The prefix ends in `known..=bound`: a binary search there.
    let (mut a, mut b) = (known, bound);
    while a < b {
        let m = a + (b - a) / 2;
        if holds(m) {
            a = m + 1;
        } else {
            b = m;
        }
    }
    a
}

/// Picks `(i, j)` such that merging `left[..i]` with `right[..j]`, then
/// `left[i..]` with `right[j..]`, gives the stable merge of the runs. The
/// element at the middle of the longer run is the splitter. Indices stay in
/// bounds whatever the comparator answers.
///
/// # Safety
/// Both runs hold initialized elements.
unsafe fn co_rank<T, F>(
    left: *const T,
    n_left: usize,
    right: *const T,
    n_right: usize,
    compare: &F,
) -> (usize, usize)
where
    F: Fn(&T, &T) -> Ordering,
{
    // SAFETY: the caller guarantees both runs are initialized and unshared.
    let (left, right) = unsafe {
        (
            std::slice::from_raw_parts(left, n_left),
            std::slice::from_raw_parts(right, n_right),
        )
    };
    if n_left >= n_right {
        // left[i] goes after every right element strictly less than it.
        let i = n_left / 2;
        let j = right.partition_point(|r| is_less(compare, r, &left[i]));
        (i, j)
    } else {
        // right[j] goes after every left element not greater than it.
        let j = n_right / 2;
        let i = left.partition_point(|l| !is_less(compare, &right[j], l));
        (i, j)
    }
}

/// Merges `rest` from both ends at once: each step moves the smaller head to
/// the front of `dest` and the greater tail to its back. The two halves are
/// independent chains of comparisons that the processor overlaps, and one loop
/// counter serves both; with runs of about equal length (those of a merge sort
/// of random input) this moves nearly everything. It runs in rounds of half as
/// many steps as the shorter run has elements left ([`Ends::safe_steps`]),
/// unchecked within a round, until a run has one left ([`Ends::run`]): so,
/// whatever the comparator answers, no element is compared after one end
/// copied it out (a change the comparator made to it
/// through a shared reference would be lost, and a copy that still owned what
/// the comparator had moved out of it dropped twice). Then a one-ended merge
/// finishes the middle.
///
/// The runs are only read, and `rest` is not touched until the two-ended loop
/// is over: a panic in it leaves `rest` whole, and dropping it moves both runs
/// to `dest` unmerged, over whatever the loop wrote. If the comparator
/// contradicted itself so that the two ends took some element twice (they
/// crossed in a run), `rest` is dropped the same way: a permutation.
///
/// # Safety
/// `rest` describes valid, disjoint runs and destination, as in [`par_merge`].
#[inline]
unsafe fn merge_bidirectional<T, F>(rest: MoveRest<T>, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    // SAFETY: `rest` is valid (the caller's contract).
    unsafe {
        let mut ends = Ends::new(&rest);
        ends.run(compare);
        ends.finish(rest, compare);
    }
}

/// Merges two independent merges at once, each from both ends: four chains
/// of comparisons that the processor overlaps, where one two-ended merge has
/// two and waits on each load-compare-advance step of them. As in
/// [`merge_bidirectional`], neither `rest` is touched until the loops are
/// over, so a panic leaves both whole and dropping them moves both runs
/// unmerged.
///
/// # Safety
/// Each `rest` is valid as in [`par_merge`], and the two are disjoint.
unsafe fn merge_bidirectional_pair<T, F>(a: MoveRest<T>, b: MoveRest<T>, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    // SAFETY: each `rest` is valid; each round takes no more steps on either
    // merge than its `Ends::safe_steps` at the round's start (as `Ends::run`
    // does).
    unsafe {
        let (mut ends_a, mut ends_b) = (Ends::new(&a), Ends::new(&b));
        loop {
            let both = ends_a.safe_steps().min(ends_b.safe_steps());
            if both == 0 {
                break;
            }
            for _ in 0..both {
                ends_a.step(compare);
                ends_b.step(compare);
            }
        }
        ends_a.run(compare);
        ends_b.run(compare);
        ends_a.finish(a, compare);
        ends_b.finish(b, compare);
    }
}

/// The two ends of a two-ended merge in progress: the next element of each
/// run and where the next goes at the front of the destination, and the last
/// ones at the back. Kept apart from the merge's [`MoveRest`] (which moves
/// the unmerged runs if anything goes wrong) until the loop is over.
struct Ends<T> {
    left: *mut T,
    right: *mut T,
    dest: *mut T,
    left_last: *mut T,
    right_last: *mut T,
    dest_last: *mut T,
}

impl<T> Ends<T> {
    /// The ends of `rest`'s runs and destination.
    ///
    /// # Safety
    /// `rest` is valid as in [`par_merge`].
    #[inline(always)]
    unsafe fn new(rest: &MoveRest<T>) -> Self {
        let (n_left, n_right) = rest.lens();
        Ends {
            left: rest.left,
            right: rest.right,
            dest: rest.dest,
            left_last: rest.left_end.wrapping_sub(1),
            right_last: rest.right_end.wrapping_sub(1),
            // SAFETY: `dest` has room for both runs (the caller's contract);
            // with both empty this is one before it, never written.
            dest_last: rest.dest.wrapping_add(n_left + n_right).wrapping_sub(1),
        }
    }

    /// How many steps a round may take from here: half the elements left in
    /// the shorter run (the run with fewer that neither end has taken). A run
    /// of `m` elements left loses at most one at each end per step, so after
    /// `k - 1 < m / 2` steps at most `2k - 2 < m` are taken, and the elements
    /// step `k` compares (the next one at the front and the last one at the
    /// back of each run) are still untaken, whatever the comparator answered.
    #[inline(always)]
    fn safe_steps(&self) -> usize {
        self.least_left() / 2
    }

    /// The elements left that neither end has taken, in the run with fewer.
    #[inline(always)]
    fn least_left(&self) -> usize {
        let size = size_of::<T>().max(1);
        let left = (self.left_last as usize)
            .wrapping_add(size)
            .wrapping_sub(self.left as usize);
        let right = (self.right_last as usize)
            .wrapping_add(size)
            .wrapping_sub(self.right as usize);
        left.min(right) / size
    }

    /// Steps in rounds of [`Ends::safe_steps`] steps, unchecked within a
    /// round, until a run has one element left that neither end has taken
    /// (or none). With random runs the shorter loses about half its elements
    /// in a round, so a merge of `m` takes about log2(m) rounds. Checking
    /// the runs every two steps instead, past a first round, costs more
    /// instructions and no less time. The rounds' ends cost a mispredicted
    /// branch or two per merge, which the many short merges of the stable
    /// sort's blocks avoid by copying only after all their comparisons
    /// ([`merge_halves_into`]), where a checked loop would mispredict far
    /// more (measurements for both: `docs/benchmarks.md`, section "Why the
    /// sorts' constants are what they are").
    ///
    /// # Safety
    /// As [`Ends::new`]'s.
    #[inline(always)]
    unsafe fn run<F>(&mut self, compare: &F)
    where
        F: Fn(&T, &T) -> Ordering,
    {
        // SAFETY: each round takes `safe_steps` steps from its start. Two
        // steps per turn: the loop's own counting is a fair part of a step's
        // cost for small elements.
        unsafe {
            loop {
                let steps = self.safe_steps();
                if steps == 0 {
                    break;
                }
                for _ in 0..steps / 2 {
                    self.step(compare);
                    self.step(compare);
                }
                if steps % 2 == 1 {
                    self.step(compare);
                }
            }
        }
    }

    /// One step at each end.
    ///
    /// # Safety
    /// Each run has two elements left that neither end has taken, or the step
    /// is one of the first [`Ends::safe_steps`] from the start of the merge:
    /// every element read is one neither end has taken, inside its run (the
    /// back pointers may end one before a run, hence the wrapping arithmetic;
    /// they are not read then). The front and back write the places of `dest` next to the
    /// ones they wrote last, which stay apart as each takes an untaken
    /// element; the runs do not overlap `dest`.
    #[inline(always)]
    unsafe fn step<F>(&mut self, compare: &F)
    where
        F: Fn(&T, &T) -> Ordering,
    {
        // SAFETY: as the function's contract says.
        unsafe {
            take_smaller_head(&mut self.left, &mut self.right, &mut self.dest, compare);
            if is_large::<T>() {
                // Ties go to the right run's last element, which comes last.
                if is_less(compare, &*self.right_last, &*self.left_last) {
                    ptr::copy_nonoverlapping(self.left_last, self.dest_last, 1);
                    self.left_last = self.left_last.wrapping_sub(1);
                } else {
                    ptr::copy_nonoverlapping(self.right_last, self.dest_last, 1);
                    self.right_last = self.right_last.wrapping_sub(1);
                }
                self.dest_last = self.dest_last.wrapping_sub(1);
                return;
            }
            // Ties go to the right run's last element, which comes last.
            let take_left = is_less(compare, &*self.right_last, &*self.left_last);
            let src = if take_left {
                self.left_last
            } else {
                self.right_last
            };
            ptr::copy_nonoverlapping(src, self.dest_last, 1);
            self.left_last = self.left_last.wrapping_sub(take_left as usize);
            self.right_last = self
                .right_last
                .wrapping_sub(1)
                .wrapping_add(take_left as usize);
            self.dest_last = self.dest_last.wrapping_sub(1);
        }
    }

    /// Ends the merge of `rest` once the two-ended steps are done: if the
    /// ends crossed in a run (a comparator that contradicted itself), `rest`
    /// is dropped, which moves the runs unmerged; else what is left between
    /// the ends is merged from the front.
    ///
    /// # Safety
    /// The steps taken kept to [`Ends::step`]'s contract on `rest`.
    #[inline(always)]
    unsafe fn finish<F>(self, mut rest: MoveRest<T>, compare: &F)
    where
        F: Fn(&T, &T) -> Ordering,
    {
        let (left_end, right_end) = (
            self.left_last.wrapping_add(1),
            self.right_last.wrapping_add(1),
        );
        if self.left > left_end || self.right > right_end {
            return; // crossed: dropping `rest` moves the runs unmerged
        }
        // Every element taken is taken once; the rest is the middle.
        rest.left = self.left;
        rest.left_end = left_end;
        rest.right = self.right;
        rest.right_end = right_end;
        rest.dest = self.dest;
        // SAFETY: `rest` now describes the untaken middle of both runs and
        // the places of `dest` between the two ends.
        unsafe { merge_sequential(rest, compare) };
    }
}

/// The one-ended merge loop, branch-free in its choice of the next element.
/// It works on its own copy of the pointers, which stays in registers, and
/// dropping `rest` at the end (or on unwind) moves the tails.
///
/// # Safety
/// `rest` describes valid, disjoint runs and destination, as in [`par_merge`].
#[inline]
unsafe fn merge_sequential<T, F>(mut rest: MoveRest<T>, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    while rest.both_nonempty() {
        // SAFETY: both runs have an element left (checked above).
        unsafe { merge_step(&mut rest, compare) };
    }
}

/// Moves the smaller head of the two runs (the left one on ties) to `dest`.
///
/// # Safety
/// Both runs of `rest` are nonempty, and `rest` is valid as in [`par_merge`].
#[inline(always)]
unsafe fn merge_step<T, F>(rest: &mut MoveRest<T>, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    // SAFETY: both run pointers are before their ends, so they point at unmoved
    // elements; `dest` has room for one more (it has room for both rests). The
    // copy happens after the comparison, so a panic in `compare` leaves `rest`
    // exact.
    unsafe { take_smaller_head(&mut rest.left, &mut rest.right, &mut rest.dest, compare) };
}

/// Copies the smaller of the elements at `left` and `right` (the one at
/// `left` on ties) to `dest`, and moves the pointer it came from and `dest`
/// on by one: one step of a merge from the front, without a branch on the
/// comparator's answer unless the elements are large ([`is_large`]).
///
/// # Safety
/// `left` and `right` point at initialized elements and `dest` at a place
/// that overlaps neither; the pointers are only moved, with wrapping
/// arithmetic, so the caller decides what may be read next.
#[inline(always)]
unsafe fn take_smaller_head<T, F>(
    left: &mut *mut T,
    right: &mut *mut T,
    dest: &mut *mut T,
    compare: &F,
) where
    F: Fn(&T, &T) -> Ordering,
{
    // SAFETY: the caller's contract; nothing moves before the comparator has
    // answered.
    unsafe {
        if is_large::<T>() {
            if is_less(compare, &**right, &**left) {
                ptr::copy_nonoverlapping(*right, *dest, 1);
                *right = right.wrapping_add(1);
            } else {
                ptr::copy_nonoverlapping(*left, *dest, 1);
                *left = left.wrapping_add(1);
            }
            *dest = dest.wrapping_add(1);
            return;
        }
        let take_right = is_less(compare, &**right, &**left);
        let src = if take_right { *right } else { *left };
        ptr::copy_nonoverlapping(src, *dest, 1);
        // The pointers move by `1 - taken` written as `1` then `- taken`:
        // measured fewer instructions than `!taken`.
        *right = right.wrapping_add(take_right as usize);
        *left = left.wrapping_add(1).wrapping_sub(take_right as usize);
        *dest = dest.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

    /// A merged element: a key, a tag, and `PAD` bytes that make it large
    /// ([`is_large`]) from `PAD = 17`.
    type Item<const PAD: usize> = (u64, usize, [u8; PAD]);

    /// Merges `left` and `right` (as `par_merge` on this thread) into a fresh
    /// vector with `compare`.
    fn merged<const PAD: usize, F>(
        left: &[Item<PAD>],
        right: &[Item<PAD>],
        compare: &F,
    ) -> Vec<Item<PAD>>
    where
        F: Fn(&Item<PAD>, &Item<PAD>) -> Ordering + Sync,
    {
        let (mut l, mut r) = (left.to_vec(), right.to_vec());
        let mut dest = Vec::with_capacity(l.len() + r.len());
        // SAFETY: the runs are owned vectors, `dest` has room for both, and
        // the elements are `Copy`, so the runs need not be forgotten.
        unsafe {
            par_merge(
                SendPtr(l.as_mut_ptr()),
                l.len(),
                SendPtr(r.as_mut_ptr()),
                r.len(),
                SendPtr(dest.as_mut_ptr()),
                usize::MAX,
                compare,
            );
            dest.set_len(l.len() + r.len());
        }
        dest
    }

    /// Sorted runs of `n` pairs, keys below `keys`, tagged with their places.
    fn run<const PAD: usize>(
        coin: &impl Fn() -> u64,
        n: usize,
        keys: u64,
        tag: usize,
    ) -> Vec<Item<PAD>> {
        let mut v: Vec<Item<PAD>> = (0..n).map(|i| (coin() % keys, tag + i, [0; PAD])).collect();
        v.sort();
        v
    }

    /// Merges from both ends keep equal keys in order (left run first), for
    /// runs of equal and of very different lengths, of small elements and
    /// of large ones (merged with branches).
    #[test]
    fn merges_are_stable_at_every_length() {
        merges_are_stable::<0>();
        merges_are_stable::<24>();
    }

    fn merges_are_stable<const PAD: usize>() {
        let coin = super::super::test_coin(11);
        for (n_left, n_right) in [
            (1, 1),
            (1, 9),
            (9, 1),
            (2, 3),
            (17, 17),
            (40, 300),
            (300, 41),
            (63, 1),
            (1, 64),
            (100, 3),
            (500, 520),
        ] {
            for keys in [2, 5, 1000] {
                let left = run::<PAD>(&coin, n_left, keys, 0);
                let right = run::<PAD>(&coin, n_right, keys, 1000);
                let by_key = |a: &Item<PAD>, b: &Item<PAD>| a.0.cmp(&b.0);
                let got = merged(&left, &right, &by_key);
                let mut want = [left, right].concat();
                want.sort_by_key(|p| p.0); // stable: left's tags before right's
                assert_eq!(got, want, "{n_left} + {n_right}, {keys} keys");
            }
        }
    }

    /// A comparator that answers at random (so the two ends may cross in a
    /// run) or panics midway still leaves the destination a permutation.
    #[test]
    fn inconsistent_or_panicking_comparators_leave_a_permutation() {
        comparators_leave_a_permutation::<0>();
        comparators_leave_a_permutation::<24>();
    }

    fn comparators_leave_a_permutation<const PAD: usize>() {
        let coin = super::super::test_coin(5);
        for (n_left, n_right) in [
            (1, 1),
            (3, 2),
            (16, 16),
            (20, 70),
            (200, 199),
            (64, 2),
            (90, 300),
        ] {
            let left = run::<PAD>(&coin, n_left, 50, 0);
            let right = run::<PAD>(&coin, n_right, 50, 1000);
            let mut want = [left.clone(), right.clone()].concat();
            want.sort();
            for seed in 1..=20u64 {
                // A generator the comparator can share (merges want `Sync`).
                let state = AtomicU64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let draw = || {
                    let mut x = state.load(Relaxed);
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    state.store(x, Relaxed);
                    x
                };
                let random = |_: &Item<PAD>, _: &Item<PAD>| match draw() % 3 {
                    0 => Ordering::Less,
                    1 => Ordering::Equal,
                    _ => Ordering::Greater,
                };
                let mut got = merged(&left, &right, &random);
                got.sort();
                assert_eq!(got, want, "random answers, {n_left} + {n_right}");
            }
            for budget in [0, 1, 2, 9, (n_left + n_right) / 2, n_left + n_right - 1] {
                let calls = AtomicUsize::new(0);
                let counted = |a: &Item<PAD>, b: &Item<PAD>| {
                    assert!(calls.fetch_add(1, Relaxed) < budget, "budget spent");
                    a.cmp(b)
                };
                // The merge writes into a vector the test keeps: on unwind it
                // must hold both runs, each element once.
                let (mut l, mut r) = (left.clone(), right.clone());
                let mut dest: Vec<Item<PAD>> = Vec::with_capacity(n_left + n_right);
                let (l, r, d) = (l.as_mut_ptr(), r.as_mut_ptr(), dest.as_mut_ptr());
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    // SAFETY: as in `merged`.
                    unsafe {
                        let rest =
                            MoveRest::new(SendPtr(l), n_left, SendPtr(r), n_right, SendPtr(d));
                        merge_rest(rest, usize::MAX, true, &counted);
                    }
                }));
                // SAFETY: the merge or its guard wrote every place of `dest`.
                unsafe { dest.set_len(n_left + n_right) };
                let mut got = dest;
                if outcome.is_ok() {
                    assert!(got.windows(2).all(|w| w[0] <= w[1]), "sorted");
                }
                got.sort();
                assert_eq!(got, want, "budget {budget}, {n_left} + {n_right}");
            }
        }
    }

    /// The short merge of two halves ([`merge_halves_into`]) keeps equal keys
    /// in order at every length it takes, odd ones included; answers at
    /// random, or a panic after any number of calls, leave a permutation.
    /// Both ways of copying: 16-byte elements copied after all the choices,
    /// and `(u32, u32)`s (known to hold no interior mutability, one word)
    /// copied as soon as they are chosen.
    #[test]
    fn halves_merge_stably_or_into_a_permutation() {
        assert!(!super::super::frozen::is_frozen::<Item<0>>());
        halves_merge_stably::<Item<0>>(|&(key, tag, _)| (key, tag, [0; 0]), |x| x.0);
        assert!(super::super::frozen::is_frozen::<(u32, u32)>());
        halves_merge_stably::<(u32, u32)>(
            |&(key, tag, _)| (key as u32, tag as u32),
            |x| u64::from(x.0),
        );
    }

    /// [`halves_merge_stably_or_into_a_permutation`] for elements of `T`,
    /// made from the test's items by `make`, whose keys `key` reads.
    fn halves_merge_stably<T: Copy + Ord + std::fmt::Debug>(
        make: impl Fn(&Item<0>) -> T,
        key: impl Fn(&T) -> u64,
    ) {
        let coin = super::super::test_coin(7);
        let merge = |src: &[T], compare: &dyn Fn(&T, &T) -> Ordering| {
            let mut src = src.to_vec();
            let mut dest: Vec<T> = Vec::with_capacity(src.len());
            let (s, d, len) = (src.as_mut_ptr(), dest.as_mut_ptr(), src.len());
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                // SAFETY: `dest` has room for `len`, apart from `src`; the
                // elements are `Copy`.
                unsafe { merge_halves_into(s, len, d, &compare) }
            }));
            // SAFETY: the merge or its guard wrote every place of `dest`.
            unsafe { dest.set_len(len) };
            (dest, outcome.is_ok())
        };
        let by_key = |a: &T, b: &T| key(a).cmp(&key(b));
        for len in 0..=64 {
            for keys in [2, 5, 1000] {
                let src: Vec<T> = [
                    run::<0>(&coin, len / 2, keys, 0),
                    run::<0>(&coin, len - len / 2, keys, 1000),
                ]
                .concat()
                .iter()
                .map(&make)
                .collect();
                let mut want = src.clone();
                want.sort_by(by_key);
                let (got, _) = merge(&src, &by_key);
                assert_eq!(got, want, "{len} elements, {keys} keys");
                want.sort();
                for seed in 1..=8u64 {
                    let (mut got, _) = merge(&src, &super::super::random_answers(seed));
                    got.sort();
                    assert_eq!(got, want, "random answers, {len} elements");
                }
                for budget in [0, 1, len / 2, len.saturating_sub(1)] {
                    let calls = AtomicUsize::new(0);
                    let counted = |a: &T, b: &T| {
                        assert!(calls.fetch_add(1, Relaxed) < budget, "budget spent");
                        by_key(a, b)
                    };
                    let (mut got, _) = merge(&src, &counted);
                    got.sort();
                    assert_eq!(got, want, "budget {budget}, {len} elements");
                }
            }
        }
    }

    /// Merging a slice's two sorted halves in place through a buffer that
    /// holds the left one keeps equal keys in order (left first), leaves runs
    /// already in order alone, and on a panicking comparator leaves the slice
    /// holding every element once.
    #[test]
    fn merges_in_place_are_stable_and_lose_nothing() {
        merges_in_place::<0>();
        merges_in_place::<24>();
    }

    fn merges_in_place<const PAD: usize>() {
        let coin = super::super::test_coin(23);
        let by_key = |a: &Item<PAD>, b: &Item<PAD>| a.0.cmp(&b.0);
        for (n_left, n_right) in [
            (0, 5),
            (5, 0),
            (1, 1),
            (3, 4),
            (50, 51),
            (300, 300),
            (7, 400),
        ] {
            for keys in [1, 3, 1000] {
                let left = run::<PAD>(&coin, n_left, keys, 0);
                let right = run::<PAD>(&coin, n_right, keys, 1000);
                let mut want = [left.clone(), right.clone()].concat();
                want.sort_by_key(|p| p.0); // stable: left's tags before right's
                let mut v = [left.clone(), right.clone()].concat();
                let mut buf: Vec<Item<PAD>> = Vec::with_capacity(n_left);
                let calls = AtomicUsize::new(0);
                let counted_by_key = |a: &Item<PAD>, b: &Item<PAD>| {
                    calls.fetch_add(1, Relaxed);
                    by_key(a, b)
                };
                // SAFETY: `buf` has room for the left run, apart from `v`.
                unsafe { merge_in_place(&mut v, n_left, buf.as_mut_ptr(), &counted_by_key) };
                assert_eq!(v, want, "{n_left} + {n_right}, {keys} keys");
                if keys == 1 && n_left > 0 && n_right > 0 {
                    assert_eq!(calls.load(Relaxed), 1, "runs in order are left alone");
                }

                let n = n_left + n_right;
                for budget in [0, 1, 2, n / 2, n.saturating_sub(1)] {
                    let counter = AtomicUsize::new(0);
                    let counted = |a: &Item<PAD>, b: &Item<PAD>| {
                        assert!(counter.fetch_add(1, Relaxed) < budget, "budget spent");
                        a.cmp(b)
                    };
                    let mut v = [left.clone(), right.clone()].concat();
                    let outcome = catch_unwind(AssertUnwindSafe(|| {
                        // SAFETY: as above.
                        unsafe { merge_in_place(&mut v, n_left, buf.as_mut_ptr(), &counted) };
                    }));
                    v.sort();
                    let mut all = want.clone();
                    all.sort();
                    assert_eq!(v, all, "budget {budget}, {outcome:?}");
                }
            }
        }
    }
}
