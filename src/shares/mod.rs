//! Ticket shares: dividing a pool's cores among competing computations
//! (Waldspurger's lottery and stride scheduling, with currencies and transfers).
//!
//! The scheduler below the pool: tickets, currencies, policies, the allocator and
//! its permits. It knows nothing of the pool or of its threads (no module here
//! uses `pool/` or `trace/`); the pool uses it. A share as users see it (the
//! public `Share`, a sub-pool) and the link from a pool to its permits are the
//! pool's, in `pool/shares/`.
//!
//! One file per concept:
//! * [`tree`]: the currency graph — shares, their tickets in their parent's
//!   currency, their demand (workers that want a core), lends; validation
//!   ([`ShareError`]).
//! * [`entitlement`]: tickets and demands to entitlements (cores, as a real number,
//!   for each share that wants some): hierarchical, work-conserving water-filling.
//! * [`stride`] and [`lottery`] ([`SharePolicy`]): which share gets the next free
//!   core, and which holders give theirs back at the end of a quantum;
//!   [`weight_tree`]: the lottery's partial sums of the waiting shares' weights,
//!   so that a draw between two quanta costs `O(log n)`.
//! * [`allocator`]: the P core permits, worker states and charging, as pure logic on
//!   an explicit clock (simulated deterministically in the tests), and the
//!   activity memory (a share idle for a moment keeps its claim); its state in
//!   parts, a file each (permits, entitlements, counts, workers, holds,
//!   lingering shares, ceilings), and its module doc says where a ticket
//!   becomes a core.
//! * [`thread_clock`]: the CPU time of worker threads, what shares are charged.
//! * [`permits`]: the allocator behind a lock, with blocking, wake-ups and the
//!   per-worker "give your core back" flag (model-checked with loom).
//! * [`slot_set`]: the sets of shares the allocator keeps up to date (those
//!   that wait, hold, keep a core, linger), so that a decision does not scan
//!   every share.
//! * [`accounting`]: per-share counters; [`rng`]: the lottery's generator;
//!   [`sync`]: std or loom types.
//! * [`simulation`]: the allocator on a simulated clock, for
//!   `examples/simulate.rs` (hidden, not part of the API).
//!
//! # How the pool uses it
//!
//! The pool's side (`pool/shares/`, whose module doc walks through the whole
//! path) makes one [`Permits`] for a pool that makes shares, at its first share
//! (from an allocator [`Config`]: the builder's policy, quantum, cores and root
//! tickets), and registers each worker of a share's sub-pool (or of the root
//! pool) with it. A worker's [`WorkerHandle`] comes with a callback
//! ([`permits::OnFlag`]) by which the permits raise that worker's own flag in
//! the pool when the allocator flags it: the one way anything here reaches the
//! pool. The pool's workers then call:
//!
//! - [`Permits::acquire`] before they run (it blocks until their share is due),
//!   [`Permits::release`] when they run out of work, and [`Permits::yield_now`]
//!   at a safe point where [`WorkerHandle::should_yield`] is set;
//! - at paced safe points, [`Permits::publish_time`],
//!   [`Permits::end_quantum_if_due`], [`Permits::spread`] and
//!   [`Permits::defers_to_other`]; [`Permits::anticipate`] when workers of a
//!   share are woken for work;
//! - [`Permits::add_share`], [`Permits::set_ceiling`], [`Permits::set_cores`]
//!   and [`Permits::with`] (the allocator's own calls: tickets, loans, a share
//!   retired, the tree shut down) for what users ask of shares, and
//!   [`Permits::stats`] and [`Permits::try_thread_reading`] for what the pool
//!   reads (a share's figures, the cores its tickets are worth).

// Parts of the allocator are used only by the tests and simulations (entitlement
// queries).
#![allow(dead_code)]

pub(crate) mod accounting;
mod allocator;
mod entitlement;
mod error;
mod lottery;
mod permits;
mod policy;
mod rng;
mod slot_set;
// Not part of the API: the allocator for `examples/simulate.rs` (see the file).
#[doc(hidden)]
pub mod simulation;
mod stride;
mod sync;
pub(crate) mod thread_clock;
mod tree;
mod weight_tree;

#[cfg(test)]
mod tests;

pub(crate) use allocator::Config;
pub use error::ShareError;
pub(crate) use permits::{Permits, WorkerHandle};
pub use policy::SharePolicy;
pub(crate) use tree::ShareId;
