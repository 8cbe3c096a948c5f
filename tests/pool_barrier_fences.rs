//! Fences instead of `membarrier` for the thieves, chosen with `PRORATA_BARRIER=fence`
//! or on the builder (`ThreadPoolBuilder::thief_barrier`): thieves pay a plain fence
//! (and owners a fence at every `join`). The pool computes the same results, with
//! either deque, while thieves claim pending join frames and rob BWoS slots. The
//! barrier is the process's, so each case runs in a child process of its own.

mod common;

use std::time::Duration;

use common::barrier::{claimed_from_busy_owner, exercise, in_child, run_in_child};
use prorata::deque_bench::barrier_name;
use prorata::prelude::*;
use prorata::{DequeKind, ThiefBarrier, ThreadPool, ThreadPoolBuilder};

const CHILD_LIMIT: Duration = Duration::from_secs(240);

fn pool(kind: DequeKind, barrier: Option<ThiefBarrier>) -> ThreadPool {
    let builder = ThreadPoolBuilder::new().num_threads(2).deque(kind);
    match barrier {
        Some(barrier) => builder.thief_barrier(barrier),
        None => builder,
    }
    .build()
    .unwrap()
}

/// Results checked, and a thief claims the pending frame of a busy owner of `pool`.
fn works(pool: &ThreadPool) {
    exercise(pool);
    for _ in 0..3 {
        assert!(
            claimed_from_busy_owner(pool, Duration::from_secs(10)),
            "no thief claimed the pending frame of a busy owner (barrier: {})",
            barrier_name()
        );
    }
}

#[test]
fn fences_from_the_environment_give_the_same_results() {
    if !in_child() {
        return run_in_child(
            "fences_from_the_environment_give_the_same_results",
            CHILD_LIMIT,
        );
    }
    // SAFETY: nothing else runs in this process yet (the child runs this test alone,
    // before its first pool), so no other thread reads or writes the environment.
    unsafe { std::env::set_var("PRORATA_BARRIER", "Fence") };
    for kind in [DequeKind::ChaseLev, DequeKind::Bwos] {
        let pool = pool(kind, None);
        assert_eq!(barrier_name(), "fence");
        works(&pool);
    }
}

#[test]
fn fences_from_the_builder_give_the_same_results() {
    if !in_child() {
        return run_in_child("fences_from_the_builder_give_the_same_results", CHILD_LIMIT);
    }
    for kind in [DequeKind::ChaseLev, DequeKind::Bwos] {
        let pool = pool(kind, Some(ThiefBarrier::Fence));
        assert_eq!(barrier_name(), "fence");
        works(&pool);
    }
}

#[test]
fn fences_for_the_global_pool() {
    if !in_child() {
        return run_in_child("fences_for_the_global_pool", CHILD_LIMIT);
    }
    ThreadPoolBuilder::new()
        .num_threads(2)
        .thief_barrier(ThiefBarrier::Fence)
        .build_global()
        .unwrap();
    assert_eq!(barrier_name(), "fence");
    fn fib(n: u64) -> u64 {
        if n < 2 {
            return n;
        }
        let (a, b) = prorata::join(|| fib(n - 1), || fib(n - 2));
        a + b
    }
    assert_eq!(fib(22), 17711);
    let sum: u64 = (0..100_000u64).into_par_iter().map(|x| x * 2).sum();
    assert_eq!(sum, 99_999 * 100_000);
}

/// The builder's `Membarrier` wins over the environment, as `deque` does (where the
/// kernel gives `membarrier`).
#[test]
fn membarrier_from_the_builder_overrides_the_environment() {
    if !in_child() {
        return run_in_child(
            "membarrier_from_the_builder_overrides_the_environment",
            CHILD_LIMIT,
        );
    }
    // SAFETY: as in `fences_from_the_environment_give_the_same_results`.
    unsafe { std::env::set_var("PRORATA_BARRIER", "fence") };
    let pool = pool(DequeKind::ChaseLev, Some(ThiefBarrier::Membarrier));
    assert_ne!(
        barrier_name(),
        "fence",
        "where the kernel gives `membarrier`"
    );
    works(&pool);
}

/// A pool that asks for fences after pools ran with `membarrier` switches the process:
/// the running pools' owners fence from their next `join` on, and thieves claim from
/// them again once they have reached one.
#[test]
fn fences_from_a_later_builder_switch_running_pools() {
    if !in_child() {
        return run_in_child(
            "fences_from_a_later_builder_switch_running_pools",
            CHILD_LIMIT,
        );
    }
    let running = [
        pool(DequeKind::ChaseLev, None),
        pool(DequeKind::Bwos, Some(ThiefBarrier::Membarrier)),
    ];
    if barrier_name() != "membarrier" {
        eprintln!("skipped: the thieves' barrier is {} here", barrier_name());
        return;
    }
    running.iter().for_each(works);
    let fenced = pool(DequeKind::Bwos, Some(ThiefBarrier::Fence));
    assert_eq!(barrier_name(), "fence");
    running.iter().for_each(works);
    works(&fenced);
    // Nothing switches back.
    let later = pool(DequeKind::ChaseLev, Some(ThiefBarrier::Membarrier));
    assert_eq!(barrier_name(), "fence");
    works(&later);
}
