use crate::shares::entitlement::{
    Scratch, TicketSplit, entitlements, ticket_entitlements, ticket_entitlements_by_water_filling,
    water_fill,
};
use crate::shares::rng::XorShift;
use crate::shares::tree::{ShareId, ShareTree};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn ent(t: &ShareTree, cores: f64, id: ShareId) -> f64 {
    let mut s = Scratch::default();
    entitlements(t, cores, &mut s);
    s.out[id.index()]
}

#[test]
fn water_fill_splits_by_weight_and_respects_caps() {
    let out = water_fill(4.0, &[(3.0, 10.0), (1.0, 10.0)]);
    assert!(close(out[0], 3.0) && close(out[1], 1.0));
    // The capped participant's excess goes to the others, by weight.
    let out = water_fill(4.0, &[(9.0, 1.0), (1.0, 10.0), (2.0, 10.0)]);
    assert!(close(out[0], 1.0) && close(out[1], 1.0) && close(out[2], 2.0));
    // Not enough demand: everyone gets its cap.
    let out = water_fill(8.0, &[(1.0, 2.0), (5.0, 3.0), (0.0, 4.0)]);
    assert!(close(out[0], 2.0) && close(out[1], 3.0) && close(out[2], 0.0));
}

#[test]
fn top_level_shares_split_the_cores() {
    let mut t = ShareTree::new(100);
    let r = t.root();
    let fg = t.add(r, 900).unwrap();
    let bg = t.add(r, 100).unwrap();
    t.add_demand(fg, 8);
    t.add_demand(bg, 8);
    assert!(close(ent(&t, 8.0, fg), 7.2) && close(ent(&t, 8.0, bg), 0.8));
    // bg goes idle: fg gets everything (work conservation).
    t.add_demand(bg, -8);
    assert!(close(ent(&t, 8.0, fg), 8.0) && close(ent(&t, 8.0, bg), 0.0));
}

#[test]
fn currency_is_split_among_active_children_only() {
    let mut t = ShareTree::new(100);
    let r = t.root();
    let alice = t.add(r, 300).unwrap();
    let bob = t.add(r, 100).unwrap();
    let t1 = t.add(alice, 200).unwrap();
    let t2 = t.add(alice, 100).unwrap();
    for s in [bob, t1, t2] {
        t.add_demand(s, 4);
    }
    // alice is worth 3 of 4 cores, split 2:1.
    assert!(close(ent(&t, 4.0, t1), 2.0) && close(ent(&t, 4.0, t2), 1.0));
    assert!(close(ent(&t, 4.0, bob), 1.0));
    // t2 idle: t1 gets all of alice, bob is unaffected (inflation stays local).
    t.add_demand(t2, -4);
    assert!(close(ent(&t, 4.0, t1), 3.0) && close(ent(&t, 4.0, bob), 1.0));
    // Numbers in alice's currency do not matter in base units.
    t.set_tickets(t1, 2_000_000).unwrap();
    assert!(close(ent(&t, 4.0, t1), 3.0));
}

#[test]
fn demand_caps_flow_within_the_currency_first() {
    let mut t = ShareTree::new(100);
    let r = t.root();
    let alice = t.add(r, 100).unwrap();
    let bob = t.add(r, 100).unwrap();
    let t1 = t.add(alice, 100).unwrap();
    let t2 = t.add(alice, 100).unwrap();
    t.add_demand(t1, 1);
    t.add_demand(t2, 8);
    t.add_demand(bob, 8);
    // alice is worth 4 of 8 cores; t1 can use 1, so t2 gets 3.
    assert!(close(ent(&t, 8.0, t1), 1.0) && close(ent(&t, 8.0, t2), 3.0));
    assert!(close(ent(&t, 8.0, bob), 4.0));
}

#[test]
fn own_jobs_of_a_currency_compete_with_its_children() {
    let mut t = ShareTree::new(100);
    let r = t.root();
    let alice = t.add(r, 300).unwrap();
    let t1 = t.add(alice, 100).unwrap();
    t.add_demand(alice, 4);
    t.add_demand(t1, 4);
    // alice's own jobs weigh 300 against t1's 100.
    assert!(close(ent(&t, 4.0, alice), 3.0) && close(ent(&t, 4.0, t1), 1.0));
}

#[test]
fn lender_hands_its_value_to_the_borrower() {
    let mut t = ShareTree::new(100);
    let r = t.root();
    let a = t.add(r, 300).unwrap();
    let b = t.add(r, 100).unwrap();
    let c = t.add(r, 400).unwrap();
    t.add_demand(b, 8);
    t.add_demand(c, 8);
    assert!(close(ent(&t, 8.0, b), 1.6) && close(ent(&t, 8.0, c), 6.4));
    // A thread of a (no other work) waits on b: b computes with a's 300 tickets too.
    t.lend(a, b);
    assert!(close(ent(&t, 8.0, a), 0.0));
    assert!(close(ent(&t, 8.0, b), 4.0) && close(ent(&t, 8.0, c), 4.0));
    t.end_lend(a, b);
    assert!(close(ent(&t, 8.0, b), 1.6));
}

#[test]
fn pool_jobs_compete_as_root_tickets() {
    let mut t = ShareTree::new(100);
    let r = t.root();
    let a = t.add(r, 300).unwrap();
    t.add_demand(r, 4);
    t.add_demand(a, 4);
    assert!(close(ent(&t, 4.0, r), 1.0) && close(ent(&t, 4.0, a), 3.0));
}

/// Random changes to a tree of currencies: the ticket entitlements kept up to
/// date by the currencies whose split changed equal, bit for bit, those computed
/// from the root down after every change, each moved entitlement is reported
/// once with its old and new value, and (while no share lends) they equal the
/// water-filling's up to rounding.
#[test]
fn ticket_split_follows_the_tree_as_from_scratch() {
    for seed in 1..=200u64 {
        let mut rng = XorShift::new(seed);
        let mut t = ShareTree::new(100);
        let cores = [1.0, 8.0, 256.0][seed as usize % 3];
        let mut live = vec![t.root()];
        let mut demand: Vec<(ShareId, u32)> = Vec::new();
        let mut lends: Vec<(ShareId, ShareId)> = Vec::new();
        let mut split = TicketSplit::default();
        let mut ent = Vec::new();
        let mut changes = Vec::new();
        for step in 0..300 {
            let pick = |rng: &mut XorShift, n: usize| rng.next_u64() as usize % n;
            match rng.next_u64() % 9 {
                0 | 1 => {
                    let parent = live[pick(&mut rng, live.len())];
                    let tickets = 1 + (rng.next_u64() % 1000) as u32;
                    if let Ok(id) = t.add(parent, tickets) {
                        live.push(id);
                    }
                }
                2 | 3 => {
                    let s = live[pick(&mut rng, live.len())];
                    t.add_demand(s, 1);
                    demand.push((s, 1));
                }
                4 => {
                    if !demand.is_empty() {
                        let (s, _) = demand.swap_remove(pick(&mut rng, demand.len()));
                        if t.contains(s) {
                            t.add_demand(s, -1);
                        }
                    }
                }
                5 => {
                    let s = live[pick(&mut rng, live.len())];
                    if t.contains(s) {
                        let recent = rng.next_u64() % 2 == 0;
                        t.set_recent(s, recent);
                    }
                }
                6 => {
                    let s = live[pick(&mut rng, live.len())];
                    if t.contains(s) {
                        let _ = t.set_tickets(s, 1 + (rng.next_u64() % 1000) as u32);
                    }
                }
                7 => {
                    if live.len() > 1 {
                        let s = live[1 + pick(&mut rng, live.len() - 1)];
                        if t.contains(s) {
                            t.retire(s);
                        }
                    }
                }
                _ => {
                    if lends.is_empty() && rng.next_u64() % 4 == 0 {
                        let (a, b) = (
                            live[pick(&mut rng, live.len())],
                            live[pick(&mut rng, live.len())],
                        );
                        if a != b && t.contains(a) && t.contains(b) {
                            t.lend(a, b);
                            lends.push((a, b));
                        }
                    } else if let Some((a, b)) = lends.pop() {
                        t.end_lend(a, b);
                    }
                }
            }
            live.retain(|&s| t.contains(s));
            let before = ent.clone();
            changes.clear();
            // The demands' changes followed at every third step only.
            let demands = step % 3 == 0;
            split.follow(&t, cores, demands, &mut ent, &mut changes);
            t.clear_changes();
            // The changes take the old entitlements to the new ones.
            let mut replay = before.clone();
            replay.resize(ent.len(), 0.0);
            for &(i, old, new) in &changes {
                assert_eq!(
                    replay[i].to_bits(),
                    old.to_bits(),
                    "seed {seed} step {step}"
                );
                replay[i] = new;
            }
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&replay),
                bits(&ent),
                "seed {seed} step {step}: changes"
            );
            if !split.follows_demands() {
                continue;
            }
            let mut full = Scratch::default();
            ticket_entitlements(&t, cores, &mut full);
            assert_eq!(
                bits(&ent),
                bits(&full.out),
                "seed {seed} step {step}: from scratch"
            );
            if !t.has_lends() {
                // The root splits all the cores by tickets, as the water-filling
                // splits them when every share can absorb them all (its own jobs'
                // part, and that of a top-level share with no active share below);
                // below it the currencies raise their parts by their levels.
                let mut water = Scratch::default();
                ticket_entitlements_by_water_filling(&t, cores, &mut water);
                let root = t.root().index();
                let leaf = |n: &crate::shares::tree::Node| {
                    n.children.iter().all(|&c| t.at(c).active_below == 0)
                };
                let top = (0..ent.len()).filter(|&i| {
                    t.slot(i)
                        .is_some_and(|n| leaf(n) && (i == root || n.parent == Some(root as u32)))
                });
                for i in top {
                    let (a, b) = (ent[i], water.out[i]);
                    assert!(
                        (a - b).abs() <= 1e-12 * cores,
                        "seed {seed} step {step}: slot {i}: {a} against {b}"
                    );
                }
                // Every active share, and only those, competes.
                for (i, &e) in ent.iter().enumerate() {
                    let active = t.slot(i).is_some_and(|n| n.is_active());
                    assert_eq!(e > 0.0, active, "seed {seed} step {step}: slot {i}");
                }
            }
        }
    }
}

/// Demands that change again and again while they are not followed (quanta that
/// do not end: no worker waits for a core) leave a bounded list of changes to
/// follow, not one entry per change: a share made and dropped per call, for
/// hours, must not grow the allocator's memory.
#[test]
fn demand_changes_not_yet_followed_stay_bounded() {
    let mut t = ShareTree::new(100);
    let root = t.root();
    let tenant = t.add(root, 900).unwrap();
    let busy = t.add(root, 100).unwrap();
    t.add_demand(busy, 2);
    let mut split = TicketSplit::default();
    let (mut ent, mut changes) = (Vec::new(), Vec::new());
    split.follow(&t, 2.0, true, &mut ent, &mut changes);
    t.clear_changes();
    for _ in 0..10_000 {
        let request = t.add(tenant, 100).unwrap();
        t.add_demand(request, 1);
        split.follow(&t, 2.0, false, &mut ent, &mut changes);
        t.clear_changes();
        t.add_demand(request, -1);
        t.retire(request);
        split.follow(&t, 2.0, false, &mut ent, &mut changes);
        t.clear_changes();
        changes.clear();
        assert!(
            split.deferred_len() <= 2 * t.slots() + 8,
            "{}",
            split.deferred_len()
        );
    }
}
