//! A tree of partial weight sums over the shares' slots, for the lottery: a draw
//! walks from the root to a leaf, and a weight changes along one path, both in
//! `O(log n)` for `n` slots (the tree-based lottery of Waldspurger's thesis,
//! section 3.1; here an implicit tree in an array, a Fenwick tree).
//!
//! Sums of floating-point weights drift when the same entries change many times,
//! so the tree keeps each leaf's own weight beside it: [`WeightTree::rebuild`]
//! recomputes every sum from the leaves (the lottery rebuilds at each draw), and
//! a draw that lands past the end because of rounding takes the last slot with a
//! weight.

#[derive(Debug, Default, Clone)]
pub(crate) struct WeightTree {
    /// Each slot's own weight (0: not in the draw).
    leaf: Vec<f64>,
    /// `sums[i - 1]`: the sum of the leaves `i - lowbit(i) .. i` (1-based).
    sums: Vec<f64>,
    /// Slots with a weight above 0.
    len: usize,
}

impl WeightTree {
    /// Slots `0..slots` (new ones weigh 0).
    pub(crate) fn resize(&mut self, slots: usize) {
        if slots != self.leaf.len() {
            self.leaf.resize(slots, 0.0);
            self.rebuild();
        }
    }

    pub(crate) fn weight(&self, slot: usize) -> f64 {
        self.leaf.get(slot).copied().unwrap_or(0.0)
    }

    /// Whether no slot has a weight.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sets `slot`'s weight (0 takes it out of the draws).
    pub(crate) fn set(&mut self, slot: usize, weight: f64) {
        let weight = if weight > 0.0 { weight } else { 0.0 };
        let old = self.leaf[slot];
        if old == weight {
            return;
        }
        self.len = self.len + usize::from(weight > 0.0) - usize::from(old > 0.0);
        self.leaf[slot] = weight;
        let delta = weight - old;
        let mut i = slot + 1;
        while i <= self.sums.len() {
            self.sums[i - 1] += delta;
            i += i & i.wrapping_neg();
        }
    }

    /// Sets `slot`'s weight without its sums: [`WeightTree::rebuild`] must
    /// follow before the next draw (for many changes at once).
    pub(crate) fn set_leaf(&mut self, slot: usize, weight: f64) {
        self.leaf[slot] = if weight > 0.0 { weight } else { 0.0 };
    }

    /// Every sum again from the leaves, in `O(n)`.
    pub(crate) fn rebuild(&mut self) {
        let n = self.leaf.len();
        self.sums.clear();
        self.sums.extend_from_slice(&self.leaf);
        for i in 1..=n {
            let parent = i + (i & i.wrapping_neg());
            if parent <= n {
                let s = self.sums[i - 1];
                self.sums[parent - 1] += s;
            }
        }
        self.len = self.leaf.iter().filter(|&&w| w > 0.0).count();
    }

    /// The sum of every weight.
    pub(crate) fn total(&self) -> f64 {
        // The prefix sum of all the leaves: the nodes covering `1..=n`.
        let mut i = self.sums.len();
        let mut s = 0.0;
        while i > 0 {
            s += self.sums[i - 1];
            i &= i - 1;
        }
        s
    }

    /// The slot under point `x` of the weights laid end to end, `x` in
    /// `[0, total)`: each slot is found with probability proportional to its
    /// weight when `x` is uniform. `None` when no slot has a weight.
    pub(crate) fn find(&self, x: f64) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let n = self.sums.len();
        let mut pos = 0;
        let mut rest = x;
        let mut step = if n == 0 {
            0
        } else {
            1 << (usize::BITS - 1 - n.leading_zeros())
        };
        while step > 0 {
            let next = pos + step;
            if next <= n && self.sums[next - 1] <= rest {
                rest -= self.sums[next - 1];
                pos = next;
            }
            step >>= 1;
        }
        // `pos` leaves lie wholly before `x`: the slot is `pos`, unless rounding
        // put `x` past the last weight or on a leaf of weight 0; then the nearest
        // weighted slot before it (or after, if none is before).
        if pos < n && self.leaf[pos] > 0.0 {
            return Some(pos);
        }
        let before = (0..pos.min(n)).rev().find(|&s| self.leaf[s] > 0.0);
        before.or_else(|| (pos..n).find(|&s| self.leaf[s] > 0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::WeightTree;

    #[test]
    fn find_lands_on_each_slot_in_proportion_to_its_weight() {
        let mut t = WeightTree::default();
        t.resize(7);
        let w = [0.0, 2.0, 0.0, 1.0, 0.5, 0.0, 3.5];
        for (s, &x) in w.iter().enumerate() {
            t.set(s, x);
        }
        assert!((t.total() - 7.0).abs() < 1e-12);
        // Points spread evenly over [0, 7): each slot gets its weight's worth.
        let mut hits = [0u32; 7];
        for k in 0..7000 {
            let x = (f64::from(k) + 0.5) / 1000.0;
            hits[t.find(x).unwrap()] += 1;
        }
        assert_eq!(hits, [0, 2000, 0, 1000, 500, 0, 3500]);
        // A point at or past the end (rounding) takes the last weighted slot.
        assert_eq!(t.find(7.0), Some(6));
        assert_eq!(t.find(100.0), Some(6));
    }

    #[test]
    fn set_and_rebuild_agree() {
        let mut t = WeightTree::default();
        t.resize(100);
        for s in 0..100 {
            t.set(s, (s % 7) as f64 * 0.25);
        }
        for s in (0..100).step_by(3) {
            t.set(s, 0.0);
        }
        let mut u = t.clone();
        u.rebuild();
        assert!((t.total() - u.total()).abs() < 1e-9);
        for k in 0..1000 {
            let x = t.total() * f64::from(k) / 1000.0;
            assert_eq!(t.find(x), u.find(x));
        }
        assert_eq!(t.len, u.len);
        for s in 0..100 {
            t.set(s, 0.0);
        }
        assert!(t.is_empty());
        assert_eq!(t.find(0.0), None);
    }
}
