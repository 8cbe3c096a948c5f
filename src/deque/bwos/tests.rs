//! The BWoS queue alone: sequential behaviour against a model, drops, and threads
//! racing on small blocks (so that block boundaries, reuse and ring doubling happen
//! all the time).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use proptest::prelude::*;

use super::worker::{BLOCK_SLOTS, INITIAL_BLOCKS};
use super::{Stealer, Worker};
use crate::deque::{Steal, barrier};

/// An operation of a sequential run.
#[derive(Debug, Clone, Copy)]
enum Op {
    Push,
    Pop,
    Steal,
    /// A steal, and if it finds nothing a robbery: the pool's idle thief.
    StealOrRob,
    /// A batch steal of up to three values into the thief's own queue.
    StealBatch,
}

fn op() -> impl Strategy<Value = Op> {
    // Robberies rarer: each costs a process-wide barrier.
    prop_oneof![
        9 => Just(Op::Push),
        6 => Just(Op::Pop),
        4 => Just(Op::Steal),
        2 => Just(Op::StealBatch),
        1 => Just(Op::StealOrRob),
    ]
}

/// Runs `ops` on a queue of `S`-slot blocks and checks every answer against a
/// double-ended queue: the owner pops the newest value, a thief the oldest, and a
/// thief that found nothing while values were queued finds one after the owner's next
/// push or pop if two or more are queued (the owner grants when thieves run dry,
/// keeping a lone value private), and at once by robbing it.
fn check_against_model<const S: usize>(ops: &[Op], blocks: usize) {
    let worker = Worker::<u32, S>::with_blocks(blocks);
    let stealer = worker.stealer();
    // The batch thief's own queue.
    let dest = Worker::<u32, S>::with_blocks(1);
    let mut model = VecDeque::new();
    let mut next = 0;
    // A thief found nothing while values were queued / the owner has moved since.
    let (mut ran_dry, mut must_find) = (false, false);
    for &op in ops {
        match op {
            Op::Push => {
                worker.push(next);
                model.push_back(next);
                next += 1;
            }
            Op::Pop => assert_eq!(worker.pop(), model.pop_back()),
            Op::Steal | Op::StealBatch => match steal_into(&stealer, &dest, op) {
                Steal::Success(batch) => {
                    let oldest: Vec<u32> = model.drain(..batch.len()).collect();
                    assert_eq!(batch, oldest, "a batch is not the oldest values in order");
                }
                Steal::Empty => {
                    // A lone value may stay private (robbing takes it).
                    assert!(
                        model.len() < 2 || !must_find,
                        "nothing stealable after the owner moved, with {model:?} queued"
                    );
                    ran_dry = !model.is_empty();
                }
                Steal::Retry => panic!("a lone thief lost a race"),
            },
            Op::StealOrRob => {
                let taken = match stealer.steal() {
                    Steal::Success(v) => Some(v),
                    Steal::Empty => stealer.rob(&barrier::Owner::new()),
                    Steal::Retry => panic!("a lone thief lost a race"),
                };
                assert_eq!(taken, model.pop_front(), "the oldest value was not taken");
                ran_dry = false;
            }
        }
        if matches!(op, Op::Steal | Op::StealBatch | Op::StealOrRob) {
            must_find = false;
        } else {
            must_find |= ran_dry;
            ran_dry = false;
        }
        assert_eq!(worker.is_empty(), model.is_empty());
        assert_eq!(stealer.is_empty(), model.is_empty());
        assert!(worker.len() <= model.len());
    }
    while let Some(v) = worker.pop() {
        assert_eq!(Some(v), model.pop_back());
    }
    assert!(model.is_empty());
}

/// A steal (`Op::Steal`, one value) or a batch steal into `dest` (`Op::StealBatch`,
/// up to three); on success, the values taken in the order thieves would take them:
/// the one returned, then those `dest` holds (its owner pops them oldest first).
fn steal_into<const S: usize>(
    stealer: &Stealer<u32, S>,
    dest: &Worker<u32, S>,
    op: Op,
) -> Steal<Vec<u32>> {
    let got = match op {
        Op::StealBatch => stealer.steal_batch_and_pop(dest, 3),
        _ => stealer.steal(),
    };
    match got {
        Steal::Success(first) => {
            let rest: Vec<u32> = std::iter::from_fn(|| dest.pop()).collect();
            assert!(rest.len() < 3, "a batch larger than asked");
            Steal::Success(std::iter::once(first).chain(rest).collect())
        }
        Steal::Empty => Steal::Empty,
        Steal::Retry => Steal::Retry,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn sequential_runs_match_a_deque_with_1_slot_blocks(ops in prop::collection::vec(op(), 0..300)) {
        check_against_model::<1>(&ops, 1);
    }

    #[test]
    fn sequential_runs_match_a_deque_with_2_slot_blocks(ops in prop::collection::vec(op(), 0..300)) {
        check_against_model::<2>(&ops, 2);
    }

    #[test]
    fn sequential_runs_match_a_deque_with_3_slot_blocks(ops in prop::collection::vec(op(), 0..300)) {
        check_against_model::<3>(&ops, 1);
    }

    #[test]
    fn sequential_runs_match_a_deque_with_pool_blocks(ops in prop::collection::vec(op(), 0..600)) {
        check_against_model::<BLOCK_SLOTS>(&ops, INITIAL_BLOCKS);
    }
}

#[test]
fn owner_is_lifo_and_thieves_fifo_across_many_blocks() {
    let worker = Worker::<usize, 4>::with_blocks(2);
    let stealer = worker.stealer();
    (0..1000).for_each(|i| worker.push(i));
    for i in 0..300 {
        assert!(matches!(stealer.steal(), Steal::Success(v) if v == i));
    }
    for i in (300..1000).rev() {
        assert_eq!(worker.pop(), Some(i));
    }
    assert_eq!(worker.pop(), None);
    assert!(matches!(stealer.steal(), Steal::Empty));
}

#[test]
fn a_batch_is_half_of_what_the_block_offers_rounded_up() {
    let worker = Worker::<u32, 8>::with_blocks(2);
    let stealer = worker.stealer();
    let dest = Worker::<u32, 8>::with_blocks(1);
    // The ninth push closes the first block, granting its eight values.
    (0..9).for_each(|i| worker.push(i));
    let batch = |max| {
        let Steal::Success(first) = stealer.steal_batch_and_pop(&dest, max) else {
            panic!("nothing to steal")
        };
        let rest: Vec<u32> = std::iter::from_fn(|| dest.pop()).collect();
        std::iter::once(first).chain(rest).collect::<Vec<_>>()
    };
    assert_eq!(batch(8), [0, 1, 2, 3]);
    assert_eq!(batch(8), [4, 5]);
    assert_eq!(batch(1), [6]);
    assert_eq!(batch(8), [7]);
    assert_eq!(worker.pop(), Some(8));
    assert_eq!(worker.pop(), None);
}

#[test]
fn an_emptied_queue_gives_back_what_a_burst_made_it_allocate() {
    let worker = Worker::<u32, 4>::with_blocks(2);
    let stealer = worker.stealer();
    assert_eq!(worker.allocations(), (1, 2));
    for round in 0..3 {
        (0..1000).for_each(|i| worker.push(i));
        let (rings, blocks) = worker.allocations();
        assert!(
            rings == 1 && blocks >= 250,
            "round {round}: {rings} rings, {blocks} blocks"
        );
        for i in 0..10 {
            assert!(matches!(stealer.steal(), Steal::Success(v) if v == i));
        }
        for i in (10..1000).rev() {
            assert_eq!(worker.pop(), Some(i));
        }
        assert_eq!(worker.pop(), None);
        assert_eq!(worker.allocations(), (1, 2), "round {round}");
        assert!(matches!(stealer.steal(), Steal::Empty));
        assert!(stealer.is_empty() && worker.is_empty());
    }
    worker.push(7);
    worker.push(8);
    assert!(matches!(stealer.steal(), Steal::Success(7)));
    assert_eq!(worker.pop(), Some(8));
}

#[test]
fn a_pool_queue_keeps_a_ring_of_up_to_64_blocks() {
    use super::worker::KEPT_BLOCKS;
    let worker = Worker::<u32, BLOCK_SLOTS>::new();
    let burst = |n| {
        (0..n).for_each(|i| worker.push(i));
        let grown = worker.allocations();
        for i in (0..n).rev() {
            assert_eq!(worker.pop(), Some(i));
        }
        assert_eq!(worker.pop(), None);
        (grown, worker.allocations())
    };
    // 1000 jobs: a ring of 16 blocks, kept.
    let (grown, after) = burst(1000);
    assert!(grown.1 >= 16 && grown.1 <= KEPT_BLOCKS && after == grown);
    // 10^4 jobs: a ring of 256 blocks, given back.
    let (grown, after) = burst(10_000);
    assert!(grown.1 > KEPT_BLOCKS);
    assert_eq!(after, (1, INITIAL_BLOCKS));
}

/// Counts its drops.
struct Counted<'a>(&'a AtomicUsize);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn every_value_is_dropped_once() {
    for (pushed, stolen, popped) in [(0, 0, 0), (5, 1, 1), (100, 30, 20), (100, 0, 100)] {
        let drops = AtomicUsize::new(0);
        let worker = Worker::<Counted<'_>, 3>::with_blocks(1);
        let stealer = worker.stealer();
        (0..pushed).for_each(|_| worker.push(Counted(&drops)));
        for _ in 0..stolen {
            let Steal::Success(v) = stealer.steal() else {
                panic!("nothing to steal")
            };
            drop(v);
        }
        (0..popped).for_each(|_| drop(worker.pop()));
        assert_eq!(drops.load(Ordering::Relaxed), stolen + popped);
        drop(worker);
        assert_eq!(drops.load(Ordering::Relaxed), stolen + popped);
        drop(stealer);
        assert_eq!(drops.load(Ordering::Relaxed), pushed);
    }
}

#[test]
fn thieves_outlive_the_owner() {
    let worker = Worker::<Box<u32>, 2>::with_blocks(1);
    let stealer = worker.stealer();
    (0..7).for_each(|i| worker.push(Box::new(i)));
    drop(worker);
    let got: Vec<u32> = std::iter::from_fn(|| match stealer.steal() {
        Steal::Success(v) => Some(*v),
        _ => None,
    })
    .collect();
    assert_eq!(got, (0..7).collect::<Vec<_>>());
}

/// One owner pushing and popping at random, `thieves` threads stealing (and, if
/// `rob`, robbing the owner's private values whenever they find nothing to steal,
/// while the owner stops now and then),
/// blocks of `S` slots: every value is taken once, the owner always pops its newest
/// value, and each thief sees the values it takes in increasing order (they are taken
/// oldest first).
fn race<const S: usize>(thieves: usize, values: u32, blocks: usize, rob: bool) {
    race_batches::<S>(thieves, values, blocks, rob, 1)
}

/// `race`, the thieves taking batches of up to `batch` values into queues of their own
/// (which they empty before they steal again).
fn race_batches<const S: usize>(
    thieves: usize,
    values: u32,
    blocks: usize,
    rob: bool,
    batch: usize,
) {
    let worker = Worker::<u32, S>::with_blocks(blocks);
    let stealer = worker.stealer();
    let stop = AtomicBool::new(false);
    let stolen = Mutex::new(Vec::new());
    // The owner starts once every thief runs (else it may finish first).
    let started = std::sync::Barrier::new(thieves + 1);
    let popped = std::thread::scope(|s| {
        for _ in 0..thieves {
            let stealer: Stealer<u32, S> = stealer.clone();
            let (stop, stolen, started) = (&stop, &stolen, &started);
            s.spawn(move || {
                started.wait();
                let mut mine = Vec::new();
                let own = Worker::<u32, S>::with_blocks(1);
                let owner = barrier::Owner::new();
                loop {
                    match stealer.steal_batch_and_pop(&own, batch) {
                        Steal::Success(v) => {
                            mine.push(v);
                            mine.extend(std::iter::from_fn(|| own.pop()));
                        }
                        Steal::Retry => {}
                        Steal::Empty if stop.load(Ordering::Acquire) => break,
                        Steal::Empty => match rob.then(|| stealer.rob(&owner)).flatten() {
                            Some(v) => mine.push(v),
                            // Yield: spinning robbers starve the crate's other tests
                            // (the retiring pool's workers never got to sleep).
                            None => std::thread::yield_now(),
                        },
                    }
                }
                assert!(
                    mine.windows(2).all(|w| w[0] < w[1]),
                    "a thief went backwards"
                );
                stolen.lock().unwrap().extend(mine);
            });
        }
        started.wait();
        let mut stack = Vec::new();
        let mut popped = Vec::new();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = 0;
        while next < values || !stack.is_empty() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            if rob && rng % 64 == 0 {
                // Blocked in user code for a while: the robbers' turn.
                (0..20).for_each(|_| std::thread::yield_now());
            }
            if next < values && rng % 8 < 5 {
                worker.push(next);
                stack.push(next);
                next += 1;
            } else {
                match worker.pop() {
                    // Thieves take the oldest values only, so the newest one left is
                    // never stolen while an older one is queued.
                    Some(v) => {
                        assert_eq!(Some(v), stack.pop(), "the owner did not get its newest");
                        popped.push(v);
                    }
                    // Everything left was stolen.
                    None => stack.clear(),
                }
            }
        }
        stop.store(true, Ordering::Release);
        popped
    });
    let mut all = stolen.into_inner().unwrap();
    all.extend(popped);
    all.sort_unstable();
    assert_eq!(
        all,
        (0..values).collect::<Vec<_>>(),
        "lost or duplicated values"
    );
    assert!(stealer.is_empty());
}

#[test]
fn one_thief_races_the_owner_on_1_slot_blocks() {
    race::<1>(1, 50_000, 1, false);
}

#[test]
fn two_thieves_race_the_owner_on_2_slot_blocks() {
    race::<2>(2, 50_000, 1, false);
}

#[test]
fn three_thieves_race_the_owner_on_pool_blocks() {
    race::<BLOCK_SLOTS>(3, 200_000, INITIAL_BLOCKS, false);
}

#[test]
fn two_batch_thieves_race_the_owner_on_4_slot_blocks() {
    race_batches::<4>(2, 50_000, 1, false, 3);
}

#[test]
fn three_batch_thieves_race_the_owner_on_pool_blocks() {
    race_batches::<BLOCK_SLOTS>(3, 200_000, INITIAL_BLOCKS, false, 8);
}

#[test]
fn batch_thieves_and_a_robber_race_the_owner_on_pool_blocks() {
    race_batches::<BLOCK_SLOTS>(2, 5_000, INITIAL_BLOCKS, true, 8);
}

#[test]
fn a_robber_races_the_owner_on_2_slot_blocks() {
    race::<2>(1, 20_000, 1, true);
}

#[test]
fn two_robbers_race_the_owner_on_4_slot_blocks() {
    race::<4>(2, 20_000, 2, true);
}

#[test]
fn two_robbers_race_the_owner_on_pool_blocks() {
    race::<BLOCK_SLOTS>(2, 5_000, INITIAL_BLOCKS, true);
}

/// Values pushed by the owner in bursts far larger than the ring while one slow thief
/// steals: the ring doubles with the thief inside it, and nothing is lost.
#[test]
fn ring_doubles_under_a_thief() {
    let worker = Worker::<Arc<u32>, 2>::with_blocks(1);
    let stealer = worker.stealer();
    let stop = AtomicBool::new(false);
    let taken = std::thread::scope(|s| {
        let thief = s.spawn(|| {
            let mut n = 0;
            while !stop.load(Ordering::Acquire) {
                if let Steal::Success(v) = stealer.steal() {
                    assert_eq!(Arc::strong_count(&v), 1);
                    n += 1;
                }
            }
            n
        });
        let mut n = 0;
        for burst in 0..50 {
            (0..burst * 20).for_each(|i| worker.push(Arc::new(i)));
            n += std::iter::from_fn(|| worker.pop()).count();
        }
        stop.store(true, Ordering::Release);
        n + thief.join().unwrap()
    });
    assert_eq!(taken, (0..50).map(|b| b * 20).sum::<usize>());
}
