//! Every adaptor against its `std::iter` equivalent, over several lengths and pools.

mod common;

use common::cases::{for_all, noise};
use common::plumbing::{sorted, to_vec};
use prorata::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};

fn values(len: usize) -> Vec<u64> {
    (0..len).map(|i| noise(i) % 1000).collect()
}

#[test]
fn map_with_and_map_init() {
    for_all(|len| {
        let v = values(len);
        let expected: Vec<u64> = v.iter().map(|x| x + 7).collect();
        assert_eq!(
            to_vec(v.par_iter().map_with(7u64, |s, &x| x + *s)),
            expected
        );
        let inits = AtomicUsize::new(0);
        let init = || {
            inits.fetch_add(1, Ordering::Relaxed);
            7u64
        };
        assert_eq!(
            to_vec(v.par_iter().map_init(init, |s, &x| x + *s)),
            expected
        );
        assert!(inits.load(Ordering::Relaxed) <= len.max(1));
        // Indexed: through `enumerate`, which drives the producer.
        let indexed = to_vec(v.par_iter().map_init(init, |s, &x| x + *s).enumerate());
        let std_indexed: Vec<(usize, u64)> = expected.iter().copied().enumerate().collect();
        assert_eq!(indexed, std_indexed);
        let with = to_vec(v.par_iter().map_with(7u64, |s, &x| x + *s).enumerate());
        assert_eq!(with, std_indexed);
    });
}

#[test]
fn cloned_copied_inspect_update() {
    for_all(|len| {
        let v = values(len);
        let strings: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        assert_eq!(to_vec(strings.par_iter().cloned()), strings);
        assert_eq!(to_vec(v.par_iter().copied()), v);
        assert_eq!(to_vec(v.par_iter().copied().enumerate()).len(), len);
        let seen = AtomicUsize::new(0);
        let inspected = v.par_iter().inspect(|_| {
            seen.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(to_vec(inspected), v.iter().collect::<Vec<_>>());
        assert_eq!(seen.load(Ordering::Relaxed), len);
        let updated = v.par_iter().copied().update(|x| *x *= 3);
        assert_eq!(
            to_vec(updated.enumerate()),
            v.iter().map(|x| x * 3).enumerate().collect::<Vec<_>>()
        );
        assert_eq!(to_vec(strings.par_iter().cloned().enumerate()).len(), len);
        assert_eq!(to_vec(v.par_iter().inspect(|_| ()).enumerate()).len(), len);
    });
}

#[test]
fn filter_and_filter_map() {
    for_all(|len| {
        let v = values(len);
        let odd = |x: &&u64| **x % 2 == 1;
        assert_eq!(
            to_vec(v.par_iter().filter(odd)),
            v.iter().filter(odd).collect::<Vec<_>>()
        );
        let half = |x: &u64| (x % 2 == 0).then_some(x / 2);
        assert_eq!(
            to_vec(v.par_iter().filter_map(half)),
            v.iter().filter_map(half).collect::<Vec<_>>()
        );
        assert_eq!(
            v.par_iter().filter(odd).map(|x| x * 2).sum::<u64>(),
            v.iter().filter(odd).map(|x| x * 2).sum::<u64>()
        );
    });
}

#[test]
fn flat_map_flat_map_iter_flatten() {
    for_all(|len| {
        // Inner lengths 0..4 so that the total stays near `len * 1.5`.
        let lens: Vec<usize> = (0..len).map(|i| (noise(i) % 4) as usize).collect();
        let expected: Vec<usize> = lens.iter().flat_map(|&n| 0..n).collect();
        assert_eq!(to_vec(lens.par_iter().flat_map(|&n| 0..n)), expected);
        assert_eq!(to_vec(lens.par_iter().flat_map_iter(|&n| 0..n)), expected);
        assert_eq!(to_vec(lens.par_iter().map(|&n| 0..n).flatten()), expected);
        let vecs: Vec<Vec<usize>> = lens.iter().map(|&n| (0..n).collect()).collect();
        assert_eq!(to_vec(vecs.par_iter().flatten_iter().copied()), expected);
        // Nested parallel iterators of parallel iterators.
        let nested = (0..len.min(300))
            .into_par_iter()
            .flat_map(|i| (0..i % 7).into_par_iter().map(move |j| i * j));
        let std_nested: Vec<usize> = (0..len.min(300))
            .flat_map(|i| (0..i % 7).map(move |j| i * j))
            .collect();
        assert_eq!(to_vec(nested), std_nested);
    });
}

#[test]
fn chain_indexed_and_unindexed() {
    for_all(|len| {
        let v = values(len);
        let cut = len / 3;
        let expected: Vec<u64> = v.clone();
        let indexed = v[..cut].par_iter().chain(&v[cut..]).copied();
        assert_eq!(indexed.len(), len);
        assert_eq!(to_vec(indexed.clone()), expected);
        let enumerated = to_vec(indexed.enumerate());
        assert_eq!(
            enumerated,
            expected.iter().copied().enumerate().collect::<Vec<_>>()
        );
        let odd = |x: &&u64| **x % 2 == 1;
        let unindexed = v[..cut]
            .par_iter()
            .filter(odd)
            .chain(v[cut..].par_iter().filter(odd));
        assert_eq!(to_vec(unindexed), v.iter().filter(odd).collect::<Vec<_>>());
        let mixed = v[..cut].par_iter().chain(v[cut..].par_iter().filter(odd));
        let std_mixed: Vec<&u64> = v[..cut].iter().chain(v[cut..].iter().filter(odd)).collect();
        assert_eq!(to_vec(mixed), std_mixed);
    });
}

#[test]
fn intersperse_indexed_and_unindexed() {
    for_all(|len| {
        let v = values(len);
        let mut expected = Vec::new();
        for (i, &x) in v.iter().enumerate() {
            if i > 0 {
                expected.push(u64::MAX);
            }
            expected.push(x);
        }
        let indexed = v.par_iter().copied().intersperse(u64::MAX);
        assert_eq!(indexed.len(), expected.len());
        assert_eq!(to_vec(indexed.clone()), expected);
        let enumerated: Vec<u64> = to_vec(indexed.enumerate())
            .into_iter()
            .map(|(_, x)| x)
            .collect();
        assert_eq!(enumerated, expected);
        let unindexed = v.par_iter().copied().filter(|_| true).intersperse(u64::MAX);
        assert_eq!(to_vec(unindexed), expected);
        // Long empty stretches (the first one included) leave whole pieces without
        // items: no stray separator, none missing.
        let sparse = |i: &usize| i % 5000 > 4996 || *i + 1 == len;
        let std_sparse: Vec<usize> = (0..len).filter(sparse).collect();
        let mut expected_sparse = Vec::new();
        for (k, &i) in std_sparse.iter().enumerate() {
            if k > 0 {
                expected_sparse.push(usize::MAX);
            }
            expected_sparse.push(i);
        }
        let par_sparse = || {
            (0..len)
                .into_par_iter()
                .filter(sparse)
                .intersperse(usize::MAX)
        };
        assert_eq!(to_vec(par_sparse()), expected_sparse);
        assert_eq!(par_sparse().count(), expected_sparse.len());
        let found = par_sparse().find_first(|&x| x == usize::MAX || x + 1 == len);
        let std_found = expected_sparse
            .iter()
            .copied()
            .find(|&x| x == usize::MAX || x + 1 == len);
        assert_eq!(found, std_found);
    });
}

#[test]
fn while_some() {
    for_all(|len| {
        let v = values(len);
        assert_eq!(
            to_vec(v.par_iter().map(Some).while_some()),
            v.iter().collect::<Vec<_>>()
        );
        // With a `None`, exactly which items come before it is unspecified, but every
        // item passed is a `Some` of the input, and none is passed twice.
        let cut = v
            .par_iter()
            .enumerate()
            .map(|(i, x)| (*x != 500).then_some(i))
            .while_some();
        let got = to_vec(cut);
        let distinct: HashSet<usize> = got.iter().copied().collect();
        assert_eq!(distinct.len(), got.len());
        assert!(got.iter().all(|&i| v[i] != 500));
        if !v.contains(&500) {
            assert_eq!(got.len(), len);
        }
    });
}

#[test]
fn panic_fuse_passes_everything() {
    for_all(|len| {
        let v = values(len);
        assert_eq!(
            to_vec(v.par_iter().panic_fuse()),
            v.iter().collect::<Vec<_>>()
        );
        assert_eq!(to_vec(v.par_iter().panic_fuse().enumerate()).len(), len);
        assert_eq!(v.par_iter().filter(|_| true).panic_fuse().count(), len);
    });
}

#[test]
fn take_any_and_skip_any() {
    for_all(|len| {
        for n in [0, 1, len / 2, len, len + 5] {
            let taken = sorted((0..len).into_par_iter().take_any(n));
            assert_eq!(taken.len(), n.min(len));
            assert!(taken.windows(2).all(|w| w[0] < w[1]) && taken.iter().all(|&i| i < len));
            let skipped = sorted((0..len).into_par_iter().skip_any(n));
            assert_eq!(skipped.len(), len - n.min(len));
            assert!(skipped.windows(2).all(|w| w[0] < w[1]));
        }
    });
}

#[test]
fn take_any_while_and_skip_any_while() {
    for_all(|len| {
        let v = values(len);
        assert_eq!(v.par_iter().take_any_while(|_| true).count(), len);
        assert_eq!(v.par_iter().skip_any_while(|_| false).count(), len);
        assert_eq!(v.par_iter().skip_any_while(|_| true).count(), 0);
        let small = |x: &&u64| **x < 900;
        // Every item taken passes the predicate; every item that fails it survives
        // `skip_any_while`.
        assert!(to_vec(v.par_iter().take_any_while(small)).iter().all(small));
        let kept = to_vec(v.par_iter().enumerate().skip_any_while(|(_, x)| small(x)));
        let kept: HashSet<usize> = kept.into_iter().map(|(i, _)| i).collect();
        assert!(
            (0..len)
                .filter(|&i| !small(&&v[i]))
                .all(|i| kept.contains(&i))
        );
        if v.iter().any(|x| !small(&x)) {
            // The failing item itself is never taken.
            assert!(v.par_iter().take_any_while(small).count() < len);
        }
    });
}

/// Clones a (cloneable, printable) iterator and checks both copies give the same items.
fn clone_agrees<I>(iter: I)
where
    I: ParallelIterator<Item: PartialEq + std::fmt::Debug> + Clone + std::fmt::Debug,
{
    assert!(!format!("{iter:?}").is_empty());
    assert_eq!(to_vec(iter.clone()), to_vec(iter));
}

#[test]
fn adaptors_are_clone_and_debug() {
    let v: Vec<u32> = (0..50).collect();
    let nested: Vec<Vec<u32>> = vec![vec![1, 2], vec![3]];
    let r = || (0..50usize).into_par_iter();
    clone_agrees(r().map_with(1usize, |a, x| x + *a));
    clone_agrees(r().map_init(|| 1usize, |a, x| x + *a));
    clone_agrees(v.par_iter().cloned());
    clone_agrees(v.par_iter().copied());
    clone_agrees(r().inspect(|_| ()));
    clone_agrees(r().update(|x| *x += 1));
    clone_agrees(r().filter(|x| x % 2 == 0));
    clone_agrees(r().filter_map(|x| x.checked_sub(3)));
    clone_agrees(r().flat_map(|x| 0..x % 3));
    clone_agrees(r().flat_map_iter(|x| 0..x % 3));
    clone_agrees(r().map(|x| 0..x % 3).flatten());
    clone_agrees(nested.par_iter().flatten_iter());
    clone_agrees(r().chain(r()));
    clone_agrees(r().map(Some).while_some());
    clone_agrees(r().panic_fuse());
    clone_agrees(r().intersperse(7));
    // How many accumulators a fold yields depends on the splitting: compare totals.
    let fold = r().fold(|| 0, |a, x| a + x);
    assert!(!format!("{fold:?}").is_empty());
    assert_eq!(fold.clone().sum::<usize>(), fold.sum::<usize>());
    let fold_with = r().fold_with(0, |a, x| a + x);
    assert!(!format!("{fold_with:?}").is_empty());
    assert_eq!(fold_with.clone().sum::<usize>(), fold_with.sum::<usize>());
    let add = |a: usize, b: usize| Some(a + b);
    let try_fold = r().try_fold(|| 0, add);
    assert!(!format!("{try_fold:?}").is_empty());
    assert_eq!(
        try_fold.clone().try_reduce(|| 0, add),
        try_fold.try_reduce(|| 0, add)
    );
    let try_fold_with = r().try_fold_with(0, add);
    assert!(!format!("{try_fold_with:?}").is_empty());
    let twice = try_fold_with.clone().try_reduce(|| 0, add);
    assert_eq!(twice, try_fold_with.try_reduce(|| 0, add));
    assert_eq!(r().take_any(5).clone().count(), 5);
    assert_eq!(r().skip_any(5).clone().count(), 45);
    assert_eq!(r().take_any_while(|_| true).clone().count(), 50);
    assert_eq!(r().skip_any_while(|_| false).clone().count(), 50);
    assert!(!format!("{:?}", r().take_any(5)).is_empty());
}
