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
//! wakes more workers) makes a new draw, in which it gets the whole cores of its
//! draw entitlement first (wake-up preemption).
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

use super::allocator::View;
use super::entitlement::water_fill_into;
use super::rng::XorShift;
use super::stride::Stride;

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
    ent: Vec<f64>,
    demand: Vec<u32>,
}

#[derive(Debug)]
pub(crate) struct Lottery {
    draws: Draws,
    superquantum: Option<Superquantum>,
    rng: XorShift,
    target: Vec<u32>,
    /// Each share's demand when the targets were drawn.
    drawn_demand: Vec<u32>,
    /// Credit and debt: passes charged against the ticket entitlements.
    ledger: Stride,
    /// The draw entitlements, computed from the view and the ledger.
    draw_ent: Vec<f64>,
    parts: Vec<(f64, f64)>,
    order: Vec<usize>,
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
            parts: Vec::new(),
            order: Vec::new(),
        }
    }

    pub(crate) fn resize(&mut self, slots: usize) {
        self.target.resize(slots, 0);
        self.drawn_demand.resize(slots, 0);
        self.ledger.resize(slots);
    }

    pub(crate) fn reset(&mut self, slot: usize) {
        self.target[slot] = 0;
        self.drawn_demand[slot] = 0;
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

    /// Fills `draw_ent`: each share's ticket entitlement plus its lag spread over
    /// the horizon, water-filled within the demands over the cores in use.
    fn adjust(&mut self, view: &View<'_>) {
        let in_use: f64 = view.capped.iter().sum();
        let g = self.ledger.global();
        self.parts.clear();
        for s in 0..view.ent.len() {
            let (e, demand) = (view.ent[s], f64::from(view.demand[s]));
            if e <= 0.0 || demand <= 0.0 {
                self.parts.push((0.0, 0.0));
                continue;
            }
            // Core-quanta owed to the share (negative: it owes).
            let lag = e * (g - self.ledger.pass(s));
            // A tiny floor keeps a heavy debtor in the water-filling, so that it
            // still takes the cores nobody else can use (work conservation).
            let weight = (e + lag / HORIZON).max(e * 1e-6);
            self.parts.push((weight, demand));
        }
        water_fill_into(in_use, &self.parts, &mut self.order, &mut self.draw_ent);
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
    fn draw_each_core(&mut self, view: &View<'_>) {
        let cores = self.draw_ent.iter().sum::<f64>().round() as u32;
        for _ in 0..cores {
            let weight = |s: usize| self.parts[s].0;
            let open = |s: usize| self.draw_ent[s] > 0.0 && self.target[s] < view.demand[s];
            let total: f64 = (0..self.target.len())
                .filter(|&s| open(s))
                .map(weight)
                .sum();
            let mut x = self.rng.next_f64() * total;
            let mut won = None;
            for s in (0..self.target.len()).filter(|&s| open(s)) {
                won = Some(s);
                if x < weight(s) {
                    break;
                }
                x -= weight(s);
            }
            match won {
                Some(s) => self.target[s] += 1,
                None => break,
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
                        .ent
                        .iter()
                        .zip(view.ent)
                        .any(|(a, b)| (a > &0.0) != (b > &0.0))
            }
        };
        if stale {
            self.superquantum = Some(Superquantum {
                u: self.rng.next_f64(),
                next: 0,
                draw_ent: self.draw_ent.clone(),
                ent: view.ent.to_vec(),
                demand: view.demand.to_vec(),
            });
        }
        let sq = self.superquantum.as_mut().expect("just made");
        let j = SUPERQUANTUM[sq.next];
        sq.next += 1;
        (sq.u + f64::from(j)) / SUPERQUANTUM.len() as f64
    }

    /// Systematic sampling: the points `offset, offset + 1, ...` over the draw
    /// entitlements `ent` laid end to end; the share under each point gets a core.
    fn draw_spaced(ent: &[f64], offset: f64, target: &mut [u32]) {
        let mut point = offset;
        let mut end = 0.0;
        for (slot, &e) in ent.iter().enumerate() {
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

    /// Wake-up preemption under a lottery: a share whose demand has just risen gets
    /// at once the whole cores of its draw entitlement (as every share does in each
    /// quantum of a multi-winner draw); the draw decides only the rest. Otherwise a
    /// share worth 1.8 cores, arriving with one worker while another share holds
    /// every core, would lose both per-core lotteries about once in a hundred
    /// arrivals and wait a whole quantum. The cores it gets come from the shares
    /// drawn furthest above their own draw entitlement; the ledger charges the time
    /// it then holds like any other, so the fractions over time do not move.
    fn give_whole_cores(&mut self, slot: usize) {
        // A tiny epsilon keeps rounding from losing a whole core.
        let whole = (self.draw_ent[slot] + 1e-9).floor() as u32;
        while self.target[slot] < whole {
            let over = |s: usize| f64::from(self.target[s]) - self.draw_ent[s];
            let giver = (0..self.target.len())
                .filter(|&s| s != slot && self.target[s] > 0)
                .max_by(|&a, &b| over(a).total_cmp(&over(b)));
            let Some(giver) = giver else { break };
            self.target[giver] -= 1;
            self.target[slot] += 1;
        }
    }

    /// The share to get a free core.
    pub(crate) fn pick(&mut self, view: &View<'_>) -> Option<usize> {
        self.adjust(view);
        let behind = |s: &usize| view.holders[*s] < self.target[*s];
        let below: Vec<usize> = view.waiting_slots().filter(behind).collect();
        if !below.is_empty() {
            return self.weighted(&below);
        }
        let all: Vec<usize> = view.waiting_slots().collect();
        self.weighted(&all)
    }

    /// Whether `slot` would get a free core before the others, were it waiting:
    /// it holds fewer cores than the last draw gave it.
    pub(crate) fn due(&self, view: &View<'_>, slot: usize) -> bool {
        view.holders[slot] < self.target[slot]
    }

    /// One of `slots`, drawn by the shares' own weights (as in `draw_each_core`).
    fn weighted(&mut self, slots: &[usize]) -> Option<usize> {
        let weight = |s: usize| self.parts[s].0;
        let total: f64 = slots.iter().map(|&s| weight(s)).sum();
        let mut x = self.rng.next_f64() * total;
        for &s in slots {
            if x < weight(s) {
                return Some(s);
            }
            x -= weight(s);
        }
        slots.last().copied()
    }

    /// A worker of `slot` waits for a core between two draws. If its share wants
    /// more cores than when the last draw was made (it has just become active, or
    /// more of its workers have work), that draw is out of date: a new one is made
    /// now (as the paper ends a superquantum early on any change). Otherwise a
    /// share holding fewer cores than the draw gave it takes one from a share
    /// holding more than its own.
    pub(crate) fn contend(&mut self, view: &View<'_>, slot: usize) -> Vec<usize> {
        if view.demand[slot] > self.drawn_demand[slot] {
            return self.redraw(view, Some(slot));
        }
        if view.holders[slot] >= self.target[slot] || view.in_flight > 0 {
            return Vec::new();
        }
        let over = view
            .holding_slots()
            .find(|&s| s != slot && view.holders[s] > self.target[s]);
        over.into_iter().collect()
    }

    /// Draws the next quantum's cores and names one giving share per core to move.
    pub(crate) fn preempt(&mut self, view: &View<'_>) -> Vec<usize> {
        self.redraw(view, None)
    }

    /// Draws the cores anew (for `arriving`, a share that wants more cores than
    /// when the last draw was made, its whole cores first) and names one giving
    /// share per core to move.
    fn redraw(&mut self, view: &View<'_>, arriving: Option<usize>) -> Vec<usize> {
        self.adjust(view);
        self.draw(view);
        if let Some(slot) = arriving {
            self.give_whole_cores(slot);
        }
        self.drawn_demand.copy_from_slice(view.demand);
        let t = &self.target;
        let want: u32 = view
            .waiting_slots()
            .map(|s| t[s].saturating_sub(view.holders[s]).min(view.waiting[s]))
            .sum();
        // Cores already on their way count as moved.
        let mut want = want.saturating_sub(view.in_flight);
        let mut victims = Vec::new();
        for s in view.holding_slots() {
            let over = view.holders[s].saturating_sub(t[s]);
            for _ in 0..over.min(want) {
                victims.push(s);
            }
            want -= over.min(want);
        }
        victims
    }
}
