//! The word a block's owner and thieves synchronise on: which incarnation of the block
//! it describes, whether the owner has left it, and which slots thieves may take.
//!
//! Packed in one `u64` so that a thief's claim (one compare-and-swap) fails whenever
//! anything it decided on changed: the incarnation (the block was reused), the closed
//! bit (the owner came back), or the range (the owner took slots back).

/// `seq` (bits 63..32): the low 32 bits of the block's sequence number in the queue;
/// `closed` (bit 31): the owner moved on to a later block and will not grant more here;
/// `pos` (bits 30..16): the next slot a thief claims; `limit` (bits 15..0): thieves may
/// claim the slots in `pos..limit`. `pos <= limit` always.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Word(pub(crate) u64);

/// The closed bit (adding it to an open word sets it).
pub(crate) const CLOSED: u64 = 1 << 31;
const POS_SHIFT: u32 = 16;
const POS_MASK: u64 = 0x7FFF;
const LIMIT_MASK: u64 = 0xFFFF;
/// The most slots a block may have: `pos` and `limit` must fit their fields, and the
/// owner's `fetch_add` on `limit` must never carry into `pos`.
pub(crate) const MAX_SLOTS: usize = 1 << 14;

impl Word {
    /// A word from its fields.
    #[inline]
    pub(crate) fn new(seq: u32, closed: bool, pos: usize, limit: usize) -> Word {
        debug_assert!(pos <= limit && limit <= MAX_SLOTS);
        Word(
            (u64::from(seq) << 32)
                | if closed { CLOSED } else { 0 }
                | ((pos as u64) << POS_SHIFT)
                | limit as u64,
        )
    }

    /// The low 32 bits of the sequence number of the incarnation.
    #[inline]
    pub(crate) fn seq(self) -> u32 {
        (self.0 >> 32) as u32
    }

    /// Whether the owner has left the block for a later one.
    #[inline]
    pub(crate) fn closed(self) -> bool {
        self.0 & CLOSED != 0
    }

    /// The next slot a thief claims.
    #[inline]
    pub(crate) fn pos(self) -> usize {
        ((self.0 >> POS_SHIFT) & POS_MASK) as usize
    }

    /// The end of the slots thieves may claim.
    #[inline]
    pub(crate) fn limit(self) -> usize {
        (self.0 & LIMIT_MASK) as usize
    }

    /// Whether some granted slot is still unclaimed.
    #[inline]
    pub(crate) fn stealable(self) -> bool {
        self.pos() < self.limit()
    }

    /// The same word with `pos` advanced by `n` (a thief's claim).
    #[inline]
    pub(crate) fn claim(self, n: usize) -> Word {
        debug_assert!(self.pos() + n <= self.limit());
        Word(self.0 + ((n as u64) << POS_SHIFT))
    }

    /// The same word with `limit` set (the owner granting more slots).
    #[inline]
    pub(crate) fn with_limit(self, limit: usize) -> Word {
        debug_assert!(self.pos() <= limit && limit <= MAX_SLOTS);
        Word((self.0 & !LIMIT_MASK) | limit as u64)
    }

    /// The same word, open, with `limit` lowered to `pos` (the owner takes the granted,
    /// unclaimed slots back).
    #[inline]
    pub(crate) fn taken_back(self) -> Word {
        Word::new(self.seq(), false, self.pos(), self.pos())
    }
}

/// Whether sequence number `a` (low 32 bits) is later than `b`; valid while the two are
/// less than 2^31 apart, which a thief would have to lag by 2^31 blocks to break.
#[inline]
pub(crate) fn later(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let w = Word::new(u32::MAX, true, 3, MAX_SLOTS);
        assert_eq!(
            (w.seq(), w.closed(), w.pos(), w.limit()),
            (u32::MAX, true, 3, MAX_SLOTS)
        );
        assert!(w.stealable());
        let c = w.claim(2);
        assert_eq!(
            (c.seq(), c.closed(), c.pos(), c.limit()),
            (u32::MAX, true, 5, MAX_SLOTS)
        );
        assert_eq!(c.with_limit(9).limit(), 9);
        assert_eq!(c.with_limit(9).pos(), 5);
        let t = c.taken_back();
        assert_eq!((t.closed(), t.pos(), t.limit()), (false, 5, 5));
        assert!(!t.stealable());
    }

    #[test]
    fn adding_to_limit_and_closing_never_carries() {
        let w = Word::new(7, false, MAX_SLOTS - 1, MAX_SLOTS - 1);
        let closed = Word(w.0 + 1 + CLOSED);
        assert_eq!(
            (closed.seq(), closed.closed(), closed.pos(), closed.limit()),
            (7, true, MAX_SLOTS - 1, MAX_SLOTS)
        );
    }

    #[test]
    fn sequence_order_wraps() {
        assert!(later(1, 0));
        assert!(later(0, u32::MAX));
        assert!(!later(u32::MAX, 0));
        assert!(!later(5, 5));
    }
}
