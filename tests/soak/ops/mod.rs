//! The operations a soak thread picks at random, and what they share: the context
//! (generator, world, place), sizes, keys, and nesting one operation in another.

mod iter;
mod join;
mod lifecycle;
mod scope;
mod sort;
mod spawn;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::panics::{self, Plan};
use super::stats::STATS;
use super::watchdog::Watch;
use super::world::{Place, World};
use std::sync::Arc;

/// Everything an operation needs, movable into a pool's closure.
pub struct Ctx<'w> {
    pub rng: StdRng,
    pub world: &'w World,
    pub watch: &'w Watch,
    /// The watchdog slot of the soak thread this operation belongs to.
    pub slot: usize,
    /// 0 for a soak thread's own operation, more when nested.
    pub depth: u32,
    /// The most items an operation makes.
    pub max_len: usize,
}

/// What a nested operation needs: a seed instead of a generator, so that it can be
/// shared by reference with the closures of a `join` or a parallel iterator.
#[derive(Clone, Copy)]
pub struct Nest<'w> {
    seed: u64,
    world: &'w World,
    watch: &'w Watch,
    slot: usize,
    depth: u32,
    max_len: usize,
}

impl<'w> Ctx<'w> {
    pub fn new(seed: u64, world: &'w World, watch: &'w Watch, slot: usize, max_len: usize) -> Self {
        Ctx {
            rng: StdRng::seed_from_u64(seed),
            world,
            watch,
            slot,
            depth: 0,
            max_len,
        }
    }

    /// A length: mostly small, sometimes large enough for every parallel path.
    pub fn size(&mut self) -> usize {
        let cap = self.max_len.max(1);
        let n = match self.rng.random_range(0..100) {
            0..=54 => self.rng.random_range(0..64),
            55..=84 => self.rng.random_range(64..4096),
            85..=97 => self.rng.random_range(4096..65_536),
            _ => self.rng.random_range(65_536..300_000),
        };
        n.min(cap)
    }

    /// Keys for `n` items: few distinct values or many.
    pub fn keys(&mut self, n: usize) -> Vec<u64> {
        let range = if self.rng.random_bool(0.3) {
            16
        } else {
            u64::MAX
        };
        (0..n).map(|_| self.rng.random_range(0..range)).collect()
    }

    /// A plan armed with probability `p`.
    pub fn plan(&mut self, p: f64, to_handler: bool) -> Arc<Plan> {
        Plan::new(self.rng.random_bool(p), to_handler)
    }

    /// Where a nested operation may run: at one index of `n`, if this one is shallow.
    pub fn nest_point(&mut self, n: usize) -> Option<usize> {
        (self.depth < 2 && n > 0 && self.rng.random_bool(0.15)).then(|| self.rng.random_range(0..n))
    }

    /// A context for an operation nested in this one.
    pub fn child(&mut self) -> Ctx<'w> {
        Ctx {
            rng: StdRng::seed_from_u64(self.rng.random()),
            depth: self.depth + 1,
            max_len: self.max_len / 4,
            ..*self
        }
    }

    pub fn nest(&mut self) -> Nest<'w> {
        Nest {
            seed: self.rng.random(),
            world: self.world,
            watch: self.watch,
            slot: self.slot,
            depth: self.depth + 1,
            max_len: self.max_len / 4,
        }
    }

    /// Runs `body` in `place`, catching `plan`'s panic inside or outside the place.
    pub fn run_caught<R: Send>(
        &mut self,
        place: &Place,
        plan: &Plan,
        body: impl FnOnce() -> R + Send,
    ) -> Option<R> {
        if self.rng.random_bool(0.5) {
            place.run(|| panics::caught(plan, body))
        } else {
            panics::caught(plan, || place.run(body))
        }
    }
}

impl Nest<'_> {
    /// Runs a random computing operation, in the current pool or in another place
    /// (an `install` from inside a pool: cross-pool or cross-share).
    pub fn run(self) {
        let mut ctx = Ctx {
            rng: StdRng::seed_from_u64(self.seed),
            world: self.world,
            watch: self.watch,
            slot: self.slot,
            depth: self.depth,
            max_len: self.max_len,
        };
        STATS.add(&STATS.nested, 1);
        let here = prorata::current_thread_index().is_some();
        let place = if here && ctx.rng.random_bool(0.5) {
            None
        } else {
            STATS.add(&STATS.cross_installs, 1);
            Some(ctx.world.pick(&mut ctx.rng))
        };
        // Sometimes inside an isolated region, or in a closure that says it blocks
        // (a relief thread runs the worker's jobs meanwhile; the closure's thread is
        // no worker, so its operation runs where a call from outside goes).
        let wrap = ctx.rng.random_range(0..10);
        let op = |ctx: &mut Ctx| match place {
            None => compute(ctx, &Place::Global),
            Some(p) => p.run(|| compute(ctx, &Place::Global)),
        };
        match wrap {
            0 => {
                STATS.add(&STATS.isolated, 1);
                prorata::isolate(|| op(&mut ctx));
            }
            1 => {
                STATS.add(&STATS.blocked, 1);
                prorata::block_in_place(|| op(&mut ctx));
            }
            _ => op(&mut ctx),
        }
    }
}

/// One computing operation (no blocking, no spawn that outlives it) in `place`.
pub fn compute(ctx: &mut Ctx, place: &Place) {
    STATS.add(&STATS.ops, 1);
    match ctx.rng.random_range(0..10) {
        0..=1 => join::join_tree(ctx, place),
        2..=3 => scope::scope_tree(ctx, place),
        4..=6 => iter::pipeline(ctx, place),
        7..=8 => sort::sort(ctx, place),
        _ => spawn::broadcast(ctx, place),
    }
}

/// A soak thread's next operation, in a random place.
pub fn random_op(ctx: &mut Ctx) {
    let place = ctx.world.pick(&mut ctx.rng);
    let (name, op): (&'static str, fn(&mut Ctx, &Place)) = match ctx.rng.random_range(0..100) {
        0..=13 => ("join tree", join::join_tree),
        14..=25 => ("scope tree", scope::scope_tree),
        26..=47 => ("par_iter pipeline", iter::pipeline),
        48..=59 => ("sort", sort::sort),
        60..=64 => ("broadcast", spawn::broadcast),
        65..=71 => ("spawn batch", spawn::spawn_batch),
        72..=74 => ("pool dropped in flight", lifecycle::pool_dropped_in_flight),
        75..=77 => (
            "share dropped in flight",
            lifecycle::share_dropped_in_flight,
        ),
        78..=80 => ("make/drop pool", lifecycle::change_pools),
        81..=88 => ("make/drop share", lifecycle::change_shares),
        89..=93 => ("set_tickets", lifecycle::reticket),
        _ => ("cross install", lifecycle::cross_install),
    };
    ctx.watch.begin(ctx.slot, name, place.name());
    STATS.add(&STATS.ops, 1);
    op(ctx, &place);
    ctx.watch.end(ctx.slot);
}

/// `x` mixed, so sums and sorts see varied values.
pub fn mix(x: u64) -> u64 {
    (x ^ (x >> 29))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(23)
}
