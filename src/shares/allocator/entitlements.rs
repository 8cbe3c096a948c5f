//! The entitlements the allocator keeps, and what of them is out of date.

#[cfg(test)]
use crate::shares::entitlement::ticket_entitlements;
use crate::shares::entitlement::{Scratch, TicketSplit, entitlements};
use crate::shares::stride::Stride;
use crate::shares::tree::ShareTree;

/// The two kinds of entitlements (indexed by tree slot), what follows from
/// them (their total, the top share), and which of them are out of date. Both
/// are brought up to date lazily, before they are used: the ticket
/// entitlements by [`Entitlements::fresh`] (before any charge or decision), the
/// demand-capped ones by [`Entitlements::fresh_capped`] (only the lottery's
/// draws and [`super::Allocator::entitlement`] read them).
///
/// Invariants: unless `tickets_stale`, `ticket_ent` is what the tree's
/// tickets, active shares and lends give (with the demands as of the last time
/// they were followed: bit for bit a computation from scratch once they are),
/// the ledger's entitlements are `ticket_ent`, and `ticket_total` is the cores
/// while a share is active, else 0; unless `capped_stale`, `capped_ent` is what
/// the tree gives now; unless `top_stale`, `top` is the slot with the largest
/// `ticket_ent`.
#[derive(Debug, Default)]
pub(super) struct Entitlements {
    /// Cores each active share's tickets are worth (at the top level as if every
    /// active share could use all the cores, raised within currencies by their
    /// levels: see [`TicketSplit`]): what both policies charge against.
    pub(super) ticket_ent: Vec<f64>,
    /// Cores each share is entitled to within the demands (they add up to the
    /// cores in use).
    pub(super) capped_ent: Vec<f64>,
    /// The cores the shares can use at the last draw of a lottery: all of them
    /// without ceilings (the water-filling caps each share at its demand), else
    /// the demand-capped entitlements' sum (see [`super::View::in_use`]).
    pub(super) in_use: f64,
    /// All the cores while a share is active, else 0: what the global pass
    /// advances against (the top-level parts add up to it, up to rounding;
    /// `ticket_ent` adds up to it or more).
    pub(super) ticket_total: f64,
    /// The slot with the largest `ticket_ent`, if one is larger than all others
    /// (found when asked, once after each change).
    top: Option<usize>,
    /// Keeps `ticket_ent` up to date by the currencies whose split changed.
    split: TicketSplit,
    /// Scratch: the ticket entitlements that moved, `(slot, old, new)`.
    moved: Vec<(usize, f64, f64)>,
    /// Scratch of the demand-capped entitlements' computation.
    scratch: Scratch,
    /// `ticket_ent` is out of date: which shares are active, their tickets or
    /// the lends changed, or the demands are to be followed. A share's demand
    /// moving between two non-zero values leaves it alone. Cleared by
    /// [`Entitlements::fresh`].
    pub(super) tickets_stale: bool,
    /// `ticket_ent` lags a share's demand that moved since the last end of a
    /// quantum: the ticket entitlements follow the demands at the next (after
    /// the holders were charged for the time before, at the old rates), not at
    /// each change, which would cost a settle each and, where it moves a
    /// currency's level, a retune of every share below it. Changes of who is
    /// active are followed at once. Cleared at the end of a quantum
    /// ([`Entitlements::quantum_ended`]), which sets `fresh_follows_demands`.
    pub(super) tickets_behind_demands: bool,
    /// The next [`Entitlements::fresh`] makes `ticket_ent` follow the demands;
    /// cleared by it.
    fresh_follows_demands: bool,
    /// `capped_ent` is out of date: any demand changed. Only the lottery
    /// decides with it (and `entitlement` reads it), so the stride policy never
    /// waits for it. Cleared by [`Entitlements::fresh_capped`].
    pub(super) capped_stale: bool,
    /// `top` is out of date: a ticket entitlement moved. Cleared by
    /// [`Entitlements::top`].
    top_stale: bool,
}

impl Entitlements {
    /// Room for `n` slots.
    pub(super) fn resize(&mut self, n: usize) {
        self.capped_ent.resize(n, 0.0);
        self.ticket_ent.resize(n, 0.0);
    }

    /// `slot`'s ticket entitlement (0 for a slot not known yet), if the ticket
    /// entitlements are up to date.
    pub(super) fn fresh_ticket_ent(&self, slot: usize) -> Option<f64> {
        if self.tickets_stale {
            return None;
        }
        Some(self.ticket_ent.get(slot).copied().unwrap_or(0.0))
    }

    /// Tickets, shares, lends or demands changed: every entitlement is out of date.
    pub(super) fn changed(&mut self) {
        self.tickets_stale = true;
        self.capped_stale = true;
    }

    /// Every holder is charged up to the end of a quantum: the ticket
    /// entitlements may follow the demands that moved since the last.
    pub(super) fn quantum_ended(&mut self) {
        if std::mem::take(&mut self.tickets_behind_demands) {
            self.tickets_stale = true;
            self.fresh_follows_demands = true;
        }
    }

    /// Recomputes the ticket entitlements of the `cores` if tickets, shares or
    /// demands changed since, and retunes the `ledger` to those that moved
    /// (the tree's changes are then cleared). Called before entitlements are
    /// used (charging, picking, ticking): the policy sees each change at the
    /// virtual time it happened, since only charging moves virtual time.
    pub(super) fn fresh(&mut self, tree: &mut ShareTree, cores: u32, ledger: &mut Stride) {
        if !self.tickets_stale {
            return;
        }
        self.tickets_stale = false;
        let cores = f64::from(cores);
        let mut moved = std::mem::take(&mut self.moved);
        moved.clear();
        let demands = std::mem::take(&mut self.fresh_follows_demands);
        self.split
            .follow(tree, cores, demands, &mut self.ticket_ent, &mut moved);
        tree.clear_changes();
        #[cfg(test)]
        if self.split.follows_demands() {
            let mut full = Scratch::default();
            ticket_entitlements(tree, cores, &mut full);
            full.out.resize(self.ticket_ent.len(), 0.0);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&self.ticket_ent),
                bits(&full.out),
                "ticket entitlements kept up to date"
            );
        }
        // The top-level parts of all the cores add up to the cores.
        self.ticket_total = if tree.active_shares() > 0 { cores } else { 0.0 };
        if !moved.is_empty() {
            self.top_stale = true;
            ledger.retune(&moved, self.ticket_total);
        }
        self.moved = moved;
    }

    /// Recomputes the demand-capped entitlements of the `cores` if they are out
    /// of date (the ticket entitlements are brought up to date first, by the
    /// caller).
    pub(super) fn fresh_capped(&mut self, tree: &ShareTree, cores: u32) {
        if !self.capped_stale {
            return;
        }
        self.capped_stale = false;
        entitlements(tree, f64::from(cores), &mut self.scratch);
        std::mem::swap(&mut self.capped_ent, &mut self.scratch.out);
    }

    /// The slot with the largest ticket entitlement, if one is larger than all
    /// others (the ticket entitlements up to date).
    pub(super) fn top(&mut self) -> Option<usize> {
        if self.top_stale {
            self.top_stale = false;
            self.top = top_slot(&self.ticket_ent);
        }
        self.top
    }
}

/// The index of the largest entitlement, if it is larger than every other.
fn top_slot(ticket_ent: &[f64]) -> Option<usize> {
    let mut top = None;
    let mut most = 0.0;
    for (slot, &e) in ticket_ent.iter().enumerate() {
        if e > most {
            (top, most) = (Some(slot), e);
        } else if e == most {
            top = None;
        }
    }
    top
}
