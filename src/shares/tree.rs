//! The share tree: which shares exist, how many tickets each holds in which
//! currency, how many cores each wants right now, and who lends tickets to whom.
//!
//! The root is the pool itself. A share made from a share is denominated in its
//! parent's currency: its tickets only say how the parent's value is split among the
//! parent's children (and the parent's own jobs), whatever the numbers elsewhere.

use super::error::ShareError;

/// A share in the tree. The generation catches the use of a retired share's slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct ShareId {
    index: u32,
    generation: u32,
}

impl ShareId {
    /// The slot of this share, usable to index per-share tables.
    pub(crate) fn index(self) -> usize {
        self.index as usize
    }
}

#[derive(Debug)]
pub(crate) struct Node {
    generation: u32,
    /// Weight among the parent's participants (for the root: its own jobs' weight).
    pub(crate) tickets: u32,
    pub(crate) parent: Option<u32>,
    pub(crate) children: Vec<u32>,
    /// Sum of the children's tickets, kept to reject overflow in O(1).
    children_tickets: u64,
    /// Workers of this share that hold or wait for a core.
    pub(crate) demand: u32,
    /// No demand now, but some a moment ago (within the activity memory): the
    /// share still counts as active for the ticket entitlements, so a short gap
    /// (between two calls, a worker blocked for a moment) keeps its claim.
    pub(crate) recent: bool,
    /// Borrowers this share lends its tickets to (one entry per blocked thread).
    pub(crate) lends_to: Vec<u32>,
    /// Number of lends this share currently receives.
    borrowed: u32,
    /// Shares of this subtree (itself included) with demand or `recent`.
    pub(crate) active_below: u32,
    /// Workers of this subtree (itself included) that hold or wait for a core:
    /// what the subtree can absorb.
    pub(crate) demand_below: u64,
    /// Retired: no new children, removed once empty.
    retiring: bool,
    /// The most cores this share's subtree (itself and the shares below it) may
    /// hold at once, if it has a ceiling (never 0: [`ShareTree::set_ceiling`]
    /// refuses it).
    pub(crate) ceiling: Option<u32>,
}

/// The currency graph. Slots are reused; ids carry a generation.
#[derive(Debug)]
pub(crate) struct ShareTree {
    nodes: Vec<Option<Node>>,
    generations: Vec<u32>,
    free: Vec<u32>,
    shutting_down: bool,
    /// Shares (the root included) whose own jobs want cores now or did a moment
    /// ago: those with demand or `recent`.
    active: u32,
    /// Lends in force (entries of every node's `lends_to`).
    lends: u32,
    /// Live shares with a ceiling on their cores.
    ceilings: u32,
    /// Nodes whose split among their active participants changed (who takes
    /// part, or a participant's tickets) since the ticket entitlements last
    /// followed: the highest such node of each change, whose subtree is all
    /// that the change moves (see [`super::entitlement::TicketSplit`]).
    pub(crate) split_changed: Vec<u32>,
    /// Slots removed since the ticket entitlements last followed.
    pub(crate) gone: Vec<u32>,
    /// Nodes whose own demand changed since the ticket entitlements last
    /// followed (the water-filling of each of their ancestors moves with it).
    pub(crate) demand_changed: Vec<u32>,
}

impl ShareTree {
    /// A tree holding only the root. `root_tickets` weighs the pool's own jobs
    /// (those not run inside any share) against its top-level shares.
    pub(crate) fn new(root_tickets: u32) -> Self {
        let root = Node::new(root_tickets.max(1), None);
        ShareTree {
            nodes: vec![Some(root)],
            generations: vec![0],
            free: Vec::new(),
            shutting_down: false,
            active: 0,
            lends: 0,
            ceilings: 0,
            split_changed: Vec::new(),
            gone: Vec::new(),
            demand_changed: Vec::new(),
        }
    }

    /// The pool itself.
    pub(crate) fn root(&self) -> ShareId {
        ShareId {
            index: 0,
            generation: 0,
        }
    }

    /// Number of slots (live or free); per-share tables have this length.
    pub(crate) fn slots(&self) -> usize {
        self.nodes.len()
    }

    /// The live node in slot `index`, if any.
    pub(crate) fn slot(&self, index: usize) -> Option<&Node> {
        self.nodes.get(index).and_then(Option::as_ref)
    }

    /// The id of the live share in slot `index`.
    pub(crate) fn id_at(&self, index: usize) -> Option<ShareId> {
        self.slot(index).map(|n| ShareId {
            index: index as u32,
            generation: n.generation,
        })
    }

    /// The node of a live share. Panics on a retired id: that is a bug in the caller.
    pub(crate) fn node(&self, id: ShareId) -> &Node {
        match self.slot(id.index()) {
            Some(n) if n.generation == id.generation => n,
            _ => panic!("prorata: use of a retired share id {id:?}"),
        }
    }

    fn node_mut(&mut self, id: ShareId) -> &mut Node {
        match self.nodes.get_mut(id.index()).and_then(Option::as_mut) {
            Some(n) if n.generation == id.generation => n,
            _ => panic!("prorata: use of a retired share id {id:?}"),
        }
    }

    fn at_mut(&mut self, index: u32) -> &mut Node {
        self.nodes[index as usize].as_mut().expect("live node")
    }

    /// Whether `id` names a live share.
    pub(crate) fn contains(&self, id: ShareId) -> bool {
        matches!(self.slot(id.index()), Some(n) if n.generation == id.generation)
    }

    /// Adds a share holding `tickets` of `parent`'s currency.
    pub(crate) fn add(&mut self, parent: ShareId, tickets: u32) -> Result<ShareId, ShareError> {
        if tickets == 0 {
            return Err(ShareError::ZeroTickets);
        }
        let p = self.node(parent);
        if self.shutting_down || p.retiring {
            return Err(ShareError::PoolShuttingDown);
        }
        if p.children_tickets + u64::from(tickets) > u64::from(u32::MAX) {
            return Err(ShareError::TicketOverflow);
        }
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.nodes.push(None);
                self.generations.push(0);
                (self.nodes.len() - 1) as u32
            }
        };
        let generation = self.generations[index as usize];
        let mut node = Node::new(tickets, Some(parent.index));
        node.generation = generation;
        self.nodes[index as usize] = Some(node);
        let p = self.node_mut(parent);
        p.children.push(index);
        p.children_tickets += u64::from(tickets);
        Ok(ShareId { index, generation })
    }

    /// Changes a share's tickets (inflation or deflation).
    pub(crate) fn set_tickets(&mut self, id: ShareId, tickets: u32) -> Result<(), ShareError> {
        if tickets == 0 {
            return Err(ShareError::ZeroTickets);
        }
        let old = self.node(id).tickets;
        match self.node(id).parent {
            None => {}
            Some(p) => {
                let parent = self.at_mut(p);
                let total = parent.children_tickets - u64::from(old) + u64::from(tickets);
                if total > u64::from(u32::MAX) {
                    return Err(ShareError::TicketOverflow);
                }
                parent.children_tickets = total;
            }
        }
        let n = self.node_mut(id);
        n.tickets = tickets;
        if n.active_below > 0 {
            // Its weight among its parent's participants and, for its own jobs,
            // among its own moved: both splits change.
            let parent = n.parent;
            self.note_split(id.index);
            if let Some(p) = parent {
                self.note_split(p);
            }
        }
        Ok(())
    }

    /// Stops the tree from taking new shares: `add` fails from now on.
    pub(crate) fn shut_down(&mut self) {
        self.shutting_down = true;
    }

    /// Marks a share for removal; it (and, recursively, retiring ancestors) leaves
    /// the tree once it has no children, no demand and no lends. Returns the
    /// ids actually removed, so that callers can reset per-slot state.
    pub(crate) fn retire(&mut self, id: ShareId) -> Vec<usize> {
        assert!(
            id != self.root(),
            "prorata: the root share cannot be retired"
        );
        self.node_mut(id).retiring = true;
        let mut removed = Vec::new();
        self.reap(id.index, &mut removed);
        removed
    }

    /// Removes retiring, empty shares from `index` upwards.
    fn reap(&mut self, mut index: u32, removed: &mut Vec<usize>) {
        loop {
            let n = self.at_mut(index);
            let empty = n.children.is_empty() && n.demand == 0 && n.borrowed == 0;
            if !(n.retiring && empty && n.lends_to.is_empty()) {
                return;
            }
            let (parent, tickets) = (n.parent.expect("root never retires"), n.tickets);
            let ceiling = n.ceiling.is_some();
            if n.recent {
                // It has no demand, but a moment ago it had: it stops counting.
                self.note_active(index, true, false);
            }
            if ceiling {
                self.ceilings -= 1;
            }
            self.nodes[index as usize] = None;
            self.generations[index as usize] = self.generations[index as usize].wrapping_add(1);
            self.free.push(index);
            self.gone.push(index);
            // Its demand may just have gone: its ancestors' splits follow
            // from its parent up (it has no slot to start from any more).
            self.demand_changed.push(parent);
            removed.push(index as usize);
            let p = self.at_mut(parent);
            p.children.retain(|&c| c != index);
            p.children_tickets -= u64::from(tickets);
            index = parent;
        }
    }

    /// One more (or one fewer) worker of `id` wants a core; returns the shares
    /// removed because a retiring share's last worker left.
    pub(crate) fn add_demand(&mut self, id: ShareId, delta: i32) -> Vec<usize> {
        let n = self.node_mut(id);
        let was = n.is_active();
        n.demand = n
            .demand
            .checked_add_signed(delta)
            .expect("demand underflow");
        let is = n.is_active();
        let mut at = Some(id.index);
        while let Some(i) = at {
            let n = self.at_mut(i);
            n.demand_below = n
                .demand_below
                .checked_add_signed(i64::from(delta))
                .expect("demand underflow");
            at = n.parent;
        }
        if self.demand_changed.last() != Some(&id.index) {
            self.demand_changed.push(id.index);
        }
        self.note_active(id.index, was, is);
        let mut removed = Vec::new();
        self.reap(id.index, &mut removed);
        removed
    }

    /// Marks `id` as recently active (or not): see [`Node::recent`].
    pub(crate) fn set_recent(&mut self, id: ShareId, recent: bool) {
        let n = self.node_mut(id);
        let was = n.is_active();
        n.recent = recent;
        let is = n.is_active();
        self.note_active(id.index, was, is);
    }

    /// How many shares (the root among them) have demand or are `recent`: two or
    /// more compete for the cores.
    pub(crate) fn active_shares(&self) -> u32 {
        self.active
    }

    /// Panics unless the kept counts of active shares and lends equal a count
    /// over every node.
    #[cfg(test)]
    pub(crate) fn check_counts(&self) {
        let mut lends = 0;
        for i in 0..self.nodes.len() {
            let Some(n) = self.slot(i) else { continue };
            let below: u32 = n.children.iter().map(|&c| self.at(c).active_below).sum();
            let own = u32::from(n.is_active());
            assert_eq!(n.active_below, own + below, "active shares below slot {i}");
            let below: u64 = n.children.iter().map(|&c| self.at(c).demand_below).sum();
            assert_eq!(
                n.demand_below,
                u64::from(n.demand) + below,
                "demand below slot {i}"
            );
            lends += n.lends_to.len() as u32;
        }
        assert_eq!(lends, self.lends, "lends out of step");
    }

    /// The live node in slot `index` (panics on a free slot).
    pub(crate) fn at(&self, index: u32) -> &Node {
        self.nodes[index as usize].as_ref().expect("live node")
    }

    /// Forgets the changes noted in `split_changed` and `gone` (the ticket
    /// entitlements followed them).
    pub(crate) fn clear_changes(&mut self) {
        self.split_changed.clear();
        self.gone.clear();
        self.demand_changed.clear();
    }

    /// Whether any share lends its tickets now.
    pub(crate) fn has_lends(&self) -> bool {
        self.lends > 0
    }

    /// Whether some live share has a ceiling on its cores.
    pub(crate) fn has_ceilings(&self) -> bool {
        self.ceilings > 0
    }

    /// Sets (or with `None` removes) the most cores `id`'s subtree may hold at
    /// once. A ceiling of 0 would mean "never run" (a hang, not a limit):
    /// refused with [`ShareError::ZeroCeiling`].
    pub(crate) fn set_ceiling(
        &mut self,
        id: ShareId,
        ceiling: Option<u32>,
    ) -> Result<(), ShareError> {
        if ceiling == Some(0) {
            return Err(ShareError::ZeroCeiling);
        }
        let n = self.node_mut(id);
        let had = n.ceiling.is_some();
        n.ceiling = ceiling;
        match (had, ceiling.is_some()) {
            (false, true) => self.ceilings += 1,
            (true, false) => self.ceilings -= 1,
            _ => {}
        }
        Ok(())
    }

    /// Slot `index` became active or stopped: the counts of active shares, its
    /// own subtree's and its ancestors', follow.
    fn note_active(&mut self, index: u32, was: bool, is: bool) {
        let up = match (was, is) {
            (false, true) => true,
            (true, false) => false,
            _ => return,
        };
        if up {
            self.active += 1;
        } else {
            self.active -= 1;
        }
        // The node's own jobs join or leave its split; each node whose subtree
        // starts or stops having an active share joins or leaves its parent's.
        // Each of these splits is noted: a node whose value comes out the same
        // may still split it anew (another participant took part meanwhile).
        self.note_split(index);
        let mut chain = true;
        let mut at = Some(index);
        while let Some(i) = at {
            let n = self.at_mut(i);
            if up {
                n.active_below += 1;
            } else {
                n.active_below -= 1;
            }
            chain &= n.active_below == u32::from(up);
            at = n.parent;
            if let (true, Some(p)) = (chain, at) {
                self.note_split(p);
            }
        }
    }

    /// The split of node `index` among its participants changed.
    fn note_split(&mut self, index: u32) {
        if self.split_changed.last() != Some(&index) {
            self.split_changed.push(index);
        }
    }

    /// `from` lends its tickets to `to` (a thread of `from` waits on `to`).
    pub(crate) fn lend(&mut self, from: ShareId, to: ShareId) {
        self.node(to);
        self.node_mut(from).lends_to.push(to.index);
        self.node_mut(to).borrowed += 1;
        self.lends += 1;
    }

    /// Ends one lend made by [`ShareTree::lend`]; returns removed shares.
    pub(crate) fn end_lend(&mut self, from: ShareId, to: ShareId) -> Vec<usize> {
        let lends = &mut self.node_mut(from).lends_to;
        let pos = lends.iter().position(|&b| b == to.index);
        lends.swap_remove(pos.expect("prorata: end_lend without lend"));
        self.node_mut(to).borrowed -= 1;
        self.lends -= 1;
        let mut removed = Vec::new();
        self.reap(to.index, &mut removed);
        if self.contains(from) {
            self.reap(from.index, &mut removed);
        }
        removed
    }
}

impl Node {
    /// The sum of its children's tickets.
    pub(crate) fn children_tickets(&self) -> u64 {
        self.children_tickets
    }

    /// Whether its own jobs want cores now or did a moment ago.
    pub(crate) fn is_active(&self) -> bool {
        self.demand > 0 || self.recent
    }

    /// The tickets its own jobs take part with in its split: its tickets
    /// while it is active, else none.
    pub(crate) fn own_weight(&self) -> u32 {
        if self.is_active() { self.tickets } else { 0 }
    }

    /// The tickets it takes part with in its parent's split: its tickets while
    /// an active share is below it (itself included), else none.
    pub(crate) fn weight_in_parent(&self) -> u32 {
        if self.active_below > 0 {
            self.tickets
        } else {
            0
        }
    }

    fn new(tickets: u32, parent: Option<u32>) -> Self {
        Node {
            generation: 0,
            tickets,
            parent,
            children: Vec::new(),
            children_tickets: 0,
            demand: 0,
            recent: false,
            lends_to: Vec::new(),
            borrowed: 0,
            active_below: 0,
            demand_below: 0,
            retiring: false,
            ceiling: None,
        }
    }
}
