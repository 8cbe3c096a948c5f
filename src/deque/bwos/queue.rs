//! What the owner and the thieves of one BWoS queue share: the thieves' position, the
//! ring of blocks, the owner's published position, and every allocation. A ring the
//! owner replaces (doubled, or shrunk once the queue is empty) and the blocks it drops
//! go to crossbeam-epoch's collector: thieves hold a guard (`sync::pin`) while they
//! use a ring or a block, so a pointer a thief read stays valid until it lets go.

use crossbeam_utils::CachePadded;

use super::block::Block;
use super::ring::Ring;
use super::sync::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Mutex, Ordering};

/// The thieves' side: written when a thief moves to the next block or the owner grows
/// the ring (once per block at most), read by every steal.
pub(crate) struct Thieves<T, const S: usize> {
    /// The sequence number of the block thieves take from (never decreases).
    pub(crate) seq: AtomicU64,
    /// The current ring.
    pub(crate) ring: AtomicPtr<Ring<T, S>>,
}

/// The owner's position (the owner's own variables, kept here so that
/// `Stealer::is_empty` can see how many values it holds, and a robber which it may
/// take), and the flag by which a robber tells the owner to look (see `stealer.rs`).
pub(crate) struct Owner {
    /// The sequence number of the owner's block.
    pub(crate) seq: AtomicU64,
    /// The next free slot of the owner's block.
    pub(crate) top: AtomicUsize,
    /// The first private slot of the owner's block: its `limit`, or a grant it is about
    /// to make, or one past the last slot robbed (robbers raise it).
    pub(crate) bottom: AtomicUsize,
    /// Raised by a robber before it looks at `top`; the owner, seeing it after a pop's
    /// store of `top` or before it changes the word, waits for the robber and
    /// reconciles (`Worker::settle`).
    pub(crate) rob: AtomicBool,
}

/// The rings and blocks not retired yet (under loom: all of them); only the owner
/// changes the lists (when it replaces the ring), and `Drop` frees what they hold.
struct Storage<T, const S: usize> {
    rings: Vec<*mut Ring<T, S>>,
    blocks: Vec<*mut Block<T, S>>,
}

/// The shared state of one queue.
pub(crate) struct Inner<T, const S: usize> {
    pub(crate) thieves: CachePadded<Thieves<T, S>>,
    /// Where the owner stands: written by the owner only, read by the owner on every
    /// push and pop and by `Stealer::is_empty`.
    pub(crate) owner: CachePadded<Owner>,
    /// Held by a robber for its whole visit, and by the owner while it reconciles.
    pub(crate) robbers: Mutex<()>,
    storage: std::cell::UnsafeCell<Storage<T, S>>,
}

// SAFETY: values of `T` are moved between threads (pushed by the owner, taken by a
// thief), never shared, so `T: Send` suffices; the raw pointers are to blocks and rings
// that live as long as the queue, and the protocol (see `worker.rs` and `stealer.rs`)
// gives each slot one reader.
unsafe impl<T: Send, const S: usize> Send for Inner<T, S> {}
// SAFETY: as for `Send`; `storage` is touched only by the owner (one thread at a time,
// `Worker` is not `Sync`) and by `Drop`.
unsafe impl<T: Send, const S: usize> Sync for Inner<T, S> {}

impl<T, const S: usize> Inner<T, S> {
    /// A queue with a ring of `blocks` fresh blocks (a power of two).
    pub(crate) fn new(blocks: usize) -> Self {
        let (ring, made) = Ring::fresh(blocks);
        let ring = Box::into_raw(Box::new(ring));
        Inner {
            thieves: CachePadded::new(Thieves {
                seq: AtomicU64::new(0),
                ring: AtomicPtr::new(ring),
            }),
            owner: CachePadded::new(Owner {
                seq: AtomicU64::new(0),
                top: AtomicUsize::new(0),
                bottom: AtomicUsize::new(0),
                rob: AtomicBool::new(false),
            }),
            robbers: Mutex::new(()),
            storage: std::cell::UnsafeCell::new(Storage {
                rings: vec![ring],
                blocks: made,
            }),
        }
    }

    /// The current ring, for a thief holding a guard (`sync::pin`) for as long as it
    /// uses the ring and its blocks, or for the owner.
    #[inline]
    pub(crate) fn ring(&self) -> &Ring<T, S> {
        // Acquire: pairs with the owner's Release store of a new ring, so its pointers
        // and the words of its fresh blocks are visible.
        let ring = self.thieves.ring.load(Ordering::Acquire);
        // SAFETY: a ring is freed only after its retirement (`retire`), once every
        // guard held then is dropped; the caller holds one, or is the owner, which
        // retires rings only after it stops using them.
        unsafe { &*ring }
    }

    /// Keeps a new ring and its fresh blocks until they are retired or the queue is
    /// dropped.
    ///
    /// # Safety
    /// Only the owner calls this (the storage has no other writer).
    pub(crate) unsafe fn keep(&self, ring: *mut Ring<T, S>, blocks: Vec<*mut Block<T, S>>) {
        // SAFETY: the owner is the only thread that touches the storage before `Drop`.
        let storage = unsafe { &mut *self.storage.get() };
        storage.rings.push(ring);
        storage.blocks.extend(blocks);
    }

    /// How many rings and blocks the queue holds (not yet retired).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn allocations(&self) -> (usize, usize) {
        // SAFETY: tests call this from the owner's thread.
        let storage = unsafe { &*self.storage.get() };
        (storage.rings.len(), storage.blocks.len())
    }

    /// Frees a ring that is no longer current, and `blocks` (which no current ring
    /// holds, and which hold no value), once every thief that may still read them has
    /// dropped its guard. Under loom they stay until the queue drops.
    ///
    /// # Safety
    /// Only the owner calls this, after it published the ring that replaces `ring`
    /// and stopped using `ring` and `blocks`; each was passed to `keep` (or made by
    /// `new`) and is retired once.
    pub(crate) unsafe fn retire(&self, ring: *mut Ring<T, S>, blocks: Vec<*mut Block<T, S>>) {
        #[cfg(not(all(loom, test)))]
        {
            // SAFETY: the owner is the only thread that touches the storage.
            let storage = unsafe { &mut *self.storage.get() };
            storage.rings.retain(|&r| r != ring);
            let mut gone = blocks.clone();
            gone.sort_unstable();
            storage.blocks.retain(|b| gone.binary_search(b).is_err());
            let guard = super::sync::pin();
            // SAFETY: nothing reaches `ring` and `blocks` through the current ring any
            // more, so only thieves that loaded them before, and still hold the guard
            // they had then, can read them; the collector runs this after those guards
            // are gone. The blocks hold no value (nothing to drop but the memory).
            unsafe {
                guard.defer_unchecked(move || {
                    drop(Box::from_raw(ring));
                    for block in blocks {
                        drop(Box::from_raw(block));
                    }
                })
            };
        }
        #[cfg(all(loom, test))]
        let _ = (ring, blocks);
    }
}

impl<T, const S: usize> Drop for Inner<T, S> {
    fn drop(&mut self) {
        if std::mem::needs_drop::<T>() {
            self.drop_values();
        }
        let storage = self.storage.get_mut();
        for &ring in &storage.rings {
            // SAFETY: made by `Box::into_raw`, freed once, here, when nobody can read it.
            drop(unsafe { Box::from_raw(ring) });
        }
        for &block in &storage.blocks {
            // SAFETY: as for the rings.
            drop(unsafe { Box::from_raw(block) });
        }
    }
}

impl<T, const S: usize> Inner<T, S> {
    /// Drops the values still queued: the owner's `Drop` granted all its slots, so they
    /// are the unclaimed slots `pos..limit` of the blocks from the thieves' block to the
    /// owner's (the owner keeps the thieves less than a ring behind).
    fn drop_values(&mut self) {
        // Relaxed loads: `&mut self` means every other handle is gone, and the `Arc`
        // that dropped last synchronised with all of them.
        let first = self.thieves.seq.load(Ordering::Relaxed);
        let last = self.owner.seq.load(Ordering::Relaxed);
        let ring = self.ring();
        debug_assert!(
            last - first < ring.len() as u64,
            "prorata: BWoS thieves a ring behind"
        );
        for seq in first..=last {
            let block = ring.block(seq);
            let word = block.load(Ordering::Relaxed);
            if word.seq() == seq as u32 {
                for i in word.pos()..word.limit() {
                    // SAFETY: granted and unclaimed: the slot holds a value nobody took,
                    // read once here. A value whose drop panics (`deque_bench` takes any
                    // `T`) leaves the rest, and the blocks, leaked: never dropped twice.
                    drop(unsafe { block.read(i) });
                }
            }
        }
    }
}
