//! The sort of the quicksort's shortest pieces: for one-word elements, a
//! sorting network of the piece's length (8 to 16), and for pieces of 17 to 32
//! elements one merge of two such sorted halves; for elements of 33 to 128
//! bytes, the stable quicksort's small sort (blocks of four and eight sorted
//! and merged without branches into a buffer on the stack, the rest inserted,
//! the halves merged back); for elements of 9 to 32 bytes or over 128, and
//! pieces of fewer than 8, insertion alone.
//!
//! For elements of 33 to 128 bytes that small sort is faster than insertion
//! (measured on 64-byte records): its branch-free blocks save more
//! mispredicted branches than its merges cost in instructions. For
//! `(u64, u64)` and `String`s it saves mispredictions too, but no time, so
//! they keep insertion (measurements: `docs/benchmarks.md`, section "Why the
//! sorts' constants are what they are").
//!
//! A network's comparisons do not depend on earlier answers, and each of its
//! exchanges is made by selects rather than a branch, so it costs no
//! mispredicted branches, where an insertion sort mispredicts about once per
//! element. So a piece is sorted by the network of its own length, picked by a
//! jump (one indirect branch, mispredicted about once per piece on random
//! input); a longer piece sorts its two halves so, copies them to a buffer on
//! the stack, and merges them back from both ends at once, again with selects.
//! Fewer networks (of 8, 12 and 16 inputs) with the at most three elements
//! past them inserted would mispredict more and take longer on one-word
//! elements, though a little less time on pairs of `u32`s, whose exchanges
//! compare two fields (measurements: `docs/benchmarks.md`, section "Why the
//! sorts' constants are what they are").
//!
//! Each exchange asks the comparator first and only then moves the two
//! elements, and the merge's guard moves back whatever it has not merged when
//! the comparator panics or contradicts itself, so any answer leaves a
//! permutation of the slice.

use std::cmp::Ordering;
use std::mem::{ManuallyDrop, MaybeUninit};
use std::ptr;

use super::insertion::insertion_sort;
use super::is_less;
use super::par_merge::merge_halves_into;
use super::stable_quicksort::small_sort as stable_small_sort;

/// Elements larger than this are sorted by insertion alone: a network's
/// exchanges and the merge move elements that an insertion sort would leave in
/// place. Only for one-word elements does an exchange compile to a compare and
/// two conditional moves in registers; for two words (`(u64, u64)`) it goes
/// through memory, each exchange waiting on the stores of the one before, so
/// insertion sorts them faster despite more mispredictions, and `String`s
/// too (measurements: `docs/benchmarks.md`, section "Why the sorts' constants
/// are what they are").
const NETWORK_MAX_SIZE: usize = 8;

/// The longest piece the small sort takes, for elements of at most
/// [`NETWORK_MAX_SIZE`] bytes (two halves of up to 16, each one network).
pub(super) const SMALL_SORT_MAX: usize = 32;

/// The longest piece the small sort takes for elements of up to 32 bytes too
/// large for the networks (insertion): shorter pieces than for larger
/// elements, since a partition pass costs these less than the insertion's
/// quadratic moves (16 makes fewer instructions than 20 or 24 on `(u64, u64)`
/// and `String`s; measurements: `docs/benchmarks.md`, section "Why the sorts'
/// constants are what they are").
const SHORT_INSERTION_MAX: usize = 16;

/// Elements larger than this take the stable quicksort's small sort up to
/// 128 bytes, and [`INSERTION_SORT_MAX`] beyond.
const SHORT_INSERTION_MAX_SIZE: usize = 32;

/// The longest piece the small sort takes for elements over 128 bytes
/// (insertion).
pub(super) const INSERTION_SORT_MAX: usize = 20;

/// Whether pieces of elements of `T` go to the stable quicksort's small sort
/// (sorted blocks of four and eight merged without branches, the rest inserted,
/// through a buffer on the stack) rather than to insertion alone.
const fn blocks_suit<T>() -> bool {
    size_of::<T>() > SHORT_INSERTION_MAX_SIZE && size_of::<T>() <= 128
}

/// The longest piece [`small_sort`] takes for elements of `T`.
#[inline(always)]
pub(super) const fn small_sort_max<T>() -> usize {
    if size_of::<T>() <= NETWORK_MAX_SIZE || blocks_suit::<T>() {
        SMALL_SORT_MAX
    } else if size_of::<T>() <= SHORT_INSERTION_MAX_SIZE {
        SHORT_INSERTION_MAX
    } else {
        INSERTION_SORT_MAX
    }
}

/// Sorts `v` (a short piece, at most [`small_sort_max`] long), not stably.
pub(super) fn small_sort<T, F>(v: &mut [T], compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    if blocks_suit::<T>() && len >= 8 {
        blocks_small_sort(v, compare);
        return;
    }
    if size_of::<T>() > NETWORK_MAX_SIZE || len < 8 {
        insertion_sort(v, compare);
        return;
    }
    if len <= 16 {
        network_for_length(v, compare);
        return;
    }
    networks_and_merge(v, compare);
}

/// The small sort of a piece of elements of 33 to 128 bytes: the stable
/// quicksort's, through a buffer on the stack. Its own function, as is
/// [`networks_and_merge`], so that only a call reserves its buffer on the
/// stack: a build without optimisations reserves every buffer of a function
/// in its frame, taken or not, and two of 32 elements of 128 KiB each
/// overflowed a thread's stack there.
fn blocks_small_sort<T, F>(v: &mut [T], compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    assert!(v.len() <= SMALL_SORT_MAX, "a piece for the small sort");
    let mut buf = MaybeUninit::<[T; SMALL_SORT_MAX]>::uninit();
    // SAFETY: the buffer has room for `SMALL_SORT_MAX >= len` elements, is
    // apart from `v`, and owns nothing (nothing in it is ever dropped).
    unsafe { stable_small_sort(v, buf.as_mut_ptr().cast::<T>(), compare) };
}

/// Sorts a piece of 17 to 32 one-word elements: each half by its network,
/// then the halves merged back through a buffer on the stack.
fn networks_and_merge<T, F>(v: &mut [T], compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    let len = v.len();
    assert!(len <= SMALL_SORT_MAX, "a piece for the small sort");
    let half = len / 2;
    let (front, back) = v.split_at_mut(half);
    network_for_length(front, compare);
    network_for_length(back, compare);
    let mut buf = MaybeUninit::<[T; SMALL_SORT_MAX]>::uninit();
    let buf = buf.as_mut_ptr().cast::<T>();
    // SAFETY: the buffer has room for `SMALL_SORT_MAX >= len` elements, is
    // apart from `v`, and owns nothing (nothing in it is ever dropped). It
    // receives bitwise copies of both sorted halves; the merge moves them
    // back into `v`, and its guard moves what it has not merged if the
    // comparator panics or contradicts itself, so `v` holds every element
    // once, as the merge compared it.
    unsafe {
        ptr::copy_nonoverlapping(v.as_ptr(), buf, len);
        merge_halves_into(buf, len, v.as_mut_ptr(), compare);
    }
}

/// Sorts `v` (8 to 16 elements) by the network of its length.
///
/// One function, called from the three places that sort a piece, not inlined
/// at each: the nine networks hold 360 exchanges, and three copies of them
/// make the small sort's code larger than the processor's first cache of
/// instructions, above all for `(u32, u32)` (whose exchanges compare two
/// fields). One copy fits, and misses that cache far less often for the same
/// instructions (measurements: `docs/benchmarks.md`, section "Why the sorts'
/// constants are what they are").
#[inline(never)]
fn network_for_length<T, F>(v: &mut [T], compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    match v.len() {
        8 => network_8(v, compare),
        9 => network_9(v, compare),
        10 => network_10(v, compare),
        11 => network_11(v, compare),
        12 => network_12(v, compare),
        13 => network_13(v, compare),
        14 => network_14(v, compare),
        15 => network_15(v, compare),
        16 => network_16(v, compare),
        // Not reached: the callers give 8 to 16 elements.
        _ => insertion_sort(v, compare),
    }
}

/// Defines a function that runs a sorting network on the front of a slice,
/// its exchanges written out so that each compiles to a compare and selects
/// on fixed places.
macro_rules! network {
    ($(#[$doc:meta])* $name:ident, $inputs:literal, [$(($a:literal, $b:literal)),* $(,)?]) => {
        $(#[$doc])*
        #[inline(always)]
        fn $name<T, F>(v: &mut [T], compare: &F)
        where
            F: Fn(&T, &T) -> Ordering,
        {
            let v = &mut v[..$inputs];
            $(exchange_if_less(v, $a, $b, compare);)*
        }
    };
}

network!(
    /// Sorts the first 8 elements of `v`: 19 exchanges, the fewest known.
    network_8, 8,
    [(0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7), (0, 1), (2, 3),
     (4, 5), (6, 7), (2, 4), (3, 5), (1, 4), (3, 6), (1, 2), (3, 4), (5, 6)]
);

/// Defines the functions that run Batcher's merge-exchange network (Knuth, The
/// Art of Computer Programming 5.2.2, Algorithm M) on the first 9 to 16
/// elements of a slice, its exchanges in the order of its stages, so the
/// exchanges of a stage do not wait on each other. For 9 to 16 inputs the
/// algorithm's passes are the same (its `t` is 4), and the network of `n`
/// inputs is the 16-input one without the exchanges that reach place `n` or
/// beyond: one list serves all eight, an exchange past the length left out at
/// compile time (a comparison of two constants).
macro_rules! merge_exchange_networks {
    ([$(($name:ident, $inputs:literal)),* $(,)?], $exchanges:tt) => {
        $(merge_exchange_networks!(@one $name, $inputs, $exchanges);)*
    };
    (@one $name:ident, $inputs:literal, [$(($a:literal, $b:literal)),* $(,)?]) => {
        #[doc = concat!("Sorts the first ", $inputs, " elements of `v`: Batcher's merge-exchange network.")]
        #[inline(always)]
        fn $name<T, F>(v: &mut [T], compare: &F)
        where
            F: Fn(&T, &T) -> Ordering,
        {
            let v = &mut v[..$inputs];
            $(if $b < $inputs {
                exchange_if_less(v, $a, $b, compare);
            })*
        }
    };
}

merge_exchange_networks! {
    [(network_9, 9), (network_10, 10), (network_11, 11), (network_12, 12),
     (network_13, 13), (network_14, 14), (network_15, 15), (network_16, 16)],
    [(0, 8), (1, 9), (2, 10), (3, 11), (4, 12), (5, 13), (6, 14), (7, 15), (0, 4), (1, 5),
     (2, 6), (3, 7), (8, 12), (9, 13), (10, 14), (11, 15), (4, 8), (5, 9), (6, 10),
     (7, 11), (0, 2), (1, 3), (4, 6), (5, 7), (8, 10), (9, 11), (12, 14), (13, 15), (2, 8),
     (3, 9), (6, 12), (7, 13), (2, 4), (3, 5), (6, 8), (7, 9), (10, 12), (11, 13), (0, 1),
     (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (14, 15), (1, 8), (3, 10),
     (5, 12), (7, 14), (1, 4), (3, 6), (5, 8), (7, 10), (9, 12), (11, 14), (1, 2), (3, 4),
     (5, 6), (7, 8), (9, 10), (11, 12), (13, 14)]
}

/// Puts the lesser of `v[a]` and `v[b]` (`a < b`) at `a`, without a branch.
///
/// Both elements are read into registers, compared there, and written back
/// in order: the selects choose values, so the next exchange's loads do not
/// wait on addresses chosen by this one's answer. Selecting the pointers and
/// copying through them instead costs more instructions, more mispredictions
/// and more time (measurements: `docs/benchmarks.md`, section "Why the sorts'
/// constants are what they are").
#[inline(always)]
fn exchange_if_less<T, F>(v: &mut [T], a: usize, b: usize, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    assert!(a < b && b < v.len());
    let base = v.as_mut_ptr();
    // SAFETY: `a < b < v.len()` (checked above; the checks fold away for the
    // network's constants), so both pointers are in bounds and distinct. The
    // pair holds bitwise copies of both elements while the comparator looks
    // at them (so what it changes through interior mutability is kept), and
    // its drop writes both back, ordered by the answer or, if the comparator
    // panics, as they were: every element ends in exactly one place.
    unsafe {
        let (pa, pb) = (base.add(a), base.add(b));
        let mut pair = Pair {
            a: ManuallyDrop::new(ptr::read(pa)),
            b: ManuallyDrop::new(ptr::read(pb)),
            pa,
            pb,
            swap: false,
        };
        pair.swap = is_less(compare, &pair.b, &pair.a);
    }
}

/// Two elements read out of their places `pa` and `pb`, written back when
/// dropped: exchanged if `swap`.
struct Pair<T> {
    a: ManuallyDrop<T>,
    b: ManuallyDrop<T>,
    pa: *mut T,
    pb: *mut T,
    swap: bool,
}

impl<T> Drop for Pair<T> {
    #[inline(always)]
    fn drop(&mut self) {
        // Selects, not branches: the lesser goes to `pa`, the other to `pb`.
        let (low, high) = if self.swap {
            (&self.b, &self.a)
        } else {
            (&self.a, &self.b)
        };
        // SAFETY: `pa` and `pb` are the distinct places the two elements were
        // read from, whose contents are stale copies now: each receives one
        // of the two, so nothing is dropped or duplicated.
        unsafe {
            ptr::copy_nonoverlapping(&**low, self.pa, 1);
            ptr::copy_nonoverlapping(&**high, self.pb, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each network sorts every sequence of zeros and ones of its length, so
    /// it sorts everything (the zero-one principle).
    #[test]
    fn networks_sort_all_zero_one_inputs() {
        type Net = fn(&mut [u32], &fn(&u32, &u32) -> Ordering);
        let nets: [(usize, Net); 9] = [
            (8, network_8),
            (9, network_9),
            (10, network_10),
            (11, network_11),
            (12, network_12),
            (13, network_13),
            (14, network_14),
            (15, network_15),
            (16, network_16),
        ];
        for (inputs, net) in nets {
            for bits in 0u32..1 << inputs {
                let mut v: Vec<u32> = (0..inputs).map(|i| (bits >> i) & 1).collect();
                net(&mut v, &(u32::cmp as fn(&u32, &u32) -> Ordering));
                assert!(
                    v.windows(2).all(|w| w[0] <= w[1]),
                    "{inputs}: {bits:b}: {v:?}"
                );
            }
        }
    }

    /// Every length the small sort takes, small and large elements: sorted
    /// with a consistent comparator, a permutation with one that answers at
    /// random, and every element once after a panic at any call.
    #[test]
    fn sorts_and_keeps_a_permutation_whatever_the_comparator() {
        let coin = super::super::test_coin(5);
        for len in 0..=SMALL_SORT_MAX {
            let v: Vec<u64> = (0..len).map(|_| coin() % 12).collect();
            let mut want = v.clone();
            want.sort();
            let mut got = v.clone();
            small_sort(&mut got, &u64::cmp);
            assert_eq!(got, want);
            let mut got = v.clone();
            small_sort(&mut got, &|_: &u64, _: &u64| {
                [Ordering::Less, Ordering::Greater][coin() as usize % 2]
            });
            got.sort();
            assert_eq!(got, want, "a permutation");
            for stop in [0, 1, len / 2, 2 * len] {
                let mut got = v.clone();
                let calls = std::cell::Cell::new(0);
                let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    small_sort(&mut got, &|a: &u64, b: &u64| {
                        calls.set(calls.get() + 1);
                        assert!(calls.get() <= stop, "stop here");
                        a.cmp(b)
                    })
                }));
                assert!(caught.is_ok() || calls.get() > stop);
                got.sort();
                assert_eq!(got, want, "a permutation after a panic at call {stop}");
            }
            if len <= small_sort_max::<[u64; 5]>() {
                let wide: Vec<[u64; 5]> = v.iter().map(|&x| [x; 5]).collect();
                let mut got = wide.clone();
                small_sort(&mut got, &<[u64; 5]>::cmp);
                let mut want = wide;
                want.sort();
                assert_eq!(got, want, "large elements");
            }
        }
    }
}
