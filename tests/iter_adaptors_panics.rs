//! A panic in a user closure inside an adaptor or consumer reaches the caller, and
//! every item made is dropped exactly once (no leak, no double drop).

mod common;

use common::cases::pools;
use common::drops::{Board, Tracked};
use common::panics::message_of;
use common::plumbing::to_vec;
use prorata::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

const LEN: usize = 20_000;

/// Runs `run` (which must panic with "boom") on every pool, for panics early, in
/// the middle and last; checks the message and the drop board.
fn panics_balanced(run: impl Fn(&Board, usize) + Sync) {
    for pool in pools() {
        for bad in [0, LEN / 2 + 1, LEN - 1] {
            let board = Board::new(LEN * 3);
            let outcome = catch_unwind(AssertUnwindSafe(|| pool.install(|| run(&board, bad))));
            let payload = outcome.expect_err("the panic must reach the caller");
            let message = message_of(&*payload);
            assert!(message.contains("boom"), "unexpected panic: {message}");
            board.assert_all_dropped_once();
        }
    }
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
