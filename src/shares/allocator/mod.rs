//! The core allocator: P core permits, handed to the workers of the shares.
//!
//! Pure, single-threaded logic with an explicit clock (`now`, in nanoseconds), so
//! that it can be simulated deterministically; [`super::permits::Permits`] wraps it
//! in a lock and adds the blocking.
//!
//! Invariants, checked by [`Allocator::check`]:
//! * `free + holders = cores + excess`: a permit is never lost or duplicated;
//!   `excess` is non-zero only after the cores were lowered below the holders
//!   ([`Allocator::set_cores`]), and then no core is free: each core given back
//!   pays it off before any is free again;
//! * free cores that are not kept for a share (for at most `hold_nanos`, see
//!   [`Config::hold_nanos`]) imply that no worker waits (work conservation),
//!   except workers of a share at its ceiling (see [`Allocator::set_ceiling`]):
//!   a share, with the shares below it, never holds more cores than its
//!   ceiling, even with cores free;
//! * a share's demand is the number of its workers holding or waiting.
//!
//! # Where a ticket becomes a core
//!
//! 1. The [`ShareTree`] keeps each share's tickets in its parent's currency,
//!    its demand (set by [`Allocator::request`] and [`Allocator::release`])
//!    and the lends.
//! 2. [`Entitlements::fresh`] turns them into `ticket_ent`, the cores each
//!    active share's tickets are worth, before anything reads them (who is
//!    active at once, the demands at each end of a quantum:
//!    [`Allocator::tick`]); the policy's ledger is retuned to the ones that moved.
//! 3. The ledger charges each holder's core time against its share's
//!    `ticket_ent` ([`Allocator::settle`], and a holder that gives its core
//!    back: [`Allocator::charge`]).
//! 4. At each decision the policy reads the [`View`] (entitlements, counts,
//!    cores in flight) and names the share that gets a free core
//!    ([`Allocator::dispatch`], [`Allocator::pick`]) or the holders that give
//!    theirs back ([`Allocator::preempt`]).
//! 5. [`Allocator::dispatch`] grants it: the share's first waiter becomes a
//!    holder ([`Workers`]), its counts follow ([`SlotCounts`]), and a permit
//!    stops being free ([`CorePermits`]).
//!
//! # The state, in parts
//!
//! Each part keeps one thing, and says its invariants:
//! * [`CorePermits`]: the cores, the free ones, the excess and those in flight;
//! * [`Entitlements`]: the ticket and demand-capped entitlements, and a flag
//!   for each thing of them that may be out of date;
//! * [`SlotCounts`]: per share, the workers waiting, the unflagged holders and
//!   the demand (what the policies read, under the same names);
//! * [`Workers`]: each worker's state and clock, the holders in the order they
//!   are charged, and when they were last charged;
//! * [`Holds`]: the free cores kept for a share a moment, and the claims;
//! * [`Lingering`]: the shares idle for a moment that still count as active;
//! * [`Ceilings`]: the cores each subtree holds, and the waiters hidden for a
//!   decision because their share is at its ceiling;
//! * [`Slot`]: what is kept of each share (its queue of waiters, its holders,
//!   its own figures of the parts above), indexed by tree slot.

use std::collections::{BTreeSet, VecDeque};

use super::accounting::ShareStats;
use super::entitlement::{Scratch, entitlements, ticket_entitlements};
use super::error::ShareError;
use super::lottery::{Draws, Lottery};
use super::policy::SharePolicy;
use super::stride::Stride;
use super::tree::{ShareId, ShareTree};

mod ceilings;
mod core_permits;
mod counts;
mod entitlements;
mod holds;
mod lingering;
mod workers;

use ceilings::Ceilings;
use core_permits::CorePermits;
use counts::SlotCounts;
use entitlements::Entitlements;
use holds::Holds;
use lingering::Lingering;
pub(crate) use workers::WorkerId;
use workers::{PENDING, Worker, Workers};

/// Per-share scheduling state, indexed by tree slot.
#[derive(Debug, Default)]
struct Slot {
    /// Its waiting workers, first come first.
    queue: VecDeque<WorkerId>,
    /// Holders not asked to give their core back (worker indices; the lowest is
    /// the one asked first).
    unflagged: BTreeSet<u32>,
    /// Holders asked to give their core back, not yet gone.
    flagged: u32,
    /// When the share's demand last fell to zero, while it still counts as
    /// recently active (see [`ACTIVITY_MEMORY_QUANTA`]).
    idle_since: Option<u64>,
    /// Free cores kept for this share, which gave them back a moment ago while
    /// another share waited (see [`Config::hold_nanos`]), until `hold_until`.
    held: u32,
    hold_until: u64,
    /// Workers of this share woken a moment ago that have not asked for a core
    /// yet (see [`Allocator::anticipate`]), until `claim_until`.
    claims: u32,
    claim_until: u64,
    /// How long the share was idle before its last call (demand from zero; `None`
    /// before its second call): a share called again within about a hold has its
    /// freed cores kept for it (see [`Allocator::hold_for`]).
    last_gap: Option<u64>,
    /// When its demand last fell to zero.
    paused_at: Option<u64>,
    /// Until when the share counts as called sparsely: a pause longer than about
    /// two holds ended a moment ago (set for twice that pause, at most the
    /// activity memory). The short pauses inside its calls (its workers out of
    /// work while the last pieces finish) then do not make it look as if it were
    /// called in a loop.
    sparse_until: u64,
    stats: ShareStats,
}

/// What the policies see when deciding (indexed by tree slot).
pub(crate) struct View<'a> {
    /// Cores each active share's tickets are worth (0: wants none; see
    /// [`super::entitlement::TicketSplit`]): what the policies charge against.
    pub(crate) ticket_ent: &'a [f64],
    /// Cores each share is entitled to within the demands (they add up to the
    /// cores in use).
    pub(crate) capped_ent: &'a [f64],
    /// The cores a lottery's draw hands out (read at the end of a quantum only):
    /// all of them, or without ceilings what the shares' demands cap them at.
    pub(crate) in_use: f64,
    /// Workers of each share that want a core (waiting, or holding one, asked
    /// to give it back or not).
    pub(crate) demand: &'a [u32],
    /// Workers of each share waiting for a core.
    pub(crate) waiting: &'a [u32],
    /// Holders of each share not yet asked to give their core back.
    pub(crate) holders: &'a [u32],
    /// Holders asked to give their core back that have not yet: cores already on
    /// their way to waiters.
    pub(crate) in_flight: u32,
    /// The slots with a waiting worker, in no particular order.
    pub(crate) waiters: &'a [usize],
    /// The slots with a holder not asked to give its core back, in no
    /// particular order.
    pub(crate) holding: &'a [usize],
}

#[cfg(test)]
impl View<'_> {
    pub(crate) fn waiting_slots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.waiting.len()).filter(|&s| self.waiting[s] > 0)
    }

    pub(crate) fn holding_slots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.holders.len()).filter(|&s| self.holders[s] > 0)
    }
}

/// What the policies see, from the allocator's fields (a macro, so that the
/// policy can be borrowed mutably beside it).
macro_rules! view {
    ($a:expr) => {
        View {
            ticket_ent: &$a.entitlements.ticket_ent,
            capped_ent: &$a.entitlements.capped_ent,
            in_use: $a.entitlements.in_use,
            demand: &$a.counts.demand,
            waiting: &$a.counts.waiting,
            holders: &$a.counts.holders,
            in_flight: $a.permits.in_flight,
            waiters: $a.counts.waiters.as_slice(),
            holding: $a.counts.holding.as_slice(),
        }
    };
}

#[derive(Debug)]
enum Policy {
    Stride(Box<Stride>),
    Lottery(Box<Lottery>),
}

/// The allocator of one pool.
#[derive(Debug)]
pub(crate) struct Allocator {
    /// The shares: tickets, demands, lends, ceilings.
    tree: ShareTree,
    /// The stride policy or a lottery, with its ledger of passes.
    policy: Policy,
    quantum_nanos: u64,
    permits: CorePermits,
    entitlements: Entitlements,
    /// Each share's own state, indexed by tree slot.
    slots: Vec<Slot>,
    counts: SlotCounts,
    workers: Workers,
    holds: Holds,
    lingering: Lingering,
    ceilings: Ceilings,
    /// Scratch list of slots or workers (reused, no allocation per decision).
    scratch_list: Vec<usize>,
}

/// What [`Allocator::anticipate`] did.
#[derive(Debug, Default)]
pub(crate) struct Anticipated {
    /// Holders newly asked to give their core back.
    pub(crate) flagged: Vec<WorkerId>,
    /// Waiters granted a core (one whose hold lapsed).
    pub(crate) granted: Vec<WorkerId>,
}

/// Settings of an allocator.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Config {
    pub(crate) cores: u32,
    pub(crate) policy: SharePolicy,
    pub(crate) quantum_nanos: u64,
    /// Weight of the pool's own jobs (those outside any share).
    pub(crate) root_tickets: u32,
    /// Seed of the lottery.
    pub(crate) seed: u64,
    /// Charge workers by their own clocks (CPU time), noted by the caller.
    pub(crate) own_clocks: bool,
    /// How long a core that a share's worker gives back (it ran out of work)
    /// while a worker of another share waits stays kept for the first share,
    /// before it goes to the waiter: a share called in a loop comes back within
    /// this time, takes its core again at once, and owes nobody for a core that
    /// went elsewhere in between; a share that has stopped gives it away this
    /// much later (0: at once).
    pub(crate) hold_nanos: u64,
}

impl Config {
    /// Defaults: stride, 4 ms quanta, the pool's own jobs weighted as 100 tickets.
    pub(crate) fn new(cores: u32) -> Self {
        Config {
            cores,
            policy: SharePolicy::Stride,
            quantum_nanos: 4_000_000,
            root_tickets: 100,
            seed: 0x5EED,
            own_clocks: false,
            hold_nanos: DEFAULT_HOLD_NANOS,
        }
    }
}

impl Allocator {
    pub(crate) fn new(config: Config) -> Self {
        assert!(config.cores > 0, "prorata: a pool needs at least one core");
        let memory = memory_quanta(config.quantum_nanos);
        let policy = match config.policy {
            SharePolicy::Stride => Policy::Stride(Box::new(Stride::policy(memory))),
            SharePolicy::Lottery => Policy::Lottery(Box::new(Lottery::new(
                Draws::Independent,
                config.seed,
                memory,
            ))),
            SharePolicy::MultiWinnerLottery => Policy::Lottery(Box::new(Lottery::new(
                Draws::MultiWinner,
                config.seed,
                memory,
            ))),
        };
        let mut a = Allocator {
            tree: ShareTree::new(config.root_tickets),
            policy,
            quantum_nanos: config.quantum_nanos.max(1),
            permits: CorePermits::new(config.cores),
            entitlements: Entitlements::default(),
            slots: Vec::new(),
            counts: SlotCounts::default(),
            workers: Workers::new(config.own_clocks),
            // Never longer than a quantum (a pool with short quanta wants quick
            // hand-overs).
            holds: Holds::new(config.hold_nanos.min(config.quantum_nanos)),
            lingering: Lingering::new(config.quantum_nanos.max(1) * ACTIVITY_MEMORY_QUANTA),
            ceilings: Ceilings::default(),
            scratch_list: Vec::new(),
        };
        a.resize();
        a
    }

    /// The pool's own share (jobs outside any share).
    pub(crate) fn root(&self) -> ShareId {
        self.tree.root()
    }

    pub(crate) fn cores(&self) -> u32 {
        self.permits.cores
    }

    pub(crate) fn quantum_nanos(&self) -> u64 {
        self.quantum_nanos
    }

    /// How long a turn on a core lasts now: the quantum, or less when so many
    /// shares compete that each would wait more than [`ROUND_NANOS`] between
    /// two turns, as a round of them all takes `active × turn / cores`; never
    /// less than [`MIN_TURN_NANOS`] (or the quantum, if that is shorter).
    ///
    /// The proportions hold over windows of a few turns of each share: with 200
    /// equal shares on 2 cores a 2 s window held five 4 ms turns of each, and
    /// one turn more or less was 20% of a share's part; in turns of 2 ms the
    /// worst share of a window was 12% from its part at the median (against 22%),
    /// for about 4% fewer items done (more hand-overs), and in turns of 1 ms 9%,
    /// for about 2.5% fewer again (docs/scaling.md).
    ///
    /// ```text
    /// shares competing on 2 cores:   2-50    100    200 and more
    /// turn (default quantum 4 ms):   4 ms    2 ms   1 ms
    /// ```
    pub(crate) fn turn_nanos(&self) -> u64 {
        let active = u64::from(self.tree.active_shares().max(1));
        let fair = ROUND_NANOS.saturating_mul(u64::from(self.permits.cores)) / active;
        fair.clamp(MIN_TURN_NANOS.min(self.quantum_nanos), self.quantum_nanos)
    }

    /// Cores `share`'s own jobs are entitled to now (0 when it wants none).
    pub(crate) fn entitlement(&mut self, share: ShareId) -> f64 {
        self.tree.node(share);
        self.fresh_capped();
        self.entitlements.capped_ent[share.index()]
    }

    /// Computes into `s.out` the demand-capped entitlements of every slot now,
    /// leaving the allocator's own (and the policy's view of them) alone.
    pub(crate) fn entitlements_into(&self, s: &mut Scratch) {
        entitlements(&self.tree, f64::from(self.permits.cores), s);
    }

    /// Cores `share`'s tickets are worth among the active shares now (what the
    /// policies charge it against: [`super::entitlement::TicketSplit`]), read
    /// without touching the policy: the entitlements in use if they are up to
    /// date, else computed into `s`. Its sub-pool starts no more threads than
    /// this, rounded up.
    pub(crate) fn ticket_cores(&self, share: ShareId, s: &mut Scratch) -> f64 {
        let slot = share.index();
        if let Some(ticket_ent) = self.entitlements.fresh_ticket_ent(slot) {
            return ticket_ent;
        }
        ticket_entitlements(&self.tree, f64::from(self.permits.cores), s);
        s.out.get(slot).copied().unwrap_or(0.0)
    }

    /// Free cores that are kept for no share: a worker asking now would get one.
    pub(crate) fn unclaimed_cores(&self) -> u32 {
        self.permits.free.saturating_sub(self.holds.held)
    }

    /// Whether `share` is still in the tree (a retired share leaves once empty).
    pub(crate) fn is_live(&self, share: ShareId) -> bool {
        self.tree.contains(share)
    }

    pub(crate) fn stats(&self, share: ShareId) -> ShareStats {
        self.tree.node(share);
        self.slots[share.index()].stats
    }

    /// Core time the share's current holders have held since they were last charged:
    /// what `stats` does not count yet at `now`.
    pub(crate) fn uncharged_nanos(&self, share: ShareId, now: u64) -> u64 {
        let held = |(i, w): (usize, &Worker)| match *w {
            Worker::Holding { slot, since, .. } if slot == share.index() && since != PENDING => {
                self.workers
                    .time(WorkerId(i as u32), now)
                    .saturating_sub(since)
            }
            _ => 0,
        };
        self.workers.states.iter().enumerate().map(held).sum()
    }

    /// Whether the pool has any share besides itself (else nothing competes).
    pub(crate) fn has_shares(&self) -> bool {
        !self.tree.node(self.root()).children.is_empty()
    }

    /// Whether two or more shares (the pool's own jobs among them) want cores now
    /// or did a moment ago (within the activity memory).
    pub(crate) fn competing(&self) -> bool {
        self.tree.active_shares() >= 2
    }

    /// While two or more shares compete, the one whose tickets are worth more
    /// cores than any other active share's, if one is. (Brings the ticket
    /// entitlements up to date: the next decision would, before it charges.)
    pub(crate) fn top_share(&mut self) -> Option<usize> {
        if !self.competing() {
            return None;
        }
        self.fresh();
        self.entitlements.top()
    }

    #[cfg(test)]
    pub(crate) fn stride(&self) -> Option<&Stride> {
        match &self.policy {
            Policy::Stride(s) => Some(s),
            Policy::Lottery(_) => None,
        }
    }

    /// Applies the ledger's pending bound to every pass and forgets its kept
    /// extremes (tests compare the decisions with and without).
    #[cfg(test)]
    pub(crate) fn forget_extremes(&mut self) {
        self.policy.ledger_mut().forget_extremes();
    }

    /// The passes both policies keep, charged against the ticket entitlements
    /// (the stride policy's own; the lottery's credit and debt ledger).
    #[cfg(test)]
    pub(crate) fn ledger(&self) -> &Stride {
        match &self.policy {
            Policy::Stride(s) => s,
            Policy::Lottery(l) => l.ledger(),
        }
    }

    fn resize(&mut self) {
        let n = self.tree.slots();
        self.slots.resize_with(n, Slot::default);
        self.counts.resize(n);
        self.entitlements.resize(n);
        self.ceilings.resize(n);
        self.holds.resize(n);
        self.lingering.lingerers.resize(n);
        match &mut self.policy {
            Policy::Stride(s) => s.resize(n),
            Policy::Lottery(l) => l.resize(n),
        }
    }

    // ----- shares -----

    pub(crate) fn add_share(
        &mut self,
        parent: ShareId,
        tickets: u32,
    ) -> Result<ShareId, ShareError> {
        let id = self.tree.add(parent, tickets)?;
        self.resize();
        self.reset_slot(id.index());
        self.changed();
        Ok(id)
    }

    pub(crate) fn set_tickets(&mut self, share: ShareId, tickets: u32) -> Result<(), ShareError> {
        self.tree.set_tickets(share, tickets)?;
        self.changed();
        Ok(())
    }

    /// Changes the number of cores (permits) to `cores` (at least 1) at `now`:
    /// the CPU quota of the pool's container changed. Raised, the new cores
    /// first pay off an excess, then come free for the waiters. Lowered, free
    /// cores go first; holders beyond the new count are asked to give their core
    /// back at their next safe point, and until enough have, every core given
    /// back vanishes instead of coming free, so holders never exceed the count
    /// again once they are down to it. Returns the workers granted a core and
    /// the holders newly asked to give theirs back.
    pub(crate) fn set_cores(&mut self, cores: u32, now: u64) -> (Vec<WorkerId>, Vec<WorkerId>) {
        let cores = cores.max(1);
        if cores == self.permits.cores {
            return (Vec::new(), Vec::new());
        }
        self.expire(now);
        self.lapse_holds(now);
        // The entitlements change with the cores: charge the time before.
        self.settle(now);
        if cores > self.permits.cores {
            let add = cores - self.permits.cores;
            let paid = add.min(self.permits.excess);
            self.permits.excess -= paid;
            self.permits.free += add - paid;
        } else {
            let remove = self.permits.cores - cores;
            let from_free = remove.min(self.permits.free);
            self.permits.free -= from_free;
            self.permits.excess += remove - from_free;
            // Cores kept for a share must be free ones.
            if self.holds.held > self.permits.free {
                let kept = self.holds.kept.as_slice().to_vec();
                for slot in kept {
                    self.slots[slot].held = 0;
                    self.holds.kept.remove(slot);
                }
                self.holds.held = 0;
            }
        }
        self.permits.cores = cores;
        self.changed();
        let granted = self.dispatch(now);
        // Holders already asked count: they give their core back while an
        // excess lasts (see `yield_core`).
        let mut flagged = Vec::new();
        let mut k = self.workers.holder_set.len();
        while self.permits.in_flight < self.permits.excess && k > 0 {
            k -= 1;
            let i = self.workers.holder_set[k] as usize;
            if let Worker::Holding {
                slot,
                flagged: false,
                ..
            } = self.workers.states[i]
            {
                // This very holder (`flag_one` takes the lowest of its slot).
                self.slots[slot].unflagged.remove(&(i as u32));
                flagged.push(self.flag_holder(slot, i));
            }
        }
        (granted, flagged)
    }

    /// Holders beyond the cores, whose cores vanish as they give them back.
    pub(crate) fn excess(&self) -> u32 {
        self.permits.excess
    }

    /// The most cores `share` (with the shares below it) may hold at once.
    pub(crate) fn ceiling(&self, share: ShareId) -> Option<u32> {
        self.tree.node(share).ceiling
    }

    /// Sets (`None`: removes) the most cores `share` and the shares below it
    /// may hold at once, at `now`. The entitlements cap the share there and give
    /// the rest to the others by tickets; no grant takes its subtree past it.
    /// A raised or removed ceiling grants its waiters the free cores; a lowered
    /// one asks the holders beyond it to give their core back at their next
    /// safe point. Returns the workers granted a core and the holders newly
    /// asked to give theirs back.
    pub(crate) fn set_ceiling(
        &mut self,
        share: ShareId,
        ceiling: Option<u32>,
        now: u64,
    ) -> Result<(Vec<WorkerId>, Vec<WorkerId>), ShareError> {
        if ceiling == Some(0) {
            return Err(ShareError::ZeroCeiling);
        }
        self.tree.node(share);
        self.expire(now);
        // The entitlements change: the holders are charged for the time before.
        self.settle(now);
        let first = !self.tree.has_ceilings();
        self.tree.set_ceiling(share, ceiling)?;
        if first && self.tree.has_ceilings() {
            self.recount_sub_hold();
        }
        self.changed();
        let granted = self.dispatch(now);
        let flagged = self.flag_over_ceiling(share);
        Ok((granted, flagged))
    }

    /// Counts the cores each slot's subtree holds, from the holders.
    fn recount_sub_hold(&mut self) {
        self.ceilings.sub_hold.iter_mut().for_each(|h| *h = 0);
        for k in 0..self.workers.holder_set.len() {
            let i = self.workers.holder_set[k] as usize;
            if let Worker::Holding { slot, .. } = self.workers.states[i] {
                self.ceilings.add_sub_hold(&self.tree, slot, 1);
            }
        }
    }

    /// Whether `slot`'s share, or one above it, holds as many cores as its
    /// ceiling (`by` = 0) or more than it (`by` = 1).
    fn ceiling_reached(&self, slot: usize, by: u32) -> bool {
        self.ceilings.reached(&self.tree, slot, by)
    }

    /// Whether a worker of `share` may get no core now, whatever the policy,
    /// because its share or one above it is at its ceiling.
    pub(crate) fn at_ceiling(&self, share: ShareId) -> bool {
        self.tree.contains(share) && self.ceiling_reached(share.index(), 0)
    }

    /// Asks holders of `share`'s subtree to give their core back until the
    /// holders not asked fit its ceiling (once they have, the grants keep it).
    fn flag_over_ceiling(&mut self, share: ShareId) -> Vec<WorkerId> {
        let Some(ceiling) = self.tree.node(share).ceiling else {
            return Vec::new();
        };
        let mut subtree = vec![share.index() as u32];
        let mut k = 0;
        while k < subtree.len() {
            subtree.extend_from_slice(&self.tree.at(subtree[k]).children);
            k += 1;
        }
        let asked: u32 = subtree
            .iter()
            .map(|&i| self.slots[i as usize].flagged)
            .sum();
        let mut over =
            (self.ceilings.sub_hold[share.index()].saturating_sub(ceiling)).saturating_sub(asked);
        let mut flagged = Vec::new();
        for &i in &subtree {
            while over > 0 {
                let Some(w) = self.flag_one(i as usize) else {
                    break;
                };
                flagged.push(w);
                over -= 1;
            }
        }
        flagged
    }

    /// Hides from the policy the waiters of the shares at their ceiling (see
    /// [`Ceilings::hidden`]); [`Allocator::unhide`] shows them again.
    fn hide_capped(&mut self) {
        if !self.tree.has_ceilings() {
            return;
        }
        let mut waiters = std::mem::take(&mut self.scratch_list);
        waiters.clear();
        waiters.extend_from_slice(self.counts.waiters.as_slice());
        for &slot in &waiters {
            if self.ceiling_reached(slot, 0) {
                self.ceilings.hidden.push(slot);
                self.set_waiting(slot, 0);
            }
        }
        self.scratch_list = waiters;
    }

    fn unhide(&mut self) {
        while let Some(slot) = self.ceilings.hidden.pop() {
            let n = self.slots[slot].queue.len() as u32;
            self.set_waiting(slot, n);
        }
    }

    /// The share's handle is gone: it leaves once its workers are gone.
    pub(crate) fn retire(&mut self, share: ShareId) {
        let removed = self.tree.retire(share);
        self.forget(&removed);
    }

    /// No new shares from now on.
    pub(crate) fn shut_down(&mut self) {
        self.tree.shut_down();
    }

    /// A thread of `from` blocks until `to` has run a job: `from` lends its tickets.
    pub(crate) fn lend(&mut self, from: ShareId, to: ShareId) {
        self.tree.lend(from, to);
        self.changed();
    }

    pub(crate) fn end_lend(&mut self, from: ShareId, to: ShareId) {
        let removed = self.tree.end_lend(from, to);
        self.forget(&removed);
    }

    fn forget(&mut self, removed: &[usize]) {
        for &slot in removed {
            self.reset_slot(slot);
        }
        self.changed();
    }

    fn reset_slot(&mut self, slot: usize) {
        // The ticket entitlements follow the tree first (a removed share that
        // still counted as active goes), so that the policy sees the slot leave
        // before its ledger is reset.
        self.entitlements.tickets_stale = true;
        self.fresh();
        self.lingering.lingerers.remove(slot);
        self.holds.claimants.remove(slot);
        self.permits.in_flight -= self.slots[slot].flagged;
        // Cores kept for the slot stay kept until they lapse (nobody may be
        // there to hand them out now).
        let (held, hold_until) = (self.slots[slot].held, self.slots[slot].hold_until);
        self.slots[slot] = Slot {
            held,
            hold_until,
            ..Slot::default()
        };
        self.set_waiting(slot, 0);
        self.set_holders(slot, 0);
        self.entitlements.capped_ent[slot] = 0.0;
        // Its ticket entitlement went with the tree's (the removed slot's, or
        // none for a new one) in `fresh` above.
        assert_eq!(
            self.entitlements.ticket_ent[slot], 0.0,
            "entitlement of a reset slot"
        );
        match &mut self.policy {
            Policy::Stride(s) => s.reset(slot),
            Policy::Lottery(l) => l.reset(slot),
        }
    }

    /// Recomputes the entitlements if tickets, shares or demands changed since.
    /// Called before entitlements are used (charging, picking, ticking): the
    /// policy sees each change at the virtual time it happened, since only
    /// charging moves virtual time.
    fn fresh(&mut self) {
        let ledger = self.policy.ledger_mut();
        self.entitlements
            .fresh(&mut self.tree, self.permits.cores, ledger);
    }

    /// Brings the demand-capped entitlements (`capped_ent`) up to date too.
    fn fresh_capped(&mut self) {
        self.fresh();
        self.entitlements
            .fresh_capped(&self.tree, self.permits.cores);
    }

    /// Tickets, shares, lends or demands changed: every entitlement is out of date.
    fn changed(&mut self) {
        self.entitlements.changed();
    }

    /// Brings up to date what the policy decides with: the ticket entitlements,
    /// and for a lottery's draw (`draw`: at the end of a quantum) the
    /// demand-capped ones (the stride policy and the lottery between draws do
    /// not read them, so their slots in the view may be stale).
    fn fresh_view(&mut self, draw: bool) {
        self.fresh();
        if draw && matches!(self.policy, Policy::Lottery(_)) {
            // Without ceilings the cores in use are all of them, capped by the
            // demands in the draw's own water-filling: the demand-capped
            // entitlements (a water-filling of the whole tree) are not needed.
            self.entitlements.in_use = if self.tree.has_ceilings() {
                self.fresh_capped();
                self.entitlements.capped_ent.iter().sum()
            } else {
                f64::from(self.permits.cores)
            };
        }
    }

    // ----- workers -----

    pub(crate) fn add_worker(&mut self) -> WorkerId {
        self.workers.add()
    }

    /// Worker `w`'s clock at its last reading (for tests).
    #[cfg(test)]
    pub(crate) fn noted_time(&self, w: WorkerId) -> u64 {
        self.workers.times[w.index()]
    }

    /// Number of worker ids ever handed out (live or free).
    #[cfg(test)]
    pub(crate) fn worker_slots(&self) -> usize {
        self.workers.states.len()
    }

    /// Forgets an idle worker (its thread exited); its id may be reused.
    pub(crate) fn remove_worker(&mut self, w: WorkerId) {
        assert_eq!(
            self.workers.states[w.index()],
            Worker::Idle,
            "prorata: removing a busy worker"
        );
        self.workers.free_ids.push(w);
    }

    pub(crate) fn is_holding(&self, w: WorkerId) -> bool {
        matches!(self.workers.states[w.index()], Worker::Holding { .. })
    }

    pub(crate) fn is_flagged(&self, w: WorkerId) -> bool {
        matches!(
            self.workers.states[w.index()],
            Worker::Holding { flagged: true, .. }
        )
    }

    /// Worker `w` of `share` wants a core. Returns the workers granted one (at most
    /// `w` itself: a free permit means nobody else waits).
    pub(crate) fn request(&mut self, w: WorkerId, share: ShareId, now: u64) -> Vec<WorkerId> {
        assert_eq!(
            self.workers.states[w.index()],
            Worker::Idle,
            "prorata: worker asks twice"
        );
        let slot = share.index();
        self.expire(now);
        self.lapse_holds(now);
        let node = self.tree.node(share);
        let (first, recent) = (node.demand == 0, node.recent);
        if first && !recent {
            // The entitlements change: charge the holders for the time before.
            self.settle_lazily(now);
        }
        if first {
            // A call after a pause: how long the pause was decides whether its
            // cores are kept for it when it pauses again.
            let gap = self.slots[slot].paused_at.map(|t| now.saturating_sub(t));
            if let Some(gap) = gap.filter(|&g| g > 2 * self.holds.hold_nanos) {
                let memory = self.lingering.activity_memory;
                self.slots[slot].sparse_until = now + (2 * gap).min(memory);
            }
            self.slots[slot].last_gap = gap;
        }
        self.tree.add_demand(share, 1);
        if self.slots[slot].idle_since.take().is_some() {
            // Back within the activity memory: it never stopped counting.
            self.lingering.lingerers.remove(slot);
            self.tree.set_recent(share, false);
        }
        let s = &mut self.slots[slot];
        s.claims = s.claims.saturating_sub(1);
        self.holds.claimants.set(slot, s.claims > 0);
        self.enqueue(w, slot);
        // A first worker may change who is active (and what its lenders absorb);
        // another only the demand-capped entitlements.
        self.entitlements.tickets_behind_demands = true;
        if first {
            self.changed();
        } else {
            self.entitlements.capped_stale = true;
        }
        self.dispatch(now)
    }

    /// Worker `w` of `share` asked for a core and waits: rather than wait for the
    /// end of the quantum, the policy decides now whether a holder gives its
    /// core to it (stride: if its share is behind or level with a holder's;
    /// lottery: if its share holds fewer cores than the last draw gave it, or
    /// has just become active). Returns the holders newly asked to give theirs
    /// back.
    pub(crate) fn contend(&mut self, share: ShareId, now: u64) -> Vec<WorkerId> {
        let slot = share.index();
        if self.permits.free > self.holds.held
            || self.counts.waiting[slot] == 0
            || self.ceiling_reached(slot, 0)
        {
            return Vec::new();
        }
        self.expire(now);
        self.settle_lazily(now);
        self.preempt(Some(slot))
    }

    /// Shares whose demand has been zero for longer than the activity memory stop
    /// counting as active.
    fn expire(&mut self, now: u64) {
        if !self.lingering.may_expire(now) {
            return;
        }
        let mut due = std::mem::take(&mut self.scratch_list);
        due.clear();
        let memory = self.lingering.activity_memory;
        let mut until = u64::MAX;
        for &slot in self.lingering.lingerers.as_slice() {
            let Some(t) = self.slots[slot].idle_since else {
                continue;
            };
            if now.saturating_sub(t) >= memory {
                due.push(slot);
            } else {
                until = until.min(t.saturating_add(memory));
            }
        }
        self.lingering.until = until;
        // In slot order: each one's leaving retunes the passes in turn.
        due.sort_unstable();
        for &slot in &due {
            self.settle_lazily(now);
            self.slots[slot].idle_since = None;
            self.lingering.lingerers.remove(slot);
            let id = self.tree.id_at(slot).expect("a lingering share is live");
            self.tree.set_recent(id, false);
            self.changed();
        }
        self.scratch_list = due;
    }

    /// Sets the number of waiting workers of `slot`.
    fn set_waiting(&mut self, slot: usize, n: u32) {
        self.counts.set_waiting(slot, n);
        self.counts_moved(slot);
    }

    /// Sets the number of unflagged holders of `slot`.
    fn set_holders(&mut self, slot: usize, n: u32) {
        self.counts.set_holders(slot, n);
        self.counts_moved(slot);
    }

    /// `slot`'s waiting workers, unflagged or flagged holders changed: its demand
    /// follows, and the policy's index of waiting shares. The stride policy's
    /// table keeps what `slot` waits for (its next core is its unflagged
    /// holders' plus one, while it waits); the lottery's trees keep the weights
    /// of the waiting shares.
    fn counts_moved(&mut self, slot: usize) {
        let (waiting, holders) = (self.counts.waiting[slot], self.counts.holders[slot]);
        self.counts.demand[slot] = waiting + holders + self.slots[slot].flagged;
        match &mut self.policy {
            Policy::Stride(s) => s.set_waiting(slot, if waiting > 0 { holders + 1 } else { 0 }),
            Policy::Lottery(l) => l.set_counts(slot, waiting, holders),
        }
    }

    fn enqueue(&mut self, w: WorkerId, slot: usize) {
        self.workers.states[w.index()] = Worker::Waiting { slot };
        self.slots[slot].queue.push_back(w);
        self.set_waiting(slot, self.counts.waiting[slot] + 1);
        self.slots[slot].stats.parks += 1;
    }

    /// Holder `w` gives its core back (it has nothing to run, or it blocks).
    /// Returns the workers granted the freed core.
    pub(crate) fn release(&mut self, w: WorkerId, now: u64) -> Vec<WorkerId> {
        self.expire(now);
        self.lapse_holds(now);
        if let Worker::Waiting { slot } = self.workers.states[w.index()] {
            // Its core was given up for it while its thread was off the processor
            // (see `Permits`' `give_up_for_off_core`), and it ran out of work before
            // its safe point: it leaves the queue instead.
            self.slots[slot].queue.retain(|&x| x != w);
            self.set_waiting(slot, self.counts.waiting[slot] - 1);
            self.workers.states[w.index()] = Worker::Idle;
            let share = self.tree.id_at(slot).expect("a waiter's share is live");
            return self.leave(share, slot, now);
        }
        let slot = self.give_back(w, now);
        let share = self.tree.id_at(slot).expect("a holder's share is live");
        let last = self.tree.node(share).demand == 1;
        if last && !self.comes_back_soon(slot, now) {
            // Its call is over and its calls come farther apart than a hold: the
            // cores kept for it go to the waiters after a short moment only, in
            // which the thread that waits for the call's result (woken as its
            // last job ended) runs on the core this worker leaves, instead of
            // queueing behind the other share's threads.
            let brief = self.holds.hold_nanos.min(BRIEF_HOLD_NANOS);
            let s = &mut self.slots[slot];
            s.hold_until = s.hold_until.min(now + brief);
            self.hold_for(slot, now, brief);
        } else {
            self.hold_for(slot, now, self.holds.hold_nanos);
        }
        self.leave(share, slot, now)
    }

    /// A worker of `share` (in `slot`) wants no core any more: its demand goes.
    /// Returns the workers granted a core.
    fn leave(&mut self, share: ShareId, slot: usize, now: u64) -> Vec<WorkerId> {
        let removed = self.tree.add_demand(share, -1);
        self.entitlements.tickets_behind_demands = true;
        let last = removed.is_empty() && self.tree.node(share).demand == 0;
        if !removed.is_empty() || last {
            self.forget(&removed);
        } else {
            self.entitlements.capped_stale = true;
        }
        if last {
            if let Policy::Lottery(l) = &mut self.policy {
                l.idle(slot);
            }
            self.slots[slot].paused_at = Some(now);
            // Idle from now, but remembered as active for a while.
            self.slots[slot].idle_since = Some(now);
            self.lingering.start(slot, now);
            self.tree.set_recent(share, true);
        }
        self.dispatch(now)
    }

    /// Holder `w` was asked to give its core back and reached a safe point. If
    /// nobody waits it keeps the core, unless a share's workers were woken and
    /// are about to ask for one (their claim, see [`Allocator::anticipate`]): the
    /// core is then kept free for that share. Otherwise it queues again and the
    /// core goes to whom the policy picks (maybe `w` itself). Returns the workers
    /// granted.
    pub(crate) fn yield_core(&mut self, w: WorkerId, now: u64) -> Vec<WorkerId> {
        if matches!(self.workers.states[w.index()], Worker::Waiting { .. }) {
            // Its core was given up for it while its thread was off the processor
            // (see `Permits`' `give_up_for_off_core`): it waits in the queue already.
            return Vec::new();
        }
        let Worker::Holding { slot, .. } = self.workers.states[w.index()] else {
            panic!("prorata: yield by a worker without a core");
        };
        self.expire(now);
        self.lapse_holds(now);
        if self.permits.excess > 0 || self.ceiling_reached(slot, 1) {
            // The pool holds more cores than it has (they were lowered), or its
            // share more than its ceiling: this core goes, and the worker waits
            // until it may have one again.
            self.give_back(w, now);
            self.slots[slot].stats.preemptions += 1;
            self.enqueue(w, slot);
            return self.dispatch(now);
        }
        // A share that lends its tickets waits on another share's work: it keeps
        // its core for that wait rather than free it for a claim.
        let lends = self.tree.slot(slot).is_some_and(|n| !n.lends_to.is_empty());
        let claimant = (self.holds.claimants.as_slice().iter().copied())
            .filter(|&c| {
                let s = &self.slots[c];
                !lends
                    && c != slot
                    && s.claims > 0
                    && now < s.claim_until
                    && self.counts.waiting[c] == 0
            })
            .min();
        if let Some(claimant) = claimant {
            // The policy took this core for the claimant's woken workers: it stays
            // free for them (for a hold at most), whoever else waits.
            self.give_back(w, now);
            self.slots[slot].stats.preemptions += 1;
            self.enqueue(w, slot);
            // A woken thread runs within tens of microseconds once a core is
            // free: one that has not asked by then found nothing to do.
            let until = now + self.holds.hold_nanos.min(BRIEF_HOLD_NANOS);
            let c = &mut self.slots[claimant];
            c.claims -= 1;
            c.held += 1;
            if c.claims == 0 {
                self.holds.claimants.remove(claimant);
            }
            self.holds.kept.insert(claimant);
            c.hold_until = if c.held == 1 {
                until
            } else {
                c.hold_until.max(until)
            };
            self.holds.held += 1;
            return self.dispatch(now);
        }
        if self.counts.waiters.is_empty() {
            self.charge(w, now);
            self.unflag(w);
            return Vec::new();
        }
        self.give_back(w, now);
        self.slots[slot].stats.preemptions += 1;
        self.enqueue(w, slot);
        self.dispatch(now)
    }

    fn unflag(&mut self, w: WorkerId) {
        if let Worker::Holding { slot, flagged, .. } = &mut self.workers.states[w.index()] {
            if *flagged {
                *flagged = false;
                let slot = *slot;
                self.slots[slot].flagged -= 1;
                self.slots[slot].unflagged.insert(w.0);
                self.permits.in_flight -= 1;
                self.set_holders(slot, self.counts.holders[slot] + 1);
            }
        }
    }

    /// Charges `w`'s held time, frees its permit; returns its share's slot.
    fn give_back(&mut self, w: WorkerId, now: u64) -> usize {
        self.charge(w, now);
        let Worker::Holding { slot, flagged, .. } = self.workers.states[w.index()] else {
            panic!("prorata: release by a worker without a core");
        };
        if flagged {
            self.slots[slot].flagged -= 1;
            self.permits.in_flight -= 1;
            self.counts_moved(slot);
        } else {
            self.slots[slot].unflagged.remove(&w.0);
            self.set_holders(slot, self.counts.holders[slot] - 1);
        }
        if let Ok(i) = self.workers.holder_set.binary_search(&w.0) {
            self.workers.holder_set.remove(i);
        }
        self.workers.states[w.index()] = Worker::Idle;
        self.permits.give_back();
        if self.tree.has_ceilings() {
            self.ceilings.add_sub_hold(&self.tree, slot, -1);
        }
        slot
    }

    /// Notes worker `w`'s own clock (its CPU time), for a pool that charges by
    /// them.
    pub(crate) fn note_time(&mut self, w: WorkerId, t: u64) {
        self.workers.times[w.index()] = t;
    }

    /// The workers holding a core.
    pub(crate) fn holding_workers(&self) -> impl Iterator<Item = WorkerId> + '_ {
        (0..self.workers.states.len())
            .filter(|&i| matches!(self.workers.states[i], Worker::Holding { .. }))
            .map(|i| WorkerId(i as u32))
    }

    /// Holder `w` starts running at `now`: it is charged from then on, not
    /// from its grant (a no-op for a worker not holding a core).
    pub(crate) fn start_clock(&mut self, w: WorkerId, now: u64) {
        let t = self.workers.time(w, now);
        if let Worker::Holding { since, .. } = &mut self.workers.states[w.index()] {
            *since = if *since == PENDING {
                t
            } else {
                (*since).max(t)
            };
        }
    }

    /// Charges holder `w` for the time since it was last charged.
    fn charge(&mut self, w: WorkerId, now: u64) {
        if let Some(ticket_ent) = self.advance(w, now) {
            self.policy.ledger_mut().bound(ticket_ent);
        }
    }

    /// Charges holder `w` for the time since it was last charged, without the
    /// ledger's bounds; returns its share's ticket entitlement if it was charged.
    fn advance(&mut self, w: WorkerId, now: u64) -> Option<f64> {
        if !self.is_holding(w) {
            return None;
        }
        self.fresh();
        let t = self.workers.time(w, now);
        let Worker::Holding { slot, since, .. } = &mut self.workers.states[w.index()] else {
            return None;
        };
        if *since == PENDING {
            return None;
        }
        let dt = t.saturating_sub(*since);
        *since = t.max(*since);
        let slot = *slot;
        self.slots[slot].stats.core_nanos += dt;
        let quanta = dt as f64 / self.quantum_nanos as f64;
        let ticket_ent = self.entitlements.ticket_ent[slot];
        let total = self.entitlements.ticket_total;
        self.policy
            .ledger_mut()
            .advance(slot, quanta, ticket_ent, total);
        Some(ticket_ent)
    }

    /// Charges every holder up to `now` (before the entitlements change, so that
    /// the time before is charged at the entitlements it was held under). The
    /// ledger's bounds are applied once, after the last holder: a pass over every
    /// share per holder made a tick cost holders x shares.
    ///
    /// With hundreds of holders this is a large part of a decision, so the
    /// holders are charged in one tight loop: each adds its time to its share's
    /// pass and to the global pass (in worker order, the order in which the
    /// additions round), and the rows of the waiter table and the most indebted
    /// share follow once per share charged, after the loop
    /// ([`Stride::accrue`]). The passes, rows and extremes are those of charging
    /// the holders one by one, bit for bit. A settle at the time of the last one
    /// (several decisions come at the same moment: in a simulated server, most
    /// settles) charges nobody anything and applies the bounds only.
    fn settle(&mut self, now: u64) {
        self.workers.last_settle = now;
        #[cfg(test)]
        if self.workers.settle_one_by_one {
            return self.settle_each(now);
        }
        if self.workers.holder_set.is_empty() {
            return;
        }
        self.fresh();
        if self.workers.settled_at == Some(now) {
            // Settled at this time already (several decisions come at the same
            // moment): each holder would be charged nothing. Only the bounds
            // remain, as after charging a share entitled to some cores.
            let entitled = |&i: &u32| match self.workers.states[i as usize] {
                Worker::Holding { slot, since, .. } if since != PENDING => {
                    self.entitlements.ticket_ent[slot] > 0.0
                }
                _ => false,
            };
            if self.workers.holder_set.iter().any(entitled) {
                self.policy.ledger_mut().bound(1.0);
            }
            return;
        }
        self.workers.settled_at = (!self.workers.own_clocks).then_some(now);
        let quantum = self.quantum_nanos as f64;
        let total = self.entitlements.ticket_total;
        let own_clocks = self.workers.own_clocks;
        let ledger = self.policy.ledger_mut();
        let mut bound = 0.0;
        for &i in &self.workers.holder_set {
            let i = i as usize;
            let Worker::Holding { slot, since, .. } = &mut self.workers.states[i] else {
                continue;
            };
            if *since == PENDING {
                continue;
            }
            let t = if own_clocks {
                self.workers.times[i]
            } else {
                now
            };
            let dt = t.saturating_sub(*since);
            *since = t.max(*since);
            let slot = *slot;
            self.slots[slot].stats.core_nanos += dt;
            let ticket_ent = self.entitlements.ticket_ent[slot];
            ledger.accrue(slot, dt as f64 / quantum, ticket_ent, total);
            if ticket_ent > 0.0 {
                bound = ticket_ent;
            }
        }
        ledger.accrued();
        ledger.bound(bound);
    }

    /// [`Allocator::settle`], unless every holder was charged less than
    /// [`SETTLE_SLACK`] of a quantum ago: for the decisions that come between
    /// two ends of a quantum (a share arrives or leaves, a worker contends),
    /// whose number grows with the shares. Charging every holder costs a pass
    /// over them (up to one per core); skipped, the time since the last settle
    /// is charged later at the entitlements of then, an error of at most that
    /// slack per change, and the passes a contention compares are that much
    /// older on every side. The end of a quantum, a change of the cores or of a
    /// ceiling always settle.
    fn settle_lazily(&mut self, now: u64) {
        let slack = (self.quantum_nanos as f64 * SETTLE_SLACK) as u64;
        if now >= self.workers.last_settle.saturating_add(slack) || now < self.workers.last_settle {
            self.settle(now);
        }
    }

    /// [`Allocator::settle`] holder by holder, each charged as a give-back
    /// charges it (what the tight loop must equal).
    #[cfg(test)]
    fn settle_each(&mut self, now: u64) {
        let mut bound = 0.0;
        let mut holders = std::mem::take(&mut self.scratch_list);
        holders.clear();
        holders.extend(self.workers.holder_set.iter().map(|&i| i as usize));
        for &i in &holders {
            if let Some(ticket_ent) = self.advance(WorkerId(i as u32), now) {
                if ticket_ent > 0.0 {
                    bound = ticket_ent;
                }
            }
        }
        self.scratch_list = holders;
        self.policy.ledger_mut().bound(bound);
    }

    /// Settles holder by holder from now on, as [`Allocator::settle_each`] does
    /// (tests compare the decisions either way).
    #[cfg(test)]
    pub(crate) fn settle_one_by_one(&mut self) {
        self.workers.settle_one_by_one = true;
    }

    /// Hands free permits to waiting workers, as the policy picks.
    fn dispatch(&mut self, now: u64) -> Vec<WorkerId> {
        let mut granted = Vec::new();
        // The waiters of shares at their ceiling get no core, free or not.
        self.hide_capped();
        while self.permits.free > 0 {
            let Some(slot) = self.pick_kept().or_else(|| self.pick_free()) else {
                break;
            };
            if self.slots[slot].held > 0 {
                self.slots[slot].held -= 1;
                self.holds.held -= 1;
                if self.slots[slot].held == 0 {
                    self.holds.kept.remove(slot);
                }
            }
            let w = self.slots[slot]
                .queue
                .pop_front()
                .expect("picked share waits");
            self.set_waiting(slot, self.counts.waiting[slot] - 1);
            self.set_holders(slot, self.counts.holders[slot] + 1);
            self.slots[slot].unflagged.insert(w.0);
            if let Err(i) = self.workers.holder_set.binary_search(&w.0) {
                self.workers.holder_set.insert(i, w.0);
            }
            self.slots[slot].stats.grants += 1;
            self.permits.free -= 1;
            let since = if self.workers.own_clocks {
                PENDING
            } else {
                now
            };
            if self.workers.settled_at.is_some_and(|t| t > now) {
                // Granted before the last settle's time: owes that time.
                self.workers.settled_at = None;
            }
            self.workers.states[w.index()] = Worker::Holding {
                slot,
                since,
                flagged: false,
            };
            granted.push(w);
            if self.tree.has_ceilings() {
                self.ceilings.add_sub_hold(&self.tree, slot, 1);
                // This grant may have brought its share to its ceiling.
                self.hide_capped();
            }
        }
        self.unhide();
        granted
    }

    /// A waiting share for which a free core is kept.
    fn pick_kept(&self) -> Option<usize> {
        if self.holds.held == 0 {
            return None;
        }
        let kept = self.holds.kept.as_slice().iter().copied();
        kept.filter(|&s| self.slots[s].held > 0 && self.counts.waiting[s] > 0)
            .min()
    }

    /// The share to get the next free core that is kept for nobody.
    fn pick_free(&mut self) -> Option<usize> {
        if self.permits.free <= self.holds.held {
            return None;
        }
        self.pick()
    }

    /// The share to get the next free core.
    fn pick(&mut self) -> Option<usize> {
        let first = *self.counts.waiters.as_slice().first()?;
        if self.counts.waiters.len() == 1 {
            // One candidate: no need to bring the entitlements up to date.
            return Some(first);
        }
        self.fresh_view(false);
        let view = view!(self);
        match &mut self.policy {
            Policy::Stride(s) => s.pick(&view),
            Policy::Lottery(l) => l.pick(&view),
        }
    }

    /// End of a quantum: charges every holder up to `now`, then asks the holders
    /// that are over their share to give their core back. Returns the workers
    /// newly asked (their safe point will see the flag).
    pub(crate) fn tick(&mut self, now: u64) -> Vec<WorkerId> {
        self.expire(now);
        self.settle(now);
        // Every holder is charged up to now: the entitlements may follow the
        // demands.
        self.entitlements.quantum_ended();
        self.preempt(None)
    }

    /// Workers of `share` were woken (`n` of them) for work one of its workers
    /// published, and will ask for a core once the OS runs them. With no free
    /// core, asks now the holders the policy would take cores from for `n` more
    /// waiters of `share` (wake-up preemption), and notes the claim: the cores
    /// they give back at their safe points are kept for `share` for a hold, so
    /// that its workers start on them at once. Returns the holders newly asked,
    /// and the waiters granted a core whose hold lapsed meanwhile.
    pub(crate) fn anticipate(&mut self, share: ShareId, n: u32, now: u64) -> Anticipated {
        let slot = share.index();
        if n == 0 || self.holds.hold_nanos == 0 || !self.tree.contains(share) {
            return Anticipated::default();
        }
        self.expire(now);
        // Kept cores whose hold is over go to the waiters now: every call that
        // lapses holds must hand the freed cores out, or they idle while workers
        // wait (and waiters time out only for lapses still to come).
        let granted = self.lapse(now);
        let node = self.tree.node(share);
        let capped = self.ceiling_reached(slot, 0);
        if self.permits.free > self.holds.held || (node.demand == 0 && !node.recent) || capped {
            // A free core awaits it; or the share has not run for a while, and
            // competes only once its worker asks.
            return Anticipated {
                flagged: Vec::new(),
                granted,
            };
        }
        self.settle_lazily(now);
        // Cores already on their way to this share count against the claim; a
        // claim past its time is void (its holder reached no safe point in time,
        // or the woken worker found nothing to do and never asked).
        let s = &mut self.slots[slot];
        if now >= s.claim_until {
            s.claims = 0;
            self.holds.claimants.remove(slot);
        }
        let n = n.saturating_sub(s.claims);
        if n == 0 {
            return Anticipated {
                flagged: Vec::new(),
                granted,
            };
        }
        self.set_waiting(slot, self.counts.waiting[slot] + n);
        let flagged = self.preempt(Some(slot));
        self.set_waiting(slot, self.counts.waiting[slot] - n);
        let s = &mut self.slots[slot];
        s.claims += flagged.len() as u32;
        self.holds.claimants.set(slot, s.claims > 0);
        s.claim_until = now + self.holds.hold_nanos;
        Anticipated { flagged, granted }
    }

    /// Whether `slot`, about to be idle at `now`, is likely to be called again
    /// within about a hold: it was the last time (or nothing is known yet), and
    /// no long pause ended a moment ago.
    fn comes_back_soon(&self, slot: usize, now: u64) -> bool {
        let (s, hold) = (&self.slots[slot], self.holds.hold_nanos);
        now >= s.sparse_until && s.last_gap.is_none_or(|gap| gap <= 2 * hold)
    }

    /// Keeps the core `slot` just gave back for it for `nanos`, if a worker of
    /// another share waits for one and none of its own does (else it goes to a
    /// waiter at once, as the policy picks).
    fn hold_for(&mut self, slot: usize, now: u64, nanos: u64) {
        if nanos == 0 || self.counts.waiting[slot] > 0 || self.permits.free <= self.holds.held {
            return;
        }
        if self.counts.waiters.is_empty() {
            return;
        }
        // A share that lends its tickets waits on another share's work (a
        // cross-share `install`): that share wants the core now.
        if self.tree.slot(slot).is_some_and(|n| !n.lends_to.is_empty()) {
            return;
        }
        // Only for a share the policy would give the core to now: a share over its
        // part must not keep a core through its workers' short idle moments.
        if !self.due(slot) {
            return;
        }
        let s = &mut self.slots[slot];
        s.hold_until = if s.held == 0 {
            now + nanos
        } else {
            s.hold_until.max(now + nanos)
        };
        s.held += 1;
        self.holds.held += 1;
        self.holds.kept.insert(slot);
    }

    /// Whether the policy would give `slot` a core now, were it waiting for one.
    fn due(&mut self, slot: usize) -> bool {
        self.fresh_view(false);
        let view = view!(self);
        match &self.policy {
            Policy::Stride(s) => s.due(&view, slot),
            Policy::Lottery(l) => l.due(&view, slot),
        }
    }

    /// Cores kept longer than the hold go back to everyone.
    fn lapse_holds(&mut self, now: u64) {
        if self.holds.held == 0 {
            return;
        }
        let mut kept = std::mem::take(&mut self.scratch_list);
        kept.clear();
        kept.extend_from_slice(self.holds.kept.as_slice());
        for &slot in &kept {
            let s = &mut self.slots[slot];
            if s.held > 0 && now >= s.hold_until {
                self.holds.held -= s.held;
                s.held = 0;
                self.holds.kept.remove(slot);
            }
        }
        self.scratch_list = kept;
    }

    /// When the next kept core goes back to everyone, if one is kept.
    pub(crate) fn next_lapse(&self) -> Option<u64> {
        let kept = self.holds.kept.as_slice().iter().map(|&s| &self.slots[s]);
        kept.filter(|s| s.held > 0).map(|s| s.hold_until).min()
    }

    /// Whether time alone changed something since the last call: a lingering
    /// share's activity memory ran out, or a kept core's hold is over.
    pub(crate) fn is_behind(&self, now: u64) -> bool {
        self.lingering.may_expire(now) || self.next_lapse().is_some_and(|l| l <= now)
    }

    /// Brings the state that time alone changes up to `now`, for a reading made
    /// without a decision: shares whose activity memory ran out stop counting as
    /// active, and kept cores whose hold is over go to the waiters. Returns the
    /// workers granted one. Without it, a reading taken after the other shares
    /// stopped would see them as active, and their cores as kept, for as long
    /// as nobody calls into the allocator.
    pub(crate) fn catch_up(&mut self, now: u64) -> Vec<WorkerId> {
        self.expire(now);
        self.lapse(now)
    }

    /// Time passed (a waiter's timeout): kept cores whose hold is over go to the
    /// waiters. Returns the workers granted one.
    pub(crate) fn lapse(&mut self, now: u64) -> Vec<WorkerId> {
        self.lapse_holds(now);
        self.dispatch(now)
    }

    /// Asks the holders the policy names to give their core back, at the end of
    /// a quantum (`None`) or for a waiter of slot `contender`.
    fn preempt(&mut self, contender: Option<usize>) -> Vec<WorkerId> {
        // No core is taken for a share at its ceiling: it could not have it.
        self.hide_capped();
        self.fresh_view(contender.is_none());
        let view = view!(self);
        let victims = match (&mut self.policy, contender) {
            (Policy::Stride(s), None) => s.preempt(&view),
            (Policy::Stride(s), Some(slot)) => s.contend(&view, slot),
            (Policy::Lottery(l), None) => l.preempt(&view),
            (Policy::Lottery(l), Some(slot)) => l.contend(&view, slot),
        };
        let flagged = victims
            .into_iter()
            .filter_map(|slot| self.flag_one(slot))
            .collect();
        self.unhide();
        flagged
    }

    /// Flags one unflagged holder of `slot`.
    fn flag_one(&mut self, slot: usize) -> Option<WorkerId> {
        let i = self.slots[slot].unflagged.pop_first()? as usize;
        Some(self.flag_holder(slot, i))
    }

    /// Asks holder `i` of `slot`, already taken off the slot's unflagged holders,
    /// to give its core back.
    fn flag_holder(&mut self, slot: usize, i: usize) -> WorkerId {
        if let Worker::Holding { flagged, .. } = &mut self.workers.states[i] {
            *flagged = true;
        }
        self.slots[slot].flagged += 1;
        self.set_holders(slot, self.counts.holders[slot] - 1);
        self.permits.in_flight += 1;
        WorkerId(i as u32)
    }

    /// Panics if an invariant is broken (used by tests and loom models).
    pub(crate) fn check(&self) {
        let held = self
            .workers
            .states
            .iter()
            .filter(|w| matches!(w, Worker::Holding { .. }))
            .count() as u32;
        assert_eq!(
            held + self.permits.free,
            self.permits.cores + self.permits.excess,
            "permit lost or duplicated"
        );
        assert!(
            self.permits.excess == 0 || self.permits.free == 0,
            "a core free during an excess"
        );
        // Workers of shares at their ceiling wait whatever is free.
        let waiting: usize = (self.slots.iter().enumerate())
            .filter(|&(i, _)| !self.ceiling_reached(i, 0))
            .map(|(_, s)| s.queue.len())
            .sum();
        assert!(
            self.permits.free == self.holds.held || waiting == 0,
            "a core idles while a worker waits"
        );
        assert!(self.ceilings.hidden.is_empty(), "waiters left hidden");
        let kept: u32 = self.slots.iter().map(|s| s.held).sum();
        assert_eq!(kept, self.holds.held, "kept cores out of step");
        let active = (0..self.tree.slots())
            .filter_map(|i| self.tree.slot(i))
            .filter(|n| n.demand > 0 || n.recent)
            .count();
        assert_eq!(
            active as u32,
            self.tree.active_shares(),
            "active shares out of step"
        );
        assert!(
            self.holds.held <= self.permits.free,
            "more cores kept than free"
        );
        self.check_kept_state();
        if self.tree.has_ceilings() {
            self.check_ceilings();
        }
        #[cfg(test)]
        if let (Policy::Stride(s), false) = (&self.policy, self.entitlements.tickets_stale) {
            s.check_table(&view!(self));
        }
        for (i, s) in self.slots.iter().enumerate() {
            let live = self.tree.slot(i).map_or(0, |n| n.demand);
            assert_eq!(
                s.queue.len() as u32,
                self.counts.waiting[i],
                "waiting count of slot {i}"
            );
            let d = self.counts.waiting[i] + self.counts.holders[i] + s.flagged;
            assert_eq!(d, live, "demand of slot {i} out of step");
            assert!(
                s.held == 0 || self.counts.waiting[i] == 0 || self.ceiling_reached(i, 0),
                "slot {i} waits by a kept core"
            );
        }
    }
}

impl Allocator {
    /// Panics unless the state kept up to date between decisions (the sets of
    /// shares and workers, the counts) equals what a pass over every share and
    /// worker finds.
    fn check_kept_state(&self) {
        let flagged: u32 = self.slots.iter().map(|s| s.flagged).sum();
        assert_eq!(flagged, self.permits.in_flight, "holders asked out of step");
        #[cfg(test)]
        {
            self.tree.check_counts();
            let n = self.slots.len();
            self.counts
                .waiters
                .check(n, |s| self.counts.waiting[s] > 0, "waiting shares");
            self.counts
                .holding
                .check(n, |s| self.counts.holders[s] > 0, "holding shares");
            self.holds
                .kept
                .check(n, |s| self.slots[s].held > 0, "kept cores");
            let lingering = |s: usize| self.slots[s].idle_since.is_some();
            self.lingering
                .lingerers
                .check(n, lingering, "lingering shares");
            self.holds
                .claimants
                .check(n, |s| self.slots[s].claims > 0, "claims");
        }
        let holding = |i: usize| matches!(self.workers.states[i], Worker::Holding { .. });
        let holders = (0..self.workers.states.len()).filter(|&i| holding(i));
        assert!(
            holders
                .map(|i| i as u32)
                .eq(self.workers.holder_set.iter().copied()),
            "holders out of step"
        );
        let states = &self.workers.states;
        for (slot, s) in self.slots.iter().enumerate() {
            let unflagged = (0..states.len()).filter(|&i| {
                matches!(states[i], Worker::Holding { slot: h, flagged: false, .. } if h == slot)
            });
            assert!(
                unflagged.map(|i| i as u32).eq(s.unflagged.iter().copied()),
                "unflagged holders of slot {slot} out of step"
            );
        }
    }
}

impl Allocator {
    /// Panics unless the subtree holder counts equal a recount, and no share
    /// holds more unflagged cores than its ceiling.
    fn check_ceilings(&self) {
        let mut count = vec![0u32; self.ceilings.sub_hold.len()];
        let mut unflagged = vec![0u32; self.ceilings.sub_hold.len()];
        for w in &self.workers.states {
            if let Worker::Holding { slot, flagged, .. } = *w {
                let mut at = Some(slot as u32);
                while let Some(i) = at {
                    count[i as usize] += 1;
                    unflagged[i as usize] += u32::from(!flagged);
                    at = self.tree.at(i).parent;
                }
            }
        }
        for i in 0..count.len() {
            let Some(node) = self.tree.slot(i) else {
                continue;
            };
            assert_eq!(
                count[i], self.ceilings.sub_hold[i],
                "subtree holders of slot {i}"
            );
            if let Some(c) = node.ceiling {
                assert!(unflagged[i] <= c, "slot {i} holds past its ceiling");
            }
        }
    }
}

impl Policy {
    /// The passes charged against the ticket entitlements: the stride policy's
    /// own, or the lottery's ledger of credit and debt.
    fn ledger_mut(&mut self) -> &mut Stride {
        match self {
            Policy::Stride(s) => s,
            Policy::Lottery(l) => l.ledger_mut(),
        }
    }
}

/// How long a core given back while another share waits stays kept for its share
/// by default: long enough for a share called in a loop to come back when the
/// cores it leaves are idle (its caller and a worker wake at once; while another
/// share's threads ran there, the OS took a millisecond or two to run them, and
/// the share gave that time away at every call), short enough for a hand-over.
const DEFAULT_HOLD_NANOS: u64 = 400_000;

/// How long a core is kept for a share whose calls come far apart, after its call
/// ends (for the caller's thread to run on it), or for a share's woken worker after
/// a holder gave it up for it: a woken thread runs within tens of microseconds
/// when a core is free for it.
const BRIEF_HOLD_NANOS: u64 = 100_000;

/// How long a share whose demand fell to zero still counts as active, in quanta:
/// long enough to span the gap between two calls of a share used in a loop (the
/// caller wakes, injects the next call, a worker wakes and asks for a core), or a
/// worker blocked for a moment; short enough that the others' debt for the cores it
/// left stays small when it has really stopped.
const ACTIVITY_MEMORY_QUANTA: u64 = 4;

/// The longest a competing share should wait between two of its turns on a
/// core, while turns can shorten ([`Allocator::turn_nanos`]).
const ROUND_NANOS: u64 = 100_000_000;

/// The part of a quantum within which the holders are not charged again for a
/// decision between two ends of a quantum (see [`Allocator::settle_lazily`]).
const SETTLE_SLACK: f64 = 0.125;

/// The shortest turn: each one costs a hand-over (a decision, a thread woken).
const MIN_TURN_NANOS: u64 = 1_000_000;

/// How long the policies remember credit and debt (`MEMORY_NANOS`), in
/// quanta. A quarter of a second: long enough to pay back the extra cores a share
/// got during another's fork-join tail within a one-second window, short enough
/// that a share that used spare cores for a long time is not starved for long.
fn memory_quanta(quantum_nanos: u64) -> f64 {
    (MEMORY_NANOS / quantum_nanos.max(1) as f64).max(1.0)
}

/// A quarter of a second, in nanoseconds.
const MEMORY_NANOS: f64 = 0.25e9;
