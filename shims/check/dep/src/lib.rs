//! A library written against Rayon, as crates of the ecosystem are: it knows nothing of
//! prorata.

use rayon::prelude::*;

/// The sum of the squares of `0..n`, in parallel.
pub fn sum_of_squares(n: u64) -> u64 {
    (0..n).into_par_iter().map(|x| x * x).sum()
}

/// How many threads the pool running the caller has, and the index of the thread that
/// runs this, as Rayon sees them.
pub fn where_am_i() -> (usize, Option<usize>) {
    (rayon::current_num_threads(), rayon::current_thread_index())
}

/// `join` through rayon-core, the way crates that need only the pool call it.
pub fn fib(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    let (a, b) = rayon_core::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// An index map built and summed through indexmap's own parallel iterators.
pub fn indexmap_sum(n: u64) -> (usize, u64) {
    let map: indexmap::IndexMap<u64, u64> = (0..n).into_par_iter().map(|k| (k, 2 * k)).collect();
    (map.len(), map.par_values().sum())
}

/// A hash set built and summed through hashbrown's own parallel iterators.
pub fn hashbrown_sum(n: u64) -> (usize, u64) {
    let mut set = hashbrown::HashSet::new();
    set.par_extend((0..n).into_par_iter());
    (set.len(), set.par_iter().sum())
}

/// Sorts in parallel and builds a pool of its own, as some libraries do.
pub fn sorted_on_own_pool(mut v: Vec<u32>) -> Vec<u32> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    pool.install(|| v.par_sort_unstable());
    v
}

/// A pool built through Rayon's builder.
pub fn rayon_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

/// A pool built through rayon-core's builder.
pub fn rayon_core_pool(threads: usize) -> rayon_core::ThreadPool {
    rayon_core::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}
