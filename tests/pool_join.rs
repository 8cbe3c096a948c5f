//! `join`, `join_context`, `install` and `scope`: results equal to the sequential ones.

use prorata::ThreadPoolBuilder;

mod common;

use common::work::{fib, fib_seq};

#[test]
fn join_from_outside_uses_global_pool() {
    assert_eq!(fib(20), fib_seq(20));
}

#[test]
fn join_on_pools_of_several_sizes() {
    for n in [1, 2, 3, 8] {
        let pool = ThreadPoolBuilder::new().num_threads(n).build().unwrap();
        assert_eq!(pool.install(|| fib(22)), fib_seq(22));
        assert_eq!(pool.join(|| fib(10), || fib(11)), (55, 89));
    }
}

#[test]
fn join_context_reports_migration() {
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    // One worker: nothing can be stolen.
    pool.install(|| {
        prorata::join_context(|a| assert!(!a.migrated()), |b| assert!(!b.migrated()));
    });
    // From outside any pool, the closures run on a pool thread: migrated.
    prorata::join_context(|a| assert!(a.migrated()), |b| assert!(b.migrated()));
}

#[test]
fn join_borrows_mutably() {
    let mut v: Vec<u64> = (0..10_000).collect();
    fn inc(s: &mut [u64]) {
        if s.len() <= 16 {
            s.iter_mut().for_each(|x| *x += 1);
        } else {
            let (l, r) = s.split_at_mut(s.len() / 2);
            prorata::join(|| inc(l), || inc(r));
        }
    }
    let pool = ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    pool.install(|| inc(&mut v));
    assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64 + 1));
}

#[test]
fn scope_spawns_all_jobs() {
    let pool = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let mut out = vec![0usize; 100];
    pool.scope(|s| {
        for (i, x) in out.iter_mut().enumerate() {
            s.spawn(move |s2| {
                *x = i;
                s2.spawn(|_| ());
            });
        }
    });
    assert_eq!(out, (0..100).collect::<Vec<_>>());
}

#[test]
fn install_returns_value_and_nests() {
    let a = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let b = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let r = a.install(|| {
        assert_eq!(prorata::current_num_threads(), 2);
        b.install(|| {
            assert_eq!(prorata::current_num_threads(), 3);
            fib(15)
        }) + a.install(|| fib(15))
    });
    assert_eq!(r, 2 * fib_seq(15));
}
