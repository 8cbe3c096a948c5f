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

/// One thread publishes a job (a flag) and announces it with `announce`; worker
/// `worker` of a 2-worker pool looks for it and may go to sleep. The loop ends only when
/// the worker sees the job, so loom fails if it can sleep forever.
fn model_published_job_is_never_missed(worker: usize, announce: fn(&Sleep)) {
    loom::model(move || {
        let sleep = Arc::new(Sleep::new(2));
        let job = Arc::new(AtomicBool::new(false));
        let (s2, j2) = (Arc::clone(&sleep), Arc::clone(&job));
        let publisher = thread::spawn(move || {
            j2.store(true, Ordering::Release); // the push
            announce(&s2);
        });
        let never = CoreLatch::new();
        let mut idle = sleep.start_looking(worker);
        while !job.load(Ordering::Acquire) {
            sleep.no_work_found(&mut idle, &never, || job.load(Ordering::Acquire));
        }
        sleep.work_found();
        publisher.join().unwrap();
    });
}

#[test]
fn loom_injected_job_is_never_missed() {
    model_published_job_is_never_missed(0, |sleep| sleep.new_injected_jobs(1, true));
}

#[test]
fn loom_job_pushed_on_empty_deque_is_never_missed() {
    // Worker 0 pushes onto its empty deque; worker 1 must see the job or be woken.
    model_published_job_is_never_missed(1, |sleep| sleep.new_internal_jobs(1, true));
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
