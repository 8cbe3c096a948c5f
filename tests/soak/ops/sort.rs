//! Parallel sorts of tracked items against std's sorts, with a panic injected at one
//! comparator (or key) call: the slice must still hold every item exactly once, and
//! every item is dropped exactly once afterwards.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use prorata::prelude::*;
use rand::RngExt;

use super::Ctx;
use crate::check;
use crate::items::{Board, Item};
use crate::stats::STATS;
use crate::world::Place;

pub fn sort(ctx: &mut Ctx, place: &Place) {
    STATS.add(&STATS.sorts, 1);
    let n = ctx.size();
    let keys = ctx.keys(n);
    let plan = ctx.plan(0.25, false);
    let calls = AtomicUsize::new(0);
    let log = (usize::BITS - n.leading_zeros()) as usize;
    let at = ctx.rng.random_range(0..(n * log).max(1));
    let board = Board::new(n, None, Arc::clone(&plan));
    let mut items = board.items(&keys);
    let kind = ctx.rng.random_range(0..6);
    let key = |it: &Item| {
        if calls.fetch_add(1, Ordering::Relaxed) == at {
            plan.maybe_fire();
        }
        it.key
    };
    let sorted = ctx
        .run_caught(place, &plan, || match kind {
            0 => items.par_sort_by(|a, b| key(a).cmp(&key(b))),
            1 => items.par_sort_unstable_by(|a, b| key(a).cmp(&key(b))),
            2 => items.par_sort_by_key(key),
            3 => items.par_sort_unstable_by_key(key),
            4 => items.par_sort_by_cached_key(key),
            _ => items.par_sort_by(|a, b| key(b).cmp(&key(a))),
        })
        .is_some();
    // Whatever happened, the slice holds every item exactly once.
    let mut ids: Vec<u32> = items.iter().map(|it| it.id).collect();
    ids.sort_unstable();
    check!(
        ids.iter().enumerate().all(|(i, &id)| id as usize == i),
        "sort kind {kind} of {n} (panicked: {}): not a permutation",
        !sorted
    );
    if sorted {
        let mut reference: Vec<(u64, u32)> = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i as u32))
            .collect();
        if kind == 5 {
            reference.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        } else {
            reference.sort_by_key(|&(k, _)| k);
        }
        let got: Vec<(u64, u32)> = items.iter().map(|it| (it.key, it.id)).collect();
        let ok = if matches!(kind, 1 | 3) {
            got.iter().map(|p| p.0).eq(reference.iter().map(|p| p.0))
        } else {
            got == reference
        };
        check!(ok, "sort kind {kind} of {n}: order differs from std's");
    }
    drop(items);
    board.check_dropped_once("sort");
}
