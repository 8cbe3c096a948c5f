//! A panic in a user closure inside an adaptor or consumer reaches the caller, and
//! every item made is dropped exactly once (no leak, no double drop).

#[path = "iter_adaptors_support.rs"]
mod support;

use prorata::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use support::{pools, to_vec};

/// Counts, per index, how many items were made and dropped.
struct Ledger {
    made: Vec<AtomicUsize>,
    dropped: Vec<AtomicUsize>,
}

impl Ledger {
    fn new(len: usize) -> Self {
        let zeros = || (0..len).map(|_| AtomicUsize::new(0)).collect();
        Ledger {
            made: zeros(),
            dropped: zeros(),
        }
    }

    fn make(&self, i: usize) -> Tracked<'_> {
        self.made[i].fetch_add(1, Ordering::Relaxed);
        Tracked { i, ledger: self }
    }

    /// Every item made was dropped exactly once.
    fn assert_balanced(&self) {
        for (i, (made, dropped)) in self.made.iter().zip(&self.dropped).enumerate() {
            let (made, dropped) = (
                made.load(Ordering::Relaxed),
                dropped.load(Ordering::Relaxed),
            );
            assert!(made <= 1, "item {i} made {made} times");
            assert_eq!(made, dropped, "item {i}: made {made}, dropped {dropped}");
        }
    }
}

struct Tracked<'a> {
    i: usize,
    ledger: &'a Ledger,
}

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.ledger.dropped[self.i].fetch_add(1, Ordering::Relaxed);
    }
}

const LEN: usize = 20_000;

/// Runs `run` (which must panic with "boom") on every pool, for panics early, in
/// the middle and last; checks the message and the drop ledger.
fn panics_balanced(run: impl Fn(&Ledger, usize) + Sync) {
    for pool in pools() {
        for bad in [0, LEN / 2 + 1, LEN - 1] {
            let ledger = Ledger::new(LEN * 3);
            let outcome = catch_unwind(AssertUnwindSafe(|| pool.install(|| run(&ledger, bad))));
            let payload = outcome.expect_err("the panic must reach the caller");
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or_default();
            assert!(message.contains("boom"), "unexpected panic: {message}");
            ledger.assert_balanced();
        }
    }
}

fn boom_at<'a>(bad: usize) -> impl Fn(Tracked<'a>) -> Tracked<'a> + Sync + Send {
    move |t| {
        if t.i == bad {
            panic!("boom at {bad}");
        }
        t
    }
}

#[test]
fn panic_in_map_drops_everything_once() {
    panics_balanced(|ledger, bad| {
        let items = (0..LEN).into_par_iter().map(|i| ledger.make(i));
        let _ = to_vec(items.map(boom_at(bad)));
    });
}

#[test]
fn panic_in_filter_drops_everything_once() {
    panics_balanced(|ledger, bad| {
        let items = (0..LEN).into_par_iter().map(|i| ledger.make(i));
        let kept = items.filter(|t| {
            assert!(t.i != bad, "boom at {bad}");
            t.i % 3 != 0
        });
        let _ = to_vec(kept);
    });
}

#[test]
fn panic_in_flat_map_drops_everything_once() {
    panics_balanced(|ledger, bad| {
        let outer = (0..LEN).into_par_iter().map(|i| ledger.make(i));
        let inner = outer.flat_map(|t| {
            let i = t.i;
            drop(t);
            (0..2usize)
                .into_par_iter()
                .map(move |j| ledger.make(LEN + 2 * i + j))
                .map(boom_at(LEN + 2 * bad))
        });
        let _ = to_vec(inner);
    });
}

#[test]
fn panic_in_flat_map_iter_drops_everything_once() {
    panics_balanced(|ledger, bad| {
        let outer = (0..LEN).into_par_iter().map(|i| ledger.make(i));
        let inner = outer.flat_map_iter(|t| {
            let i = t.i;
            drop(t);
            (0..2)
                .map(move |j| ledger.make(LEN + 2 * i + j))
                .map(boom_at(LEN + 2 * bad + 1))
        });
        let _ = to_vec(inner);
    });
}

#[test]
fn panic_in_fold_and_reduce_drops_everything_once() {
    panics_balanced(|ledger, bad| {
        let items = (0..LEN).into_par_iter().map(|i| ledger.make(i));
        let folded = items.fold(Vec::new, |mut acc, t| {
            let t = boom_at(bad)(t);
            acc.push(t);
            acc
        });
        let _ = folded.reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            a
        });
    });
    panics_balanced(|ledger, bad| {
        let items = (0..LEN).into_par_iter().map(|i| ledger.make(i));
        let _ = items.reduce_with(|a, b| {
            assert!(a.i != bad && b.i != bad, "boom at {bad}");
            if a.i < b.i { a } else { b }
        });
    });
}

#[test]
fn panic_with_panic_fuse_find_and_chain_drops_everything_once() {
    panics_balanced(|ledger, bad| {
        let items = (0..LEN).into_par_iter().map(|i| ledger.make(i));
        let _ = to_vec(items.panic_fuse().map(boom_at(bad)));
    });
    panics_balanced(|ledger, bad| {
        let items = (0..LEN).into_par_iter().map(|i| ledger.make(i));
        let _ = items.find_first(|t| {
            assert!(t.i != bad, "boom at {bad}");
            false
        });
    });
    panics_balanced(|ledger, bad| {
        let items = (0..LEN).into_par_iter().map(|i| ledger.make(i));
        let more = (LEN..2 * LEN).into_par_iter().map(|i| ledger.make(i));
        let _ = to_vec(items.map_init(|| 0u8, |_, t| boom_at(bad)(t)).chain(more));
    });
}
