//! The cases every test runs through: pools of several sizes and lengths around the
//! drivers' cut-offs.

/// Worker counts of the pools: one worker, two, and more workers than cores (fewer
/// under Miri, which is slow).
pub const THREADS: &[usize] = if cfg!(miri) { &[1, 3] } else { &[1, 2, 8] };

/// Lengths: empty, one, two, small, around a leaf's safe-point run (4096), large
/// (small ones only under Miri).
pub const LENS: &[usize] = if cfg!(miri) {
    &[0, 1, 2, 7, 33]
} else {
    &[0, 1, 2, 7, 100, 4095, 4096, 4097, 100_000]
};

/// A pool of `threads` workers.
pub fn pool(threads: usize) -> prorata::ThreadPool {
    prorata::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// One pool of each size in [`THREADS`].
pub fn pools() -> Vec<prorata::ThreadPool> {
    THREADS.iter().map(|&n| pool(n)).collect()
}

/// Runs `f(threads)` inside a pool of each size in [`THREADS`].
pub fn on_pools(f: impl Fn(usize) + Sync) {
    for &n in THREADS {
        pool(n).install(|| f(n));
    }
}

/// Runs `check(len)` inside every pool, for every length in [`LENS`].
pub fn for_all(check: impl Fn(usize) + Sync) {
    for pool in pools() {
        for &len in LENS {
            pool.install(|| check(len));
        }
    }
}

/// A deterministic pseudo-random value for index `i` (no shared generator needed).
pub fn noise(i: usize) -> u64 {
    let mut x = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
