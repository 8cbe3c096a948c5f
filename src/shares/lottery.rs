//! Lottery scheduling over the flattened entitlements.
//!
//! At the end of each quantum the cores are drawn anew: the entitlements (which add
//! up to the number of cores in use) are laid end to end, and one random number `u`
//! in `[0, 1)` picks the points `u, u + 1, u + 2, …`; the share under each point gets
//! a core. Every share thus gets `floor(e)` or `ceil(e)` cores with expectation
//! exactly its entitlement `e` (systematic sampling: one lottery, evenly spaced
//! winning tickets), and never more than it wants, since `e` never exceeds its
//! demand. A core that frees between draws goes to a waiting share still below its
//! drawn target, or else to a waiting share drawn at random weighted by entitlement.

use super::allocator::View;
use super::rng::XorShift;

#[derive(Debug)]
pub(crate) struct Lottery {
    rng: XorShift,
    target: Vec<u32>,
}

impl Lottery {
    pub(crate) fn new(seed: u64) -> Self {
        Lottery {
            rng: XorShift::new(seed),
            target: Vec::new(),
        }
    }

    pub(crate) fn resize(&mut self, slots: usize) {
        self.target.resize(slots, 0);
    }

    pub(crate) fn reset(&mut self, slot: usize) {
        self.target[slot] = 0;
    }

    /// Draws the number of cores each share gets for the next quantum.
    fn draw(&mut self, ent: &[f64]) {
        let mut point = self.rng.next_f64();
        let mut end = 0.0;
        for (slot, &e) in ent.iter().enumerate() {
            end += e;
            let mut won = 0;
            // A tiny epsilon keeps rounding from dropping a point at a boundary.
            while point < end - 1e-9 {
                won += 1;
                point += 1.0;
            }
            self.target[slot] = won;
        }
    }

    /// The share to get a free core.
    pub(crate) fn pick(&mut self, view: &View<'_>) -> Option<usize> {
        let behind = |s: &usize| view.holders[*s] < self.target[*s];
        let below: Vec<usize> = view.waiting_slots().filter(behind).collect();
        if !below.is_empty() {
            return self.weighted(&below, view.ent);
        }
        let all: Vec<usize> = view.waiting_slots().collect();
        self.weighted(&all, view.ent)
    }

    fn weighted(&mut self, slots: &[usize], ent: &[f64]) -> Option<usize> {
        let total: f64 = slots.iter().map(|&s| ent[s]).sum();
        let mut x = self.rng.next_f64() * total;
        for &s in slots {
            if x < ent[s] {
                return Some(s);
            }
            x -= ent[s];
        }
        slots.last().copied()
    }

    /// Draws the next quantum's cores and names one giving share per core to move.
    pub(crate) fn preempt(&mut self, view: &View<'_>) -> Vec<usize> {
        self.draw(view.ent);
        let t = &self.target;
        let mut want: u32 = view
            .waiting_slots()
            .map(|s| t[s].saturating_sub(view.holders[s]).min(view.waiting[s]))
            .sum();
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
