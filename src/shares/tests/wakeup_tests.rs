//! Wake-up preemption: a share that becomes active, or whose running workers wake
//! others for the work they publish, gets the cores it is due at the holders' next
//! safe points, not at the end of a quantum. The mechanism, on the allocator's
//! virtual clock: a worker of the arriving share asks (`request`) and contends
//! (`contend`), the policy flags a holder over its part, and that holder's next safe
//! point (`yield_core`) hands the core over; a worker woken for published work is
//! announced (`anticipate`) before it runs, and the core its share is due is freed
//! and kept for it (for a hold at most).

use crate::shares::allocator::{Allocator, Config, WorkerId};
use crate::shares::policy::SharePolicy::{self, Lottery, MultiWinnerLottery, Stride};
use crate::shares::tree::ShareId;

const MS: u64 = 1_000_000;
const US: u64 = 1_000;
const POLICIES: [SharePolicy; 3] = [Stride, Lottery, MultiWinnerLottery];

/// Two cores, 400 µs holds, 4 ms quanta; a foreground share of 900 tickets and a
/// background one of 100, two workers each (fg: w[0], w[1]; bg: w[2], w[3]). The
/// background runs alone on both cores from time 0.
fn background_running(policy: SharePolicy) -> (Allocator, [ShareId; 2], [WorkerId; 4]) {
    background_running_seeded(policy, Config::new(2).seed)
}

/// [`background_running`] with the lotteries' random numbers seeded by `seed`.
fn background_running_seeded(
    policy: SharePolicy,
    seed: u64,
) -> (Allocator, [ShareId; 2], [WorkerId; 4]) {
    let mut config = Config::new(2);
    config.policy = policy;
    config.seed = seed;
    config.quantum_nanos = 4 * MS;
    config.hold_nanos = 400 * US;
    let mut alloc = Allocator::new(config);
    let fg = alloc.add_share(alloc.root(), 900).unwrap();
    let bg = alloc.add_share(alloc.root(), 100).unwrap();
    let w: [_; 4] = std::array::from_fn(|_| alloc.add_worker());
    assert_eq!(alloc.request(w[2], bg, 0), vec![w[2]]);
    assert_eq!(alloc.request(w[3], bg, 0), vec![w[3]]);
    // The background runs a while: a quantum ends with nobody else waiting.
    assert!(alloc.tick(8 * MS).is_empty());
    alloc.check();
    (alloc, [fg, bg], w)
}

/// fg's worker `w0` asks for a core at `t`; the holder flagged for it gives its core
/// back at its safe point 50 µs later, to `w0`. Returns that holder.
fn fg_arrives(alloc: &mut Allocator, fg: ShareId, w0: WorkerId, t: u64) -> WorkerId {
    assert!(alloc.request(w0, fg, t).is_empty(), "no core is free");
    let holder = alloc.contend(fg, t)[0];
    assert_eq!(alloc.yield_core(holder, t + 50 * US), vec![w0]);
    holder
}

#[test]
fn an_arriving_share_gets_a_core_at_the_first_safe_point_of_a_holder() {
    for policy in POLICIES {
        let (mut alloc, [fg, _], w) = background_running(policy);
        let t = 10 * MS;
        assert!(
            alloc.request(w[0], fg, t).is_empty(),
            "{policy:?}: no core is free"
        );
        let flagged = alloc.contend(fg, t);
        assert_eq!(flagged.len(), 1, "{policy:?}: one holder asked at once");
        assert!(alloc.is_flagged(flagged[0]));
        // That holder's next safe point, 50 µs later, well within the quantum.
        assert_eq!(
            alloc.yield_core(flagged[0], t + 50 * US),
            vec![w[0]],
            "{policy:?}"
        );
        assert!(alloc.is_holding(w[0]));
        alloc.check();
    }
}

/// Under the lotteries too, an arriving share worth a core or more by its tickets
/// gets one at the holders' next safe point whatever the draw: the draw decides
/// only the part of its entitlement beyond whole cores. Here over many seeds, for
/// a first query and for one arriving again while the share is still remembered as
/// recently active (its lag from the first one in the ledger, and a draw made
/// while its last query ran).
#[test]
fn an_arriving_share_worth_a_core_gets_one_under_every_seed() {
    for policy in [Lottery, MultiWinnerLottery] {
        for seed in 1..=300 {
            let (mut alloc, [fg, _], w) = background_running_seeded(policy, seed);
            let mut t = 10 * MS;
            for query in 0..3 {
                assert!(alloc.request(w[0], fg, t).is_empty(), "no core is free");
                let flagged = alloc.contend(fg, t);
                assert_eq!(
                    flagged.len(),
                    1,
                    "{policy:?}, seed {seed}, query {query}: one holder asked at once"
                );
                assert_eq!(alloc.yield_core(flagged[0], t + 50 * US), vec![w[0]]);
                // A quantum ends near the end of the query: a draw is made with
                // the query's one worker, which may lose it (it then keeps its
                // core to its next safe point, as nobody waits).
                for f in alloc.tick(t + 500 * US) {
                    alloc.yield_core(f, t + 520 * US);
                }
                // The query ends; the core goes back to the background, which
                // runs on both cores until the next query.
                alloc.release(w[0], t + 550 * US);
                let granted = alloc.lapse(t + MS);
                assert!(granted.iter().all(|&g| g == w[2] || g == w[3]));
                alloc.check();
                t += 4 * MS;
            }
        }
    }
}

/// Each core's lottery weighs the shares that still want one by their tickets, not
/// by their entitlements capped at their demands: a share worth 1.8 cores whose one
/// worker holds a core keeps it when a quantum ends unless the other share wins
/// both lotteries (about one draw in a hundred here, over many seeds), not whenever
/// it loses one of two lotteries between shares weighed alike (one in four).
#[test]
fn a_share_with_one_worker_keeps_its_core_in_a_draw_by_its_tickets() {
    let seeds = 400;
    let mut lost = 0;
    for seed in 1..=seeds {
        let (mut alloc, [fg, _], w) = background_running_seeded(Lottery, seed);
        let t = 10 * MS;
        fg_arrives(&mut alloc, fg, w[0], t);
        if alloc.tick(t + 500 * US).contains(&w[0]) {
            lost += 1;
        }
        alloc.check();
    }
    assert!(
        lost * 20 < seeds,
        "the query's worker lost its core in {lost} draws of {seeds}"
    );
}

#[test]
fn a_woken_worker_finds_the_core_its_share_is_due_kept_for_it() {
    for policy in POLICIES {
        let (mut alloc, [fg, _], w) = background_running(policy);
        let t = 10 * MS;
        fg_arrives(&mut alloc, fg, w[0], t);
        // fg's worker publishes work and wakes w[1]: before it runs, the holder the
        // policy would take a core from is asked.
        let flagged = alloc.anticipate(fg, 1, t + 60 * US).flagged;
        assert_eq!(flagged.len(), 1, "{policy:?}: the other background holder");
        // Its safe point: the core stays free for fg, though bg's worker waits.
        assert!(
            alloc.yield_core(flagged[0], t + 100 * US).is_empty(),
            "{policy:?}"
        );
        alloc.check();
        // w[1] runs and asks: granted at once.
        assert_eq!(
            alloc.request(w[1], fg, t + 120 * US),
            vec![w[1]],
            "{policy:?}"
        );
        assert!(alloc.is_holding(w[0]) && alloc.is_holding(w[1]));
        alloc.check();
    }
}

#[test]
fn a_claim_nobody_takes_goes_back_to_the_waiters_after_a_hold() {
    let (mut alloc, [fg, _], w) = background_running(Stride);
    let t = 10 * MS;
    fg_arrives(&mut alloc, fg, w[0], t);
    let flagged = alloc.anticipate(fg, 1, t + 60 * US).flagged;
    alloc.yield_core(flagged[0], t + 100 * US);
    // The woken worker found nothing to do and never asks: the core goes back
    // 100 µs after it was freed.
    assert_eq!(alloc.next_lapse(), Some(t + 200 * US));
    assert!(alloc.lapse(t + 150 * US).is_empty(), "lapsed early");
    let granted = alloc.lapse(t + 200 * US);
    assert_eq!(granted.len(), 1);
    assert!(
        granted[0] == w[2] || granted[0] == w[3],
        "a background worker"
    );
    alloc.check();
}

#[test]
fn nothing_is_claimed_while_a_core_is_free_or_for_a_share_not_running() {
    let (mut alloc, [fg, bg], w) = background_running(Stride);
    // fg runs nothing: a wake-up of its workers announces nothing.
    assert!(alloc.anticipate(fg, 1, 10 * MS).flagged.is_empty());
    // A free core: the woken worker will get it when it asks.
    alloc.release(w[3], 10 * MS);
    alloc.lapse(11 * MS);
    assert!(alloc.request(w[0], fg, 11 * MS).contains(&w[0]));
    assert!(alloc.anticipate(bg, 1, 11 * MS).flagged.is_empty());
    alloc.check();
}

#[test]
fn a_share_whose_calls_come_far_apart_keeps_its_core_only_for_its_caller_to_wake() {
    let (mut alloc, [fg, _], w) = background_running(Stride);
    // A call every 4 ms; from the second on, the pause before each is known.
    let mut t = 10 * MS;
    fg_arrives(&mut alloc, fg, w[0], t);
    alloc.release(w[0], t + 550 * US);
    alloc.lapse(t + MS);
    t += 4 * MS;
    for _ in 0..3 {
        let first = fg_arrives(&mut alloc, fg, w[0], t);
        // The call ends 500 µs later: its core goes to the background once the
        // caller's thread has had a moment to wake on it (100 µs, not a whole hold).
        let end = t + 550 * US;
        assert!(alloc.release(w[0], end).is_empty());
        assert_eq!(alloc.next_lapse(), Some(end + 100 * US));
        assert_eq!(
            alloc.lapse(end + 100 * US),
            vec![first],
            "the background's core"
        );
        alloc.check();
        t += 4 * MS;
    }
}

/// The same with the pauses a call has inside it (its workers run out of work for
/// a few tens of microseconds while its last pieces finish): those short pauses do
/// not make the share look as if it were called in a loop, so the core its call
/// leaves still goes to the background after a moment, not after a whole hold.
#[test]
fn pauses_inside_calls_do_not_keep_a_core_idle_after_each_call() {
    for policy in POLICIES {
        let (mut alloc, [fg, _], w) = background_running(policy);
        let mut t = 10 * MS;
        fg_arrives(&mut alloc, fg, w[0], t);
        alloc.release(w[0], t + 550 * US);
        alloc.lapse(t + MS);
        t += 4 * MS;
        for call in 0..3 {
            let first = fg_arrives(&mut alloc, fg, w[0], t);
            // Out of work for 30 µs, then the call's last piece.
            alloc.release(w[0], t + 400 * US);
            assert_eq!(alloc.request(w[0], fg, t + 430 * US), vec![w[0]]);
            let end = t + 550 * US;
            assert!(alloc.release(w[0], end).is_empty());
            assert_eq!(
                alloc.next_lapse(),
                Some(end + 100 * US),
                "{policy:?}, call {call}"
            );
            assert_eq!(alloc.lapse(end + 100 * US), vec![first], "{policy:?}");
            alloc.check();
            t += 4 * MS;
        }
    }
}

#[test]
fn a_share_called_in_a_tight_loop_still_has_its_core_kept() {
    let (mut alloc, [fg, _], w) = background_running(Stride);
    let t = 10 * MS;
    fg_arrives(&mut alloc, fg, w[0], t);
    alloc.release(w[0], t + 550 * US);
    // Back 100 µs later: the pause was short.
    let t = t + 650 * US;
    let granted = alloc.request(w[0], fg, t);
    let holder = if granted.is_empty() {
        let flagged = alloc.contend(fg, t);
        alloc.yield_core(flagged[0], t + 50 * US);
        t + 50 * US
    } else {
        t
    };
    assert!(alloc.is_holding(w[0]));
    // This call ends: its pause before was short, so its core is kept a moment.
    assert!(alloc.release(w[0], holder + 500 * US).is_empty());
    assert!(alloc.next_lapse().is_some());
    alloc.check();
}

/// A core kept for a share lapses, and the next thing the allocator hears is a
/// wake-up of another share's workers: the lapsed core goes to the waiter there and
/// then (a waiter times out only for lapses still to come, so a core left free
/// here stayed free while every worker waited: the pool stalled).
#[test]
fn a_hold_that_lapses_before_a_wake_up_goes_to_the_waiters() {
    for policy in POLICIES {
        let (mut alloc, [fg, bg], w) = background_running(policy);
        let t = 10 * MS;
        let first = fg_arrives(&mut alloc, fg, w[0], t);
        // fg's call ends while bg's worker waits: the core is kept for fg a while.
        assert!(alloc.release(w[0], t + 500 * US).is_empty(), "{policy:?}");
        let lapse = alloc.next_lapse().expect("a core is kept for fg");
        // Past the lapse, bg's running worker wakes another of bg's.
        let done = alloc.anticipate(bg, 1, lapse + US);
        assert_eq!(done.granted, vec![first], "{policy:?}: the waiter");
        alloc.check();
    }
}

/// A claim whose holder does not reach a safe point within the hold (its thread was
/// not running) is void afterwards: the next wake-up of the share's workers asks a
/// holder again (a stale claim counted against every later one, and the share's
/// woken workers waited for the end of a quantum).
#[test]
fn a_claim_past_its_time_does_not_hold_back_the_next_one() {
    for policy in POLICIES {
        let (mut alloc, [fg, _], w) = background_running(policy);
        let t = 10 * MS;
        fg_arrives(&mut alloc, fg, w[0], t);
        // fg publishes work and wakes w[1], which finds nothing and never asks.
        let flagged = alloc.anticipate(fg, 1, t + 60 * US).flagged;
        assert_eq!(flagged.len(), 1, "{policy:?}");
        // The flagged holder is late: the claim is over, and the core goes to the
        // background's waiter.
        let late = t + 2 * MS;
        assert_eq!(alloc.yield_core(flagged[0], late).len(), 1, "{policy:?}");
        alloc.check();
        // fg publishes work again: a holder is asked again.
        let again = alloc.anticipate(fg, 1, late + 100 * US).flagged;
        assert_eq!(again.len(), 1, "{policy:?}: a holder is asked again");
        alloc.check();
    }
}

/// The workers' paced safe points let a ready thread run first while two or more
/// shares compete (see `PoolShares::on_paced_safe_point`): `competing` holds from a
/// second share's first request until its activity memory is over, and never for a
/// share alone.
#[test]
fn shares_compete_while_two_are_active_or_recent() {
    for policy in POLICIES {
        let (mut alloc, [fg, _], w) = background_running(policy);
        assert!(!alloc.competing(), "{policy:?}: the background alone");
        let t = 10 * MS;
        fg_arrives(&mut alloc, fg, w[0], t);
        assert!(alloc.competing(), "{policy:?}: a query arrived");
        assert_eq!(alloc.top_share(), Some(fg.index()), "{policy:?}");
        alloc.release(w[0], t + 550 * US);
        alloc.lapse(t + MS);
        assert!(alloc.competing(), "{policy:?}: between two queries");
        // No query for longer than the activity memory (4 quanta): the next call
        // into the allocator forgets it.
        alloc.tick(t + 20 * MS);
        assert!(!alloc.competing(), "{policy:?}: the queries stopped");
        alloc.check();
    }
}

/// A worker that contends takes cores for its own share's waiting workers, not for
/// every waiting share: the others are served at the end of the quantum. (A move
/// for every due waiter at each contention turned all the cores over at every
/// arrival: with 10,000 shares on 256 cores, each core about every 250 µs.)
#[test]
fn a_contending_worker_takes_at_most_a_core_per_worker_of_its_share_waiting() {
    for policy in POLICIES {
        let mut config = Config::new(2);
        config.policy = policy;
        config.quantum_nanos = 4 * MS;
        let mut alloc = Allocator::new(config);
        let bg = alloc.add_share(alloc.root(), 100).unwrap();
        let [a, b, c] = [(); 3].map(|_| alloc.add_share(alloc.root(), 100).unwrap());
        let w: [_; 5] = std::array::from_fn(|_| alloc.add_worker());
        assert_eq!(alloc.request(w[0], bg, 0), vec![w[0]]);
        assert_eq!(alloc.request(w[1], bg, 0), vec![w[1]]);
        assert!(alloc.tick(8 * MS).is_empty());
        // Two shares arrive without contending (their workers wait); a third
        // contends: one core moves, for it, though all three are due.
        let t = 10 * MS;
        assert!(alloc.request(w[2], a, t).is_empty());
        assert!(alloc.request(w[3], b, t).is_empty());
        assert!(alloc.request(w[4], c, t).is_empty());
        let flagged = alloc.contend(c, t);
        assert_eq!(flagged.len(), 1, "{policy:?}: {flagged:?}");
        alloc.check();
        // The end of the quantum serves the others by the policy.
        let more = alloc.tick(t + 4 * MS);
        assert!(more.len() <= 1, "{policy:?}: {more:?}");
        alloc.check();
    }
}
