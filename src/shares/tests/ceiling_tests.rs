//! A ceiling on a share's cores (`Share::set_max_cores`): the share, with the
//! shares below it, never holds more cores than its ceiling, even alone; the
//! cores its tickets are worth beyond it go to the other shares by tickets; a
//! lowered ceiling takes the extra cores back at the holders' next safe point
//! (one step of the simulation), a raised or removed one gives cores at once.

use super::sim::{Sim, assert_close};
use crate::shares::allocator::{Allocator, Config};
use crate::shares::error::ShareError;
use crate::shares::policy::SharePolicy::{self, Lottery, MultiWinnerLottery, Stride};

/// Runs `quanta` quanta, asserting after each step that `share` holds at most
/// `ceiling` cores; returns each share's fraction of the core time.
fn run_capped(sim: &mut Sim, quanta: u64, share: usize, ceiling: usize) -> Vec<f64> {
    let before = sim.core_times();
    for _ in 0..quanta * 10 {
        sim.step();
        assert!(
            sim.holding(share) <= ceiling,
            "share {share} holds {} cores, past its ceiling of {ceiling}",
            sim.holding(share)
        );
    }
    let got: Vec<u64> = (sim.core_times().iter().zip(&before))
        .map(|(a, b)| a - b)
        .collect();
    let total: u64 = got.iter().sum();
    got.iter().map(|&g| g as f64 / total as f64).collect()
}

#[test]
fn a_lone_share_holds_no_more_than_its_ceiling() {
    for policy in [Stride, Lottery, MultiWinnerLottery] {
        let mut sim = Sim::new(2, policy);
        let a = sim.add(None, 100, 2);
        sim.set_ceiling(a, Some(1));
        run_capped(&mut sim, 50, a, 1);
        // It runs on the one core it may hold: the ceiling is no hang.
        assert_eq!(sim.holding(a), 1, "{policy:?}");
        let used = sim.core_times()[a] as f64 / sim.now as f64;
        assert!((0.95..=1.0).contains(&used), "{policy:?}: {used} cores");
    }
}

#[test]
fn the_cores_beyond_a_ceiling_go_to_the_others() {
    for policy in [Stride, Lottery, MultiWinnerLottery] {
        // 50/50 on 4 cores: `a` may hold 1, so `b` gets the other 3.
        let mut sim = Sim::new(4, policy);
        let a = sim.add(None, 100, 4);
        let b = sim.add(None, 100, 4);
        sim.set_ceiling(a, Some(1));
        run_capped(&mut sim, 10, a, 1);
        let got = run_capped(&mut sim, 100, a, 1);
        // The lotteries' draws sometimes move `a`'s one core to `b` for a step.
        let tol = if policy == Stride { 0.01 } else { 0.03 };
        println!("{policy:?}: {got:?}");
        assert_close(&got, &[0.25, 0.75], tol);
        assert_eq!(sim.holding(a) + sim.holding(b), 4, "{policy:?}");
    }
}

#[test]
fn the_leftover_is_split_by_tickets() {
    // 8 cores; `a` (200 tickets, half of them) may hold 2: the other 6 go to
    // `b` and `c` 1:2.
    let mut sim = Sim::new(8, Stride);
    let a = sim.add(None, 200, 8);
    sim.add(None, 100, 8);
    sim.add(None, 200, 8);
    sim.set_ceiling(a, Some(2));
    run_capped(&mut sim, 10, a, 2);
    let got = run_capped(&mut sim, 200, a, 2);
    assert_close(&got, &[0.25, 0.25, 0.5], 0.01);
}

#[test]
fn a_ceiling_inside_a_currency() {
    // 8 cores: `p` and `q` 50/50; in `p`'s currency `c1` and `c2` 50/50.
    // A ceiling of 1 on `c1`: `c2` takes the rest of `p`'s 4 cores, `q` keeps 4.
    let mut sim = Sim::new(8, Stride);
    let p = sim.add(None, 100, 0);
    let c1 = sim.add(Some(p), 100, 8);
    let c2 = sim.add(Some(p), 100, 8);
    let q = sim.add(None, 100, 8);
    sim.set_ceiling(c1, Some(1));
    run_capped(&mut sim, 10, c1, 1);
    let got = run_capped(&mut sim, 200, c1, 1);
    assert_close(&got, &[0.0, 1.0 / 8.0, 3.0 / 8.0, 0.5], 0.01);
    assert_eq!(
        [c1, c2, q].map(|s| sim.holding(s)),
        [1, 3, 4],
        "holders of c1, c2, q"
    );
}

#[test]
fn a_ceiling_on_a_currency_caps_its_subtree() {
    // The same tree, the ceiling of 2 on `p`: `c1` and `c2` share 2 cores,
    // `q` gets the other 6.
    let mut sim = Sim::new(8, Stride);
    let p = sim.add(None, 100, 0);
    let c1 = sim.add(Some(p), 100, 8);
    let c2 = sim.add(Some(p), 100, 8);
    let q = sim.add(None, 100, 8);
    sim.set_ceiling(p, Some(2));
    for _ in 0..2000 {
        sim.step();
        assert!(sim.holding(c1) + sim.holding(c2) <= 2, "p's subtree past 2");
    }
    let got = run_capped(&mut sim, 200, q, 8);
    assert_close(&got, &[0.0, 0.125, 0.125, 0.75], 0.01);
}

#[test]
fn a_lowered_ceiling_takes_cores_back_at_the_next_safe_point() {
    for policy in [Stride, Lottery] {
        let mut sim = Sim::new(4, policy);
        let a = sim.add(None, 100, 4);
        sim.run(5);
        assert_eq!(sim.holding(a), 4, "{policy:?}: alone, it holds every core");
        sim.set_ceiling(a, Some(1));
        // The three extra holders are flagged and give their core back at their
        // next safe point (the next step), although nobody else waits.
        sim.step();
        assert_eq!(sim.holding(a), 1, "{policy:?}: after the safe point");
        run_capped(&mut sim, 10, a, 1);
        // Raised: the waiting workers get the free cores at once.
        sim.set_ceiling(a, Some(3));
        assert_eq!(sim.holding(a), 3, "{policy:?}: raised to 3");
        run_capped(&mut sim, 10, a, 3);
        // Removed: every core again.
        sim.set_ceiling(a, None);
        assert_eq!(sim.holding(a), 4, "{policy:?}: removed");
        sim.run(5);
        assert_eq!(sim.holding(a), 4, "{policy:?}: removed, later");
    }
}

#[test]
fn a_removed_ceiling_gives_back_the_share_its_proportion() {
    let mut sim = Sim::new(4, Stride);
    let a = sim.add(None, 100, 4);
    sim.add(None, 100, 4);
    sim.set_ceiling(a, Some(1));
    let got = run_capped(&mut sim, 50, a, 1);
    assert_close(&got, &[0.25, 0.75], 0.01);
    sim.set_ceiling(a, None);
    // Its credit for the cores it left is bounded: within a few quanta the two
    // run at their proportion again.
    sim.run(100);
    let got = sim.run(200);
    assert_close(&got, &[0.5, 0.5], 0.02);
}

#[test]
fn a_ceiling_of_zero_is_refused() {
    let mut alloc = Allocator::new(Config::new(2));
    let a = alloc.add_share(alloc.root(), 100).unwrap();
    assert_eq!(
        alloc.set_ceiling(a, Some(0), 0).unwrap_err(),
        ShareError::ZeroCeiling
    );
    assert_eq!(alloc.ceiling(a), None);
    // Larger than the pool: no limit.
    alloc.set_ceiling(a, Some(u32::MAX), 0).unwrap();
    let w = [alloc.add_worker(), alloc.add_worker()];
    alloc.request(w[0], a, 0);
    alloc.request(w[1], a, 0);
    assert!(alloc.is_holding(w[0]) && alloc.is_holding(w[1]));
    alloc.check();
}

#[test]
fn a_share_at_its_ceiling_takes_no_core_from_others() {
    // `a` (900 tickets) at its ceiling of 1 waits with a second worker: no
    // holder of `b` is asked to give its core for it, at a quantum's end or
    // when it asks.
    fn check(policy: SharePolicy) {
        let mut config = Config::new(2);
        config.policy = policy;
        let mut alloc = Allocator::new(config);
        let a = alloc.add_share(alloc.root(), 900).unwrap();
        let b = alloc.add_share(alloc.root(), 100).unwrap();
        alloc.set_ceiling(a, Some(1), 0).unwrap();
        let w: [_; 4] = std::array::from_fn(|_| alloc.add_worker());
        alloc.request(w[0], a, 0);
        alloc.request(w[1], b, 0);
        alloc.request(w[2], a, 0);
        alloc.request(w[3], b, 0);
        assert!(alloc.is_holding(w[0]) && alloc.is_holding(w[1]));
        assert!(alloc.contend(a, 0).is_empty(), "{policy:?}: contend");
        for q in 1..20 {
            // (A lottery's draw may take `a`'s core for `b`'s waiter: that is
            // its randomness, not the ceiling's.)
            let a_at_ceiling = alloc.is_holding(w[0]) || alloc.is_holding(w[2]);
            let flagged = alloc.tick(q * 4_000_000);
            if a_at_ceiling {
                let b_flagged = flagged.iter().any(|f| [w[1], w[3]].contains(f));
                assert!(!b_flagged, "{policy:?}: tick at {q}");
            }
            alloc.check();
            for f in flagged {
                alloc.yield_core(f, q * 4_000_000);
                alloc.check();
            }
        }
        if policy != Stride {
            return;
        }
        assert!(
            alloc.is_holding(w[1]),
            "{policy:?}: b's holder kept its core"
        );
        // `b`'s holder leaves: its core goes to `b`'s waiter, not `a`'s.
        let t = 80_000_000;
        assert_eq!(alloc.release(w[1], t), vec![w[3]], "{policy:?}");
        alloc.check();
    }
    for policy in [Stride, Lottery, MultiWinnerLottery] {
        check(policy);
    }
}

#[test]
fn the_entitlements_cap_a_share_at_its_ceiling() {
    // 4 cores, `a` and `b` 50/50, both wanting all: `a`'s ceiling of 1 leaves 3
    // to `b`, in the entitlements the lottery decides with and in those both
    // policies charge against.
    let mut sim = Sim::new(4, Stride);
    let a = sim.add(None, 100, 4);
    let b = sim.add(None, 100, 4);
    sim.run(1);
    let (ia, ib) = (sim.id(a), sim.id(b));
    assert_eq!(
        (sim.alloc.entitlement(ia), sim.alloc.entitlement(ib)),
        (2.0, 2.0)
    );
    sim.set_ceiling(a, Some(1));
    sim.run(1);
    assert_eq!(
        (sim.alloc.entitlement(ia), sim.alloc.entitlement(ib)),
        (1.0, 3.0)
    );
    let mut s = crate::shares::entitlement::Scratch::default();
    let charged = (
        sim.alloc.ticket_cores(ia, &mut s),
        sim.alloc.ticket_cores(ib, &mut s),
    );
    assert_eq!(charged, (1.0, 3.0));
}
