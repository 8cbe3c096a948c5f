//! `broadcast` (a panic reaches the caller) and batches of `spawn`, `spawn_fifo` and
//! `spawn_broadcast` (a panic reaches the pool's panic handler): every spawned job
//! reports exactly once, with the right value.

use std::sync::Arc;
use std::sync::mpsc::{Sender, channel};

use prorata::prelude::*;
use rand::RngExt;

use super::{Ctx, mix};
use crate::check;
use crate::panics::Plan;
use crate::stats::STATS;
use crate::world::Place;

pub fn broadcast(ctx: &mut Ctx, place: &Place) {
    STATS.add(&STATS.broadcasts, 1);
    let plan = ctx.plan(0.2, false);
    let at = ctx.rng.random_range(0..ctx.world.max_workers);
    let op = |c: prorata::BroadcastContext<'_>| {
        if c.index() == at {
            plan.maybe_fire();
        }
        (c.index(), c.num_threads())
    };
    // Through the handle from outside, or with the free function inside the place.
    let got = if ctx.rng.random_bool(0.5) {
        crate::panics::caught(&plan, || (place.num_threads(), place.broadcast(op)))
    } else {
        ctx.run_caught(place, &plan, || {
            (prorata::current_num_threads(), prorata::broadcast(op))
        })
    };
    if let Some((n, v)) = got {
        let ok = v.len() == n && v.iter().enumerate().all(|(i, &(j, m))| i == j && m == n);
        check!(ok, "broadcast on {n} workers: {v:?}");
    }
}

/// What a spawned job reports: its index and its value, or `None` if it unwound.
pub type Report = (usize, Option<u64>);

/// Reports when sent or, if the job unwinds (or is dropped unrun), as `None`.
pub struct Done {
    tx: Sender<Report>,
    i: usize,
    sent: bool,
}

impl Done {
    pub fn new(tx: &Sender<Report>, i: usize) -> Done {
        Done {
            tx: tx.clone(),
            i,
            sent: false,
        }
    }

    pub fn send(mut self, v: u64) {
        self.sent = true;
        let _ = self.tx.send((self.i, Some(v)));
    }
}

impl Drop for Done {
    fn drop(&mut self) {
        if !self.sent {
            let _ = self.tx.send((self.i, None));
        }
    }
}

/// The work of spawned job `i`: a small parallel sum in its pool.
pub fn job_value(i: usize) -> u64 {
    (0..(i * 97 % 2000) as u64)
        .into_par_iter()
        .map(mix)
        .reduce(|| 0, u64::wrapping_add)
}

pub fn expected_value(i: usize) -> u64 {
    (0..(i * 97 % 2000) as u64)
        .map(mix)
        .fold(0, u64::wrapping_add)
}

/// Runs job `i` of a batch: fires `plan` if `i == at`, else reports its value.
pub fn job(i: usize, at: usize, plan: &Plan, done: Done) {
    if i == at {
        plan.maybe_fire();
    }
    done.send(job_value(i));
}

/// Collects `k` reports: every job reports once, with its value, or unwinds as the
/// one whose panic `plan` fired.
pub fn collect(rx: std::sync::mpsc::Receiver<Report>, k: usize, at: usize, plan: &Plan) {
    let mut seen = vec![false; k];
    for _ in 0..k {
        let Ok((i, v)) = rx.recv() else {
            check!(false, "a spawned job vanished without reporting");
            return;
        };
        check!(i < k && !seen[i], "spawned job {i} of {k} reported twice");
        seen[i] = true;
        match v {
            Some(v) => check!(v == expected_value(i), "spawned job {i}: wrong value"),
            None => check!(
                i == at && plan.fired(),
                "spawned job {i} unwound or was dropped unrun (panic planned at {at}, fired: {})",
                plan.fired()
            ),
        }
    }
}

/// A batch of jobs spawned into `place` (from outside it, or from inside with the
/// free functions), one of which may panic into the panic handler.
pub fn spawn_batch(ctx: &mut Ctx, place: &Place) {
    STATS.add(&STATS.spawns, 1);
    let plan = ctx.plan(0.3, true);
    let kind = ctx.rng.random_range(0..5);
    let k = if kind == 4 {
        place.num_threads()
    } else {
        ctx.rng.random_range(1..=16)
    };
    let at = ctx.rng.random_range(0..k);
    let (tx, rx) = channel();
    STATS.add(&STATS.spawned_jobs, k as u64);
    let spawn_one = |i: usize, fifo: bool, inside: bool| {
        let (done, plan) = (Done::new(&tx, i), Arc::clone(&plan));
        let f = move || job(i, at, &plan, done);
        match (inside, fifo) {
            (false, _) => place.spawn(fifo, f),
            (true, false) => prorata::spawn(f),
            (true, true) => prorata::spawn_fifo(f),
        }
    };
    match kind {
        0 => (0..k).for_each(|i| spawn_one(i, false, false)),
        1 => (0..k).for_each(|i| spawn_one(i, true, false)),
        2 => place.run(|| (0..k).for_each(|i| spawn_one(i, false, true))),
        3 => place.run(|| (0..k).for_each(|i| spawn_one(i, true, true))),
        _ => {
            let (tx, plan) = (tx.clone(), Arc::clone(&plan));
            place.run(move || {
                prorata::spawn_broadcast(move |c| {
                    job(c.index(), at, &plan, Done::new(&tx, c.index()))
                })
            })
        }
    }
    drop(tx);
    ctx.watch.stage(ctx.slot, "waiting for the spawned jobs");
    collect(rx, k, at, &plan);
}
