//! The kernel refuses `membarrier` (a seccomp filter, as container runtimes and
//! sandboxes install): before the first pool (at the query, or at the registration) or
//! later, at a thief's claim, after owners have taken their join frames back with only
//! a compiler fence. No thief panics, the pool computes the same results with either
//! deque, and a thief still claims the pending frame of an owner that runs without a
//! safe point: the process uses fences instead. Each case runs in a child process of
//! its own, since the filter and the barrier's mode are the process's.
#![cfg(target_os = "linux")]

mod common;

use std::time::{Duration, Instant};

use common::barrier::{Refuse, claimed_from_busy_owner, exercise, in_child, refuse_membarrier};
use prorata::deque_bench::barrier_name;
use prorata::{DequeKind, ThreadPool, ThreadPoolBuilder};

/// How long a child may take before it is killed (a thief that never claims leaves
/// its owner spinning for [`CLAIM_LIMIT`] per try).
const CHILD_LIMIT: Duration = Duration::from_secs(240);
/// How long an owner waits for a thief to claim its pending frame.
const CLAIM_LIMIT: Duration = Duration::from_secs(10);

fn pool(kind: DequeKind) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(2)
        .deque(kind)
        .build()
        .unwrap()
}

/// A thief claims the pending frame of a busy owner of `pool`, three times.
fn thieves_claim(pool: &ThreadPool) {
    for _ in 0..3 {
        assert!(
            claimed_from_busy_owner(pool, CLAIM_LIMIT),
            "no thief claimed the pending frame of a busy owner (barrier: {})",
            barrier_name()
        );
    }
}

/// The filter goes in before the first pool: thieves fence, and claim.
fn refused_before_the_first_pool(refuse: Refuse) {
    if !refuse_membarrier(refuse, libc::EPERM) {
        eprintln!("skipped: no seccomp filter for this architecture");
        return;
    }
    for kind in [DequeKind::ChaseLev, DequeKind::Bwos] {
        let pool = pool(kind);
        assert_eq!(barrier_name(), "fence");
        exercise(&pool);
        thieves_claim(&pool);
    }
}

#[test]
fn refused_at_the_query_before_the_first_pool() {
    if !in_child() {
        return common::barrier::run_in_child(
            "refused_at_the_query_before_the_first_pool",
            CHILD_LIMIT,
        );
    }
    refused_before_the_first_pool(Refuse::All);
}

#[test]
fn refused_at_the_registration_before_the_first_pool() {
    if !in_child() {
        return common::barrier::run_in_child(
            "refused_at_the_registration_before_the_first_pool",
            CHILD_LIMIT,
        );
    }
    refused_before_the_first_pool(Refuse::AllButQuery);
}

/// Pools run with `membarrier` (owners pay a compiler fence only), then the filter
/// goes in on every thread: the next claim's barrier is refused. The thief gives the
/// frame up (its owner takes it back), the process switches to fences, and thieves
/// claim again once the owners have seen the switch; a pool built afterwards works
/// too.
#[test]
fn refused_at_a_claim_after_pools_ran() {
    if !in_child() {
        return common::barrier::run_in_child("refused_at_a_claim_after_pools_ran", CHILD_LIMIT);
    }
    let pools = [pool(DequeKind::ChaseLev), pool(DequeKind::Bwos)];
    if barrier_name() != "membarrier" {
        eprintln!("skipped: the thieves' barrier is {} here", barrier_name());
        return;
    }
    for pool in &pools {
        exercise(pool);
        thieves_claim(pool);
    }
    if !refuse_membarrier(Refuse::All, libc::ENOSYS) {
        eprintln!("skipped: no seccomp filter for this architecture");
        return;
    }
    // Busy owners keep a frame pending until an idle thief's claim meets the filter.
    let start = Instant::now();
    while barrier_name() != "fence" {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no claim reached the refused barrier"
        );
        for pool in &pools {
            claimed_from_busy_owner(pool, Duration::from_millis(50));
        }
    }
    for pool in &pools {
        exercise(pool);
        thieves_claim(pool);
    }
    let late = pool(DequeKind::Bwos);
    exercise(&late);
    thieves_claim(&late);
}
