//! The ring of blocks: block `seq` of the queue lives at `seq & mask`. When the owner
//! needs a block whose slot in the ring still holds one the thieves have not emptied,
//! the ring is replaced by one twice as long that keeps every live block at its place
//! for its sequence number (so a thief that still reads the old ring finds the same
//! blocks), and fresh blocks fill the new places. An owner whose queue empties with a
//! long ring starts over in a short ring of fresh blocks (`Worker::shrink`).

use super::block::Block;
use super::sync::Ordering;
use super::word::Word;

/// A power-of-two array of block pointers. Immutable once published.
pub(crate) struct Ring<T, const S: usize> {
    mask: u64,
    blocks: Box<[*const Block<T, S>]>,
}

impl<T, const S: usize> Ring<T, S> {
    /// A ring of `len` fresh blocks (a power of two) and the blocks, for the owner to
    /// keep. Each block looks like a finished incarnation of the sequence number one
    /// ring before the first one that will use it, so the owner reuses it at once and
    /// thieves that meet it move on.
    pub(crate) fn fresh(len: usize) -> (Ring<T, S>, Vec<*mut Block<T, S>>) {
        Ring::fresh_at(len, 0)
    }

    /// A ring of `len` fresh blocks for an owner that starts at block `next`: that
    /// block is open and empty, and the block for each of `next + 1 .. next + len`
    /// looks like a finished incarnation of the sequence number one ring before it.
    /// A thief that looks for an earlier block in it finds a later incarnation or a
    /// finished one, and moves on.
    pub(crate) fn started_at(len: usize, next: u64) -> (Ring<T, S>, Vec<*mut Block<T, S>>) {
        let (ring, made) = Ring::fresh_at(len, next);
        // Relaxed: nobody else sees the ring before the owner publishes it with a
        // Release store, which a thief acquires before it reads this word.
        ring.block(next)
            .store(Word::new(next as u32, false, 0, 0), Ordering::Relaxed);
        (ring, made)
    }

    /// A ring of `len` fresh blocks for an owner about to enter block `next`: the
    /// block for each of `next .. next + len` looks like a finished incarnation of
    /// the sequence number one ring before it.
    fn fresh_at(len: usize, next: u64) -> (Ring<T, S>, Vec<*mut Block<T, S>>) {
        assert!(len.is_power_of_two());
        let mask = len as u64 - 1;
        let mut blocks = vec![std::ptr::null::<Block<T, S>>(); len];
        let made: Vec<_> = (0..len as u64)
            .map(|k| {
                let seq = next.wrapping_add(k);
                let block = Block::boxed(finished(seq.wrapping_sub(len as u64)));
                blocks[(seq & mask) as usize] = block;
                block
            })
            .collect();
        let ring = Ring {
            mask,
            blocks: blocks.into_boxed_slice(),
        };
        (ring, made)
    }

    /// A ring twice as long for an owner about to enter block `next`: the blocks of
    /// `next - len .. next` (every one that may still hold values or be read) stay the
    /// blocks of their sequence numbers; fresh blocks take the other places. Returns the
    /// new ring and the fresh blocks.
    pub(crate) fn doubled(&self, next: u64) -> (Ring<T, S>, Vec<*mut Block<T, S>>) {
        let len = self.blocks.len() as u64;
        let mask = 2 * len - 1;
        let mut blocks = vec![std::ptr::null::<Block<T, S>>(); 2 * len as usize];
        for seq in (0..len).map(|k| next.wrapping_sub(len - k)) {
            blocks[(seq & mask) as usize] = self.blocks[(seq & self.mask) as usize];
        }
        let mut made = Vec::new();
        for seq in (0..len).map(|k| next.wrapping_add(k)) {
            let fresh = Block::boxed(finished(seq.wrapping_sub(2 * len)));
            blocks[(seq & mask) as usize] = fresh;
            made.push(fresh);
        }
        (
            Ring {
                mask,
                blocks: blocks.into_boxed_slice(),
            },
            made,
        )
    }

    /// Number of blocks.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.blocks.len()
    }

    /// The block at the place of sequence number `seq`.
    #[inline]
    pub(crate) fn block(&self, seq: u64) -> &Block<T, S> {
        // SAFETY: every pointer in a ring is to a block of the same queue, freed with
        // the ring's retirement at the earliest (`Inner::retire`): after every thief
        // that may hold this ring has dropped its guard, and the owner, which retires
        // it, no longer uses it.
        unsafe { &*self.blocks[(seq & self.mask) as usize] }
    }

    /// The pointers to every block in the ring.
    pub(crate) fn blocks(&self) -> Vec<*mut Block<T, S>> {
        self.blocks.iter().map(|&b| b.cast_mut()).collect()
    }
}

/// The word of a finished incarnation `seq`: closed, every granted slot claimed.
fn finished(seq: u64) -> Word {
    Word::new(seq as u32, true, 0, 0)
}
