//! Every consumer against its `std::iter` equivalent, over several lengths and pools.

mod common;

use common::cases::{for_all, noise};
use common::plumbing::to_vec;
use prorata::prelude::*;
use std::num::Wrapping;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

fn values(len: usize) -> Vec<u64> {
    (0..len).map(|i| noise(i) % 1000).collect()
}

#[test]
fn count_sum_product() {
    for_all(|len| {
        let v = values(len);
        assert_eq!((0..len).into_par_iter().count(), len);
        assert_eq!(
            v.par_iter().filter(|&&x| x < 500).count(),
            v.iter().filter(|&&x| x < 500).count()
        );
        assert_eq!(v.par_iter().sum::<u64>(), v.iter().sum::<u64>());
        assert_eq!(v.par_iter().copied().sum::<u64>(), v.iter().sum::<u64>());
        let wrapped = |x: &u64| Wrapping(*x | 1);
        assert_eq!(
            v.par_iter().map(wrapped).product::<Wrapping<u64>>(),
            v.iter().map(wrapped).product::<Wrapping<u64>>()
        );
        let floats: f64 = (0..len).into_par_iter().map(|i| i as f64).sum();
        assert_eq!(floats, (0..len).map(|i| i as f64).sum::<f64>());
    });
}

#[test]
fn reduce_and_reduce_with_keep_order() {
    for_all(|len| {
        let v = values(len);
        // Concatenation is associative but not commutative: only an in-order
        // reduction gives back the input.
        let concat = v.par_iter().map(|&x| vec![x]).reduce(Vec::new, |mut a, b| {
            a.extend(b);
            a
        });
        assert_eq!(concat, v);
        let reduced = v
            .par_iter()
            .map(|&x| Wrapping(x))
            .reduce(|| Wrapping(0), |a, b| a + b);
        assert_eq!(
            reduced,
            v.iter()
                .map(|&x| Wrapping(x))
                .fold(Wrapping(0), |a, b| a + b)
        );
        let with = v.par_iter().map(|&x| vec![x]).reduce_with(|mut a, b| {
            a.extend(b);
            a
        });
        assert_eq!(with, (len > 0).then(|| v.clone()));
    });
}

#[test]
fn fold_and_fold_with_keep_order() {
    for_all(|len| {
        let v = values(len);
        assert_eq!(to_vec(v.par_iter().copied()), v);
        let total: u64 = v.par_iter().fold(|| 0u64, |a, &x| a + x).sum();
        assert_eq!(total, v.iter().sum::<u64>());
        let pieces = v
            .par_iter()
            .fold_with(Vec::new(), |mut acc, &x| {
                acc.push(x);
                acc
            })
            .reduce(Vec::new, |mut a, b| {
                a.extend(b);
                a
            });
        assert_eq!(pieces, v);
    });
}

#[test]
fn try_fold_and_try_reduce() {
    for_all(|len| {
        let v = values(len);
        let expected = v.iter().sum::<u64>();
        let ok = v
            .par_iter()
            .try_fold(|| 0u64, |a, &x| a.checked_add(x))
            .try_reduce(|| 0, |a, b| a.checked_add(b));
        assert_eq!(ok, Some(expected));
        let ok_with = v
            .par_iter()
            .try_fold_with(0u64, |a, &x| a.checked_add(x))
            .try_reduce_with(|a, b| a.checked_add(b));
        // Every piece yields its accumulator, even an empty piece: never `None`.
        assert_eq!(ok_with, Some(Some(expected)));
        // u8 sums overflow as soon as there are a few items.
        let small = v.par_iter().map(|&x| (x % 200) as u8);
        let overflow = small
            .try_fold(|| 0u8, |a, x| a.checked_add(x))
            .try_reduce(|| 0, |a, b| a.checked_add(b));
        let std_overflow = v
            .iter()
            .map(|&x| (x % 200) as u8)
            .try_fold(0u8, |a, x| a.checked_add(x));
        assert_eq!(overflow.is_none(), std_overflow.is_none());
        if let Some(total) = overflow {
            assert_eq!(Some(total), std_overflow);
        }
    });
}

#[test]
fn try_reduce_with_result_and_control_flow() {
    for_all(|len| {
        let v = values(len);
        let bad = |x: u64| x == 999 || x == 998;
        let expected_err = v.iter().any(|&x| bad(x));
        let r: Result<u64, u64> = v
            .par_iter()
            .map(|&x| if bad(x) { Err(x) } else { Ok(x) })
            .try_reduce(|| 0, |a, b| Ok(a + b));
        match r {
            Ok(total) => {
                assert!(!expected_err);
                assert_eq!(total, v.iter().sum::<u64>());
            }
            Err(x) => assert!(expected_err && bad(x)),
        }
        let c = v
            .par_iter()
            .map(|&x| {
                if bad(x) {
                    ControlFlow::Break(x)
                } else {
                    ControlFlow::Continue(x)
                }
            })
            .try_reduce_with(|a, b| ControlFlow::Continue(a.max(b)));
        match c {
            None => assert_eq!(len, 0),
            Some(ControlFlow::Continue(m)) => {
                assert!(!expected_err);
                assert_eq!(Some(&m), v.iter().max());
            }
            Some(ControlFlow::Break(x)) => assert!(expected_err && bad(x)),
        }
    });
}

#[test]
fn for_each_with_and_init_see_every_item() {
    for_all(|len| {
        let v = values(len);
        let total = AtomicU64::new(0);
        v.par_iter().for_each_with(&total, |t, &x| {
            t.fetch_add(x, Ordering::Relaxed);
        });
        assert_eq!(total.swap(0, Ordering::Relaxed), v.iter().sum::<u64>());
        let inits = AtomicUsize::new(0);
        v.par_iter().for_each_init(
            || {
                inits.fetch_add(1, Ordering::Relaxed);
                Vec::new()
            },
            |seen, &x| {
                seen.push(x);
                total.fetch_add(x, Ordering::Relaxed);
            },
        );
        assert_eq!(total.into_inner(), v.iter().sum::<u64>());
        assert!(inits.into_inner() <= len.max(1));
    });
}

#[test]
fn try_for_each_family() {
    for_all(|len| {
        let v = values(len);
        let seen = AtomicU64::new(0);
        let ok: Result<(), u64> = v.par_iter().try_for_each(|&x| {
            seen.fetch_add(x, Ordering::Relaxed);
            Ok(())
        });
        assert_eq!(ok, Ok(()));
        assert_eq!(seen.into_inner(), v.iter().sum::<u64>());
        let err = v
            .par_iter()
            .try_for_each(|&x| if x == 500 { Err(x) } else { Ok(()) });
        assert_eq!(err.is_err(), v.contains(&500));
        let with = v
            .par_iter()
            .try_for_each_with(500u64, |bad, &x| if x == *bad { None } else { Some(()) });
        assert_eq!(with.is_none(), v.contains(&500));
        let init = v.par_iter().try_for_each_init(
            || 500u64,
            |bad, &x| {
                if x == *bad {
                    ControlFlow::Break(x)
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(init == ControlFlow::Break(500), v.contains(&500));
    });
}

#[test]
fn min_and_max_follow_std_on_ties() {
    for_all(|len| {
        // Many equal keys: (key, index) tells which of the equal items came back.
        let v: Vec<(u64, usize)> = (0..len).map(|i| (noise(i) % 10, i)).collect();
        let by_key = |p: &&(u64, usize)| p.0;
        let cmp_key = |a: &&(u64, usize), b: &&(u64, usize)| a.0.cmp(&b.0);
        assert_eq!(v.par_iter().min(), v.iter().min());
        assert_eq!(v.par_iter().max(), v.iter().max());
        assert_eq!(v.par_iter().min_by_key(by_key), v.iter().min_by_key(by_key));
        assert_eq!(v.par_iter().max_by_key(by_key), v.iter().max_by_key(by_key));
        assert_eq!(v.par_iter().min_by(cmp_key), v.iter().min_by(cmp_key));
        assert_eq!(v.par_iter().max_by(cmp_key), v.iter().max_by(cmp_key));
    });
}

#[test]
fn find_family() {
    for_all(|len| {
        let v = values(len);
        for target in [0u64, 500, 999, 1000] {
            let hit = |&&x: &&u64| x % 1000 == target;
            assert_eq!(v.par_iter().find_first(hit), v.iter().find(hit));
            assert_eq!(v.par_iter().find_last(hit), v.iter().rev().find(hit));
            let any = v.par_iter().find_any(hit);
            assert_eq!(any.is_some(), v.iter().any(|x| hit(&x)));
            assert!(any.is_none_or(|x| x % 1000 == target));
            assert_eq!(v.par_iter().any(|&x| x == target), v.contains(&target));
            assert_eq!(v.par_iter().all(|&x| x != target), !v.contains(&target));
            let pos = |(i, &x): (usize, &u64)| (x == target).then_some(i);
            let indexed = || (0..len).into_par_iter().map(|i| (i, &v[i]));
            assert_eq!(
                indexed().find_map_first(pos),
                v.iter().enumerate().find_map(pos)
            );
            assert_eq!(
                indexed().find_map_last(pos),
                v.iter().enumerate().rev().find_map(pos)
            );
            let some = indexed().find_map_any(pos);
            assert_eq!(some.is_some(), v.contains(&target));
            assert!(some.is_none_or(|i| v[i] == target));
        }
    });
}

#[test]
fn find_first_and_last_over_unindexed_chains() {
    for_all(|len| {
        let v = values(len);
        let odd = |&&x: &&u64| x % 2 == 1;
        let big = |x: &&u64| **x > 900;
        let par = || v.par_iter().filter(odd);
        let seq = || v.iter().filter(odd);
        assert_eq!(par().find_first(big), seq().find(big));
        assert_eq!(par().find_last(big), seq().rev().find(big));
        let nested = (0..len / 100 + 1).into_par_iter().flat_map(|c| {
            let end = ((c + 1) * 100).min(len);
            (c * 100).min(end)..end
        });
        let hit = |i: &usize| v[*i] > 900;
        assert_eq!(nested.clone().find_first(hit), (0..len).find(hit));
        assert_eq!(nested.find_last(hit), (0..len).rev().find(hit));
    });
}
