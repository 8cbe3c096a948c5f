//! The thieves' end of a BWoS queue: take the oldest granted value, one
//! compare-and-swap on the word of the thieves' block, and move to the next block when
//! the owner has closed this one and every slot of it is claimed.

use super::queue::Inner;
use super::sync::{Arc, Ordering};
use super::word::later;
use super::worker::BLOCK_SLOTS;
use crate::deque::Steal;

/// The thieves' end of a BWoS queue (cloneable, shared by any number of thieves).
pub(crate) struct Stealer<T, const S: usize = BLOCK_SLOTS> {
    inner: Arc<Inner<T, S>>,
}

impl<T, const S: usize> Clone for Stealer<T, S> {
    fn clone(&self) -> Self {
        Stealer {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<T, const S: usize> Stealer<T, S> {
    pub(crate) fn new(inner: Arc<Inner<T, S>>) -> Self {
        Stealer { inner }
    }

    /// Takes the oldest value that the owner has granted.
    pub(crate) fn steal(&self) -> Steal<T> {
        loop {
            // Acquire: whoever stored this value (a thief moving on, the owner bounding
            // the thieves) had seen block `seq` started, so the loads below see it too.
            let seq = self.inner.thieves.seq.load(Ordering::Acquire);
            let block = self.inner.ring().block(seq);
            // Acquire: pairs with the owner's Release grant or close, so the values of
            // the slots below `limit` are visible (the claim below re-reads the word).
            let word = block.load(Ordering::Acquire);
            if word.seq() != seq as u32 {
                if later(word.seq(), seq as u32) {
                    // The block was reused: block `seq` was finished.
                    self.move_on(seq);
                    continue;
                }
                debug_assert!(false, "prorata: BWoS thieves ahead of the owner");
                return Steal::Retry;
            }
            if word.stealable() {
                // Acquire: the word this swap replaces is the owner's grant or a later
                // link of its release sequence, so the slot's value is visible.
                // Relaxed on failure: we start over.
                return match block.compare_exchange(
                    word,
                    word.claim(1),
                    Ordering::Acquire,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => {
                        // SAFETY: moving `pos` past the slot made it ours alone: the owner
                        // writes a block's slots only at or above its `limit >= pos`, or
                        // after this claim is counted in `done`.
                        let value = unsafe { block.read(word.pos()) };
                        // Release: our read of the slot happens before the owner, which
                        // acquires the count, writes the slot again.
                        block.done().fetch_add(1, Ordering::Release);
                        Steal::Success(value)
                    }
                    Err(_) => Steal::Retry,
                };
            }
            if !word.closed() {
                // The owner's block, with nothing granted: the owner grants more at its
                // next push or pop.
                return Steal::Empty;
            }
            self.move_on(seq);
        }
    }

    /// Block `seq` is finished: thieves take from the next one.
    fn move_on(&self, seq: u64) {
        // Release: a thief that loads `seq + 1` sees what we saw, so block `seq + 1`
        // started (the owner starts it before closing block `seq`). Relaxed on failure:
        // someone else moved on.
        let _ = self.inner.thieves.seq.compare_exchange(
            seq,
            seq + 1,
            Ordering::Release,
            Ordering::Relaxed,
        );
    }

    /// Whether the queue holds no value, granted or private (the pool's last look
    /// before a worker sleeps; errs towards "not empty" while the owner moves).
    pub(crate) fn is_empty(&self) -> bool {
        let inner = &*self.inner;
        // Relaxed, all: the owner's position and the words only say whether values are
        // queued; the pool orders this look after its SeqCst fence, and every push
        // before the pusher's (see `pool/sleep.rs`). A torn read (the owner moving
        // between blocks) errs towards "not empty".
        let owner_seq = inner.owner.seq.load(Ordering::Relaxed);
        let top = inner.owner.top.load(Ordering::Relaxed);
        let first = inner.thieves.seq.load(Ordering::Relaxed);
        let ring = inner.ring();
        if owner_seq.wrapping_sub(first) >= ring.len() as u64 {
            return false;
        }
        (first..=owner_seq).all(|seq| {
            let word = ring.block(seq).load(Ordering::Relaxed);
            if word.seq() != seq as u32 {
                // Reused, so finished; the owner's own block is never reused.
                return seq != owner_seq || top == 0;
            }
            // The owner's block holds `pos..top` (`limit` if the top is stale).
            let end = if seq == owner_seq {
                top.max(word.limit())
            } else {
                word.limit()
            };
            word.pos() >= end
        })
    }
}
