//! The synchronisation primitives of the modelled protocols (latches, sleep/wake).
//!
//! Under `--cfg loom` they are loom's instrumented types, so `ci/loom.sh` can model-check
//! the protocols; otherwise they are the standard library's.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU64, AtomicUsize, Ordering, fence};
#[cfg(loom)]
pub(crate) use loom::sync::{Condvar, Mutex};
#[cfg(loom)]
pub(crate) use loom::thread::yield_now;

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering, fence};
#[cfg(not(loom))]
pub(crate) use std::sync::{Condvar, Mutex};
#[cfg(not(loom))]
pub(crate) use std::thread::yield_now;
