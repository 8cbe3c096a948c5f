//! `ThreadPoolBuildError`: why a pool could not be built.

use std::fmt;
use std::io;

/// What kind of failure a [`ThreadPoolBuildError`] reports.
///
/// ```
/// use prorata::ThreadPoolBuildErrorKind;
/// let _ = prorata::ThreadPoolBuilder::new().build_global();
/// let err = prorata::ThreadPoolBuilder::new().build_global().unwrap_err();
/// assert_eq!(err.kind(), ThreadPoolBuildErrorKind::GlobalPoolAlreadyInitialized);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ThreadPoolBuildErrorKind {
    /// `build_global` was called after the global pool was built (explicitly or lazily).
    GlobalPoolAlreadyInitialized,
    /// The operating system refused to start a worker thread.
    ThreadSpawn,
    /// `use_current_thread` was asked on a thread that already is a worker of a pool.
    CurrentThreadAlreadyInPool,
    /// [`ThreadPoolBuilder::share_cores`](crate::ThreadPoolBuilder::share_cores) was given 0: shares need at least one core.
    ZeroShareCores,
    /// [`ThreadPoolBuilder::share_quantum`](crate::ThreadPoolBuilder::share_quantum) was given zero: a quantum must last some time.
    ZeroShareQuantum,
    /// [`ThreadPoolBuilder::root_tickets`](crate::ThreadPoolBuilder::root_tickets) was given 0: the pool's own jobs need
    /// at least one ticket.
    ZeroRootTickets,
}

/// Error returned when a pool cannot be built. Threads started before the failure are
/// told to exit (they do once their start handlers return).
///
/// ```
/// let _ = prorata::ThreadPoolBuilder::new().build_global();
/// let err = prorata::ThreadPoolBuilder::new().build_global().unwrap_err();
/// assert!(err.to_string().contains("global"));
/// ```
#[derive(Debug)]
pub struct ThreadPoolBuildError {
    kind: ThreadPoolBuildErrorKind,
    io: Option<io::Error>,
}

impl ThreadPoolBuildError {
    pub(crate) fn new(kind: ThreadPoolBuildErrorKind) -> Self {
        ThreadPoolBuildError { kind, io: None }
    }

    /// A thread could not be started.
    pub(crate) fn thread_spawn(e: io::Error) -> Self {
        ThreadPoolBuildError {
            kind: ThreadPoolBuildErrorKind::ThreadSpawn,
            io: Some(e),
        }
    }

    /// What went wrong.
    ///
    /// ```
    /// let _ = prorata::ThreadPoolBuilder::new().build_global();
    /// let err = prorata::ThreadPoolBuilder::new().build_global().unwrap_err();
    /// assert_eq!(err.kind(), prorata::ThreadPoolBuildErrorKind::GlobalPoolAlreadyInitialized);
    /// ```
    pub fn kind(&self) -> ThreadPoolBuildErrorKind {
        self.kind
    }
}

impl fmt::Display for ThreadPoolBuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.kind, &self.io) {
            (ThreadPoolBuildErrorKind::GlobalPoolAlreadyInitialized, _) => {
                f.write_str("the global thread pool has already been initialized")
            }
            (ThreadPoolBuildErrorKind::CurrentThreadAlreadyInPool, _) => {
                f.write_str("the current thread is already part of a thread pool")
            }
            (ThreadPoolBuildErrorKind::ZeroShareCores, _) => {
                f.write_str("share_cores(0): the shares of a pool need at least one core")
            }
            (ThreadPoolBuildErrorKind::ZeroShareQuantum, _) => f.write_str(
                "share_quantum(0): the scheduling quantum of shares must be longer than zero",
            ),
            (ThreadPoolBuildErrorKind::ZeroRootTickets, _) => {
                f.write_str("root_tickets(0): the pool's own jobs need at least one ticket")
            }
            (ThreadPoolBuildErrorKind::ThreadSpawn, Some(e)) => {
                write!(f, "could not start a worker thread: {e}")
            }
            (ThreadPoolBuildErrorKind::ThreadSpawn, None) => {
                f.write_str("could not start a worker thread")
            }
        }
    }
}

impl std::error::Error for ThreadPoolBuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.io.as_ref().map(|e| e as _)
    }
}
