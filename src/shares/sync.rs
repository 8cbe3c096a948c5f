//! The synchronisation types the permits use: std's normally, loom's when the
//! unit tests are built for model checking (`RUSTFLAGS="--cfg loom"`).

#[cfg(all(test, loom))]
pub(crate) use loom::sync::{
    Arc, Condvar, Mutex, MutexGuard,
    atomic::{AtomicBool, Ordering},
};

#[cfg(not(all(test, loom)))]
pub(crate) use std::sync::{
    Arc, Condvar, Mutex, MutexGuard,
    atomic::{AtomicBool, Ordering},
};
