//! The pool's side of ticket shares: a share is a sub-pool whose workers run only
//! while they hold one of its root pool's core permits. The permits, the allocator
//! behind them, tickets, currencies and policies are `crate::shares`, the
//! scheduler below the pool, which knows nothing of the pool or its threads: the
//! pool registers each worker with the permits along with a callback that raises
//! the worker's flag, and calls them (see "How the pool uses it" there).
//!
//! One file per concept:
//! * [`mod@share`]: the public [`Share`] (a sub-pool with the pool API), its
//!   [`ShareStats`] and [`TicketLoan`], and [`share()`] (a share of the global pool).
//! * [`link`]: what a pool's registry knows of shares ([`PoolShares`]: the root's
//!   permits, its workers as the permits see them), and the hooks the pool calls.
//! * [`stalled_starts`]: the thread starts a share's thread bound refused, watched
//!   from outside the share (model-checked with loom in `loom_stalled_starts.rs`).
//!
//! # How the pool uses the shares
//!
//! Nothing below costs anything to a pool that never makes a share: `SHARES_EXIST`
//! (pool/preempt.rs) stays false and `safe_point()` is one relaxed load.
//!
//! 1. **State.** Every `Registry` has a [`PoolShares`]: a root pool's
//!    [`Permits`](crate::shares::Permits) (made at its first share, from the
//!    builder's `share_policy`/`share_quantum`/`share_cores`/`root_tickets`; the
//!    default quantum is 4 ms), and its
//!    `ShareWorkers` (one permit handle per worker, and whether it holds a core):
//!    a share's sub-pool's, or the root pool's own, whose jobs outside any share
//!    take part as the root share from its first share on (all its workers but a
//!    `use_current_thread` worker 0, a user's thread).
//! 2. **A share is a sub-pool.** `ThreadPool::share`, `Share::share` and
//!    `prorata::share` add a node to the tree and build a pool of P workers whose
//!    jobs run only while they hold a permit; `install`, `join`, `scope`, `spawn`,
//!    `broadcast` (and `par_iter` inside `install`) are that pool's.
//! 3. **Take a core before running.** A worker without a core has its pool flag
//!    (`ThreadInfo::preempt`) raised, so its next job start, join or safe point
//!    calls `preempt_requested`, which blocks in `Permits::acquire` until its share
//!    is due.
//! 4. **Give it back when idle.** `Sleep::start_looking` calls `worker_idle` when
//!    a worker runs out of work (and `Sleep::sleep` before it blocks, and the main
//!    loop when it exits): the core goes to the waiting worker the policy picks
//!    (the hand-over of a finishing or blocked share needs no quantum), and the
//!    flag is raised for step 3. If the waiter is another share's, the core is
//!    first kept a moment (400 µs, `Config::hold_nanos`) for the share that gave
//!    it back: one called in a loop is back by then, on idle cores, rather than
//!    waiting for the OS to run its threads behind the other share's; a waiter
//!    wakes up when the hold lapses (`Permits::wait_for_core`). `worker_resumed` (end of a latch wait)
//!    re-checks the flag, so a woken worker does not go on without a core.
//! 5. **Preemption.** Waiting workers end quanta (`Allocator::tick`), and a worker
//!    that asks for a core and waits lets the policy decide at once
//!    (`Allocator::contend`); the holders of shares over their proportion get their
//!    permit flag and their pool flag raised; at the next safe point (an iterator's
//!    leaf passes one about every 40 µs, `pool::Pacer`) they call
//!    `Permits::yield_now` and sleep right there, stack intact, until their share
//!    is due again. Holders are charged the CPU time they used
//!    (`shares/thread_clock.rs`).
//! 6. **Transfer.** `Registry::in_worker_cross` (a worker of share A calls
//!    `b.install(f)`) lends A's tickets to B until `f` returns (a guard, so also on
//!    a panic); [`Share::lend_to`] does the same for waits prorata does not see.
//! 7. **Life cycle.** Dropping a `Share` drops its sub-pool without waiting (queued
//!    and running jobs finish; a worker holding a core gives it back as it exits,
//!    and a sleeping one exits without taking one); when the last worker is gone,
//!    `ShareWorkers::drop` unregisters them and retires the node. Dropping the root
//!    `ThreadPool` shuts the tree down: new shares get
//!    [`ShareError::PoolShuttingDown`](crate::ShareError::PoolShuttingDown).
//!
//! `Share::stats` (and `ThreadPool::stats` for the root share) has the allocator's
//! figures (core time, grants, parks, preemptions) and what the share's (or pool's)
//! workers counted (jobs, steals, join frames published and claimed, sleeps,
//! wake-ups: the counters every pool's workers keep, see pool/stats.rs).

mod link;
#[cfg(all(test, loom))]
mod loom_stalled_starts;
mod share;
mod stalled_starts;

pub(crate) use link::{PoolShares, ShareConfig};
pub(crate) use share::root_share;
pub use share::{Share, ShareStats, TicketLoan, share};
