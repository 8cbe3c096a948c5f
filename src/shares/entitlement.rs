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

use super::tree::ShareTree;

/// Splits `value` among participants `(weight, cap)` in proportion to the weights,
/// never giving one more than its cap; returns each one's part. The parts add up to
/// `min(value, sum of caps)`.
pub(crate) fn water_fill(value: f64, parts: &[(f64, f64)]) -> Vec<f64> {
    let mut out = vec![0.0; parts.len()];
    // Participants in the order they saturate: lowest cap per unit weight first.
    let mut order: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].0 > 0.0).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (parts[a].1 / parts[a].0, parts[b].1 / parts[b].0);
        ra.total_cmp(&rb)
    });
    let mut left = value;
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
    out
}

/// Cores each slot's own jobs are entitled to (0 for slots that want none), for a
/// pool of `cores` cores. Indexed by tree slot.
pub(crate) fn entitlements(tree: &ShareTree, cores: f64) -> Vec<f64> {
    let caps = subtree_caps(tree);
    let mut raw = vec![0.0; tree.slots()];
    let root = tree.root().index();
    split(tree, &caps, root, cores.min(caps.subtree[root]), &mut raw);
    flatten_fixup(tree, cores, &raw)
}

/// Demand that each slot's own jobs, and each slot's subtree, can absorb.
struct Caps {
    own: Vec<f64>,
    subtree: Vec<f64>,
}

fn subtree_caps(tree: &ShareTree) -> Caps {
    let n = tree.slots();
    let mut caps = Caps {
        own: vec![0.0; n],
        subtree: vec![0.0; n],
    };
    fill_caps(tree, tree.root().index(), &mut caps);
    caps
}

fn fill_caps(tree: &ShareTree, index: usize, caps: &mut Caps) -> f64 {
    let node = tree.slot(index).expect("live node");
    // A lender's own slot also feeds its borrowers, so it can absorb their demand.
    let lent: u32 = node
        .lends_to
        .iter()
        .map(|&b| tree.slot(b as usize).map_or(0, |n| n.demand))
        .sum();
    let own = f64::from(node.demand) + f64::from(lent);
    let mut total = own;
    for &c in &node.children {
        total += fill_caps(tree, c as usize, caps);
    }
    caps.own[index] = own;
    caps.subtree[index] = total;
    total
}

/// Splits `value` of node `index` among its own jobs and its children, recursively.
fn split(tree: &ShareTree, caps: &Caps, index: usize, value: f64, raw: &mut [f64]) {
    let node = tree.slot(index).expect("live node");
    let mut parts = vec![(f64::from(node.tickets), caps.own[index])];
    for &c in &node.children {
        let child = tree.slot(c as usize).expect("live child");
        parts.push((f64::from(child.tickets), caps.subtree[c as usize]));
    }
    let shares = water_fill(value, &parts);
    hand_out_own(tree, index, shares[0], raw);
    for (k, &c) in node.children.iter().enumerate() {
        if shares[k + 1] > 0.0 {
            split(tree, caps, c as usize, shares[k + 1], raw);
        }
    }
}

/// Gives the value of a node's own jobs to itself and to those it lends to.
fn hand_out_own(tree: &ShareTree, index: usize, value: f64, raw: &mut [f64]) {
    let node = tree.slot(index).expect("live node");
    let me = u32::from(node.demand > 0);
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
fn flatten_fixup(tree: &ShareTree, cores: f64, raw: &[f64]) -> Vec<f64> {
    let demand = |i: usize| tree.slot(i).map_or(0.0, |n| f64::from(n.demand));
    let parts: Vec<(f64, f64)> = (0..raw.len())
        .map(|i| {
            let d = demand(i);
            (if d > 0.0 { raw[i] } else { 0.0 }, d)
        })
        .collect();
    let total: f64 = parts.iter().map(|p| p.1).sum();
    water_fill(cores.min(total), &parts)
}
