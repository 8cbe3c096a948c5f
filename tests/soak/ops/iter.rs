//! `par_iter` pipelines, each against the same pipeline run sequentially by std:
//! owned items through `filter`/`map`/`collect` (a panic in a closure or in one
//! item's `Drop`), `reduce` (a panic in the reducing closure), `find_*` and
//! `position_*`, `for_each` (every item visited exactly once), chunks, `fold`,
//! `flat_map_iter`, `zip`, `partition`, `unzip`, `par_extend`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use prorata::prelude::*;
use rand::RngExt;

use super::{Ctx, mix};
use crate::check;
use crate::items::Board;
use crate::panics::Plan;
use crate::stats::STATS;
use crate::world::Place;

pub fn pipeline(ctx: &mut Ctx, place: &Place) {
    STATS.add(&STATS.iters, 1);
    let n = ctx.size();
    let keys = ctx.keys(n);
    let plan = ctx.plan(0.2, false);
    let at = ctx.rng.random_range(0..n.max(1));
    let min_len = if ctx.rng.random_bool(0.3) {
        ctx.rng.random_range(1..=1024)
    } else {
        1
    };
    let p = Params {
        keys: &keys,
        plan: &plan,
        at,
        min_len,
    };
    match ctx.rng.random_range(0..9) {
        0 | 1 => owned(ctx, place, &p),
        2 => reduce(ctx, place, &p),
        3 => find(ctx, place, &p),
        4 => for_each(ctx, place, &p),
        5 => chunks(ctx, place, &p),
        6 => fold_zip(ctx, place, &p),
        7 => flat_map(ctx, place, &p),
        _ => partition(ctx, place, &p),
    }
}

struct Params<'a> {
    keys: &'a [u64],
    plan: &'a Arc<Plan>,
    /// The index whose closure (or item) fires the plan.
    at: usize,
    min_len: usize,
}

impl Params<'_> {
    fn hit(&self, i: usize) {
        if i == self.at {
            self.plan.maybe_fire();
        }
    }
}

/// Owned items through `filter` and `map` into a `Vec`; the panic comes from a
/// closure or from the `Drop` of the item at `at` (dropped by `filter`, by `map`, or
/// with the collected `Vec`). Every item must be dropped exactly once either way.
fn owned(ctx: &mut Ctx, place: &Place, p: &Params) {
    let in_drop = ctx.rng.random_bool(0.5);
    let victim = in_drop.then_some(p.at as u32);
    let board = Board::new(p.keys.len(), victim, Arc::clone(p.plan));
    let items = board.items(p.keys);
    let m = ctx.rng.random_range(2..5u64);
    let keep_items = ctx.rng.random_bool(0.3);
    let expected: Vec<(u32, u64)> = p
        .keys
        .iter()
        .enumerate()
        .filter(|(_, k)| *k % m != 0)
        .map(|(i, &k)| (i as u32, mix(k)))
        .collect();
    let got = ctx.run_caught(place, p.plan, || {
        let it = items.into_par_iter().with_min_len(p.min_len).filter(|it| {
            if !in_drop {
                p.hit(it.id as usize);
            }
            it.key % m != 0
        });
        if keep_items {
            let kept: Vec<_> = it.collect();
            let pairs: Vec<_> = kept.iter().map(|it| (it.id, mix(it.key))).collect();
            // Dropped by name: were `kept` dropped after a tail expression that built
            // the result, a panic in an item's `Drop` would leak the result (rustc
            // issue #47949), which valgrind reported here.
            drop(kept);
            pairs
        } else {
            it.map(|it| (it.id, mix(it.key))).collect()
        }
    });
    if let Some(got) = got {
        check!(
            got == expected,
            "owned filter/map/collect over {}: wrong result",
            p.keys.len()
        );
    }
    board.check_dropped_once("owned pipeline");
}

fn reduce(ctx: &mut Ctx, place: &Place, p: &Params) {
    let calls = AtomicUsize::new(0);
    let expected = p.keys.iter().map(|&k| mix(k)).fold(0, u64::wrapping_add);
    let with = ctx.rng.random_bool(0.5);
    let got = ctx.run_caught(place, p.plan, || {
        let op = |a: u64, b: u64| {
            p.hit(calls.fetch_add(1, Ordering::Relaxed));
            a.wrapping_add(b)
        };
        let it = p.keys.par_iter().with_min_len(p.min_len).map(|&k| mix(k));
        if with {
            it.reduce_with(op).unwrap_or(0)
        } else {
            it.reduce(|| 0, op)
        }
    });
    if let Some(got) = got {
        check!(
            got == expected,
            "reduce over {}: {got} != {expected}",
            p.keys.len()
        );
    }
}

fn find(ctx: &mut Ctx, place: &Place, p: &Params) {
    let m = ctx.rng.random_range(2..200u64);
    let pred = |i: usize, k: u64| {
        p.hit(i);
        k % m == 0
    };
    let seq = |k: &u64| k % m == 0;
    let keys = p.keys;
    let kind = ctx.rng.random_range(0..8);
    let got = ctx.run_caught(place, p.plan, || {
        let it = || keys.par_iter().with_min_len(p.min_len).enumerate();
        match kind {
            0 => it().find_first(|&(i, &k)| pred(i, k)).map(|(i, _)| i),
            1 => it().find_last(|&(i, &k)| pred(i, k)).map(|(i, _)| i),
            2 => it().find_any(|&(i, &k)| pred(i, k)).map(|(i, _)| i),
            3 => it().position_first(|(i, &k)| pred(i, k)),
            4 => it().position_last(|(i, &k)| pred(i, k)),
            5 => it().position_any(|(i, &k)| pred(i, k)),
            6 => Some(usize::from(it().any(|(i, &k)| pred(i, k)))),
            _ => Some(usize::from(it().all(|(i, &k)| !pred(i, k)))),
        }
    });
    let Some(got) = got else { return };
    let first = keys.iter().position(seq);
    let expected = match kind {
        0 | 3 => first,
        1 | 4 => keys.iter().rposition(seq),
        6 => Some(usize::from(first.is_some())),
        7 => Some(usize::from(first.is_none())),
        _ => {
            // find_any / position_any: any match will do.
            let ok = match got {
                Some(i) => seq(&keys[i]),
                None => first.is_none(),
            };
            check!(
                ok,
                "find_any kind {kind} over {}: {got:?} is no match",
                keys.len()
            );
            return;
        }
    };
    check!(
        got == expected,
        "find kind {kind} over {}: {got:?} != {expected:?}",
        keys.len()
    );
}

fn for_each(ctx: &mut Ctx, place: &Place, p: &Params) {
    let board = Board::new(p.keys.len(), None, Arc::clone(p.plan));
    let items = board.items(p.keys);
    let kind = ctx.rng.random_range(0..3);
    let visit = |id: u32| {
        board.visit(id);
        p.hit(id as usize);
    };
    let r = ctx.run_caught(place, p.plan, || {
        let it = items.par_iter().with_min_len(p.min_len);
        match kind {
            0 => it.for_each(|x| visit(x.id)),
            1 => it.for_each_with(0u64, |n, x| {
                *n += 1;
                visit(x.id)
            }),
            _ => it.for_each_init(Vec::<u32>::new, |seen, x| {
                seen.push(x.id);
                visit(x.id)
            }),
        }
    });
    if r.is_some() {
        board.check_visited_once("for_each");
    }
    drop(items);
    board.check_dropped_once("for_each items");
}

fn chunks(ctx: &mut Ctx, place: &Place, p: &Params) {
    let c = ctx.rng.random_range(1..=64);
    let sum = |ch: &[u64]| ch.iter().fold(0u64, |a, &b| a.wrapping_add(b));
    let expected: Vec<u64> = p.keys.chunks(c).map(sum).collect();
    let mut data = p.keys.to_vec();
    let got = ctx.run_caught(place, p.plan, || {
        let sums: Vec<u64> = p
            .keys
            .par_chunks(c)
            .enumerate()
            .map(|(j, ch)| {
                p.hit(j);
                sum(ch)
            })
            .collect();
        data.par_chunks_mut(c)
            .enumerate()
            .for_each(|(j, ch)| ch.iter_mut().for_each(|x| *x = mix(*x ^ j as u64)));
        sums
    });
    if let Some(got) = got {
        check!(
            got == expected,
            "par_chunks({c}) over {}: wrong sums",
            p.keys.len()
        );
        let ok = p
            .keys
            .chunks(c)
            .enumerate()
            .flat_map(|(j, ch)| ch.iter().map(move |&x| mix(x ^ j as u64)))
            .eq(data.iter().copied());
        check!(
            ok,
            "par_chunks_mut({c}) over {}: wrong values",
            p.keys.len()
        );
    }
}

fn fold_zip(ctx: &mut Ctx, place: &Place, p: &Params) {
    let other: Vec<u64> = (0..p.keys.len() as u64).map(mix).collect();
    let f = |i: usize, a: u64, b: u64| mix(a ^ b ^ i as u64);
    let expected = p
        .keys
        .iter()
        .zip(&other)
        .enumerate()
        .map(|(i, (&a, &b))| f(i, a, b))
        .fold(0u64, u64::wrapping_add);
    let max_len = ctx.rng.random_range(1..=4096);
    let got = ctx.run_caught(place, p.plan, || {
        p.keys
            .par_iter()
            .zip(other.par_iter())
            .enumerate()
            .with_max_len(max_len)
            .map(|(i, (&a, &b))| {
                p.hit(i);
                f(i, a, b)
            })
            .fold(|| 0u64, u64::wrapping_add)
            .reduce(|| 0, u64::wrapping_add)
    });
    if let Some(got) = got {
        check!(
            got == expected,
            "zip/fold over {}: {got} != {expected}",
            p.keys.len()
        );
    }
}

fn flat_map(ctx: &mut Ctx, place: &Place, p: &Params) {
    let n = p.keys.len();
    let fan = |i: usize| (0..i % 4).map(move |j| (i * 4 + j) as u64);
    let expected: Vec<u64> = (0..n).flat_map(fan).collect();
    let got = ctx.run_caught(place, p.plan, || {
        (0..n)
            .into_par_iter()
            .with_min_len(p.min_len)
            .flat_map_iter(|i| {
                p.hit(i);
                fan(i)
            })
            .collect::<Vec<u64>>()
    });
    if let Some(got) = got {
        check!(got == expected, "flat_map_iter over {n}: wrong result");
    }
}

fn partition(ctx: &mut Ctx, place: &Place, p: &Params) {
    let keys = p.keys;
    let (even, odd): (Vec<u64>, Vec<u64>) = keys.iter().partition(|&&k| k % 2 == 0);
    let pairs: (Vec<u64>, Vec<u64>) = keys.iter().map(|&k| (k, mix(k))).unzip();
    let mut prefix: Vec<u64> = vec![7, 8, 9];
    let kind = ctx.rng.random_range(0..3);
    let ok = ctx.run_caught(place, p.plan, || match kind {
        0 => {
            let got: (Vec<u64>, Vec<u64>) = keys.par_iter().enumerate().partition_map(|(i, &k)| {
                p.hit(i);
                if k % 2 == 0 {
                    prorata::iter::Either::Left(k)
                } else {
                    prorata::iter::Either::Right(k)
                }
            });
            got == (even.clone(), odd.clone())
        }
        1 => {
            let got: (Vec<u64>, Vec<u64>) = keys
                .par_iter()
                .enumerate()
                .map(|(i, &k)| {
                    p.hit(i);
                    (k, mix(k))
                })
                .unzip();
            got == pairs
        }
        _ => {
            prefix.par_extend(keys.par_iter().enumerate().map(|(i, &k)| {
                p.hit(i);
                k
            }));
            prefix[..3] == [7, 8, 9] && prefix[3..] == *keys
        }
    });
    if let Some(ok) = ok {
        check!(
            ok,
            "partition/unzip/par_extend kind {kind} over {}: wrong result",
            keys.len()
        );
    }
}
