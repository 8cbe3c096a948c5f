//! A share's thread that the thread bound refused starts once the share may run
//! it, or once its one thread is stuck. Its own test binary, so that no other
//! test's shares compete and the bound (on unless `PRORATA_SHARE_THREAD_BOUND=0`)
//! can be set on for it alone; its tests run one at a time. No timing is asserted
//! (only a generous deadline, after which a test fails rather than hangs).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{MutexGuard, Once};
use std::time::{Duration, Instant};

use prorata::prelude::*;

mod common;
use common::work::{keep_busy, one_at_a_time, spin, three_equal_shares};

/// Turns the bound on (once, before any pool exists), and keeps the tests of
/// this binary from running at once.
fn bound_on() -> MutexGuard<'static, ()> {
    static SET: Once = Once::new();
    let guard = one_at_a_time();
    // SAFETY: set under the lock above before any pool of this binary exists;
    // the other test waits for the lock, and no other thread reads the
    // environment meanwhile.
    SET.call_once(|| unsafe { std::env::set_var("PRORATA_SHARE_THREAD_BOUND", "1") });
    guard
}

/// Three equal shares on 2 cores are worth two thirds of a core each, so a share
/// whose one thread holds a core may start no other: the second half of its
/// `join` waits in its deque. When the other two shares stop, the share is worth
/// both cores, and a second thread must start and take that half while the first
/// thread is still inside its own long half (a leaf loop that pushes nothing
/// more). Without that second look, the first half would run to its deadline
/// and the second would run after it, on the same thread.
#[test]
fn a_refused_thread_starts_once_the_other_shares_stop() {
    let _one_at_a_time = bound_on();
    let (_pool, a, others) = three_equal_shares();
    let stop_others = AtomicBool::new(false);
    let others_items = [AtomicU64::new(0), AtomicU64::new(0)];
    let first_half_started = AtomicBool::new(false);
    let second_half_ran = AtomicBool::new(false);
    let deadline = Duration::from_secs(20);
    let mut first_thread = None;
    let mut second_thread = None;
    let mut first_half_timed_out = false;
    std::thread::scope(|s| {
        // The other two shares run before the first share pushes its half.
        keep_busy(s, &others, &stop_others, &others_items);
        s.spawn(|| {
            let t0 = Instant::now();
            while !first_half_started.load(Ordering::Acquire) && t0.elapsed() < deadline {
                std::thread::yield_now();
            }
            stop_others.store(true, Ordering::Relaxed);
        });
        let second = AtomicUsize::new(usize::MAX);
        let (first, timed_out) = a.install(|| {
            prorata::join(
                || {
                    first_half_started.store(true, Ordering::Release);
                    let start = Instant::now();
                    // One leaf: it passes safe points, and pushes nothing.
                    let timed_out = (0..usize::MAX / 2)
                        .into_par_iter()
                        .with_min_len(usize::MAX / 2)
                        .try_for_each(|i| {
                            if second_half_ran.load(Ordering::Acquire) {
                                return Err(false);
                            }
                            if start.elapsed() > deadline {
                                return Err(true);
                            }
                            std::hint::black_box(spin(i as u64));
                            Ok(())
                        })
                        .err()
                        .unwrap_or(false);
                    (prorata::current_thread_index(), timed_out)
                },
                || {
                    second.store(
                        prorata::current_thread_index().unwrap_or(usize::MAX - 1),
                        Ordering::Relaxed,
                    );
                    second_half_ran.store(true, Ordering::Release);
                },
            )
            .0
        });
        first_thread = first;
        second_thread = Some(second.load(Ordering::Relaxed));
        first_half_timed_out = timed_out;
    });
    assert!(
        !first_half_timed_out,
        "the second half never ran beside the first"
    );
    assert_ne!(first_thread, second_thread, "both halves ran on one thread");
}

/// As above, but the first half spins outside prorata until the second half has
/// run (it passes no safe point, so the share never asks again), and once the
/// other shares stop, their workers sleep: nothing of the pool runs to notice
/// that the share is stuck. The permits' timer thread does, and starts the
/// share's second thread past the bound. Without it, the first half would spin
/// to its deadline.
#[test]
fn a_stuck_share_gets_its_thread_with_no_other_share_running() {
    let _one_at_a_time = bound_on();
    let (_pool, a, others) = three_equal_shares();
    let stop_others = AtomicBool::new(false);
    let others_items = [AtomicU64::new(0), AtomicU64::new(0)];
    let second_half_ran = AtomicBool::new(false);
    let deadline = Duration::from_secs(20);
    let mut first_half_timed_out = false;
    std::thread::scope(|s| {
        keep_busy(s, &others, &stop_others, &others_items);
        first_half_timed_out = a.install(|| {
            prorata::join(
                || {
                    stop_others.store(true, Ordering::Relaxed);
                    let start = Instant::now();
                    while !second_half_ran.load(Ordering::Acquire) {
                        if start.elapsed() > deadline {
                            return true;
                        }
                        std::hint::spin_loop();
                    }
                    false
                },
                || second_half_ran.store(true, Ordering::Release),
            )
            .0
        });
    });
    assert!(!first_half_timed_out, "the second half never ran");
}
