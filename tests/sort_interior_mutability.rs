//! What a comparator changes in the elements through shared references (interior
//! mutability) stays in them, in every sort, as std's sorts promise: a sort that
//! compares an element in a copy and then keeps another copy of it would lose the
//! change (and, if the comparator moved something out, such as a `Box` from a
//! `Cell<Option<Box<_>>>`, leave a copy that still owns it: a double drop).

mod common;

use common::cases::on_pools;
use common::sort_inputs::{LENGTHS, shapes};
use prorata::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};

/// An element of `8 + P` bytes or more that counts the comparisons it took part in.
type Counted<const P: usize> = (u32, AtomicU32, [u8; P]);

/// Sorts `keys` as counted elements with each sort, stable and unstable, by an
/// order and by a comparator that is none; returns the cases whose elements'
/// counts do not add up to twice the comparator's calls.
fn lost_changes<const P: usize>(keys: &[u32]) -> Vec<String> {
    let mut lost = Vec::new();
    for (name, stable, order) in [
        ("par_sort_by", true, true),
        ("par_sort_unstable_by", false, true),
        ("par_sort_by, no order", true, false),
        ("par_sort_unstable_by, no order", false, false),
    ] {
        let mut v: Vec<Counted<P>> = keys
            .iter()
            .map(|&k| (k, AtomicU32::new(0), [0; P]))
            .collect();
        let calls = AtomicUsize::new(0);
        let compare = |a: &Counted<P>, b: &Counted<P>| {
            calls.fetch_add(1, Relaxed);
            a.1.fetch_add(1, Relaxed);
            b.1.fetch_add(1, Relaxed);
            if order {
                a.0.cmp(&b.0)
            } else {
                (a.0 ^ b.0).count_ones().cmp(&3)
            }
        };
        if stable {
            v.par_sort_by(compare);
        } else {
            v.par_sort_unstable_by(compare);
        }
        let mut got: Vec<u32> = v.iter().map(|x| x.0).collect();
        got.sort_unstable();
        let mut want = keys.to_vec();
        want.sort_unstable();
        assert_eq!(got, want, "{name}: a permutation");
        let counted: usize = v.iter().map(|x| x.1.load(Relaxed) as usize).sum();
        if counted != 2 * calls.load(Relaxed) {
            lost.push(format!("{name}, {} bytes", size_of::<Counted<P>>()));
        }
    }
    lost
}

#[test]
fn changes_a_comparator_makes_through_shared_references_stay() {
    let lengths = LENGTHS
        .iter()
        .chain(&[8, 16, 17, 18, 21, 24, 32, 33, 40, 64]);
    on_pools(|threads| {
        let mut failures = Vec::new();
        for (shape, make) in shapes() {
            for &len in lengths.clone() {
                let keys = make(len, 11);
                let mut lost = lost_changes::<0>(&keys);
                if len <= 40_000 {
                    // Elements the sorts move as large ones (over 32 bytes).
                    lost.extend(lost_changes::<56>(&keys));
                }
                for case in lost {
                    failures.push(format!(
                        "{case}, {shape}, {len} elements, {threads} threads"
                    ));
                }
            }
        }
        assert!(failures.is_empty(), "changes lost: {failures:#?}");
    });
}
