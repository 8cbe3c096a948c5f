//! `Option<C>` and `Result<C, E>`: the same answer as std, and an early stop.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::cases::{for_all, pools};
use common::drops::Board;
use common::plumbing::Unindexed;
use prorata::prelude::*;

#[test]
fn option_all_some_collects_everything() {
    for_all(|len| {
        let got: Option<Vec<usize>> = (0..len).into_par_iter().map(|x| Some(x * 2)).collect();
        assert_eq!(got, Some((0..len).map(|x| x * 2).collect()));
    });
}

#[test]
fn option_with_a_none_is_none() {
    for_all(|len| {
        for bad in [0, len / 2, len.saturating_sub(1)] {
            let f = |x: usize| (x != bad).then_some(x);
            let want: Option<Vec<usize>> = (0..len).map(f).collect();
            let got: Option<Vec<usize>> = (0..len).into_par_iter().map(f).collect();
            assert_eq!(got, want, "len {len}, None at {bad}");
            let got: Option<String> =
                Unindexed((0..len).into_par_iter().map(|x| f(x).map(|_| 'c'))).collect();
            assert_eq!(got.is_none(), len > 0);
        }
    });
}

#[test]
fn result_all_ok_collects_everything() {
    for_all(|len| {
        let got: Result<Vec<usize>, String> = (0..len).into_par_iter().map(Ok).collect();
        assert_eq!(got, Ok((0..len).collect()));
    });
}

#[test]
fn result_with_errors_returns_one_of_them() {
    for_all(|len| {
        let f = |x: usize| if x % 1000 == 999 { Err(x) } else { Ok(x) };
        let got: Result<Vec<usize>, usize> = (0..len).into_par_iter().map(f).collect();
        match got {
            Ok(v) => {
                assert!(len < 1000);
                assert_eq!(v, (0..len).collect::<Vec<_>>());
            }
            Err(x) => assert_eq!(x % 1000, 999, "an error that was produced"),
        }
    });
}

#[test]
fn result_of_unit_checks_every_item() {
    let ok: Result<(), usize> = (0..10_000usize).into_par_iter().map(|_| Ok(())).collect();
    assert_eq!(ok, Ok(()));
    let err: Result<(), usize> = (0..10_000usize)
        .into_par_iter()
        .map(|x| if x == 5000 { Err(x) } else { Ok(()) })
        .collect();
    assert_eq!(err, Err(5000));
}

#[test]
fn a_none_at_the_front_stops_a_single_worker_at_once() {
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let seen = AtomicUsize::new(0);
    let got: Option<Vec<usize>> = pool.install(|| {
        (0..100_000usize)
            .into_par_iter()
            .map(|x| {
                seen.fetch_add(1, Ordering::Relaxed);
                (x != 0).then_some(x)
            })
            .collect()
    });
    assert_eq!(got, None);
    assert_eq!(seen.into_inner(), 1, "no item after the None was looked at");
}

#[test]
fn an_error_at_the_front_stops_a_single_worker_at_once() {
    // With one worker the order of the pieces is fixed, so the stop is exact; with
    // several, how far the others get depends on scheduling and is not asserted.
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let seen = AtomicUsize::new(0);
    let got: Result<Vec<usize>, &str> = pool.install(|| {
        Unindexed((0..100_000usize).into_par_iter())
            .map(|x| {
                seen.fetch_add(1, Ordering::Relaxed);
                if x == 0 { Err("first") } else { Ok(x) }
            })
            .collect()
    });
    assert_eq!(got, Err("first"));
    assert_eq!(seen.into_inner(), 1);
}

#[test]
fn the_partial_collection_is_dropped() {
    for pool in pools() {
        let board = Board::new(10_000);
        let got: Option<Vec<_>> = pool.install(|| {
            (0..10_000usize)
                .into_par_iter()
                .map(|x| (x != 6000).then(|| board.item(x)))
                .collect()
        });
        assert!(got.is_none());
        board.assert_all_dropped_once();
    }
}
