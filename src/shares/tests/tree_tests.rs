use crate::shares::error::ShareError;
use crate::shares::tree::ShareTree;

#[test]
fn zero_tickets_is_rejected() {
    let mut t = ShareTree::new(100);
    let root = t.root();
    assert_eq!(t.add(root, 0), Err(ShareError::ZeroTickets));
    let a = t.add(root, 5).unwrap();
    assert_eq!(t.set_tickets(a, 0), Err(ShareError::ZeroTickets));
    assert_eq!(t.node(a).tickets, 5);
}

#[test]
fn sibling_ticket_overflow_is_rejected() {
    let mut t = ShareTree::new(100);
    let root = t.root();
    let a = t.add(root, u32::MAX - 10).unwrap();
    assert_eq!(t.add(root, 11), Err(ShareError::TicketOverflow));
    let b = t.add(root, 10).unwrap();
    assert_eq!(t.set_tickets(b, 11), Err(ShareError::TicketOverflow));
    // Children of another currency do not count against the root's total.
    assert!(t.add(a, u32::MAX).is_ok());
    t.set_tickets(a, 1).unwrap();
    assert!(t.add(root, 1000).is_ok());
}

#[test]
fn shutting_down_refuses_new_shares() {
    let mut t = ShareTree::new(100);
    let root = t.root();
    let a = t.add(root, 1).unwrap();
    t.shut_down();
    assert_eq!(t.add(root, 1), Err(ShareError::PoolShuttingDown));
    assert_eq!(t.add(a, 1), Err(ShareError::PoolShuttingDown));
}

#[test]
fn retired_share_leaves_when_empty() {
    let mut t = ShareTree::new(100);
    let root = t.root();
    let a = t.add(root, 1).unwrap();
    let b = t.add(a, 1).unwrap();
    t.add_demand(b, 1);
    // `a` has a child: it stays, and takes no new children.
    assert!(t.retire(a).is_empty());
    assert_eq!(t.add(a, 1), Err(ShareError::PoolShuttingDown));
    // `b` still runs: it stays until its last worker leaves, then `a` goes too.
    assert!(t.retire(b).is_empty());
    let removed = t.add_demand(b, -1);
    assert_eq!(removed, vec![b.index(), a.index()]);
    assert!(!t.contains(a) && !t.contains(b));
    assert!(t.node(root).children.is_empty());
    // Slots are reused with a new generation.
    let c = t.add(root, 7).unwrap();
    assert!(c.index() == a.index() || c.index() == b.index());
    assert!(t.contains(c) && !t.contains(a) && !t.contains(b));
}

#[test]
#[should_panic(expected = "retired share")]
fn stale_id_panics() {
    let mut t = ShareTree::new(100);
    let root = t.root();
    let a = t.add(root, 1).unwrap();
    t.retire(a);
    t.node(a);
}

#[test]
fn borrower_stays_while_lent_to() {
    let mut t = ShareTree::new(100);
    let root = t.root();
    let a = t.add(root, 1).unwrap();
    let b = t.add(root, 1).unwrap();
    t.lend(a, b);
    assert!(t.retire(b).is_empty());
    assert!(t.retire(a).is_empty());
    let mut removed = t.end_lend(a, b);
    removed.sort();
    let mut want = vec![a.index(), b.index()];
    want.sort();
    assert_eq!(removed, want);
}

#[test]
fn active_shares_count_demand_and_recent_activity() {
    let mut t = ShareTree::new(100);
    let root = t.root();
    let a = t.add(root, 1).unwrap();
    let b = t.add(a, 1).unwrap();
    assert_eq!(t.active_shares(), 0);
    t.add_demand(a, 1);
    t.add_demand(a, 1);
    assert_eq!(t.active_shares(), 1, "two workers of one share");
    t.add_demand(b, 1);
    t.add_demand(root, 1);
    assert_eq!(
        t.active_shares(),
        3,
        "a child share and the pool's own jobs"
    );
    // The last worker of `b` leaves; `b` stays active while it is recent.
    t.add_demand(b, -1);
    assert_eq!(t.active_shares(), 2);
    t.set_recent(b, true);
    assert_eq!(t.active_shares(), 3);
    t.set_recent(b, true);
    assert_eq!(t.active_shares(), 3, "marking twice counts once");
    // A recent share that is retired leaves the count as it leaves the tree.
    t.retire(b);
    assert!(!t.contains(b));
    assert_eq!(t.active_shares(), 2);
    // Recent with demand counts once; demand gone, recent cleared: not at all.
    t.set_recent(a, true);
    assert_eq!(t.active_shares(), 2);
    t.add_demand(a, -2);
    t.set_recent(a, false);
    t.add_demand(root, -1);
    assert_eq!(t.active_shares(), 0);
}
