//! The synchronisation types of the rings: std's, or loom's under `--cfg loom` (the
//! unit tests of `ci/loom.sh`), where a slot is loom's `UnsafeCell`, so that loom also
//! checks that no slot is read while it is written.

#[cfg(all(loom, test))]
pub(crate) use loom::sync::atomic::{AtomicPtr, AtomicU32, AtomicUsize, Ordering};
#[cfg(all(loom, test))]
pub(crate) use loom::sync::{Mutex, MutexGuard};

#[cfg(not(all(loom, test)))]
pub(crate) use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicUsize, Ordering};
#[cfg(not(all(loom, test)))]
pub(crate) use std::sync::{Mutex, MutexGuard};

/// One cell of a ring, written by its owner and read by a collector.
#[derive(Debug)]
pub(crate) struct Slot<T> {
    #[cfg(all(loom, test))]
    cell: loom::cell::UnsafeCell<T>,
    #[cfg(not(all(loom, test)))]
    cell: std::cell::UnsafeCell<T>,
}

impl<T: Copy> Slot<T> {
    pub(crate) fn new(value: T) -> Self {
        Slot {
            #[cfg(all(loom, test))]
            cell: loom::cell::UnsafeCell::new(value),
            #[cfg(not(all(loom, test)))]
            cell: std::cell::UnsafeCell::new(value),
        }
    }

    /// Writes the slot.
    ///
    /// # Safety
    /// Nobody reads or writes the slot meanwhile.
    #[inline]
    pub(crate) unsafe fn write(&self, value: T) {
        #[cfg(all(loom, test))]
        // SAFETY: forwarded from the caller.
        self.cell.with_mut(|p| unsafe { *p = value });
        #[cfg(not(all(loom, test)))]
        // SAFETY: forwarded from the caller.
        unsafe {
            *self.cell.get() = value
        };
    }

    /// Reads the slot.
    ///
    /// # Safety
    /// Nobody writes the slot meanwhile.
    #[inline]
    pub(crate) unsafe fn read(&self) -> T {
        #[cfg(all(loom, test))]
        // SAFETY: forwarded from the caller.
        return self.cell.with(|p| unsafe { *p });
        #[cfg(not(all(loom, test)))]
        // SAFETY: forwarded from the caller.
        unsafe {
            *self.cell.get()
        }
    }
}
