//! The head start: a parallel iterator called from outside the pool folds its first
//! items on the calling thread, then hands the rest to the pool. Results must be the
//! same as always; long jobs must still reach the pool; length limits still hold.

use prorata::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

#[test]
fn results_equal_sequential_at_every_size_from_outside_the_pool() {
    for len in [0usize, 1, 2, 3, 5, 100, 1000, 4097, 65_537, 1_000_003] {
        let v: Vec<u64> = (0..len as u64).collect();
        let collected: Vec<u64> = v.par_iter().map(|x| x * 3).collect();
        assert_eq!(
            collected,
            v.iter().map(|x| x * 3).collect::<Vec<_>>(),
            "len {len}"
        );
        let sum: u64 = v.par_iter().sum();
        assert_eq!(sum, v.iter().sum::<u64>(), "len {len}");
        let evens: Vec<u64> = v.par_iter().copied().filter(|x| x % 2 == 0).collect();
        assert_eq!(
            evens,
            v.iter().copied().filter(|x| x % 2 == 0).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_long_job_from_outside_still_runs_in_the_pool() {
    let in_pool = AtomicUsize::new(0);
    (0..64usize).into_par_iter().for_each(|_| {
        std::thread::sleep(Duration::from_millis(1));
        if prorata::current_thread_index().is_some() {
            in_pool.fetch_add(1, Ordering::Relaxed);
        }
    });
    assert!(
        in_pool.into_inner() > 0,
        "no item of a 64 ms job ran on a pool worker"
    );
}

#[test]
fn runs_respect_min_len() {
    // Each fold group starts a new accumulator; with_min_len(1000) on 10_000 items
    // allows at most 10 groups, also for the runs of the head start.
    let groups: Vec<usize> = (0..10_000usize)
        .into_par_iter()
        .with_min_len(1000)
        .fold(|| 0usize, |n, _| n + 1)
        .collect();
    assert!(groups.len() <= 10, "{} groups", groups.len());
    assert!(
        groups.iter().all(|&n| n >= 1000 || groups.len() == 1),
        "{groups:?}"
    );
    assert_eq!(groups.iter().sum::<usize>(), 10_000);
}

#[test]
fn short_circuits_during_the_head_start() {
    let visited = AtomicUsize::new(0);
    let found = (0..1_000_000usize).into_par_iter().find_first(|&i| {
        visited.fetch_add(1, Ordering::Relaxed);
        i == 3
    });
    assert_eq!(found, Some(3));
    assert!(visited.into_inner() < 500_000);
}
