//! Unit tests of the pool's internals: the sleep protocol in the real pool.

use std::time::{Duration, Instant};

use super::ThreadPoolBuilder;
use super::global::current_registry;

/// Polls `cond` for up to 20 s (a liveness bound, not a timing assertion).
pub(super) fn eventually(mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

#[test]
fn idle_workers_fall_asleep_and_wake_for_work() {
    let pool = ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let registry = std::sync::Arc::clone(&pool.registry);
    for round in 0..3 {
        assert!(
            eventually(|| registry.sleep.sleeping_threads() == 4),
            "round {round}: idle workers never all slept"
        );
        // Work injected into a sleeping pool gets done, by every worker for a broadcast.
        assert_eq!(pool.broadcast(|c| c.index()), [0, 1, 2, 3]);
        assert_eq!(pool.install(|| current_registry().num_threads()), 4);
    }
}

#[test]
fn safe_point_is_a_no_op_without_shares() {
    super::safe_point();
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(super::safe_point);
}
