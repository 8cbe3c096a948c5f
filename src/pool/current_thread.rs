//! `use_current_thread`: the building thread as worker 0 of its pool, held in a
//! thread-local until the pool is dropped on that thread or the thread exits.

use std::cell::RefCell;

use super::registry::Registry;
use super::worker::WorkerThread;

thread_local! {
    /// The worker of a `use_current_thread` pool living on this thread.
    static CURRENT_THREAD_WORKER: CurrentThreadWorker = const { CurrentThreadWorker(RefCell::new(None)) };
}

/// Holds the worker of a `use_current_thread` pool; unregisters it when dropped.
struct CurrentThreadWorker(RefCell<Option<Box<WorkerThread>>>);

impl Drop for CurrentThreadWorker {
    fn drop(&mut self) {
        if self.0.get_mut().is_some() {
            WorkerThread::clear_current();
        }
    }
}

/// If the current thread is worker 0 of `registry` by `use_current_thread`, stops that.
pub(crate) fn release_current_thread(registry: &Registry) {
    let _ = CURRENT_THREAD_WORKER.try_with(|holder| {
        let mut slot = holder.0.borrow_mut();
        if slot
            .as_ref()
            .is_some_and(|w| w.registry().id() == registry.id())
        {
            WorkerThread::clear_current();
            *slot = None;
        }
    });
}

/// Makes `worker` the current thread's worker, kept until [`release_current_thread`] or
/// the thread's exit.
pub(crate) fn adopt_current_thread(worker: Box<WorkerThread>) {
    // SAFETY: the box is kept in this thread's CURRENT_THREAD_WORKER until it is
    // unregistered (pool dropped on this thread, or thread exit).
    unsafe { WorkerThread::set_current(&*worker) };
    CURRENT_THREAD_WORKER.with(|holder| *holder.0.borrow_mut() = Some(worker));
}
