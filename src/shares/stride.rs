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
//! The entitlement charged against is the share's part of the cores by its tickets
//! among the active shares, *not* capped by its demand: a share that can use fewer
//! cores than its tickets are worth (a fork-join tail, where one worker is still
//! busy and the others have nothing to steal) leaves the rest to the others (work
//! conservation), falls behind the global pass (credit) while they run ahead of it
//! (debt), and gets the cores back first once it can use them. Charging against the
//! demand-capped entitlement instead would forgive those debts, and a high-ticket
//! share with tails every second lost several points of its proportion.
//!
//! The global pass advances by the core time charged divided by the total
//! entitlement: it is the pass of an ideal share that always got exactly its due.
//! Credit and debt are remembered for a bounded time (`memory`, in quanta): a share
//! falling further behind the global pass loses the excess credit, and when a share
//! runs further ahead, the global pass moves up (forgiving every debt alike, so the
//! debtors keep their proportions among themselves). A share that becomes active
//! starts at the global pass (keeping at most one stride of debt, never any
//! credit), so an idle share cannot hoard credit; a share whose entitlement changes
//! keeps its distance to the global pass, rescaled to its new stride (Waldspurger's
//! rule for ticket changes).

use super::allocator::View;

#[derive(Debug, Default)]
pub(crate) struct Stride {
    pass: Vec<f64>,
    /// The share's entitlement, 0 while it does not compete.
    ent: Vec<f64>,
    /// `pass - global` saved when the share went inactive.
    remain: Vec<f64>,
    global: f64,
    /// The most credit or debt (distance to the global pass) a share keeps, in
    /// quanta: how far back the fairness remembers.
    memory: f64,
}

impl Stride {
    /// A stride policy that remembers credit and debt for at most `memory` quanta.
    pub(crate) fn new(memory: f64) -> Self {
        Stride {
            memory,
            ..Stride::default()
        }
    }

    pub(crate) fn resize(&mut self, slots: usize) {
        self.pass.resize(slots, 0.0);
        self.ent.resize(slots, 0.0);
        self.remain.resize(slots, 0.0);
    }

    pub(crate) fn reset(&mut self, slot: usize) {
        self.pass[slot] = 0.0;
        self.remain[slot] = 0.0;
        self.ent[slot] = 0.0;
    }

    /// The pass of `slot`: its virtual time.
    pub(crate) fn pass(&self, slot: usize) -> f64 {
        self.pass[slot]
    }

    /// The global pass: that of an ideal share that always got exactly its due.
    pub(crate) fn global(&self) -> f64 {
        self.global
    }

    /// The entitlement of `slot` went from `old` to `new` cores.
    pub(crate) fn retune(&mut self, slot: usize, old: f64, new: f64) {
        let g = self.global;
        self.ent[slot] = new;
        if old == 0.0 && new > 0.0 {
            // Activation: re-base on the global pass, with no credit.
            self.pass[slot] = g + self.remain[slot].clamp(0.0, 1.0 / new);
        } else if old > 0.0 && new == 0.0 {
            self.remain[slot] = self.pass[slot] - g;
        } else if old > 0.0 {
            self.pass[slot] = g + (self.pass[slot] - g) * old / new;
        }
    }

    /// `slot` (entitled to `ent` of `total` cores) held cores for `quanta` quanta.
    pub(crate) fn charge(&mut self, slot: usize, quanta: f64, ent: f64, total: f64) {
        if ent > 0.0 {
            self.pass[slot] += quanta / ent;
        }
        if total > 0.0 {
            self.global += quanta / total;
        }
        self.bound(ent);
    }

    /// Keeps every active share within its reach of the global pass: past that,
    /// the global pass moves up to the most indebted share (forgiving all debts
    /// alike, so the debtors keep their proportions among themselves), and credit
    /// is lost.
    fn bound(&mut self, ent: f64) {
        if ent <= 0.0 {
            return;
        }
        let active = || (0..self.pass.len()).filter(|&s| self.ent[s] > 0.0);
        let most = active()
            .map(|s| self.pass[s] - self.reach(s))
            .fold(f64::NEG_INFINITY, f64::max);
        self.global = self.global.max(most);
        for s in 0..self.pass.len() {
            if self.ent[s] > 0.0 {
                let lowest = self.global - self.reach(s);
                self.pass[s] = self.pass[s].max(lowest);
            }
        }
    }

    /// How far from the global pass `slot` may be: the memory, plus two strides (a
    /// share worth a tiny part of a core waits many quanta between two of its own,
    /// which is its due, not a debt to forgive).
    fn reach(&self, slot: usize) -> f64 {
        self.memory + 2.0 / self.ent[slot]
    }

    /// The waiting share with the lowest pass.
    pub(crate) fn pick(&self, view: &View<'_>) -> Option<usize> {
        view.waiting_slots()
            .min_by(|&a, &b| self.pass[a].total_cmp(&self.pass[b]))
    }

    /// Cores to take back at the end of a quantum: one entry per core, naming the
    /// share that gives it. Waiting shares are paired, lowest pass first, with the
    /// holders of highest pass, as long as the waiter is behind; each planned move
    /// is projected one quantum ahead so one tick does not overshoot.
    pub(crate) fn preempt(&self, view: &View<'_>) -> Vec<usize> {
        let mut waiting: Vec<(usize, u32, f64)> = view
            .waiting_slots()
            .map(|s| (s, view.waiting[s], self.pass[s]))
            .collect();
        let mut holding: Vec<(usize, u32, f64)> = view
            .holding_slots()
            .map(|s| (s, view.holders[s], self.pass[s]))
            .collect();
        let mut victims = Vec::new();
        loop {
            let w = argmin(&waiting, |e| e.1 > 0);
            let h = argmax(&holding, |e| e.1 > 0);
            let (Some(w), Some(h)) = (w, h) else { break };
            let (ws, hs) = (waiting[w].0, holding[h].0);
            if ws == hs || waiting[w].2 >= holding[h].2 {
                break;
            }
            victims.push(hs);
            waiting[w].1 -= 1;
            waiting[w].2 += 1.0 / view.ent[ws].max(f64::MIN_POSITIVE);
            holding[h].1 -= 1;
            holding[h].2 -= 1.0 / view.ent[hs].max(f64::MIN_POSITIVE);
        }
        victims
    }
}

fn argmin(v: &[(usize, u32, f64)], ok: impl Fn(&(usize, u32, f64)) -> bool) -> Option<usize> {
    (0..v.len())
        .filter(|&i| ok(&v[i]))
        .min_by(|&a, &b| v[a].2.total_cmp(&v[b].2))
}

fn argmax(v: &[(usize, u32, f64)], ok: impl Fn(&(usize, u32, f64)) -> bool) -> Option<usize> {
    (0..v.len())
        .filter(|&i| ok(&v[i]))
        .max_by(|&a, &b| v[a].2.total_cmp(&v[b].2))
}
