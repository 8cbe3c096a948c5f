//! `PRORATA_BARRIER=fence`: thieves pay a plain fence instead of a process-wide barrier
//! (and owners a fence at every `join`). The pool computes the same results, with
//! either deque, while thieves claim pending join frames and rob BWoS slots. One test
//! per file: the variable is read once per process, when the first deque is made.

use std::sync::atomic::{AtomicUsize, Ordering};

use prorata::prelude::*;
use prorata::{DequeKind, ThreadPoolBuilder};

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = prorata::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn fib_seq(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fib_seq(n - 1) + fib_seq(n - 2)
    }
}

#[test]
fn fences_instead_of_membarrier_give_the_same_results() {
    // SAFETY: nothing else runs in this process yet (this file's only test, before
    // its first pool), so no other thread reads or writes the environment.
    unsafe { std::env::set_var("PRORATA_BARRIER", "Fence") };
    for kind in [DequeKind::ChaseLev, DequeKind::Bwos] {
        let pool = ThreadPoolBuilder::new()
            .num_threads(4)
            .deque(kind)
            .build()
            .unwrap();
        assert_eq!(prorata::deque_bench::barrier_name(), "fence");
        for _ in 0..5 {
            assert_eq!(pool.install(|| fib(24)), fib_seq(24));
        }
        let v: Vec<u64> = (0..200_000).collect();
        let par: Vec<u64> = pool.install(|| v.par_iter().map(|x| x * 3 + 1).collect());
        let seq: Vec<u64> = v.iter().map(|x| x * 3 + 1).collect();
        assert_eq!(par, seq);
        // Every spawned job runs exactly once.
        let ran = AtomicUsize::new(0);
        pool.scope(|s| {
            for _ in 0..1000 {
                s.spawn(|_| {
                    ran.fetch_add(1, Ordering::Relaxed);
                });
            }
        });
        assert_eq!(ran.load(Ordering::Relaxed), 1000);
        let mut sorted: Vec<u64> = (0..100_000u64)
            .map(|i| i.wrapping_mul(2654435761) % 1000)
            .collect();
        let mut expect = sorted.clone();
        expect.sort();
        pool.install(|| sorted.par_sort());
        assert_eq!(sorted, expect);
    }
}
