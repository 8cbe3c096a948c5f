//! A panic in a user closure inside an adaptor or consumer reaches the caller, and
//! every item made is dropped exactly once (no leak, no double drop).

mod common;

use common::drops::{Board, Tracked};
use common::plumbing::to_vec;
use prorata::prelude::*;

const LEN: usize = 20_000;

/// Runs `run` (which must panic with "boom") on every pool, for panics early, in
/// the middle and last; checks the message and the drop board.
fn panics_balanced(run: impl Fn(&Board, usize) + Sync) {
    common::panics::panics_balanced(LEN, LEN * 3, run);
}

fn boom_at<'a>(bad: usize) -> impl Fn(Tracked<'a>) -> Tracked<'a> + Sync + Send {
    move |t| {
        if t.id == bad {
            panic!("boom at {bad}");
        }
        t
    }
}

#[test]
fn panic_in_map_drops_everything_once() {
    panics_balanced(|board, bad| {
        let items = (0..LEN).into_par_iter().map(|i| board.item(i));
        let _ = to_vec(items.map(boom_at(bad)));
    });
}

#[test]
fn panic_in_filter_drops_everything_once() {
    panics_balanced(|board, bad| {
        let items = (0..LEN).into_par_iter().map(|i| board.item(i));
        let kept = items.filter(|t| {
            assert!(t.id != bad, "boom at {bad}");
            t.id % 3 != 0
        });
        let _ = to_vec(kept);
    });
}

#[test]
fn panic_in_flat_map_drops_everything_once() {
    panics_balanced(|board, bad| {
        let outer = (0..LEN).into_par_iter().map(|i| board.item(i));
        let inner = outer.flat_map(|t| {
            let i = t.id;
            drop(t);
            (0..2usize)
                .into_par_iter()
                .map(move |j| board.item(LEN + 2 * i + j))
                .map(boom_at(LEN + 2 * bad))
        });
        let _ = to_vec(inner);
    });
}

#[test]
fn panic_in_flat_map_iter_drops_everything_once() {
    panics_balanced(|board, bad| {
        let outer = (0..LEN).into_par_iter().map(|i| board.item(i));
        let inner = outer.flat_map_iter(|t| {
            let i = t.id;
            drop(t);
            (0..2)
                .map(move |j| board.item(LEN + 2 * i + j))
                .map(boom_at(LEN + 2 * bad + 1))
        });
        let _ = to_vec(inner);
    });
}

#[test]
fn panic_in_fold_and_reduce_drops_everything_once() {
    panics_balanced(|board, bad| {
        let items = (0..LEN).into_par_iter().map(|i| board.item(i));
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
    // The panic upstream of the fold, while an accumulator holds items: the
    // accumulator is dropped with them.
    panics_balanced(|board, bad| {
        let items = (0..LEN).into_par_iter().map(|i| board.item(i));
        let folded = items.map(boom_at(bad)).fold(Vec::new, |mut acc, t| {
            acc.push(t);
            acc
        });
        let _ = folded.reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            a
        });
    });
    panics_balanced(|board, bad| {
        let items = (0..LEN).into_par_iter().map(|i| board.item(i));
        let _ = items.reduce_with(|a, b| {
            assert!(a.id != bad && b.id != bad, "boom at {bad}");
            if a.id < b.id { a } else { b }
        });
    });
}

#[test]
fn panic_with_panic_fuse_find_and_chain_drops_everything_once() {
    panics_balanced(|board, bad| {
        let items = (0..LEN).into_par_iter().map(|i| board.item(i));
        let _ = to_vec(items.panic_fuse().map(boom_at(bad)));
    });
    panics_balanced(|board, bad| {
        let items = (0..LEN).into_par_iter().map(|i| board.item(i));
        let _ = items.find_first(|t| {
            assert!(t.id != bad, "boom at {bad}");
            false
        });
    });
    panics_balanced(|board, bad| {
        let items = (0..LEN).into_par_iter().map(|i| board.item(i));
        let more = (LEN..2 * LEN).into_par_iter().map(|i| board.item(i));
        let _ = to_vec(items.map_init(|| 0u8, |_, t| boom_at(bad)(t)).chain(more));
    });
}

/// `panic_fuse` against Rayon's; a module of its own, so that each side imports only its
/// own crate's prelude.
mod fuse_against_rayon {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    /// Counts the items `visit` sees from `(0..n).into_par_iter().panic_fuse()` followed
    /// by an adaptor, when the first item it sees panics; on a one-thread pool of prorata
    /// and of Rayon (one thread makes the order, and so the count, repeatable).
    macro_rules! fused_visits {
        ($p:ident => $adapted:expr) => {{
            use std::sync::atomic::{AtomicUsize, Ordering};
            const N: usize = 100_000;
            let count = |visited: &AtomicUsize| {
                let first = visited.fetch_add(1, Ordering::Relaxed) == 0;
                assert!(!first, "boom");
            };
            let ours = AtomicUsize::new(0);
            let pool = super::common::cases::pool(1);
            let panicked = catch_unwind(AssertUnwindSafe(|| {
                use prorata::prelude::*;
                pool.install(|| {
                    let $p = (0..N).into_par_iter().panic_fuse();
                    $adapted.for_each(|_| count(&ours))
                })
            }));
            assert!(panicked.is_err());
            let theirs = AtomicUsize::new(0);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            let panicked = catch_unwind(AssertUnwindSafe(|| {
                use rayon::prelude::*;
                pool.install(|| {
                    let $p = (0..N).into_par_iter().panic_fuse();
                    $adapted.for_each(|_| count(&theirs))
                })
            }));
            assert!(panicked.is_err());
            (ours.into_inner(), theirs.into_inner())
        }};
    }

    /// After the first item panics, `panic_fuse` stops every piece at its next item, in
    /// whichever direction and through whichever adaptor drives the piece, as Rayon's does.
    macro_rules! panic_fuse_stops_early {
        ($($name:ident: $p:ident => $adapted:expr;)*) => {$(
            #[test]
            fn $name() {
                let (ours, theirs) = fused_visits!($p => $adapted);
                assert!(ours <= theirs.max(1), "prorata visited {ours} items, Rayon {theirs}");
            }
        )*};
    }

    panic_fuse_stops_early! {
        panic_fuse_alone_stops_early: p => p;
        panic_fuse_then_rev_stops_early: p => p.rev();
        panic_fuse_then_enumerate_rev_stops_early: p => p.enumerate().rev();
        panic_fuse_then_map_rev_stops_early: p => p.map(|i| i + 1).rev();
        panic_fuse_then_zip_stops_early: p => p.zip(0..N);
        panic_fuse_then_step_by_stops_early: p => p.step_by(3);
        panic_fuse_then_skip_stops_early: p => p.skip(10);
        panic_fuse_then_chunks_stops_early: p => p.chunks(7);
        panic_fuse_then_interleave_stops_early: p => p.interleave(0..N);
        panic_fuse_then_with_min_len_stops_early: p => p.with_min_len(1000).rev();
    }
}
