//! Loom models of the BWoS protocol (run by `ci/loom.sh`). Blocks of one or two slots
//! and rings of one or two blocks make every push cross a block boundary, reuse a block
//! or double the ring; loom runs every interleaving (and the weak-memory outcomes it
//! models, within the preemption bound of `ci/loom.sh`), reports any racing access to a
//! slot, and the models check that every value is taken exactly once, the owner's in
//! LIFO order and each thief's in FIFO order.

use loom::sync::atomic::{AtomicBool, Ordering, fence};
use loom::thread;

use super::{Stealer, Worker};
use crate::deque::{Steal, barrier};

/// One steal attempt that retries lost races (a thief of the pool does the same).
fn steal_once<const S: usize>(stealer: &Stealer<u32, S>) -> Option<u32> {
    loop {
        match stealer.steal() {
            Steal::Success(v) => return Some(v),
            Steal::Empty => return None,
            Steal::Retry => thread::yield_now(),
        }
    }
}

/// Starts `thieves` threads that each try `attempts` steals; returns their handles.
fn start_thieves<const S: usize>(
    worker: &Worker<u32, S>,
    thieves: usize,
    attempts: usize,
) -> Vec<thread::JoinHandle<Vec<u32>>> {
    (0..thieves)
        .map(|_| {
            let stealer = worker.stealer();
            thread::spawn(move || (0..attempts).filter_map(|_| steal_once(&stealer)).collect())
        })
        .collect()
}

/// Pops until empty, checking LIFO order.
fn drain<const S: usize>(worker: &Worker<u32, S>) -> Vec<u32> {
    let popped: Vec<u32> = std::iter::from_fn(|| worker.pop()).collect();
    assert!(
        popped.windows(2).all(|w| w[0] > w[1]),
        "owner not LIFO: {popped:?}"
    );
    popped
}

/// Joins the thieves and checks that `0..n` were all taken, once each, thieves FIFO.
fn check_all_taken(n: u32, mut taken: Vec<u32>, handles: Vec<thread::JoinHandle<Vec<u32>>>) {
    for h in handles {
        let stolen = h.join().unwrap();
        assert!(
            stolen.windows(2).all(|w| w[0] < w[1]),
            "thief not FIFO: {stolen:?}"
        );
        taken.extend(stolen);
    }
    taken.sort_unstable();
    assert_eq!(
        taken,
        (0..n).collect::<Vec<_>>(),
        "lost or duplicated values"
    );
}

/// The shape of most models: an owner with blocks of `S` slots in a ring of `blocks`,
/// and `thieves` threads of `attempts` steals each; the owner pushes `0..n`, calls
/// `then`, and pops until empty; every value must be taken once.
fn push_then_drain<const S: usize>(
    blocks: usize,
    thieves: usize,
    attempts: usize,
    n: u32,
    then: fn(&Worker<u32, S>),
) {
    loom::model(move || {
        let worker = Worker::<u32, S>::with_blocks(blocks);
        let handles = start_thieves(&worker, thieves, attempts);
        (0..n).for_each(|i| worker.push(i));
        then(&worker);
        let popped = drain(&worker);
        check_all_taken(n, popped, handles);
    });
}

/// Owner against one thief, across a block boundary: three values in blocks of two,
/// so the third push closes the first block (granting it) and the pops take back
/// what the thief left, moving back into the first block.
#[test]
fn loom_owner_and_thief_across_a_block_boundary() {
    push_then_drain::<2>(2, 1, 2, 3, |_| {});
}

/// Owner against two thieves on one-slot blocks: each push after the first moves to
/// the next block; the two thieves race for the granted values and for moving on.
#[test]
fn loom_owner_and_two_thieves() {
    push_then_drain::<1>(2, 2, 1, 2, |_| {});
}

/// Two thieves and a block needed again: two one-slot blocks and three pushes, so the
/// third push needs the first block again and either reuses it or doubles the ring.
/// (Within the preemption bound, loom's executions of this model reuse only blocks no
/// thief took from; `loom_block_reused_after_a_steal` forces that case.)
#[test]
fn loom_two_thieves_and_a_block_needed_again() {
    push_then_drain::<1>(2, 2, 1, 3, |_| {});
}

/// Steals until it takes a value (the model must leave it one to take).
fn steal_until_taken<const S: usize>(stealer: &Stealer<u32, S>) -> Vec<u32> {
    loop {
        match stealer.steal() {
            Steal::Success(v) => return vec![v],
            _ => thread::yield_now(),
        }
    }
}

/// A block reused while a thief is inside it: one-slot blocks in a ring of two. The
/// second push closes block 0, granting its value; the owner waits until the thief has
/// claimed it (the thief may not have read it yet, nor counted its read), then pushes
/// a third value, which needs block 0 again: `enter` must wait for the thief's count
/// before it writes the slot (loom reports the write racing the thief's read
/// otherwise, and a count never made hangs the owner, which loom reports too).
#[test]
fn loom_block_reused_while_a_thief_is_inside() {
    loom::model(|| {
        let worker = Worker::<u32, 1>::with_blocks(2);
        let stealer = worker.stealer();
        let peek = worker.stealer();
        let thief = thread::spawn(move || steal_until_taken(&stealer));
        (0..2).for_each(|i| worker.push(i));
        while peek.claimed(0) == 0 {
            thread::yield_now();
        }
        worker.push(2);
        let popped = drain(&worker);
        check_all_taken(3, popped, vec![thief]);
    });
}

/// A block reused while a batch thief may be inside it: three-slot blocks in a ring of
/// two. The fourth push closes block 0 (its values granted); the thief takes batches
/// (half of what is offered, rounded up) into a queue of its own until it has the three
/// values of block 0: one, one and one if its first batch came before the close, else
/// two and one. Once they are claimed, the owner pushes until it has refilled block 0,
/// and must first wait until every value of every batch is counted as read (a batch
/// that counts one value for two hangs it). Not reached: a batch that counts before
/// its last read (with halving, the last batch of a block is of one value unless the
/// owner took the rest back, and then the block is reused only after other claims).
#[test]
fn loom_block_reused_while_a_batch_thief_is_inside() {
    loom::model(|| {
        let worker = Worker::<u32, 3>::with_blocks(2);
        let stealer = worker.stealer();
        let peek = worker.stealer();
        let thief = thread::spawn(move || {
            let own = Worker::<u32, 3>::with_blocks(1);
            let mut taken = Vec::new();
            while taken.len() < 3 {
                match stealer.steal_batch_and_pop(&own, 3) {
                    Steal::Success(v) => {
                        taken.push(v);
                        taken.extend(std::iter::from_fn(|| own.pop()));
                    }
                    _ => thread::yield_now(),
                }
            }
            taken
        });
        (0..4).for_each(|i| worker.push(i));
        while peek.claimed(0) < 3 {
            thread::yield_now();
        }
        (4..9).for_each(|i| worker.push(i));
        let popped = drain(&worker);
        check_all_taken(9, popped, vec![thief]);
    });
}

/// A block reused after a robbery: the owner (blocked, as in a `scope` body) is robbed
/// of its lone private value, then pushes twice, the second push needing the robbed
/// block again: `enter` must find the robber's read counted.
#[test]
fn loom_block_reused_after_a_robbery() {
    loom::model(|| {
        let worker = Worker::<u32, 1>::with_blocks(2);
        worker.push(0);
        let robbed = start_robber(&worker, 0, 1).join().unwrap();
        assert_eq!(robbed, vec![0]);
        (1..3).for_each(|i| worker.push(i));
        assert_eq!(drain(&worker), vec![2, 1]);
    });
}

/// The ring doubles while a thief is inside it: one block of one slot, so the second
/// push finds its place taken by the first block (whose value the thief may be
/// claiming) and makes a ring of two.
#[test]
fn loom_ring_doubles_while_a_thief_is_inside() {
    push_then_drain::<1>(1, 1, 2, 3, |_| {});
}

/// The ring shrinks under a thief: one block of one slot, so the second push doubles
/// the ring; the owner pops everything (the thief may take the first value), finds
/// the queue empty and starts over in a fresh ring of one block, then pushes and pops
/// once more. A thief that read the old ring (or the thieves' old block number) finds
/// nothing there and looks again; every value is taken once.
#[test]
fn loom_ring_shrinks_under_a_thief() {
    loom::model(|| {
        let worker = Worker::<u32, 1>::with_blocks(1);
        let handles = start_thieves(&worker, 1, 2);
        (0..2).for_each(|i| worker.push(i));
        let mut popped = drain(&worker);
        worker.push(2);
        worker.push(3);
        popped.extend(drain(&worker));
        check_all_taken(4, popped, handles);
    });
}

/// The pool's sleep protocol relies on `Stealer::is_empty`: a worker about to sleep
/// announces it (a SeqCst write), fences, and looks at the deques; the owner pushes,
/// fences, and looks for sleepers. One of the two must see the other.
#[test]
fn loom_a_sleeper_sees_the_push_or_the_owner_sees_the_sleeper() {
    loom::model(|| {
        let worker = Worker::<u32, 1>::with_blocks(1);
        let stealer = worker.stealer();
        let sleeping = loom::sync::Arc::new(AtomicBool::new(false));
        let s2 = sleeping.clone();
        let sleeper = thread::spawn(move || {
            s2.store(true, Ordering::SeqCst);
            fence(Ordering::SeqCst);
            stealer.is_empty()
        });
        worker.push(7);
        fence(Ordering::SeqCst);
        let owner_saw_sleeper = sleeping.load(Ordering::SeqCst);
        let sleeper_saw_empty = sleeper.join().unwrap();
        assert!(
            owner_saw_sleeper || !sleeper_saw_empty,
            "a wake-up was lost"
        );
        drop(worker);
    });
}

/// An owner about to park grants all its private values (`grant_all`, a
/// read-modify-write that races the thieves' claims on the same word).
#[test]
fn loom_owner_grants_all_before_parking() {
    push_then_drain::<4>(1, 1, 2, 3, Worker::grant_all);
}

/// Counts its drops.
struct Counted(loom::sync::Arc<loom::sync::atomic::AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// The owner drops its end while a thief steals: every value is dropped exactly once,
/// by the thief that took it or by the queue when the last end goes.
#[test]
fn loom_values_left_are_dropped_once() {
    loom::model(|| {
        let drops = loom::sync::Arc::new(loom::sync::atomic::AtomicUsize::new(0));
        let worker = Worker::<Counted, 1>::with_blocks(2);
        let stealer = worker.stealer();
        let thief = thread::spawn(move || {
            while let Steal::Retry = stealer.steal() {
                thread::yield_now();
            }
        });
        (0..3).for_each(|_| worker.push(Counted(drops.clone())));
        drop(worker.pop());
        drop(worker);
        thief.join().unwrap();
        assert_eq!(drops.load(Ordering::Relaxed), 3);
    });
}

/// Starts a thread that tries `steals` steals, then `robs` robberies (the pool's idle
/// thief: it robs only after finding nothing to steal); returns its handle.
fn start_robber<const S: usize>(
    worker: &Worker<u32, S>,
    steals: usize,
    robs: usize,
) -> thread::JoinHandle<Vec<u32>> {
    start_robber_of(
        worker,
        steals,
        robs,
        loom::sync::Arc::new(barrier::Owner::new()),
    )
}

/// As [`start_robber`], with `word` the owner's word for the barrier.
fn start_robber_of<const S: usize>(
    worker: &Worker<u32, S>,
    steals: usize,
    robs: usize,
    word: loom::sync::Arc<barrier::Owner>,
) -> thread::JoinHandle<Vec<u32>> {
    let stealer = worker.stealer();
    thread::spawn(move || {
        let stolen = (0..steals).filter_map(|_| steal_once(&stealer));
        let robbed = (0..robs).filter_map(|_| stealer.rob(&word));
        stolen.chain(robbed).collect()
    })
}

/// A robber against a popping owner: three values in a block of four, the first
/// granted, the others private; the robber steals the first and robs the next while
/// the owner pops them, possibly the very slot being robbed.
#[test]
fn loom_robber_and_popping_owner() {
    loom::model(|| {
        let worker = Worker::<u32, 4>::with_blocks(1);
        (0..3).for_each(|i| worker.push(i));
        let robber = start_robber(&worker, 1, 1);
        let popped = drain(&worker);
        check_all_taken(3, popped, vec![robber]);
    });
}

/// A robber against a granting owner: the owner pushes once more after the thief
/// stole the granted value, so it grants the older half of its private slots while
/// the robber takes the oldest of them.
#[test]
fn loom_robber_and_granting_owner() {
    loom::model(|| {
        let worker = Worker::<u32, 4>::with_blocks(1);
        (0..2).for_each(|i| worker.push(i));
        let robber = start_robber(&worker, 1, 1);
        worker.push(2);
        let popped = drain(&worker);
        check_all_taken(3, popped, vec![robber]);
    });
}

/// A robber while the owner closes its block and moves to the next (blocks of two),
/// then pops back into the first one.
#[test]
fn loom_robber_and_owner_crossing_blocks() {
    loom::model(|| {
        let worker = Worker::<u32, 2>::with_blocks(2);
        (0..2).for_each(|i| worker.push(i));
        let robber = start_robber(&worker, 1, 1);
        worker.push(2);
        let popped = drain(&worker);
        check_all_taken(3, popped, vec![robber]);
    });
}

/// Two robbers at once against a popping owner: one gives up on the lock or finds
/// the slot gone; every value is still taken once.
#[test]
fn loom_two_robbers_and_popping_owner() {
    loom::model(|| {
        let worker = Worker::<u32, 4>::with_blocks(1);
        (0..2).for_each(|i| worker.push(i));
        let robbers = vec![start_robber(&worker, 0, 1), start_robber(&worker, 1, 1)];
        let popped = drain(&worker);
        check_all_taken(2, popped, robbers);
    });
}

/// An owner blocked (it waits for the robber, as a `scope` body waits on a channel)
/// loses every value to one thief, robbery after robbery, though it never settles
/// between them; then it finds its queue empty, and pushes and pops again.
#[test]
fn loom_blocked_owner_is_robbed_of_everything() {
    loom::model(|| {
        let worker = Worker::<u32, 4>::with_blocks(1);
        (0..3).for_each(|i| worker.push(i));
        let taken = start_robber(&worker, 1, 2).join().unwrap();
        assert_eq!(taken, vec![0, 1, 2]);
        assert!(worker.is_empty());
        assert_eq!(worker.pop(), None);
        worker.push(3);
        assert_eq!(worker.pop(), Some(3));
    });
}

/// The kernel refuses `membarrier` at a robbery, after the owner popped with a compiler
/// fence only (no fence to loom; see `deque/barrier.rs`): the robber takes nothing and
/// puts the flag back, and the process switches to fences. The owner pops, says that it
/// fences (as the pool's worker does at its slow paths), and pops the rest, while the
/// robber tries twice: its second robbery works only after the owner's word. Every
/// value is taken once.
#[test]
fn loom_robber_after_a_refused_barrier() {
    loom::model(|| {
        barrier::loom_refused_membarrier();
        let worker = Worker::<u32, 4>::with_blocks(1);
        (0..3).for_each(|i| worker.push(i));
        let word = loom::sync::Arc::new(barrier::Owner::new());
        let robber = start_robber_of(&worker, 0, 2, word.clone());
        let mut popped: Vec<u32> = worker.pop().into_iter().collect();
        word.note();
        popped.extend(drain(&worker));
        assert!(
            popped.windows(2).all(|w| w[0] > w[1]),
            "owner not LIFO: {popped:?}"
        );
        check_all_taken(3, popped, vec![robber]);
    });
}
