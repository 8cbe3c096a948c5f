//! A core that a share gives back while another share waits is kept for it a
//! moment (`Config::hold_nanos`): a share called in a loop takes it back at once
//! when it returns within that moment, and owes nothing for it; a share that has
//! stopped gives it to the waiter once the moment has passed (work conservation,
//! a little later). A share that gives its core back for longer keeps its claim
//! in the policy's passes, and whoever used the cores meanwhile pays for them.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use super::sim::Sim;
use crate::shares::allocator::{Allocator, Config, WorkerId};
use crate::shares::permits::Permits;
use crate::shares::policy::SharePolicy::{self, Stride};
use crate::shares::tree::ShareId;

const MS: u64 = 1_000_000;

/// Two cores, shares of 9 and 1 tickets with two workers each; the first
/// share's workers hold both cores and the second's wait.
fn nine_to_one(policy: SharePolicy) -> (Allocator, [ShareId; 2], [WorkerId; 4]) {
    let mut config = Config::new(2);
    config.policy = policy;
    config.quantum_nanos = 4 * MS;
    config.hold_nanos = MS;
    let mut alloc = Allocator::new(config);
    let (a, b) = (
        alloc.add_share(alloc.root(), 9).unwrap(),
        alloc.add_share(alloc.root(), 1).unwrap(),
    );
    let w: [_; 4] = std::array::from_fn(|_| alloc.add_worker());
    alloc.request(w[0], a, 0);
    alloc.request(w[1], a, 0);
    alloc.request(w[2], b, 0);
    alloc.request(w[3], b, 0);
    assert!(alloc.is_holding(w[0]) && alloc.is_holding(w[1]));
    alloc.check();
    (alloc, [a, b], w)
}

// (The lotteries keep a core for a share below its last draw's target; these
// allocators have not drawn yet, so the stride policy alone.)
#[test]
fn a_share_back_within_the_hold_takes_its_core_at_once() {
    let (mut alloc, [a, _], w) = nine_to_one(Stride);
    // Between two calls: both workers of `a` give their cores back.
    assert!(alloc.release(w[0], MS).is_empty());
    assert!(alloc.release(w[1], MS).is_empty());
    alloc.check();
    assert!(alloc.lapse(MS + MS / 2).is_empty(), "lapsed early");
    assert!(!alloc.is_holding(w[2]) && !alloc.is_holding(w[3]));
    // The next call: `a` takes both back without preempting anyone.
    assert_eq!(alloc.request(w[0], a, MS + MS / 2), vec![w[0]]);
    assert_eq!(alloc.request(w[1], a, MS + MS / 2), vec![w[1]]);
    alloc.check();
}

#[test]
fn a_share_that_stops_gives_its_cores_once_the_hold_is_over() {
    let (mut alloc, _, w) = nine_to_one(Stride);
    alloc.release(w[0], MS);
    alloc.release(w[1], MS);
    assert_eq!(alloc.next_lapse(), Some(2 * MS));
    let mut granted = alloc.lapse(2 * MS);
    granted.sort_by_key(|w| w.index());
    assert_eq!(granted, vec![w[2], w[3]]);
    assert_eq!(alloc.next_lapse(), None);
    alloc.check();
}

#[test]
fn nothing_is_kept_when_nobody_else_waits() {
    let (mut alloc, [a, b], w) = nine_to_one(Stride);
    // `b`'s workers stop waiting (they get cores, then give them back).
    alloc.release(w[0], MS);
    alloc.release(w[1], MS);
    alloc.lapse(2 * MS);
    alloc.release(w[2], 3 * MS);
    alloc.release(w[3], 3 * MS);
    assert_eq!(alloc.next_lapse(), None);
    // Whoever asks first gets a free core.
    assert_eq!(alloc.request(w[2], b, 3 * MS), vec![w[2]]);
    assert_eq!(alloc.request(w[0], a, 3 * MS), vec![w[0]]);
    // A waiter of the same share takes a core given back at once.
    alloc.request(w[1], a, 3 * MS);
    assert_eq!(alloc.release(w[0], 4 * MS), vec![w[1]]);
    alloc.check();
}

/// A reading made without a decision (what a share's sub-pool asks before it
/// starts a thread) sees the state time alone has changed: after the other
/// shares stopped, with nobody calling into the allocator since, they no longer
/// count as active once their activity memory is over, and the core kept for
/// one of them is free once its hold is over.
#[test]
fn a_reading_catches_up_with_shares_that_stopped() {
    let mut config = Config::new(2);
    config.quantum_nanos = 4 * MS;
    config.hold_nanos = MS;
    let mut alloc = Allocator::new(config);
    // `b` is worth more than the core it holds, so a core it gives back while
    // another share waits is kept for it.
    let [a, b, c] = [1, 8, 1].map(|t| alloc.add_share(alloc.root(), t).unwrap());
    let w: [_; 3] = std::array::from_fn(|_| alloc.add_worker());
    alloc.request(w[0], a, 0);
    alloc.request(w[1], b, 0);
    alloc.request(w[2], c, 0);
    assert!(alloc.is_holding(w[0]) && alloc.is_holding(w[1]));
    // `b` gives its core back while `c` waits (kept for `b`), then `c` stops
    // waiting: both shares have stopped, and nobody calls in after.
    alloc.release(w[1], MS);
    alloc.release(w[2], MS);
    alloc.check();
    let mut scratch = Default::default();
    let later = 100 * MS;
    assert!(alloc.ticket_cores(a, &mut scratch) < 1.0);
    assert_eq!(alloc.unclaimed_cores(), 0, "the core is kept for `b`");
    assert!(alloc.is_behind(later));
    assert!(alloc.catch_up(later).is_empty(), "nobody waits");
    assert!(!alloc.is_behind(later));
    assert_eq!(alloc.ticket_cores(a, &mut scratch), 2.0);
    assert_eq!(alloc.unclaimed_cores(), 1);
    alloc.check();
}

/// A share over its part does not keep a core through its workers' idle
/// moments: the core goes to the share that is due, at once.
#[test]
fn a_share_over_its_part_keeps_no_core() {
    let mut config = Config::new(2);
    config.hold_nanos = MS;
    let mut alloc = Allocator::new(config);
    let a = alloc.add_share(alloc.root(), 9).unwrap();
    let b = alloc.add_share(alloc.root(), 1).unwrap();
    let w: [_; 3] = std::array::from_fn(|_| alloc.add_worker());
    alloc.request(w[0], b, 0);
    alloc.request(w[1], b, 0);
    alloc.request(w[2], a, 0);
    assert!(!alloc.is_holding(w[2]));
    assert_eq!(alloc.release(w[0], MS), vec![w[2]]);
    assert_eq!(alloc.next_lapse(), None);
    alloc.check();
}

#[test]
fn a_lender_keeps_no_core() {
    let (mut alloc, [a, b], w) = nine_to_one(Stride);
    // A worker of `a` blocks on work it handed to `b` (a cross-share `install`).
    alloc.lend(a, b);
    assert_eq!(alloc.release(w[0], MS).len(), 1);
    assert_eq!(alloc.next_lapse(), None);
    alloc.check();
}

/// A share away for longer than the hold (its caller is slow to call again):
/// the other share uses both cores meanwhile and is charged for them against its
/// ticket entitlement, the one away keeps its pass (no reset to the global pass
/// when it returns within the activity memory) and takes the cores back first.
#[test]
fn the_share_that_used_a_gap_pays_for_it() {
    let mut sim = Sim::new(2, Stride);
    let a = sim.add(None, 9, 2);
    let b = sim.add(None, 1, 2);
    sim.run(20);
    let (sa, sb) = (sim.id(a).index(), sim.id(b).index());
    let pass = |sim: &Sim, s: usize| sim.alloc.stride().unwrap().pass(s);
    sim.set_want(a, 0);
    // (The step charges `a`'s workers up to their release.)
    sim.step();
    let (a_before, b_before) = (pass(&sim, sa), pass(&sim, sb));
    for _ in 0..10 {
        sim.step();
    }
    // `b` held both cores for most of the gap: its pass ran ahead by about ten
    // strides per core-quantum (it is worth a fifth of a core).
    assert_eq!(sim.holding(b), 2);
    let b_ran = pass(&sim, sb) - b_before;
    assert!(b_ran > 5.0, "b's pass moved {b_ran}");
    assert_eq!(pass(&sim, sa), a_before, "a's pass moved while it was away");
    sim.set_want(a, 2);
    sim.step();
    sim.step();
    assert!(
        pass(&sim, sa) < a_before + 1.0,
        "a's pass was reset forward on its return"
    );
    // `a` gets both cores back and keeps them while `b` pays its debt.
    sim.step();
    assert_eq!(sim.holding(a), 2);
    let got = sim.run(2);
    assert_eq!(got[b], 0.0, "b ran while paying back: {got:?}");
}

/// With real threads: a waiter that went to sleep before a core was kept wakes
/// up when the hold is over, though its own wait (a long quantum) is not.
#[test]
fn a_sleeping_waiter_gets_a_kept_core_when_the_hold_lapses() {
    let mut config = Config::new(1);
    config.quantum_nanos = 60_000 * MS;
    config.hold_nanos = MS;
    let permits = Arc::new(Permits::new(config));
    let a = permits.add_share(permits.root(), 1).unwrap();
    let b = permits.add_share(permits.root(), 1).unwrap();
    let (ha, hb) = (permits.register_worker(), permits.register_worker());
    permits.acquire(&ha, a);
    let (tx, rx) = mpsc::channel();
    let waiter = {
        let permits = permits.clone();
        std::thread::spawn(move || {
            permits.acquire(&hb, b);
            tx.send(()).unwrap();
            permits.release(&hb);
        })
    };
    // Let the waiter block (its wait lasts the quantum: a minute).
    while permits.stats(b).parks == 0 {
        std::thread::yield_now();
    }
    permits.release(&ha);
    // A guard against a hang, not a timing: the hold is a millisecond.
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the waiter never got the kept core");
    waiter.join().unwrap();
    permits.check();
}
