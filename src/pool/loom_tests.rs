//! Loom models of the latch and the sleep/wake protocol (run by `ci/loom.sh`). Each model
//! is small: one or two threads, a few steps; loom explores every interleaving (and, with
//! the preemption bound of `ci/loom.sh`, the weak-memory outcomes it models) and fails on
//! a deadlock, that is a worker asleep that nobody will wake.

use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, Ordering};
use loom::thread;

use super::latch::CoreLatch;
use super::sleep::Sleep;

/// A worker waiting on a latch (the idle loop of `WorkerThread::wait_until`), with
/// nothing else to do.
fn wait_on(sleep: &Sleep, latch: &CoreLatch) {
    let mut idle = sleep.start_looking(0);
    while !latch.probe() {
        sleep.no_work_found(&mut idle, latch, || false);
    }
    sleep.work_found();
}

#[test]
fn loom_latch_set_wakes_the_waiter() {
    loom::model(|| {
        let sleep = Arc::new(Sleep::new(1));
        let latch = Arc::new(CoreLatch::new());
        let (s2, l2) = (Arc::clone(&sleep), Arc::clone(&latch));
        let setter = thread::spawn(move || {
            // SAFETY: the latch is kept alive by the Arc.
            if unsafe { CoreLatch::set(&*l2) } {
                s2.wake_specific_thread(0);
            }
        });
        wait_on(&sleep, &latch);
        setter.join().unwrap();
        assert_eq!(sleep.sleeping_threads(), 0);
    });
}

#[test]
fn loom_injected_job_is_never_missed() {
    loom::model(|| {
        let sleep = Arc::new(Sleep::new(1));
        let job = Arc::new(AtomicBool::new(false));
        let (s2, j2) = (Arc::clone(&sleep), Arc::clone(&job));
        let injector = thread::spawn(move || {
            j2.store(true, Ordering::Release); // the injector's push
            s2.new_injected_jobs(1, true);
        });
        // The worker: take the job or go to sleep; the terminate latch is never set, so
        // only the job can end this loop, and loom fails if the worker sleeps forever.
        let never = CoreLatch::new();
        let mut idle = sleep.start_looking(0);
        loop {
            if job.load(Ordering::Acquire) {
                // (A load, not a swap: the worker only has to notice the job.)
                break;
            }
            sleep.no_work_found(&mut idle, &never, || job.load(Ordering::Acquire));
        }
        sleep.work_found();
        injector.join().unwrap();
    });
}

#[test]
fn loom_latch_and_new_jobs_race() {
    loom::model(|| {
        let sleep = Arc::new(Sleep::new(1));
        let latch = Arc::new(CoreLatch::new());
        let (s2, l2) = (Arc::clone(&sleep), Arc::clone(&latch));
        let other = thread::spawn(move || {
            // Unrelated work is announced, then the latch is set.
            s2.new_internal_jobs(1, true);
            // SAFETY: the latch is kept alive by the Arc.
            if unsafe { CoreLatch::set(&*l2) } {
                s2.wake_specific_thread(0);
            }
        });
        wait_on(&sleep, &latch);
        other.join().unwrap();
    });
}
