//! What each share received: the figures behind `Share::stats()`.

/// Counters of one share, as kept by the allocator.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShareStats {
    /// Core time received, in nanoseconds (time its workers held permits).
    pub(crate) core_nanos: u64,
    /// Permits granted to its workers.
    pub(crate) grants: u64,
    /// Times one of its workers had to wait (park) for a permit.
    pub(crate) parks: u64,
    /// Times one of its workers gave its core back because it was over its share.
    pub(crate) preemptions: u64,
    /// Calls into the pool's allocator that took its lock, by every share.
    pub(crate) allocator_calls: u64,
    /// Those of them that found the lock held and waited for it.
    pub(crate) allocator_waits: u64,
    /// The time they waited, in nanoseconds.
    pub(crate) allocator_wait_nanos: u64,
}
