//! Latches: one-shot "this job is done" signals.
//!
//! The fast path is a plain atomic state ([`CoreLatch`]): a worker waiting on it keeps
//! executing other jobs and only sleeps after the sleep protocol says so. The setter learns
//! from the swapped-out state whether the waiter fell asleep, and wakes it only then.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::Arc;

use super::registry::Registry;
use super::sync::{AtomicBool, AtomicUsize, Condvar, Mutex, MutexGuard, Ordering};

/// A signal that can be set once (per use).
pub(crate) trait Latch {
    /// Sets the latch, waking its waiter if needed.
    ///
    /// # Safety
    /// `this` is valid on entry; the waiter may free it as soon as the latch is set, so
    /// implementations must not touch `*this` after setting the state.
    unsafe fn set(this: *const Self);
}

const UNSET: usize = 0;
const SLEEPING: usize = 1;
const SET: usize = 2;

/// The atomic state shared by all latches a worker can wait on.
#[derive(Debug)]
pub(crate) struct CoreLatch {
    state: AtomicUsize,
}

impl CoreLatch {
    /// An unset latch.
    #[inline]
    pub(crate) fn new() -> Self {
        CoreLatch {
            state: AtomicUsize::new(UNSET),
        }
    }

    /// Whether the latch is set (acquiring what the setter published).
    #[inline]
    pub(crate) fn probe(&self) -> bool {
        self.state.load(Ordering::Acquire) == SET
    }

    /// The waiter announces it is going to sleep; false if the latch was set already.
    #[inline]
    pub(crate) fn fall_asleep(&self) -> bool {
        self.state
            .compare_exchange(UNSET, SLEEPING, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// The waiter is awake again (no effect if the latch was set meanwhile).
    #[inline]
    pub(crate) fn wake_up(&self) {
        let _ = self
            .state
            .compare_exchange(SLEEPING, UNSET, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Sets the latch; returns whether the waiter was asleep (and so must be woken).
    ///
    /// # Safety
    /// `this` is valid on entry; it is not touched after the swap.
    #[inline]
    pub(crate) unsafe fn set(this: *const Self) -> bool {
        // SAFETY: valid on entry per the contract; the swap is the last access.
        unsafe { (*this).state.swap(SET, Ordering::AcqRel) == SLEEPING }
    }
}

/// The latch of a `join`'s second half. A `join` that nobody steals never touches it:
/// it stays uninitialised while the half is a pending frame of its worker (`frames.rs`),
/// and whoever hands the frame out initialises it (the owner publishing it, or a thief
/// claiming it under the frame stack's lock) before the job can run elsewhere and
/// before the owner, learning that it is gone, can probe it. It wakes the owner, which
/// waits for it, through its registry, which the setter (a worker of the same pool)
/// keeps alive.
pub(crate) struct SpinLatch(UnsafeCell<MaybeUninit<SpinLatchState>>);

struct SpinLatchState {
    core: CoreLatch,
    registry: *const Registry,
    target: usize,
}

impl SpinLatch {
    /// A latch to be initialised by [`SpinLatch::init`] before any other use.
    #[inline]
    pub(crate) fn uninit() -> Self {
        SpinLatch(UnsafeCell::new(MaybeUninit::uninit()))
    }

    /// Makes the latch unset, waited on by worker `target` of `registry`.
    ///
    /// # Safety
    /// `this` points to a live latch that nobody else uses yet (its job is being handed
    /// out of a frame stack, under its lock or by its owner).
    #[inline]
    pub(crate) unsafe fn init(this: *const Self, registry: &Registry, target: usize) {
        // SAFETY: per the contract, nobody else reads or writes it now.
        unsafe {
            (*(*this).0.get()).write(SpinLatchState {
                core: CoreLatch::new(),
                registry,
                target,
            });
        }
    }

    /// The core latch, to probe or wait on.
    ///
    /// # Safety
    /// The latch was initialised ([`SpinLatch::init`]): its job left the frame stack.
    #[inline]
    pub(crate) unsafe fn core(&self) -> &CoreLatch {
        // SAFETY: initialised per the contract; only the core latch's atomics change.
        unsafe { &(*self.0.get()).assume_init_ref().core }
    }
}

impl Latch for SpinLatch {
    #[inline]
    unsafe fn set(this: *const Self) {
        // SAFETY: a job is executed only after it left the frame stack, so the latch
        // was initialised; `this` is valid until the core latch is set, so the registry
        // and target are read first; the registry is kept alive by the setter's own (a
        // frame's job goes only to its own pool's deque and workers: published on its
        // owner's deque, stolen or claimed by that pool's workers).
        unsafe {
            let state = (*(*this).0.get()).as_ptr();
            let registry = (*state).registry;
            let target = (*state).target;
            if CoreLatch::set(&raw const (*state).core) {
                (*registry).sleep.wake_specific_thread(target);
            }
        }
    }
}

/// The latch of a job injected into another pool by one of this pool's workers
/// (`install` across pools): set from the other pool, so it keeps this registry alive
/// until the wake-up is done.
pub(crate) struct CrossLatch<'r> {
    pub(crate) core: CoreLatch,
    registry: &'r Arc<Registry>,
    target_worker: usize,
}

impl<'r> CrossLatch<'r> {
    /// A latch waited on by worker `target_worker` of `registry`.
    pub(crate) fn new(registry: &'r Arc<Registry>, target_worker: usize) -> Self {
        CrossLatch {
            core: CoreLatch::new(),
            registry,
            target_worker,
        }
    }
}

impl Latch for CrossLatch<'_> {
    #[inline]
    unsafe fn set(this: *const Self) {
        // SAFETY: `this` is valid until the core latch is set; the registry is cloned
        // first, so the wake-up after it is on a live registry.
        unsafe {
            let registry = Arc::clone((*this).registry);
            let target = (*this).target_worker;
            if CoreLatch::set(&raw const (*this).core) {
                registry.sleep.wake_specific_thread(target);
            }
        }
    }
}

/// A latch for threads outside the pool. The waiter first spins for a few tens of
/// microseconds (a job handed to a warm pool usually comes back sooner than a blocked
/// thread could be woken), then blocks on a condition variable.
#[derive(Debug)]
pub(crate) struct LockLatch {
    set: AtomicBool,
    /// Whether the waiter is blocked on `v` (so the setter must notify it).
    blocked: Mutex<bool>,
    v: Condvar,
}

/// How long a waiter outside the pool spins before it blocks.
#[cfg(not(all(loom, test)))]
const SPIN: std::time::Duration = std::time::Duration::from_micros(30);

impl LockLatch {
    /// An unset latch.
    pub(crate) fn new() -> Self {
        LockLatch {
            set: AtomicBool::new(false),
            blocked: Mutex::new(false),
            v: Condvar::new(),
        }
    }

    /// Blocks until set, then resets it for the next use.
    pub(crate) fn wait_and_reset(&self) {
        self.wait();
        self.set.store(false, Ordering::Relaxed);
    }

    /// Blocks until set. Returns only after the setter is done with the latch, so the
    /// caller may free it.
    pub(crate) fn wait(&self) {
        if self.spin() {
            // The setter may still hold the lock (it sets the flag under it): wait for
            // it to let go before the latch can be freed.
            drop(self.lock());
            return;
        }
        let mut blocked = self.lock();
        while !self.set.load(Ordering::Acquire) {
            *blocked = true;
            blocked = self.v.wait(blocked).unwrap_or_else(|e| e.into_inner());
        }
        *blocked = false;
    }

    /// Spins (yielding the core now and then) until set or `SPIN` has passed.
    #[cfg(not(all(loom, test)))]
    fn spin(&self) -> bool {
        let start = std::time::Instant::now();
        loop {
            for _ in 0..64 {
                if self.set.load(Ordering::Acquire) {
                    return true;
                }
                std::hint::spin_loop();
            }
            if start.elapsed() >= SPIN {
                return false;
            }
            std::thread::yield_now();
        }
    }

    /// Under loom spinning only multiplies interleavings: block at once.
    #[cfg(all(loom, test))]
    fn spin(&self) -> bool {
        false
    }

    fn lock(&self) -> MutexGuard<'_, bool> {
        self.blocked.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Latch for LockLatch {
    unsafe fn set(this: *const Self) {
        // SAFETY: valid on entry; the waiter cannot return (and free the latch) before we
        // release the lock, which is the last thing the guard's drop does: a blocked
        // waiter needs the lock to wake, a spinning one takes it before it returns.
        unsafe {
            let blocked = (*this).lock();
            (*this).set.store(true, Ordering::Release);
            if *blocked {
                (*this).v.notify_all();
            }
        }
    }
}

/// A reference to a latch living elsewhere (a thread-local or a shared counter).
pub(crate) struct LatchRef<'a, L> {
    inner: &'a L,
}

impl<'a, L> LatchRef<'a, L> {
    /// Refers to `inner`.
    pub(crate) fn new(inner: &'a L) -> Self {
        LatchRef { inner }
    }
}

impl<L: Latch> Latch for LatchRef<'_, L> {
    #[inline]
    unsafe fn set(this: *const Self) {
        // SAFETY: the referenced latch outlives the job holding this reference; the pointer
        // is read before anything is set.
        unsafe { L::set((*this).inner) }
    }
}

/// How a [`CountLatch`]'s owner waits.
enum CountLatchKind {
    /// A worker that keeps stealing while it waits.
    Stealing {
        core: CoreLatch,
        registry: Arc<Registry>,
        worker_index: usize,
    },
    /// A thread outside the pool, blocked on a lock.
    Blocking { latch: LockLatch },
}

/// A latch set when a counter of outstanding jobs drops to zero (scopes, broadcasts).
pub(crate) struct CountLatch {
    counter: AtomicUsize,
    kind: CountLatchKind,
}

impl CountLatch {
    /// A latch with `count` outstanding jobs, waited on by `owner` (a worker index in
    /// `registry`) or, if `None`, by a thread outside the pool.
    pub(crate) fn new(count: usize, owner: Option<(&Arc<Registry>, usize)>) -> Self {
        let kind = match owner {
            Some((registry, worker_index)) => CountLatchKind::Stealing {
                core: CoreLatch::new(),
                registry: Arc::clone(registry),
                worker_index,
            },
            None => CountLatchKind::Blocking {
                latch: LockLatch::new(),
            },
        };
        CountLatch {
            counter: AtomicUsize::new(count),
            kind,
        }
    }

    /// One more outstanding job.
    #[inline]
    pub(crate) fn increment(&self) {
        let old = self.counter.fetch_add(1, Ordering::Relaxed);
        debug_assert!(old > 0, "prorata: count latch revived after reaching zero");
    }

    /// Waits until the count is zero: stealing if the owner is a worker, blocking if not.
    pub(crate) fn wait(&self, worker: Option<&super::worker::WorkerThread>) {
        match &self.kind {
            CountLatchKind::Stealing { core, .. } => {
                let worker = worker.expect("prorata: stealing count latch waited off-pool");
                worker.wait_until(core);
            }
            CountLatchKind::Blocking { latch } => latch.wait(),
        }
    }
}

impl Latch for CountLatch {
    #[inline]
    unsafe fn set(this: *const Self) {
        // SAFETY: valid on entry; once the counter reaches zero the owner may return, so the
        // registry is cloned before the core latch is set and nothing else is read after.
        unsafe {
            if (*this).counter.fetch_sub(1, Ordering::AcqRel) != 1 {
                return;
            }
            match &(*this).kind {
                CountLatchKind::Stealing {
                    core,
                    registry,
                    worker_index,
                } => {
                    let registry = Arc::clone(registry);
                    let index = *worker_index;
                    if CoreLatch::set(core) {
                        registry.sleep.wake_specific_thread(index);
                    }
                }
                CountLatchKind::Blocking { latch } => LockLatch::set(latch),
            }
        }
    }
}
