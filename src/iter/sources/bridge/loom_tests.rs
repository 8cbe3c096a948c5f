//! Loom models of the bridge's pulling loops (run by `ci/loom.sh`): two or three
//! workers pull a short iterator, leaving whenever they find the lock taken, or never;
//! every item is handed to exactly one of them, whichever leaves and whichever is left
//! alone (and takes the iterator out of the lock).

use loom::sync::Arc;
use loom::thread;

use super::{Patience, Shared};
use crate::iter::plumbing::Folder;

/// Leaves whenever the lock is taken (`Leaves(true)`, the most a policy may leave),
/// or never (waits for the lock every time).
struct Leaves(bool);

impl Patience for Leaves {
    fn before_try(&mut self) {}
    fn leave_when_busy(&mut self) -> bool {
        self.0
    }
    fn pulled(&mut self) {}
}

/// Collects the items it is handed.
struct Got(Vec<u32>);

impl Folder<u32> for Got {
    type Result = Vec<u32>;

    fn consume(mut self, item: u32) -> Self {
        self.0.push(item);
        self
    }

    fn complete(self) -> Vec<u32> {
        self.0
    }

    fn full(&self) -> bool {
        false
    }
}

/// Worker `index`'s loop over `shared`: the items it was handed.
fn worker(
    shared: &Shared<std::ops::Range<u32>>,
    index: usize,
    patience: &mut impl Patience,
) -> Vec<u32> {
    let Some(marked) = shared.start_pulling(Some(index)) else {
        return Vec::new();
    };
    shared.pull(marked, patience, Got(Vec::new())).complete()
}

/// Runs one worker per policy (`true`: leaves whenever the lock is taken) and
/// checks that the items were handed out exactly once between them.
fn model<const N: usize>(eager: [bool; N]) {
    loom::model(move || {
        let shared = Arc::new(Shared::new(0..3u32, N));
        let others: Vec<_> = (1..N)
            .map(|index| {
                let shared = Arc::clone(&shared);
                thread::spawn(move || worker(&shared, index, &mut Leaves(eager[index])))
            })
            .collect();
        let mut got = worker(&shared, 0, &mut Leaves(eager[0]));
        for other in others {
            got.extend(other.join().unwrap());
        }
        got.sort_unstable();
        assert_eq!(got, [0, 1, 2]);
    });
}

#[test]
fn loom_bridge_workers_that_leave_when_the_lock_is_taken_lose_no_item() {
    model([true, true]);
}

#[test]
fn loom_bridge_a_worker_that_leaves_beside_one_that_waits_loses_no_item() {
    model([true, false]);
}

#[test]
fn loom_bridge_workers_that_wait_hand_out_every_item_once() {
    model([false, false]);
}

#[test]
fn loom_bridge_three_workers_that_leave_lose_no_item() {
    model([true, true, true]);
}
