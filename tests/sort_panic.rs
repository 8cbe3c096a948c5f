//! Panic safety and inconsistent comparators: every element stays in the slice
//! exactly once and is dropped exactly once.

mod sort_common;

use std::cmp::Ordering;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicIsize, AtomicU64, AtomicUsize, Ordering::Relaxed};

use prorata::prelude::*;
use rand::RngExt;
use sort_common::{THREADS, rng};

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
    let probe: &'static Probe = Box::leak(Box::new(Probe {
        budget: AtomicIsize::new(budget),
        drops: (0..len).map(|_| AtomicUsize::new(0)).collect(),
    }));
    let mut r = rng(seed);
    (0..len)
        .map(|id| Tracked {
            key: r.random_range(0..(len as u32 / 4 + 1)),
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
        let pool = prorata::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for (name, sort) in entry_points() {
            for len in [0usize, 1, 2, 100, 5000, 20_000, 150_000, 300_000] {
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
fn inconsistent_comparators_leave_a_permutation() {
    type Answer = fn(&AtomicU64) -> Ordering;
    let answers: [(&str, Answer); 3] = [
        ("random", random_answer),
        ("always less", |_| Ordering::Less),
        ("always greater", |_| Ordering::Greater),
    ];
    for &threads in THREADS {
        let pool = prorata::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for (answer_name, answer) in answers {
            for len in [3usize, 100, 5000, 30_000, 150_000, 300_000] {
                for stable in [true, false] {
                    let what =
                        format!("{answer_name}, stable {stable}, len {len}, {threads} threads");
                    let state = AtomicU64::new(0x2545_F491_4F6C_DD1D);
                    let mut v = tracked_input(len, isize::MAX / 2, 3);
                    let compare = |_: &Tracked, _: &Tracked| answer(&state);
                    // std's sorts may panic when they notice the order is not total.
                    let _ = catch_unwind(AssertUnwindSafe(|| {
                        pool.install(|| {
                            if stable {
                                v.par_sort_by(compare)
                            } else {
                                v.par_sort_unstable_by(compare)
                            }
                        })
                    }));
                    assert_each_element_once(v, len, &what);
                }
            }
        }
    }
}
