//! position_*, positions and the comparisons (cmp, partial_cmp, eq, lt, ...) against
//! `std`, including short-circuiting.

mod iter_indexed_common;

use std::cmp::Ordering;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use iter_indexed_common::{LENGTHS, pools, to_vec};
use prorata::prelude::*;
use rand::{RngExt, SeedableRng, rngs::StdRng};

fn random(len: usize, seed: u64, range: u32) -> Vec<u32> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..len).map(|_| rng.random_range(0..range)).collect()
}

#[test]
fn positions_like_std() {
    for pool in pools() {
        for len in LENGTHS {
            for seed in 0..3 {
                let a = random(len, seed, 50_000);
                let hit = |x: &u32| x % 997 == 0;
                let first = a.iter().position(hit);
                let last = a.iter().rposition(hit);
                assert_eq!(pool.install(|| a.par_iter().position_first(hit)), first);
                assert_eq!(pool.install(|| a.par_iter().position_last(hit)), last);
                match pool.install(|| a.par_iter().position_any(hit)) {
                    Some(i) => assert!(hit(&a[i])),
                    None => assert_eq!(first, None),
                }
                let all: Vec<usize> = (0..len).filter(|&i| hit(&a[i])).collect();
                assert_eq!(pool.install(|| to_vec(a.par_iter().positions(hit))), all);
            }
        }
    }
}

#[test]
fn position_first_stops_early() {
    let visited = AtomicUsize::new(0);
    let found = (0..10_000_000usize)
        .into_par_iter()
        .with_min_len(1000)
        .position_first(|x| {
            visited.fetch_add(1, Relaxed);
            x == 10
        });
    assert_eq!(found, Some(10));
    // Each piece stops soon after the match is known; far fewer than all items.
    assert!(visited.into_inner() < 5_000_000);
}

#[test]
fn comparisons_like_std() {
    for pool in pools() {
        for len in LENGTHS {
            let a = random(len, 7, 3);
            let variants: Vec<Vec<u32>> = vec![
                a.clone(),
                a[..len.saturating_sub(1)].to_vec(),
                a.iter().copied().chain([1]).collect(),
                {
                    let mut b = a.clone();
                    if let Some(x) = b.get_mut(len / 2) {
                        *x += 1;
                    }
                    b
                },
                {
                    let mut b = a.clone();
                    if let Some(x) = b.last_mut() {
                        *x = x.saturating_sub(1);
                    }
                    b
                },
            ];
            for b in &variants {
                pool.install(|| {
                    assert_eq!(a.par_iter().cmp(b), a.iter().cmp(b.iter()));
                    assert_eq!(b.par_iter().cmp(&a), b.iter().cmp(a.iter()));
                    assert_eq!(a.par_iter().partial_cmp(b), a.iter().partial_cmp(b.iter()));
                    assert_eq!(a.par_iter().eq(b), a.iter().eq(b.iter()));
                    assert_eq!(a.par_iter().ne(b), a.iter().ne(b.iter()));
                    assert_eq!(a.par_iter().lt(b), a.iter().lt(b.iter()));
                    assert_eq!(a.par_iter().le(b), a.iter().le(b.iter()));
                    assert_eq!(a.par_iter().gt(b), a.iter().gt(b.iter()));
                    assert_eq!(a.par_iter().ge(b), a.iter().ge(b.iter()));
                });
            }
        }
    }
}

#[test]
fn partial_cmp_with_nan_like_std() {
    let a = [1.0, f64::NAN, 3.0];
    for b in [[1.0, 2.0, 3.0], [0.0, 2.0, 3.0], [1.0, f64::NAN, 3.0]] {
        assert_eq!(a.par_iter().partial_cmp(&b), a.iter().partial_cmp(b.iter()));
        assert_eq!(a.par_iter().lt(&b), a.iter().lt(b.iter()));
        assert_eq!(a.par_iter().eq(&b), a.iter().eq(b.iter()));
    }
}

#[test]
fn cmp_stops_at_the_first_difference() {
    let compared = AtomicUsize::new(0);
    let a = (0..10_000_000usize)
        .into_par_iter()
        .with_min_len(1000)
        .map(|x| {
            compared.fetch_add(1, Relaxed);
            x
        });
    let b = (0..10_000_000usize)
        .into_par_iter()
        .map(|x| if x == 5 { 0 } else { x });
    assert_eq!(a.cmp(b), Ordering::Greater);
    assert!(compared.into_inner() < 5_000_000);
}

#[test]
fn a_panic_in_a_predicate_reaches_the_caller() {
    let result = std::panic::catch_unwind(|| {
        (0..10_000usize)
            .into_par_iter()
            .position_last(|x| if x == 1234 { panic!("boom") } else { false })
    });
    assert!(result.is_err());
}
