//! Tracked items: a ledger of live items (every item made is dropped exactly once),
//! visit counts (every item processed exactly once), and a victim whose `Drop` may
//! fire an operation's injected panic.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU8, Ordering};

use super::panics::{Plan, fail};
use super::stats::STATS;

/// Items alive in the whole process (made minus dropped).
pub static LIVE: AtomicI64 = AtomicI64::new(0);

/// The drops and visits of one operation's items.
pub struct Board {
    drops: Box<[AtomicU8]>,
    visits: Box<[AtomicU8]>,
    /// The item whose drop fires `plan`, if any.
    victim: Option<u32>,
    plan: Arc<Plan>,
}

/// An item of a board: a key to compute with, and a drop that is counted.
pub struct Item {
    pub id: u32,
    pub key: u64,
    board: Arc<Board>,
}

impl Board {
    /// A board for `n` items; the drop of item `victim` fires `plan`.
    pub fn new(n: usize, victim: Option<u32>, plan: Arc<Plan>) -> Arc<Board> {
        let zeros = || (0..n).map(|_| AtomicU8::new(0)).collect();
        Arc::new(Board {
            drops: zeros(),
            visits: zeros(),
            victim,
            plan,
        })
    }

    /// One item per key, ids in order.
    pub fn items(self: &Arc<Self>, keys: &[u64]) -> Vec<Item> {
        assert_eq!(keys.len(), self.drops.len());
        LIVE.fetch_add(keys.len() as i64, Ordering::SeqCst);
        STATS.add(&STATS.items, keys.len() as u64);
        keys.iter()
            .enumerate()
            .map(|(id, &key)| Item {
                id: id as u32,
                key,
                board: Arc::clone(self),
            })
            .collect()
    }

    /// Counts a visit of item `id`.
    pub fn visit(&self, id: u32) {
        self.visits[id as usize].fetch_add(1, Ordering::SeqCst);
    }

    /// Fails unless every item was visited exactly once.
    pub fn check_visited_once(&self, what: &str) {
        check_all_once(&self.visits, what, "visited");
    }

    /// Fails unless every item was dropped exactly once.
    pub fn check_dropped_once(&self, what: &str) {
        check_all_once(&self.drops, what, "dropped");
    }
}

/// Fails unless every count is exactly one.
pub fn check_all_once(counts: &[AtomicU8], what: &str, verb: &str) {
    if let Some((id, c)) = counts
        .iter()
        .map(|c| c.load(Ordering::SeqCst))
        .enumerate()
        .find(|&(_, c)| c != 1)
    {
        crate::check!(
            false,
            "{what}: item {id} of {} {verb} {c} times",
            counts.len()
        );
    }
}

impl Drop for Item {
    fn drop(&mut self) {
        let before = self.board.drops[self.id as usize].fetch_add(1, Ordering::SeqCst);
        LIVE.fetch_sub(1, Ordering::SeqCst);
        if before != 0 {
            fail(format!("item {} dropped {} times", self.id, before + 1));
        }
        if self.board.victim == Some(self.id) {
            self.board.plan.maybe_fire();
        }
    }
}

impl std::fmt::Debug for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Item({}, {})", self.id, self.key)
    }
}
