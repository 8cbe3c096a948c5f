//! Thread starts that a share's thread bound refused, watched from outside the
//! share.
//!
//! A share asks again for a refused start at its workers' safe points (see
//! `Registry::retry_refused_start`). A share whose threads all block outside
//! prorata (one task receives from a channel what another, still queued, would
//! send) passes no safe point, and would wait forever. So each share with a
//! refused start is listed here, and the workers of every share, at their paced
//! safe points and when they give a core back, look at the list now and then:
//! a share that holds a core and has not asked again for a while ([`STUCK_AFTER`])
//! gets its thread anyway.
//!
//! Those workers may all be asleep: the share may be the only one running, its
//! one thread spinning in a `join`'s first half until the second half has run
//! elsewhere. So while the list holds a share, a timer thread looks at it too
//! (four times per [`STUCK_AFTER`]); it ends once the list is empty, or when the
//! permits are dropped. It runs no user code, and exists only while a start
//! stays refused: with the bound off, never.

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use super::sync::{AtomicBool, Ordering};

use super::permits::Permits;
use super::pool_link::ShareWorkers;

/// How long a share that holds a core may go without asking again for a
/// start the thread bound refused before it gets the thread anyway (see
/// the module's doc). Long enough that a holder the OS merely kept off its
/// processor a while is not taken for one blocked: with two quanta (8 ms), a
/// run of 200 shares on 2 cores started five threads past the bound, and one
/// of its windows had a share 61% off its part; with 50 ms, four runs started
/// none.
pub(crate) const STUCK_AFTER: Duration = Duration::from_millis(50);

/// [`STUCK_AFTER`] in nanoseconds (the permits' clock).
const STUCK_AFTER_NANOS: u64 = STUCK_AFTER.as_nanos() as u64;

/// The shares with a refused start, and when the list was last looked at.
#[derive(Debug)]
pub(crate) struct StalledStarts {
    flags: WatchFlags,
    /// When the list was last looked at (the permits' clock).
    looked_at: AtomicU64,
    shares: Mutex<Vec<Weak<ShareWorkers>>>,
}

impl Default for StalledStarts {
    fn default() -> Self {
        StalledStarts {
            flags: WatchFlags::new(),
            looked_at: AtomicU64::new(0),
            shares: Mutex::default(),
        }
    }
}

/// Whether the list may hold a share, and whether the timer thread runs: the
/// two flags by which a share being listed and the timer thread's end meet.
/// Each side writes its flag and then reads the other's, so at least one sees
/// the other's write: a share listed as the timer finds the list empty either
/// sees the timer still running, which then sees the share and goes on, or
/// starts a new one (model-checked in `shares/tests/loom_stalled_starts.rs`).
#[derive(Debug)]
pub(crate) struct WatchFlags {
    /// Whether the list may hold a share: lookers go no further while it is
    /// unset (one relaxed load).
    any: AtomicBool,
    /// Whether the timer thread runs (or is being started).
    timer: AtomicBool,
}

impl WatchFlags {
    pub(crate) fn new() -> Self {
        WatchFlags {
            any: AtomicBool::new(false),
            timer: AtomicBool::new(false),
        }
    }

    /// Whether the list holds a share, after a change to it (under its lock).
    pub(crate) fn set_any(&self, any: bool) {
        self.any.store(any, Ordering::SeqCst);
    }

    /// Whether the list may hold a share (one relaxed load).
    #[inline]
    pub(crate) fn may_hold_any(&self) -> bool {
        self.any.load(Ordering::Relaxed)
    }

    /// After a share was listed: whether the caller is to start the timer
    /// thread (none runs, or one is ending).
    pub(crate) fn claim_timer(&self) -> bool {
        !self.timer.swap(true, Ordering::SeqCst)
    }

    /// The timer thread the caller claimed could not be started.
    pub(crate) fn timer_not_started(&self) {
        self.timer.store(false, Ordering::SeqCst);
    }

    /// The timer thread found the list empty: whether it ends now. It goes on
    /// if a share was listed meanwhile and its lister left the timer to it.
    pub(crate) fn timer_ends(&self) -> bool {
        // A swap, not a store: a lister's claim that read `true` comes before it
        // in the flag's order, and so its listing before the load below (an
        // acquire-release chain, which the model checks; a store and a load
        // would need the sequentially consistent order, which loom does not).
        self.timer.swap(false, Ordering::SeqCst);
        !self.any.load(Ordering::SeqCst) || self.timer.swap(true, Ordering::SeqCst)
    }
}

/// Where a listed share stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stall {
    /// No refused start waits: off the list.
    None,
    /// It asked again recently, or waits for a core (it asks again when it
    /// gets one): stays on the list.
    Asking,
    /// It holds a core and has not asked again for a while: start its thread.
    Stuck,
}

impl StalledStarts {
    /// Lists `share`, whose start was just refused (once: the share keeps
    /// itself from being listed twice).
    pub(crate) fn watch(&self, share: Weak<ShareWorkers>) {
        let mut shares = self.shares.lock().unwrap_or_else(|e| e.into_inner());
        shares.push(share);
        self.flags.set_any(true);
    }

    /// Makes sure the timer thread of `permits`' list runs (after a share was
    /// listed), looking at the list every quarter of [`STUCK_AFTER`].
    pub(crate) fn keep_watching(permits: &Arc<Permits>) {
        let stalls = &permits.stalls;
        if !stalls.flags.claim_timer() {
            return;
        }
        let weak = Arc::downgrade(permits);
        let spawned = std::thread::Builder::new()
            .name("prorata-stall-watch".into())
            .spawn(move || Self::time(&weak));
        if spawned.is_err() {
            // No thread to be had: the workers' own looks remain.
            stalls.flags.timer_not_started();
        }
    }

    /// The timer thread's loop: ends when the permits are gone, or when the list
    /// is empty and no other thread has been asked for since.
    fn time(permits: &Weak<Permits>) {
        loop {
            std::thread::sleep(STUCK_AFTER / 4);
            let Some(permits) = permits.upgrade() else {
                return;
            };
            let stalls = &permits.stalls;
            if stalls.may_hold_any() {
                stalls.look(permits.now());
            } else if stalls.flags.timer_ends() {
                return;
            }
        }
    }

    /// Whether a share may be listed (one relaxed load).
    #[inline]
    pub(crate) fn may_hold_any(&self) -> bool {
        self.flags.may_hold_any()
    }

    /// At `now`, looks at the listed shares if it has not been done for a
    /// quarter of [`STUCK_AFTER`], and starts a thread for each stuck one (see
    /// [`ShareWorkers::stall`]).
    #[cold]
    pub(crate) fn look(&self, now: u64) {
        let at = self.looked_at.load(Ordering::Relaxed);
        if now.saturating_sub(at) < STUCK_AFTER_NANOS / 4
            || self
                .looked_at
                .compare_exchange(at, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let Ok(mut shares) = self.shares.try_lock() else {
            return;
        };
        let mut stuck: Vec<Arc<ShareWorkers>> = Vec::new();
        shares.retain(|share| {
            let Some(share) = share.upgrade() else {
                return false;
            };
            match share.stall(now, STUCK_AFTER_NANOS) {
                Stall::Asking => true,
                Stall::None => {
                    // A refusal noted between the look above and the unlisting
                    // found the share still listed and did not list it again:
                    // it stays. (Both sides write one flag and then read the
                    // other, in sequentially consistent order, so one of them
                    // sees the other's write.)
                    share.unlist();
                    if share.stall(now, STUCK_AFTER_NANOS) == Stall::None {
                        false
                    } else {
                        share.relist();
                        true
                    }
                }
                Stall::Stuck => {
                    stuck.push(share);
                    false
                }
            }
        });
        self.flags.set_any(!shares.is_empty());
        drop(shares);
        for share in stuck {
            share.unlist();
            share.start_anyway();
        }
    }
}
