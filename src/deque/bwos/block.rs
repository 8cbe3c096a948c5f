//! One block of a BWoS queue: `S` slots and the metadata its owner and thieves share.

use std::mem::MaybeUninit;

use crossbeam_utils::CachePadded;

use super::sync::{AtomicU32, AtomicU64, Ordering, UnsafeCell};
use super::word::Word;

/// What the owner and the thieves of a block share, on a cache line of its own so that
/// the owner writing its slots never invalidates it (thieves write it when they claim).
struct Meta {
    /// The block's [`Word`].
    word: AtomicU64,
    /// How many claimed slots of this incarnation their thieves have finished reading;
    /// the owner reuses the block only once it equals the word's `pos`.
    done: AtomicU32,
}

/// `S` slots and their metadata.
pub(crate) struct Block<T, const S: usize> {
    meta: CachePadded<Meta>,
    slots: [UnsafeCell<MaybeUninit<T>>; S],
}

impl<T, const S: usize> Block<T, S> {
    /// A block whose word is `word`, its slots empty, on the heap (never moved: thieves
    /// hold pointers to it until the queue is dropped).
    pub(crate) fn boxed(word: Word) -> *mut Block<T, S> {
        Box::into_raw(Box::new(Block {
            meta: CachePadded::new(Meta {
                word: AtomicU64::new(word.0),
                done: AtomicU32::new(0),
            }),
            slots: std::array::from_fn(|_| UnsafeCell::new(MaybeUninit::uninit())),
        }))
    }

    /// Loads the word.
    #[inline]
    pub(crate) fn load(&self, order: Ordering) -> Word {
        Word(self.meta.word.load(order))
    }

    /// Replaces the word (the owner, starting an incarnation nobody else can touch).
    #[inline]
    pub(crate) fn store(&self, word: Word, order: Ordering) {
        self.meta.word.store(word.0, order)
    }

    /// Replaces the word if it is still `current`; returns what it was.
    #[inline]
    pub(crate) fn compare_exchange(
        &self,
        current: Word,
        new: Word,
        success: Ordering,
        failure: Ordering,
    ) -> Result<Word, Word> {
        self.meta
            .word
            .compare_exchange(current.0, new.0, success, failure)
            .map(Word)
            .map_err(Word)
    }

    /// Adds `delta` to the word (the owner raising `limit`, maybe setting the closed bit;
    /// neither can carry into another field).
    #[inline]
    pub(crate) fn fetch_add(&self, delta: u64, order: Ordering) -> Word {
        Word(self.meta.word.fetch_add(delta, order))
    }

    /// The counter of finished steals of this incarnation.
    #[inline]
    pub(crate) fn done(&self) -> &AtomicU32 {
        &self.meta.done
    }

    /// Writes slot `i`.
    ///
    /// # Safety
    /// Only the owner writes, only a slot that holds no value, and only while no thief
    /// may claim or still reads it (at or above the word's `limit`, or in a block whose
    /// previous incarnation's steals are all `done`).
    #[inline]
    pub(crate) unsafe fn write(&self, i: usize, value: T) {
        debug_assert!(i < S);
        // SAFETY: `i < S` (every index the protocol uses is below its block's size), and
        // exclusive access to the slot, by the caller's contract.
        let slot = unsafe { self.slots.get_unchecked(i) };
        // SAFETY: the slot is the caller's alone (as above); writing a `MaybeUninit`
        // drops nothing.
        slot.with_mut(|p| unsafe { (*p).write(value) });
    }

    /// Moves the value out of slot `i`.
    ///
    /// # Safety
    /// The slot holds a value that nobody else reads or will read: the owner's own slot
    /// above `limit`, or one the caller claimed by moving `pos` past it.
    #[inline]
    pub(crate) unsafe fn read(&self, i: usize) -> T {
        debug_assert!(i < S);
        // SAFETY: `i < S` (as in `write`); the slot holds a value and the caller is its
        // only reader.
        let slot = unsafe { self.slots.get_unchecked(i) };
        // SAFETY: the slot holds an initialised value (the caller's contract), which this
        // read moves out; nobody reads it again.
        slot.with(|p| unsafe { (*p).assume_init_read() })
    }
}
