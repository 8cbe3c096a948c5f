//! The workloads of the overhead example and bench (`benches/overhead.rs`): written
//! once, instantiated for prorata and for Rayon, with their sequential versions.

#![allow(dead_code)] // each includer uses a part

use std::time::{Duration, Instant};

/// The parallel workloads, written once and instantiated for each library, so that
/// both run word for word the same code.
macro_rules! parallel_workloads {
    ($krate:ident) => {
        use $krate::prelude::*;

        pub fn fib(n: u32) -> u64 {
            if n < 2 {
                return n as u64;
            }
            let (a, b) = $krate::join(|| fib(n - 1), || fib(n - 2));
            a + b
        }

        pub fn map_sum(v: &[u64]) -> u64 {
            v.par_iter().map(|x| x * x % 7).sum()
        }

        pub fn map_collect(v: &[u64]) -> Vec<u64> {
            v.par_iter().map(|x| x ^ 0x5555).collect()
        }

        pub fn filter_count(v: &[u64]) -> usize {
            v.par_iter().filter(|x| *x % 3 == 0).count()
        }

        pub fn filter_collect(v: &[u64]) -> Vec<u64> {
            v.par_iter()
                .filter(|x| *x % 3 == 0)
                .map(|x| x / 3)
                .collect()
        }

        /// A balanced tree of `leaves` leaves through `join`, each spinning `leaf`.
        pub fn tree(leaves: usize, leaf: std::time::Duration) -> usize {
            if leaves == 1 {
                super::spin_for(leaf);
                return 1;
            }
            let (a, b) = $krate::join(
                || tree(leaves / 2, leaf),
                || tree(leaves - leaves / 2, leaf),
            );
            a + b
        }

        pub fn items(n: usize, item: std::time::Duration) -> usize {
            (0..n)
                .into_par_iter()
                .map(|_| super::spin_for(item))
                .count()
        }
    };
}

pub mod ours {
    parallel_workloads!(prorata);
}

pub mod theirs {
    parallel_workloads!(rayon);
}

/// The same workloads, sequentially.
pub mod sequential {
    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            n as u64
        } else {
            fib(n - 1) + fib(n - 2)
        }
    }

    pub fn map_sum(v: &[u64]) -> u64 {
        v.iter().map(|x| x * x % 7).sum()
    }

    pub fn map_collect(v: &[u64]) -> Vec<u64> {
        v.iter().map(|x| x ^ 0x5555).collect()
    }

    pub fn filter_count(v: &[u64]) -> usize {
        v.iter().filter(|x| *x % 3 == 0).count()
    }

    pub fn filter_collect(v: &[u64]) -> Vec<u64> {
        v.iter().filter(|x| *x % 3 == 0).map(|x| x / 3).collect()
    }
}

/// Busy-waits for `d` (a leaf of coarse work: the CPU stays busy, as real work would).
pub fn spin_for(d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}
