//! Owning sources: Vec, Box<[T]>, arrays, Option, Result, and Vec::par_drain —
//! every item moved out or dropped exactly once, also when a consumer panics.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::cases::{LENS, pools};
use common::drops::Counted;
use common::plumbing::to_vec;
use prorata::prelude::*;

#[test]
fn vec_into_par_iter_moves_every_item_in_order() {
    for pool in pools() {
        for &len in LENS {
            let v: Vec<String> = (0..len).map(|i| i.to_string()).collect();
            let got = pool.install(|| to_vec(v.clone().into_par_iter()));
            assert_eq!(got, v);
            let got = pool.install(|| to_vec(v.clone().into_boxed_slice().into_par_iter().rev()));
            assert_eq!(got, v.iter().rev().cloned().collect::<Vec<_>>());
        }
    }
}

#[test]
fn references_to_boxed_slices_iterate_like_slices() {
    for pool in pools() {
        for &len in LENS {
            let mut boxed: Box<[usize]> = (0..len).collect();
            pool.install(|| {
                let shared: Vec<&usize> = to_vec((&boxed).into_par_iter());
                assert_eq!(shared, boxed.iter().collect::<Vec<_>>());
                to_vec((&mut boxed).into_par_iter().map(|x| *x *= 2));
            });
            assert_eq!(boxed.to_vec(), (0..len).map(|x| 2 * x).collect::<Vec<_>>());
        }
    }
}

#[test]
fn vec_items_not_yielded_are_dropped_once() {
    for pool in pools() {
        let live = AtomicUsize::new(0);
        let v: Vec<Counted<'_>> = (0..10_000).map(|i| Counted::new(i, &live)).collect();
        let kept = pool.install(|| to_vec(v.into_par_iter().skip(100).take(5000).step_by(7)));
        assert_eq!(kept.len(), 5000_usize.div_ceil(7));
        assert_eq!(live.load(Ordering::SeqCst), kept.len());
        drop(kept);
        assert_eq!(live.load(Ordering::SeqCst), 0);
        // Built but never driven.
        let v: Vec<Counted<'_>> = (0..100).map(|i| Counted::new(i, &live)).collect();
        drop(v.into_par_iter());
        assert_eq!(live.load(Ordering::SeqCst), 0);
    }
}

#[test]
fn a_consumer_panicking_half_way_leaks_and_double_drops_nothing() {
    for pool in pools() {
        let live = AtomicUsize::new(0);
        let v: Vec<Counted<'_>> = (0..100_000).map(|i| Counted::new(i, &live)).collect();
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| {
                v.into_par_iter().for_each(|c| {
                    if c.value == 50_000 {
                        panic!("consumer failed");
                    }
                })
            })
        }));
        assert!(result.is_err());
        assert_eq!(live.load(Ordering::SeqCst), 0);

        let mut v: Vec<Counted<'_>> = (0..100_000).map(|i| Counted::new(i, &live)).collect();
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| {
                v.par_drain(10..90_000).for_each(|c| {
                    if c.value == 45_000 {
                        panic!("consumer failed");
                    }
                })
            })
        }));
        assert!(result.is_err());
        assert_eq!(v.len(), 10 + 10_000);
        assert!(v[..10].iter().enumerate().all(|(i, c)| c.value == i));
        assert!(
            v[10..]
                .iter()
                .enumerate()
                .all(|(i, c)| c.value == 90_000 + i)
        );
        assert_eq!(live.load(Ordering::SeqCst), v.len());
        drop(v);
        assert_eq!(live.load(Ordering::SeqCst), 0);
    }
}

#[test]
fn par_drain_like_std_drain() {
    for pool in pools() {
        for &len in LENS {
            let v: Vec<usize> = (0..len).collect();
            for (lo, hi) in [
                (0, len),
                (0, 0),
                (len, len),
                (len / 3, len / 2),
                (1.min(len), len),
            ] {
                let mut ours = v.clone();
                let mut theirs = v.clone();
                let drained = pool.install(|| to_vec(ours.par_drain(lo..hi)));
                let want: Vec<usize> = theirs.drain(lo..hi).collect();
                assert_eq!(drained, want);
                assert_eq!(ours, theirs);
            }
            let mut ours = v.clone();
            drop(ours.par_drain(..len / 2));
            assert_eq!(ours, v[len / 2..]);
            if len > 0 {
                let mut ours = v.clone();
                let firsts = to_vec(ours.par_drain(..=len - 1).take(3));
                assert_eq!(firsts, v.iter().copied().take(3).collect::<Vec<_>>());
                assert!(ours.is_empty());
            }
        }
    }
}

#[test]
fn par_drain_drops_the_items_it_does_not_yield() {
    let live = AtomicUsize::new(0);
    let mut v: Vec<Counted<'_>> = (0..1000).map(|i| Counted::new(i, &live)).collect();
    let got = to_vec(v.par_drain(100..900).take(10));
    assert_eq!(
        got.iter().map(|c| c.value).collect::<Vec<_>>(),
        (100..110).collect::<Vec<_>>()
    );
    drop(got);
    assert_eq!(v.len(), 200);
    assert_eq!(live.load(Ordering::SeqCst), 200);
    drop(v);
    assert_eq!(live.load(Ordering::SeqCst), 0);
}

/// Rayon's texts (tests/rayon_compat.rs compares them with Rayon's own), and the
/// vector is left as it was.
#[test]
fn par_drain_out_of_bounds_panics_like_rayon() {
    let mut v = vec![1, 2, 3];
    let err = catch_unwind(AssertUnwindSafe(|| v.par_drain(1..5).len())).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert_eq!(msg, "range end Excluded(5) should be <= length 3");
    #[allow(clippy::reversed_empty_ranges)]
    let err = catch_unwind(AssertUnwindSafe(|| v.par_drain(2..1).len())).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert_eq!(
        msg,
        "range start Included(2) should be <= range end Excluded(1)"
    );
    assert_eq!(v, [1, 2, 3]);
}

#[test]
fn arrays_options_and_results() {
    let live = AtomicUsize::new(0);
    let arr: [Counted<'_>; 64] = std::array::from_fn(|i| Counted::new(i, &live));
    let got = to_vec(arr.into_par_iter().skip(10).take(5));
    assert_eq!(
        got.iter().map(|c| c.value).collect::<Vec<_>>(),
        [10, 11, 12, 13, 14]
    );
    drop(got);
    assert_eq!(live.load(Ordering::SeqCst), 0);

    let mut arr = [1, 2, 3];
    arr.par_iter_mut().for_each(|x| *x *= 2);
    assert_eq!(to_vec(arr.par_iter()), [&2, &4, &6]);
    assert_eq!(to_vec((&arr).into_par_iter().rev()), [&6, &4, &2]);

    assert_eq!(to_vec(Some(3).into_par_iter()), [3]);
    assert_eq!(to_vec(None::<u8>.into_par_iter()), Vec::<u8>::new());
    let mut o = Some(5);
    o.par_iter_mut().for_each(|x| *x += 1);
    assert_eq!(to_vec(o.par_iter()), [&6]);
    assert_eq!(to_vec(Some(1).into_par_iter().zip(Some(2))), [(1, 2)]);
    assert_eq!(to_vec(Some(1).into_par_iter().chunks(3)), [vec![1]]);

    let r: Result<u8, String> = Ok(7);
    assert_eq!(to_vec(r.par_iter()), [&7]);
    let e: Result<u8, String> = Err("no".into());
    assert_eq!(e.par_iter().len(), 0);
    assert_eq!(to_vec(e.into_par_iter()), Vec::<u8>::new());
    let mut r: Result<u8, ()> = Ok(1);
    r.par_iter_mut().for_each(|x| *x = 9);
    assert_eq!(to_vec(r.into_par_iter()), [9]);
}

#[test]
fn owned_items_cut_off_by_zip_take_and_chunks_are_dropped_once() {
    for pool in pools() {
        let live = AtomicUsize::new(0);
        let long: Vec<Counted<'_>> = (0..10_000).map(|i| Counted::new(i, &live)).collect();
        let short: Vec<Counted<'_>> = (0..3_000).map(|i| Counted::new(i, &live)).collect();
        let pairs = pool.install(|| to_vec(long.into_par_iter().zip(short).rev().take(1000)));
        assert_eq!(pairs.len(), 1000);
        assert!(
            pairs
                .iter()
                .all(|(a, b)| a.value == b.value && a.value >= 2000)
        );
        assert_eq!(live.load(Ordering::SeqCst), 2000);
        drop(pairs);
        assert_eq!(live.load(Ordering::SeqCst), 0);

        let v: Vec<Counted<'_>> = (0..10_000).map(|i| Counted::new(i, &live)).collect();
        let firsts = pool.install(|| {
            to_vec(
                v.into_par_iter()
                    .interleave_shortest((0..5).map(|i| Counted::new(i, &live)).collect::<Vec<_>>())
                    .chunks(3)
                    .map(|chunk| chunk.len()),
            )
        });
        assert_eq!(firsts, [3, 3, 3, 2]);
        assert_eq!(live.load(Ordering::SeqCst), 0);
    }
}

#[test]
fn an_array_consumer_panicking_half_way_drops_every_item_once() {
    for pool in pools() {
        let live = AtomicUsize::new(0);
        let arr: [Counted<'_>; 5000] = std::array::from_fn(|i| Counted::new(i, &live));
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| {
                arr.into_par_iter().for_each(|c| {
                    if c.value == 2500 {
                        panic!("consumer failed");
                    }
                })
            })
        }));
        assert!(result.is_err());
        assert_eq!(live.load(Ordering::SeqCst), 0);
    }
}
