//! `use_current_thread`: the building thread as worker 0 of its pool, held in a
//! thread-local until the pool is dropped on that thread or the thread exits; then a
//! new thread takes worker 0's place until the pool terminates.
//!
//! The worker moves to that thread only when nothing on this thread's stack still
//! uses it: code here holds references to it across user code (a `join` with a frame
//! on its stack, whose second half may be queued on its deque; a scope, a wait or a
//! yield running jobs). A pool dropped from there (inside a join's closure, a scope's
//! body, a job this thread runs) leaves worker 0 on this thread until the thread
//! exits, as Rayon's `use_current_thread` always does: two threads never drive one
//! worker, and no reference to it outlives its stay here (the rule of
//! `WorkerThread::set_current`).

use std::cell::RefCell;
use std::sync::Arc;

use super::registry::Registry;
use super::worker::WorkerThread;
use super::worker_exits::WorkerExits;

thread_local! {
    /// The worker of a `use_current_thread` pool living on this thread.
    static CURRENT_THREAD_WORKER: CurrentThreadWorker = const { CurrentThreadWorker(RefCell::new(None)) };
}

/// Holds the worker of a `use_current_thread` pool; hands it off when dropped.
struct CurrentThreadWorker(RefCell<Option<Box<WorkerThread>>>);

impl Drop for CurrentThreadWorker {
    fn drop(&mut self) {
        if let Some(worker) = self.0.get_mut().take() {
            WorkerThread::clear_current();
            hand_off(worker);
        }
    }
}

/// If the current thread is worker 0 of `registry` by `use_current_thread`, stops that,
/// unless the worker is in use on this thread (then it stays until the thread exits).
pub(crate) fn release_current_thread(registry: &Registry) {
    let _ = CURRENT_THREAD_WORKER.try_with(|holder| {
        let mut slot = holder.0.borrow_mut();
        if slot
            .as_ref()
            .is_some_and(|w| w.registry().id() == registry.id() && !w.is_in_use())
        {
            WorkerThread::clear_current();
            if let Some(worker) = slot.take() {
                drop(slot);
                hand_off(worker);
            }
        }
    });
}

/// Worker 0 leaves this thread, not its pool: a new thread takes its place and runs
/// the main loop of a worker (start handler, jobs, exit handler) until the pool
/// terminates, like the other workers. Else work that only worker 0 can run (its
/// part of a `spawn_broadcast`, or everything, if it is the only worker) would never
/// run, and the workers waiting for it would never exit. If the OS refuses the
/// thread, the worker is dropped and that work is lost. The new thread is one the
/// pool started: `ThreadPool::wait` (which hands off before it waits) joins it.
fn hand_off(worker: Box<WorkerThread>) {
    let mut b = std::thread::Builder::new().name("prorata-worker-0".into());
    if let Some(size) = worker.registry().stack_size {
        b = b.stack_size(size);
    }
    let registry = Arc::clone(worker.registry());
    // Counted from before the spawn: a thread that never starts drops it unrun.
    let running = WorkerExits::running(&registry.exits);
    let spawned = b.spawn(move || {
        // Such a pool's workers never retire.
        let _ = worker.run_as_current(|| worker.main_loop());
        drop(running);
    });
    if let Ok(handle) = spawned {
        registry.exits.keep(handle);
    }
}

/// Makes `worker` the current thread's worker, kept until [`release_current_thread`] or
/// the thread's exit. On a thread that is exiting (a thread-local's destructor builds
/// the pool after the one holding worker 0 is gone), a new thread takes worker 0 at once.
pub(crate) fn adopt_current_thread(worker: Box<WorkerThread>) {
    let pointer: *const WorkerThread = &*worker;
    let mut worker = Some(worker);
    let _ = CURRENT_THREAD_WORKER.try_with(|holder| *holder.0.borrow_mut() = worker.take());
    match worker {
        // SAFETY: the box is in this thread's CURRENT_THREAD_WORKER (moving a box does
        // not move what it points to), which keeps it until it unregisters it: when the
        // pool is dropped on this thread while nothing here uses the worker, or when
        // the thread exits.
        None => unsafe { WorkerThread::set_current(pointer) },
        Some(worker) => hand_off(worker),
    }
}
