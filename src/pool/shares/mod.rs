//! The pool's side of ticket shares: a share is a sub-pool whose workers run only
//! while they hold one of the core permits of `crate::shares`, the scheduler below
//! the pool, which knows nothing of threads or pools.
//!
//! One file per concept:
//! * [`mod@share`]: the public [`Share`] (a sub-pool with the pool API), its
//!   [`ShareStats`] and [`TicketLoan`], and [`share()`] (a share of the global pool).
//! * [`link`]: what a pool's registry knows of shares ([`PoolShares`]: the root's
//!   permits, its workers as the permits see them), and the hooks the pool calls.
//! * [`stalled_starts`]: the thread starts a share's thread bound refused, watched
//!   from outside the share (model-checked with loom in `loom_stalled_starts.rs`).

mod link;
#[cfg(all(test, loom))]
mod loom_stalled_starts;
mod share;
mod stalled_starts;

pub(crate) use link::{PoolShares, ShareConfig};
pub(crate) use share::root_share;
pub use share::{Share, ShareStats, TicketLoan, share};
