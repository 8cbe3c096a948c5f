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
//!
//! The policies charge against other entitlements ([`ticket_entitlements`]):
//! the same split by tickets, not capped by the demands at the top level (a
//! share whose demand dips keeps its claim), and raised within each currency by
//! its water-filling level, so that the cores a share cannot use go first to the
//! other shares of its currency.

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

/// The entitlements the policies charge against (see [`TicketSplit`]): at the
/// top level each active share's part of the cores by its tickets alone, as if
/// every active share could use all the cores, so that a share using cores
/// another share left over (it could not use its part) owes them back once that
/// share can; within a currency, raised by its water-filling level, so that the
/// cores a share leaves go first to the other shares of its currency.
///
/// Computed from scratch (the allocator keeps them up to date with
/// [`TicketSplit`] instead): while no share lends, split from the root down;
/// else by the water-filling, as if every active share could use all the cores.
pub(crate) fn ticket_entitlements(tree: &ShareTree, cores: f64, s: &mut Scratch) {
    if tree.has_lends() || tree.has_ceilings() {
        compute(tree, cores, Demand::Uncapped(cores), s);
        return;
    }
    s.out.clear();
    let mut split = TicketSplit::default();
    split.follow(tree, cores, true, &mut s.out, &mut Vec::new());
}

/// [`ticket_entitlements`] by the water-filling alone, lends or not (tests
/// compare the product with it).
#[cfg(test)]
pub(crate) fn ticket_entitlements_by_water_filling(tree: &ShareTree, cores: f64, s: &mut Scratch) {
    compute(tree, cores, Demand::Uncapped(cores), s);
}

/// The charge entitlements while no share lends, kept up to date by the
/// currencies whose split changed.
///
/// A node's *value* is what its participants (its own jobs while they are
/// active, its children with an active share below) are charged against
/// together; the root's is all the cores while a share is active. The root
/// splits it by tickets: every top-level participant's entitlement is its part
/// of the cores by its tickets, as if every active share could use every core
/// (so a share whose demand drops for a moment keeps its claim, and its
/// credit). Below the root, a currency also knows its *real* value, its part of
/// the cores water-filled within the demands (as [`entitlements`] computes it).
/// Where that water-filling caps some of the currency's participants by their
/// demands, each participant gets the larger of its part of the value by
/// tickets and by the water-filling (the real parts scaled by the value over
/// the real value). The uncapped participants are then charged against their
/// water-filled parts, scaled by a factor common to every currency that no
/// water-filling above caps (the root's value over its real value), so the
/// cores the capped ones leave go to them, the other shares of the same
/// currency, rather than to every share by its flattened tickets. A capped
/// participant that wants less than its tickets' worth is charged against its
/// part by tickets: it falls behind (credit) at the rate it leaves cores
/// unused, as at the top level, and takes them back first once it wants them.
/// One capped above its tickets' worth (the water-filling raised it there) is
/// charged against what it wants, so that it gets it. A currency that caps
/// none of its participants splits its value by tickets. The entitlements add
/// up to the cores or more.
///
/// A node's split depends on its value, its real value and its participants'
/// tickets and demands (those of their subtrees) alone: a change in who takes
/// part in one currency, or in one share's demand, moves the values of that
/// currency's subtree (and of its ancestors' splits, for a demand) only, so
/// the values the allocator keeps equal, bit for bit, those computed from
/// scratch from the root down (once the demands' changes are followed).
#[derive(Debug, Default)]
pub(crate) struct TicketSplit {
    /// The value of each slot's node (0 for a node with no active share below).
    value: Vec<f64>,
    /// The real (water-filled) value of each slot's node.
    real: Vec<f64>,
    /// The level of each slot's node at its last split: the value per ticket
    /// its real value gave the participants it did not saturate (infinite if
    /// it saturated them all).
    level: Vec<f64>,
    /// Each slot's own demand and its subtree's, as its last split (its own,
    /// and its parent's) saw them.
    seen_own: Vec<u32>,
    seen_below: Vec<u64>,
    /// Whether each slot's real value is up to date (its parent's last split
    /// computed it; not needed, so not computed, for a share with no active
    /// share below it under a parent split by tickets).
    fed: Vec<bool>,
    /// Whether the values follow the tree (false after the water-filling took
    /// over while a share lent).
    exact: bool,
    /// Nodes whose split a demand's change may have moved, re-split at the
    /// next call that follows the demands.
    deferred: Vec<u32>,
    /// Some demand's change has not been followed yet.
    stale: bool,
    /// Scratch: the changed nodes, by depth, and the walk's stack.
    from: Vec<(u32, u32)>,
    stack: Vec<u32>,
    /// Scratch of the water-filling of one node's real value.
    parts: Vec<(f64, f64)>,
    order: Vec<usize>,
    split: Vec<f64>,
}

impl TicketSplit {
    /// Whether every demand's change has been followed: the entitlements are
    /// then those computed from scratch, bit for bit.
    pub(crate) fn follows_demands(&self) -> bool {
        !self.stale
    }

    /// How many demand changes wait for the next time demands are followed.
    #[cfg(test)]
    pub(crate) fn deferred_len(&self) -> usize {
        self.deferred.len()
    }

    /// Brings `ticket_ent` (indexed by slot) up to date with the tree's changes since
    /// the last call (the caller then clears them); adds `(slot, old, new)` to `changes` for
    /// each entitlement that moved. From the root down on the first call, after
    /// lends, or while a share lends (by the water-filling then).
    ///
    /// Changes of who takes part, and of tickets, are followed at once; the
    /// demands' changes only with `demands` (the allocator follows them once
    /// per quantum: a demand that moves can move the level of a currency, and
    /// with it the entitlement of every share below): until then, a
    /// currency's split uses its real value as of its last split, and its
    /// participants' demands as they are when it is split.
    pub(crate) fn follow(
        &mut self,
        tree: &ShareTree,
        cores: f64,
        demands: bool,
        ticket_ent: &mut Vec<f64>,
        changes: &mut Vec<(usize, f64, f64)>,
    ) {
        let n = tree.slots();
        ticket_ent.resize(n, 0.0);
        self.value.resize(n, 0.0);
        self.real.resize(n, 0.0);
        self.level.resize(n, f64::INFINITY);
        self.seen_own.resize(n, 0);
        self.seen_below.resize(n, 0);
        self.fed.resize(n, false);
        // Removed slots are entitled to nothing (their old value goes).
        for &i in &tree.gone {
            let i = i as usize;
            self.value[i] = 0.0;
            self.real[i] = 0.0;
            self.level[i] = f64::INFINITY;
            (self.seen_own[i], self.seen_below[i]) = (0, 0);
            self.fed[i] = false;
            note(ticket_ent, changes, i, 0.0);
        }
        // Lends and ceilings: by the water-filling from the root down at each
        // change (a ceiling caps its subtree there, and the rest goes to the
        // others by tickets); the incremental split knows neither.
        if tree.has_lends() || tree.has_ceilings() {
            let mut s = Scratch::default();
            compute(tree, cores, Demand::Uncapped(cores), &mut s);
            for (i, &e) in s.out.iter().enumerate() {
                note(ticket_ent, changes, i, e);
            }
            self.exact = false;
            return;
        }
        self.from.clear();
        let root = tree.root().index() as u32;
        if !self.exact {
            self.exact = true;
            self.value.iter_mut().for_each(|v| *v = 0.0);
            self.real.iter_mut().for_each(|v| *v = 0.0);
            for i in 0..n {
                let (own, below) = tree.slot(i).map_or((0, 0), |n| (n.demand, n.demand_below));
                (self.seen_own[i], self.seen_below[i]) = (own, below);
            }
            self.from.push((0, root));
            (self.value[root as usize], self.real[root as usize]) = root_value(tree, cores);
            self.walk(tree, true, ticket_ent, changes);
            self.deferred.clear();
            self.stale = false;
            return;
        }
        // The highest changed nodes first: a node's walk reads its own value,
        // which a walk from above it may change.
        for &i in &tree.split_changed {
            let Some(node) = tree.slot(i as usize) else {
                continue;
            };
            let depth = depth(tree, i);
            self.from.push((depth, i));
            // A share that became a currency needs its real value: its
            // parent's split computes it.
            if let (Some(p), false) = (node.parent, self.fed[i as usize]) {
                if is_currency(node) {
                    self.from.push((depth - 1, p));
                }
            }
        }
        // A demand that moved changes the water-filling of its node's split
        // and of its ancestors', unless it was and stays above what the level
        // gives its participant there: then the level, and every part, stay as
        // they were, bit for bit.
        for &i in &tree.demand_changed {
            if tree.slot(i as usize).is_none() {
                continue;
            }
            let node = tree.at(i);
            let own = node.own_weight();
            let (old, new) = (u64::from(self.seen_own[i as usize]), u64::from(node.demand));
            if old != new && !unsaturated(old, new, own, self.level[i as usize]) {
                self.deferred.push(i);
            }
            self.seen_own[i as usize] = node.demand;
            let mut c = i;
            while let Some(p) = tree.at(c).parent {
                let child = tree.at(c);
                let (old, new) = (self.seen_below[c as usize], child.demand_below);
                if old == new {
                    break;
                }
                let w = child.weight_in_parent();
                if !unsaturated(old, new, w, self.level[p as usize]) {
                    self.deferred.push(p);
                }
                self.seen_below[c as usize] = new;
                c = p;
            }
        }
        // While quanta do not end (no worker waits for a core), the same demands
        // change again and again (a share made and dropped for each call): the
        // list keeps each slot once, so it is never longer than the tree.
        if self.deferred.len() > 2 * n {
            self.deferred.sort_unstable();
            self.deferred.dedup();
        }
        let (value, real) = root_value(tree, cores);
        let root_real = &mut self.real[root as usize];
        if root_real.to_bits() != real.to_bits() {
            if demands || self.value[root as usize].to_bits() != value.to_bits() {
                *root_real = real;
                self.from.push((0, root));
            } else {
                self.stale = true;
            }
        }
        self.stale |= !self.deferred.is_empty();
        if demands {
            for &i in &self.deferred {
                // A slot freed since holds another share, or none.
                if tree.slot(i as usize).is_some() {
                    self.from.push((depth(tree, i), i));
                }
            }
            self.deferred.clear();
            self.stale = false;
        }
        if self.from.is_empty() {
            return;
        }
        self.from.sort_unstable();
        self.from.dedup();
        self.value[root as usize] = value;
        self.walk(tree, false, ticket_ent, changes);
    }

    /// Splits the value of each node of `from` (and, below it, of each node
    /// whose value moved; of every node with `all`) among its participants.
    fn walk(
        &mut self,
        tree: &ShareTree,
        all: bool,
        ticket_ent: &mut [f64],
        changes: &mut Vec<(usize, f64, f64)>,
    ) {
        for k in 0..self.from.len() {
            self.stack.clear();
            self.stack.push(self.from[k].1);
            while let Some(i) = self.stack.pop() {
                let node = tree.at(i);
                let value = self.value[i as usize];
                let own = node.own_weight();
                let mut weight = u64::from(own);
                let mut taking = u32::from(own > 0);
                let mut currencies = false;
                for &c in &node.children {
                    let child = tree.at(c);
                    if child.active_below > 0 {
                        weight += u64::from(child.tickets);
                        taking += 1;
                        currencies |= is_currency(child);
                    }
                }
                // The water-filling is needed where it may raise the parts
                // (a currency below the root with two participants or more) or
                // feeds a currency below its real value. Elsewhere (a share
                // with no active share below it, the root of currencies that
                // hold no active currency) the split is by tickets whatever the
                // demands, which a level of 0 says to the demands' changes.
                let fill = currencies || (node.parent.is_some() && taking >= 2);
                let split = if fill {
                    self.water_fill(tree, i)
                } else {
                    self.level[i as usize] = 0.0;
                    Split::Tickets
                };
                let weight = weight as f64;
                let real = self.real[i as usize];
                let parts = &self.split;
                // Participant `k` (0: the node's own jobs, then its children).
                let part = |k: usize, tickets: u32| {
                    if value <= 0.0 || tickets == 0 {
                        return 0.0;
                    }
                    let by_tickets = f64::from(tickets) / weight;
                    match split {
                        Split::Tickets => value * f64::from(tickets) / weight,
                        Split::Raised => value * by_tickets.max(parts[k] / real),
                    }
                };
                note(ticket_ent, changes, i as usize, part(0, own));
                for (k, &c) in node.children.iter().enumerate() {
                    let child = tree.at(c);
                    let c = c as usize;
                    let (v, r) = match (child.active_below > 0, fill) {
                        (true, true) => (part(k + 1, child.tickets), self.split[k + 1]),
                        // Its real value is not computed: it is not needed
                        // before it becomes a currency, which re-splits this
                        // node.
                        (true, false) => (part(k + 1, child.tickets), 0.0),
                        (false, _) => (0.0, 0.0),
                    };
                    self.fed[c] = fill || child.active_below == 0;
                    let moved = self.value[c].to_bits() != v.to_bits()
                        || (self.real[c].to_bits() != r.to_bits() && is_currency(child));
                    self.value[c] = v;
                    self.real[c] = r;
                    if all || moved {
                        self.stack.push(c as u32);
                    }
                }
            }
        }
    }

    /// Water-fills node `i`'s real value among its participants (into
    /// `self.split`: its own jobs first, then its children in order) and says
    /// how its value is split.
    fn water_fill(&mut self, tree: &ShareTree, i: u32) -> Split {
        let node = tree.at(i);
        self.parts.clear();
        let own = node.own_weight();
        self.parts.push((f64::from(own), f64::from(node.demand)));
        for &c in &node.children {
            let child = tree.at(c);
            let w = child.weight_in_parent();
            self.parts.push((f64::from(w), child.demand_below as f64));
        }
        let real = self.real[i as usize];
        water_fill_into(real, &self.parts, &mut self.order, &mut self.split);
        let mut level = f64::INFINITY;
        let (mut saturated, mut taking) = (false, 0);
        for (&(w, cap), &e) in self.parts.iter().zip(&self.split) {
            if w <= 0.0 {
                continue;
            }
            taking += 1;
            if e >= cap {
                saturated = true;
            } else if level == f64::INFINITY {
                level = e / w;
            }
        }
        self.level[i as usize] = level;
        // One participant gets the whole value either way.
        if node.parent.is_none() || real <= 0.0 || taking < 2 || !saturated {
            Split::Tickets
        } else {
            Split::Raised
        }
    }
}

/// Whether a participant of `tickets` whose demand moved from `old` to `new`
/// was and stays unsaturated by a water-filling at `level` (with a margin far
/// above rounding): its water-filling, and the level, come out the same.
fn unsaturated(old: u64, new: u64, tickets: u32, level: f64) -> bool {
    if tickets == 0 {
        // It takes no part (a change of that is noted as a split's change).
        return true;
    }
    let at = level * f64::from(tickets) * (1.0 + 1e-9);
    old as f64 > at && new as f64 > at
}

/// How a node splits its value among its participants.
#[derive(Clone, Copy)]
enum Split {
    /// By tickets: the root, a node with one participant, and a node whose real
    /// value saturates none of its participants.
    Tickets,
    /// Each participant gets the larger of its part by tickets and its part by
    /// the water-filling of the real value. Those that want more than their
    /// tickets' worth get the water-filled part: the rate per core they are
    /// charged at is the node's, so they take what the others leave. Those that
    /// want less get their part by tickets (they keep their claim, and gain
    /// credit at the rate they leave cores unused), or what they want if that
    /// is more (the water-filling raised it above their tickets' worth).
    Raised,
}

/// Whether `node` has an active share below it (a currency its real value
/// splits among two participants or more, or one that it feeds).
fn is_currency(node: &Node) -> bool {
    node.active_below > u32::from(node.is_active())
}

/// The depth of node `i` (the root's is 0).
fn depth(tree: &ShareTree, i: u32) -> u32 {
    let mut depth = 0;
    let mut at = tree.at(i).parent;
    while let Some(p) = at {
        depth += 1;
        at = tree.at(p).parent;
    }
    depth
}

/// The root's value, all the cores while some share is active, and its real
/// value: as much of them as the shares want.
fn root_value(tree: &ShareTree, cores: f64) -> (f64, f64) {
    let root = tree.at(tree.root().index() as u32);
    if root.active_below > 0 {
        (cores, cores.min(root.demand_below as f64))
    } else {
        (0.0, 0.0)
    }
}

/// Sets `ticket_ent[i]` to `e`, noting the change if it moved.
fn note(ticket_ent: &mut [f64], changes: &mut Vec<(usize, f64, f64)>, i: usize, e: f64) {
    let old = ticket_ent[i];
    if old.to_bits() != e.to_bits() {
        ticket_ent[i] = e;
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
    // A ceiling is one more cap: neither the share's own jobs nor its subtree
    // absorb more cores than it (the water-filling gives the rest to the others).
    let ceiling = node.ceiling.map_or(f64::INFINITY, f64::from);
    let own = mode.absorbs(node.demand + lent, node.recent).min(ceiling);
    let mut total = own;
    for &c in &node.children {
        total += fill_caps(tree, c as usize, mode, s);
    }
    let total = total.min(ceiling);
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
        tree.slot(i).map_or(0.0, |n| {
            let ceiling = n.ceiling.map_or(f64::INFINITY, f64::from);
            mode.absorbs(n.demand, n.recent).min(ceiling)
        })
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
