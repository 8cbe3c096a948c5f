//! The library's Rayon calls run on prorata's pools, with prorata's results.

use prorata::prelude::*;

#[test]
fn a_rayon_library_runs_on_the_pool_that_installs_it() {
    let pool = prorata::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let (threads, index) = pool.install(dep::where_am_i);
    assert_eq!(threads, 3);
    assert!(index.is_some_and(|i| i < 3));
    assert_eq!(dep::where_am_i().1, None, "called from outside any pool");
}

#[test]
fn a_rayon_library_runs_in_a_share() {
    let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let share = pool.share(100).unwrap();
    let n = 100_000u64;
    assert_eq!(share.install(|| dep::sum_of_squares(n)), (0..n).map(|x| x * x).sum::<u64>());
    assert_eq!(share.install(|| dep::fib(20)), 6765);
    assert!(share.stats().jobs > 0);
}

#[test]
fn the_library_types_are_prorata_types() {
    // A pool the library built through Rayon's builder is a prorata pool: it has shares.
    let pool: prorata::ThreadPool = dep::rayon_pool(2);
    let share = pool.share(10).unwrap();
    assert_eq!(share.install(|| dep::fib(10)), 55);
    let core_pool: prorata::ThreadPool = dep::rayon_core_pool(1);
    assert_eq!(core_pool.install(dep::where_am_i), (1, Some(0)));
}

#[test]
fn crates_that_implement_rayons_traits_build_and_agree_with_std() {
    let n = 50_000u64;
    assert_eq!(dep::indexmap_sum(n), (n as usize, (0..n).map(|k| 2 * k).sum()));
    assert_eq!(dep::hashbrown_sum(n), (n as usize, (0..n).sum()));
    let v: Vec<u32> = (0..10_000u32).rev().collect();
    let mut expected = v.clone();
    expected.sort_unstable();
    assert_eq!(dep::sorted_on_own_pool(v), expected);
    let mixed: u64 = (0..1000u64).into_par_iter().map(|_| dep::fib(5)).sum();
    assert_eq!(mixed, 5000);
}
