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

/// An element that counts the comparisons it took part in.
type Counted = (u32, AtomicU32);

/// A sort of counted elements that counts its comparator's calls.
type CountingSort = fn(&mut [Counted], &AtomicUsize);

fn sorts() -> Vec<(&'static str, CountingSort)> {
    fn count(calls: &AtomicUsize, a: &Counted, b: &Counted) {
        calls.fetch_add(1, Relaxed);
        a.1.fetch_add(1, Relaxed);
        b.1.fetch_add(1, Relaxed);
    }
    vec![
        ("par_sort_by", |v, calls| {
            v.par_sort_by(|a, b| {
                count(calls, a, b);
                a.0.cmp(&b.0)
            })
        }),
        ("par_sort_unstable_by", |v, calls| {
            v.par_sort_unstable_by(|a, b| {
                count(calls, a, b);
                a.0.cmp(&b.0)
            })
        }),
        // A comparator that is no order: the sorts leave a permutation, and
        // still every change.
        ("par_sort_by, no order", |v, calls| {
            v.par_sort_by(|a, b| {
                count(calls, a, b);
                (a.0 ^ b.0).count_ones().cmp(&3)
            })
        }),
        ("par_sort_unstable_by, no order", |v, calls| {
            v.par_sort_unstable_by(|a, b| {
                count(calls, a, b);
                (a.0 ^ b.0).count_ones().cmp(&3)
            })
        }),
    ]
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
                for (name, sort) in sorts() {
                    let mut v: Vec<Counted> =
                        keys.iter().map(|&k| (k, AtomicU32::new(0))).collect();
                    let calls = AtomicUsize::new(0);
                    sort(&mut v, &calls);
                    let mut got: Vec<u32> = v.iter().map(|x| x.0).collect();
                    got.sort_unstable();
                    let mut want = keys.clone();
                    want.sort_unstable();
                    assert_eq!(got, want, "{name}: a permutation");
                    let counted: usize = v.iter().map(|x| x.1.load(Relaxed) as usize).sum();
                    if counted != 2 * calls.load(Relaxed) {
                        failures.push(format!(
                            "{name}, {shape}, {len} elements, {threads} threads"
                        ));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "changes lost: {failures:#?}");
    });
}
