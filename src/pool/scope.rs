//! `scope` and `scope_fifo`: spawn jobs that borrow from the enclosing stack frame; the
//! scope returns only when all of them have finished.

use std::any::Any;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ptr;
use std::sync::Arc;
use std::sync::atomic::{AtomicPtr, Ordering};

use super::broadcast::BroadcastContext;
use super::global::global_registry;
use super::job::{ArcJob, HeapJob, Job, JobRef};
use super::latch::{CountLatch, Latch};
use super::registry::Registry;
use super::unwind;
use super::worker::WorkerThread;
use crate::deque::{Injector, Steal};

/// A scope for spawning jobs that may borrow data living outside the scope
/// (see [`scope`]).
///
/// ```
/// let mut a = 0;
/// prorata::scope(|s| s.spawn(|_| a += 1));
/// assert_eq!(a, 1);
/// ```
pub struct Scope<'scope> {
    base: ScopeBase<'scope>,
}

/// A scope whose spawns started from one worker run in FIFO order (see [`scope_fifo`]).
///
/// ```
/// let mut a = 0;
/// prorata::scope_fifo(|s| s.spawn_fifo(|_| a += 1));
/// assert_eq!(a, 1);
/// ```
pub struct ScopeFifo<'scope> {
    base: ScopeBase<'scope>,
    fifos: Vec<JobFifo>,
}

struct ScopeBase<'scope> {
    registry: Arc<Registry>,
    /// The first panic of a spawned job (or the body), re-raised when the scope ends.
    panic: AtomicPtr<Box<dyn Any + Send + 'static>>,
    /// Outstanding jobs, plus one for the body.
    job_completed_latch: CountLatch,
    /// Invariant in `'scope`, like the closures it runs.
    marker: PhantomData<fn(&'scope ()) -> &'scope ()>,
}

impl std::fmt::Debug for ScopeBase<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scope")
            .field("pool_id", &self.registry.id())
            .field("panicked", &!self.panic.load(Ordering::Relaxed).is_null())
            .finish_non_exhaustive()
    }
}

/// Shows the pool the scope runs on and whether a job of it has panicked.
///
/// ```
/// prorata::scope(|s| assert!(format!("{s:?}").starts_with("Scope")));
/// ```
impl std::fmt::Debug for Scope<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.base.fmt(f)
    }
}

/// Shows the pool the scope runs on and whether a job of it has panicked.
///
/// ```
/// prorata::scope_fifo(|s| assert!(format!("{s:?}").starts_with("ScopeFifo")));
/// ```
impl std::fmt::Debug for ScopeFifo<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScopeFifo")
            .field("pool_id", &self.base.registry.id())
            .field(
                "panicked",
                &!self.base.panic.load(Ordering::Relaxed).is_null(),
            )
            .field("fifos", &self.fifos.len())
            .finish_non_exhaustive()
    }
}

/// A pointer to a scope that spawned jobs carry across threads.
struct ScopePtr<T>(*const T);

// SAFETY: the pointee is a `Sync` scope that outlives every job carrying the pointer
// (the scope waits for all its jobs before returning).
unsafe impl<T: Sync> Send for ScopePtr<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for ScopePtr<T> {}

impl<T> ScopePtr<T> {
    /// # Safety
    /// The scope is still alive (true while one of its jobs runs).
    unsafe fn as_ref(&self) -> &T {
        // SAFETY: forwarded from the caller.
        unsafe { &*self.0 }
    }
}

/// Creates a scope: `op` may spawn jobs borrowing local data; `scope` returns when `op`
/// and every job spawned in the scope (transitively) have finished. The body runs on a
/// worker of the current pool (the global pool outside any pool). If any of them panics,
/// the first panic is re-raised once all have finished.
///
/// ```
/// let v = vec![1, 2, 3];
/// let mut sums = [0, 0];
/// let (left, right) = sums.split_at_mut(1);
/// prorata::scope(|s| {
///     s.spawn(|_| left[0] = v.iter().sum());
///     s.spawn(|_| right[0] = v.iter().product());
/// });
/// assert_eq!(sums, [6, 6]);
/// ```
pub fn scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    R: Send,
{
    match WorkerThread::current() {
        Some(worker) => do_scope(worker, op),
        None => global_registry().in_worker(|worker, _| do_scope(worker, op)),
    }
}

/// Like [`scope`], but the jobs spawned from one worker run in the order they were
/// spawned (FIFO) rather than newest first.
///
/// ```
/// let mut order = std::sync::Mutex::new(Vec::new());
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// pool.scope_fifo(|s| for i in 0..3 { let o = &order; s.spawn_fifo(move |_| o.lock().unwrap().push(i)) });
/// assert_eq!(order.get_mut().unwrap(), &[0, 1, 2]);
/// ```
pub fn scope_fifo<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
    R: Send,
{
    match WorkerThread::current() {
        Some(worker) => do_scope_fifo(worker, op),
        None => global_registry().in_worker(|worker, _| do_scope_fifo(worker, op)),
    }
}

/// Like [`scope`], but `op` runs on the calling thread (spawned jobs still go to the
/// current pool, or the global one), so `op` need not be `Send`.
///
/// ```
/// let rc = std::rc::Rc::new(5); // not Send
/// let mut x = 0;
/// let xr = &mut x;
/// prorata::in_place_scope(|s| {
///     let v = *rc;
///     s.spawn(move |_| *xr = v)
/// });
/// assert_eq!(x, 5);
/// ```
pub fn in_place_scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R,
{
    do_in_place_scope(None, op)
}

/// Like [`scope_fifo`], but `op` runs on the calling thread.
///
/// ```
/// let mut x = 0;
/// prorata::in_place_scope_fifo(|s| s.spawn_fifo(|_| x = 1));
/// assert_eq!(x, 1);
/// ```
pub fn in_place_scope_fifo<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    do_in_place_scope_fifo(None, op)
}

pub(crate) fn do_scope<'scope, OP, R>(owner: &WorkerThread, op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R,
{
    let scope = Scope::new(Some(owner), None);
    scope.base.complete(Some(owner), || op(&scope))
}

pub(crate) fn do_scope_fifo<'scope, OP, R>(owner: &WorkerThread, op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    let scope = ScopeFifo::new(Some(owner), None);
    scope.base.complete(Some(owner), || op(&scope))
}

pub(crate) fn do_in_place_scope<'scope, OP, R>(registry: Option<&Arc<Registry>>, op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R,
{
    let owner = WorkerThread::current();
    let scope = Scope::new(owner, registry);
    scope.base.complete(owner, || op(&scope))
}

pub(crate) fn do_in_place_scope_fifo<'scope, OP, R>(registry: Option<&Arc<Registry>>, op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    let owner = WorkerThread::current();
    let scope = ScopeFifo::new(owner, registry);
    scope.base.complete(owner, || op(&scope))
}

impl<'scope> Scope<'scope> {
    fn new(owner: Option<&WorkerThread>, registry: Option<&Arc<Registry>>) -> Self {
        Scope {
            base: ScopeBase::new(owner, registry),
        }
    }

    /// Spawns a job in the scope; it may borrow anything that outlives the scope and
    /// gets the scope to spawn more. The scope ends only after it has run; a panic in it
    /// is re-raised by the scope.
    ///
    /// ```
    /// let mut hits = [0; 3];
    /// prorata::scope(|s| for h in hits.iter_mut() { s.spawn(move |_| *h += 1) });
    /// assert_eq!(hits, [1, 1, 1]);
    /// ```
    pub fn spawn<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&Scope<'scope>) + Send + 'scope,
    {
        let scope_ptr = ScopePtr(self);
        let job = HeapJob::new(move || {
            // SAFETY: the scope is alive: it counted this job before queueing it, and
            // waits for the count to reach zero before it ends; `execute_job` counts the
            // job done last, whatever `body` does.
            unsafe {
                let scope = scope_ptr.as_ref();
                ScopeBase::execute_job(&scope.base, || body(scope));
            }
        });
        self.base.job_completed_latch.increment();
        // SAFETY: the job borrows only `'scope` data and the scope, which both outlive it
        // (the scope ends only once the job is counted done); its execution does not
        // unwind (`execute_job` catches the body's panics).
        let job_ref = unsafe { job.into_job_ref() };
        self.base.registry.inject_or_push(job_ref);
    }

    /// Spawns `body` once on every worker of the scope's pool.
    ///
    /// ```
    /// let n = std::sync::atomic::AtomicUsize::new(0);
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// pool.scope(|s| s.spawn_broadcast(|_, _| { n.fetch_add(1, std::sync::atomic::Ordering::SeqCst); }));
    /// assert_eq!(n.into_inner(), 2);
    /// ```
    pub fn spawn_broadcast<BODY>(&self, body: BODY)
    where
        BODY: Fn(&Scope<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
    {
        let scope_ptr = ScopePtr(self);
        let body = BodyGuard::new(body, &self.base);
        let job = ArcJob::new(move || {
            let body = &body;
            // SAFETY: the scope waits for this job (and for the body's drop, counted by
            // its `BodyGuard`) before it ends; `execute_job` counts the job done last.
            unsafe {
                let scope = scope_ptr.as_ref();
                ScopeBase::execute_job(&scope.base, || {
                    BroadcastContext::with(|ctx| (body.body)(scope, ctx))
                });
            }
        });
        self.base.spawn_broadcast_jobs(&job);
    }
}

impl<'scope> ScopeFifo<'scope> {
    fn new(owner: Option<&WorkerThread>, registry: Option<&Arc<Registry>>) -> Self {
        let base = ScopeBase::new(owner, registry);
        let fifos = (0..base.registry.num_threads())
            .map(|_| JobFifo::new())
            .collect();
        ScopeFifo { base, fifos }
    }

    /// Spawns a job in the scope; jobs spawned from the same worker start in FIFO order.
    ///
    /// ```
    /// let mut hits = [0; 3];
    /// prorata::scope_fifo(|s| for h in hits.iter_mut() { s.spawn_fifo(move |_| *h += 1) });
    /// assert_eq!(hits, [1, 1, 1]);
    /// ```
    pub fn spawn_fifo<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&ScopeFifo<'scope>) + Send + 'scope,
    {
        let scope_ptr = ScopePtr(self);
        let job = HeapJob::new(move || {
            // SAFETY: the scope is alive: it counted this job before queueing it, and
            // waits for the count to reach zero before it ends; `execute_job` counts the
            // job done last, whatever `body` does.
            unsafe {
                let scope = scope_ptr.as_ref();
                ScopeBase::execute_job(&scope.base, || body(scope));
            }
        });
        self.base.job_completed_latch.increment();
        // SAFETY: the job borrows only `'scope` data and the scope, which both outlive it
        // (the scope ends only once the job is counted done); its execution does not
        // unwind (`execute_job` catches the body's panics).
        let job_ref = unsafe { job.into_job_ref() };
        match WorkerThread::current() {
            Some(worker) if worker.registry().id() == self.base.registry.id() => {
                // The deque gets a token that runs the oldest job of this worker's FIFO.
                // SAFETY: the FIFO lives in the scope, which outlives its tokens: tokens and
                // jobs are one to one, a token's last access to the FIFO is the take of a
                // job before running it, and the scope waits for every job.
                let token = unsafe { self.fifos[worker.index()].push(job_ref) };
                worker.push(token);
            }
            _ => self.base.registry.inject(job_ref),
        }
    }

    /// Spawns `body` once on every worker of the scope's pool.
    ///
    /// ```
    /// let n = std::sync::atomic::AtomicUsize::new(0);
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// pool.scope_fifo(|s| s.spawn_broadcast(|_, _| { n.fetch_add(1, std::sync::atomic::Ordering::SeqCst); }));
    /// assert_eq!(n.into_inner(), 2);
    /// ```
    pub fn spawn_broadcast<BODY>(&self, body: BODY)
    where
        BODY: Fn(&ScopeFifo<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
    {
        let scope_ptr = ScopePtr(self);
        let body = BodyGuard::new(body, &self.base);
        let job = ArcJob::new(move || {
            let body = &body;
            // SAFETY: the scope waits for this job (and for the body's drop, counted by
            // its `BodyGuard`) before it ends; `execute_job` counts the job done last.
            unsafe {
                let scope = scope_ptr.as_ref();
                ScopeBase::execute_job(&scope.base, || {
                    BroadcastContext::with(|ctx| (body.body)(scope, ctx))
                });
            }
        });
        self.base.spawn_broadcast_jobs(&job);
    }
}

impl<'scope> ScopeBase<'scope> {
    fn new(owner: Option<&WorkerThread>, registry: Option<&Arc<Registry>>) -> Self {
        let registry = match (registry, owner) {
            (Some(r), _) => Arc::clone(r),
            (None, Some(owner)) => Arc::clone(owner.registry()),
            (None, None) => Arc::clone(global_registry()),
        };
        ScopeBase {
            registry,
            panic: AtomicPtr::new(ptr::null_mut()),
            job_completed_latch: CountLatch::new(1, owner.map(|w| (w.registry(), w.index()))),
            marker: PhantomData,
        }
    }

    /// Runs the body, waits for every job, re-raises the first panic. The owner, the
    /// current thread's worker if it is one, is in use meanwhile (`WorkerThread::in_use`).
    fn complete<R>(&self, owner: Option<&WorkerThread>, body: impl FnOnce() -> R) -> R {
        match owner {
            Some(worker) => worker.in_use(|| self.complete_on(owner, body)),
            None => self.complete_on(None, body),
        }
    }

    fn complete_on<R>(&self, owner: Option<&WorkerThread>, body: impl FnOnce() -> R) -> R {
        let result = match unwind::halt_unwinding(body) {
            Ok(r) => Some(r),
            Err(p) => {
                self.job_panicked(p);
                None
            }
        };
        // SAFETY: the latch lives in `self`, which outlives this call. The body's panic
        // was caught and `job_panicked` does not unwind, so this count of the body and
        // the wait below are reached whatever the body did: the scope never ends while
        // its jobs may still run.
        unsafe { CountLatch::set(&self.job_completed_latch) };
        self.job_completed_latch.wait(owner);
        self.maybe_propagate_panic();
        result.expect("prorata: scope body panicked without a recorded panic")
    }

    /// Runs a spawned job's body, recording a panic, and counts the job done.
    ///
    /// # Safety
    /// `this` is valid on entry; the scope may end (and be freed) as soon as the job is
    /// counted done, so it takes a raw pointer rather than a reference that would have to
    /// stay valid until the function returns.
    unsafe fn execute_job(this: *const Self, body: impl FnOnce()) {
        // SAFETY: the scope is valid until the latch is set, which is the last access.
        // Nothing before it unwinds: a panic of `body` (which also drops what the body
        // captured) is caught, and `job_panicked` never unwinds, so the job is counted
        // done whatever the user's closure or its panic payload does.
        unsafe {
            if let Err(p) = unwind::halt_unwinding(body) {
                (*this).job_panicked(p);
            }
            CountLatch::set(&raw const (*this).job_completed_latch);
        }
    }

    /// Queues `job` once per worker of the pool, counting each in the latch, plus one
    /// count that the job's `BodyGuard` gives back when the last reference drops it.
    fn spawn_broadcast_jobs<F: Fn() + Send + Sync>(&self, job: &Arc<ArcJob<F>>) {
        let n = self.registry.num_threads();
        for _ in 0..n + 1 {
            self.job_completed_latch.increment();
        }
        // SAFETY: each reference keeps the job alive (a count on the `Arc`); what it
        // borrows outlives the scope, which waits for each run and for the body's drop;
        // its execution does not unwind (`execute_job`, `BodyGuard`).
        self.registry
            .inject_broadcast((0..n).map(|_| unsafe { ArcJob::as_job_ref(job) }));
    }

    /// Records a panic of the body or of a job: the first is kept, to be re-raised;
    /// later ones are dropped. Never unwinds, even if dropping a payload panics (see
    /// [`unwind::drop_payload`]): `execute_job` must go on to count the job done, and
    /// `complete` to wait for the jobs, or the scope would end (or never end) while
    /// jobs that borrow from it still run.
    fn job_panicked(&self, payload: Box<dyn Any + Send + 'static>) {
        let boxed = Box::into_raw(Box::new(payload));
        if self
            .panic
            .compare_exchange(ptr::null_mut(), boxed, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // Keep the first panic; drop this one.
            // SAFETY: `boxed` was not published, we still own it.
            unwind::drop_payload(*unsafe { Box::from_raw(boxed) });
        }
    }

    fn maybe_propagate_panic(&self) {
        let p = self.panic.swap(ptr::null_mut(), Ordering::AcqRel);
        if !p.is_null() {
            // SAFETY: published by `job_panicked` from `Box::into_raw`, taken once by the swap.
            let payload = unsafe { Box::from_raw(p) };
            unwind::resume_unwinding(*payload);
        }
    }
}

/// The body of a scoped broadcast, shared by the workers' jobs. The last job to finish
/// drops it (or the spawning thread, if every job finished first); only then does the
/// guard count itself done, so the scope cannot end while the body (which may borrow
/// `'scope` data and have drop glue) still exists. A panic of the body's drop is a panic
/// of the scope, like one of the body itself: it must not unwind out of a worker's job
/// (through whatever waits on the worker's stack), nor skip the count.
struct BodyGuard<'scope, B> {
    body: ManuallyDrop<B>,
    scope: *const ScopeBase<'scope>,
}

// SAFETY: the scope pointer is only used to record a panic and `set` the scope's latch,
// both thread-safe (`ScopeBase` is `Sync`); the body is as thread-safe as `B`.
unsafe impl<B: Send> Send for BodyGuard<'_, B> {}
// SAFETY: as above; shared access only calls `B` through `&B`.
unsafe impl<B: Sync> Sync for BodyGuard<'_, B> {}

impl<'scope, B> BodyGuard<'scope, B> {
    /// Guards `body`; the scope's latch must already count the guard (see
    /// `spawn_broadcast_jobs`).
    fn new(body: B, scope: &ScopeBase<'scope>) -> Self {
        BodyGuard {
            body: ManuallyDrop::new(body),
            scope,
        }
    }
}

impl<B> Drop for BodyGuard<'_, B> {
    fn drop(&mut self) {
        // SAFETY: the body is dropped once, here (a drop that panics has dropped what it
        // could, and the body is not touched again).
        let dropped = unwind::halt_unwinding(|| unsafe { ManuallyDrop::drop(&mut self.body) });
        // SAFETY: the scope waits for this guard's count, so it is valid until the latch
        // is set, the last access; `job_panicked` does not unwind.
        unsafe {
            if let Err(p) = dropped {
                (*self.scope).job_panicked(p);
            }
            CountLatch::set(&raw const (*self.scope).job_completed_latch);
        }
    }
}

/// Jobs of one worker waiting in FIFO order; the worker's deque gets one token per job.
pub(crate) struct JobFifo {
    inner: Injector<JobRef>,
}

impl JobFifo {
    pub(crate) fn new() -> Self {
        JobFifo {
            inner: Injector::new(),
        }
    }

    /// Queues `job` and returns the token to push on the deque.
    ///
    /// # Safety
    /// The FIFO must outlive the token's execution.
    pub(crate) unsafe fn push(&self, job: JobRef) -> JobRef {
        self.inner.push(job);
        // SAFETY: the FIFO outlives the token (the caller's promise) and is `Sync`; the
        // token only runs a job that was made under `JobRef::new`'s rule.
        unsafe { JobRef::new(self) }
    }
}

impl Job for JobFifo {
    unsafe fn execute(this: *const Self) {
        // Each token was pushed with one job, so a job is always there.
        loop {
            // SAFETY: the FIFO outlives its tokens (caller of `push`).
            match unsafe { (*this).inner.steal() } {
                // SAFETY: a queued job is live until executed, and executed once.
                Steal::Success(job) => return unsafe { job.execute() },
                Steal::Empty => panic!("prorata: FIFO token without a job"),
                Steal::Retry => {}
            }
        }
    }
}

impl Drop for ScopeBase<'_> {
    fn drop(&mut self) {
        let p = *self.panic.get_mut();
        if !p.is_null() {
            // SAFETY: a recorded panic not yet propagated is still owned here (it came
            // from `Box::into_raw` in `job_panicked`, and the pointer is taken only by
            // `maybe_propagate_panic`'s swap, which leaves null).
            unwind::drop_payload(*unsafe { Box::from_raw(p) });
        }
    }
}
