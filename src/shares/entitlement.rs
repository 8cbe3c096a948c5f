//! From tickets and demands to entitlements: how many cores (a real number) each
//! share that wants cores should get right now.
//!
//! Three rules, applied top-down through the currency tree:
//! * a node's value is split among its *participants* — its own jobs (weighted by
//!   its own tickets) and its active children (weighted by theirs) — in proportion
//!   to their weights; inactive participants get nothing (their value flows to the
//!   active ones: work conservation);
//! * no participant gets more than it can use (its subtree's demand, in cores); the
//!   excess is split again among the others of the same currency (water-filling);
//! * a share lending its tickets (a thread of it blocked on another share) hands the
//!   value of its own jobs to the borrowers, in equal parts with itself if it still
//!   has runnable work of its own.

use super::tree::{Node, ShareTree};

/// Splits `value` among participants `(weight, cap)` in proportion to the weights,
/// never giving one more than its cap; returns each one's part. The parts add up to
/// `min(value, sum of caps)`.
#[cfg(test)]
pub(crate) fn water_fill(value: f64, parts: &[(f64, f64)]) -> Vec<f64> {
    let mut out = Vec::new();
    water_fill_into(value, parts, &mut Vec::new(), &mut out);
    out
}

/// `water_fill` into `out`, with `order` as scratch space (no allocation once
/// the buffers have grown).
pub(crate) fn water_fill_into(
    value: f64,
    parts: &[(f64, f64)],
    order: &mut Vec<usize>,
    out: &mut Vec<f64>,
) {
    out.clear();
    out.resize(parts.len(), 0.0);
    order.clear();
    order.extend((0..parts.len()).filter(|&i| parts[i].0 > 0.0));
    let mut left = value;
    // By passes: at the level of the value left per unit weight, whoever cannot
    // use its part saturates at its cap, which only raises the level for the
    // others; a pass that saturates nobody splits the rest by weight. Usually a
    // few passes over the participants, against a sort of them all; past
    // `PASSES` (participants saturating a few at a time) the rest are sorted.
    for _ in 0..PASSES {
        let weight: f64 = order.iter().map(|&i| parts[i].0).sum();
        if order.is_empty() || weight <= 0.0 {
            return;
        }
        let level = left / weight;
        let before = order.len();
        order.retain(|&i| {
            let (w, cap) = parts[i];
            if cap <= level * w {
                out[i] = cap;
                left -= cap;
                false
            } else {
                true
            }
        });
        if order.len() == before {
            for &j in order.iter() {
                out[j] = left * parts[j].0 / weight;
            }
            return;
        }
    }
    // Participants in the order they saturate: lowest cap per unit weight first.
    order.sort_unstable_by(|&a, &b| {
        let (ra, rb) = (parts[a].1 / parts[a].0, parts[b].1 / parts[b].0);
        ra.total_cmp(&rb)
    });
    let mut weight: f64 = order.iter().map(|&i| parts[i].0).sum();
    for (k, &i) in order.iter().enumerate() {
        let (w, cap) = parts[i];
        if cap <= left * w / weight {
            out[i] = cap;
            left -= cap;
            weight -= w;
        } else {
            // Nobody after this one saturates either: split the rest by weight.
            for &j in &order[k..] {
                out[j] = left * parts[j].0 / weight;
            }
            break;
        }
    }
}

/// Passes of [`water_fill_into`] before it sorts the participants left.
const PASSES: usize = 4;

/// Buffers reused from one computation to the next, and the result.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// Demand each slot's own jobs (and the borrowers they feed) can absorb.
    own: Vec<f64>,
    /// Demand each slot's subtree can absorb.
    subtree: Vec<f64>,
    raw: Vec<f64>,
    parts: Vec<(f64, f64)>,
    order: Vec<usize>,
    split: Vec<f64>,
    stack: Vec<(usize, f64)>,
    /// The result: cores each slot's own jobs are entitled to, indexed by slot.
    pub(crate) out: Vec<f64>,
}

/// Computes into `s.out` the cores each slot's own jobs are entitled to (0 for
/// slots that want none), for a pool of `cores` cores.
pub(crate) fn entitlements(tree: &ShareTree, cores: f64, s: &mut Scratch) {
    compute(tree, cores, Demand::Capped, s);
}

/// Like [`entitlements`], but as if every share with demand could use all the
/// cores: each active share's part of the cores by its tickets alone. The stride
/// policy charges against these, so that a share using cores another share left
/// over (it could not use its part) owes them back once that share can.
///
/// Computed from scratch (the allocator keeps them up to date with
/// [`TicketSplit`] instead): while no share lends, the product of the
/// currencies' splits from the root down; else the water-filling.
pub(crate) fn ticket_entitlements(tree: &ShareTree, cores: f64, s: &mut Scratch) {
    if tree.has_lends() {
        compute(tree, cores, Demand::Uncapped(cores), s);
        return;
    }
    s.out.clear();
    let mut split = TicketSplit::default();
    split.follow(tree, cores, &mut s.out, &mut Vec::new());
}

/// [`ticket_entitlements`] by the water-filling alone, lends or not (tests
/// compare the product with it).
#[cfg(test)]
pub(crate) fn ticket_entitlements_by_water_filling(tree: &ShareTree, cores: f64, s: &mut Scratch) {
    compute(tree, cores, Demand::Uncapped(cores), s);
}

/// The ticket entitlements while no share lends, kept up to date by the
/// currencies whose split changed.
///
/// Every active share absorbs all the cores then, so the water-filling of
/// [`compute`] saturates nobody (a participant capped at all the cores gets all
/// of them only as the sole active one, which a split by tickets gives it too)
/// and reduces to a product: a node's *value* is its parent's value times its
/// tickets over the tickets of the parent's active participants (its own jobs
/// while it is active, its children with an active share below), the root's is
/// all the cores, and an active share's entitlement is its value times its own
/// tickets over its active participants'. A change in who takes part in one
/// currency moves the values of that currency's subtree only: each node's value
/// is computed from its parent's alone, so the values the allocator keeps equal,
/// bit for bit, those computed from scratch from the root down.
#[derive(Debug, Default)]
pub(crate) struct TicketSplit {
    /// The value of each slot's node (0 for a node with no active share below).
    value: Vec<f64>,
    /// Whether the values follow the tree (false after the water-filling took
    /// over while a share lent).
    exact: bool,
    /// Scratch: the changed nodes, by depth, and the walk's stack.
    from: Vec<(u32, u32)>,
    stack: Vec<u32>,
}

impl TicketSplit {
    /// Brings `ent` (indexed by slot) up to date with the tree's changes since
    /// the last call (the caller then clears them); adds `(slot, old, new)` to `changes` for
    /// each entitlement that moved. From the root down on the first call, after
    /// lends, or while a share lends (by the water-filling then).
    pub(crate) fn follow(
        &mut self,
        tree: &ShareTree,
        cores: f64,
        ent: &mut Vec<f64>,
        changes: &mut Vec<(usize, f64, f64)>,
    ) {
        let n = tree.slots();
        ent.resize(n, 0.0);
        self.value.resize(n, 0.0);
        // Removed slots are entitled to nothing (their old value goes).
        for &i in &tree.gone {
            let i = i as usize;
            self.value[i] = 0.0;
            note(ent, changes, i, 0.0);
        }
        if tree.has_lends() {
            let mut s = Scratch::default();
            compute(tree, cores, Demand::Uncapped(cores), &mut s);
            for (i, &e) in s.out.iter().enumerate() {
                note(ent, changes, i, e);
            }
            self.exact = false;
            return;
        }
        self.from.clear();
        let root = tree.root().index() as u32;
        if !self.exact {
            self.exact = true;
            self.value.iter_mut().for_each(|v| *v = 0.0);
            self.from.push((0, root));
            self.value[root as usize] = root_value(tree, cores);
            self.walk(tree, true, ent, changes);
            return;
        }
        // The highest changed nodes first: a node's walk reads its own value,
        // which a walk from above it may change.
        for &i in &tree.split_changed {
            if tree.slot(i as usize).is_none() {
                continue;
            }
            let mut depth = 0;
            let mut at = tree.at(i).parent;
            while let Some(p) = at {
                depth += 1;
                at = tree.at(p).parent;
            }
            self.from.push((depth, i));
        }
        if self.from.is_empty() {
            return;
        }
        self.from.sort_unstable();
        self.from.dedup();
        self.value[root as usize] = root_value(tree, cores);
        self.walk(tree, false, ent, changes);
    }

    /// Splits the value of each node of `from` (and, below it, of each node
    /// whose value moved; of every node with `all`) among its participants.
    fn walk(
        &mut self,
        tree: &ShareTree,
        all: bool,
        ent: &mut [f64],
        changes: &mut Vec<(usize, f64, f64)>,
    ) {
        for k in 0..self.from.len() {
            self.stack.clear();
            self.stack.push(self.from[k].1);
            while let Some(i) = self.stack.pop() {
                let node = tree.at(i);
                let value = self.value[i as usize];
                let own = if node.is_active() { node.tickets } else { 0 };
                let mut weight = u64::from(own);
                for &c in &node.children {
                    let child = tree.at(c);
                    if child.active_below > 0 {
                        weight += u64::from(child.tickets);
                    }
                }
                let weight = weight as f64;
                let part = |tickets: u32| {
                    if value > 0.0 && tickets > 0 {
                        value * f64::from(tickets) / weight
                    } else {
                        0.0
                    }
                };
                note(ent, changes, i as usize, part(own));
                for &c in &node.children {
                    let child = tree.at(c);
                    let v = if child.active_below > 0 {
                        part(child.tickets)
                    } else {
                        0.0
                    };
                    let old = &mut self.value[c as usize];
                    if all || old.to_bits() != v.to_bits() {
                        *old = v;
                        self.stack.push(c);
                    }
                }
            }
        }
    }
}

/// The root's value: all the cores while some share is active.
fn root_value(tree: &ShareTree, cores: f64) -> f64 {
    if tree.at(tree.root().index() as u32).active_below > 0 {
        cores
    } else {
        0.0
    }
}

/// Sets `ent[i]` to `e`, noting the change if it moved.
fn note(ent: &mut [f64], changes: &mut Vec<(usize, f64, f64)>, i: usize, e: f64) {
    let old = ent[i];
    if old.to_bits() != e.to_bits() {
        ent[i] = e;
        changes.push((i, old, e));
    }
}

/// How much a share with demand can absorb.
#[derive(Clone, Copy)]
enum Demand {
    /// Its demand (workers that want a core).
    Capped,
    /// All the cores, whatever its demand.
    Uncapped(f64),
}

impl Demand {
    /// What a share with `demand` workers wanting a core (`recent`: it had some a
    /// moment ago) can absorb.
    fn absorbs(self, demand: u32, recent: bool) -> f64 {
        match self {
            Demand::Uncapped(cores) if demand > 0 || recent => cores,
            _ => f64::from(demand),
        }
    }

    /// Whether a share's own jobs take part in its value: they want cores now or,
    /// for the ticket entitlements, did a moment ago.
    fn takes_part(self, node: &Node) -> bool {
        node.demand > 0 || (node.recent && matches!(self, Demand::Uncapped(_)))
    }
}

fn compute(tree: &ShareTree, cores: f64, mode: Demand, s: &mut Scratch) {
    let n = tree.slots();
    for v in [&mut s.own, &mut s.subtree, &mut s.raw] {
        v.clear();
        v.resize(n, 0.0);
    }
    let root = tree.root().index();
    fill_caps(tree, root, mode, s);
    s.stack.clear();
    s.stack.push((root, cores.min(s.subtree[root])));
    while let Some((index, value)) = s.stack.pop() {
        split(tree, index, value, mode, s);
    }
    flatten_fixup(tree, cores, mode, s);
}

fn fill_caps(tree: &ShareTree, index: usize, mode: Demand, s: &mut Scratch) -> f64 {
    let node = tree.slot(index).expect("live node");
    // A lender's own slot also feeds its borrowers, so it can absorb their demand.
    let lent: u32 = node
        .lends_to
        .iter()
        .map(|&b| tree.slot(b as usize).map_or(0, |n| n.demand))
        .sum();
    let own = mode.absorbs(node.demand + lent, node.recent);
    let mut total = own;
    for &c in &node.children {
        total += fill_caps(tree, c as usize, mode, s);
    }
    s.own[index] = own;
    s.subtree[index] = total;
    total
}

/// Splits `value` of node `index` among its own jobs and its children; the
/// children's parts go on the stack.
fn split(tree: &ShareTree, index: usize, value: f64, mode: Demand, s: &mut Scratch) {
    let node = tree.slot(index).expect("live node");
    s.parts.clear();
    s.parts.push((f64::from(node.tickets), s.own[index]));
    for &c in &node.children {
        let child = tree.slot(c as usize).expect("live child");
        s.parts
            .push((f64::from(child.tickets), s.subtree[c as usize]));
    }
    water_fill_into(value, &s.parts, &mut s.order, &mut s.split);
    hand_out_own(tree, index, s.split[0], mode, &mut s.raw);
    for (k, &c) in node.children.iter().enumerate() {
        if s.split[k + 1] > 0.0 {
            s.stack.push((c as usize, s.split[k + 1]));
        }
    }
}

/// Gives the value of a node's own jobs to itself and to those it lends to.
fn hand_out_own(tree: &ShareTree, index: usize, value: f64, mode: Demand, raw: &mut [f64]) {
    let node = tree.slot(index).expect("live node");
    let me = u32::from(mode.takes_part(node));
    let ways = node.lends_to.len() as u32 + me;
    if ways == 0 {
        return;
    }
    let part = value / f64::from(ways);
    raw[index] += part * f64::from(me);
    for &b in &node.lends_to {
        raw[b as usize] += part;
    }
}

/// Lends may hand a share more than it can use, or value to a share with no demand;
/// a last flat water-filling pass keeps the proportions and respects the demands.
fn flatten_fixup(tree: &ShareTree, cores: f64, mode: Demand, s: &mut Scratch) {
    let demand = |i: usize| {
        tree.slot(i)
            .map_or(0.0, |n| mode.absorbs(n.demand, n.recent))
    };
    s.parts.clear();
    let raw = &s.raw;
    s.parts.extend((0..raw.len()).map(|i| {
        let d = demand(i);
        (if d > 0.0 { raw[i] } else { 0.0 }, d)
    }));
    let total: f64 = s.parts.iter().map(|p| p.1).sum();
    water_fill_into(cores.min(total), &s.parts, &mut s.order, &mut s.out);
}
