//! Lottery scheduling over the ticket entitlements, with a bounded memory of
//! credit and debt: plain (one draw per core) or multi-winner (one draw picks
//! every winner of a superquantum; Waldspurger, section 3.2).
//!
//! At the end of each quantum the cores are drawn anew over the *draw
//! entitlements* (which add up to the number of cores in use):
//! * **plain lottery** ([`Draws::Independent`]): each core is a separate lottery
//!   among the shares that still want a core, won with probability proportional
//!   to the share's weight (its ticket entitlement and lag, below), so a share's
//!   cores in a quantum are random around its entitlement;
//! * **multi-winner lottery** ([`Draws::MultiWinner`]): the entitlements are laid
//!   end to end and one random number `u` in `[0, 1)` picks the winners of a
//!   superquantum of `K` quanta, evenly spaced `1 / K` of a core apart; quantum `j`
//!   takes the winners at `(u + perm(j)) / K + i` (`perm` spreads consecutive
//!   quanta across the ticket space). Each share then gets `floor(e)` or
//!   `ceil(e)` cores each quantum and, over a superquantum, within one core-quantum
//!   of `K e`, with expectation exactly `K e`; only the remainders are random. Any
//!   change of demands or tickets ends the superquantum early (the paper's rule).
//!
//! A core that frees between draws goes to a waiting share still below its drawn
//! target, or else to a waiting share drawn at random by weight. A share whose
//! demand rises above what the last draw was made for (it starts running, or
//! wakes more workers) gets at once the whole cores its weight is worth, taken
//! from the targets of the shares drawn furthest above theirs (wake-up
//! preemption); the next draw decides the rest.
//!
//! **Cost.** Only the draw at the end of a quantum looks at every share (it
//! water-fills the weights and draws each core): a decision between two draws
//! (a free core, a share that arrives or contends) costs `O(log n)` for `n`
//! shares plus a look at the holding shares (at most one per core). The waiting
//! shares' weights are kept in two trees of partial sums ([`WeightTree`], the
//! thesis' tree-based lottery): all the waiting shares, and those below their
//! drawn target. A share that starts waiting after the last draw enters the
//! trees at its weight then (ticket entitlement and lag), computed at the next
//! decision.
//!
//! The draw entitlements are not the demand-capped entitlements: those forgive the
//! cores a share used while another could not use its part (a fork-join tail, one
//! worker still busy and the others idle), and a 3:1 split with such tails every
//! second ran about 71:29. Instead a *ledger* (the stride policy's passes, charged
//! against the ticket entitlements, with the same bounded memory) keeps each
//! share's lag: the core time its tickets were worth minus the core time it got.
//! A share's draw weight is its ticket entitlement plus its lag spread over
//! [`HORIZON`] quanta (so a creditor draws more and a debtor less until the lag is
//! paid back), water-filled within the demands over the cores in use. The draws
//! stay random, but the lag feeds back into them, so the long-run fractions
//! converge to the ticket fractions and the error no longer grows with the run.
//! The ledger is charged the CPU time each holder used (see `thread_clock`), so a
//! share that used only part of its quantum (its worker blocked) gains the lag
//! that the paper's compensation tickets give it (section 3.1.3): it draws more
//! until it has had its fraction.

use std::collections::VecDeque;

use super::allocator::View;
use super::entitlement::water_fill_into;
use super::rng::XorShift;
use super::stride::Stride;
use super::weight_tree::WeightTree;

/// The number of quanta over which a share's lag is paid back in the draws.
const HORIZON: f64 = 4.0;

/// Quanta in a multi-winner superquantum, and the order in which a superquantum's
/// quanta take their winners (bit-reversed: consecutive quanta are far apart in
/// the ticket space).
const SUPERQUANTUM: [u32; 4] = [0, 2, 1, 3];

/// How the winners of a quantum are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Draws {
    /// One lottery per core.
    Independent,
    /// One lottery per superquantum, evenly spaced winners.
    MultiWinner,
}

/// The superquantum in progress (multi-winner draws).
#[derive(Debug, Default)]
struct Superquantum {
    /// The random offset drawn at its start.
    u: f64,
    /// Quanta of it already drawn.
    next: usize,
    /// The draw entitlements its winners are laid over (fixed for the whole
    /// superquantum, as in the paper).
    draw_ent: Vec<f64>,
    /// The ticket entitlements and demands it was drawn for: a change to either
    /// ends it.
    ticket_ent: Vec<f64>,
    demand: Vec<u32>,
}

#[derive(Debug)]
pub(crate) struct Lottery {
    draws: Draws,
    superquantum: Option<Superquantum>,
    rng: XorShift,
    /// Cores each share should hold until the next draw.
    target: Vec<u32>,
    /// Each share's demand when its target was last set.
    drawn_demand: Vec<u32>,
    /// Credit and debt: passes charged against the ticket entitlements.
    ledger: Stride,
    /// The draw entitlements, computed at the last draw.
    draw_ent: Vec<f64>,
    /// The water level of the last draw: a share not capped by its demand had a
    /// draw entitlement of its weight times this.
    level: f64,
    /// Each share's weight: its ticket entitlement plus its lag spread over the
    /// horizon (at the last draw, or when it started waiting since).
    weight: Vec<f64>,
    /// Each share's waiting workers and unflagged holders, as the allocator
    /// last told ([`Lottery::set_counts`]).
    waiting: Vec<u32>,
    holders: Vec<u32>,
    /// The weights of the waiting shares, and of those among them holding fewer
    /// cores than their target.
    open: WeightTree,
    behind: WeightTree,
    /// Shares that started waiting since the last draw with no weight yet: they
    /// get one from the view at the next decision.
    unweighted: Vec<usize>,
    /// One entry per core a contending share had taken for it from a holder,
    /// in order: the next free cores go to them first (see
    /// [`Lottery::contend`]).
    owed: VecDeque<usize>,
    /// Scratch for the draws.
    parts: Vec<(f64, f64)>,
    order: Vec<usize>,
    draw_tree: WeightTree,
}

impl Lottery {
    /// A lottery drawing as `draws`, seeded with `seed`, that remembers credit
    /// and debt for at most `memory` quanta.
    pub(crate) fn new(draws: Draws, seed: u64, memory: f64) -> Self {
        Lottery {
            draws,
            superquantum: None,
            rng: XorShift::new(seed),
            target: Vec::new(),
            drawn_demand: Vec::new(),
            ledger: Stride::new(memory),
            draw_ent: Vec::new(),
            level: 1.0,
            weight: Vec::new(),
            waiting: Vec::new(),
            holders: Vec::new(),
            open: WeightTree::default(),
            behind: WeightTree::default(),
            unweighted: Vec::new(),
            owed: VecDeque::new(),
            parts: Vec::new(),
            order: Vec::new(),
            draw_tree: WeightTree::default(),
        }
    }

    pub(crate) fn resize(&mut self, slots: usize) {
        self.target.resize(slots, 0);
        self.drawn_demand.resize(slots, 0);
        self.draw_ent.resize(slots, 0.0);
        self.weight.resize(slots, 0.0);
        self.waiting.resize(slots, 0);
        self.holders.resize(slots, 0);
        self.open.resize(slots);
        self.behind.resize(slots);
        self.ledger.resize(slots);
    }

    pub(crate) fn reset(&mut self, slot: usize) {
        self.target[slot] = 0;
        self.drawn_demand[slot] = 0;
        self.owed.retain(|&s| s != slot);
        self.draw_ent[slot] = 0.0;
        self.weight[slot] = 0.0;
        self.refresh(slot);
        self.ledger.reset(slot);
    }

    /// The credit and debt ledger (charged and retuned by the allocator).
    pub(crate) fn ledger_mut(&mut self) -> &mut Stride {
        &mut self.ledger
    }

    #[cfg(test)]
    pub(crate) fn ledger(&self) -> &Stride {
        &self.ledger
    }

    /// `slot` has `waiting` workers waiting and `holders` unflagged holders now.
    pub(crate) fn set_counts(&mut self, slot: usize, waiting: u32, holders: u32) {
        let was_waiting = self.waiting[slot] > 0;
        self.waiting[slot] = waiting;
        self.holders[slot] = holders;
        if waiting > 0 && !was_waiting && self.weight[slot] <= 0.0 {
            self.unweighted.push(slot);
        }
        self.refresh(slot);
    }

    /// Puts `slot`'s weight in the trees it belongs to now.
    fn refresh(&mut self, slot: usize) {
        let (open, behind) = self.leaves(slot);
        self.open.set(slot, open);
        self.behind.set(slot, behind);
    }

    /// `slot`'s leaves in the two trees: its weight while a worker of it
    /// waits (else 0), and the same while it holds fewer cores than its target.
    fn leaves(&self, slot: usize) -> (f64, f64) {
        if self.waiting[slot] == 0 {
            return (0.0, 0.0);
        }
        let w = self.weight[slot];
        let behind = self.holders[slot] < self.target[slot];
        (w, if behind { w } else { 0.0 })
    }

    /// The weight of `slot` now: its ticket entitlement plus its lag spread over
    /// the horizon (0: wants nothing).
    fn weight_of(&self, view: &View<'_>, slot: usize) -> f64 {
        let e = view.ticket_ent[slot];
        if e <= 0.0 {
            return 0.0;
        }
        // Core-quanta owed to the share (negative: it owes).
        let lag = e * (self.ledger.global() - self.ledger.pass(slot));
        // A tiny floor keeps a heavy debtor in the water-filling, so that it
        // still takes the cores nobody else can use (work conservation).
        (e + lag / HORIZON).max(e * 1e-6)
    }

    /// Weighs the shares that started waiting since the last draw.
    fn weigh_newcomers(&mut self, view: &View<'_>) {
        while let Some(slot) = self.unweighted.pop() {
            if slot < self.weight.len() && self.weight[slot] <= 0.0 {
                self.weight[slot] = self.weight_of(view, slot);
                self.refresh(slot);
            }
        }
    }

    /// Fills `draw_ent`: each share's weight, water-filled within the demands
    /// over the cores in use.
    fn adjust(&mut self, view: &View<'_>) {
        let in_use = view.in_use;
        self.parts.clear();
        for s in 0..view.ticket_ent.len() {
            let demand = f64::from(view.demand[s]);
            let weight = self.weight_of(view, s);
            self.weight[s] = weight;
            if weight <= 0.0 || demand <= 0.0 {
                self.parts.push((0.0, 0.0));
            } else {
                self.parts.push((weight, demand));
            }
        }
        self.unweighted.clear();
        water_fill_into(in_use, &self.parts, &mut self.order, &mut self.draw_ent);
        self.level = (self.parts.iter().zip(&self.draw_ent))
            .filter(|((w, _), _)| *w > 0.0)
            .map(|((w, _), e)| e / w)
            .fold(1.0, f64::max);
    }

    /// Draws the number of cores each share gets for the next quantum.
    fn draw(&mut self, view: &View<'_>) {
        self.target.iter_mut().for_each(|t| *t = 0);
        match self.draws {
            Draws::Independent => self.draw_each_core(view),
            Draws::MultiWinner => {
                let offset = self.next_offset(view);
                let sq = self.superquantum.take().expect("in progress");
                Self::draw_spaced(&sq.draw_ent, offset, &mut self.target);
                self.superquantum = Some(sq);
            }
        }
    }

    /// One lottery per core in use, each among the shares that still want one,
    /// weighted by the shares' own weights (tickets and lag), not by the draw
    /// entitlements: those are capped at the demands, so a share worth 1.8 cores
    /// with one worker waiting would draw as if worth one, and lose the core it
    /// wants to a share worth 0.2 once in four lotteries instead of once in ten.
    /// The open shares' weights are in a tree: a core costs `O(log n)`.
    fn draw_each_core(&mut self, view: &View<'_>) {
        let cores = self.draw_ent.iter().sum::<f64>().round() as u32;
        let tree = &mut self.draw_tree;
        tree.resize(self.target.len());
        for s in 0..self.target.len() {
            let open = self.draw_ent[s] > 0.0 && view.demand[s] > 0;
            tree.set(s, if open { self.parts[s].0 } else { 0.0 });
        }
        tree.rebuild();
        for _ in 0..cores {
            let x = self.rng.next_f64() * tree.total();
            let Some(s) = tree.find(x) else { break };
            self.target[s] += 1;
            if self.target[s] >= view.demand[s] {
                tree.set(s, 0.0);
            }
        }
    }

    /// The offset of this quantum's winners in the superquantum in progress,
    /// starting a new superquantum when the last one is over or out of date.
    fn next_offset(&mut self, view: &View<'_>) -> f64 {
        let stale = match &self.superquantum {
            None => true,
            Some(sq) => {
                sq.next == SUPERQUANTUM.len()
                    || sq.demand != view.demand
                    || sq
                        .ticket_ent
                        .iter()
                        .zip(view.ticket_ent)
                        .any(|(a, b)| (a > &0.0) != (b > &0.0))
            }
        };
        if stale {
            self.superquantum = Some(Superquantum {
                u: self.rng.next_f64(),
                next: 0,
                draw_ent: self.draw_ent.clone(),
                ticket_ent: view.ticket_ent.to_vec(),
                demand: view.demand.to_vec(),
            });
        }
        let sq = self.superquantum.as_mut().expect("just made");
        let j = SUPERQUANTUM[sq.next];
        sq.next += 1;
        (sq.u + f64::from(j)) / SUPERQUANTUM.len() as f64
    }

    /// Systematic sampling: the points `offset, offset + 1, ...` over the draw
    /// entitlements `draw_ent` laid end to end; the share under each point gets a core.
    fn draw_spaced(draw_ent: &[f64], offset: f64, target: &mut [u32]) {
        let mut point = offset;
        let mut end = 0.0;
        for (slot, &e) in draw_ent.iter().enumerate() {
            end += e;
            let mut won = 0;
            // A tiny epsilon keeps rounding from dropping a point at a boundary.
            while point < end - 1e-9 {
                won += 1;
                point += 1.0;
            }
            target[slot] = won;
        }
    }

    /// `slot`'s share has stopped (no worker holds or waits for a core): when it
    /// comes back, it arrives anew (see `contend`).
    pub(crate) fn idle(&mut self, slot: usize) {
        self.drawn_demand[slot] = 0;
    }

    /// Wake-up preemption under a lottery: a share whose demand has just risen
    /// gets at once the cores its weight is worth at the last draw's water level
    /// (as every share does in each quantum of a multi-winner draw), within its
    /// demand, rounded to the nearest (the ledger makes up the difference in the
    /// next draws); the next draw decides again. Otherwise a share worth 1.8 cores, arriving with one
    /// worker while other shares hold every core, would wait a quantum for a
    /// draw. The cores it gets come from the targets of the holding shares
    /// furthest above their own draw entitlement; the ledger charges the time it
    /// then holds like any other, so the fractions over time do not move.
    fn give_cores(&mut self, view: &View<'_>, slot: usize) {
        // Its weight now (its lag as of now), at the last draw's level.
        self.weight[slot] = self.weight_of(view, slot);
        let worth = (self.weight[slot] * self.level).min(f64::from(view.demand[slot]));
        // A tiny epsilon keeps rounding from losing a core.
        let cores = (worth + 1e-9).round() as u32;
        while self.target[slot] < cores {
            let over = |s: usize| f64::from(self.target[s]) - self.draw_ent[s];
            let giver = (view.holding.iter().copied())
                .filter(|&s| s != slot && self.target[s] > 0)
                .max_by(|&a, &b| over(a).total_cmp(&over(b)).then(b.cmp(&a)));
            match giver {
                Some(giver) => {
                    self.target[giver] -= 1;
                    self.refresh(giver);
                }
                // A share holding cores the draw gave nobody (they came free
                // while it was the only one waiting) gives those.
                None if (view.holding.iter())
                    .any(|&s| s != slot && view.holders[s] > self.target[s]) => {}
                None => break,
            }
            self.target[slot] += 1;
        }
        self.refresh(slot);
    }

    /// The share to get a free core: one below its drawn target if any, drawn
    /// by weight, else any waiting one drawn by weight.
    pub(crate) fn pick(&mut self, view: &View<'_>) -> Option<usize> {
        self.weigh_newcomers(view);
        // A core taken for a contending share goes to it (if it still waits and
        // is below its target).
        while let Some(s) = self.owed.pop_front() {
            if self.waiting[s] > 0 && self.holders[s] < self.target[s] {
                return Some(s);
            }
        }
        for tree in [&self.behind, &self.open] {
            if !tree.is_empty() {
                let x = self.rng.next_f64() * tree.total();
                return tree.find(x);
            }
        }
        // No waiting share has a weight (none is worth a core now): the first.
        view.waiters.iter().copied().min()
    }

    /// Whether `slot` would get a free core before the others, were it waiting:
    /// it holds fewer cores than the last draw gave it.
    pub(crate) fn due(&self, view: &View<'_>, slot: usize) -> bool {
        view.holders[slot] < self.target[slot]
    }

    /// A worker of `slot` waits for a core between two draws. If its share wants
    /// more cores than when its target was set (it has just become active, or
    /// more of its workers have work), it gets the whole cores its weight is
    /// worth at once ([`Lottery::give_cores`]). Otherwise a share holding
    /// fewer cores than the draw gave it takes one from a share holding more
    /// than its own.
    pub(crate) fn contend(&mut self, view: &View<'_>, slot: usize) -> Vec<usize> {
        self.weigh_newcomers(view);
        if view.demand[slot] > self.drawn_demand[slot] {
            self.drawn_demand[slot] = view.demand[slot];
            self.give_cores(view, slot);
            // The cores on their way are for the shares waiting before it.
            let t = &self.target;
            let want = t[slot]
                .saturating_sub(view.holders[slot])
                .min(view.waiting[slot]);
            let victims = self.victims(view, want, 0);
            self.owed.extend(std::iter::repeat_n(slot, victims.len()));
            return victims;
        }
        if view.holders[slot] >= self.target[slot] || view.in_flight > 0 {
            return Vec::new();
        }
        let over = (view.holding.iter().copied())
            .filter(|&s| s != slot && view.holders[s] > self.target[s])
            .min();
        self.owed.extend(over.map(|_| slot));
        over.into_iter().collect()
    }

    /// Draws the next quantum's cores and names one giving share per core to move.
    pub(crate) fn preempt(&mut self, view: &View<'_>) -> Vec<usize> {
        self.adjust(view);
        self.draw(view);
        self.owed.clear();
        self.drawn_demand.copy_from_slice(view.demand);
        // Every weight and target moved: the trees anew, from their leaves
        // (which also drops the rounding of the updates since).
        for s in 0..self.target.len() {
            let (open, behind) = self.leaves(s);
            self.open.set_leaf(s, open);
            self.behind.set_leaf(s, behind);
        }
        self.open.rebuild();
        self.behind.rebuild();
        let t = &self.target;
        let want: u32 = (view.waiters.iter())
            .map(|&s| t[s].saturating_sub(view.holders[s]).min(view.waiting[s]))
            .sum();
        self.victims(view, want, view.in_flight)
    }

    /// One giving share per core, for `want` cores to move, `moving` of which
    /// are on their way already: the holding shares above their targets.
    fn victims(&self, view: &View<'_>, want: u32, moving: u32) -> Vec<usize> {
        let t = &self.target;
        let mut want = want.saturating_sub(moving);
        let mut holding: Vec<usize> = view.holding.to_vec();
        holding.sort_unstable();
        let mut victims = Vec::new();
        for s in holding {
            let over = view.holders[s].saturating_sub(t[s]).min(want);
            victims.extend(std::iter::repeat_n(s, over as usize));
            want -= over;
        }
        victims
    }
}
