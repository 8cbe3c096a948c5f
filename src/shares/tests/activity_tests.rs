//! A share used in a loop (its demand falls to zero for a moment between two
//! calls) keeps its claim: the activity memory. A share that really stops gives
//! its cores away at once, and the others' proportions among themselves hold.

use super::debt_tests::since;
use super::sim::{QUANTUM, Sim, assert_close, fractions};
use crate::shares::policy::SharePolicy::{self, Lottery, MultiWinnerLottery, Stride};

/// Share `a` is called in a loop for `cycles` cycles: it wants every core for
/// `busy` quanta, one core for a one-quantum tail, then none for `gap` steps (a
/// tenth of a quantum each) before the next call. Returns the fractions of the
/// core time.
fn calls_in_a_loop(
    sim: &mut Sim,
    a: usize,
    cores: u32,
    busy: u64,
    gap: u32,
    cycles: u32,
) -> Vec<f64> {
    let before = sim.core_times();
    for _ in 0..cycles {
        sim.set_want(a, cores);
        sim.run(busy);
        sim.set_want(a, 1);
        sim.run(1);
        sim.set_want(a, 0);
        for _ in 0..gap {
            sim.step();
        }
    }
    since(sim, &before)
}

#[test]
fn repeated_calls_keep_their_claim() {
    for policy in [Stride, Lottery, MultiWinnerLottery] {
        for cores in [2, 8] {
            for tickets in [[9, 1], [3, 1], [1, 3]] {
                let mut sim = Sim::new(cores, policy);
                let a = sim.add(None, tickets[0], cores);
                sim.add(None, tickets[1], cores);
                sim.run(5);
                // About 50 ms calls with a 1 ms gap, for about a second.
                let got = calls_in_a_loop(&mut sim, a, cores, 11, 2, 20);
                let tol = if policy == Stride { 0.01 } else { 0.02 };
                assert_close(&got, &fractions(&tickets), tol);
            }
        }
    }
}

#[test]
fn a_share_that_stops_gives_its_cores_at_once() {
    for policy in [Stride, Lottery, MultiWinnerLottery] {
        let mut sim = Sim::new(2, policy);
        let a = sim.add(None, 3, 2);
        let b = sim.add(None, 2, 2);
        let c = sim.add(None, 1, 2);
        sim.run(50);
        sim.set_want(a, 0);
        // (A worker of `a` granted a core during the step gives it back in the
        // next; each core is kept for `a` for one step before it goes.)
        for _ in 0..3 {
            sim.step();
        }
        assert_eq!(sim.holding(b) + sim.holding(c), 2, "{policy:?}");
        // The others split the cores 2:1 from then on.
        let got = sim.run(250);
        assert_close(&got, &[0.0, 2.0 / 3.0, 1.0 / 3.0], 0.01);
    }
}

#[test]
fn a_returning_share_gets_its_cores_within_the_quantum() {
    for policy in [Stride, Lottery, MultiWinnerLottery] {
        let mut sim = Sim::new(2, policy);
        let a = sim.add(None, 1, 0);
        let b = sim.add(None, 1, 2);
        sim.run(100);
        assert_eq!(sim.holding(b), 2);
        // `a` asks at once after a tick: it need not wait for the next one.
        sim.set_want(a, 2);
        for _ in 0..3 {
            sim.step();
        }
        assert!(
            sim.holding(a) >= 1,
            "{policy:?}: a holds {}",
            sim.holding(a)
        );
        let _ = QUANTUM;
    }
}

/// The memory is bounded: a share idle for longer than the memory starts afresh
/// (no hoarded credit), whatever its policy.
#[test]
fn a_long_gap_forgets_the_claim() {
    for policy in [Stride, Lottery, MultiWinnerLottery] as [SharePolicy; 3] {
        let mut sim = Sim::new(2, policy);
        let a = sim.add(None, 1, 2);
        sim.add(None, 1, 2);
        sim.run(20);
        sim.set_want(a, 0);
        sim.run(100);
        sim.set_want(a, 2);
        sim.step();
        // Five quanta: the plain lottery's draws of so few are noisy.
        let tol = if policy == Lottery { 0.25 } else { 0.1 };
        assert_close(&sim.run(5), &[0.5, 0.5], tol);
    }
}

/// Compensation for short use (Waldspurger, section 3.1.3): a share whose worker
/// blocks for part of each quantum (it wants the core for three steps, then
/// waits on something for one) is charged only what it used, keeps its claim
/// across the block, and takes its core back when it returns, so it still gets
/// its fraction, with every policy.
#[test]
fn a_share_that_blocks_often_still_gets_its_fraction() {
    for policy in [Stride, Lottery, MultiWinnerLottery] {
        for (tickets, want) in [([1, 1], 0.5), ([1, 3], 0.25)] {
            let mut sim = Sim::new(1, policy);
            let a = sim.add(None, tickets[0], 1);
            sim.add(None, tickets[1], 1);
            sim.run(5);
            let before = sim.core_times();
            for _ in 0..2500 {
                sim.set_want(a, 1);
                for _ in 0..3 {
                    sim.step();
                }
                sim.set_want(a, 0);
                sim.step();
            }
            let got = since(&sim, &before);
            let tol = if policy == Stride { 0.01 } else { 0.02 };
            assert_close(&got, &[want, 1.0 - want], tol);
        }
    }
}
