//! `spawn_future`: a spawned job whose result is awaited from async code.
//!
//! The job and its [`SpawnFuture`] share one slot behind a lock: the job puts the
//! closure's result (or its panic) there and wakes the waker the last poll left;
//! a poll takes the result, or leaves its waker. Nothing here knows an executor:
//! any runtime's `Waker` works, and a poll never blocks (the lock is held only to
//! move a result or a waker). Dropping the future marks the slot: a job that has
//! not started then drops its closure without running it, and a job that has
//! finished or is running drops its result (a panic included) on its worker.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use super::unwind::{self, Payload};

/// The state of one `spawn_future` call, shared by its job and its future.
enum State<T> {
    /// Not finished; the waker of the last poll, if any.
    Waiting(Option<Waker>),
    /// Finished, not yet taken by a poll.
    Done(Result<T, Payload>),
    /// Taken by a poll.
    Taken,
    /// The future was dropped: nobody wants the result.
    Abandoned,
}

struct Slot<T>(Mutex<State<T>>);

impl<T> Slot<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // No user code runs while the lock is held (wakers are woken and results
        // dropped after it is released), so a poisoned lock holds a whole state.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The result of a closure run on a pool's workers by `spawn_future`
/// ([`crate::spawn_future`], [`ThreadPool::spawn_future`](crate::ThreadPool::spawn_future),
/// [`Share::spawn_future`](crate::Share::spawn_future)), to `.await` from async code
/// on any executor.
///
/// The closure starts as soon as a worker takes it, whether or not the future is
/// polled. Awaiting gives its result; if it panicked, the panic resumes in the
/// task that awaits. Dropping the future never blocks: a closure that has not
/// started by then never runs (it is dropped on a worker), one that is running
/// finishes and its result is dropped.
///
/// ```
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
///
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let mut fut = pin!(pool.spawn_future(|| 6 * 7));
/// // Any executor polls it; here a plain loop with a no-op waker.
/// let mut cx = Context::from_waker(Waker::noop());
/// let answer = loop {
///     if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
///         break v;
///     }
///     std::thread::yield_now();
/// };
/// assert_eq!(answer, 42);
/// ```
#[must_use = "a future's result is lost unless it is awaited; a closure not yet started does not run once its future is dropped"]
pub struct SpawnFuture<T> {
    slot: Arc<Slot<T>>,
}

impl<T> std::fmt::Debug for SpawnFuture<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match *self.slot.lock() {
            State::Waiting(_) => "waiting",
            State::Done(_) => "done",
            State::Taken => "taken",
            State::Abandoned => "abandoned",
        };
        f.debug_struct("SpawnFuture")
            .field("state", &state)
            .finish()
    }
}

impl<T> Future for SpawnFuture<T> {
    type Output = T;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let mut state = self.slot.lock();
        match std::mem::replace(&mut *state, State::Taken) {
            State::Done(result) => {
                drop(state);
                match result {
                    Ok(value) => Poll::Ready(value),
                    Err(payload) => unwind::resume_unwinding(payload),
                }
            }
            State::Waiting(waker) => {
                let waker = match waker {
                    Some(w) if w.will_wake(cx.waker()) => w,
                    _ => cx.waker().clone(),
                };
                *state = State::Waiting(Some(waker));
                Poll::Pending
            }
            State::Taken | State::Abandoned => {
                drop(state);
                panic!("prorata: a SpawnFuture was polled after it returned its result")
            }
        }
    }
}

impl<T> Drop for SpawnFuture<T> {
    fn drop(&mut self) {
        let old = std::mem::replace(&mut *self.slot.lock(), State::Abandoned);
        // A result nobody takes is dropped here, after the lock; a panic's payload
        // whose own drop panics is not let out of a drop.
        if let State::Done(Err(payload)) = old {
            unwind::drop_payload(payload);
        }
    }
}

/// The job and the future of a `spawn_future` call: the caller spawns the job (a
/// `'static` closure that never unwinds) and returns the future.
pub(crate) fn job_and_future<F, T>(func: F) -> (impl FnOnce() + Send + 'static, SpawnFuture<T>)
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let slot = Arc::new(Slot(Mutex::new(State::Waiting(None))));
    let job_slot = Arc::clone(&slot);
    (move || run(&job_slot, func), SpawnFuture { slot })
}

/// The job of a `spawn_future` call: runs `func` unless its future is gone, and
/// hands the result to the future.
fn run<F, T>(slot: &Slot<T>, func: F)
where
    F: FnOnce() -> T,
{
    if matches!(*slot.lock(), State::Abandoned) {
        // Dropping the closure may run user code: not under the lock, and a
        // panic in it is dropped too (nobody awaits this job).
        if let Err(payload) = unwind::halt_unwinding(move || drop(func)) {
            unwind::drop_payload(payload);
        }
        return;
    }
    let result = unwind::halt_unwinding(func);
    let mut state = slot.lock();
    match std::mem::replace(&mut *state, State::Done(result)) {
        State::Waiting(waker) => {
            drop(state);
            if let Some(waker) = waker {
                waker.wake();
            }
        }
        State::Abandoned => {
            // Abandoned while running: the result goes, outside the lock.
            let State::Done(result) = std::mem::replace(&mut *state, State::Abandoned) else {
                unreachable!("just stored")
            };
            drop(state);
            match result {
                Ok(value) => {
                    if let Err(payload) = unwind::halt_unwinding(move || drop(value)) {
                        unwind::drop_payload(payload);
                    }
                }
                Err(payload) => unwind::drop_payload(payload),
            }
        }
        State::Done(_) | State::Taken => unreachable!("a spawn_future job runs once"),
    }
}
