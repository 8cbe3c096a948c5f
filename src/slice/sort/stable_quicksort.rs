//! A stable quicksort, for inputs that are not nearly sorted and inputs with
//! few distinct values (see `prefers_quicksort` in the parent module).
//!
//! A merge sort of `n` elements always makes about `n log n` comparisons; with
//! `k` distinct values a quicksort that sets the elements equal to its pivot
//! aside needs only about `n log k`. Each partition copies the elements into a
//! buffer, those going left from its front and those going right from its back
//! (so both keep their order), then copies them back: stable.
//!
//! Equal elements are set aside without a sample to spot them: a piece that
//! went right of a pivot `p` holds the elements not less than `p`, `p` among
//! them (its *floor*). When the next pivot chosen in that piece is not greater
//! than the floor, it equals it, and so does everything not greater than it:
//! one partition by "not greater than the pivot" takes all of them out, sorted
//! already. A frequent value is thus chosen as a pivot about twice, and its
//! copies cross two partitions in all. The piece left of a pivot keeps its
//! floor only if the partition followed it, which costs a third loop over
//! the piece; the sort follows floors once it has set equal elements aside
//! (or when told that a sample suggested few distinct values). Otherwise a
//! left piece finds its equal elements one partition later, by a pivot that
//! nothing is less than. On random input, where there are none to find, the
//! third loop costs more than the floors save (measurements:
//! `docs/benchmarks.md`, section "Why the sorts' constants are what they
//! are").
//!
//! Panic safety: a partition only reads the slice while it fills the buffer,
//! and the copy back cannot panic, so a panicking comparator leaves the slice
//! holding every element once. Whatever the comparator answers, elements only
//! move as a permutation, and the pivot's side is set without asking the
//! comparator, so every partition takes at least the pivot out of the piece
//! that continues and the recursion ends; after too many levels a piece goes
//! to the merge sort, so the sort stays O(n log n).

use std::cmp::Ordering;
use std::mem::ManuallyDrop;
use std::ptr;

use super::frozen::is_frozen;
use super::insertion::{Hole, insert_tail, insertion_sort};
use super::is_less;
use super::merge_sort::seq_merge_sort_with;
use super::par_merge::merge_halves_into;
use super::scratch::Scratch;
use super::stable_block::sort4_into;

/// Pieces this short get the small sort.
const SMALL_MAX: usize = 32;

/// Pieces shorter than this are insertion sorted by the small sort.
const INSERTION_BELOW: usize = 8;

/// From this length the pivot is a median of medians of three, below it the
/// median of three elements.
const MEDIAN_OF_MEDIANS_FROM: usize = 64;

/// A median of medians takes medians of three in place of elements while the
/// span each is taken over holds at least this many: 243 elements in all at
/// 10^5, where stopping at spans of 64 took 81. The better pivots save
/// partitions (about as few as std's sort makes) and instructions
/// (measurements: `docs/benchmarks.md`, section "Why the sorts' constants are
/// what they are").
const MEDIAN_SPAN_MIN: usize = 8;

/// Sorts `v` stably, sequentially; fastest when `v` is short or holds few
/// distinct values (`few_distinct`: a sample suggested so).
pub(super) fn stable_quicksort<T, F>(v: &mut [T], compare: &F, few_distinct: bool)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if v.len() < INSERTION_BELOW {
        insertion_sort(v, compare);
        return;
    }
    let mut buf = Scratch::<T>::new(v.len());
    // SAFETY: `buf` has room for `v.len()` elements, is not `v`, and never owns
    // anything (a `Scratch`).
    unsafe { stable_quicksort_with(v, buf.as_mut_ptr(), compare, few_distinct) };
}

/// [`stable_quicksort`] with the scratch space at `buf`. `few_distinct`
/// says that a sample suggested few distinct values: the sort then follows
/// every floor (see the module's description) from the start.
///
/// # Safety
/// `buf` has room for `v.len()` elements, does not overlap `v`, and owns
/// nothing.
pub(super) unsafe fn stable_quicksort_with<T, F>(
    v: &mut [T],
    buf: *mut T,
    compare: &F,
    few_distinct: bool,
) where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let limit = 2 * (usize::BITS - v.len().leading_zeros());
    // SAFETY: the caller's contract.
    unsafe { recurse(v, buf, compare, limit, None, few_distinct) };
}

/// Sorts `v` with the scratch space at `buf`, `limit` levels before the merge
/// sort takes over. `floor`, if any, is the index of an element of `v` that
/// no other is less than (the pivot `v` went right of). `seen_equal` says
/// whether to follow the floor into the left piece of a partition: the sort
/// has set equal elements aside, or was told to expect them.
///
/// # Safety
/// `buf` has room for `v.len()` elements and does not overlap `v`.
unsafe fn recurse<T, F>(
    mut v: &mut [T],
    buf: *mut T,
    compare: &F,
    mut limit: u32,
    mut floor: Option<usize>,
    mut seen_equal: bool,
) where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    loop {
        if v.len() <= SMALL_MAX {
            // SAFETY: `buf` has room for `v` (the caller's contract).
            unsafe { small_sort(v, buf, compare) };
            return;
        }
        if limit == 0 {
            // SAFETY: as above.
            unsafe { seq_merge_sort_with(v, buf, compare) };
            return;
        }
        limit -= 1;
        let pivot = choose_pivot(v, compare);
        // A pivot not greater than the floor (or the floor itself) equals it.
        let mut equal = floor.is_some_and(|f| f == pivot || !is_less(compare, &v[f], &v[pivot]));
        if !equal {
            let track = floor.filter(|_| seen_equal);
            // SAFETY: `buf` has room for `v` (the caller's contract).
            let (n_less, new_pivot, new_floor) = unsafe {
                stable_partition(v, buf, pivot, false, track, |x, p| is_less(compare, x, p))
            };
            if n_less > 0 {
                let whole = std::mem::take(&mut v);
                let (left, right) = whole.split_at_mut(n_less);
                // The pivot went right (by fiat), where nothing is less than
                // it. SAFETY: each side is shorter than `v`, so `buf` has room.
                unsafe {
                    recurse(
                        right,
                        buf,
                        compare,
                        limit,
                        Some(new_pivot - n_less),
                        seen_equal,
                    )
                };
                v = left;
                // The floor went left unless the comparator contradicted
                // itself, if it was followed.
                floor = new_floor.filter(|&f| f < n_less);
                continue;
            }
            // Nothing is less than the pivot: nothing moved, and the pivot is
            // a least element.
            equal = true;
        }
        debug_assert!(equal);
        // Everything not greater than the pivot equals it: set them aside.
        // The pivot goes left by fiat, so the rest is shorter than `v`.
        // SAFETY: `buf` has room for `v` (the caller's contract).
        let (n_equal, _, _) =
            unsafe { stable_partition(v, buf, pivot, true, None, |x, p| !is_less(compare, p, x)) };
        v = &mut std::mem::take(&mut v)[n_equal..];
        floor = None;
        seen_equal = true;
    }
}

/// The index of the pivot for `v` (longer than [`SMALL_MAX`]): the median of
/// three elements at fixed places, or, from [`MEDIAN_OF_MEDIANS_FROM`], of
/// three such medians, recursively, of elements spread over `v`. Bad luck
/// with patterned inputs only costs levels, and the level limit bounds them.
fn choose_pivot<T, F>(v: &[T], compare: &F) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    let eighth = v.len() / 8;
    let (a, b, c) = (0, 4 * eighth, 7 * eighth);
    if v.len() < MEDIAN_OF_MEDIANS_FROM {
        median_of_three(v, a, b, c, compare)
    } else {
        median_of_medians(v, a, b, c, eighth, compare)
    }
}

/// The median of the medians of three around `a`, `b` and `c`, each taken
/// over `span` elements from there (recursively while a span holds
/// [`MEDIAN_SPAN_MIN`] or more).
fn median_of_medians<T, F>(v: &[T], a: usize, b: usize, c: usize, span: usize, compare: &F) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    if span < MEDIAN_SPAN_MIN {
        return median_of_three(v, a, b, c, compare);
    }
    let eighth = span / 8;
    let around =
        |x: usize| median_of_medians(v, x, x + 4 * eighth, x + 7 * eighth, eighth, compare);
    median_of_three(v, around(a), around(b), around(c), compare)
}

/// The index among `a`, `b` and `c` whose element is the median of the three
/// (some one of them, whatever the comparator answers).
fn median_of_three<T, F>(v: &[T], a: usize, b: usize, c: usize, compare: &F) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    let a_below_b = is_less(compare, &v[a], &v[b]);
    let a_below_c = is_less(compare, &v[a], &v[c]);
    if a_below_b != a_below_c {
        return a;
    }
    // `a` is the least or the greatest: the median is the nearer of `b` and
    // `c` to it.
    let b_below_c = is_less(compare, &v[b], &v[c]);
    if b_below_c == a_below_b { b } else { c }
}

/// Moves the elements `x` of `v` for which `goes_left(x, &v[pivot])` holds
/// before the others, keeping the order within each side. The pivot itself
/// goes left when `pivot_left`, right otherwise, without a comparison.
/// Returns the number that went left, the pivot's new index and that of the
/// element at `track` (another than the pivot), if given. Following an
/// element costs a third loop over the slice.
///
/// # Safety
/// `buf` has room for `v.len()` elements and does not overlap `v`.
unsafe fn stable_partition<T, P>(
    v: &mut [T],
    buf: *mut T,
    pivot: usize,
    pivot_left: bool,
    track: Option<usize>,
    goes_left: P,
) -> (usize, usize, Option<usize>)
where
    P: Fn(&T, &T) -> bool,
{
    let len = v.len();
    debug_assert!(pivot < len && track.is_none_or(|t| t < len && t != pivot));
    let src = v.as_mut_ptr();
    // SAFETY: `pivot` and `track` are below `len`; the slice is only read
    // until the copy back. Each element is copied once, to the front or the
    // back of the free places of `buf` (see `Fill`), so every write is in
    // bounds and none overwrites another. A panic in `goes_left` leaves the
    // slice untouched but for the pivot's place, which `held` writes back,
    // and `buf` owns nothing.
    unsafe {
        let mut fill = Fill {
            buf,
            // Opaque to the compiler: seeing the back end as `buf` plus an
            // offset, it kept a register and an addition per element of the
            // loop's four for the back places, where one pointer stepped
            // down serves them all.
            rev: std::hint::black_box(buf.add(len)),
            n_left: 0,
        };
        // The pivot is compared in a copy on the stack, passed to the loop
        // by reference: the compiler then knows that the buffer's stores
        // leave it alone and keeps it (for `f64`s, its `total_cmp` key) in
        // registers, where the pivot in the slice or the buffer was loaded
        // and converted again for each element (measurements:
        // `docs/benchmarks.md`, section "Why the sorts' constants are what
        // they are"). This copy is the one that ends in the slice: `held`
        // writes it over the pivot's place when dropped, its old place if
        // `goes_left` panics, its new place after the copy back, so whatever
        // a comparator changes through a shared reference stays, and the
        // stale copy moved with the others is overwritten.
        let mut held = Hole {
            element: ManuallyDrop::new(ptr::read(src.add(pivot))),
            dest: src.add(pivot),
        };
        let put_all = |fill: &mut Fill<T>, pivot: &T, from: usize, to: usize| {
            // Four at a time: the loop's own counting is a fair part of the
            // cost of one element of `u64`s.
            let mut at = src.add(from);
            for _ in 0..(to - from) / 4 {
                for k in 0..4 {
                    fill.put(at.add(k), goes_left(&*at.add(k), pivot));
                }
                at = at.add(4);
            }
            for k in 0..(to - from) % 4 {
                fill.put(at.add(k), goes_left(&*at.add(k), pivot));
            }
        };
        // Puts the element at `at`, the pivot by fiat and another by
        // comparison, and returns how many went left before it and its side.
        let put_one = |fill: &mut Fill<T>, at: usize| {
            let left = if at == pivot {
                pivot_left
            } else {
                goes_left(&*src.add(at), &held.element)
            };
            let before = fill.n_left;
            fill.put(src.add(at), left);
            (before, left)
        };
        // The elements before the pivot (and the tracked one), the pivot
        // (and the tracked one), the rest.
        let (first, second) = match track {
            Some(t) => (t.min(pivot), t.max(pivot)),
            None => (pivot, len),
        };
        put_all(&mut fill, &held.element, 0, first);
        let first_rank = put_one(&mut fill, first);
        let (mut second_rank, mut rest) = ((0, false), first + 1);
        if second < len {
            put_all(&mut fill, &held.element, first + 1, second);
            second_rank = put_one(&mut fill, second);
            rest = second + 1;
        }
        put_all(&mut fill, &held.element, rest, len);
        let n_left = fill.n_left;
        // Copy back: the left side in order, the right side (which filled
        // `buf` from its end down) reversed.
        ptr::copy_nonoverlapping(buf, src, n_left);
        let (mut from, end) = (buf.add(len), src.add(len));
        let mut to = src.add(n_left);
        while to < end {
            from = from.sub(1);
            ptr::copy_nonoverlapping(from, to, 1);
            to = to.add(1);
        }
        // An element put with `before` gone left ends at `before` on the
        // left, or after the left side and the `at - before` gone right
        // before it.
        let new_index = |at: usize, (before, left): (usize, bool)| {
            if left { before } else { n_left + (at - before) }
        };
        let new_first = new_index(first, first_rank);
        let result = match track {
            None => (n_left, new_first, None),
            Some(t) if t < pivot => (n_left, new_index(second, second_rank), Some(new_first)),
            Some(_) => (n_left, new_first, Some(new_index(second, second_rank))),
        };
        held.dest = src.add(result.1);
        result
    }
}

/// Sorts `v` (at most [`SMALL_MAX`] elements) stably with the scratch space at
/// `buf`: each half is sorted into the buffer, its first eight by two networks
/// of four merged on the stack (its first four by one network, if the half is
/// shorter or the elements larger than 128 bytes) and the rest inserted one by
/// one, and the halves are merged back into `v` ([`merge_halves_into`]). The
/// networks and merges choose without branches; the insertions branch on
/// every answer, and random input mispredicts about half of those, so they
/// are kept few (measurements: `docs/benchmarks.md`, section "Instructions
/// per sort, one worker").
///
/// Panic safety: the comparator looks at the copies in the buffer once they
/// are there, so those are the elements `v` must end with (a comparator may
/// change them through a shared reference). A guard ([`Taken`]) copies each
/// half's part of the buffer back over its places in `v` (which hold the same
/// elements) if the comparator panics; the insertion's own guard first puts
/// the element it holds back into the buffer. The merge back into `v` has a
/// guard of its own. Types no comparator can change ([`is_frozen`]) need no
/// guard: a panic leaves `v`, which is only read, whole.
///
/// # Safety
/// `buf` has room for `v.len()` elements and does not overlap `v`.
pub(super) unsafe fn small_sort<T, F>(v: &mut [T], buf: *mut T, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    if len < INSERTION_BELOW {
        insertion_sort(v, compare);
        return;
    }
    let half = len / 2;
    let src = v.as_mut_ptr();
    let mut taken = Taken {
        src,
        buf,
        half,
        filled: [0, 0],
    };
    // SAFETY: both halves hold at least four elements; every place read is in
    // `v` and every place written in the first `len` places of `buf`. Each
    // half's first `filled` places of the buffer hold the elements of its
    // first `filled` places of `v` (see `Taken`), and `filled` grows only once
    // they do, or once a merge whose guard fills them is called; the
    // insertions move elements within that range only.
    unsafe {
        for (h, (start, end)) in [(0, half), (half, len)].into_iter().enumerate() {
            let run = buf.add(start);
            let sorted = if end - start >= 8 && size_of::<T>() <= 128 {
                sort8_into(src.add(start), run, &mut taken.filled[h], compare);
                8
            } else {
                sort4_into(src.add(start), run, compare);
                4
            };
            let n = end - start;
            if is_frozen::<T>() {
                // No comparator can change an element of `T`: the buffer's
                // copies stay equal to `v`'s elements, which nothing writes
                // before the merge, so a panic leaves `v` whole as it is.
                taken.filled[h] = 0;
                for i in sorted..n {
                    insert_copy(src.add(start + i), run, i, compare);
                }
            } else {
                // The rest of the half joins the run in the buffer at once,
                // and is inserted there: the comparator then sees only the
                // buffer's copies, which `taken` moves back into `v` if it
                // panics.
                ptr::copy_nonoverlapping(src.add(start + sorted), run.add(sorted), n - sorted);
                taken.filled[h] = n;
                for i in sorted..n {
                    insert_tail(std::slice::from_raw_parts_mut(run, i + 1), compare);
                }
            }
        }
        // The merge's own guard fills `v` whatever happens.
        taken.filled = [0, 0];
        merge_halves_into(buf, len, src, compare);
    }
}

/// Copies the element at `x` into the sorted `run[..i]`, after those not
/// greater (stable), shifting the greater ones up: `run[..=i]` is then
/// sorted. For types no comparator can change ([`is_frozen`]): a panic leaves
/// `run` with an element twice and another lost, which only a caller that
/// never moves `run` back may allow.
///
/// # Safety
/// `x` is an element outside `run`, which has room for `i + 1` and holds `i`.
#[inline(always)]
unsafe fn insert_copy<T, F>(x: *const T, run: *mut T, i: usize, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    // SAFETY: every place touched is in `run[..=i]` (the caller's contract).
    unsafe {
        let mut hole = i;
        while hole > 0 && is_less(compare, &*x, &*run.add(hole - 1)) {
            ptr::copy_nonoverlapping(run.add(hole - 1), run.add(hole), 1);
            hole -= 1;
        }
        ptr::copy_nonoverlapping(x, run.add(hole), 1);
    }
}

/// Sorts the eight elements at `src` stably into `dst`: two networks of four
/// into a buffer on the stack, merged into `dst`. Sets `*filled` to 8 just
/// before the merge, whose guard fills `dst` also if the comparator panics.
/// Its own function, so that only a call reserves the buffer on the stack
/// (the caller's frame would reserve it for every element size in a build
/// without optimisations).
///
/// # Safety
/// `src` holds eight elements; `dst` has room for eight and does not overlap
/// `src`.
unsafe fn sort8_into<T, F>(src: *const T, dst: *mut T, filled: &mut usize, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    let mut fours = std::mem::MaybeUninit::<[T; 8]>::uninit();
    let fours = fours.as_mut_ptr().cast::<T>();
    // SAFETY: the networks read `src`'s eight places and write the stack
    // buffer's, which the merge reads; the merge writes `dst`'s eight. The
    // networks compare `src`'s elements, so until the merge those are the
    // elements to keep.
    unsafe {
        sort4_into(src, fours, compare);
        sort4_into(src.add(4), fours.add(4), compare);
        *filled = 8;
        merge_halves_into(fours, 8, dst, compare);
    }
}

/// The halves of [`small_sort`] being sorted into the buffer: the first
/// `filled[h]` places of half `h` in `buf` hold the elements of its first
/// `filled[h]` places in `src`, in some order, possibly changed by the
/// comparator. Dropped, it copies them back over `src`'s places.
struct Taken<T> {
    src: *mut T,
    buf: *mut T,
    half: usize,
    filled: [usize; 2],
}

impl<T> Drop for Taken<T> {
    fn drop(&mut self) {
        // SAFETY: each range is within its half of both allocations, which do
        // not overlap, and `src`'s places hold stale copies of the same
        // elements (`Taken`'s invariant).
        unsafe {
            ptr::copy_nonoverlapping(self.buf, self.src, self.filled[0]);
            ptr::copy_nonoverlapping(
                self.buf.add(self.half),
                self.src.add(self.half),
                self.filled[1],
            );
        }
    }
}

/// Where a partition puts the next element in its buffer of `len` places:
/// those going left fill it from the front, those going right from the back
/// down. After `i` elements, `rev` is `buf + len - i`, so the next right
/// place, `len - 1 - (i - n_left)`, is `rev - 1 + n_left`: each side's place
/// is one base plus `n_left`, picked without a branch.
struct Fill<T> {
    buf: *mut T,
    rev: *mut T,
    n_left: usize,
}

impl<T> Fill<T> {
    /// Copies `*x` to the next place of its side.
    ///
    /// # Safety
    /// Fewer than `len` elements were put so far.
    #[inline(always)]
    unsafe fn put(&mut self, x: *const T, left: bool) {
        // SAFETY: with `i < len` elements put, `n_left <= i`: the front place
        // `n_left` and the back place `len - 1 - (i - n_left)` are free and in
        // bounds (they are equal only when this is the last place).
        unsafe {
            self.rev = self.rev.sub(1);
            let base = if left { self.buf } else { self.rev };
            let place = base.add(self.n_left);
            ptr::copy_nonoverlapping(x, place, 1);
            self.n_left += left as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded xorshift sequence of values below `modulus`.
    fn random(len: usize, modulus: u64, seed: u64) -> Vec<u64> {
        let coin = super::super::test_coin(seed | 1);
        (0..len).map(|_| coin() % modulus).collect()
    }

    #[test]
    fn equal_keys_keep_their_order() {
        for modulus in [1, 2, 16, 1000, u64::MAX] {
            for len in (0..=80).chain([100, 257, 5000, 70_000]) {
                let keyed: Vec<(u64, usize)> =
                    random(len, modulus, (len as u64).wrapping_add(modulus))
                        .into_iter()
                        .zip(0..)
                        .collect();
                let mut want = keyed.clone();
                want.sort_by_key(|p| p.0);
                for few_distinct in [false, true] {
                    let mut got = keyed.clone();
                    stable_quicksort(
                        &mut got,
                        &|a: &(u64, usize), b: &(u64, usize)| a.0.cmp(&b.0),
                        few_distinct,
                    );
                    assert_eq!(got, want, "{len} values below {modulus}, {few_distinct}");
                }
            }
        }
    }

    #[test]
    fn an_inconsistent_comparator_leaves_a_permutation() {
        let coin = super::super::random_answers(3);
        for len in [30, 500, 20_000] {
            let input = random(len, 8, 5);
            let mut got = input.clone();
            stable_quicksort(&mut got, &coin, len > 400);
            got.sort();
            let mut want = input;
            want.sort();
            assert_eq!(got, want);
        }
    }
}
