//! Spare threads: the threads of retiring pools (share sub-pools) outlive the
//! worker they ran, so that the next worker to start takes one instead of a new
//! thread from the OS.
//!
//! A share made per request starts its workers when it gets work and ends them
//! when it is dropped; without spares each of its requests would pay a thread's
//! creation and exit (tens of microseconds, and system calls). Here a thread
//! whose worker has ended (retired, or its pool terminated) waits, for as long as
//! a worker waits before retiring, for another worker of the same thread name and
//! stack size (so `std::thread::current().name()` and the stack a worker runs on
//! are what its pool's builder said); then it exits. The threads are
//! process-wide, not a pool's: shares of different pools with the same names and
//! stack size use the same spares. A thread keeps its thread-locals from one
//! worker to the next, as a Rayon worker keeps them from one job to the next.
//!
//! Handing over ([`Spares`], model-checked in `loom_tests.rs`): a starter takes a
//! waiting thread off the list under the list's lock, then puts the worker in
//! that thread's slot. A waiting thread whose time is up takes itself off the
//! list under the same lock; if it is no longer on the list, a starter has chosen
//! it and it waits for the worker without a deadline. The two locks are never
//! held together.

use std::io;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering as StdOrdering};
use std::time::{Duration, Instant};

use super::sync::{Condvar, Mutex, MutexGuard};
use super::thread_builder::ThreadBuilder;

#[cfg(all(loom, test))]
use loom::sync::Arc;
#[cfg(not(all(loom, test)))]
use std::sync::Arc;

/// How long a thread waits for another worker after its worker ended.
const SPARE_LIFETIME: Duration = Duration::from_secs(1);

/// What a spare thread can run: workers of this thread name and stack size.
type Kind = (Option<String>, Option<usize>);

/// The process's spare threads.
fn spares() -> &'static Spares<Kind, ThreadBuilder> {
    static SPARES: OnceLock<Spares<Kind, ThreadBuilder>> = OnceLock::new();
    SPARES.get_or_init(Spares::new)
}

/// Set once a spare thread has started: the OS gives this process threads.
static PROVEN: AtomicBool = AtomicBool::new(false);

/// Whether a spare thread has started in this process (so a pool may take it
/// that the OS will start the next one too, and start none to find out).
pub(crate) fn proven() -> bool {
    PROVEN.load(StdOrdering::Relaxed)
}

/// Runs `thread` on a waiting spare thread of its name and stack size, or on a new
/// thread that becomes a spare when its worker ends. Fails only if the OS refuses
/// a new thread (the builder is then dropped, which hands its worker back).
pub(crate) fn spawn(thread: ThreadBuilder) -> io::Result<()> {
    let kind = (thread.name.clone(), thread.stack_size);
    let Err(thread) = spares().offer(&kind, thread) else {
        return Ok(());
    };
    let slot = Arc::new(Slot::new(kind));
    thread
        .std_builder()
        .spawn(move || serve(slot, thread))
        .map(drop)?;
    PROVEN.store(true, StdOrdering::Relaxed);
    Ok(())
}

/// The body of a spare thread: runs workers until none comes for a while.
fn serve(slot: Arc<Slot<Kind, ThreadBuilder>>, first: ThreadBuilder) {
    let mut next = Some(first);
    while let Some(thread) = next {
        thread.run();
        spares().list(&slot);
        next = spares().wait(&slot, Instant::now() + SPARE_LIFETIME);
    }
}

/// Items (workers) handed to waiting takers (threads) of the same kind.
pub(crate) struct Spares<K, T> {
    /// The takers waiting, newest last.
    waiting: Mutex<Vec<Arc<Slot<K, T>>>>,
}

/// A waiting taker: its kind, and where its next item is put.
pub(crate) struct Slot<K, T> {
    kind: K,
    next: Mutex<Option<T>>,
    handed: Condvar,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // No code that can panic runs under these locks; a poisoned one is whole.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<K, T> Slot<K, T> {
    pub(crate) fn new(kind: K) -> Self {
        Slot {
            kind,
            next: Mutex::new(None),
            handed: Condvar::new(),
        }
    }
}

impl<K: PartialEq, T> Spares<K, T> {
    pub(crate) fn new() -> Self {
        Spares {
            waiting: Mutex::new(Vec::new()),
        }
    }

    /// Hands `item` to the newest taker of `kind` waiting; gives it back if none
    /// waits.
    pub(crate) fn offer(&self, kind: &K, item: T) -> Result<(), T> {
        let taker = {
            let mut waiting = lock(&self.waiting);
            let found = waiting.iter().rposition(|s| s.kind == *kind);
            found.map(|i| waiting.remove(i))
        };
        let Some(slot) = taker else {
            return Err(item);
        };
        *lock(&slot.next) = Some(item);
        slot.handed.notify_one();
        Ok(())
    }

    /// Lists `slot` as waiting for an item.
    pub(crate) fn list(&self, slot: &Arc<Slot<K, T>>) {
        lock(&self.waiting).push(Arc::clone(slot));
    }

    /// Waits (listed) for an item until `deadline`; `None` if none came by then
    /// and `slot` is off the list.
    pub(crate) fn wait(&self, slot: &Arc<Slot<K, T>>, deadline: Instant) -> Option<T> {
        let mut next = lock(&slot.next);
        loop {
            if let Some(item) = next.take() {
                return Some(item);
            }
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            next = slot
                .handed
                .wait_timeout(next, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        drop(next);
        self.give_up(slot)
    }

    /// The end of a wait whose time is up: takes `slot` off the list, or, if a
    /// starter already took it off, waits for the item that starter is handing.
    pub(crate) fn give_up(&self, slot: &Arc<Slot<K, T>>) -> Option<T> {
        {
            let mut waiting = lock(&self.waiting);
            if let Some(i) = waiting.iter().position(|s| Arc::ptr_eq(s, slot)) {
                waiting.remove(i);
                return None;
            }
        }
        let mut next = lock(&slot.next);
        loop {
            if let Some(item) = next.take() {
                return Some(item);
            }
            next = slot.handed.wait(next).unwrap_or_else(|e| e.into_inner());
        }
    }
}
