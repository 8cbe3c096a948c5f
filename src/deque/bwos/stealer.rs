//! The thieves' end of a BWoS queue: take the oldest granted value, one
//! compare-and-swap on the word of the thieves' block, and move to the next block when
//! the owner has closed this one and every slot of it is claimed; or, for an idle thief
//! when the owner keeps private values and makes no progress, rob the oldest of them.

use super::queue::Inner;
use super::sync::{Arc, Ordering, pin};
use super::word::{Word, later};
use super::worker::{BLOCK_SLOTS, Worker};
use crate::deque::{Steal, barrier};

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

    /// Whether this is the thieves' end of `inner`.
    pub(crate) fn is_of(&self, inner: &Arc<Inner<T, S>>) -> bool {
        Arc::ptr_eq(&self.inner, inner)
    }

    /// Takes the oldest value that the owner has granted.
    #[inline]
    pub(crate) fn steal(&self) -> Steal<T> {
        self.take(1, |_| unreachable!("a single steal claims one slot"))
    }

    /// Takes the oldest granted value and moves more of them into `dest` (the thief's
    /// own queue): half of what its owner granted and nobody claimed yet in the
    /// thieves' block, rounded up, at most `max` in all; one compare-and-swap for the
    /// lot. `dest`'s owner pops them oldest first, so that the thief runs them in the
    /// order single steals would have (its own thieves take the newest of them first).
    ///
    /// `dest` must not be this queue's owner: it would push while its own claims are
    /// uncounted, and wait for them for ever when it reuses the block.
    pub(crate) fn steal_batch_and_pop(&self, dest: &Worker<T, S>, max: usize) -> Steal<T> {
        debug_assert!(
            !dest.owns(self),
            "prorata: BWoS batch stolen into its own queue"
        );
        self.take(max, |value| dest.push(value))
    }

    /// Claims up to `max` of the oldest granted values (half of those left in the
    /// thieves' block, rounded up), returns the first and hands the others, newest
    /// first, to `rest`.
    #[inline]
    fn take(&self, max: usize, mut rest: impl FnMut(T)) -> Steal<T> {
        // Keeps the ring and blocks we read alive if the owner replaces them meanwhile.
        let _guard = pin();
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
                // An older incarnation: we read the thieves' block number before the
                // owner shrank the ring (starting the thieves at its next block), and
                // the new ring after; look again.
                if self.inner.thieves.seq.load(Ordering::Acquire) != seq {
                    continue;
                }
                debug_assert!(false, "prorata: BWoS thieves ahead of the owner");
                return Steal::Retry;
            }
            if word.stealable() {
                let n = (word.limit() - word.pos()).div_ceil(2).clamp(1, max);
                // Acquire: the word this swap replaces is the owner's grant or a later
                // link of its release sequence, so the slots' values are visible.
                // Relaxed on failure: we start over.
                if block
                    .compare_exchange(word, word.claim(n), Ordering::Acquire, Ordering::Relaxed)
                    .is_err()
                {
                    return Steal::Retry;
                }
                let first = word.pos();
                // SAFETY: moving `pos` past the slots made them ours alone: the owner
                // writes a block's slots only at or above its `limit >= pos`, or after
                // this claim is counted in `done`.
                let value = unsafe { block.read(first) };
                for i in (first + 1..first + n).rev() {
                    // SAFETY: as for the first.
                    rest(unsafe { block.read(i) });
                }
                // Release: our reads of the slots happen before the owner, which
                // acquires the count, writes them again.
                block.done().fetch_add(n as u32, Ordering::Release);
                return Steal::Success(value);
            }
            if !word.closed() {
                // The owner's block, with nothing granted: the owner grants more at its
                // next push or pop.
                return Steal::Empty;
            }
            self.move_on(seq);
        }
    }

    /// Takes the oldest of the owner's private values, for a thief that found nothing
    /// else for a while: the owner may be blocked in user code, waiting for that very
    /// value to run. Costs a process-wide barrier (see `deque/barrier.rs`), so that the
    /// owner's pops need none; `None` if another robber is here, the owner keeps
    /// nothing private, or it is in the middle of changing its position.
    ///
    /// The protocol is that of `pool/frames.rs`: the robber raises the `rob` flag, then
    /// reads the owner's `top`; the owner lowers `top`, then reads the flag. Before the
    /// owner grants slots, closes its block or moves, it stores where its private slots
    /// will start (`bottom`; `S` for none), then reads the flag; the robber reads
    /// `bottom` and takes slot `bottom` only if the word says every slot below it is
    /// claimed and none above it granted (`pos == limit == bottom`). The owner, seeing
    /// the flag, waits for the robber (`robbers` lock) and takes the word as the robber
    /// left it. Where the barrier is refused (see `deque/barrier.rs`; `owner_barrier`
    /// is the owner's word), the robber puts the flag back as it was and takes nothing.
    pub(crate) fn rob(&self, owner_barrier: &barrier::Owner) -> Option<T> {
        let owner = &self.inner.owner;
        // Relaxed: a hint, to skip the barrier when the owner keeps nothing private.
        if owner.top.load(Ordering::Relaxed) <= owner.bottom.load(Ordering::Relaxed) {
            return None;
        }
        let _robbers = self.inner.robbers.try_lock().ok()?;
        // Relaxed: ordered by the barrier. The flag may be up already (a robber took a
        // value and the owner has not settled since); it goes back as it was if we
        // take nothing.
        let was = owner.rob.swap(true, Ordering::Relaxed);
        // Store-load order against the owner's `pop` and `fence_robbers`: the owner
        // either sees the flag, or its stores of `top` and `bottom` are visible below.
        // Refused: nothing is known of the owner's position, so nothing is taken.
        let value = if barrier::heavy(owner_barrier) {
            self.rob_locked()
        } else {
            None
        };
        if value.is_none() && !was {
            owner.rob.store(false, Ordering::Relaxed);
        }
        value
    }

    /// `rob` once the flag is up and the barrier passed.
    fn rob_locked(&self) -> Option<T> {
        // As in `take`.
        let _guard = pin();
        let owner = &self.inner.owner;
        // Acquire, all: each pairs with the owner's Release store of the value, so the
        // loads after it see what the owner did before. In this order, a position the
        // owner is changing (`advance`, `move_back`) is either seen whole, or makes the
        // two sequence numbers differ, or shows a bottom that makes us give up.
        let seq = owner.seq.load(Ordering::Acquire);
        let bottom = owner.bottom.load(Ordering::Acquire);
        let top = owner.top.load(Ordering::Acquire);
        if owner.seq.load(Ordering::Acquire) != seq || top <= bottom {
            return None;
        }
        // Relaxed: only keeps robbers from jumping over values still granted in earlier
        // blocks (the thieves' next steal takes those; robbing would break FIFO).
        if self.inner.thieves.seq.load(Ordering::Relaxed) != seq {
            return None;
        }
        let block = self.inner.ring().block(seq);
        // Acquire: as in `steal`.
        let word = block.load(Ordering::Acquire);
        if word.seq() != seq as u32
            || word.closed()
            || word.pos() != bottom
            || word.limit() != bottom
        {
            return None;
        }
        // Relaxed: the slot's value is visible through `top` (Acquire above); the swap
        // fails if the owner or a thief changed the word since we read it.
        block
            .compare_exchange(
                word,
                Word::new(seq as u32, false, bottom + 1, bottom + 1),
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .ok()?;
        // Release: as in `fence_robbers` (a later robber reads it under the lock).
        owner.bottom.store(bottom + 1, Ordering::Release);
        // SAFETY: slot `bottom` holds a value (below the top), which the owner no longer
        // pops (it sees the flag before it reads a slot, then waits for the lock), nor
        // grants (it had not, and sees the flag before it does), and no thief claims
        // (the word's `pos` is past it).
        let value = unsafe { block.read(bottom) };
        // Release: as in `steal`: the owner reuses the block only once it has counted
        // this read.
        block.done().fetch_add(1, Ordering::Release);
        Some(value)
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

    /// How many values thieves have claimed from block `seq` (0 if the block now holds
    /// another incarnation): lets a loom model wait for a claim.
    #[cfg(all(test, loom))]
    pub(crate) fn claimed(&self, seq: u64) -> usize {
        let word = self.inner.ring().block(seq).load(Ordering::Acquire);
        if word.seq() == seq as u32 {
            word.pos()
        } else {
            0
        }
    }

    /// Whether the queue holds no value, granted or private (the pool's last look
    /// before a worker sleeps; errs towards "not empty" while the owner moves).
    pub(crate) fn is_empty(&self) -> bool {
        // As in `take`.
        let _guard = pin();
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
