//! Inputs that are sorted already or strictly descending: they cost `n - 1` calls of
//! the comparator, as in std, whether the sort is called from the main thread
//! (outside any pool, as a program calls `v.par_sort_unstable()`) or inside a pool;
//! and an input the sorts finish without forking (short, sorted or strictly
//! descending) is sorted on the calling thread, as std's sort is (and Rayon's, for
//! short ones).
//!
//! That every entry point gives std's result on these and on a few sorted runs, all
//! equal and tiny inputs, called from the main thread and in pools, is checked by
//! `sort_stable.rs` and `sort_unstable.rs`, and what a panicking or `Cell`-changing
//! comparator leaves on them by `sort_soundness.rs`: all run every shape of
//! `common::sort_inputs`.

mod common;

use std::cmp::Ordering;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use common::cases::pool;
use common::sort_inputs::shapes;
use prorata::prelude::*;

/// Lengths for the comparator counts: every short one, around the cut-offs, and past
/// the lengths from which a long sorted input is checked on all threads (2^18 by the
/// stable sort, 2^21 by the unstable one).
fn counted_lengths() -> Vec<usize> {
    let mut lengths: Vec<usize> = (0..=40).collect();
    lengths.extend([
        1000,
        4095,
        4096,
        4097,
        100_000,
        (1 << 18) + 5,
        (1 << 21) + 5,
    ]);
    lengths
}

/// `lt` calls of [`Asked`], for the sorts of `Ord` elements (one test uses it).
static LT_CALLS: AtomicUsize = AtomicUsize::new(0);

/// A value whose `lt` counts its calls (the sorts of `Ord` elements ask `lt`).
#[derive(PartialEq, Eq)]
struct Asked(u32);

impl PartialOrd for Asked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
    fn lt(&self, other: &Self) -> bool {
        LT_CALLS.fetch_add(1, Relaxed);
        self.0 < other.0
    }
}

impl Ord for Asked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

/// A key function.
type Key = fn(&u32) -> u32;

/// A sort by a counted comparator.
type SortBy<'s> = &'s dyn Fn(&mut Vec<u32>, &(dyn Fn(&u32, &u32) -> Ordering + Sync));

/// A sort by a counted key.
type SortByKey<'s> = &'s dyn Fn(&mut Vec<u32>, &(dyn Fn(&u32) -> u32 + Sync));

/// The comparator calls of `sort` on `values` by `order`.
fn comparisons(values: &[u32], order: fn(&u32, &u32) -> Ordering, sort: SortBy) -> usize {
    let calls = AtomicUsize::new(0);
    let mut v = values.to_vec();
    sort(&mut v, &|a, b| {
        calls.fetch_add(1, Relaxed);
        order(a, b)
    });
    assert!(
        v.windows(2)
            .all(|w| order(&w[0], &w[1]) != Ordering::Greater)
    );
    calls.into_inner()
}

/// The key calls of `sort` on `values` by `key`.
fn key_calls(values: &[u32], key: Key, sort: SortByKey) -> usize {
    let calls = AtomicUsize::new(0);
    let mut v = values.to_vec();
    sort(&mut v, &|x| {
        calls.fetch_add(1, Relaxed);
        key(x)
    });
    assert!(v.windows(2).all(|w| key(&w[0]) <= key(&w[1])));
    calls.into_inner()
}

/// The calls each entry point makes on the non-descending `values`: in their order,
/// and, when they are strictly ascending, in the reverse order (the sorts reverse
/// them). Each is checked against `n - 1` (by key: two key calls per comparison; the
/// cached key: one per element) and against std's count on the same input.
fn check_calls(values: &[u32], what: &str) {
    let n = values.len();
    let pairs = n.saturating_sub(1);
    let strictly = values.windows(2).all(|w| w[0] < w[1]);
    let ascending: fn(&u32, &u32) -> Ordering = |a, b| a.cmp(b);
    let descending: fn(&u32, &u32) -> Ordering = |a, b| b.cmp(a);
    let (same, reversed): (Key, Key) = (|x| *x, |x| u32::MAX - *x);
    let mut orders = vec![("in order", ascending, same)];
    if strictly {
        orders.push(("reversed", descending, reversed));
    }
    for (how, order, key) in orders {
        let what = format!("{how}, {what}");
        let std_calls = [
            comparisons(values, order, &|v, f| v.sort_by(f)),
            comparisons(values, order, &|v, f| v.sort_unstable_by(f)),
        ];
        let ours = [
            (
                "par_sort_by",
                comparisons(values, order, &|v, f| v.par_sort_by(f)),
            ),
            (
                "par_sort_unstable_by",
                comparisons(values, order, &|v, f| v.par_sort_unstable_by(f)),
            ),
        ];
        for ((name, calls), std_calls) in ours.into_iter().zip(std_calls) {
            assert_eq!(calls, pairs, "{name}: comparator calls, {what}");
            // std's stable sort inserts a few reversed elements one by one.
            assert!(
                calls <= std_calls,
                "{name}: {calls} calls, std's {std_calls}, {what}"
            );
        }
        assert_eq!(
            key_calls(values, key, &|v, f| v.par_sort_by_key(f)),
            2 * pairs,
            "par_sort_by_key: key calls, {what}"
        );
        assert_eq!(
            key_calls(values, key, &|v, f| v.par_sort_unstable_by_key(f)),
            2 * pairs,
            "par_sort_unstable_by_key: key calls, {what}"
        );
        // Once per element, as std's (which calls none below two elements).
        assert_eq!(
            key_calls(values, key, &|v, f| v.par_sort_by_cached_key(f)),
            key_calls(values, key, &|v, f| v.sort_by_cached_key(f)),
            "par_sort_by_cached_key: key calls, {what}"
        );
    }
}

/// The `lt` calls of the sorts of `Ord` elements on the ascending `values`.
fn check_ord_calls(values: &[u32], what: &str) {
    let pairs = values.len().saturating_sub(1);
    let asked = |sort: &dyn Fn(&mut Vec<Asked>)| {
        let mut v: Vec<Asked> = values.iter().map(|&x| Asked(x)).collect();
        LT_CALLS.store(0, Relaxed);
        sort(&mut v);
        LT_CALLS.load(Relaxed)
    };
    assert_eq!(asked(&|v| v.sort()), pairs, "std sort, {what}");
    assert_eq!(
        asked(&|v| v.par_sort()),
        pairs,
        "par_sort: lt calls, {what}"
    );
    assert_eq!(
        asked(&|v| v.par_sort_unstable()),
        pairs,
        "par_sort_unstable: lt calls, {what}"
    );
}

#[test]
fn sorted_and_strictly_descending_inputs_cost_n_minus_1_comparisons() {
    let two = pool(2);
    for n in counted_lengths() {
        let ascending: Vec<u32> = (0..n as u32).collect();
        let with_ties: Vec<u32> = (0..n as u32).map(|x| x / 3).collect();
        let equal = vec![7u32; n];
        for (shape, values) in [
            ("strictly ascending", &ascending),
            ("ascending with ties", &with_ties),
            ("all equal", &equal),
        ] {
            check_calls(values, &format!("{shape}, {n}, from the main thread"));
            two.install(|| check_calls(values, &format!("{shape}, {n}, 2 threads")));
        }
        check_ord_calls(&ascending, &format!("{n}, from the main thread"));
        two.install(|| check_ord_calls(&ascending, &format!("{n}, 2 threads")));
    }
}

/// Where the comparator ran, for each call: `None` on a thread of no pool, the
/// worker's index in a pool.
fn comparator_threads(values: &[u32], sort: SortOnThread) -> Vec<Caller> {
    let seen = std::sync::Mutex::new(Vec::new());
    let mut v = values.to_vec();
    sort(&mut v, &|a, b| {
        let here = Caller::now();
        let mut seen = seen.lock().unwrap();
        if !seen.contains(&here) {
            seen.push(here);
        }
        a.cmp(b)
    });
    seen.into_inner().unwrap()
}

/// A comparator that notes the thread it runs on.
type CmpOnThread<'a> = dyn Fn(&u32, &u32) -> Ordering + Sync + 'a;

/// A sort by such a comparator.
type SortOnThread<'s> = &'s (dyn Fn(&mut Vec<u32>, &CmpOnThread<'_>) + Sync);

/// The thread a call ran on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Caller {
    id: std::thread::ThreadId,
    prorata_worker: Option<usize>,
}

impl Caller {
    fn now() -> Caller {
        Caller {
            id: std::thread::current().id(),
            prorata_worker: prorata::current_thread_index(),
        }
    }
}

#[test]
fn short_and_presorted_inputs_are_sorted_on_the_calling_thread() {
    let random = shapes()[0].1;
    let inputs: [(&str, Vec<u32>); 5] = [
        ("random, 100", random(100, 1)),
        ("random, 2000", random(2000, 2)),
        ("random, 4096", random(4096, 3)),
        ("sorted, 200,000", (0..200_000).collect()),
        ("strictly descending, 200,000", (0..200_000).rev().collect()),
    ];
    let sorts: [(&str, SortOnThread); 2] = [
        ("par_sort_by", &|v, f| v.par_sort_by(f)),
        ("par_sort_unstable_by", &|v, f| v.par_sort_unstable_by(f)),
    ];
    let two = pool(2);
    for (what, values) in &inputs {
        for (name, sort) in sorts {
            // From the main thread, outside any pool: no call leaves it.
            let caller = Caller::now();
            assert_eq!(
                comparator_threads(values, sort),
                [caller],
                "{name}, {what}, from the main thread"
            );
            // Inside a pool: the worker that called the sort makes every call.
            let (caller, seen) = two.install(|| (Caller::now(), comparator_threads(values, sort)));
            assert_eq!(seen, [caller], "{name}, {what}, in a pool");
        }
    }
    // Rayon's sorts of up to 2,000 elements run on the calling thread too.
    for (what, values) in &inputs[..2] {
        for (name, sort) in rayon::SORTS {
            assert_eq!(
                comparator_threads(values, sort),
                [Caller::now()],
                "{name}, {what}"
            );
        }
    }
}

/// Rayon's sorts (its trait is apart, as its methods have the same names).
mod rayon {
    use super::SortOnThread;
    use ::rayon::slice::ParallelSliceMut;

    pub const SORTS: [(&str, SortOnThread); 2] = [
        ("Rayon's par_sort_by", &|v, f| v.par_sort_by(f)),
        ("Rayon's par_sort_unstable_by", &|v, f| {
            v.par_sort_unstable_by(f)
        }),
    ];
}
