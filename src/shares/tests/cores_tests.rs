//! The pool's number of cores changed at run time (`Allocator::set_cores`: a
//! pool that follows its container's CPU quota): raised, the new cores go to
//! the waiters at once; lowered, the holders beyond the new count give their
//! core back at their next safe point (one step of the simulation) and no core
//! is granted again until the holders fit; the invariants hold throughout
//! (`Sim::step` checks them).

use super::sim::{Sim, assert_close};
use crate::shares::allocator::{Allocator, Config};
use crate::shares::policy::SharePolicy::{Lottery, MultiWinnerLottery, Stride};

fn holders(sim: &Sim, shares: &[usize]) -> usize {
    shares.iter().map(|&s| sim.holding(s)).sum()
}

#[test]
fn lowered_cores_are_given_back_at_the_next_safe_point() {
    for policy in [Stride, Lottery, MultiWinnerLottery] {
        let mut sim = Sim::new(4, policy);
        let a = sim.add(None, 100, 4);
        sim.run(2);
        assert_eq!(sim.holding(a), 4);
        sim.set_cores(1);
        assert_eq!(sim.alloc.excess(), 3, "{policy:?}");
        // The holders beyond the count reach their safe point: gone.
        sim.step();
        assert_eq!(sim.holding(a), 1, "{policy:?}: lowered to 1");
        assert_eq!(sim.alloc.excess(), 0, "{policy:?}");
        for _ in 0..200 {
            sim.step();
            assert!(sim.holding(a) <= 1, "{policy:?}: past the count");
        }
        // Raised: the waiters get the new cores at once.
        sim.set_cores(3);
        assert_eq!(sim.holding(a), 3, "{policy:?}: raised to 3");
        sim.run(5);
        assert_eq!(sim.holding(a), 3, "{policy:?}: raised, later");
    }
}

#[test]
fn raised_before_the_holders_gave_back_pays_off_the_excess() {
    let mut sim = Sim::new(4, Stride);
    let a = sim.add(None, 100, 4);
    sim.run(1);
    sim.set_cores(2);
    assert_eq!(sim.alloc.excess(), 2);
    // Back to 4 before any safe point: nothing vanishes, nothing is free.
    sim.set_cores(4);
    assert_eq!(sim.alloc.excess(), 0);
    sim.step();
    assert_eq!(sim.holding(a), 4);
}

#[test]
fn two_shares_keep_their_proportion_on_fewer_cores() {
    let mut sim = Sim::new(4, Stride);
    let a = sim.add(None, 100, 4);
    let b = sim.add(None, 300, 4);
    sim.run(20);
    sim.set_cores(2);
    for _ in 0..1000 {
        sim.step();
        assert!(holders(&sim, &[a, b]) <= 2, "past the count");
    }
    let got = sim.run(200);
    assert_close(&got, &[0.25, 0.75], 0.01);
}

#[test]
fn zero_cores_mean_one() {
    let mut alloc = Allocator::new(Config::new(2));
    let a = alloc.add_share(alloc.root(), 100).unwrap();
    let w = [alloc.add_worker(), alloc.add_worker()];
    alloc.request(w[0], a, 0);
    alloc.request(w[1], a, 0);
    let (granted, flagged) = alloc.set_cores(0, 1);
    assert!(granted.is_empty());
    assert_eq!(alloc.cores(), 1);
    assert_eq!(flagged.len(), 1);
    alloc.check();
    // The flagged holder reaches its safe point: its core vanishes, it waits.
    assert!(alloc.yield_core(flagged[0], 2).is_empty());
    assert!(!alloc.is_holding(flagged[0]));
    alloc.check();
    // The other gives its core back: the waiter gets it, one holder at most.
    let other = if flagged[0] == w[0] { w[1] } else { w[0] };
    assert_eq!(alloc.release(other, 3), vec![flagged[0]]);
    alloc.check();
}
