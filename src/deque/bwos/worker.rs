//! The owner's end of a BWoS queue: push and pop at the top of its current block with
//! plain loads and stores (no read-modify-write, no fence), granting older slots to
//! thieves as they need them and taking granted slots back, one compare-and-swap per
//! block, when it pops down to them.
//!
//! The owner's current block holds, from the bottom: slots claimed by thieves
//! (`..pos`), slots granted to thieves and not yet claimed (`pos..limit`), and its
//! private slots (`limit..top`). Every earlier block is closed: all its slots granted.
//! Only the owner moves `limit` and `top`; only thieves move `pos`.
//!
//! Private slots are invisible to thieves, so after each push and pop the owner makes
//! sure something is stealable: if nothing is (thieves took all that was granted) and
//! it keeps two private slots or more, it grants the older half. A job therefore waits
//! at most until its owner's next push or pop to become stealable, unless it is the
//! only one (see `keep_one_stealable`: the pool grants it when a worker is idle as it
//! is pushed, or asks). An owner about to stop for a while
//! (parked by the shares scheduler) grants everything (`grant_all`), and so does one
//! that an idle thief asked to publish, at its next safe point (`pool/worker.rs`).
//!
//! An owner that does none of these (blocked in user code) would keep its private
//! values for ever, so an idle thief may *rob* them (`Stealer::rob`), oldest first,
//! paying for a process-wide barrier so that the owner's path stays fence-free: the
//! owner's pop stores `top`, issues a compiler fence and checks the `rob` flag; before it
//! grants or closes a block it stores the new `bottom` of its private slots and checks
//! the flag the same way. A raised flag sends it to `settle`, which waits for the robber
//! and takes the word as the robber left it.

use std::cell::Cell;

use super::block::Block;
use super::queue::Inner;
use super::ring::Ring;
use super::stealer::Stealer;
use super::sync::{Arc, Ordering, spin_wait};
use super::word::{CLOSED, MAX_SLOTS, Word};
use crate::deque::barrier;

/// Slots per block in the pool's queues: jobs are two words, so a block is 1 KiB.
pub(crate) const BLOCK_SLOTS: usize = 64;
/// Blocks in a new queue's ring (doubled when full).
pub(crate) const INITIAL_BLOCKS: usize = 4;
/// The longest ring a pool's queue keeps once it is empty again (64 KiB, 4096 jobs);
/// a longer one goes back to `INITIAL_BLOCKS`. Keeping it spares bursts of a few
/// thousand jobs an allocation each time (a burst of 1000 pushes and pops took 1.7x
/// as long when every emptied queue shrank).
pub(crate) const KEPT_BLOCKS: usize = 64;

/// The owner's end of a BWoS queue (`S` slots per block). Its position (block
/// sequence number and top) is in `inner.owner`, where `Stealer::is_empty` reads it.
pub(crate) struct Worker<T, const S: usize = BLOCK_SLOTS> {
    inner: Arc<Inner<T, S>>,
    /// The ring the owner uses (the latest; it publishes each one it makes).
    ring: Cell<*const Ring<T, S>>,
    /// The owner's current block.
    cur: Cell<*const Block<T, S>>,
    /// The current block's `limit` (only the owner changes it, so this copy is exact).
    limit: Cell<usize>,
    /// A `pos` the current block's thieves are known to have reached: while it equals
    /// `limit`, nothing granted here is left, and the owner need not look.
    floor: Cell<usize>,
    /// The ring's length when the queue was made, to which it shrinks when empty...
    min_blocks: usize,
    /// ...if it is longer than this.
    kept_blocks: usize,
}

// SAFETY: the cells and pointers are the owner's private view of `inner`, which is
// `Send` for `T: Send`; moving the owner to another thread moves all of them.
unsafe impl<T: Send, const S: usize> Send for Worker<T, S> {}

impl<T, const S: usize> Worker<T, S> {
    /// An empty queue as the pool makes them: a ring of `INITIAL_BLOCKS`, which goes
    /// back to that length when the queue empties with more than `KEPT_BLOCKS`.
    pub(crate) fn new() -> Self {
        let mut worker = Self::with_blocks(INITIAL_BLOCKS);
        worker.kept_blocks = KEPT_BLOCKS;
        worker
    }

    /// An empty queue with a ring of `blocks` blocks (a power of two), which goes
    /// back to that length whenever the queue empties after it grew.
    pub(crate) fn with_blocks(blocks: usize) -> Self {
        const { assert!(S > 0 && S <= MAX_SLOTS, "BWoS block size out of range") };
        let inner = Arc::new(Inner::new(blocks));
        let ring: *const Ring<T, S> = inner.ring();
        let worker = Worker {
            inner,
            ring: Cell::new(ring),
            cur: Cell::new(std::ptr::null()),
            limit: Cell::new(0),
            floor: Cell::new(0),
            min_blocks: blocks,
            kept_blocks: blocks,
        };
        worker.cur.set(worker.enter(0));
        worker
    }

    /// The thieves' end.
    pub(crate) fn stealer(&self) -> Stealer<T, S> {
        Stealer::new(Arc::clone(&self.inner))
    }

    /// How many rings and blocks the queue holds (not yet retired).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn allocations(&self) -> (usize, usize) {
        self.inner.allocations()
    }

    /// Whether `stealer` is the thieves' end of this queue.
    pub(crate) fn owns(&self, stealer: &Stealer<T, S>) -> bool {
        stealer.is_of(&self.inner)
    }

    /// Pushes `value` on top.
    #[inline]
    pub(crate) fn push(&self, value: T) {
        let top = self.top();
        if top == S {
            return self.push_in_next_block(value);
        }
        // SAFETY: `top >= limit`, so no thief may claim the slot, and it holds no value:
        // the owner's slots from `top` up are empty, and a block the owner (re)entered
        // has had all its previous thieves finish (`enter`).
        unsafe { self.block().write(top, value) };
        self.set_top(top + 1);
        self.keep_one_stealable(top + 1);
    }

    /// Pops the newest value.
    #[inline]
    pub(crate) fn pop(&self) -> Option<T> {
        let top = self.top();
        if top == self.limit.get() {
            return self.pop_slow();
        }
        let top = top - 1;
        self.set_top(top);
        // Store-load order against `Stealer::rob` (see `deque/barrier.rs`): either the
        // robber sees the new top, or we see its flag.
        barrier::light();
        // Relaxed: ordered by the barriers.
        if self.inner.owner.rob.load(Ordering::Relaxed) {
            return self.pop_robbed(top);
        }
        // SAFETY: `limit <= top`: a private slot, written by this owner, never claimable
        // (nor robbable: a robber that came before the barrier saw the new top).
        let value = unsafe { self.block().read(top) };
        self.keep_one_stealable(top);
        Some(value)
    }

    /// `pop` of slot `top` (already below the top) while a robber visits or visited.
    #[cold]
    #[inline(never)]
    fn pop_robbed(&self, top: usize) -> Option<T> {
        self.settle_slow();
        if top < self.limit.get() {
            // Robbed (`settle` put the top back above it): pop what is left.
            return self.pop();
        }
        // SAFETY: still a private slot, and the robber is gone (it took older ones).
        let value = unsafe { self.block().read(top) };
        self.keep_one_stealable(top);
        Some(value)
    }

    /// Grants every private value: for an owner about to stop pushing and popping for
    /// a while (parked by the shares scheduler), so that thieves can take all its work.
    pub(crate) fn grant_all(&self) {
        self.settle();
        let top = self.top();
        while top > self.limit.get() {
            if self.fence_robbers(top) {
                continue;
            }
            // Release: as in `keep_one_stealable`. A read-modify-write: thieves may be
            // claiming granted slots of this block at the same time.
            self.block()
                .fetch_add((top - self.limit.get()) as u64, Ordering::Release);
            self.limit.set(top);
        }
    }

    /// Before the owner grants up to `bottom` or closes its block (`bottom == S`):
    /// shows robbers where its private slots will start, then looks for one (as `pop`
    /// does). True if one had visited: the owner settled, and must look again at what
    /// it was about to do.
    #[inline]
    fn fence_robbers(&self, bottom: usize) -> bool {
        // Release: a robber that reads this bottom and then the word sees every change
        // the owner made to the word before.
        self.inner.owner.bottom.store(bottom, Ordering::Release);
        // Store-load order against `Stealer::rob` (see `pop`).
        barrier::light();
        self.settle()
    }

    /// If a robber raised the flag: waits for it to finish and takes the block's word
    /// as it is (robbed slots moved `pos` and `limit` up). True if it did.
    #[inline]
    fn settle(&self) -> bool {
        // Relaxed: the callers order it (a barrier), or it is a hint.
        let robbed = self.inner.owner.rob.load(Ordering::Relaxed);
        if robbed {
            self.settle_slow();
        }
        robbed
    }

    #[cold]
    #[inline(never)]
    fn settle_slow(&self) {
        let _robbers = self.inner.robbers.lock().unwrap_or_else(|e| e.into_inner());
        // Relaxed: the robbers' changes were made under the lock we now hold.
        let word = self.block().load(Ordering::Relaxed);
        let limit = word.limit();
        if limit != self.limit.get() {
            debug_assert!(limit > self.limit.get() && word.pos() == limit);
            self.limit.set(limit);
            self.floor.set(limit);
            if self.top() < limit {
                // The slot a pop was taking was robbed.
                self.set_top(limit);
            }
        }
        // Release: as in `fence_robbers`.
        self.inner.owner.bottom.store(limit, Ordering::Release);
        // Relaxed: the next robber raises it again under the lock.
        self.inner.owner.rob.store(false, Ordering::Relaxed);
    }

    /// Whether the queue holds nothing (as far as the owner can tell: a thief may be
    /// taking the last granted value right now).
    pub(crate) fn is_empty(&self) -> bool {
        self.settle();
        // Relaxed: a look at the thieves' progress, stale at worst.
        self.top() == self.limit.get()
            && !self.block().load(Ordering::Relaxed).stealable()
            && !self.prev_stealable()
    }

    /// Values in the current block that no thief has claimed (exact when the queue fits
    /// in one block; a lower bound otherwise, which is what the pool needs: it uses the
    /// length to skip a fence on pushes to a non-empty queue, and to bound queued jobs).
    pub(crate) fn len(&self) -> usize {
        // Relaxed: a count that may be stale the moment it is read.
        self.top() - self.block().load(Ordering::Relaxed).pos()
    }

    /// The next free slot of the current block.
    #[inline]
    fn top(&self) -> usize {
        // Relaxed: the owner's own variable (others only read it, in `is_empty`).
        self.inner.owner.top.load(Ordering::Relaxed)
    }

    #[inline]
    fn set_top(&self, top: usize) {
        // Release: a robber that reads this top (Acquire) sees the values pushed below
        // it. (`Stealer::is_empty`, the pool's last look before a worker sleeps, needs
        // no more than Relaxed: the pool orders it with SeqCst fences on both sides,
        // see `pool/sleep.rs`.)
        self.inner.owner.top.store(top, Ordering::Release)
    }

    /// The sequence number of the current block.
    #[inline]
    fn seq(&self) -> u64 {
        // Relaxed: the owner's own variable, as `top`.
        self.inner.owner.seq.load(Ordering::Relaxed)
    }

    fn set_seq(&self, seq: u64) {
        // Release: a robber that reads this sequence number (Acquire) sees the block's
        // word and top as the owner set them before.
        self.inner.owner.seq.store(seq, Ordering::Release)
    }

    #[inline]
    fn block(&self) -> &Block<T, S> {
        // SAFETY: the current block lives as long as the queue.
        unsafe { &*self.cur.get() }
    }

    #[inline]
    fn ring(&self) -> &Ring<T, S> {
        // SAFETY: rings live as long as the queue.
        unsafe { &*self.ring.get() }
    }

    /// With `top` the new top: if the owner keeps two private slots or more and
    /// thieves have nothing to take, grants the older half of the private slots.
    ///
    /// A lone private value stays private, so that push+pop pairs on an empty queue
    /// (the commonest use) never meet thieves: granting it would cost the pop a
    /// compare-and-swap to take it back. Thieves get it when the owner pushes again,
    /// grants all (the pool does when a worker is idle as it pushes, or asks), or from
    /// a robbery.
    ///
    /// "Nothing to take" is judged cheaply: thieves still in an earlier block (all of
    /// whose slots were granted) have something, or have just emptied it and will
    /// come to this block at their next attempt, finding it empty; the owner sees them
    /// here at its next push or pop and grants then. In this block, the owner looks at
    /// the word only while something it granted may be left.
    #[inline]
    fn keep_one_stealable(&self, top: usize) {
        let limit = self.limit.get();
        if top <= limit + 1 {
            return;
        }
        if self.floor.get() < limit {
            // Relaxed: a look at the thieves' progress; stale, it only delays a grant
            // until the next push or pop.
            if self.block().load(Ordering::Relaxed).stealable() {
                return;
            }
            self.floor.set(limit);
        }
        // Relaxed: as above; thieves only move forward.
        if self.inner.thieves.seq.load(Ordering::Relaxed) < self.seq() {
            return;
        }
        self.grant_more(top);
    }

    /// Grants the older half of the private slots, thieves having taken every slot
    /// granted before (`pos == limit`).
    fn grant_more(&self, mut top: usize) {
        let mut limit = self.limit.get();
        let mut granted = limit + (top - limit).div_ceil(2);
        while self.fence_robbers(granted) {
            // A robber took the oldest private values (maybe all): look again.
            (top, limit) = (self.top(), self.limit.get());
            if top == limit {
                return;
            }
            granted = limit + (top - limit).div_ceil(2);
        }
        let block = self.block();
        // No thief can change the word until we grant (a claim needs `pos < limit`, and
        // a stale thief's expected word has it), so a store does, of the word as it is:
        // Relaxed, since this load only reads back what the owner and the thieves'
        // last claim wrote.
        let word = block.load(Ordering::Relaxed);
        debug_assert!(word.pos() == limit && word.limit() == limit);
        // Release: the values of the slots granted now were written before; a thief's
        // Acquire claim reads this word or a later link of its release sequence (every
        // later change of the word is a read-modify-write), so it sees them.
        block.store(word.with_limit(granted), Ordering::Release);
        self.limit.set(granted);
    }

    /// Whether the block before the owner's still has granted, unclaimed slots (if it
    /// has none, neither has any earlier one: thieves empty blocks in order).
    fn prev_stealable(&self) -> bool {
        let prev = self.seq().wrapping_sub(1);
        // Relaxed: a look at the thieves' progress, stale at worst.
        let word = self.ring().block(prev).load(Ordering::Relaxed);
        word.seq() == prev as u32 && word.stealable()
    }

    /// `push` on a full block: move to the next block first.
    #[cold]
    #[inline(never)]
    fn push_in_next_block(&self, value: T) {
        self.advance();
        self.push(value)
    }

    /// Moves to the next block (the current one is full): the current block is closed
    /// with all its slots granted.
    fn advance(&self) {
        // No robber may claim in the block while we close it (a closed block's word
        // changes only by thieves' claims of granted slots).
        while self.fence_robbers(S) {}
        let next = self.seq() + 1;
        let block = self.enter(next);
        // Release: publishes the values of the slots granted now (as in
        // `keep_one_stealable`), and the start of block `next` (done in `enter`,
        // before): a thief that sees this block closed moves on and finds block `next`
        // ready. A read-modify-write: thieves may be claiming here at the same time.
        self.block()
            .fetch_add((S - self.limit.get()) as u64 | CLOSED, Ordering::Release);
        self.cur.set(block);
        self.limit.set(0);
        self.floor.set(0);
        // A robber reads the sequence number, the bottom, the top, then the sequence
        // number again, and gives up if the two differ (see `Stealer::rob`): with
        // `next` it reads the top of block `next`; with the old number, bottom 0 comes
        // with the close, and `S` makes it give up.
        self.set_top(0);
        self.inner.owner.bottom.store(0, Ordering::Release);
        self.set_seq(next);
    }

    /// Makes the block for sequence number `next` ready for the owner and returns it:
    /// the block it left there when it moved back (untouched since), or the block of
    /// the ring's previous round once its thieves are done, or (if they are not) a
    /// fresh block of a ring twice as long.
    fn enter(&self, next: u64) -> *const Block<T, S> {
        loop {
            let ring = self.ring();
            let block = ring.block(next);
            // Relaxed: the owner wrote this block's word last, or thieves made it
            // finished (`pos == limit`, closed), after which they change nothing but
            // `done`, read below with Acquire.
            let word = block.load(Ordering::Relaxed);
            if word.seq() == next as u32 {
                debug_assert!(!word.closed() && word.pos() == 0 && word.limit() == 0);
                return block;
            }
            if word.closed() && !word.stealable() {
                let claimed = word.pos() as u32;
                // Acquire: pairs with each thief's Release increment after reading its
                // slot, so those reads happen before the owner writes the slots again.
                // A thief is between its claim and its increment for a few
                // instructions, unless descheduled: then we let it run.
                while block.done().load(Ordering::Acquire) != claimed {
                    spin_wait();
                }
                // Relaxed: ordered before the Release store of the new word, which a
                // thief acquires (through its claim) before it counts again.
                block.done().store(0, Ordering::Relaxed);
                // Release: a thief that meets this new incarnation while looking for
                // an older one (and so moves on) also sees every block the owner
                // started before, including `seq + 1` of the one it looked for.
                block.store(Word::new(next as u32, false, 0, 0), Ordering::Release);
                self.bound_thieves(next, ring.len());
                return block;
            }
            self.grow(next);
        }
    }

    /// Keeps the thieves' block less than a ring behind the owner's, so that thieves
    /// and `is_empty` never walk more than a ring of finished blocks.
    fn bound_thieves(&self, next: u64, ring_len: usize) {
        let lowest = (next + 1).saturating_sub(ring_len as u64);
        let thieves = &self.inner.thieves.seq;
        // Relaxed: only decides whether to write below.
        if thieves.load(Ordering::Relaxed) < lowest {
            // Release: a thief that loads the new value (Acquire) sees the blocks the
            // owner started before it. Every block before `lowest` is finished: the
            // one this ring place held last was, and thieves empty blocks in order.
            thieves.fetch_max(lowest, Ordering::Release);
        }
    }

    /// Replaces the ring by one twice as long (its place for `next` is still in use).
    #[cold]
    #[inline(never)]
    fn grow(&self, next: u64) {
        let (ring, made) = self.ring().doubled(next);
        let old = self.replace_ring(ring, made);
        // SAFETY: the owner, done with the old ring; its blocks are all in the new one.
        unsafe { self.inner.retire(old, Vec::new()) };
    }

    /// Publishes `ring` (whose fresh blocks are `made`) as the current ring; returns
    /// the one it replaces, for the caller to retire.
    fn replace_ring(&self, ring: Ring<T, S>, made: Vec<*mut Block<T, S>>) -> *mut Ring<T, S> {
        let ring = Box::into_raw(Box::new(ring));
        // SAFETY: this is the owner.
        unsafe { self.inner.keep(ring, made) };
        // Release: a thief that loads this ring (Acquire) sees its pointers and the
        // words of its fresh blocks.
        self.inner.thieves.ring.store(ring, Ordering::Release);
        self.ring.replace(ring).cast_mut()
    }

    /// With the queue empty and the ring grown: starts over in a fresh ring of the
    /// initial length at the next block, and retires the old ring with all its
    /// blocks, so that a queue gives back what a burst of jobs made it allocate.
    ///
    /// Nothing is left to take in the old blocks (`pop_slow` found nothing to take
    /// back in the current block nor the one before, and thieves empty blocks in
    /// order), and robbers keep off (`bottom` is `S`); a thief that still reads an old
    /// block, claiming nothing, holds a guard that keeps it alive.
    #[cold]
    #[inline(never)]
    fn shrink(&self) {
        let next = self.seq() + 1;
        let old_blocks = self.ring().blocks();
        // Block `next` is started in the new ring before anyone can see the ring (a
        // thief that finds a block not started yet takes it for a bug).
        let (ring, made) = Ring::started_at(self.min_blocks, next);
        let old = self.replace_ring(ring, made);
        // Release: a thief that loads this (Acquire) then loads the ring finds the
        // new one (stored before); one that read the old number and the new ring
        // finds later or finished incarnations there, and moves on to this one.
        self.inner.thieves.seq.fetch_max(next, Ordering::Release);
        self.cur.set(self.ring().block(next));
        self.limit.set(0);
        self.floor.set(0);
        // As in `advance`: top, bottom, then the sequence number.
        self.set_top(0);
        self.inner.owner.bottom.store(0, Ordering::Release);
        self.set_seq(next);
        // SAFETY: the owner, done with the old ring and its blocks (the new ring holds
        // fresh blocks only), which hold no value.
        unsafe { self.inner.retire(old, old_blocks) };
    }

    /// `pop` with no private slot left: take back what thieves left of the current
    /// block's granted slots, or else move back into the previous block.
    #[cold]
    #[inline(never)]
    fn pop_slow(&self) -> Option<T> {
        // Robbers keep off while the owner takes back or moves (it has no private slot
        // now): a robber may read the owner's position half-changed by `move_back`.
        while self.fence_robbers(S) {}
        if self.take_back() || self.move_back() {
            return self.pop();
        }
        if self.ring().len() > self.kept_blocks {
            self.shrink();
        }
        // Release: as in `fence_robbers`; stored after any position `move_back`
        // restored, so a robber that reads it sees that position.
        self.inner
            .owner
            .bottom
            .store(self.limit.get(), Ordering::Release);
        None
    }

    /// Takes back the current block's granted, unclaimed slots; false if none.
    fn take_back(&self) -> bool {
        let block = self.block();
        // Relaxed: the compare-and-swap below decides.
        let mut word = block.load(Ordering::Relaxed);
        while word.stealable() {
            // Relaxed: the slots taken back hold values this owner wrote; what makes
            // them its own is the swap's place in the word's modification order (every
            // claim is a swap on the same word), which needs no ordering.
            match block.compare_exchange(
                word,
                word.taken_back(),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    self.limit.set(word.pos());
                    self.floor.set(word.pos());
                    // Release: as in `fence_robbers`.
                    self.inner.owner.bottom.store(word.pos(), Ordering::Release);
                    return true;
                }
                Err(now) => word = now,
            }
        }
        false
    }

    /// Moves back into the previous block if it has unclaimed slots, taking them all
    /// back (they are the queue's newest after the empty current block, which stays
    /// as it is for when the owner moves forward again).
    fn move_back(&self) -> bool {
        let (seq, top) = (self.seq(), self.top());
        let prev_seq = seq.wrapping_sub(1);
        let prev = self.ring().block(prev_seq);
        // Relaxed: the compare-and-swap below decides.
        let mut word = prev.load(Ordering::Relaxed);
        if word.seq() != prev_seq as u32 || !word.stealable() {
            return false;
        }
        // The owner stands in the previous block before taking anything, so that
        // `Stealer::is_empty` finds the values there, granted or under the top.
        self.set_seq(prev_seq);
        self.set_top(S);
        loop {
            debug_assert!(word.closed() && word.limit() == S);
            // Relaxed: as in `take_back`.
            match prev.compare_exchange(
                word,
                word.taken_back(),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(now) if now.stealable() => word = now,
                Err(_) => {
                    self.set_seq(seq);
                    self.set_top(top);
                    return false;
                }
            }
        }
        self.cur.set(prev);
        self.limit.set(word.pos());
        self.floor.set(word.pos());
        // Release: as in `fence_robbers`.
        self.inner.owner.bottom.store(word.pos(), Ordering::Release);
        true
    }
}

impl<T, const S: usize> Drop for Worker<T, S> {
    fn drop(&mut self) {
        // Grant everything, so the values left are all in granted slots, where thieves
        // may still take them and the queue's `Drop` finds them.
        self.grant_all();
    }
}
