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
pub(crate) fn ticket_entitlements(tree: &ShareTree, cores: f64, s: &mut Scratch) {
    if tree.has_lends() || !proportional_tickets(tree, cores, s) {
        compute(tree, cores, Demand::Uncapped(cores), s);
    }
    #[cfg(test)]
    {
        let mut full = Scratch::default();
        compute(tree, cores, Demand::Uncapped(cores), &mut full);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&s.out), bits(&full.out), "ticket entitlements");
    }
}

/// [`ticket_entitlements`] while no share lends its tickets, in the common case
/// where no participant is worth all it can absorb: then every active share
/// absorbs all the cores, and each currency splits its value among its active
/// participants in proportion to their tickets, which costs a look at the
/// active participants of each active currency rather than the water-filling of
/// every node. The same operations in the same order as [`compute`], so the
/// results are equal bit for bit; returns false (leaving the work to
/// [`compute`]) where a participant would be capped.
fn proportional_tickets(tree: &ShareTree, cores: f64, s: &mut Scratch) -> bool {
    let n = tree.slots();
    s.raw.clear();
    s.raw.resize(n, 0.0);
    s.out.clear();
    s.out.resize(n, 0.0);
    let root = tree.root().index();
    if tree.at(root as u32).active_below == 0 {
        return true;
    }
    s.stack.clear();
    s.stack.push((root, cores));
    while let Some((index, value)) = s.stack.pop() {
        let node = tree.at(index as u32);
        // The active participants (`usize::MAX`: the node's own jobs), each
        // absorbing all the cores once per active share below it.
        s.parts.clear();
        s.order.clear();
        if node.is_active() {
            s.parts.push((f64::from(node.tickets), cores));
            s.order.push(usize::MAX);
        }
        for &c in &node.children {
            let child = tree.at(c);
            if child.active_below > 0 {
                let cap = cores * f64::from(child.active_below);
                s.parts.push((f64::from(child.tickets), cap));
                s.order.push(c as usize);
            }
        }
        // `water_fill_into`'s first pass counts every participant's weight; the
        // inactive ones saturate at nothing, and a second pass splits by the
        // active ones' weight.
        let mut weight = (u64::from(node.tickets) + node.children_tickets()) as f64;
        let saturates =
            |parts: &[(f64, f64)], level: f64| parts.iter().any(|&(w, cap)| cap <= level * w);
        if saturates(&s.parts, value / weight) {
            return false;
        }
        if s.parts.len() < 1 + node.children.len() {
            weight = s.parts.iter().map(|p| p.0).sum();
            if s.parts.is_empty() || weight <= 0.0 {
                continue;
            }
            if saturates(&s.parts, value / weight) {
                return false;
            }
        }
        for (k, &(w, _)) in s.parts.iter().enumerate() {
            let part = value * w / weight;
            match s.order[k] {
                usize::MAX => s.raw[index] += part,
                c if part > 0.0 => s.stack.push((c, part)),
                _ => {}
            }
        }
    }
    // `flatten_fixup`: every active share absorbs all the cores, so the value is
    // all the cores, split by the raw parts.
    let mut weight = 0.0;
    for &r in &s.raw {
        if r > 0.0 {
            weight += r;
        }
    }
    if weight <= 0.0 {
        return true;
    }
    let level = cores / weight;
    if s.raw.iter().any(|&r| r > 0.0 && cores <= level * r) {
        return false;
    }
    for (out, &r) in s.out.iter_mut().zip(&s.raw) {
        if r > 0.0 {
            *out = cores * r / weight;
        }
    }
    true
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
