//! The sort of the quicksort's shortest pieces: a sorting network for the first
//! eight elements, then insertion of the rest.
//!
//! A network's comparisons do not depend on earlier answers, and each of its
//! exchanges is made by selects rather than a branch, so it costs no
//! mispredicted branches, where an insertion sort mispredicts about once per
//! element. Each exchange asks the comparator first and only then moves the
//! two elements, so a panic or any answer leaves a permutation of the slice.

use std::cmp::Ordering;
use std::mem::ManuallyDrop;
use std::ptr;

use super::insertion::{insertion_sort, insertion_sort_from};
use super::is_less;

/// The exchanges of a sorting network of eight inputs (19, the fewest known),
/// in an order where each exchange depends only on earlier ones.
const NETWORK_8: [(usize, usize); 19] = [
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (2, 4),
    (3, 5),
    (1, 4),
    (3, 6),
    (1, 2),
    (3, 4),
    (5, 6),
];

/// Elements larger than this are not put through the network: its exchanges
/// move elements that an insertion sort would leave in place, which costs more
/// than the mispredictions it saves once elements are large.
const NETWORK_MAX_SIZE: usize = 32;

/// Sorts `v` (a short piece), not stably.
pub(super) fn small_sort<T, F>(v: &mut [T], compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    if v.len() < 8 || size_of::<T>() > NETWORK_MAX_SIZE {
        insertion_sort(v, compare);
        return;
    }
    let head = &mut v[..8];
    for &(a, b) in &NETWORK_8 {
        exchange_if_less(head, a, b, compare);
    }
    insertion_sort_from(v, 8, compare);
}

/// Puts the lesser of `v[a]` and `v[b]` (`a < b`) at `a`, without a branch.
#[inline(always)]
fn exchange_if_less<T, F>(v: &mut [T], a: usize, b: usize, compare: &F)
where
    F: Fn(&T, &T) -> Ordering,
{
    assert!(a < b && b < v.len());
    let base = v.as_mut_ptr();
    // SAFETY: `a < b < v.len()` (checked above; the checks fold away for the
    // network's constants), so both pointers are in bounds and distinct. The
    // comparator is done before anything moves, and between the read and the
    // two writes nothing can panic, so every element ends in exactly one place.
    unsafe {
        let (pa, pb) = (base.add(a), base.add(b));
        let swap = is_less(compare, &*pb, &*pa);
        // Selects, not branches: the lesser goes to `a`, the other to `b`.
        let low = if swap { pb } else { pa };
        let high = if swap { pa } else { pb };
        let held = ManuallyDrop::new(ptr::read(high));
        ptr::copy(low, pa, 1);
        ptr::copy_nonoverlapping(&*held, pb, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network sorts every sequence of zeros and ones of length eight, so
    /// it sorts everything (the zero-one principle).
    #[test]
    fn network_sorts_all_zero_one_inputs() {
        for bits in 0u32..256 {
            let mut v: Vec<u32> = (0..8).map(|i| (bits >> i) & 1).collect();
            for &(a, b) in &NETWORK_8 {
                exchange_if_less(&mut v, a, b, &u32::cmp);
            }
            assert!(v.windows(2).all(|w| w[0] <= w[1]), "{bits:08b}: {v:?}");
        }
    }

    #[test]
    fn sorts_and_keeps_a_permutation_whatever_the_comparator() {
        let coin = super::super::test_coin(5);
        for len in 0..40 {
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
        }
    }
}
