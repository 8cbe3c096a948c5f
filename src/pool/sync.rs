//! The synchronisation primitives of the modelled protocols (latches, sleep/wake,
//! the list of stalled starts of `pool/shares/stalled_starts.rs`).
//!
//! Under `--cfg loom` (in the crate's unit tests) they are loom's instrumented types, so `ci/loom.sh` can model-check
//! the protocols; otherwise they are the standard library's.

#[cfg(all(loom, test))]
pub(crate) use loom::sync::atomic::{
    AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering, fence,
};
#[cfg(all(loom, test))]
pub(crate) use loom::sync::{Condvar, Mutex, MutexGuard};
/// Under loom a yield would force a switch to the other thread at every spin round,
/// hiding the interleavings the models are for; the spin rounds are few and bounded, so
/// they simply go on.
#[cfg(all(loom, test))]
pub(crate) fn yield_now() {}

#[cfg(not(all(loom, test)))]
pub(crate) use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering, fence};
#[cfg(not(all(loom, test)))]
pub(crate) use std::sync::{Condvar, Mutex, MutexGuard};
#[cfg(not(all(loom, test)))]
pub(crate) use std::thread::yield_now;
