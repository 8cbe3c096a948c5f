//! Generators and adapters of other things: empty, once, repeat, repeat_n, split,
//! walk_tree*, par_bridge, Either, and tuples zipped (MultiZip).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::cases::{LENS, pool, pools};
use common::plumbing::to_vec;
use prorata::iter::{self, Either};
use prorata::prelude::*;

#[test]
fn empty_once_repeat() {
    assert_eq!(to_vec(iter::empty::<u8>()), Vec::<u8>::new());
    assert_eq!(to_vec(iter::once(4)), [4]);
    assert_eq!(
        to_vec(iter::once(4).zip(iter::empty::<u8>())),
        Vec::<(i32, u8)>::new()
    );
    for pool in pools() {
        for &len in LENS {
            let got = pool.install(|| to_vec(iter::repeat_n(String::from("ab"), len)));
            assert_eq!(got, vec![String::from("ab"); len]);
            let got = pool.install(|| to_vec(iter::repeat(7u8).take(len).rev()));
            assert_eq!(got, vec![7u8; len]);
            let got = pool.install(|| to_vec(iter::repeat('x').zip(0..len)));
            assert_eq!(got, std::iter::repeat('x').zip(0..len).collect::<Vec<_>>());
        }
    }
    #[allow(deprecated)]
    let old = iter::repeatn(1, 3);
    assert_eq!(to_vec(old), [1, 1, 1]);
}

#[test]
fn repeat_n_clones_all_but_one() {
    let live = AtomicUsize::new(0);
    struct Clones<'a>(&'a AtomicUsize);
    impl Clone for Clones<'_> {
        fn clone(&self) -> Self {
            self.0.fetch_add(1, Ordering::Relaxed);
            Clones(self.0)
        }
    }
    let clones = &live;
    assert_eq!(iter::repeat_n(Clones(clones), 1000).len(), 1000);
    let all = to_vec(iter::repeat_n(Clones(clones), 1000));
    assert_eq!(all.len(), 1000);
    assert!(live.load(Ordering::Relaxed) <= 999 + 64);
}

#[test]
fn repeat_n_clones_only_for_items_it_yields() {
    #[derive(Debug)]
    struct Clones<'a>(&'a AtomicUsize);
    impl Clone for Clones<'_> {
        fn clone(&self) -> Self {
            self.0.fetch_add(1, Ordering::Relaxed);
            Clones(self.0)
        }
    }
    for pool in pools() {
        for &len in LENS {
            let clones = AtomicUsize::new(0);
            let element = || Clones(&clones);
            let counted = pool.install(|| iter::repeat_n(element(), len).count());
            // As Rayon's, `count` makes (and drops) every item: n - 1 clones.
            assert_eq!(
                (counted, clones.swap(0, Ordering::Relaxed)),
                (len, len.saturating_sub(1)),
                "count"
            );
            let all: Vec<_> = pool.install(|| iter::repeat_n(element(), len).collect());
            // One clone per item but the last of each piece, one per split: n - 1.
            let made = clones.swap(0, Ordering::Relaxed);
            assert_eq!((all.len(), made), (len, len.saturating_sub(1)), "collect");
            let every_fifth: Vec<_> =
                pool.install(|| iter::repeat_n(element(), len).step_by(5).collect());
            let made = clones.swap(0, Ordering::Relaxed);
            assert_eq!(every_fifth.len(), len.div_ceil(5));
            // Skipped items are not made (a clone per item would be `len`); each piece's
            // copy may end unused, and how many pieces there are depends on stealing.
            assert!(made <= len / 4 + 64, "step_by: {made} clones for {len}");
        }
    }
}

#[test]
fn split_yields_every_piece_in_order() {
    for pool in pools() {
        let pieces = pool.install(|| {
            to_vec(iter::split(0..100_000usize, |r| {
                if r.len() < 1000 {
                    return (r, None);
                }
                let mid = r.start + r.len() / 2;
                (r.start..mid, Some(mid..r.end))
            }))
        });
        let flat: Vec<usize> = pieces.into_iter().flatten().collect();
        assert_eq!(flat, (0..100_000).collect::<Vec<_>>());
    }
}

/// A tree over `0..n`: node `k` has children `3k+1 ..= 3k+3` below `n`.
fn children(n: usize) -> impl Fn(&usize) -> Vec<usize> + Send + Sync {
    move |&k| (3 * k + 1..=3 * k + 3).filter(|&c| c < n).collect()
}

fn prefix_seq(k: usize, n: usize, out: &mut Vec<usize>) {
    out.push(k);
    for c in children(n)(&k) {
        prefix_seq(c, n, out);
    }
}

fn postfix_seq(k: usize, n: usize, out: &mut Vec<usize>) {
    for c in children(n)(&k) {
        postfix_seq(c, n, out);
    }
    out.push(k);
}

#[test]
fn walk_tree_orders_match_sequential_walks() {
    for pool in pools() {
        for n in [1, 2, 4, 13, 1000, 100_000] {
            let mut want = Vec::new();
            prefix_seq(0, n, &mut want);
            assert_eq!(
                pool.install(|| to_vec(iter::walk_tree_prefix(0, children(n)))),
                want
            );
            let mut want = Vec::new();
            postfix_seq(0, n, &mut want);
            assert_eq!(
                pool.install(|| to_vec(iter::walk_tree_postfix(0, children(n)))),
                want
            );
            let mut all = pool.install(|| to_vec(iter::walk_tree(0, children(n))));
            all.sort();
            assert_eq!(all, (0..n).collect::<Vec<_>>());
        }
    }
}

#[test]
fn walk_tree_orders_match_sequential_walks_with_uneven_fanout() {
    // Node `k` has `k % 4` children, `4k + 1 ..`, below `n`: leaves and fanouts of
    // one to three mixed through the tree.
    fn kids(n: u64) -> impl Fn(&u64) -> Vec<u64> + Send + Sync {
        move |&k| (4 * k + 1..=4 * k + k % 4).filter(|&c| c < n).collect()
    }
    fn seq(k: u64, n: u64, pre: &mut Vec<u64>, post: &mut Vec<u64>) {
        pre.push(k);
        for c in kids(n)(&k) {
            seq(c, n, pre, post);
        }
        post.push(k);
    }
    for pool in pools() {
        for n in [1u64, 3, 8, 100, 100_000] {
            // The root 3 has three children; 0 would have none.
            let (mut pre, mut post) = (Vec::new(), Vec::new());
            seq(3, n, &mut pre, &mut post);
            let got = pool.install(|| to_vec(iter::walk_tree_prefix(3, kids(n))));
            assert_eq!(got, pre);
            let got = pool.install(|| to_vec(iter::walk_tree_postfix(3, kids(n))));
            assert_eq!(got, post);
        }
    }
}

#[test]
fn walk_tree_on_a_chain() {
    let chain = |&k: &u32| if k < 5000 { vec![k + 1] } else { vec![] };
    assert_eq!(
        to_vec(iter::walk_tree_prefix(0u32, chain)),
        (0..=5000).collect::<Vec<_>>()
    );
    assert_eq!(
        to_vec(iter::walk_tree_postfix(0u32, chain)),
        (0..=5000).rev().collect::<Vec<_>>()
    );
}

#[test]
fn walk_tree_postfix_on_deep_branching_trees() {
    // A comb: node `k` below `n` has a leaf `n + k` and the next spine node `k + 1`, so
    // the tree is thousands of levels deep and branches at every level; a walk goes
    // deeper than any recursion it may use for shallow trees.
    fn comb(n: u32) -> impl Fn(&u32) -> Vec<u32> + Send + Sync {
        move |&k| if k < n { vec![n + k, k + 1] } else { vec![] }
    }
    fn seq(k: u32, n: u32, pre: &mut Vec<u32>, post: &mut Vec<u32>) {
        // Iterative twin of a recursive walk (the spine is too deep to recurse on).
        let mut spine = Vec::new();
        let mut k = k;
        while k < n {
            pre.push(k);
            pre.push(n + k);
            post.push(n + k);
            spine.push(k);
            k += 1;
        }
        pre.push(n);
        post.push(n);
        post.extend(spine.into_iter().rev());
    }
    for pool in pools() {
        for n in [0u32, 1, 100, 127, 128, 129, 300, 20_000] {
            let (mut pre, mut post) = (Vec::new(), Vec::new());
            seq(0, n, &mut pre, &mut post);
            let got = pool.install(|| to_vec(iter::walk_tree_postfix(0, comb(n))));
            assert_eq!(got, post, "postfix, n = {n}");
            let got = pool.install(|| to_vec(iter::walk_tree_prefix(0, comb(n))));
            assert_eq!(got, pre, "prefix, n = {n}");
            // Searches stop inside the walks, wherever the node lies.
            for target in [n / 2, n + n / 3, n] {
                let found = pool
                    .install(|| iter::walk_tree_postfix(0, comb(n)).find_first(|&k| k == target));
                assert_eq!(found, Some(target));
                let found =
                    pool.install(|| iter::walk_tree_postfix(0, comb(n)).find_any(|&k| k == target));
                assert_eq!(found, Some(target));
            }
            let sum: u64 =
                pool.install(|| iter::walk_tree_postfix(0, comb(n)).map(u64::from).sum());
            assert_eq!(sum, post.iter().copied().map(u64::from).sum::<u64>());
        }
    }
}

#[test]
fn par_bridge_yields_every_item_once() {
    for pool in pools() {
        for &len in LENS {
            let mut got = pool.install(|| to_vec((0..len).map(|x| x * 2).par_bridge()));
            got.sort();
            assert_eq!(got, (0..len).map(|x| x * 2).collect::<Vec<_>>());
        }
    }
}

#[test]
fn par_bridge_runs_items_in_parallel_with_other_work() {
    let count = AtomicUsize::new(0);
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    pool.install(|| {
        std::iter::from_fn(|| Some(1))
            .take(10_000)
            .par_bridge()
            .for_each(|x| {
                count.fetch_add(x, Ordering::Relaxed);
            })
    });
    assert_eq!(count.into_inner(), 10_000);
}

#[test]
fn either_is_a_parallel_iterator() {
    let pick = |left: bool| -> Either<
        prorata::range::Iter<usize>,
        prorata::iter::Rev<prorata::range::Iter<usize>>,
    > {
        if left {
            Either::Left((0..5).into_par_iter())
        } else {
            Either::Right((0..5).into_par_iter().rev())
        }
    };
    assert_eq!(to_vec(pick(true)), [0, 1, 2, 3, 4]);
    assert_eq!(to_vec(pick(false)), [4, 3, 2, 1, 0]);
    assert_eq!(
        to_vec(pick(false).zip(pick(true))),
        [(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)]
    );
}

#[test]
fn tuples_zip_like_std() {
    for pool in pools() {
        for &len in LENS {
            let a: Vec<usize> = (0..len).collect();
            let b: Vec<String> = (0..len + 3).map(|i| i.to_string()).collect();
            let mut c: Vec<u8> = vec![0; len];
            let got = pool.install(|| to_vec((&a, &b, 0..len).into_par_iter()));
            let want: Vec<_> = a
                .iter()
                .zip(&b)
                .zip(0..len)
                .map(|((x, y), z)| (x, y, z))
                .collect();
            assert_eq!(got, want);
            pool.install(|| {
                (&a, &mut c)
                    .into_par_iter()
                    .for_each(|(x, y)| *y = (*x % 256) as u8);
            });
            assert_eq!(c, a.iter().map(|x| (x % 256) as u8).collect::<Vec<_>>());
            let pair = (a.clone(), c.clone());
            assert_eq!(pair.par_iter().len(), len);
            let mut pair = pair;
            pair.par_iter_mut().for_each(|(x, y)| *x += *y as usize);
            let twelve = (&a, &a, &a, &a, &a, &a, &a, &a, &a, &a, &a, 0..len);
            let got = to_vec(twelve.into_par_iter().map(|t| t.0 + t.11));
            assert_eq!(got, (0..len).map(|i| 2 * i).collect::<Vec<_>>());
            let one = to_vec((&a,).into_par_iter().rev());
            assert_eq!(one, a.iter().rev().map(|x| (x,)).collect::<Vec<_>>());
        }
    }
}

/// A directory walker as crawlers write them: `next()` waits until a directory being
/// read elsewhere adds entries, and ends when nothing is queued or being read.
struct Walker<'a> {
    queue: &'a std::sync::Mutex<Vec<u32>>,
    /// Entries queued or taken but not yet read.
    pending: &'a AtomicUsize,
    /// Turns a livelock into a failure instead of a hung test run.
    watchdog: std::time::Instant,
}

impl Iterator for Walker<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        loop {
            if let Some(entry) = self.queue.lock().unwrap().pop() {
                return Some(entry);
            }
            if self.pending.load(Ordering::SeqCst) == 0 {
                return None;
            }
            // Not a timing: a walk of a few dozen entries that still waits after 20 s
            // waits for ever.
            let waited = self.watchdog.elapsed();
            assert!(
                waited.as_secs() < 20,
                "par_bridge livelocked: next() waits for ever"
            );
            std::thread::yield_now();
        }
    }
}

#[test]
fn par_bridge_finishes_a_walk_fed_by_its_own_items() {
    // Trees as children of each entry: a chain, a binary tree, a root with a few leaves.
    type Children = fn(u32) -> Vec<u32>;
    let shapes: [(&str, Children, usize); 3] = [
        ("chain", |n| if n < 40 { vec![n + 1] } else { vec![] }, 41),
        (
            "binary",
            |n| {
                if n < 63 {
                    vec![2 * n + 1, 2 * n + 2]
                } else {
                    vec![]
                }
            },
            127,
        ),
        ("tiny", |n| if n == 0 { vec![1, 2, 3] } else { vec![] }, 4),
    ];
    for pool in pools() {
        for (name, children, size) in shapes {
            for _ in 0..20 {
                let queue = std::sync::Mutex::new(vec![0]);
                let pending = AtomicUsize::new(1);
                let seen: Vec<AtomicUsize> = (0..size).map(|_| AtomicUsize::new(0)).collect();
                let walker = Walker {
                    queue: &queue,
                    pending: &pending,
                    watchdog: std::time::Instant::now(),
                };
                pool.install(|| {
                    walker.par_bridge().for_each(|entry| {
                        seen[entry as usize].fetch_add(1, Ordering::Relaxed);
                        let kids = children(entry);
                        pending.fetch_add(kids.len(), Ordering::SeqCst);
                        queue.lock().unwrap().extend(kids);
                        pending.fetch_sub(1, Ordering::SeqCst);
                    })
                });
                assert!(
                    seen.iter().all(|s| s.load(Ordering::Relaxed) == 1),
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn par_bridge_from_inside_its_own_items_does_not_deadlock() {
    // An iterator whose `next()` runs a parallel loop: while it waits for that loop,
    // its worker may steal another piece of the bridge, whose lock it holds.
    for pool in pools() {
        let total = pool.install(|| {
            (0..200u64)
                .map(|x| (0..100u64).into_par_iter().map(|y| x * y).sum::<u64>())
                .par_bridge()
                .sum::<u64>()
        });
        assert_eq!(total, (0..200u64).sum::<u64>() * (0..100u64).sum::<u64>());
    }
}

#[test]
fn par_bridge_pulls_no_item_past_a_short_circuit_on_one_worker() {
    // One item per lock, as in Rayon: `next()` runs once per item consumed, and not
    // again once the search has found its item (a batch would run it ahead).
    let pulled = AtomicUsize::new(0);
    let counted = || {
        (0..10_000u32).inspect(|_| {
            pulled.fetch_add(1, Ordering::Relaxed);
        })
    };
    let ours = pool(1).install(|| counted().par_bridge().find_any(|&x| x == 5));
    let our_pulls = pulled.swap(0, Ordering::Relaxed);
    let rayon_pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let theirs = rayon_pool.install(|| {
        let bridge = rayon::iter::ParallelBridge::par_bridge(counted());
        rayon::iter::ParallelIterator::find_any(bridge, |&x| x == 5)
    });
    let their_pulls = pulled.swap(0, Ordering::Relaxed);
    assert_eq!((ours, our_pulls), (Some(5), 6));
    assert_eq!((theirs, their_pulls), (Some(5), 6));
}

#[test]
fn walk_tree_prefix_searches_and_panics_across_runs_of_nodes() {
    // A tree of 100,000 nodes is handed to the folder in several runs: a search stops
    // in any of them with the sequential answer, and a panic of `children_of` in a
    // later run reaches the caller.
    let n = 100_000;
    let mut order = Vec::new();
    prefix_seq(0, n, &mut order);
    for pool in pools() {
        for &at in &[1, 1023, 1024, 1025, 5000, n / 2, n - 1] {
            let target = order[at];
            // The first node in prefix order at or above the target: many nodes
            // match, so the search must return the earliest one.
            let want = order.iter().copied().find(|&k| k >= target);
            let first = pool
                .install(|| iter::walk_tree_prefix(0, children(n)).find_first(|&k| k >= target));
            assert_eq!(first, want, "first node at or above {target}");
            assert!(pool.install(|| iter::walk_tree_prefix(0, children(n)).any(|k| k == target)));
            let found =
                pool.install(|| iter::walk_tree_prefix(0, children(n)).find_any(|&k| k == target));
            assert_eq!(found, Some(target));
        }
        let panicking = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.install(|| {
                iter::walk_tree_prefix(0usize, |&k: &usize| {
                    assert!(k != 90_000, "children of node 90000");
                    children(n)(&k)
                })
                .count()
            })
        }));
        let message = panicking.expect_err("the panic reaches the caller");
        let text = message
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| message.downcast_ref::<&str>().copied());
        assert_eq!(text, Some("children of node 90000"));
    }
}
