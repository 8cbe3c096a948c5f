//! `scope` / `scope_fifo` / `in_place_scope` trees: every spawn spawns its two halves
//! until a leaf, which visits its indices; a panic at one leaf (after its visits) must
//! reach the caller while every other leaf still runs exactly once.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use rand::RngExt;

use super::{Ctx, Nest};
use crate::items::check_all_once;
use crate::panics::Plan;
use crate::stats::STATS;
use crate::world::Place;

struct Env<'a> {
    leaf: usize,
    panic_at: usize,
    plan: &'a Plan,
    visits: Vec<AtomicU8>,
    nest: Option<(usize, Nest<'a>)>,
    spawns: AtomicU64,
}

impl Env<'_> {
    fn leaf(&self, lo: usize, hi: usize) {
        if let Some((at, nest)) = self.nest {
            if (lo..hi).contains(&at) {
                nest.run();
            }
        }
        for v in &self.visits[lo..hi] {
            v.fetch_add(1, Ordering::SeqCst);
        }
        if (lo..hi).contains(&self.panic_at) {
            self.plan.maybe_fire();
        }
    }
}

/// `Scope` and `ScopeFifo`, so one tree builder serves both.
trait Spawner<'s>: Sized {
    fn spawn_job<F: FnOnce(&Self) + Send + 's>(&self, f: F);
}

impl<'s> Spawner<'s> for prorata::Scope<'s> {
    fn spawn_job<F: FnOnce(&Self) + Send + 's>(&self, f: F) {
        self.spawn(f)
    }
}

impl<'s> Spawner<'s> for prorata::ScopeFifo<'s> {
    fn spawn_job<F: FnOnce(&Self) + Send + 's>(&self, f: F) {
        self.spawn_fifo(f)
    }
}

fn node<'s, S: Spawner<'s>>(s: &S, env: &'s Env<'s>, lo: usize, hi: usize) {
    env.spawns.fetch_add(1, Ordering::Relaxed);
    if hi - lo <= env.leaf {
        s.spawn_job(move |_| env.leaf(lo, hi));
    } else {
        let mid = lo + (hi - lo) / 2;
        s.spawn_job(move |s| {
            node(s, env, lo, mid);
            node(s, env, mid, hi);
        });
    }
}

pub fn scope_tree(ctx: &mut Ctx, place: &Place) {
    STATS.add(&STATS.scopes, 1);
    let n = ctx.size().min(20_000);
    let plan = ctx.plan(0.2, false);
    let nest = ctx.nest_point(n).map(|at| (at, ctx.nest()));
    let env = Env {
        leaf: ctx.rng.random_range(1..=512),
        panic_at: ctx.rng.random_range(0..n.max(1)),
        plan: &plan,
        visits: (0..n).map(|_| AtomicU8::new(0)).collect(),
        nest,
        spawns: AtomicU64::new(0),
    };
    let env = &env;
    let kind = ctx.rng.random_range(0..4);
    let _ = ctx.run_caught(place, &plan, || match kind {
        0 => prorata::scope(|s| node(s, env, 0, n)),
        1 => prorata::scope_fifo(|s| node(s, env, 0, n)),
        2 => prorata::in_place_scope(|s| node(s, env, 0, n)),
        _ => prorata::in_place_scope_fifo(|s| node(s, env, 0, n)),
    });
    check_all_once(
        &env.visits,
        &format!("scope tree (kind {kind}) over {n}"),
        "visited",
    );
    STATS.add(&STATS.scope_spawns, env.spawns.load(Ordering::Relaxed));
}
