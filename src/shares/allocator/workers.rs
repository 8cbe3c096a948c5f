//! The workers known to the allocator: what each one does, its clock, and when
//! the holders were last charged.

/// A worker thread known to the allocator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct WorkerId(pub(super) u32);

impl WorkerId {
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }

    /// The worker whose [`WorkerId::index`] is `i`.
    pub(crate) fn from_index(i: usize) -> Self {
        WorkerId(i as u32)
    }
}

/// What a worker does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Worker {
    Idle,
    Waiting {
        slot: usize,
    },
    Holding {
        slot: usize,
        /// The worker's time when it was last charged ([`PENDING`]: granted, not
        /// yet running).
        since: u64,
        flagged: bool,
    },
}

/// `since` of a holder granted a core that does not run yet: charged from its
/// first reading on.
pub(super) const PENDING: u64 = u64::MAX;

/// Every worker the allocator has handed an id, with its state and clock; the
/// workers holding a core, in the order they are charged; and when they were
/// last charged (a settle).
///
/// Invariants: `states` and `times` have an entry per id ever handed out;
/// `holder_set` is the sorted indices of the workers in [`Worker::Holding`];
/// the ids in `free_ids` are idle; `settled_at`, when set, is no earlier than
/// the time of any holder's grant, and every holder has been charged up to it.
#[derive(Debug)]
pub(super) struct Workers {
    /// Each worker's state, indexed by [`WorkerId::index`].
    pub(super) states: Vec<Worker>,
    /// Ids of removed workers, for reuse.
    pub(super) free_ids: Vec<WorkerId>,
    /// Charge each worker by its own clock (its CPU time, noted by the permits
    /// with [`super::Allocator::note_time`]) rather than by `now`.
    pub(super) own_clocks: bool,
    /// Each worker's clock at its last reading (with `own_clocks`).
    pub(super) times: Vec<u64>,
    /// The workers holding a core (indices, sorted: they are charged in this
    /// order). A sorted vector rather than a tree: a settle walks it whole, and
    /// a grant or give-back moves at most a few hundred indices.
    pub(super) holder_set: Vec<u32>,
    /// The time of the last settle, while every holder has been charged up to
    /// it (none granted since at an earlier time; charging by `now` only): a
    /// settle at that time again would charge nobody anything.
    pub(super) settled_at: Option<u64>,
    /// When every holder was last charged (see
    /// [`super::Allocator::settle_lazily`]).
    pub(super) last_settle: u64,
    /// Charge the holders one by one at a settle, each with the ledger's whole
    /// [`crate::shares::stride::Stride::advance`] (tests compare the decisions either way).
    #[cfg(test)]
    pub(super) settle_one_by_one: bool,
}

impl Workers {
    pub(super) fn new(own_clocks: bool) -> Self {
        Workers {
            states: Vec::new(),
            free_ids: Vec::new(),
            own_clocks,
            times: Vec::new(),
            holder_set: Vec::new(),
            settled_at: None,
            last_settle: 0,
            #[cfg(test)]
            settle_one_by_one: false,
        }
    }

    /// A new worker, idle: a removed one's id if there is one.
    pub(super) fn add(&mut self) -> WorkerId {
        if let Some(w) = self.free_ids.pop() {
            return w;
        }
        self.states.push(Worker::Idle);
        self.times.push(0);
        WorkerId((self.states.len() - 1) as u32)
    }

    /// Worker `w`'s time now: its own clock, or `now`.
    pub(super) fn time(&self, w: WorkerId, now: u64) -> u64 {
        if self.own_clocks {
            self.times[w.index()]
        } else {
            now
        }
    }
}
