//! Shares whose demand dips for a while (a fork-join tail: one worker still busy,
//! the others idle) keep their proportion: a share that used the cores they left
//! owes them back, within the stride policy's memory, and no longer.

use super::sim::{QUANTUM, Sim, assert_close};
use crate::shares::policy::SharePolicy::Stride;

/// Runs `cycles` cycles in which share `a` wants 2 cores for `busy` quanta, then
/// `dip` cores for `tail` quanta; returns each share's fraction of the core time.
pub(super) fn with_tails(
    sim: &mut Sim,
    a: usize,
    (busy, tail, dip): (u64, u64, u32),
    cycles: u32,
) -> Vec<f64> {
    let before = sim.core_times();
    for _ in 0..cycles {
        sim.set_want(a, 2);
        sim.run(busy);
        sim.set_want(a, dip);
        sim.run(tail);
    }
    since(sim, &before)
}

/// Each share's fraction of the core time used since `before`.
pub(super) fn since(sim: &Sim, before: &[u64]) -> Vec<f64> {
    let now = sim.core_times();
    let got: Vec<u64> = now.iter().zip(before).map(|(n, b)| n - b).collect();
    let total: u64 = got.iter().sum();
    got.iter().map(|&g| g as f64 / total as f64).collect()
}

#[test]
fn fork_join_tails_do_not_shift_the_proportions() {
    for (tickets, want) in [((3, 1), 0.75), ((9, 1), 0.9)] {
        let mut sim = Sim::new(2, Stride);
        let a = sim.add(None, tickets.0, 2);
        sim.add(None, tickets.1, 2);
        sim.run(5);
        // Every 25 quanta, a can use only one core for 5 quanta: b takes the other
        // (work conservation), then gives the extra back.
        let got = with_tails(&mut sim, a, (25, 5, 1), 10);
        assert_close(&got, &[want, 1.0 - want], 0.02);
    }
}

#[test]
fn short_idle_gaps_do_not_shift_the_proportions() {
    let mut sim = Sim::new(2, Stride);
    let a = sim.add(None, 3, 2);
    sim.add(None, 1, 2);
    sim.run(5);
    // A tail, then a moment with no demand at all (the next install starting).
    let before = sim.core_times();
    for _ in 0..10 {
        with_tails(&mut sim, a, (25, 5, 1), 1);
        sim.set_want(a, 0);
        sim.step();
    }
    assert_close(&since(&sim, &before), &[0.75, 0.25], 0.02);
}

#[test]
fn debt_is_forgotten_after_the_memory() {
    let mut sim = Sim::new(2, Stride);
    let a = sim.add(None, 9, 1);
    let b = sim.add(None, 1, 2);
    // a uses one core for a long time (40 s); b uses the other.
    sim.run(10_000);
    assert_eq!(sim.holding(b), 1);
    // a wants both cores now: b owes a lot and a is owed a lot, but each side is
    // remembered for at most the memory (a quarter of a second), so b runs again
    // within two memories.
    sim.set_want(a, 2);
    let memory = 250_000_000 / QUANTUM;
    sim.run(2);
    assert_eq!(sim.holding(b), 0, "b gives its extra core back");
    let mut waited = 2;
    while sim.holding(b) == 0 {
        sim.run(1);
        waited += 1;
        assert!(
            waited <= 2 * memory + 5,
            "b still starved after {waited} quanta"
        );
    }
    assert!(waited > memory, "b's debt was remembered ({waited} quanta)");
    // And then the proportion is 9:1 again.
    let got = sim.run(100);
    assert_close(&got, &[0.9, 0.1], 0.02);
}

#[test]
fn demand_capped_credit_is_bounded_too() {
    let mut sim = Sim::new(2, Stride);
    let a = sim.add(None, 1, 1);
    sim.add(None, 1, 2);
    // a could use half the cores but wants one: its credit grows only up to the
    // memory, so when it wants both it does not monopolise them for long.
    sim.run(10_000);
    sim.set_want(a, 2);
    let memory = 250_000_000 / QUANTUM;
    sim.run(memory + 5);
    let got = sim.run(100);
    assert_close(&got, &[0.5, 0.5], 0.02);
}

#[test]
fn tiny_shares_wait_their_whole_stride() {
    // On one core, leaves worth 0.4% and 0.2% get a quantum every few hundred
    // quanta, longer than the memory: that wait is their due, not a debt to forgive.
    let mut sim = Sim::new(1, Stride);
    let big = sim.add(None, 454, 0);
    for t in [16, 259, 1] {
        sim.add(Some(big), t, 1);
    }
    let small = sim.add(None, 1, 0);
    sim.add(Some(small), 1, 1);
    sim.run(5);
    let got = sim.run(2000);
    let f = 454.0 / 455.0;
    let want = [
        0.0,
        16.0 / 276.0 * f,
        259.0 / 276.0 * f,
        f / 276.0,
        0.0,
        1.0 / 455.0,
    ];
    assert_close(&got, &want, 0.005);
}

#[test]
fn fork_join_tails_in_a_currency_do_not_shift_its_proportions() {
    // On 4 cores, two tenants worth 2 cores each; in the first, `a` (3 tickets)
    // and `b` (1). Every 25 quanta, `a` can use only one core for 5 quanta: `b`,
    // its sibling, takes the other, and `a` takes it back afterwards.
    let mut sim = Sim::new(4, Stride);
    let t = sim.add(None, 100, 0);
    let u = sim.add(None, 100, 0);
    let a = sim.add(Some(t), 3, 2);
    sim.add(Some(t), 1, 2);
    sim.add(Some(u), 1, 4);
    sim.run(5);
    let got = with_tails(&mut sim, a, (25, 5, 1), 10);
    // Its part by tickets: 3/4 of its tenant's half.
    assert!((got[a] - 0.375).abs() <= 0.01, "a keeps its part: {got:?}");
}
