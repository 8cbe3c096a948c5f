//! A ceiling on a share's cores (`Share::set_max_cores`) with real threads: a
//! lone share with a ceiling of 1 on a 2-worker pool never runs two of its
//! closures at once. Concurrency is counted by the closures themselves (an
//! atomic count of those running, and its maximum); nothing here asserts a
//! timing.

mod common;
use common::work::{one_at_a_time, spin};

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{Share, ShareError, ThreadPoolBuilder};

/// Runs `items` closures in `share` (a `par_iter`, split across its workers);
/// returns the most that ran at once.
fn most_at_once(share: &Share, items: usize) -> usize {
    let running = AtomicUsize::new(0);
    let most = AtomicUsize::new(0);
    share.install(|| {
        (0..items).into_par_iter().for_each(|i| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            for k in 0..20 {
                std::hint::black_box(spin((i + k) as u64));
            }
            running.fetch_sub(1, Ordering::SeqCst);
        });
    });
    most.load(Ordering::SeqCst)
}

#[test]
fn a_lone_share_with_a_ceiling_of_one_runs_one_worker_at_a_time() {
    let _turn = one_at_a_time();
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_cores(2)
        .build()
        .unwrap();
    let share = pool.share(100).unwrap();
    share.set_max_cores(Some(1)).unwrap();
    assert_eq!(share.max_cores(), Some(1));
    for _ in 0..5 {
        assert_eq!(most_at_once(&share, 20_000), 1, "two closures ran at once");
    }
    assert!(share.stats().core_time > Duration::ZERO);
}

#[test]
fn without_the_ceiling_the_same_share_runs_two_at_once() {
    // The control of the test above: the count does see two workers when both
    // may run (until it does, with a generous watchdog).
    let _turn = one_at_a_time();
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_cores(2)
        .build()
        .unwrap();
    let share = pool.share(100).unwrap();
    share.set_max_cores(Some(1)).unwrap();
    share.set_max_cores(None).unwrap();
    assert_eq!(share.max_cores(), None);
    let t0 = Instant::now();
    while most_at_once(&share, 20_000) < 2 {
        assert!(t0.elapsed() < Duration::from_secs(30), "never two at once");
    }
}

#[test]
fn a_ceiling_of_zero_is_an_error() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let share = pool.share(100).unwrap();
    assert_eq!(share.set_max_cores(Some(0)), Err(ShareError::ZeroCeiling));
    assert_eq!(share.max_cores(), None);
    assert!(
        ShareError::ZeroCeiling
            .to_string()
            .contains("at least one core")
    );
    // A huge ceiling is no limit, and still runs.
    share.set_max_cores(Some(usize::MAX)).unwrap();
    assert_eq!(share.install(|| 1 + 1), 2);
}
