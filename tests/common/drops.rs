//! Items that record their drops, to check that every item made is dropped exactly
//! once (no leak, no double drop).

use std::sync::atomic::{AtomicUsize, Ordering};

/// Records, per item id, how many items were made and how many times each was dropped.
pub struct Board {
    made: Vec<AtomicUsize>,
    dropped: Vec<AtomicUsize>,
}

impl Board {
    /// A board for ids `0..len`.
    pub fn new(len: usize) -> Self {
        let zeros = || (0..len).map(|_| AtomicUsize::new(0)).collect();
        Board {
            made: zeros(),
            dropped: zeros(),
        }
    }

    /// A tracked item with this id.
    pub fn item(&self, id: usize) -> Tracked<'_> {
        self.made[id].fetch_add(1, Ordering::Relaxed);
        Tracked { id, board: self }
    }

    /// Asserts that every item made was dropped exactly once; returns how many were made.
    pub fn assert_all_dropped_once(&self) -> usize {
        let mut made_total = 0;
        for (id, (made, dropped)) in self.made.iter().zip(&self.dropped).enumerate() {
            let (made, dropped) = (
                made.load(Ordering::Relaxed),
                dropped.load(Ordering::Relaxed),
            );
            assert!(made <= 1, "item {id} made {made} times");
            assert_eq!(made, dropped, "item {id}: made {made}, dropped {dropped}");
            made_total += made;
        }
        made_total
    }
}

/// An item whose drop is recorded on a [`Board`].
pub struct Tracked<'b> {
    pub id: usize,
    board: &'b Board,
}

impl std::fmt::Debug for Tracked<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tracked({})", self.id)
    }
}

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.board.dropped[self.id].fetch_add(1, Ordering::Relaxed);
    }
}

/// A value counted on a shared counter of live values while it lives.
#[derive(Debug)]
pub struct Counted<'a> {
    pub value: usize,
    live: &'a AtomicUsize,
}

impl<'a> Counted<'a> {
    /// A new live value.
    pub fn new(value: usize, live: &'a AtomicUsize) -> Self {
        live.fetch_add(1, Ordering::SeqCst);
        Counted { value, live }
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        let before = self.live.fetch_sub(1, Ordering::SeqCst);
        assert!(before > 0, "dropped twice");
    }
}
