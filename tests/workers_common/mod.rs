//! Helpers shared by the tests of what workers count and record (tests/pool_stats.rs,
//! tests/trace.rs).

use std::sync::atomic::{AtomicBool, Ordering};

/// A `join` whose first half waits for the second, which must therefore run on
/// another worker (stolen from the deque, or claimed from the pending frames). Call it
/// inside a pool of at least two workers.
pub fn join_run_elsewhere() {
    let taken = AtomicBool::new(false);
    prorata::join(
        || {
            while !taken.load(Ordering::Acquire) {
                std::hint::spin_loop();
            }
        },
        || taken.store(true, Ordering::Release),
    );
}
