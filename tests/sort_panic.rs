//! Panic safety and inconsistent comparators: every element stays in the slice
//! exactly once and is dropped exactly once.

mod common;

use std::cmp::Ordering;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicIsize, AtomicU64, AtomicUsize, Ordering::Relaxed};

use common::cases::{THREADS, pool};
use common::sort_inputs::rng;
use prorata::prelude::*;
use rand::RngExt;

/// Shared state of one test input: a comparison budget and drop counters.
struct Probe {
    budget: AtomicIsize,
    drops: Vec<AtomicUsize>,
}

impl Probe {
    /// One comparison or key call; panics once the budget is spent.
    fn tick(&self) {
        if self.budget.fetch_sub(1, Relaxed) <= 0 {
            panic!("comparison budget spent");
        }
    }
}

/// An element whose drops are counted and whose comparisons spend the budget.
struct Tracked {
    key: u32,
    id: usize,
    payload: Box<usize>,
    probe: &'static Probe,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.probe.drops[self.id].fetch_add(1, Relaxed);
    }
}

impl PartialEq for Tracked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Tracked {}
impl PartialOrd for Tracked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Tracked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.probe.tick();
        self.key.cmp(&other.key)
    }
}

/// A fresh input of `len` tracked elements with `budget` comparisons allowed.
fn tracked_input(len: usize, budget: isize, seed: u64) -> Vec<Tracked> {
    tracked_input_of(len, len as u32 / 4 + 1, budget, seed)
}

/// As [`tracked_input`], with keys below `distinct`.
fn tracked_input_of(len: usize, distinct: u32, budget: isize, seed: u64) -> Vec<Tracked> {
    let probe: &'static Probe = Box::leak(Box::new(Probe {
        budget: AtomicIsize::new(budget),
        drops: (0..len).map(|_| AtomicUsize::new(0)).collect(),
    }));
    let mut r = rng(seed);
    (0..len)
        .map(|id| Tracked {
            key: r.random_range(0..distinct),
            id,
            payload: Box::new(id),
            probe,
        })
        .collect()
}

/// After a sort (panicked or not): every id is there once with its payload,
/// and dropping the vector drops each element exactly once.
fn assert_each_element_once(v: Vec<Tracked>, len: usize, what: &str) {
    assert_eq!(v.len(), len, "{what}");
    let mut seen = vec![false; len];
    for x in &v {
        assert_eq!(*x.payload, x.id, "corrupted element in {what}");
        assert!(!seen[x.id], "element {} twice in {what}", x.id);
        seen[x.id] = true;
    }
    let probe = v.first().map(|x| x.probe);
    drop(v);
    if let Some(probe) = probe {
        for (id, d) in probe.drops.iter().enumerate() {
            assert_eq!(
                d.load(Relaxed),
                1,
                "element {id} dropped {} times in {what}",
                d.load(Relaxed)
            );
        }
    }
}

/// Keeps the expected panics of these tests out of the output; any other panic
/// (a failed assertion) is still reported.
fn quiet_budget_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info.payload().downcast_ref::<&str>() != Some(&"comparison budget spent") {
            default(info);
        }
    }));
}

type SortFn = fn(&mut [Tracked]);

/// Every entry point, each spending the budget on each comparison or key call.
fn entry_points() -> Vec<(&'static str, SortFn)> {
    vec![
        ("par_sort", |v| v.par_sort()),
        ("par_sort_unstable", |v| v.par_sort_unstable()),
        ("par_sort_by", |v| v.par_sort_by(|a, b| a.cmp(b))),
        ("par_sort_unstable_by", |v| {
            v.par_sort_unstable_by(|a, b| a.cmp(b))
        }),
        ("par_sort_by_key", |v| {
            v.par_sort_by_key(|x| {
                x.probe.tick();
                x.key
            })
        }),
        ("par_sort_unstable_by_key", |v| {
            v.par_sort_unstable_by_key(|x| {
                x.probe.tick();
                x.key
            })
        }),
        ("par_sort_by_cached_key", |v| {
            v.par_sort_by_cached_key(|x| {
                x.probe.tick();
                x.key
            })
        }),
    ]
}

#[test]
fn a_panicking_comparator_loses_and_duplicates_nothing() {
    quiet_budget_panics();
    for &threads in THREADS {
        let pool = pool(threads);
        for (name, sort) in entry_points() {
            for len in [0usize, 1, 2, 40, 100, 1000, 5000, 20_000, 150_000, 300_000] {
                let n = len as isize;
                for budget in [0, 7, n / 2, 2 * n, 8 * n, 12 * n, isize::MAX / 2] {
                    let what = format!("{name}, len {len}, budget {budget}, {threads} threads");
                    let mut v = tracked_input(len, budget, budget as u64);
                    let result = catch_unwind(AssertUnwindSafe(|| pool.install(|| sort(&mut v))));
                    if result.is_ok() {
                        assert!(
                            v.windows(2).all(|w| w[0].key <= w[1].key),
                            "unsorted after {what}"
                        );
                    } else {
                        assert!(budget < isize::MAX / 2, "unexpected panic in {what}");
                    }
                    assert_each_element_once(v, len, &what);
                }
            }
        }
    }
}

/// Inputs with few distinct keys take the sorts' paths that set equal
/// elements aside; a panic there also loses and duplicates nothing.
#[test]
fn a_panicking_comparator_on_few_distinct_keys_loses_nothing() {
    quiet_budget_panics();
    for &threads in THREADS {
        let pool = pool(threads);
        for (name, sort) in entry_points() {
            for len in [5000usize, 20_000, 300_000] {
                let n = len as isize;
                for budget in [n / 2, 3 * n, 6 * n] {
                    let what = format!("{name}, 16 keys, len {len}, budget {budget}");
                    let mut v = tracked_input_of(len, 16, budget, budget as u64);
                    let result = catch_unwind(AssertUnwindSafe(|| pool.install(|| sort(&mut v))));
                    if result.is_ok() {
                        assert!(v.windows(2).all(|w| w[0].key <= w[1].key), "{what}");
                    }
                    assert_each_element_once(v, len, &what);
                }
            }
        }
    }
}

/// A comparator answering at random, from a shared seeded generator.
fn random_answer(state: &AtomicU64) -> Ordering {
    let mut x = state.load(Relaxed);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    state.store(x, Relaxed);
    match x % 3 {
        0 => Ordering::Less,
        1 => Ordering::Equal,
        _ => Ordering::Greater,
    }
}

#[test]
fn inconsistent_comparators_never_panic_and_leave_a_permutation() {
    type Answer = fn(&AtomicU64) -> Ordering;
    let answers: [(&str, Answer); 3] = [
        ("random", random_answer),
        ("always less", |_| Ordering::Less),
        ("always greater", |_| Ordering::Greater),
    ];
    let lens = [
        2usize, 3, 7, 20, 21, 33, 64, 100, 1000, 5000, 30_000, 150_000,
    ];
    for &threads in THREADS {
        let pool = pool(threads);
        for (answer_name, answer) in answers {
            for len in lens {
                for kind in ["stable", "unstable", "stable by key", "unstable by key"] {
                    let what = format!("{answer_name}, {kind}, len {len}, {threads} threads");
                    let state = AtomicU64::new(0x2545_F491_4F6C_DD1D);
                    let mut v = tracked_input(len, isize::MAX / 2, 3);
                    let compare = |_: &Tracked, _: &Tracked| answer(&state);
                    // A key that orders inconsistently: a fresh answer on every call.
                    let key = |_: &Tracked| answer(&state);
                    // As in Rayon, and unlike std's sorts since Rust 1.81: no panic.
                    pool.install(|| match kind {
                        "stable" => v.par_sort_by(compare),
                        "unstable" => v.par_sort_unstable_by(compare),
                        "stable by key" => v.par_sort_by_key(key),
                        _ => v.par_sort_unstable_by_key(key),
                    });
                    assert_each_element_once(v, len, &what);
                }
            }
        }
    }
}

/// Inputs with few distinct keys take the paths that set equal elements
/// aside (partitions through a buffer in the stable sort); whatever the
/// comparator answers there, the slice ends as a permutation.
#[test]
fn inconsistent_comparators_on_few_distinct_keys_leave_a_permutation() {
    for &threads in THREADS {
        let pool = pool(threads);
        for len in [5000usize, 20_000, 150_000] {
            for kind in ["stable", "unstable", "stable, sometimes fair"] {
                let what = format!("{kind}, 16 keys, len {len}, {threads} threads");
                let state = AtomicU64::new(0x9E37_79B9_7F4A_7C15 ^ len as u64);
                let mut v = tracked_input_of(len, 16, isize::MAX / 2, 11);
                // Answers at random on one call in eight, truthfully otherwise:
                // the sample still looks like few distinct values.
                let sometimes = |a: &Tracked, b: &Tracked| {
                    let answer = random_answer(&state);
                    if state.load(Relaxed) % 8 == 0 {
                        answer
                    } else {
                        a.key.cmp(&b.key)
                    }
                };
                pool.install(|| match kind {
                    "stable" => v.par_sort_by(|_, _| random_answer(&state)),
                    "unstable" => v.par_sort_unstable_by(|_, _| random_answer(&state)),
                    _ => v.par_sort_by(sometimes),
                });
                assert_each_element_once(v, len, &what);
            }
        }
    }
}

/// A key whose order answers at random.
#[derive(Clone, Copy)]
struct Fickle(&'static AtomicU64);

impl PartialEq for Fickle {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Fickle {}

impl PartialOrd for Fickle {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Fickle {
    fn cmp(&self, _: &Self) -> Ordering {
        random_answer(self.0)
    }
}

#[test]
fn inconsistent_orders_of_cached_keys_and_of_elements_never_panic() {
    let state: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0x9E37_79B9)));
    for &threads in THREADS {
        let pool = pool(threads);
        for len in [2usize, 21, 100, 5000, 150_000] {
            let mut v: Vec<usize> = (0..len).collect();
            pool.install(|| v.par_sort_by_cached_key(|_| Fickle(state)));
            v.sort_unstable();
            assert!(v.iter().copied().eq(0..len), "cached key, {len}");
            let mut v: Vec<Fickle> = vec![Fickle(state); len];
            pool.install(|| v.par_sort());
            pool.install(|| v.par_sort_unstable());
            assert_eq!(v.len(), len);
        }
    }
}

/// A tracked element padded past the size up to which the unstable sort
/// partitions without branches: large elements take its other partition and
/// skip its sorting network.
struct Wide {
    inner: Tracked,
    _pad: [u64; 12],
}

#[test]
fn a_panicking_comparator_on_large_elements_loses_nothing() {
    quiet_budget_panics();
    for &threads in THREADS {
        let pool = pool(threads);
        for len in [0usize, 2, 20, 100, 5000, 20_000] {
            let n = len as isize;
            for budget in [0, 7, n / 2, 2 * n, 8 * n, isize::MAX / 2] {
                let what =
                    format!("128-byte elements, len {len}, budget {budget}, {threads} threads");
                let mut v: Vec<Wide> = tracked_input(len, budget, budget as u64)
                    .into_iter()
                    .map(|inner| Wide {
                        inner,
                        _pad: [0; 12],
                    })
                    .collect();
                let result = catch_unwind(AssertUnwindSafe(|| {
                    pool.install(|| v.par_sort_unstable_by(|a, b| a.inner.cmp(&b.inner)))
                }));
                if result.is_ok() {
                    assert!(
                        v.windows(2).all(|w| w[0].inner.key <= w[1].inner.key),
                        "unsorted after {what}"
                    );
                } else {
                    assert!(budget < isize::MAX / 2, "unexpected panic in {what}");
                }
                let v: Vec<Tracked> = v.into_iter().map(|w| w.inner).collect();
                assert_each_element_once(v, len, &what);
            }
        }
    }
}

#[test]
fn inconsistent_comparators_on_large_elements_leave_a_permutation() {
    for &threads in THREADS {
        let pool = pool(threads);
        for len in [100usize, 1000, 20_000] {
            let what = format!("128-byte elements, len {len}, {threads} threads");
            let state = AtomicU64::new(0x2545_F491_4F6C_DD1D ^ len as u64);
            let mut v: Vec<Wide> = tracked_input(len, isize::MAX / 2, 5)
                .into_iter()
                .map(|inner| Wide {
                    inner,
                    _pad: [0; 12],
                })
                .collect();
            pool.install(|| v.par_sort_unstable_by(|_, _| random_answer(&state)));
            let v: Vec<Tracked> = v.into_iter().map(|w| w.inner).collect();
            assert_each_element_once(v, len, &what);
        }
    }
}

/// A stable sort whose buffer is 32 MiB or more maps it itself (with huge
/// pages on Linux); a panic there also loses and duplicates nothing, and the
/// buffer goes with the unwinding.
#[test]
fn a_panicking_comparator_with_a_large_buffer_loses_nothing() {
    quiet_budget_panics();
    // 32-byte elements: 1.1 * 2^20 of them need a buffer of 35 MiB.
    let len = (1 << 20) + (1 << 17);
    assert!(len * size_of::<Tracked>() > 32 << 20);
    for &threads in THREADS {
        let pool = pool(threads);
        for (name, sort) in &entry_points()[..3] {
            let n = len as isize;
            for budget in [n / 2, 12 * n, isize::MAX / 2] {
                let what = format!("{name}, len {len}, budget {budget}, {threads} threads");
                let mut v = tracked_input(len, budget, budget as u64);
                let result = catch_unwind(AssertUnwindSafe(|| pool.install(|| sort(&mut v))));
                if result.is_ok() {
                    assert!(v.windows(2).all(|w| w[0].key <= w[1].key), "{what}");
                } else {
                    assert!(budget < isize::MAX / 2, "unexpected panic in {what}");
                }
                assert_each_element_once(v, len, &what);
            }
        }
    }
}
