//! Why a share could not be made or changed.

use std::fmt;

/// The error returned when a share cannot be created or re-ticketed.
///
/// ```
/// use prorata::ShareError;
///
/// let err = ShareError::ZeroTickets;
/// assert_eq!(err.to_string(), "a share needs at least one ticket");
/// assert_ne!(err, ShareError::TicketOverflow);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ShareError {
    /// A share was asked for with zero tickets. Zero tickets would mean "never
    /// run", which proportional sharing cannot express; use few tickets instead.
    ZeroTickets,
    /// The tickets of a pool's (or a currency's) shares would add up to more
    /// than `u32::MAX`.
    TicketOverflow,
    /// The pool (or the parent share) is shutting down and takes no new shares.
    PoolShuttingDown,
    /// The operating system refused to start the share's worker threads. Only the
    /// first share made in a process starts a thread while it is made; later
    /// shares start theirs for work, and a refusal then panics in the call that
    /// gave the work (`install`, `join`, ...), as for a pool whose threads are all
    /// gone.
    ThreadSpawn,
    /// Tickets can only be lent to a share of the same pool.
    DifferentPools,
    /// A share's ceiling on its cores was asked to be 0 (`Share::set_max_cores`):
    /// a share that may hold no core would never run. Use `None` for no ceiling.
    ZeroCeiling,
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShareError::ZeroTickets => "a share needs at least one ticket",
            ShareError::TicketOverflow => {
                "the tickets of the shares of one pool or currency would exceed u32::MAX"
            }
            ShareError::PoolShuttingDown => "the pool is shutting down and takes no new shares",
            ShareError::ThreadSpawn => "could not start the worker threads of the share",
            ShareError::DifferentPools => "tickets can only be lent to a share of the same pool",
            ShareError::ZeroCeiling => "a share's ceiling on its cores must be at least one core",
        })
    }
}

impl std::error::Error for ShareError {}
