//! The splitting drivers: every item reaches the consumer exactly once, in pieces
//! that respect the producer's length limits, on pools of several sizes.

mod common;

use common::cases::pools;
use prorata::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn every_item_once_through_map_and_for_each() {
    for pool in pools() {
        for len in [0usize, 1, 2, 7, 4095, 4096, 4097, 100_000] {
            let seen: Vec<AtomicUsize> = (0..len).map(|_| AtomicUsize::new(0)).collect();
            pool.install(|| {
                (0..len).into_par_iter().map(|i| i * 3).for_each(|x| {
                    seen[x / 3].fetch_add(1, Ordering::Relaxed);
                })
            });
            assert!(
                seen.iter().all(|c| c.load(Ordering::Relaxed) == 1),
                "len {len}"
            );
        }
    }
}

#[test]
fn enumerate_on_mutable_slices_matches_sequential() {
    for pool in pools() {
        let mut v = vec![0usize; 50_000];
        pool.install(|| v.par_iter_mut().enumerate().for_each(|(i, x)| *x = i * i));
        let expected: Vec<usize> = (0..50_000).map(|i| i * i).collect();
        assert_eq!(v, expected);
    }
}

#[test]
fn shared_slices_visit_every_element() {
    let v: Vec<u64> = (0..10_000).collect();
    let total = AtomicUsize::new(0);
    v.par_iter().for_each(|x| {
        total.fetch_add(*x as usize, Ordering::Relaxed);
    });
    assert_eq!(total.into_inner(), v.iter().sum::<u64>() as usize);
}

#[test]
fn a_panic_in_a_closure_reaches_the_caller() {
    let ran = Mutex::new(0);
    let result = std::panic::catch_unwind(|| {
        (0..1000usize).into_par_iter().for_each(|i| {
            *ran.lock().unwrap() += 1;
            if i == 500 {
                panic!("boom at 500");
            }
        })
    });
    let payload = result.unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"boom at 500"));
}
