//! The same workload written once for prorata and Rayon, and what the comparisons
//! share: a pool of each library, seeded inputs.

/// The same workload, with each library's prelude (and tree walks) in scope:
/// `(prorata, rayon)`, two closures.
#[allow(unused_macros)] // not every comparison writes its workload twice
macro_rules! both {
    ($body:expr) => {
        (
            || {
                #[allow(unused_imports)]
                use prorata::iter::{walk_tree_postfix, walk_tree_prefix};
                use prorata::prelude::*;
                $body
            },
            || {
                #[allow(unused_imports)]
                use rayon::iter::{walk_tree_postfix, walk_tree_prefix};
                use rayon::prelude::*;
                $body
            },
        )
    };
}

/// A pool of `workers` threads of each library: `(prorata, rayon)`.
#[allow(dead_code)] // not every comparison runs on pools of its own
pub fn pools(workers: usize) -> (prorata::ThreadPool, rayon::ThreadPool) {
    let ours = prorata::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .unwrap();
    let theirs = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .unwrap();
    (ours, theirs)
}

/// A seeded xorshift stream (`seed` odd), the same inputs on every run.
#[allow(dead_code)] // not every comparison draws inputs
pub fn xorshift(seed: u64) -> impl Iterator<Item = u64> {
    let mut x = seed | 1;
    std::iter::repeat_with(move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    })
}
