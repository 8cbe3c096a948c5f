//! Pools and shares made and dropped: dropped with spawned work in flight (blocked on
//! a gate the caller opens only after the drop), the world's pools and shares made,
//! dropped and re-ticketed, and `install` chains across pools and shares.

use std::sync::mpsc::channel;
use std::sync::{Arc, Condvar, Mutex};

use rand::RngExt;

use super::spawn::{Done, collect, job};
use super::{Ctx, compute};
use crate::panics::lock;
use crate::stats::STATS;
use crate::world::{self, Place};

/// Blocks spawned jobs until opened.
#[derive(Default)]
struct Gate {
    open: Mutex<bool>,
    cv: Condvar,
}

impl Gate {
    fn wait(&self) {
        let mut open = lock(&self.open);
        while !*open {
            open = self.cv.wait(open).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn open(&self) {
        *lock(&self.open) = true;
        self.cv.notify_all();
    }
}

/// The maker of gated job `i`.
type MakeJob<'a> = &'a (dyn Fn(usize) -> Box<dyn FnOnce() + Send> + Sync);

/// Spawns `k` gated jobs into `target` with `spawn`, drops `target` (a pool or a
/// share), opens the gate, and checks that every job still runs and reports.
fn gated_batch<T>(ctx: &mut Ctx, k: usize, target: T, spawn: impl FnOnce(&T, MakeJob)) {
    let plan = ctx.plan(0.3, true);
    let at = ctx.rng.random_range(0..k);
    let gate = Arc::new(Gate::default());
    let (tx, rx) = channel();
    let make = |i: usize| -> Box<dyn FnOnce() + Send> {
        let (gate, plan, done) = (Arc::clone(&gate), Arc::clone(&plan), Done::new(&tx, i));
        Box::new(move || {
            gate.wait();
            job(i, at, &plan, done)
        })
    };
    spawn(&target, &make);
    drop(tx);
    STATS.add(&STATS.spawned_jobs, k as u64);
    ctx.watch.stage(ctx.slot, "dropping with work in flight");
    drop(target);
    if ctx.rng.random_bool(0.3) {
        std::thread::sleep(std::time::Duration::from_micros(
            ctx.rng.random_range(0..2000),
        ));
    }
    gate.open();
    ctx.watch
        .stage(ctx.slot, "waiting for the jobs of the dropped pool");
    collect(rx, k, at, &plan);
}

/// A new pool (sometimes with the calling thread as worker 0), gated jobs spawned
/// into it in several ways, the pool dropped before they may run.
pub fn pool_dropped_in_flight(ctx: &mut Ctx, _place: &Place) {
    STATS.add(&STATS.pools_dropped_in_flight, 1);
    // With this thread as worker 0, the drop hands worker 0 to a new thread, which
    // runs what only worker 0 can (its broadcast job; everything, if it is alone).
    let current = ctx.rng.random_bool(0.2);
    let n = ctx.rng.random_range(1..=ctx.world.max_workers);
    let mut builder = world::builder(&mut ctx.rng, n);
    if current {
        builder = builder.use_current_thread();
    }
    let pool = builder.build().expect("soak: pool");
    let kind = ctx.rng.random_range(0..5);
    let k = if kind == 4 {
        pool.current_num_threads()
    } else {
        ctx.rng.random_range(1..=12)
    };
    gated_batch(ctx, k, pool, |pool_ref, make| match kind {
        0 => (0..k).for_each(|i| pool_ref.spawn(make(i))),
        1 => (0..k).for_each(|i| pool_ref.spawn_fifo(make(i))),
        2 => pool_ref.install(|| (0..k).for_each(|i| prorata::spawn(make(i)))),
        3 if current => (0..k).for_each(|i| prorata::spawn_fifo(make(i))),
        3 => pool_ref.install(|| (0..k).for_each(|i| prorata::spawn_fifo(make(i)))),
        _ => {
            // One job per worker; each takes its own job out of the shared list.
            let jobs: Vec<_> = (0..k).map(|i| Mutex::new(Some(make(i)))).collect();
            pool_ref.spawn_broadcast(move |c| {
                let f = lock(&jobs[c.index()]).take();
                f.expect("one broadcast job per worker")()
            })
        }
    });
}

/// A new share (of a pool, of the global pool, or of a share), gated jobs spawned
/// into it, the share dropped before they may run.
pub fn share_dropped_in_flight(ctx: &mut Ctx, place: &Place) {
    let tickets = ctx.rng.random_range(1..=1000);
    let made = match place {
        Place::Global => prorata::share(tickets),
        Place::Pool(p) => p.pool.share(tickets),
        Place::Share(s) => s.share.share(tickets),
    };
    // A pool leaving the world takes no new shares; that is checked elsewhere.
    let Ok(share) = made else { return };
    STATS.add(&STATS.shares_made, 1);
    STATS.add(&STATS.shares_dropped_in_flight, 1);
    let kind = ctx.rng.random_range(0..4);
    let k = ctx.rng.random_range(1..=12);
    gated_batch(ctx, k, share, |share_ref, make| match kind {
        0 => (0..k).for_each(|i| share_ref.spawn(make(i))),
        1 => (0..k).for_each(|i| share_ref.spawn_fifo(make(i))),
        2 => share_ref.install(|| (0..k).for_each(|i| prorata::spawn(make(i)))),
        _ => share_ref.install(|| (0..k).for_each(|i| prorata::spawn_fifo(make(i)))),
    });
}

pub fn change_pools(ctx: &mut Ctx, _place: &Place) {
    if ctx.rng.random_bool(0.6) {
        ctx.world.add_pool(&mut ctx.rng);
    } else {
        ctx.world.drop_pool(&mut ctx.rng);
    }
}

pub fn change_shares(ctx: &mut Ctx, _place: &Place) {
    if ctx.rng.random_bool(0.6) {
        ctx.world.add_share(&mut ctx.rng);
    } else {
        ctx.world.drop_share(&mut ctx.rng);
    }
}

pub fn reticket(ctx: &mut Ctx, _place: &Place) {
    ctx.world.reticket(&mut ctx.rng);
}

/// `install` into `place`, from there into another place (cross-pool or cross-share,
/// lending tickets), and a computing operation there.
pub fn cross_install(ctx: &mut Ctx, place: &Place) {
    STATS.add(&STATS.cross_installs, 1);
    let other = ctx.world.pick(&mut ctx.rng);
    let mut child = ctx.child();
    place.run(|| other.run(|| compute(&mut child, &Place::Global)));
}
