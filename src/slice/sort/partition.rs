//! In-place two-way partition of a slice by a predicate.
//!
//! Three schemes, picked by the element size, none with a branch on the
//! predicate's answers in its main loop. One-word elements take a Lomuto pass
//! that swaps every element (a swap is two loads and two stores in
//! registers). Elements up to four words take a Lomuto pass that keeps one
//! element out of the slice and moves every other one twice: two copies per
//! element instead of a swap's three. (A swap of two-word elements goes
//! through the stack, one more store each iteration's loads wait on, so the
//! pass with a hole is the faster for them.) Larger elements take Hoare's
//! scheme by blocks, which only moves the elements on the wrong side, one swap
//! per pair, and collects them without branching: for them it costs fewer
//! instructions than the Lomuto pass, which moves every element, and fewer
//! mispredicted branches than a plain Hoare pass. (Measurements for all three
//! choices: `docs/benchmarks.md`, section "Why the sorts' constants are what
//! they are".)
//!
//! All only move an element after the predicate answered for it, and keep a
//! permutation of `v` at every call of the predicate (the element held out is
//! written back by a guard if the predicate panics), so none panics on its
//! own or loses an element, whatever the predicate answers.

use std::mem::ManuallyDrop;
use std::ptr;

use super::insertion::Hole;

/// Elements up to this size are partitioned by swaps.
const SWAP_MAX_SIZE: usize = 8;

/// Elements up to this size are partitioned by the Lomuto pass with a hole.
const BRANCHLESS_MAX_SIZE: usize = 32;

/// Moves the elements for which `goes_left` holds to the front of `v`, keeping
/// the others behind them, and returns how many went left. Not stable.
pub(super) fn partition<T, P>(v: &mut [T], goes_left: P) -> usize
where
    P: FnMut(&T) -> bool,
{
    if size_of::<T>() <= SWAP_MAX_SIZE {
        swapping_lomuto(v, goes_left)
    } else if size_of::<T>() <= BRANCHLESS_MAX_SIZE {
        cyclic_lomuto(v, goes_left)
    } else {
        block_hoare(v, goes_left)
    }
}

/// Partitions `v` around its element at `pivot` for a piece that looks
/// nearly sorted, keeping both sides nearly sorted: the pivot is rotated to
/// the front (the elements before it shift up one place, in order), the rest
/// is partitioned by Hoare's scheme, which only swaps the pairs found on the
/// wrong sides (with predictable branches here), and the pivot is rotated back
/// between the sides. A Lomuto pass would carry elements of the right side
/// along, and parking the pivot by a swap would put an element out of place,
/// both scattering what partitions below could skip. Returns the pivot's new
/// index: the elements before it are those `less` than it.
pub(super) fn partition_around<T, L>(v: &mut [T], pivot: usize, less: L) -> usize
where
    L: Fn(&T, &T) -> bool,
{
    v[..=pivot].rotate_right(1);
    let (p, rest) = v.split_first_mut().expect("the pivot is in `v`");
    let n_less = hoare(rest, |x| less(x, p));
    v[..=n_less].rotate_left(1);
    n_less
}

/// Branch-free Lomuto by swaps: every element is swapped with the first one
/// that did not go left, and the boundary advances by the predicate's answer.
///
/// Two elements per turn, walking a pointer: the compiler does not unroll the
/// loop by itself for elements of several fields (`(u32, u32)`), and the loop
/// it unrolls for one-field ones, by index, addresses every element at an
/// offset from the slice's start. In the sequential sort that offset made the
/// loop 69 bytes long, over two 64-byte lines, and its partitions slower per
/// element than the same instructions in a loop alone (the placement is the
/// likeliest cause); this loop fits in one line. The pass with a hole below
/// walks the same way. (Measurements: `docs/benchmarks.md`, section "Why the
/// sorts' constants are what they are".)
fn swapping_lomuto<T, P>(v: &mut [T], mut goes_left: P) -> usize
where
    P: FnMut(&T) -> bool,
{
    let mut n_left = 0;
    let base = v.as_mut_ptr();
    // SAFETY: `base + n_left <= current`, both among `v`'s places (each
    // element adds at most one to `n_left`). The reference given to
    // `goes_left` ends before the swap; `ptr::swap` allows the two places to
    // be the same.
    unsafe {
        walk_two_per_turn(base, v.len(), |current| {
            let left = goes_left(&*current);
            ptr::swap(base.add(n_left), current);
            n_left += left as usize;
        });
    }
    n_left
}

/// Calls `visit` with each of the `n` places from `from` on, in order, two per
/// turn of the loop (see [`swapping_lomuto`]). Counted rather than bounded by
/// an end pointer, so that zero-sized elements, whose places all coincide, are
/// visited too.
///
/// # Safety
/// The `n` places from `from` are places of one slice.
#[inline(always)]
unsafe fn walk_two_per_turn<T>(from: *mut T, n: usize, mut visit: impl FnMut(*mut T)) {
    let mut current = from;
    // SAFETY: every place visited is one of the `n` from `from`.
    unsafe {
        for _ in 0..n / 2 {
            visit(current);
            visit(current.add(1));
            current = current.add(2);
        }
        if n % 2 == 1 {
            visit(current);
        }
    }
}

/// Branch-free Lomuto with a hole.
///
/// The first element is held out, leaving a hole. Before element `i` is
/// placed, `v[..n_left]` went left, `v[n_left..i - 1]` did not, and the hole is
/// at `i - 1`. Placing `v[i]`: the first element that did not go left moves
/// into the hole (the end of its group), `v[i]` moves into its place, the hole
/// moves to `i`, and `n_left` grows by the predicate's answer. If `v[i]` went
/// left it stays at the end of the left group; if not, it is the first of the
/// right group, which is still contiguous. The held element is placed last by
/// the same two moves.
fn cyclic_lomuto<T, P>(v: &mut [T], mut goes_left: P) -> usize
where
    P: FnMut(&T) -> bool,
{
    let len = v.len();
    if len == 0 {
        return 0;
    }
    let base = v.as_mut_ptr();
    // SAFETY: every pointer is one of `v`'s places: `base + n_left <=
    // hole.dest < current`, the current one among the `len - 1` after the
    // first. At every call of `goes_left` exactly one place,
    // `hole.dest`, is empty and its element is in `hole`, whose drop writes it
    // back, also when `goes_left` panics. The move into the hole may come from
    // the hole itself (when `base + n_left == hole.dest`), hence `ptr::copy`;
    // the move of the current element to `base + n_left` never overlaps
    // (`n_left` is below the current index). The references given to
    // `goes_left` end before anything moves.
    unsafe {
        let mut hole = Hole {
            element: ManuallyDrop::new(ptr::read(base)),
            dest: base,
        };
        let mut n_left = 0;
        // Places `current`: the first element that did not go left moves
        // into the hole, `current` into its place, and the hole to `current`.
        walk_two_per_turn(base.add(1), len - 1, |current| {
            let left = goes_left(&*current);
            let first_right = base.add(n_left);
            ptr::copy(first_right, hole.dest, 1);
            ptr::copy_nonoverlapping(current, first_right, 1);
            hole.dest = current;
            n_left += left as usize;
        });
        let left = goes_left(&hole.element);
        let first_right = base.add(n_left);
        ptr::copy(first_right, hole.dest, 1);
        // Dropping the hole writes the held element at `first_right`.
        hole.dest = first_right;
        n_left + left as usize
    }
}

/// Elements per block of [`block_hoare`]: offsets within a block fit a `u8`.
const BLOCK: usize = 64;

/// Hoare's partition by blocks (the scheme of BlockQuicksort): a block at
/// each end is scanned without a branch, noting the offsets of its elements
/// on the wrong side, then as many of those pairs as both blocks have are
/// swapped; a block whose misplaced elements are all swapped is done. Only
/// misplaced elements move, as in [`hoare`], but the predicate's answers are
/// never branched on. Once at most two blocks' worth is left, the last blocks
/// are cut to cover exactly what no block has scanned, so every element is
/// asked once, as Rayon's sort does too: asking the rest of a half-done block
/// again would call the comparator more often than Rayon's sort (measurements:
/// `docs/benchmarks.md`, section "Why the sorts' constants are what they
/// are").
/// The misplaced elements left in the one block not done then move to the
/// far end of the unsettled part, one swap each.
fn block_hoare<T, P>(v: &mut [T], mut goes_left: P) -> usize
where
    P: FnMut(&T) -> bool,
{
    let base = v.as_mut_ptr();
    // `v[..l]` goes left and `v[r..]` right; the blocks are `v[l..l + len_l]`
    // and `v[r - len_r..r]`, with `(start, end)` their pending offsets.
    let (mut l, mut r) = (0, v.len());
    let (mut offsets_l, mut offsets_r) = ([0u8; BLOCK], [0u8; BLOCK]);
    let (mut start_l, mut end_l, mut start_r, mut end_r) = (0, 0, 0, 0);
    let (mut len_l, mut len_r) = (BLOCK, BLOCK);
    loop {
        let last = r - l <= 2 * BLOCK;
        if last {
            // A block with pending offsets is a whole one: the other takes
            // what is left between them; with none pending they share it.
            let unscanned = r
                - l
                - if start_l < end_l || start_r < end_r {
                    BLOCK
                } else {
                    0
                };
            if start_l < end_l {
                len_r = unscanned;
            } else if start_r < end_r {
                len_l = unscanned;
            } else {
                len_l = unscanned / 2;
                len_r = unscanned - len_l;
            }
        }
        // SAFETY: `len_l + len_r <= r - l` (two whole blocks before the last
        // turn, and then exactly what lies between the blocks), so both blocks
        // are in bounds and disjoint; an offset is written at
        // `end <= i < len <= BLOCK`; the swapped places are one in each block.
        // References given to `goes_left` end before anything moves, and only
        // whole swaps move elements, so a panic leaves a permutation.
        unsafe {
            if start_l == end_l {
                (start_l, end_l) = (0, 0);
                for i in 0..len_l {
                    *offsets_l.get_unchecked_mut(end_l) = i as u8;
                    end_l += !goes_left(&*base.add(l + i)) as usize;
                }
            }
            if start_r == end_r {
                (start_r, end_r) = (0, 0);
                for i in 0..len_r {
                    *offsets_r.get_unchecked_mut(end_r) = i as u8;
                    end_r += goes_left(&*base.add(r - 1 - i)) as usize;
                }
            }
            let pairs = (end_l - start_l).min(end_r - start_r);
            for k in 0..pairs {
                let a = base.add(l + *offsets_l.get_unchecked(start_l + k) as usize);
                let b = base.add(r - 1 - *offsets_r.get_unchecked(start_r + k) as usize);
                ptr::swap_nonoverlapping(a, b, 1);
            }
            start_l += pairs;
            start_r += pairs;
        }
        if start_l == end_l {
            l += len_l;
        }
        if start_r == end_r {
            r -= len_r;
        }
        if last {
            break;
        }
    }
    // At most one block is not done, and it is all that lies between `l` and
    // `r`: its pending elements go to its far end, the latest first, each
    // swapped with the last place not yet known to be on its right side
    // (pending places past it have already moved there).
    if start_l < end_l {
        while start_l < end_l {
            end_l -= 1;
            r -= 1;
            v.swap(l + offsets_l[end_l] as usize, r);
        }
        r
    } else {
        while start_r < end_r {
            end_r -= 1;
            v.swap(r - 1 - offsets_r[end_r] as usize, l);
            l += 1;
        }
        l
    }
}

/// Hoare's partition: scans from both ends and swaps the pairs found on the
/// wrong sides. Any answers of `goes_left` keep both scans inside `v`.
fn hoare<T, P>(v: &mut [T], mut goes_left: P) -> usize
where
    P: FnMut(&T) -> bool,
{
    let (mut l, mut r) = (0, v.len());
    loop {
        while l < r && goes_left(&v[l]) {
            l += 1;
        }
        while l < r && !goes_left(&v[r - 1]) {
            r -= 1;
        }
        if l >= r {
            return l;
        }
        r -= 1;
        v.swap(l, r);
        l += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The swapping pass splits at the right place and keeps every element, on
    /// one-field elements and on elements of two fields, for every length
    /// parity (two per turn and one last) and with a predicate that answers at random.
    #[test]
    fn swapping_lomuto_partitions_and_keeps_a_permutation() {
        fn check<T: Ord + Clone + std::fmt::Debug>(v: Vec<T>, pivot: &T, coin: &dyn Fn() -> u64) {
            let mut want = v.clone();
            want.sort();
            let mut got = v.clone();
            let n = swapping_lomuto(&mut got, |x| x < pivot);
            assert_eq!(n, v.iter().filter(|x| *x < pivot).count());
            assert!(got[..n].iter().all(|x| x < pivot), "{got:?}");
            assert!(got[n..].iter().all(|x| x >= pivot), "{got:?}");
            got.sort();
            assert_eq!(got, want);
            let mut got = v.clone();
            swapping_lomuto(&mut got, |_| coin() % 2 == 0);
            got.sort();
            assert_eq!(got, want, "a permutation");
        }
        let coin = super::super::test_coin(12);
        for len in (0..40).chain([127, 128, 129, 700]) {
            let raw: Vec<u64> = (0..len).map(|_| coin() % 20).collect();
            check(raw.clone(), &10, &coin);
            let pairs: Vec<(u32, u32)> = raw
                .iter()
                .map(|&x| ((x / 4) as u32, (x % 4) as u32))
                .collect();
            check(pairs, &(2, 2), &coin);
        }
    }

    /// Zero-sized elements, whose places all coincide, are each asked about
    /// once, as elements of any other size are.
    #[test]
    fn zero_sized_elements_are_each_asked() {
        for len in [0, 1, 2, 7, 64] {
            let mut v = vec![(); len];
            let mut asked = 0;
            let n = swapping_lomuto(&mut v, |_| {
                asked += 1;
                asked % 3 == 0
            });
            assert_eq!(asked, len);
            assert_eq!(n, len / 3);
        }
    }

    /// All schemes split at the right place, keep every element, and survive
    /// predicates that answer at random or panic; the branch-free ones ask
    /// for each element once.
    #[test]
    fn all_schemes_partition_and_keep_a_permutation() {
        let coin = super::super::test_coin(11);
        for len in (0..100).chain([127, 128, 129, 143, 144, 200, 256, 257, 700]) {
            let v: Vec<u64> = (0..len).map(|_| coin() % 20).collect();
            let mut want = v.clone();
            want.sort();
            for which in 0..3 {
                let scheme = |v: &mut [u64], p: &mut dyn FnMut(&u64) -> bool| match which {
                    0 => hoare(v, p),
                    1 => cyclic_lomuto(v, p),
                    _ => block_hoare(v, p),
                };
                let mut got = v.clone();
                let asked = std::cell::Cell::new(0);
                let n = scheme(&mut got, &mut |x: &u64| {
                    asked.set(asked.get() + 1);
                    *x < 10
                });
                // Plain Hoare asks again for the element where its scans meet.
                if which != 0 {
                    assert_eq!(asked.get(), len, "each element asked once");
                }
                assert_eq!(n, v.iter().filter(|x| **x < 10).count());
                assert!(got[..n].iter().all(|x| *x < 10));
                assert!(got[n..].iter().all(|x| *x >= 10));
                got.sort();
                assert_eq!(got, want);

                let mut got = v.clone();
                let n = scheme(&mut got, &mut |_: &u64| coin() % 2 == 0);
                assert!(n <= len);
                got.sort();
                assert_eq!(got, want, "a permutation");

                let mut got = v.clone();
                let calls = std::cell::Cell::new(0);
                let stop = len / 2;
                let mut panicky = |_: &u64| {
                    calls.set(calls.get() + 1);
                    assert!(calls.get() <= stop, "stop here");
                    coin() % 2 == 0
                };
                let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    scheme(&mut got, &mut panicky)
                }));
                assert_eq!(caught.is_err(), len > stop);
                got.sort();
                assert_eq!(got, want, "a permutation after a panic");
            }
        }
    }
}
