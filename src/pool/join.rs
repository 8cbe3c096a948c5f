//! `join`: run two closures, potentially in parallel (work-first, with leapfrogging).

use super::global::global_registry;
use super::job::{JobRef, StackJob};
use super::latch::SpinLatch;
use super::registry::ThreadInfo;
use super::unwind;
use super::worker::WorkerThread;

/// Context passed to the closures of [`join_context`].
///
/// ```
/// let (a, _) = prorata::join_context(|ctx| ctx.migrated(), |_| ());
/// assert!(!a || a);
/// ```
#[derive(Debug)]
pub struct FnContext {
    migrated: bool,
}

impl FnContext {
    #[inline]
    fn new(migrated: bool) -> Self {
        FnContext { migrated }
    }

    /// Whether the closure runs on a different thread than the one that called
    /// `join_context` (that is, it was stolen, or the call came from outside the pool).
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// pool.install(|| prorata::join_context(|ctx| assert!(!ctx.migrated()), |_| ()));
    /// ```
    #[inline]
    pub fn migrated(&self) -> bool {
        self.migrated
    }
}

/// Runs two closures, potentially in parallel, and returns both results.
///
/// The calling worker runs `oper_a` itself and leaves `oper_b` on its deque for a thief;
/// if nobody took it, it runs `oper_b` too. Called from outside any pool, the pair runs
/// in the global pool. If either closure panics, the panic is re-raised after both have
/// finished (the first one's, if both panic).
///
/// ```
/// let (x, y) = prorata::join(|| 1, || 2);
/// assert_eq!(x + y, 3);
/// ```
#[inline]
pub fn join<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    join_context(|_| oper_a(), |_| oper_b())
}

/// Like [`join`], but each closure learns whether it was stolen.
///
/// ```
/// let (x, y) = prorata::join_context(|_| 1, |_| 2);
/// assert_eq!((x, y), (1, 2));
/// ```
#[inline]
pub fn join_context<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    match WorkerThread::current_info() {
        Some(info) => join_on_frames(info, false, oper_a, oper_b),
        None => join_off_pool(oper_a, oper_b),
    }
}

/// `join_context` from outside any pool: the pair runs in the global pool. Out of line,
/// so that a join on a worker reads the thread-local once.
#[cold]
#[inline(never)]
fn join_off_pool<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    global_registry().in_worker(|worker, injected| join_on_worker(worker, injected, oper_a, oper_b))
}

/// The work-first join, on `worker`, the current thread's.
#[inline]
pub(crate) fn join_on_worker<A, B, RA, RB>(
    worker: &WorkerThread,
    injected: bool,
    oper_a: A,
    oper_b: B,
) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    join_on_frames(worker.info(), injected, oper_a, oper_b)
}

/// The work-first join, on the current thread's worker, known by its `info`: `oper_b`
/// is recorded as a pending frame (published to the deque only when thieves may want
/// it, see `frames.rs`), `oper_a` runs, then `oper_b` runs inline unless it was
/// published and stolen. The worker itself is read only on the slow paths.
#[inline]
fn join_on_frames<A, B, RA, RB>(info: &ThreadInfo, injected: bool, oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    match WorkerThread::fast_frame(info) {
        Some(index) => join_with(info, injected, oper_a, oper_b, |job| {
            // SAFETY: `info` is the current worker's (the caller's contract), and
            // nothing was recorded since `index` was read.
            unsafe { WorkerThread::record_fast_frame(info, index, job) };
            index
        }),
        None => join_slow(info, oper_a, oper_b, injected),
    }
}

/// A join whose frame takes the slow path (the first of its job, a new high-water
/// mark, or a request to answer): out of line, so that the fast path keeps no state
/// across a call of its own (the arguments in the order of `join_on_frames`' own, the
/// constant last, so that it is a plain jump).
#[cold]
#[inline(never)]
fn join_slow<A, B, RA, RB>(info: &ThreadInfo, oper_a: A, oper_b: B, injected: bool) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    // SAFETY: the job is a join's, kept in place (`join_with`).
    join_with(info, injected, oper_a, oper_b, |job| unsafe {
        current_worker().push_frame(job)
    })
}

/// The join, with `push` recording the second half's frame and returning its index.
#[inline(always)]
fn join_with<A, B, RA, RB>(
    info: &ThreadInfo,
    injected: bool,
    oper_a: A,
    oper_b: B,
    push: impl FnOnce(JobRef) -> usize,
) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let job_b = StackJob::new(
        |migrated| oper_b(FnContext::new(migrated)),
        SpinLatch::uninit(),
    );
    // SAFETY: `job_b` stays in this frame until it is taken back or its latch is set;
    // every path below (including a panic of `oper_a`) waits for one of the two. Its
    // latch comes first, and is initialised when the frame leaves the stack.
    let frame = push(unsafe { job_b.as_job_ref() });

    let result_a = match unwind::halt_unwinding(|| oper_a(FnContext::new(injected))) {
        Ok(v) => v,
        Err(payload) => a_panicked(info, frame, &job_b, injected, payload),
    };
    if WorkerThread::take_frame(info, frame) {
        // Never published: nobody else can have it.
        let result_b = job_b.run_inline(injected);
        return (result_a, result_b);
    }
    (result_a, b_published(&job_b, injected))
}

/// The current thread's worker, on a join's slow path.
fn current_worker() -> &'static WorkerThread {
    WorkerThread::current().expect("prorata: a join's frame off its worker")
}

/// The second half of a join after it was published: pop it back and run it here if no
/// thief took it, else wait for the thief (running other jobs meanwhile).
#[cold]
#[inline(never)]
fn b_published<F, RB>(job_b: &StackJob<SpinLatch, F, RB>, injected: bool) -> RB
where
    F: FnOnce(bool) -> RB + Send,
    RB: Send,
{
    let worker = current_worker();
    // The jobs run here may drop a `use_current_thread` pool whose worker this is.
    worker.in_use(|| {
        // SAFETY: only compared, never executed through.
        let job_b_id = unsafe { job_b.as_job_ref() }.id();
        // SAFETY: the frame was handed out (published or claimed): its latch is
        // initialised.
        let latch = unsafe { job_b.latch.core() };
        while !latch.probe() {
            match worker.take_own_job() {
                Some(job) if job.id() == job_b_id => {
                    // Nobody stole B: run it here, without the latch.
                    worker.note_publish_taken(false);
                    return job_b.run_inline(injected);
                }
                // A job `oper_a` left behind (a `spawn`): run it to get back down to B.
                // SAFETY: a queued job is live until executed, and executed once.
                Some(job) => unsafe { worker.execute(job) },
                None => {
                    worker.wait_until(latch);
                    break;
                }
            }
        }
        worker.note_publish_taken(true);
        job_b.take_result()
    })
}

/// The first half of a join panicked: as in Rayon, the second still runs (here, if
/// nobody took it) before the panic goes on; it may be running elsewhere with borrowed
/// data, so wait for it.
#[cold]
#[inline(never)]
fn a_panicked<F, RB>(
    info: &ThreadInfo,
    frame: usize,
    job_b: &StackJob<SpinLatch, F, RB>,
    injected: bool,
    payload: unwind::Payload,
) -> !
where
    F: FnOnce(bool) -> RB + Send,
    RB: Send,
{
    if WorkerThread::take_frame(info, frame) {
        let _ = unwind::halt_unwinding(|| job_b.run_inline(injected));
    } else {
        let worker = current_worker();
        // SAFETY: the frame was handed out (published or claimed): its latch is
        // initialised.
        worker.wait_until(unsafe { job_b.latch.core() });
        // It was executed through its `JobRef` (by a thief, or popped back by the wait):
        // its outcome, a panic included, is dropped here.
        drop(job_b.take_job_result());
    }
    unwind::resume_unwinding(payload)
}
