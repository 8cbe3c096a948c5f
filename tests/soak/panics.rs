//! Injected panics and the ledger that checks each one is seen exactly once, by the
//! caller of the operation or by a pool's panic handler; and the soak's own failures.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once};

use super::stats::STATS;

/// The payload of an injected panic.
#[derive(Debug)]
pub struct Injected {
    pub id: u64,
}

/// Who saw an injected panic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seer {
    Caller,
    Handler,
}

/// At most one injected panic, fired by the first point of the operation that asks.
#[derive(Debug)]
pub struct Plan {
    id: u64,
    armed: bool,
    to_handler: bool,
    fired: AtomicBool,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Plan {
    /// A plan that fires when asked if `armed`.
    pub fn new(armed: bool, to_handler: bool) -> Arc<Plan> {
        Arc::new(Plan {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            armed,
            to_handler,
            fired: AtomicBool::new(false),
        })
    }

    /// Panics if armed, not fired yet, and the thread is not unwinding already (a
    /// panic during unwinding would abort).
    pub fn maybe_fire(&self) {
        if self.armed && !std::thread::panicking() && !self.fired.swap(true, Ordering::SeqCst) {
            LEDGER.fired(self.id, self.to_handler);
            panic::panic_any(Injected { id: self.id });
        }
    }

    pub fn fired(&self) -> bool {
        self.fired.load(Ordering::SeqCst)
    }
}

/// Every injected panic fired so far and how many times it was seen.
pub struct Ledger {
    entries: Mutex<BTreeMap<u64, (bool, u32)>>,
}

pub static LEDGER: Ledger = Ledger {
    entries: Mutex::new(BTreeMap::new()),
};

impl Ledger {
    fn fired(&self, id: u64, to_handler: bool) {
        let old = lock(&self.entries).insert(id, (to_handler, 0));
        assert!(old.is_none(), "soak: panic {id} fired twice");
        if to_handler {
            STATS.add(&STATS.panics_to_handler, 1);
        } else {
            STATS.add(&STATS.panics_to_caller, 1);
        }
    }

    /// Records that `seer` saw injected panic `inj`.
    pub fn seen(&self, inj: &Injected, seer: Seer) {
        let mut entries = lock(&self.entries);
        let Some((to_handler, seen)) = entries.get_mut(&inj.id) else {
            drop(entries);
            return fail(format!("injected panic {} seen but never fired", inj.id));
        };
        *seen += 1;
        let (to_handler, seen) = (*to_handler, *seen);
        drop(entries);
        if seen > 1 {
            return fail(format!("injected panic {} seen {seen} times", inj.id));
        }
        if to_handler != (seer == Seer::Handler) {
            return fail(format!(
                "injected panic {} meant for the {} was seen by the {seer:?}",
                inj.id,
                if to_handler {
                    "panic handler"
                } else {
                    "caller"
                }
            ));
        }
        let counter = match seer {
            Seer::Caller => &STATS.seen_by_caller,
            Seer::Handler => &STATS.seen_by_handler,
        };
        STATS.add(counter, 1);
    }

    /// Panics meant for handlers that fired but were not seen yet.
    pub fn handler_backlog(&self) -> usize {
        let e = lock(&self.entries);
        e.values().filter(|(h, seen)| *h && *seen == 0).count()
    }

    /// Fails unless every fired panic was seen exactly once; returns how many fired.
    pub fn check_all_seen(&self) -> usize {
        let e = lock(&self.entries);
        let unseen: Vec<u64> = e
            .iter()
            .filter(|(_, (_, s))| *s != 1)
            .map(|(id, _)| *id)
            .collect();
        let n = e.len();
        drop(e);
        if !unseen.is_empty() {
            fail(format!(
                "{} injected panics never seen: {unseen:?}",
                unseen.len()
            ));
        }
        n
    }
}

/// Runs `f`, catching the injected panic of `plan` (recorded as seen by the caller).
/// Returns `None` if it panicked. Fails on any other panic, and if `plan` fired for
/// the caller but `f` returned normally.
pub fn caught<R>(plan: &Plan, f: impl FnOnce() -> R) -> Option<R> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => {
            if plan.fired() && !plan.to_handler {
                fail(format!(
                    "injected panic {} fired but the call returned",
                    plan.id
                ));
            }
            Some(r)
        }
        Err(payload) => match payload.downcast::<Injected>() {
            Ok(inj) if inj.id == plan.id => {
                LEDGER.seen(&inj, Seer::Caller);
                None
            }
            Ok(inj) => {
                fail(format!(
                    "caught injected panic {} of another operation",
                    inj.id
                ));
                None
            }
            Err(other) => panic::resume_unwind(other),
        },
    }
}

/// The panic handler of every pool the soak builds (and of the global pool).
pub fn handler(payload: Box<dyn std::any::Any + Send>) {
    match payload.downcast::<Injected>() {
        Ok(inj) => LEDGER.seen(&inj, Seer::Handler),
        Err(other) => fail(format!(
            "a spawned job panicked: {}",
            message(&*other).unwrap_or("(not a string)")
        )),
    }
}

/// The text of a panic payload, if it is one.
pub fn message(payload: &(dyn std::any::Any + Send)) -> Option<&str> {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
}

/// Silences injected panics (thousands of them); others print as usual.
pub fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<Injected>().is_none() {
                default(info);
            }
        }));
    });
}

static FAILURES: Mutex<Vec<String>> = Mutex::new(Vec::new());
static FAILED: AtomicBool = AtomicBool::new(false);

/// Records a broken invariant (the run stops and fails); never panics, so it can be
/// called from `Drop` and from panic handlers.
pub fn fail(msg: String) {
    eprintln!("soak: FAILURE: {msg}");
    FAILED.store(true, Ordering::SeqCst);
    lock(&FAILURES).push(msg);
}

/// Whether any invariant broke.
pub fn failed() -> bool {
    FAILED.load(Ordering::SeqCst)
}

/// The failures recorded so far.
pub fn failures() -> Vec<String> {
    lock(&FAILURES).clone()
}

/// Checks `cond`; on failure records `msg` and panics out of the operation.
#[macro_export]
macro_rules! check {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            let msg = format!($($msg)+);
            $crate::panics::fail(msg.clone());
            panic!("{msg}");
        }
    };
}

/// Locks, ignoring poison (a failed check may panic while a lock is held).
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
