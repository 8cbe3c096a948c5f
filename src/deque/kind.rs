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
/// `join` half, a BWoS slot) pays a process-wide barrier so that owners pay no fence
/// (see [`ThiefBarrier`]).
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
    /// workers, which rob them one by one after searching for a while, paying for the
    /// [thieves' barrier](ThiefBarrier) each. So a program that finishes with Chase-Lev
    /// finishes with BWoS, though a blocked owner's jobs start later. (Except where
    /// the kernel starts refusing `membarrier` while the owner is already blocked: see
    /// [`ThiefBarrier::Membarrier`].)
    Bwos,
}

/// The barrier a thief pays when it takes a job that its owner has not offered yet: the
/// pending second half of a `join` (the owner keeps it off its deque until a thief
/// asks), or a job that a [`DequeKind::Bwos`] deque keeps private. Owner and thief each
/// store, then read what the other stored, so each side needs a store-load barrier. The
/// owner does this at every `join`, a thief rarely: chosen with
/// [`ThreadPoolBuilder::thief_barrier`](crate::ThreadPoolBuilder::thief_barrier) or
/// `PRORATA_BARRIER=fence`, for the whole process (the first pool built decides).
///
/// The choice changes what a `join` and a claim cost, never what a program computes.
///
/// ```
/// use prorata::ThiefBarrier;
///
/// assert_eq!(ThiefBarrier::default(), ThiefBarrier::Membarrier);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ThiefBarrier {
    /// The owner pays a compiler fence only, and the thief a process-wide barrier:
    /// Linux's `membarrier`. The first pool registers the process for its private
    /// expedited command (`MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED`); from then on
    /// each thief's barrier makes the kernel interrupt every CPU that is running a
    /// thread of the process, the program's own threads included (several
    /// microseconds of the thief's time on a large machine, and an interrupt for each
    /// of those CPUs; see `docs/scaling.md`). The best trade while thieves claim
    /// rarely, which is what the pool is built for.
    ///
    /// Where there is no `membarrier` (not Linux; a kernel older than 4.3; a sandbox,
    /// such as a seccomp profile or gVisor, that refuses the query or the
    /// registration), the process uses [`Fence`](Self::Fence). Where the kernel starts
    /// refusing it later (a seccomp filter installed while pools run), no thief
    /// panics: the thief whose barrier was refused gives up what it was taking, the
    /// process switches to fences, and thieves take from each worker again once it
    /// has reached a `join` or a safe point. A worker already blocked in user code at
    /// that moment keeps its unoffered jobs until it gets there.
    #[default]
    Membarrier,
    /// Both sides pay an ordinary full fence: every `join` costs one (tens of cycles
    /// on x86) and no thief interrupts other CPUs. The better trade on machines with
    /// many busy workers and frequent steals (see `docs/scaling.md`), or where other
    /// threads of the process must not be interrupted.
    Fence,
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
