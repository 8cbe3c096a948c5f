//! BWoS, the block-based work-stealing queue (Wang et al., OSDI'23), in the LIFO form
//! the pool needs: the owner pushes and pops the newest value, thieves take the oldest.
//!
//! The queue is a ring of blocks. The owner works at the top of its current block with
//! plain loads and stores; each block has one word (its incarnation, a closed bit, and
//! the range of slots granted to thieves) on a cache line of its own. The owner grants
//! slots to thieves a block at a time when it moves on, and earlier when thieves have
//! nothing to take; it takes back what they left, one compare-and-swap per block, when
//! it pops down to them. The incarnation in the word lets a block be reused while a
//! slow thief still holds a pointer to it: the thief's claim then fails. When the
//! thieves lag a whole ring behind, the ring doubles (blocks keep their places), so a
//! push never fails.
//!
//! Differences from the paper, for the pool: thieves may also take granted slots of
//! the owner's current block (the owner grants the older half of its private slots
//! whenever thieves have nothing and it keeps two or more; the pool has a lone job
//! granted when a worker is idle, so that it can be stolen at once, as with
//! Chase-Lev); an idle thief may rob the oldest private value
//! of an owner that makes no progress (blocked in user code, it may be waiting for
//! that value to run), with a process-wide barrier as for the pool's lazy join frames
//! (`Stealer::rob`); there is no probabilistic victim choice (the
//! pool picks victims); a thief may take a batch (half of what the block offers, for
//! its own queue: `Stealer::steal_batch_and_pop`); and an emptied queue whose ring grew
//! past a bound starts over in a ring of the initial length, the replaced rings and
//! blocks going to crossbeam-epoch's collector (thieves pin while they read them).
//!
//! `block` (slots and word), `word` (the packed word), `ring` (blocks by sequence
//! number, and doubling), `queue` (what owner and thieves share), `worker` (the owner's
//! end), `stealer` (the thieves' end), `sync` (std or loom primitives).

mod block;
mod queue;
mod ring;
mod stealer;
mod sync;
mod word;
mod worker;

#[cfg(all(test, loom))]
mod loom_tests;
#[cfg(all(test, not(loom)))]
mod tests;

pub(crate) use stealer::Stealer;
pub(crate) use worker::Worker;
