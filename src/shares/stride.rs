//! Stride scheduling over the flattened entitlements.
//!
//! Each active share has a *pass*, a virtual time. Holding a core for one quantum
//! advances it by the share's stride, `1 / entitlement` (entitlement in cores), and
//! partial quanta are charged pro rata (non-uniform quanta), so a share that gets
//! exactly its entitlement advances its pass at one unit per quantum of real time,
//! like every other such share. The next free core goes to the waiting share with
//! the lowest pass; at the end of a quantum, a share whose pass is behind a holder's
//! takes that holder's core.
//!
//! The global pass advances by the core time charged divided by the total
//! entitlement: it is the pass of an ideal share that always got exactly its due.
//! A share that becomes active starts there (keeping at most one stride of debt,
//! never any credit), so an idle share cannot hoard credit; a share whose
//! entitlement changes keeps its distance to the global pass, rescaled to its new
//! stride (Waldspurger's rule for ticket changes).

use super::allocator::View;

#[derive(Debug, Default)]
pub(crate) struct Stride {
    pass: Vec<f64>,
    /// `pass - global` saved when the share went inactive.
    remain: Vec<f64>,
    global: f64,
}

impl Stride {
    pub(crate) fn resize(&mut self, slots: usize) {
        self.pass.resize(slots, 0.0);
        self.remain.resize(slots, 0.0);
    }

    pub(crate) fn reset(&mut self, slot: usize) {
        self.pass[slot] = 0.0;
        self.remain[slot] = 0.0;
    }

    #[cfg(test)]
    pub(crate) fn pass(&self, slot: usize) -> f64 {
        self.pass[slot]
    }

    #[cfg(test)]
    pub(crate) fn global(&self) -> f64 {
        self.global
    }

    /// The entitlement of `slot` went from `old` to `new` cores.
    pub(crate) fn retune(&mut self, slot: usize, old: f64, new: f64) {
        let g = self.global;
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
