//! `DequeKind`: which work-stealing deque a pool's workers use.

/// The work-stealing deque each worker of a pool owns. Chosen with
/// [`ThreadPoolBuilder::deque`](crate::ThreadPoolBuilder::deque); a builder not told
/// reads the environment variable `PRORATA_DEQUE` (`chase-lev` or `bwos`, any case;
/// other values are ignored), else uses the default, [`DequeKind::ChaseLev`].
///
/// The choice changes how fast jobs move between workers, never what a program
/// computes: both deques give the owner its newest job and thieves the oldest.
///
/// Either way, a thief that takes a job its owner has not yet offered (a pending
/// `join` half, a BWoS slot) pays a process-wide barrier on Linux (`membarrier`, which
/// interrupts every core running a thread of the process) so that owners pay no fence.
/// With `PRORATA_BARRIER=fence` in the environment (read once, before the first pool
/// runs) both sides use an ordinary fence instead: each `join` costs a fence and no
/// thief interrupts the other cores, the better trade on machines with many busy
/// workers and frequent steals.
///
/// ```
/// use prorata::{DequeKind, ThreadPoolBuilder};
///
/// assert_eq!(DequeKind::default(), DequeKind::ChaseLev);
/// for kind in [DequeKind::ChaseLev, DequeKind::Bwos] {
///     let pool = ThreadPoolBuilder::new().num_threads(2).deque(kind).build().unwrap();
///     assert_eq!(pool.join(|| 1, || 2), (1, 2));
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DequeKind {
    /// Chase and Lev's deque (crossbeam-deque): one array; the owner's pop orders itself
    /// with a full fence against thieves on every call.
    #[default]
    ChaseLev,
    /// BWoS (block-based work stealing, OSDI'23): blocks with their own metadata; the
    /// owner pushes and pops in its block with plain stores and synchronises with
    /// thieves once per block, granting them its older jobs when they run out. A job
    /// becomes stealable when its owner next pushes or pops (a lone job: pushes) or
    /// reaches a safe point (a `join`, a job's start, an iterator's piece) after an idle
    /// worker asked, or at once if a worker was idle when it was pushed.
    ///
    /// An owner that does none of these (blocked in user code, say a `scope` body
    /// waiting on a channel that its last `spawn` sends to) loses its jobs to idle
    /// workers, which rob them one by one after searching for a while, paying for a
    /// process-wide barrier each (Linux's `membarrier`, or fences where the kernel
    /// refuses it). So a program that finishes with Chase-Lev finishes with BWoS,
    /// though a blocked owner's jobs start later (except where the kernel starts
    /// refusing `membarrier` while the owner is blocked already: it keeps them until it
    /// returns to the pool).
    Bwos,
}

/// The environment variable read when the builder was not told which deque to use.
pub(crate) const ENV_VAR: &str = "PRORATA_DEQUE";

impl DequeKind {
    /// The kind named by `s` (`chase-lev` or `bwos`, any case, spaces around ignored).
    pub(crate) fn parse(s: &str) -> Option<DequeKind> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("chase-lev") {
            Some(DequeKind::ChaseLev)
        } else if s.eq_ignore_ascii_case("bwos") {
            Some(DequeKind::Bwos)
        } else {
            None
        }
    }

    /// The kind named by `PRORATA_DEQUE`, if it names one.
    pub(crate) fn from_env() -> Option<DequeKind> {
        std::env::var(ENV_VAR)
            .ok()
            .as_deref()
            .and_then(DequeKind::parse)
    }
}

#[cfg(test)]
mod tests {
    use super::DequeKind;

    #[test]
    fn parses_both_names_in_any_case() {
        assert_eq!(DequeKind::parse("bwos"), Some(DequeKind::Bwos));
        assert_eq!(DequeKind::parse(" BWoS\n"), Some(DequeKind::Bwos));
        assert_eq!(DequeKind::parse("chase-lev"), Some(DequeKind::ChaseLev));
        assert_eq!(DequeKind::parse("Chase-Lev"), Some(DequeKind::ChaseLev));
        assert_eq!(DequeKind::parse("chaselev"), None);
        assert_eq!(DequeKind::parse(""), None);
    }
}
