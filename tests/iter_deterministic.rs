//! `deterministic()`: reductions give the same bits on pools of 1, 2, 3 and 8 workers
//! and from outside any pool, run after run, and follow the documented tree.

mod common;

use common::cases::{LENS, noise, pool};
use prorata::prelude::*;

/// Floats of very different magnitudes, so that the grouping of a sum shows in its
/// bits.
fn input(len: usize) -> Vec<f64> {
    (0..len)
        .map(|i| {
            let r = noise(i);
            let mantissa = (r % 2001) as f64 - 1000.0;
            mantissa * 10f64.powi((r >> 20) as i32 % 30 - 15)
        })
        .collect()
}

/// Runs `f` on pools of 1, 2, 3 and 8 workers, three times each, and from outside any
/// pool; returns every result.
fn everywhere<T: Send>(f: impl Fn() -> T + Sync) -> Vec<T> {
    let mut results = Vec::new();
    for threads in [1, 2, 3, 8] {
        let pool = pool(threads);
        for _ in 0..3 {
            results.push(pool.install(&f));
        }
    }
    results.push(f());
    results
}

fn assert_same_bits(name: &str, len: usize, results: Vec<f64>) {
    let first = results[0].to_bits();
    assert!(
        results.iter().all(|x| x.to_bits() == first),
        "{name}, {len} items: {results:?}"
    );
}

#[test]
fn reductions_give_the_same_bits_on_every_pool() {
    for &len in LENS.iter().chain(&[1_000_000]) {
        let v = input(len);
        let sum = everywhere(|| v.par_iter().deterministic().sum::<f64>());
        assert_same_bits("sum", len, sum);
        let mapped = everywhere(|| v.par_iter().deterministic().map(|x| x * 1.5).sum::<f64>());
        assert_same_bits("map, sum", len, mapped);
        let reduced = everywhere(|| {
            v.par_iter()
                .copied()
                .deterministic()
                .reduce(|| 0.0, |a, b| a + b)
        });
        assert_same_bits("reduce", len, reduced);
        let folded = everywhere(|| {
            v.par_iter()
                .deterministic()
                .fold(|| 0.0, |a, x| a + x)
                .sum::<f64>()
        });
        assert_same_bits("fold, sum", len, folded);
        let filtered = everywhere(|| {
            v.par_iter()
                .deterministic()
                .filter(|x| x.abs() > 1.0)
                .sum::<f64>()
        });
        assert_same_bits("filter, sum", len, filtered);
        let product = everywhere(|| {
            v.par_iter()
                .deterministic()
                .map(|x| 1.0 + x.signum() * 1e-3)
                .product::<f64>()
        });
        assert_same_bits("product", len, product);
        let fine = everywhere(|| v.par_iter().deterministic().with_leaf_len(1).sum::<f64>());
        assert_same_bits("leaves of one item", len, fine);
    }
}

#[test]
fn indexed_adaptors_after_it_keep_the_tree() {
    // `zip` drives through the adaptive driver, which follows the fixed leaf length.
    for &len in LENS {
        let (v, w) = (input(len), input(len + 7));
        let mut dots = Vec::new();
        for threads in [1, 2, 3, 8] {
            let pool = pool(threads);
            for _ in 0..3 {
                dots.push(pool.install(|| {
                    v.par_iter()
                        .deterministic()
                        .zip(&w)
                        .map(|(a, b)| a * b)
                        .sum::<f64>()
                }));
            }
        }
        assert_same_bits("zip, map, sum", len, dots);
    }
}

/// The documented tree, sequentially, for leaves shorter than a safe-point run: cut
/// at `len / 2` while that is at least `leaf`; a leaf is std's sum of its items added
/// to the empty sum; halves are added left to right.
fn tree_sum(v: &[f64], leaf: usize) -> f64 {
    let mid = v.len() / 2;
    if mid < leaf {
        return [std::iter::empty::<f64>().sum::<f64>(), v.iter().sum()]
            .into_iter()
            .sum();
    }
    let (left, right) = v.split_at(mid);
    [tree_sum(left, leaf), tree_sum(right, leaf)]
        .into_iter()
        .sum()
}

#[test]
fn the_sum_follows_the_documented_tree() {
    for &len in LENS {
        let v = input(len);
        for leaf in [1, 3, 1000, 2048] {
            let want = tree_sum(&v, leaf).to_bits();
            let got = everywhere(|| {
                v.par_iter()
                    .deterministic()
                    .with_leaf_len(leaf)
                    .sum::<f64>()
            });
            assert!(
                got.iter().all(|x| x.to_bits() == want),
                "{len} items, leaf {leaf}"
            );
        }
    }
}

#[test]
fn items_and_order_are_kept() {
    for &len in LENS {
        let v: Vec<u64> = (0..len as u64).collect();
        let got: Vec<u64> = pool(3).install(|| v.par_iter().copied().deterministic().collect());
        assert_eq!(got, v);
        let d = v.par_iter().deterministic();
        assert_eq!((d.len(), d.opt_len()), (len, Some(len)));
        assert_eq!(d.leaf_len(), len.div_ceil(64).clamp(1, 4096));
    }
}
