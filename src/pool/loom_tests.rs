//! Loom models of the latch, the sleep/wake protocol and the pending join frames (run by
//! `ci/loom.sh`). Each model
//! is small: one or two threads, a few steps; loom explores every interleaving (and, with
//! the preemption bound of `ci/loom.sh`, the weak-memory outcomes it models) and fails on
//! a deadlock, that is a worker asleep that nobody will wake.

use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use loom::thread;

use super::flags::WorkerFlags;
use super::frames::FrameStack;
use super::latch::{CoreLatch, Latch, LockLatch};
use super::retire::Handoff;
use super::sleep::{Sleep, Slept};
use crate::deque::barrier;

/// A worker waiting on a latch (the idle loop of `WorkerThread::wait_until`), with
/// nothing else to do.
fn wait_on(sleep: &Sleep, latch: &CoreLatch) {
    let mut idle = sleep.start_looking(0);
    while !latch.probe() {
        let _ = sleep.no_work_found(&mut idle, latch, || false);
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
            let _ = sleep.no_work_found(&mut idle, &never, || job.load(Ordering::Acquire));
        }
        sleep.work_found();
        publisher.join().unwrap();
    });
}

#[test]
fn loom_injected_job_is_never_missed() {
    model_published_job_is_never_missed(0, |sleep| {
        sleep.new_injected_jobs(1, true);
    });
}

#[test]
fn loom_job_pushed_on_empty_deque_is_never_missed() {
    // Worker 0 pushes onto its empty deque; worker 1 must see the job or be woken.
    model_published_job_is_never_missed(1, |sleep| {
        sleep.new_internal_jobs(1, true);
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

/// A job that does nothing: the frame models only hand `JobRef`s around. Not zero-sized,
/// so that each has its own address (a `JobRef`'s identity); aligned as every job is
/// (`JobRef::new`).
#[repr(align(2))]
struct Nop(#[allow(dead_code)] u8);

impl super::job::Job for Nop {
    unsafe fn execute(_this: *const Self) {}
}

static NOP: [Nop; 2] = [Nop(0), Nop(1)];

fn nop_job(i: usize) -> super::job::JobRef {
    // SAFETY: a static job, never executed by the models.
    unsafe { super::job::JobRef::new(&NOP[i]) }
}

/// Pushes frame `i` as a `join` does (the first frame of a job goes the slow way).
fn push_frame(frames: &FrameStack, i: usize) -> usize {
    match frames.fast_index(usize::from(i > 0)) {
        Some(index) => {
            // SAFETY: the index just read, with a limit below the capacity.
            unsafe { frames.record_fast(index, nop_job(i)) };
            index
        }
        None => frames.push_slow(nop_job(i)).expect("below the capacity"),
    }
}

/// The owner records `frames` join frames and takes them back innermost first, while a
/// thief claims the oldest pending one: every frame ends with exactly one of them (the
/// owner runs it inline, or the thief got it), never both, never neither. What the thief
/// writes when it claims a frame (a join's latch) is visible to the owner once it finds
/// the frame gone (loom reports a data race otherwise).
fn model_owner_and_thief(n: usize) {
    loom::model(move || {
        let frames = Arc::new(FrameStack::new());
        let latch = Arc::new(loom::cell::UnsafeCell::new(0_usize));
        let thief_frames = Arc::clone(&frames);
        let thief_latch = Arc::clone(&latch);
        let thief = thread::spawn(move || {
            thief_frames
                // SAFETY: written only here, read by the owner after the claim.
                .claim_oldest(&barrier::Owner::new(), |_| {
                    thief_latch.with_mut(|l| unsafe { *l = 1 })
                })
                .map(|job| job.id())
        });
        let indices: Vec<usize> = (0..n).map(|i| push_frame(&frames, i)).collect();
        let inline: Vec<bool> = indices
            .iter()
            .rev()
            .map(|&i| {
                let ran_inline = frames.pop(i);
                if !ran_inline {
                    // SAFETY: the thief wrote it before handing the frame out.
                    assert_eq!(latch.with(|l| unsafe { *l }), 1);
                }
                ran_inline
            })
            .collect();
        let claimed = thief.join().unwrap();
        for (k, &ran_inline) in inline.iter().rev().enumerate() {
            let by_thief = claimed == Some(nop_job(k).id());
            assert!(
                ran_inline != by_thief,
                "frame {k}: inline {ran_inline}, claimed {by_thief}"
            );
        }
        assert!(!frames.has_pending());
    });
}

#[test]
fn loom_a_frame_goes_to_the_owner_or_the_thief() {
    model_owner_and_thief(1);
}

#[test]
fn loom_the_thief_claims_the_oldest_of_two_frames() {
    model_owner_and_thief(2);
}

/// The owner publishes its oldest frame (as when a thief asks) while a thief claims:
/// the frame goes to exactly one of the deque and the thief; the owner then takes it back
/// as gone.
#[test]
fn loom_publication_and_claim_race() {
    loom::model(|| {
        let frames = Arc::new(FrameStack::new());
        let index = push_frame(&frames, 0);
        let thief_frames = Arc::clone(&frames);
        let thief = thread::spawn(move || {
            thief_frames
                .claim_oldest(&barrier::Owner::new(), |_| {})
                .is_some()
        });
        let published = frames.publish_oldest(|_| {}).is_some();
        let claimed = thief.join().unwrap();
        let inline = frames.pop(index);
        assert_eq!(
            [published, claimed, inline].iter().filter(|&&b| b).count(),
            1,
            "published {published}, claimed {claimed}, inline {inline}"
        );
    });
}

/// Isolation (`isolate.rs`): a worker enters its region (`WorkerThread::set_region`)
/// before it records the region's frames, and a thief that claims one reads the
/// owner's region after the claim (`Registry::claim_frame_in`): it sees that region,
/// never the outer one, which would run the region's job outside the region. The owner
/// leaves the region only once its frame is done (here: after the thief returned).
fn model_claimed_frame_region(enter_first: bool) {
    loom::model(move || {
        let frames = Arc::new(FrameStack::new());
        let region = Arc::new(AtomicUsize::new(0));
        let (thief_frames, thief_region) = (Arc::clone(&frames), Arc::clone(&region));
        let thief = thread::spawn(move || {
            thief_frames
                .claim_oldest(&barrier::Owner::new(), |_| {})
                .map(|_| thief_region.load(Ordering::SeqCst))
        });
        if enter_first {
            region.swap(7, Ordering::SeqCst);
        }
        let index = push_frame(&frames, 0);
        if !enter_first {
            region.swap(7, Ordering::SeqCst);
        }
        let _ = frames.pop(index);
        if let Some(seen) = thief.join().unwrap() {
            assert_eq!(seen, 7, "a frame of region 7 claimed as region {seen}'s");
        }
        region.swap(0, Ordering::SeqCst);
    });
}

#[test]
fn loom_a_claimed_frame_belongs_to_its_owners_region() {
    model_claimed_frame_region(true);
}

/// The model above fails when the worker records a frame before entering its region.
#[test]
#[should_panic(expected = "claimed as region 0")]
fn loom_a_frame_recorded_before_the_region_is_claimed_outside_it() {
    model_claimed_frame_region(false);
}

/// The kernel refuses `membarrier` at a claim, after the owner took frames back with a
/// compiler fence only (no fence to loom; see `deque/barrier.rs`): the thief gives the
/// claim up and the process switches to fences. The owner records two frames, takes
/// the newer back, says that it fences (as a worker does at a join's slow path or a
/// request), and takes the older back, while a thief tries two claims: the second
/// may succeed only after the owner's word. Every frame ends with exactly one of them.
#[test]
fn loom_a_refused_barrier_gives_the_claim_up() {
    loom::model(|| {
        barrier::loom_refused_membarrier();
        let frames = Arc::new(FrameStack::new());
        let word = Arc::new(barrier::Owner::new());
        let (thief_frames, thief_word) = (Arc::clone(&frames), Arc::clone(&word));
        let thief = thread::spawn(move || {
            (0..2)
                .filter_map(|_| thief_frames.claim_oldest(&thief_word, |_| {}))
                .map(|job| job.id())
                .collect::<Vec<_>>()
        });
        let older = push_frame(&frames, 0);
        let newer = push_frame(&frames, 1);
        let newer_inline = frames.pop(newer);
        word.note();
        let older_inline = frames.pop(older);
        let claimed = thief.join().unwrap();
        for (k, ran_inline) in [(0, older_inline), (1, newer_inline)] {
            let by_thief = claimed.contains(&nop_job(k).id());
            assert!(
                ran_inline != by_thief,
                "frame {k}: inline {ran_inline}, claimed {by_thief}"
            );
        }
        assert!(!frames.has_pending());
    });
}

/// The owner answers a request (reopening its joins' gate to 5) while other threads
/// raise more: each of those is taken by this answer, or leaves the gate closed, so the
/// owner's next join takes the slow path and answers it (see `flags.rs`).
fn model_gate(publishers: usize, close: bool) {
    loom::model(move || {
        let flags = Arc::new(WorkerFlags::default());
        flags.raise_publish();
        let mut requesters: Vec<_> = (0..publishers)
            .map(|_| {
                let flags = Arc::clone(&flags);
                thread::spawn(move || flags.raise_publish())
            })
            .collect();
        let preempter = Arc::clone(&flags);
        requesters.push(thread::spawn(move || preempter.raise_preempt()));
        let taken = flags.take(5);
        if close {
            // Instrumentation lowers the high-water mark.
            flags.close_gate();
        }
        for requester in requesters {
            requester.join().unwrap();
        }
        let open = !flags.gate_closed(1);
        assert!(
            taken.preempt() || (!open && flags.preempt_pending()),
            "a preemption request hidden behind an open gate"
        );
        assert!(
            !open || !flags.any(),
            "a request raised behind an open gate"
        );
    });
}

#[test]
fn loom_a_request_closes_the_gate_or_is_taken() {
    model_gate(0, false);
}

#[test]
fn loom_two_requests_race_an_answer() {
    model_gate(1, false);
}

#[test]
fn loom_closing_the_gate_keeps_a_request() {
    model_gate(0, true);
}

/// A thread outside the pool waits on a `LockLatch` (it blocks: under loom it does not
/// spin) that a worker sets: the waiter is always woken, and returns only once the setter
/// is done with the latch.
#[test]
fn loom_lock_latch_wakes_its_waiter() {
    loom::model(|| {
        let latch = Arc::new(LockLatch::new());
        let setter_latch = Arc::clone(&latch);
        let setter = thread::spawn(move || {
            // SAFETY: the latch is kept alive by the Arc.
            unsafe { LockLatch::set(&*setter_latch) }
        });
        latch.wait_and_reset();
        setter.join().unwrap();
    });
}
/// A worker of a retiring pool looks for the job (an atomic flag) and takes it, or
/// retires after `retire` asleep (`None`: never; zero: at once, the most racy
/// case) and returns `true`.
fn search(
    sleep: &Sleep,
    latch: &CoreLatch,
    job: &AtomicBool,
    taken: &loom::sync::atomic::AtomicUsize,
    retire: Option<std::time::Duration>,
) -> bool {
    let mut idle = sleep.start_looking(0).retiring_after(retire);
    loop {
        // (A compare-exchange, not a swap: loom 0.7 loses a concurrent store
        // against a swap that writes the value it read.)
        if job
            .compare_exchange(true, false, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            taken.fetch_add(1, Ordering::SeqCst);
            sleep.work_found();
            return false;
        }
        if sleep.no_work_found(&mut idle, latch, || job.load(Ordering::Acquire)) == Slept::Retired {
            return true;
        }
    }
}

/// The state a retiring worker and its restarts share in the model.
struct Pool {
    sleep: std::sync::Arc<Sleep>,
    latch: Arc<CoreLatch>,
    job: Arc<AtomicBool>,
    taken: Arc<loom::sync::atomic::AtomicUsize>,
    /// The worker's deque, handed from a retiring thread to the next (a unit here).
    handoff: Arc<Handoff<()>>,
    restarted: Arc<loom::sync::Mutex<Vec<thread::JoinHandle<()>>>>,
}

impl Pool {
    /// Starts a new thread for the worker (it does not retire again, to keep the
    /// model small).
    fn start(&self) {
        let (sleep, latch, job, taken) = (
            self.sleep.clone(),
            self.latch.clone(),
            self.job.clone(),
            self.taken.clone(),
        );
        let t = thread::spawn(move || {
            latch.wake_up();
            search(&sleep, &latch, &job, &taken, None);
        });
        self.restarted.lock().unwrap().push(t);
    }
}

/// The race between a worker retiring and new work: a job is injected
/// while the only worker of a retiring pool searches, falls asleep and retires at
/// once. Over every interleaving the job is taken exactly once: by the worker
/// before it retires, or by a thread started for it, whether the restart comes
/// before or after the retiring thread hands its deque back. A job left with no
/// worker to run it would leave the flag set (or loom would report the restarted
/// worker asleep forever).
#[test]
fn loom_a_retiring_worker_never_strands_a_job() {
    retiring_worker_model(false);
}

/// The same race for a spare thread (one its bounded pool would not start now):
/// it retires as soon as it blocks, long before its idle time, through the same
/// step as a retirement at the end of the idle time.
#[test]
fn loom_a_spare_worker_retiring_at_once_never_strands_a_job() {
    retiring_worker_model(true);
}

/// The worker retires at once: with no timeout, or (`spare`) with a long one and
/// the spare gate saying yes.
fn retiring_worker_model(spare: bool) {
    loom::model(move || {
        let pool: std::sync::Arc<std::sync::OnceLock<Pool>> = Default::default();
        let weak = std::sync::Arc::downgrade(&pool);
        let restart = move |_: usize| {
            let pool = weak.upgrade().expect("model alive");
            let pool = pool.get().expect("set up");
            if pool.handoff.restart(|| false).is_some() {
                pool.start();
            }
            true
        };
        let mut sleep = Sleep::new(1).with_restart(Box::new(restart));
        if spare {
            sleep = sleep.with_spare_gate(Box::new(|| true));
        }
        let sleep = std::sync::Arc::new(sleep);
        let idle = std::time::Duration::from_secs(if spare { 3600 } else { 0 });
        let p = Pool {
            sleep,
            latch: Arc::new(CoreLatch::new()),
            job: Arc::new(AtomicBool::new(false)),
            taken: Arc::new(loom::sync::atomic::AtomicUsize::new(0)),
            handoff: Arc::new(Handoff::in_use()),
            restarted: Arc::new(loom::sync::Mutex::new(Vec::new())),
        };
        let _ = pool.set(p);
        let p = pool.get().unwrap();
        let (sleep, job) = (p.sleep.clone(), p.job.clone());
        let publisher = thread::spawn(move || {
            job.store(true, Ordering::Release); // the push
            sleep.new_injected_jobs(1, true);
        });
        if search(&p.sleep, &p.latch, &p.job, &p.taken, Some(idle))
            && p.handoff.park((), || false).is_some()
        {
            // A restart came before the deque was back: this thread starts the next.
            p.start();
        }
        publisher.join().unwrap();
        loop {
            let next = p.restarted.lock().unwrap().pop();
            match next {
                Some(t) => t.join().unwrap(),
                None => break,
            }
        }
        assert_eq!(
            p.taken.load(Ordering::SeqCst),
            1,
            "the job ran exactly once"
        );
    });
}

/// A spare thread whose time is up gives up its place on the list while a
/// starter offers it a worker: either the starter hands the worker over and the
/// thread receives it, or the starter gets it back (and starts a new thread) and
/// the thread leaves; never both, never neither, and the thread never waits for
/// a worker nobody hands it (loom fails on that deadlock).
#[test]
fn loom_spare_thread_giving_up_never_loses_a_worker() {
    use super::spare_threads::{Slot, Spares};
    loom::model(|| {
        let spares = Arc::new(Spares::<u8, u32>::new());
        let slot = Arc::new(Slot::new(1u8));
        spares.list(&slot);
        let s2 = Arc::clone(&spares);
        let starter = thread::spawn(move || s2.offer(&1, 7));
        let got = spares.give_up(&slot);
        let offered = starter.join().unwrap();
        match (got, offered) {
            (Some(7), Ok(())) | (None, Err(7)) => {}
            other => panic!("worker lost or doubled: {other:?}"),
        }
    });
}

/// Two starters offer workers while one thread waits: exactly one worker reaches
/// it, the other starter gets its worker back; a starter never hands a worker to
/// a thread of another kind.
#[test]
fn loom_two_starters_one_spare_thread() {
    use super::spare_threads::{Slot, Spares};
    loom::model(|| {
        let spares = Arc::new(Spares::<u8, u32>::new());
        let slot = Arc::new(Slot::new(1u8));
        let other = Arc::new(Slot::new(2u8));
        spares.list(&other);
        spares.list(&slot);
        let (s2, s3) = (Arc::clone(&spares), Arc::clone(&spares));
        let a = thread::spawn(move || s2.offer(&1, 10));
        let b = thread::spawn(move || s3.offer(&1, 20));
        let (a, b) = (a.join().unwrap(), b.join().unwrap());
        let got = spares.give_up(&slot);
        match (got, a, b) {
            (Some(10), Ok(()), Err(20)) | (Some(20), Err(10), Ok(())) => {}
            other => panic!("{other:?}"),
        }
        // The thread of the other kind is still listed, with nothing handed.
        assert_eq!(spares.give_up(&other), None);
    });
}
