//! Jobs: type-erased references to work (`JobRef`), stack jobs for `join`/`install`,
//! heap jobs for `spawn`/`scope`.

use std::cell::UnsafeCell;
use std::mem::{self, ManuallyDrop, MaybeUninit};
use std::sync::Arc;

use super::latch::Latch;
use super::unwind::{self, AbortIfPanic, Payload};

/// Something that can be executed through a [`JobRef`].
pub(crate) trait Job {
    /// Runs the job.
    ///
    /// # Safety
    /// `this` points to a live job that has not been executed yet; each job is executed
    /// at most once.
    unsafe fn execute(this: *const Self);
}

/// The function of a [`JobRef`], which runs the job its data pointer points to.
pub(crate) type ExecuteFn = unsafe fn(*const ());

/// A type-erased job: a data pointer and the function that runs it. Two words, `Copy`-free
/// on purpose (a `JobRef` is executed exactly once).
#[derive(Debug)]
pub(crate) struct JobRef {
    pointer: *const (),
    execute_fn: ExecuteFn,
}

// SAFETY: a JobRef is only made from jobs whose data may be sent to and executed on another
// thread (the contract of `JobRef::new`: the job types' closures are bounded by `Send`, and
// their latches are built for cross-thread use).
unsafe impl Send for JobRef {}

/// Calls `T::execute` on an erased pointer.
///
/// # Safety
/// Same as [`Job::execute`], with `this` pointing to a `T`.
unsafe fn execute_erased<T: Job>(this: *const ()) {
    // SAFETY: forwarded from the caller.
    unsafe { T::execute(this.cast::<T>()) }
}

/// Calls `T::execute` on an erased pointer carrying the mark of
/// [`JobRef::new_marked`].
///
/// # Safety
/// Same as [`Job::execute`], with `this` pointing one byte past a `T`'s start.
unsafe fn execute_marked<T: Job>(this: *const ()) {
    // SAFETY: forwarded from the caller; the mark is removed.
    unsafe { T::execute(this.cast::<u8>().wrapping_sub(1).cast::<T>()) }
}

impl JobRef {
    /// Erases a job.
    ///
    /// # Safety
    /// `data` must stay valid until the job has executed, and the job may be executed on
    /// any thread (what it holds is `Send`; `JobRef` is `Send` on that promise). Its
    /// execution must not unwind (the pool's workers abort if it does, see
    /// `WorkerThread::execute`).
    #[inline]
    pub(crate) unsafe fn new<T: Job>(data: *const T) -> JobRef {
        // The low bit of the data pointer marks a job of an isolated region
        // (`JobRef::new_marked`); every other job's pointer keeps it clear.
        const { assert!(mem::align_of::<T>() >= 2) };
        JobRef {
            pointer: data.cast(),
            execute_fn: execute_erased::<T>,
        }
    }

    /// Erases a job whose reference carries a mark ([`JobRef::is_marked`]): the
    /// wrapper of a job started inside an isolated region (`isolate.rs`), the only
    /// kind of job whose region must be read before it runs.
    ///
    /// # Safety
    /// As [`JobRef::new`].
    #[inline]
    pub(crate) unsafe fn new_marked<T: Job>(data: *const T) -> JobRef {
        const { assert!(mem::align_of::<T>() >= 2) };
        JobRef {
            pointer: data.cast::<u8>().wrapping_add(1).cast(),
            execute_fn: execute_marked::<T>,
        }
    }

    /// Whether this reference came from [`JobRef::new_marked`].
    #[inline]
    pub(crate) fn is_marked(&self) -> bool {
        self.pointer as usize & 1 == 1
    }

    /// The data pointer of a marked reference, without its mark.
    #[inline]
    pub(crate) fn marked_data(&self) -> *const () {
        debug_assert!(self.is_marked());
        self.pointer.cast::<u8>().wrapping_sub(1).cast()
    }

    /// The two words of the reference, for storing them apart (`frames.rs`).
    #[inline]
    pub(crate) fn into_parts(self) -> (*const (), ExecuteFn) {
        (self.pointer, self.execute_fn)
    }

    /// A reference from the words of [`JobRef::into_parts`].
    ///
    /// # Safety
    /// They came from one `JobRef`, whose place this one takes.
    #[inline]
    pub(crate) unsafe fn from_parts(pointer: *const (), execute_fn: ExecuteFn) -> Self {
        JobRef {
            pointer,
            execute_fn,
        }
    }

    /// The job's data pointer.
    #[inline]
    pub(crate) fn data(&self) -> *const () {
        self.pointer
    }

    /// An identity for comparing job references (the data pointer and function).
    #[inline]
    pub(crate) fn id(&self) -> (usize, usize) {
        (self.pointer as usize, self.execute_fn as usize)
    }

    /// Runs the job.
    ///
    /// # Safety
    /// The job's data is still valid and the job was not executed before.
    #[inline]
    pub(crate) unsafe fn execute(self) {
        // SAFETY: forwarded from the caller.
        unsafe { (self.execute_fn)(self.pointer) }
    }
}

/// The outcome of a job.
pub(crate) enum JobResult<T> {
    /// Returned normally.
    Ok(T),
    /// Panicked.
    Panic(Payload),
}

impl<T> JobResult<T> {
    /// Runs `f`, catching a panic.
    #[inline]
    pub(crate) fn call(f: impl FnOnce() -> T) -> Self {
        match unwind::halt_unwinding(f) {
            Ok(v) => JobResult::Ok(v),
            Err(p) => JobResult::Panic(p),
        }
    }

    /// The value, or the panic re-raised.
    pub(crate) fn into_return_value(self) -> T {
        match self {
            JobResult::Ok(v) => v,
            JobResult::Panic(p) => unwind::resume_unwinding(p),
        }
    }
}

/// A job living on the stack of the thread that waits for it. `F` gets whether it was
/// run by a thief (`true`) when executed through its `JobRef`.
///
/// Nothing of it is initialised beyond what a `join` that nobody steals needs: the
/// closure is taken out exactly once (run inline or executed), and the result is written
/// only when the job is executed through its `JobRef`, after which the owner reads it
/// exactly once (`into_result`, `take_result` or `into_job_result`). A result never read
/// would leak, never be dropped twice.
///
/// Its latch comes first (`repr(C)`): the pointer of its `JobRef` is its latch's, which
/// the join frames rely on (`SpinLatch::init`).
#[repr(C)]
pub(crate) struct StackJob<L, F, R> {
    pub(crate) latch: L,
    func: UnsafeCell<ManuallyDrop<F>>,
    result: UnsafeCell<MaybeUninit<JobResult<R>>>,
}

impl<L: Latch, F: FnOnce(bool) -> R + Send, R: Send> StackJob<L, F, R> {
    /// A job that will set `latch` when done.
    #[inline]
    pub(crate) fn new(func: F, latch: L) -> Self {
        StackJob {
            latch,
            func: UnsafeCell::new(ManuallyDrop::new(func)),
            result: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// A reference to queue.
    ///
    /// # Safety
    /// The job must not move or be dropped until it has executed or been taken back.
    #[inline]
    pub(crate) unsafe fn as_job_ref(&self) -> JobRef {
        // SAFETY: the caller keeps `self` in place until the job ran.
        unsafe { JobRef::new(self) }
    }

    /// Runs the job on the current thread, when it was taken back before anyone ran it.
    #[inline]
    pub(crate) fn run_inline(&self, migrated: bool) -> R {
        // SAFETY: a job taken back is no longer queued anywhere, so only this thread sees
        // it, and it was not run: the closure is taken out once.
        let func = unsafe { ManuallyDrop::take(&mut *self.func.get()) };
        func(migrated)
    }

    /// The outcome of the job, which was executed through its `JobRef` (its latch is
    /// set); read once.
    #[inline]
    pub(crate) fn into_job_result(self) -> JobResult<R> {
        self.take_job_result()
    }

    /// The result of the executed job (re-raising its panic); see `into_job_result`.
    #[inline]
    pub(crate) fn into_result(self) -> R {
        self.into_job_result().into_return_value()
    }

    /// Like [`StackJob::into_result`], for a job that must not move (its latch was
    /// waited on in place).
    #[inline]
    pub(crate) fn take_result(&self) -> R {
        self.take_job_result().into_return_value()
    }

    /// Reads the outcome out; the caller knows the job was executed through its
    /// `JobRef` and its latch is set, and reads it once.
    #[inline]
    pub(crate) fn take_job_result(&self) -> JobResult<R> {
        // SAFETY: executed, so `execute` wrote the result before setting the latch, which
        // the caller saw set (acquiring the write); nobody else touches it now, and it is
        // read once.
        unsafe { (*self.result.get()).assume_init_read() }
    }
}

impl<L: Latch, F: FnOnce(bool) -> R + Send, R: Send> Job for StackJob<L, F, R> {
    unsafe fn execute(this: *const Self) {
        // Nothing here may unwind: the owner waits for the latch, and it frees the job (its
        // stack frame) once the latch is set. The closure's panics are caught into the
        // result; anything else (the latch's `set`) aborts.
        let abort = AbortIfPanic;
        // SAFETY: the caller guarantees `this` is live and executed once; the owner does not
        // touch `func`/`result` until the latch is set.
        unsafe {
            let func = ManuallyDrop::take(&mut *(*this).func.get());
            (*(*this).result.get()).write(JobResult::call(|| func(true)));
            // After this, `*this` may be freed by the waiting owner: no access follows.
            L::set(&raw const (*this).latch);
        }
        mem::forget(abort);
    }
}

/// A boxed job, for work nobody waits on directly (`spawn`, scope spawns). Aligned
/// to 2 at least, so that its reference never looks marked (`JobRef::new`).
#[repr(align(2))]
pub(crate) struct HeapJob<F> {
    func: F,
}

impl<F: FnOnce() + Send> HeapJob<F> {
    /// Boxes `func`.
    pub(crate) fn new(func: F) -> Box<Self> {
        Box::new(HeapJob { func })
    }

    /// Leaks the box into a `JobRef`; executing it frees the box.
    ///
    /// # Safety
    /// Everything `func` borrows must outlive the job's execution.
    pub(crate) unsafe fn into_job_ref(self: Box<Self>) -> JobRef {
        // SAFETY: the box is leaked and reclaimed exactly once in `execute`.
        unsafe { JobRef::new(Box::into_raw(self)) }
    }
}

impl<F: FnOnce() + Send> Job for HeapJob<F> {
    unsafe fn execute(this: *const Self) {
        // SAFETY: `this` came from `Box::into_raw` in `into_job_ref` and runs once, so the
        // box is reclaimed once. The closure is made by the pool (`spawn`, `Scope::spawn`),
        // which catches the user's panics inside it (`JobRef::new`'s rule).
        let this = unsafe { Box::from_raw(this.cast_mut()) };
        (this.func)();
    }
}

/// A shared job run once per worker (`spawn_broadcast`), aligned as a `HeapJob`.
#[repr(align(2))]
pub(crate) struct ArcJob<F> {
    func: F,
}

impl<F: Fn() + Send + Sync> ArcJob<F> {
    /// Shares `func`.
    pub(crate) fn new(func: F) -> Arc<Self> {
        Arc::new(ArcJob { func })
    }

    /// One more reference to execute; each holds a count on the `Arc`.
    ///
    /// # Safety
    /// Everything `func` borrows must outlive the job's execution.
    pub(crate) unsafe fn as_job_ref(this: &Arc<Self>) -> JobRef {
        // SAFETY: the count taken here is given back in `execute`.
        unsafe { JobRef::new(Arc::into_raw(Arc::clone(this))) }
    }
}

impl<F: Fn() + Send + Sync> Job for ArcJob<F> {
    unsafe fn execute(this: *const Self) {
        // SAFETY: `this` came from `Arc::into_raw` in `as_job_ref` (one count per
        // reference), executed once, so the count is given back once. The closure is made
        // by the pool (`spawn_broadcast`), which catches the user's panics inside it and
        // in its drop, which the last reference does here (`JobRef::new`'s rule).
        let this = unsafe { Arc::from_raw(this) };
        (this.func)();
    }
}
