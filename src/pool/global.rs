//! The global pool (built lazily, or by `build_global`) and the free functions that ask
//! about the current pool.

use std::sync::{Arc, Mutex, OnceLock};

use super::build_error::{ThreadPoolBuildError, ThreadPoolBuildErrorKind};
use super::builder::ThreadPoolBuilder;
use super::registry::Registry;
use super::sleep::THREADS_MAX;
use super::worker::WorkerThread;

static GLOBAL: OnceLock<Arc<Registry>> = OnceLock::new();
/// Serialises building the global pool (so a failed build can be reported, and a second
/// explicit build is an error rather than a race).
static GLOBAL_INIT: Mutex<()> = Mutex::new(());

/// Builds the global pool with `build`, unless it exists.
pub(crate) fn init_global(
    build: impl FnOnce() -> Result<Arc<Registry>, ThreadPoolBuildError>,
) -> Result<(), ThreadPoolBuildError> {
    let _guard = GLOBAL_INIT.lock().unwrap_or_else(|e| e.into_inner());
    if GLOBAL.get().is_some() {
        return Err(ThreadPoolBuildError::new(
            ThreadPoolBuildErrorKind::GlobalPoolAlreadyInitialized,
        ));
    }
    let registry = build()?;
    let _ = GLOBAL.set(registry);
    Ok(())
}

/// The global pool, built with default settings on first use.
#[inline]
pub(crate) fn global_registry() -> &'static Arc<Registry> {
    match GLOBAL.get() {
        Some(r) => r,
        None => global_registry_cold(),
    }
}

#[cold]
fn global_registry_cold() -> &'static Arc<Registry> {
    let result = init_global(|| {
        ThreadPoolBuilder::new()
            .thread_name(|i| format!("prorata-{i}"))
            .build_registry()
    });
    match (result, GLOBAL.get()) {
        (_, Some(r)) => r,
        (Err(e), None) => panic!("prorata: the global thread pool could not be built: {e}"),
        (Ok(()), None) => unreachable!(),
    }
}

/// The registry of the current worker, or the global one.
#[inline]
pub(crate) fn current_registry() -> &'static Registry {
    match WorkerThread::current() {
        Some(worker) => worker.registry(),
        None => global_registry(),
    }
}

/// Number of threads in the current pool (the global pool outside any pool).
///
/// ```
/// assert!(prorata::current_num_threads() >= 1);
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
/// assert_eq!(pool.install(prorata::current_num_threads), 3);
/// ```
pub fn current_num_threads() -> usize {
    current_registry().num_threads()
}

/// Index of the current worker in its pool, or `None` outside any pool.
///
/// ```
/// assert_eq!(prorata::current_thread_index(), None);
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// assert_eq!(pool.install(prorata::current_thread_index), Some(0));
/// ```
pub fn current_thread_index() -> Option<usize> {
    WorkerThread::current().map(WorkerThread::index)
}

/// The most threads a pool may have; larger `num_threads` are clamped to it.
///
/// ```
/// assert!(prorata::max_num_threads() >= 256);
/// ```
pub fn max_num_threads() -> usize {
    THREADS_MAX
}
