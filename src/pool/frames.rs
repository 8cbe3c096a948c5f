//! Pending join frames: the second halves of a worker's joins, kept off the deque.
//!
//! A `join` on a worker records its second closure (a `JobRef` to a job on the caller's
//! stack) in its worker's frame stack instead of pushing it on the deque, and takes it
//! back when the first closure returns. Recording is two plain stores and a release
//! store of the stack's top (an ordinary store on x86); taking back is a store of the
//! top, a compiler fence and a load (see `barrier.rs`). No atomic read-modify-write and
//! no fence, so a join that nobody steals costs a few instructions.
//!
//! Frames `[0, bottom)` are gone: *published* (pushed on the worker's deque, oldest
//! first, as a plain join would have) or *claimed* by a thief; frames `[bottom, top)`
//! are pending here. The worker publishes its oldest pending frame
//!
//! - when it records the first frame of a job, so the oldest pending work of every busy
//!   worker is on its deque; pushing it wakes sleeping workers (about the square root
//!   of the workers that can run at once, see `worker.rs`, so that a call spreads over
//!   an idle pool of many workers in a couple of wake-ups);
//! - when a thief asks (the `PUBLISH` request of `flags.rs`: raised by a thief that took
//!   a job from its deque or found nothing anywhere), at its next join or safe point;
//! - all of them before it waits (a `join` whose second half was stolen, a `scope`, a
//!   cross-pool `install`), yields, or parks for the shares.
//!
//! A worker that does none of these for a while (it blocks in user code, or runs a long
//! sequential stretch) still cannot hide work: an idle thief may *claim* its oldest
//! pending frame directly ([`FrameStack::claim_oldest`]), paying for a process-wide
//! barrier so that the owner's path stays fence-free. Owner and thieves agree on who has
//! a frame as in the THE protocol of Cilk-5: the owner lowers `top` then reads `bottom`,
//! a thief raises `bottom` then reads `top`, and each side backs off when it sees the
//! other; thieves, and the owner when it publishes or meets a claim, hold the stack's
//! lock, so only the owner's own fast paths go without it.
//!
//! The stack has a fixed capacity. Frames beyond it are published at once, after every
//! frame below them, so a deep recursion degrades into plain work stealing.
//!
//! # A join next to a cache miss
//!
//! Summing a balanced tree of boxed nodes by a `join` per node (chili's benchmark, in
//! `examples/overhead`) puts most of a profile's samples on the instruction right after
//! the store of the new `top` (61% on 2^16 - 1 nodes, `perf record -e cpu-clock`).
//! That instruction loads the node's first child pointer, and the samples fall on the
//! test waiting for it: a sampled stall lands on the oldest instruction not yet
//! retired, so those samples are the tree's own cache misses, which sequential code
//! pays as well. The
//! frame's words, `top` and `bottom` stay in the owner's first-level cache, and the
//! reload of `top` at the next join is forwarded from the store buffer: it is a chain
//! beside the tree's loads, whose addresses do not depend on it, so it does not
//! serialise their misses.
//!
//! What sets a heartbeat scheduler ahead on trees larger than the caches is the order
//! of the walk. chili runs most joins (those it does not offer to other threads) second
//! closure first; the tree is allocated in post-order (each node boxed after its
//! subtrees), so that walk reads memory backwards in address order, which the hardware
//! prefetcher streams, while the first-closure-first order jumps. A sequential sum that
//! visits the right child first takes 0.3-0.4 of the left-first time on 2^20 - 1 nodes,
//! as chili does. A `join` here runs its first closure first on the calling thread, as
//! Rayon's does (user code can observe the order), so the pool keeps that order; the
//! cost it adds to the left-first walk is its instructions per join: 1.5-2 times the
//! sequential time on 2^16 - 1 and 2^20 - 1 nodes.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;

use super::job::{ExecuteFn, JobRef};
use super::sync::{AtomicUsize, Mutex, MutexGuard, Ordering};
use crate::deque::barrier;

/// How many frames a worker keeps pending at most (nesting depth of joins).
pub(crate) const CAPACITY: usize = 128;

/// A worker's pending join frames. The owner writes entries and `top`; `bottom` changes
/// under `lock` (by thieves and by the owner's slow paths).
pub(crate) struct FrameStack {
    /// Frames recorded, pending or gone (written only by the owner).
    top: AtomicUsize,
    /// Frames below this index are gone: published or claimed.
    bottom: AtomicUsize,
    lock: Mutex<()>,
    /// The entries' job references, their two words in two arrays (an index scales by
    /// 8 in an address, not by 16).
    pointers: [UnsafeCell<MaybeUninit<*const ()>>; CAPACITY],
    functions: [UnsafeCell<MaybeUninit<ExecuteFn>>; CAPACITY],
}

// SAFETY: entries are written only by the owner, at indices at or above `top`, and read
// by others only under `lock` at an index below `top` that the protocol gave them (see
// `claim_oldest`); the rest is atomics and a mutex.
unsafe impl Sync for FrameStack {}

// SAFETY: the entries are the words of `JobRef`s, which are `Send`.
unsafe impl Send for FrameStack {}

impl FrameStack {
    pub(crate) fn new() -> Self {
        FrameStack {
            top: AtomicUsize::new(0),
            bottom: AtomicUsize::new(0),
            lock: Mutex::new(()),
            pointers: std::array::from_fn(|_| UnsafeCell::new(MaybeUninit::uninit())),
            functions: std::array::from_fn(|_| UnsafeCell::new(MaybeUninit::uninit())),
        }
    }

    /// Owner: the index of the next frame, if it may take the fast path
    /// ([`FrameStack::record_fast`]): its index is in `1..=fast_limit` (not the first
    /// frame of a job, below the high-water mark, so below the capacity). Otherwise the
    /// frame goes to [`FrameStack::push_slow`].
    #[inline]
    pub(crate) fn fast_index(&self, fast_limit: usize) -> Option<usize> {
        let top = self.top.load(Ordering::Relaxed);
        // One comparison for both: `top - 1` wraps for the first frame.
        (top.wrapping_sub(1) < fast_limit).then_some(top)
    }

    /// Owner: records `job` at `top`.
    ///
    /// # Safety
    /// `top` came from [`FrameStack::fast_index`] with a limit below the capacity, and
    /// nothing was recorded or taken back since.
    #[inline]
    pub(crate) unsafe fn record_fast(&self, top: usize, job: JobRef) {
        // SAFETY: `top <= fast_limit < CAPACITY`, and `top` is the stack's top.
        unsafe { self.record(top, job) };
    }

    /// Owner: records `job` and returns its index. At the capacity it gives the job
    /// back with its index: the frame is counted as gone (every frame below it must be
    /// published already), and the caller pushes the job on the deque.
    pub(crate) fn push_slow(&self, job: JobRef) -> Result<usize, (usize, JobRef)> {
        let top = self.top.load(Ordering::Relaxed);
        if top >= CAPACITY {
            let _guard = self.lock();
            debug_assert_eq!(self.bottom.load(Ordering::Relaxed), top);
            self.bottom.store(top + 1, Ordering::Relaxed);
            self.top.store(top + 1, Ordering::Release);
            return Err((top, job));
        }
        // SAFETY: `top < CAPACITY`.
        unsafe { self.record(top, job) };
        Ok(top)
    }

    /// Writes entry `top`, then shows it to thieves by raising `top`.
    ///
    /// # Safety
    /// `top < CAPACITY`, and `top` is the stack's top (owner only).
    #[inline]
    unsafe fn record(&self, top: usize, job: JobRef) {
        let (pointer, function) = job.into_parts();
        // SAFETY: in bounds per the contract; no thief reads at or above `top`, and only
        // the owner writes.
        unsafe {
            (*self.pointers.get_unchecked(top).get()).write(pointer);
            (*self.functions.get_unchecked(top).get()).write(function);
        }
        // Release: a thief that reads the new top also reads the entry.
        self.top.store(top + 1, Ordering::Release);
    }

    /// Reads entry `index` out.
    ///
    /// # Safety
    /// Entry `index` was recorded, is read once, and nobody writes it meanwhile.
    unsafe fn read(&self, index: usize) -> JobRef {
        // SAFETY: per the contract.
        unsafe {
            JobRef::from_parts(
                (*self.pointers[index].get()).assume_init_read(),
                (*self.functions[index].get()).assume_init_read(),
            )
        }
    }

    /// Owner: takes back frame `index` (the top one) once its join's first half has
    /// returned. True if it is still pending here, so nobody else has it and the caller
    /// runs it inline; false if it was published or claimed.
    #[inline]
    pub(crate) fn pop(&self, index: usize) -> bool {
        self.top.store(index, Ordering::Relaxed);
        // Store-load order against `claim_oldest` (see `barrier.rs`).
        barrier::light();
        if self.bottom.load(Ordering::Relaxed) <= index {
            return true;
        }
        self.pop_slow(index)
    }

    /// The frame looked gone: a thief claimed it (or is about to back off), or it was
    /// published. Decides under the lock.
    #[cold]
    #[inline(never)]
    fn pop_slow(&self, index: usize) -> bool {
        let _guard = self.lock();
        if self.bottom.load(Ordering::Relaxed) <= index {
            // A thief saw the frame taken back and backed off.
            return true;
        }
        // Gone; and every frame above it was taken back already.
        self.bottom.store(index, Ordering::Relaxed);
        false
    }

    /// Owner: marks the oldest pending frame gone and returns its job for the deque,
    /// after `prepare` (under the lock).
    pub(crate) fn publish_oldest(&self, prepare: impl FnOnce(&JobRef)) -> Option<JobRef> {
        let _guard = self.lock();
        let bottom = self.bottom.load(Ordering::Relaxed);
        if bottom >= self.top.load(Ordering::Relaxed) {
            return None;
        }
        self.bottom.store(bottom + 1, Ordering::Relaxed);
        // SAFETY: `bottom < top <= CAPACITY` for a pending frame (frames at or above the
        // capacity are never pending); the owner wrote it; under the lock no thief reads
        // it, and it is handed out once since `bottom` moves past it.
        let job = unsafe { self.read(bottom) };
        prepare(&job);
        Some(job)
    }

    /// Thief: claims the oldest pending frame, unless the lock is busy or nothing is
    /// pending; issues a process-wide barrier (a fence where `owner`, the stack's
    /// owner, fences), and gives the claim up if there is none (see `barrier.rs`).
    /// `prepare` sees the job under the lock, before the owner can learn that the
    /// frame is gone.
    pub(crate) fn claim_oldest(
        &self,
        owner: &barrier::Owner,
        prepare: impl FnOnce(&JobRef),
    ) -> Option<JobRef> {
        let _guard = self.lock.try_lock().ok()?;
        let bottom = self.bottom.load(Ordering::Relaxed);
        if bottom >= self.top.load(Ordering::Acquire) {
            return None;
        }
        self.bottom.store(bottom + 1, Ordering::Relaxed);
        // Store-load order against `pop` (see `barrier.rs`): after it, either the owner
        // sees the claim when it takes the frame back, or its new top is visible here.
        // Without it (refused) nothing is known of the owner: the claim is given up,
        // as when the owner took the frame back first. Undoing it is safe: an owner
        // that saw it waits for the lock in `pop_slow`, and then sees it undone.
        if barrier::heavy(owner) && self.top.load(Ordering::Acquire) > bottom {
            // SAFETY: the frame is ours: the owner's `pop` of it comes after the barrier
            // and sees the claim, so it waits for this lock, and the entry it wrote
            // before raising `top` (release, acquired above) is not written again before
            // that pop. `bottom < CAPACITY` since only real frames are pending.
            let job = unsafe { self.read(bottom) };
            prepare(&job);
            Some(job)
        } else {
            // The owner took it back first, or the barrier was refused.
            self.bottom.store(bottom, Ordering::Relaxed);
            None
        }
    }

    /// Whether some frame is pending (a racy reading for others; exact for the owner).
    #[inline]
    pub(crate) fn has_pending(&self) -> bool {
        self.bottom.load(Ordering::Relaxed) < self.top.load(Ordering::Relaxed)
    }

    /// Frames pending (owner).
    #[inline]
    pub(crate) fn pending(&self) -> usize {
        let top = self.top.load(Ordering::Relaxed);
        top.saturating_sub(self.bottom.load(Ordering::Relaxed))
    }

    /// Frames recorded (owner).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.top.load(Ordering::Relaxed)
    }

    /// Whether a frame pushed now would be beyond the capacity (owner).
    pub(crate) fn is_full(&self) -> bool {
        self.len() >= CAPACITY
    }

    fn lock(&self) -> MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(|e| e.into_inner())
    }
}
