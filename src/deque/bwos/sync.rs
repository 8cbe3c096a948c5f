//! The primitives the BWoS protocol is written with. Under `--cfg loom` (in the crate's
//! unit tests) they are loom's, so `ci/loom.sh` can model-check the protocol, slot
//! accesses included; otherwise the standard library's.

#[cfg(all(loom, test))]
pub(crate) use loom::sync::atomic::{
    AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};
#[cfg(all(loom, test))]
pub(crate) use loom::sync::{Arc, Mutex};

#[cfg(not(all(loom, test)))]
pub(crate) use std::sync::atomic::{
    AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};
#[cfg(not(all(loom, test)))]
pub(crate) use std::sync::{Arc, Mutex};

/// Keeps every ring and block a thief can reach alive while it holds the guard: the
/// owner hands those it replaces to the epoch collector (`Inner::retire`), which frees
/// them once no guard from before is held. Under loom, which does not model the
/// collector, a guard is nothing and the queue keeps what it replaced until it drops.
#[cfg(not(all(loom, test)))]
#[inline]
pub(crate) fn pin() -> crossbeam_epoch::Guard {
    crossbeam_epoch::pin()
}

/// Keeps every ring and block a thief can reach alive while it holds the guard: the
/// owner hands those it replaces to the epoch collector (`Inner::retire`), which frees
/// them once no guard from before is held. Under loom, which does not model the
/// collector, a guard is nothing and the queue keeps what it replaced until it drops.
#[cfg(all(loom, test))]
#[inline]
pub(crate) fn pin() -> Unpinned {
    Unpinned
}

/// What `pin` returns under loom: no guard at all.
#[cfg(all(loom, test))]
pub(crate) struct Unpinned;

/// Lets the thread that the owner waits for run (a thief between claiming a slot and
/// reading it); under loom, lets the model switch threads.
#[cfg(all(loom, test))]
pub(crate) fn spin_wait() {
    loom::thread::yield_now();
}

/// Lets the thread that the owner waits for run (a thief between claiming a slot and
/// reading it); under loom, lets the model switch threads.
#[cfg(not(all(loom, test)))]
pub(crate) fn spin_wait() {
    std::thread::yield_now();
}

/// A slot: loom's `UnsafeCell` under loom (which reports racing accesses), else a thin
/// wrapper over the standard one with the same closure-based interface.
#[cfg(all(loom, test))]
pub(crate) use loom::cell::UnsafeCell;

/// A slot: loom's `UnsafeCell` under loom (which reports racing accesses), else a thin
/// wrapper over the standard one with the same closure-based interface.
#[cfg(not(all(loom, test)))]
#[derive(Debug)]
pub(crate) struct UnsafeCell<T>(std::cell::UnsafeCell<T>);

#[cfg(not(all(loom, test)))]
impl<T> UnsafeCell<T> {
    pub(crate) const fn new(value: T) -> Self {
        UnsafeCell(std::cell::UnsafeCell::new(value))
    }

    #[inline(always)]
    pub(crate) fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
        f(self.0.get())
    }

    #[inline(always)]
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.0.get())
    }
}
