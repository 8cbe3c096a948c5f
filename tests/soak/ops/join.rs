//! Nested `join` trees: a sum over a range split by `join` (or `join_context`) down to
//! random leaves, with a panic injected at one index, a few yields, and a nested
//! operation at one leaf.

use std::sync::atomic::{AtomicU64, Ordering};

use rand::RngExt;

use super::{Ctx, Nest, mix};
use crate::panics::Plan;
use crate::stats::STATS;
use crate::world::Place;

struct Tree<'a> {
    leaf: usize,
    panic_at: usize,
    plan: &'a Plan,
    /// Indices whose leaf calls `yield_now` or `yield_local`: a few only, since each
    /// yield may run a job nested on the stack (a yield at every leaf could nest a
    /// whole tree's leaves, in Rayon as here).
    yields: Vec<usize>,
    with_context: bool,
    nest: Option<(usize, Nest<'a>)>,
    joins: AtomicU64,
    yielded: AtomicU64,
}

impl Tree<'_> {
    fn sum(&self, lo: usize, hi: usize) -> u64 {
        if hi - lo <= self.leaf {
            return self.leaf_sum(lo, hi);
        }
        self.joins.fetch_add(1, Ordering::Relaxed);
        let mid = lo + (hi - lo) / 2;
        let (a, b) = if self.with_context {
            prorata::join_context(|_| self.sum(lo, mid), |_| self.sum(mid, hi))
        } else {
            prorata::join(|| self.sum(lo, mid), || self.sum(mid, hi))
        };
        a.wrapping_add(b)
    }

    fn leaf_sum(&self, lo: usize, hi: usize) -> u64 {
        if self.yields.iter().any(|y| (lo..hi).contains(y)) {
            let y = if lo % 2 == 0 {
                prorata::yield_now()
            } else {
                prorata::yield_local()
            };
            if y.is_some() {
                self.yielded.fetch_add(1, Ordering::Relaxed);
            }
        }
        if let Some((at, nest)) = self.nest {
            if (lo..hi).contains(&at) {
                nest.run();
            }
        }
        let mut s = 0u64;
        for i in lo..hi {
            if i == self.panic_at {
                self.plan.maybe_fire();
            }
            s = s.wrapping_add(mix(i as u64));
        }
        s
    }
}

pub fn join_tree(ctx: &mut Ctx, place: &Place) {
    STATS.add(&STATS.join_trees, 1);
    let n = ctx.size();
    let plan = ctx.plan(0.2, false);
    let nest = ctx.nest_point(n).map(|at| (at, ctx.nest()));
    let tree = Tree {
        leaf: ctx.rng.random_range(1..=256),
        panic_at: ctx.rng.random_range(0..n.max(1)),
        plan: &plan,
        yields: (0..ctx.rng.random_range(0..4))
            .map(|_| ctx.rng.random_range(0..n.max(1)))
            .collect(),
        with_context: ctx.rng.random_bool(0.3),
        nest,
        joins: AtomicU64::new(0),
        yielded: AtomicU64::new(0),
    };
    let expected = (0..n as u64).map(mix).fold(0u64, u64::wrapping_add);
    let got = ctx.run_caught(place, &plan, || tree.sum(0, n));
    if let Some(got) = got {
        crate::check!(
            got == expected,
            "join tree over {n}: sum {got} != {expected}"
        );
    }
    STATS.add(&STATS.joins, tree.joins.load(Ordering::Relaxed));
    STATS.add(&STATS.yields, tree.yielded.load(Ordering::Relaxed));
}
