//! Waiting for a pool's threads to exit ([`ThreadPool::wait`](crate::ThreadPool::wait)).
//!
//! Every worker handed to a thread counts as running from the moment its
//! [`ThreadBuilder`](super::ThreadBuilder) exists (or worker 0 of a
//! `use_current_thread` pool is handed to a new thread) until that builder's
//! `run` has returned, or the builder is dropped unrun: a [`RunningWorker`]
//! guard is held for that span, so no path (a spawn that fails, a handler that
//! panics) leaves the count up. The threads that prorata itself starts for a pool
//! also leave their join handle here; the wait joins them after the count is
//! zero, so that it returns only once those threads have exited (their
//! thread-locals dropped), not merely left the worker's loop. A user's spawn
//! handler gives no handle: for its threads the wait ends when `run` returns.
//!
//! A count and a condition variable under one lock: workers end rarely (once
//! per thread), so nothing here is on a hot path.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// The running workers of one pool and the threads to join.
#[derive(Default)]
pub(crate) struct WorkerExits {
    state: Mutex<State>,
    /// Notified when the count falls to zero.
    ended: Condvar,
}

#[derive(Default)]
struct State {
    /// Workers handed to a thread whose `run` has not returned yet.
    running: usize,
    /// Threads prorata started for the pool's workers, not joined yet.
    threads: Vec<JoinHandle<()>>,
}

impl WorkerExits {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing that can panic runs under this lock; a poisoned one is whole.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A worker of `exits`'s pool is about to be handed to a thread: it counts as
    /// running until the returned guard is dropped.
    pub(crate) fn running(exits: &Arc<WorkerExits>) -> RunningWorker {
        exits.lock().running += 1;
        RunningWorker(Arc::clone(exits))
    }

    /// `handle` is the thread prorata started for one of the pool's workers: the
    /// wait joins it.
    pub(crate) fn keep(&self, handle: JoinHandle<()>) {
        self.lock().threads.push(handle);
    }

    /// Waits until no worker runs, then joins the threads kept. Called once the
    /// pool has terminated, so every worker ends once its work is done.
    pub(crate) fn wait(&self) {
        let mut state = self.lock();
        while state.running > 0 {
            state = self.ended.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        let threads = std::mem::take(&mut state.threads);
        drop(state);
        for thread in threads {
            // A worker's thread catches what its jobs and handlers raise (or the
            // process aborts), so an error here is a panic that escaped a
            // thread-local's destructor: the thread has exited all the same.
            let _ = thread.join();
        }
    }
}

/// Counts one worker as running while it lives (see [`WorkerExits::running`]).
pub(crate) struct RunningWorker(Arc<WorkerExits>);

impl Drop for RunningWorker {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.running -= 1;
        if state.running == 0 {
            self.0.ended.notify_all();
        }
    }
}
