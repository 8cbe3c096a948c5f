//! Stride scheduling over the flattened *ticket* entitlements.
//!
//! Each active share has a *pass*, a virtual time. Holding a core for one quantum
//! advances it by the share's stride, `1 / entitlement`, and partial quanta are
//! charged pro rata (non-uniform quanta), so a share that gets exactly its
//! entitlement advances its pass at one unit per quantum of real time, like every
//! other such share. The next free core goes to the waiting share with the lowest
//! pass; at the end of a quantum, a share whose pass is behind a holder's takes
//! that holder's core.
//!
//! The entitlement charged against is not the share's demand-capped part. At the
//! top level it is the share's part of the cores by its tickets among the active
//! shares, *not* capped by its demand: a share that can use fewer cores than its
//! tickets are worth (a fork-join tail, where one worker is still busy and the
//! others have nothing to steal) leaves the rest to the others (work
//! conservation), falls behind the global pass (credit) while they run ahead of it
//! (debt), and gets the cores back first once it can use them. Charging against the
//! demand-capped entitlement instead would forgive those debts, and a high-ticket
//! share with tails every second lost several points of its proportion.
//!
//! Within a currency below the pool, the parts by tickets are raised where the
//! currency's water-filling caps some of its participants by their demands (see
//! [`super::entitlement::TicketSplit`]): those that want more than their tickets'
//! worth are charged against their water-filled parts, so the cores the others
//! leave go to them, the other shares of the same currency, as the water-filled
//! parts say, rather than to every share by its flattened tickets (which would
//! put shares in nested currencies tens of points off their parts). A share that
//! wants less than its tickets' worth is still charged against its part by
//! tickets: it falls behind while it does and takes its cores back first
//! afterwards; the credit it gains is owed by every share, not by its siblings
//! alone (they took its cores at their raised entitlements, without debt). A
//! share that the water-filling raises above its tickets' worth, and still caps
//! (a currency that wants less than its part altogether), is charged against
//! what it wants, so that it gets it, however few its tickets.
//!
//! The global pass advances by the core time charged divided by the cores (what
//! the top-level entitlements add up to; those of a currency's participants add
//! up to more than its part where its level raises them): it is the pass of an
//! ideal share that always got exactly its due.
//! Credit and debt are remembered for a bounded time (`memory`, in quanta): a share
//! falling further behind the global pass loses the excess credit, and when a share
//! runs further ahead, the global pass moves up (forgiving every debt alike, so the
//! debtors keep their proportions among themselves). A share that becomes active
//! starts at the global pass (keeping at most one stride of debt, never any
//! credit), so an idle share cannot hoard credit; a share whose entitlement changes
//! keeps its distance to the global pass, rescaled to its new stride (Waldspurger's
//! rule for ticket changes). Credit is paid back at a bounded rate: when cores are
//! handed out, a share stands at most a few quanta behind the global pass (its
//! lead, [`Stride::standing`]), however much credit its pass holds, so that a share
//! whose burst just started is not kept waiting until every share with credit has
//! been paid.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::allocator::View;

/// What the ledger keeps of one share, together, since a choice of a waiter reads
/// all three for each waiting share.
#[derive(Debug, Clone, Copy)]
struct Ledger {
    pass: f64,
    /// The share's ticket entitlement ([`View::ticket_ent`]), 0 while it does
    /// not compete.
    ticket_ent: f64,
    /// Its reach ([`Stride::reach`]) and lead ([`Stride::standing`]),
    /// computed when its entitlement changes.
    reach: f64,
    lead: f64,
}

impl Ledger {
    const RESET: Ledger = Ledger {
        pass: 0.0,
        ticket_ent: 0.0,
        reach: f64::INFINITY,
        lead: f64::INFINITY,
    };
}

/// How far behind the global pass a share with credit stands at most when
/// cores are handed out, in quanta, beside one of its strides (see
/// [`Stride::standing`]).
const LEAD_QUANTA: f64 = 8.0;

#[derive(Debug, Default)]
pub(crate) struct Stride {
    slots: Vec<Ledger>,
    /// `pass - global` saved when the share went inactive.
    remain: Vec<f64>,
    global: f64,
    /// The most credit or debt (distance to the global pass) a share keeps, in
    /// quanta: how far back the fairness remembers.
    memory: f64,
    /// The largest `pass - reach` among the active shares, kept between two
    /// calls of [`Stride::bound`] (passes only grow in between), so that a bound
    /// costs no pass over the shares; out of date (`extremes_stale`) once an
    /// entitlement changed or a share left.
    most_ahead: f64,
    /// The global pass at the last bound: every active share's pass is at least
    /// `floor - reach`. The bound raises the passes below it lazily, when they are
    /// read or charged ([`Stride::pass`]): raised at each bound in turn, they end
    /// at the last one's level, since the global pass only grows in between.
    floor: f64,
    extremes_stale: bool,
    /// Number of shares entitled to some cores (`ticket_ent > 0`).
    competing: u32,
    /// Scratch counts of [`Stride::preempt`], indexed by slot, each copied from
    /// the view when a move first changes the slot's (`copied`): false between
    /// two calls.
    held: Vec<u32>,
    givable: Vec<u32>,
    waiting: Vec<u32>,
    copied: Vec<bool>,
    /// The slots copied by the call under way.
    touched: Vec<usize>,
    /// What the choice of a waiter reads of each waiting share, packed (kept
    /// by the stride policy only).
    table: WaiterTable,
    /// The shares charged by [`Stride::accrue`] since the last
    /// [`Stride::accrued`], each once (`charged` marks them, by slot).
    accruing: Vec<usize>,
    charged: Vec<bool>,
}

/// The waiting shares, each with what the deadline of its next core is computed
/// from, in one packed row: the choice of a waiter reads the rows only, not the
/// ledger, the counts and the entitlements of each share at scattered places.
///
/// A waiting share's next deadline is `max(pass, global - lead) + step` (`step`:
/// its holders plus one over its entitlement; see [`Stride::standing`]), which
/// rounds exactly as the larger of `pass + step`, kept in the row, and
/// `(global - lead) + step`: the global pass moves at every charge and stays out
/// of the row. A row changes when its share's pass does (a charge, a retune),
/// its holders or its entitlement.
///
/// The rows form a binary min-heap on `pass + step` (ordered as
/// `f64::total_cmp` orders it): a deadline is never earlier than its row's
/// `pass + step`, so a search for the earliest deadline skips every row below
/// one whose `pass + step` is already later than the best deadline found
/// ([`WaiterTable::first`]), and most rows are never looked at. The heap orders
/// the rows only; the deadlines compared are computed as before, so the choice
/// is the same.
#[derive(Debug, Default)]
struct WaiterTable {
    on: bool,
    rows: Vec<Row>,
    /// Per slot: its holders plus one while it waits (the rank of its next core),
    /// 0 while it does not.
    next: Vec<u32>,
    /// Per slot: its row (its place in the heap) while it waits.
    row: Vec<u32>,
}

#[derive(Debug, Clone, Copy)]
struct Row {
    /// `pass + step`, with the pass as kept (not raised to the floor).
    raw: f64,
    /// Its lead; infinite for a share entitled to none (its credit is not
    /// bounded).
    lead: f64,
    step: f64,
    slot: usize,
}

impl Row {
    /// The deadline of the share's next core with the global pass at `global`.
    #[inline]
    fn deadline(&self, global: f64) -> f64 {
        self.raw.max((global - self.lead) + self.step)
    }
}

impl WaiterTable {
    /// Whether the table is kept and has `slot` in it.
    fn waits(&self, slot: usize) -> bool {
        self.on && self.next[slot] > 0
    }

    /// The heap's order: `pass + step` as `f64::total_cmp` orders it.
    #[inline]
    fn key(r: &Row) -> u64 {
        order_key(r.raw)
    }

    /// Puts `row` at place `r`, noting its place.
    #[inline]
    fn place(&mut self, r: usize, row: Row) {
        self.row[row.slot] = r as u32;
        self.rows[r] = row;
    }

    /// Moves the row at `r` up or down until the heap is ordered again (only
    /// that row's key changed, or it was just put there).
    fn settle(&mut self, r: usize) {
        let r = self.sift_up(r);
        self.sift_down(r);
    }

    /// Moves the row at `r` up while its parent comes later; returns its place.
    fn sift_up(&mut self, mut r: usize) -> usize {
        let row = self.rows[r];
        let key = Self::key(&row);
        while r > 0 {
            let parent = (r - 1) / 2;
            if Self::key(&self.rows[parent]) <= key {
                break;
            }
            self.place(r, self.rows[parent]);
            r = parent;
        }
        self.place(r, row);
        r
    }

    /// Moves the row at `r` down while a child comes earlier.
    fn sift_down(&mut self, mut r: usize) {
        let row = self.rows[r];
        let key = Self::key(&row);
        let n = self.rows.len();
        loop {
            let mut child = 2 * r + 1;
            if child >= n {
                break;
            }
            if child + 1 < n && Self::key(&self.rows[child + 1]) < Self::key(&self.rows[child]) {
                child += 1;
            }
            if Self::key(&self.rows[child]) >= key {
                break;
            }
            self.place(r, self.rows[child]);
            r = child;
        }
        self.place(r, row);
    }

    /// Adds `row` (its share does not wait yet).
    fn insert(&mut self, row: Row) {
        self.rows.push(row);
        self.settle(self.rows.len() - 1);
    }

    /// Replaces the row at `r` with `row`, of the same share.
    #[inline]
    fn update(&mut self, r: usize, row: Row) {
        self.rows[r] = row;
        self.settle(r);
    }

    /// Removes the row at `r`.
    fn remove(&mut self, r: usize) {
        let last = self.rows.pop().expect("a row to remove");
        if r < self.rows.len() {
            self.rows[r] = last;
            self.settle(r);
        }
    }

    /// Orders the whole heap again, after every row was recomputed.
    fn heapify(&mut self) {
        for r in 0..self.rows.len() {
            self.row[self.rows[r].slot] = r as u32;
        }
        // Bottom up, each row down into its ordered subtrees.
        for r in (0..self.rows.len() / 2).rev() {
            self.sift_down(r);
        }
    }

    /// The earliest deadline among the rows with the global pass at `global`, and the
    /// lowest slot among those level with it, as `f64::total_cmp` orders the
    /// deadlines; `None` when no share waits or no deadline compares (not a
    /// number). Rows whose share `skip` names are not candidates (their place in
    /// the heap still bounds the rows below them); `init`, a deadline and a
    /// share from elsewhere, is one.
    ///
    /// A depth-first walk of the heap: a row whose `pass + step` is later than
    /// the best deadline so far has no row at or below it with an earlier or
    /// level deadline, since a deadline is never earlier than its own row's
    /// `pass + step` and those below are not earlier than that.
    #[inline]
    fn first(
        &self,
        global: f64,
        skip: impl Fn(usize) -> bool,
        init: Option<(f64, usize)>,
    ) -> Option<(f64, usize)> {
        let rows = &self.rows[..];
        let (mut best, mut first) = match init {
            Some((d, s)) => (d, u128::from(order_key(d)) << 64 | s as u128),
            None => (f64::INFINITY, u128::MAX),
        };
        if rows.is_empty() {
            return init;
        }
        // One entry per level at most (a walk keeps a row's second child while
        // it follows the first), and a heap of 2^32 rows has 33 levels.
        let mut stack = [0u32; 64];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let mut r = stack[top] as usize;
            loop {
                let row = &rows[r];
                if row.raw > best {
                    break;
                }
                // The deadline is the larger of the two: it is level with or
                // earlier than the best only if both are.
                let later = (global - row.lead) + row.step > best;
                if !later && !skip(row.slot) {
                    let key = u128::from(order_key(row.deadline(global))) << 64 | row.slot as u128;
                    if key < first {
                        (best, first) = (row.deadline(global), key);
                    }
                }
                let child = 2 * r + 1;
                if child >= rows.len() {
                    break;
                }
                if child + 1 < rows.len() {
                    stack[top] = (child + 1) as u32;
                    top += 1;
                }
                r = child;
            }
        }
        (first != u128::MAX).then_some((best, first as u64 as usize))
    }
}

impl Stride {
    /// A stride policy that remembers credit and debt for at most `memory` quanta.
    pub(crate) fn new(memory: f64) -> Self {
        Stride {
            memory,
            most_ahead: f64::NEG_INFINITY,
            floor: f64::NEG_INFINITY,
            ..Stride::default()
        }
    }

    /// A stride policy, which keeps a table of its waiting shares for its
    /// choices (the ledger alone, as the lotteries use it, does not).
    pub(crate) fn policy(memory: f64) -> Self {
        let mut s = Stride::new(memory);
        s.table.on = true;
        s
    }

    pub(crate) fn resize(&mut self, slots: usize) {
        self.slots.resize(slots, Ledger::RESET);
        self.remain.resize(slots, 0.0);
        self.charged.resize(slots, false);
        if self.table.on {
            self.table.next.resize(slots, 0);
            self.table.row.resize(slots, 0);
        }
    }

    pub(crate) fn reset(&mut self, slot: usize) {
        if self.slots[slot].ticket_ent > 0.0 {
            self.competing -= 1;
        }
        self.set_waiting(slot, 0);
        self.extremes_stale = true;
        self.slots[slot] = Ledger::RESET;
        self.remain[slot] = 0.0;
    }

    /// The pass of `slot`: its virtual time.
    pub(crate) fn pass(&self, slot: usize) -> f64 {
        self.pass_of(&self.slots[slot])
    }

    /// Where `slot` stands when cores are handed out: its pass, but never more
    /// than its lead behind the global pass ([`LEAD_QUANTA`] quanta and one
    /// stride: a share worth a small part of a core waits a stride between two
    /// turns, which is its due). The credit past the lead is kept, since the
    /// share is charged from its pass, and paid back at a bounded rate: the
    /// share takes cores as if its lead behind until its pass catches up.
    /// Counted whole, credit (up to the memory, a quarter of a second) let a
    /// share hold the cores it wanted until its pass caught up, while a query
    /// whose burst had just started waited for its first core (see
    /// `docs/scaling.md`). With one stride in the lead, every share at its lead
    /// stands level for its first core, whatever its entitlement: its deadline
    /// is the global pass less the lead's quanta.
    #[inline]
    fn standing(&self, slot: usize) -> f64 {
        let l = &self.slots[slot];
        if l.ticket_ent > 0.0 {
            l.pass.max(self.global - l.lead)
        } else {
            l.pass
        }
    }

    /// [`Stride::standing`], for the tests' reference choices.
    #[cfg(test)]
    pub(crate) fn standing_for_tests(&self, slot: usize) -> f64 {
        self.standing(slot)
    }

    /// The pass of a share's ledger entry, raised to the pending bound.
    #[inline]
    fn pass_of(&self, l: &Ledger) -> f64 {
        if l.ticket_ent > 0.0 {
            l.pass.max(self.floor - l.reach)
        } else {
            l.pass
        }
    }

    /// Applies the pending bound to every pass (before the entitlements change,
    /// which moves the reaches, or the global pass moves down).
    fn apply_floor(&mut self) {
        if self.floor == f64::NEG_INFINITY {
            return;
        }
        for s in 0..self.slots.len() {
            self.slots[s].pass = self.pass(s);
        }
        self.floor = f64::NEG_INFINITY;
    }

    /// Raises every pass to the last bound now (the bound stays, as it never
    /// moves down) and forgets the extremes kept for
    /// [`Stride::bound`], as if every bound had been a pass over every share
    /// (tests compare the decisions either way).
    #[cfg(test)]
    pub(crate) fn forget_extremes(&mut self) {
        // The bound stays where it is (it never moves down).
        for s in 0..self.slots.len() {
            self.slots[s].pass = self.pass(s);
        }
        for r in 0..self.table.rows.len() {
            self.table.rows[r] = self.row(self.table.rows[r].slot);
        }
        self.table.heapify();
        self.extremes_stale = true;
    }

    /// Number of slots.
    #[cfg(test)]
    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }

    /// The global pass: that of an ideal share that always got exactly its due.
    pub(crate) fn global(&self) -> f64 {
        self.global
    }

    /// The entitlements went from `old` to `new` cores (indexed by slot).
    ///
    /// A share that stays active keeps its distance to the global pass, rescaled
    /// to its new stride (its credit or debt in core time is unchanged). A share
    /// that leaves keeps at most one stride of debt and no credit; what it drops
    /// is balanced among those that stay, by moving the global pass (its credit
    /// was their debt: they used the cores it could not), so that nobody keeps a
    /// claim against a share that is gone. A share that becomes active starts at
    /// the global pass, with the debt it kept.
    pub(crate) fn retune_all(&mut self, old: &[f64], new: &[f64]) {
        self.extremes_stale = true;
        self.apply_floor();
        let g = self.global;
        let mut dropped = 0.0;
        let mut staying = 0.0;
        for slot in 0..old.len() {
            let (o, n) = (old[slot], new[slot]);
            dropped += self.set_entitlement(slot, o, n, g);
            if o > 0.0 && n > 0.0 {
                staying += n;
            }
        }
        if staying > 0.0 {
            self.global -= dropped / staying;
        }
        self.competing = new.iter().filter(|&&n| n > 0.0).count() as u32;
        for slot in 0..old.len() {
            if old[slot] == 0.0 && new[slot] > 0.0 {
                self.slots[slot].pass = self.global + self.remain[slot].clamp(0.0, 1.0 / new[slot]);
            }
        }
        // Every row: the floor was applied to every pass, and any entitlement
        // may have moved.
        for r in 0..self.table.rows.len() {
            let slot = self.table.rows[r].slot;
            self.table.rows[r] = self.row(slot);
        }
        self.table.heapify();
    }

    /// Sets `slot`'s entitlement from `o` to `n` (the global pass at `g`): a
    /// share that stops competing keeps at most one stride of its distance
    /// ahead, and the rest, weighted by its old entitlement, is returned for
    /// the others to absorb; one that goes on has its distance rescaled.
    fn set_entitlement(&mut self, slot: usize, o: f64, n: f64, g: f64) -> f64 {
        let l = &mut self.slots[slot];
        l.ticket_ent = n;
        l.reach = self.memory + 2.0 / n;
        l.lead = (LEAD_QUANTA + 1.0 / n).min(l.reach);
        if o > 0.0 && n == 0.0 {
            let distance = l.pass - g;
            let kept = distance.clamp(0.0, 1.0 / o);
            self.remain[slot] = kept;
            (distance - kept) * o
        } else {
            if o > 0.0 && n > 0.0 {
                l.pass = g + (l.pass - g) * o / n;
            }
            0.0
        }
    }

    /// The entitlements of the shares in `changes` went from `old` to `new`
    /// (`(slot, old, new)`; the others' stayed as they were), adding up to
    /// `total` now: [`Stride::retune_all`]'s rules for these shares only. The
    /// pending bound is applied to their passes (their reaches move) and stays
    /// pending for the others; it never moves down (a departure that moves the
    /// global pass down leaves the bound where it was, which the others' passes
    /// had reached anyway).
    pub(crate) fn retune(&mut self, changes: &[(usize, f64, f64)], total: f64) {
        let g = self.global;
        let mut dropped = 0.0;
        let mut joining = 0.0;
        let mut joiners = 0;
        for &(slot, o, n) in changes {
            let floor = self.floor;
            let l = &mut self.slots[slot];
            if o > 0.0 {
                l.pass = l.pass.max(floor - l.reach);
                // The most ahead may have dropped back: measure again.
                if l.pass - l.reach >= self.most_ahead {
                    self.extremes_stale = true;
                }
            }
            dropped += self.set_entitlement(slot, o, n, g);
            if o > 0.0 {
                if n == 0.0 {
                    self.competing -= 1;
                }
            } else if n > 0.0 {
                joining += n;
                joiners += 1;
                self.competing += 1;
            }
        }
        let staying = total - joining;
        if staying > 0.0 && self.competing > joiners {
            self.global -= dropped / staying;
        }
        for &(slot, o, n) in changes {
            if o == 0.0 && n > 0.0 {
                self.slots[slot].pass = self.global + self.remain[slot].clamp(0.0, 1.0 / n);
            }
            if n > 0.0 && !self.extremes_stale {
                let ahead = self.pass(slot) - self.reach(slot);
                self.most_ahead = self.most_ahead.max(ahead);
            }
            self.moved(slot);
        }
    }

    /// Slot `slot` waits for its `next`-th core (`holders + 1`), or does not wait
    /// (0): its row in the table.
    pub(crate) fn set_waiting(&mut self, slot: usize, next: u32) {
        let ix = &mut self.table;
        if !ix.on || ix.next[slot] == next {
            return;
        }
        let was = ix.next[slot];
        ix.next[slot] = next;
        if next == 0 {
            let r = ix.row[slot] as usize;
            ix.remove(r);
            return;
        }
        let row = self.row(slot);
        let ix = &mut self.table;
        if was == 0 {
            ix.insert(row);
        } else {
            ix.update(ix.row[slot] as usize, row);
        }
    }

    /// The row of waiting `slot`, from its ledger entry as it is now.
    fn row(&self, slot: usize) -> Row {
        let l = &self.slots[slot];
        let step = f64::from(self.table.next[slot]) / l.ticket_ent.max(f64::MIN_POSITIVE);
        Row {
            raw: l.pass + step,
            lead: if l.ticket_ent > 0.0 {
                l.lead
            } else {
                f64::INFINITY
            },
            step,
            slot,
        }
    }

    /// `slot`'s pass changed: its row follows, if it waits.
    #[inline]
    fn moved(&mut self, slot: usize) {
        if self.table.waits(slot) {
            let r = self.table.row[slot] as usize;
            let row = self.row(slot);
            self.table.update(r, row);
        }
    }

    /// `slot` (entitled to `ticket_ent` of `total` cores) held cores for `quanta` quanta.
    pub(crate) fn charge(&mut self, slot: usize, quanta: f64, ticket_ent: f64, total: f64) {
        self.advance(slot, quanta, ticket_ent, total);
        self.bound(ticket_ent);
    }

    /// [`Stride::charge`] without the bounds (the caller charging several holders
    /// at once applies them after the last, once).
    pub(crate) fn advance(&mut self, slot: usize, quanta: f64, ticket_ent: f64, total: f64) {
        if ticket_ent > 0.0 {
            self.slots[slot].pass = self.pass(slot) + quanta / ticket_ent;
            self.follow_pass(slot);
        }
        if total > 0.0 {
            self.global += quanta / total;
        }
    }

    /// After `slot`'s pass grew: its row, and the largest distance ahead (which
    /// stays exact, since the pass only grew).
    fn follow_pass(&mut self, slot: usize) {
        self.moved(slot);
        let l = self.slots[slot];
        if l.ticket_ent > 0.0 {
            self.most_ahead = self.most_ahead.max(l.pass - l.reach);
        }
    }

    /// [`Stride::advance`] for one of many holders charged at once: the pass and
    /// the global pass move as they would, but the share's row and the most
    /// indebted share follow only at [`Stride::accrued`], once per share
    /// charged. Its pass only grows in between, so the largest distance ahead
    /// is that of its last pass, and its row depends on that pass alone: both
    /// come out as charging the holders one by one leaves them, bit for bit.
    #[inline]
    pub(crate) fn accrue(&mut self, slot: usize, quanta: f64, ticket_ent: f64, total: f64) {
        if ticket_ent > 0.0 {
            let pass = self.pass(slot) + quanta / ticket_ent;
            self.slots[slot].pass = pass;
            if !self.charged[slot] {
                self.charged[slot] = true;
                self.accruing.push(slot);
            }
        }
        if total > 0.0 {
            self.global += quanta / total;
        }
    }

    /// The rows and the most indebted share follow the passes charged by
    /// [`Stride::accrue`] since the last call.
    pub(crate) fn accrued(&mut self) {
        let mut accruing = std::mem::take(&mut self.accruing);
        for &slot in &accruing {
            self.charged[slot] = false;
            self.follow_pass(slot);
        }
        accruing.clear();
        self.accruing = accruing;
    }

    /// Keeps every active share within its reach of the global pass: past that,
    /// the global pass moves up to the most indebted share (forgiving all debts
    /// alike, so the debtors keep their proportions among themselves), and credit
    /// is lost. A no-op unless the share just charged is entitled to some (`ticket_ent`).
    pub(crate) fn bound(&mut self, ticket_ent: f64) {
        if ticket_ent <= 0.0 {
            return;
        }
        if self.extremes_stale {
            self.measure_extremes();
        }
        self.global = self.global.max(self.most_ahead);
        // Never down: a retune that moved the global pass down left the bound
        // pending for the passes it did not touch.
        self.floor = self.floor.max(self.global);
    }

    /// Computes the largest distance ahead that [`Stride::bound`] keeps: a pass
    /// over every share.
    fn measure_extremes(&mut self) {
        let active = (0..self.slots.len()).filter(|&s| self.slots[s].ticket_ent > 0.0);
        let ahead = active.map(|s| self.pass(s) - self.reach(s));
        self.most_ahead = ahead.fold(f64::NEG_INFINITY, f64::max);
        self.extremes_stale = false;
    }

    /// How far from the global pass `slot` may be: the memory, plus two strides (a
    /// share worth a tiny part of a core waits many quanta between two of its own,
    /// which is its due, not a debt to forgive).
    fn reach(&self, slot: usize) -> f64 {
        self.slots[slot].reach
    }

    /// The virtual deadline of the `held`-th core of `slot` (from 1): when its
    /// pass would reach if it held `held` cores for one more quantum. A share is a
    /// client per core it wants, and the cores go to the earliest deadlines (as
    /// EEVDF orders by virtual deadline): a heavy share's next core is due sooner
    /// than a light one's at the same pass, so a share that becomes active gets
    /// its part at once, and two equal shares alternate.
    fn deadline(&self, slot: usize, held: u32, ticket_ent: f64) -> f64 {
        self.standing(slot) + f64::from(held) / ticket_ent.max(f64::MIN_POSITIVE)
    }

    /// The waiting share whose next core has the earliest deadline.
    ///
    /// A walk of the waiter table's heap ([`WaiterTable::first`]): with
    /// hundreds waiting, a look at every row was the largest part of a decision.
    pub(crate) fn pick(&self, view: &View<'_>) -> Option<usize> {
        if !self.table.on {
            return self.scan_pick(view);
        }
        if let Some((_, s)) = self.table.first(self.global, |_| false, None) {
            return Some(s);
        }
        // No deadline compares (not a number): order them all exactly.
        let global = self.global;
        let first = (self.table.rows.iter())
            .map(|r| u128::from(order_key(r.deadline(global))) << 64 | r.slot as u128)
            .min()?;
        Some(first as u64 as usize)
    }

    /// [`Stride::pick`] by a look at every waiting share.
    fn scan_pick(&self, view: &View<'_>) -> Option<usize> {
        let (holders, ticket_ent) = (view.holders, view.ticket_ent);
        let mut first: Option<(u64, usize)> = None;
        for &s in view.waiters {
            let key = order_key(self.deadline(s, holders[s] + 1, ticket_ent[s]));
            // The lowest slot among the earliest (the waiters come in no order).
            if first.is_none_or(|(k, f)| key < k || (key == k && s < f)) {
                first = Some((key, s));
            }
        }
        first.map(|(_, s)| s)
    }

    /// Whether `slot` would get the next free core, were it waiting: its next
    /// core's deadline is no later than every waiting share's.
    pub(crate) fn due(&self, view: &View<'_>, slot: usize) -> bool {
        let mine = self.deadline(slot, view.holders[slot] + 1, view.ticket_ent[slot]);
        if self.table.on {
            // Level with or earlier than every deadline if with the earliest
            // (adding the tie keeps the order).
            return match self.table.first(self.global, |_| false, None) {
                Some((earliest, _)) => mine <= earliest + TIE,
                None => self.table.rows.is_empty(),
            };
        }
        let next = |s: usize| self.deadline(s, view.holders[s] + 1, view.ticket_ent[s]);
        view.waiters.iter().all(|&s| mine <= next(s) + TIE)
    }

    /// Panics unless the waiter table holds a row for every waiting share, equal
    /// bit for bit to one computed from its ledger entry now, and finds the share
    /// and deadlines a look at every waiting share finds.
    #[cfg(test)]
    pub(crate) fn check_table(&self, view: &View<'_>) {
        let competing = self.slots.iter().filter(|l| l.ticket_ent > 0.0).count();
        assert_eq!(
            self.competing as usize, competing,
            "shares entitled to cores"
        );
        let ix = &self.table;
        if !ix.on {
            return;
        }
        let bits = |r: &Row| {
            [
                r.raw.to_bits(),
                r.lead.to_bits(),
                r.step.to_bits(),
                r.slot as u64,
            ]
        };
        for s in 0..self.slots.len() {
            let k = if view.waiting[s] > 0 {
                view.holders[s] + 1
            } else {
                0
            };
            assert_eq!(ix.next[s], k, "waiter table: rank of slot {s}");
            if k == 0 {
                continue;
            }
            let l = &self.slots[s];
            let ticket_ent = view.ticket_ent[s];
            assert_eq!(
                l.ticket_ent.to_bits(),
                ticket_ent.to_bits(),
                "ledger entitlement of slot {s}"
            );
            let row = ix.rows[ix.row[s] as usize];
            assert_eq!(
                bits(&row),
                bits(&self.row(s)),
                "waiter table: row of slot {s}"
            );
            let deadline = self.deadline(s, k, ticket_ent);
            assert_eq!(
                row.deadline(self.global).to_bits(),
                deadline.to_bits(),
                "deadline of slot {s}"
            );
        }
        let waiting = view.waiting.iter().filter(|&&w| w > 0).count();
        assert_eq!(ix.rows.len(), waiting, "waiter table: stray rows");
        for r in 1..ix.rows.len() {
            let (parent, row) = (&ix.rows[(r - 1) / 2], &ix.rows[r]);
            assert!(
                WaiterTable::key(parent) <= WaiterTable::key(row),
                "waiter table: row {r} comes before its parent"
            );
        }
        assert_eq!(self.pick(view), self.scan_pick(view), "waiter table: pick");
    }

    /// Cores to take back now (at the end of a quantum, or for a waiter): one
    /// entry per core, naming the share that gives it. A core moves from the
    /// holder whose last core has the latest deadline to the waiter whose next
    /// core has the earliest, as long as the waiter's is earlier or level. Cores
    /// already on their way count as moved, to the waiters due first.
    pub(crate) fn preempt(&mut self, view: &View<'_>) -> Vec<usize> {
        self.preempt_as(view, self.table.on, u32::MAX)
    }

    /// [`Stride::preempt`] for a waiter of `slot` that has just asked (wake-up
    /// preemption): at most as many cores move as `slot` has workers waiting,
    /// to the waiters due first. The others that are due get theirs at the end
    /// of the quantum: a move for every due waiter at each contention turned
    /// every core over at each share's arrival (with 10,000 shares on 256
    /// cores, each core about every 250 µs rather than every quantum).
    pub(crate) fn contend(&mut self, view: &View<'_>, slot: usize) -> Vec<usize> {
        self.preempt_as(view, self.table.on, view.waiting[slot])
    }

    /// [`Stride::preempt`] with the waiters kept in a heap of them all, built
    /// from the view, as without the waiter table (what the walk of the
    /// table must equal).
    #[cfg(test)]
    pub(crate) fn preempt_by_heaps(&mut self, view: &View<'_>) -> Vec<usize> {
        self.preempt_as(view, false, u32::MAX)
    }

    /// [`Stride::preempt`], finding the waiters by the waiter table (`table`)
    /// or by a heap of them all.
    fn preempt_as(&mut self, view: &View<'_>, table: bool, most: u32) -> Vec<usize> {
        if table && view.in_flight == 0 && !self.may_preempt(view) {
            return Vec::new();
        }
        let n = view.ticket_ent.len();
        let mut counts = Counts {
            view,
            held: std::mem::take(&mut self.held),
            givable: std::mem::take(&mut self.givable),
            waiting: std::mem::take(&mut self.waiting),
            copied: std::mem::take(&mut self.copied),
            touched: std::mem::take(&mut self.touched),
        };
        for v in [&mut counts.held, &mut counts.givable, &mut counts.waiting] {
            v.resize(n, 0);
        }
        counts.copied.resize(n, false);
        let victims = self.preempt_with(view, &mut counts, table, most);
        for &s in &counts.touched {
            counts.copied[s] = false;
        }
        counts.touched.clear();
        (self.held, self.givable, self.waiting) = (counts.held, counts.givable, counts.waiting);
        (self.copied, self.touched) = (counts.copied, counts.touched);
        victims
    }

    /// Whether the first step of [`Stride::preempt`] (no cores on their way)
    /// moves a core: the waiter due first is not the holder due last, and its
    /// next core's deadline is no later than that holder's last one's. Most
    /// calls move none, and this costs a look at each waiting and holding share
    /// without building the heaps.
    fn may_preempt(&self, view: &View<'_>) -> bool {
        let Some(w) = self.pick(view) else {
            return false;
        };
        let last = |s: usize| self.deadline(s, view.holders[s], view.ticket_ent[s]);
        // The holder due last, the highest slot among the latest.
        let mut h: Option<(u64, usize)> = None;
        for &s in view.holding {
            let key = (order_key(last(s)), s);
            if h.is_none_or(|best| key > best) {
                h = Some(key);
            }
        }
        let Some((_, h)) = h else {
            return false;
        };
        let next = self.deadline(w, view.holders[w] + 1, view.ticket_ent[w]);
        w != h && next <= last(h) + TIE
    }

    /// [`Stride::preempt`] on the counts of the view, as the moves change them.
    fn preempt_with(
        &self,
        view: &View<'_>,
        c: &mut Counts<'_, '_>,
        table: bool,
        most: u32,
    ) -> Vec<usize> {
        let next =
            |c: &Counts<'_, '_>, s: usize| self.deadline(s, c.held(s) + 1, view.ticket_ent[s]);
        let last = |c: &Counts<'_, '_>, s: usize| self.deadline(s, c.held(s), view.ticket_ent[s]);
        // The waiter due first and the holder due last, each kept in a heap (a
        // scan of every share per core moved made a tick cost cores x shares). An
        // entry is stale once its share's deadline or eligibility changed (a
        // fresh one is pushed then) and is dropped when it comes up. Ties go as a
        // scan in slot order would: the lowest slot among waiters, the highest
        // among holders.
        //
        // With the waiter table, the waiters enter their heap only as they may
        // come up: the table's rows are walked in the order of their heap
        // (`pass + step`, never later than the deadline), and a row enters once
        // its `pass + step` is no later than the deadline of the waiter first in
        // line, so a preemption that moves a few cores looks at a few rows
        // rather than all. The rows not yet entered are those below the
        // frontier's.
        let global = self.global;
        let mut frontier: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
        let mut waiters: BinaryHeap<Reverse<(u64, usize)>> = if table {
            if let Some(root) = self.table.rows.first() {
                frontier.push(Reverse((WaiterTable::key(root), 0)));
            }
            BinaryHeap::new()
        } else {
            (view.waiters.iter())
                .map(|&s| Reverse((order_key(next(c, s)), s)))
                .collect()
        };
        let rows = &self.table.rows[..];
        let mut first_waiter = |waiters: &mut BinaryHeap<Reverse<(u64, usize)>>,
                                c: &Counts<'_, '_>| {
            loop {
                // The first valid entry, if any.
                let mut first = None;
                while let Some(&Reverse((key, s))) = waiters.peek() {
                    if c.waiting(s) > 0 && key == order_key(next(c, s)) {
                        first = Some((key, s));
                        break;
                    }
                    waiters.pop();
                }
                // A row not yet entered may come first (or level, with a lower
                // slot) only if its `pass + step` is no later than that entry's
                // deadline.
                match frontier.peek() {
                    Some(&Reverse((raw, r))) if first.is_none_or(|(key, _)| raw <= key) => {
                        frontier.pop();
                        let r = r as usize;
                        let row = &rows[r];
                        waiters.push(Reverse((order_key(row.deadline(global)), row.slot)));
                        for child in [2 * r + 1, 2 * r + 2] {
                            if let Some(below) = rows.get(child) {
                                frontier.push(Reverse((WaiterTable::key(below), child as u32)));
                            }
                        }
                    }
                    _ => return first.map(|(_, s)| s),
                }
            }
        };
        for _ in 0..view.in_flight {
            let Some(w) = first_waiter(&mut waiters, c) else {
                return Vec::new();
            };
            c.copy(w);
            c.waiting[w] -= 1;
            c.held[w] += 1;
            waiters.push(Reverse((order_key(next(c, w)), w)));
        }
        // The holder due last: for a move or two (a worker that contends), a
        // look at each holding share (at most one per core); for more, a heap
        // of them (a scan per core moved made a tick cost cores x shares).
        // Either way the highest slot among the latest.
        let scan = most <= 2;
        let mut holders: BinaryHeap<(u64, usize)> = if scan {
            BinaryHeap::new()
        } else {
            (view.holding.iter())
                .map(|&s| (order_key(last(c, s)), s))
                .collect()
        };
        let last_holder = |holders: &mut BinaryHeap<(u64, usize)>, c: &Counts<'_, '_>| {
            if scan {
                let givable = view.holding.iter().filter(|&&s| c.givable(s) > 0);
                return givable
                    .map(|&s| (order_key(last(c, s)), s))
                    .max()
                    .map(|(_, s)| s);
            }
            while let Some(&(key, s)) = holders.peek() {
                if c.givable(s) > 0 && key == order_key(last(c, s)) {
                    return Some(s);
                }
                holders.pop();
            }
            None
        };
        let mut victims = Vec::new();
        while victims.len() < most as usize {
            let Some(h) = last_holder(&mut holders, c) else {
                break;
            };
            let Some(w) = first_waiter(&mut waiters, c) else {
                break;
            };
            if w == h || next(c, w) > last(c, h) + TIE {
                break;
            }
            victims.push(h);
            c.copy(w);
            c.copy(h);
            c.waiting[w] -= 1;
            c.held[w] += 1;
            c.held[h] -= 1;
            c.givable[h] -= 1;
            for s in [w, h] {
                if c.waiting(s) > 0 {
                    waiters.push(Reverse((order_key(next(c, s)), s)));
                }
                if !scan && c.givable(s) > 0 {
                    holders.push((order_key(last(c, s)), s));
                }
            }
        }
        victims
    }
}

/// The counts [`Stride::preempt`] moves cores by: each share's cores held, those
/// it may still give and its waiting workers. They are read from the view until
/// a move first changes a share's, and copied then: a preemption moves a few
/// cores, and copying the counts of every waiting and holding share up front
/// cost more than the moves.
struct Counts<'a, 'v> {
    view: &'a View<'v>,
    held: Vec<u32>,
    givable: Vec<u32>,
    waiting: Vec<u32>,
    copied: Vec<bool>,
    touched: Vec<usize>,
}

impl Counts<'_, '_> {
    #[inline]
    fn held(&self, s: usize) -> u32 {
        if self.copied[s] {
            self.held[s]
        } else {
            self.view.holders[s]
        }
    }

    #[inline]
    fn givable(&self, s: usize) -> u32 {
        if self.copied[s] {
            self.givable[s]
        } else {
            self.view.holders[s]
        }
    }

    #[inline]
    fn waiting(&self, s: usize) -> u32 {
        if self.copied[s] {
            self.waiting[s]
        } else {
            self.view.waiting[s]
        }
    }

    /// Copies slot `s`'s counts from the view, before a move changes them.
    #[inline]
    fn copy(&mut self, s: usize) {
        if !self.copied[s] {
            self.copied[s] = true;
            self.held[s] = self.view.holders[s];
            self.givable[s] = self.view.holders[s];
            self.waiting[s] = self.view.waiting[s];
            self.touched.push(s);
        }
    }
}

/// A key that orders as `f64::total_cmp` orders the numbers.
fn order_key(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// Passes closer than this are level (rounding).
const TIE: f64 = 1e-9;
