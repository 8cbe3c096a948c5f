//! Thread starts that a share's thread bound refused, watched from outside the
//! share.
//!
//! A share asks again for a refused start at its workers' safe points (see
//! `Registry::retry_refused_start`). A share whose threads all block outside
//! prorata (one task receives from a channel what another, still queued, would
//! send) passes no safe point, and would wait forever. So each share with a
//! refused start is listed here, and the workers of every share, at their paced
//! safe points and when they give a core back, look at the list now and then:
//! a share that holds a core and has not asked again for a while (`stuck_after`)
//! gets its thread anyway.
//!
//! Those workers may all be asleep: the share may be the only one running, its
//! one thread spinning in a `join`'s first half until the second half has run
//! elsewhere. So while the list holds a share, a timer thread looks at it too
//! (four times per `stuck_after`); it ends once the list is empty, or when the
//! permits are dropped. It runs no user code, and exists only while a start
//! stays refused: with the bound off, never.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use super::permits::Permits;
use super::pool_link::ShareWorkers;

/// The shares with a refused start, and when the list was last looked at.
#[derive(Debug, Default)]
pub(crate) struct StalledStarts {
    /// Whether the list may hold a share: lookers go no further while it is
    /// unset (one relaxed load).
    any: AtomicBool,
    /// When the list was last looked at (the permits' clock).
    looked_at: AtomicU64,
    /// Whether the timer thread runs (or is being started).
    timer: AtomicBool,
    shares: Mutex<Vec<Weak<ShareWorkers>>>,
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
        self.any.store(true, Ordering::SeqCst);
    }

    /// Makes sure the timer thread of `permits`' list runs (after a share was
    /// listed), looking at the list every quarter of `stuck_after`.
    pub(crate) fn keep_watching(permits: &Arc<Permits>, stuck_after: Duration) {
        let stalls = &permits.stalls;
        if stalls.timer.swap(true, Ordering::SeqCst) {
            return;
        }
        let weak = Arc::downgrade(permits);
        let spawned = std::thread::Builder::new()
            .name("prorata-stall-watch".into())
            .spawn(move || Self::time(&weak, stuck_after));
        if spawned.is_err() {
            // No thread to be had: the workers' own looks remain.
            stalls.timer.store(false, Ordering::SeqCst);
        }
    }

    /// The timer thread's loop: ends when the permits are gone, or when the list
    /// is empty and no other thread has been asked for since.
    fn time(permits: &Weak<Permits>, stuck_after: Duration) {
        let after = stuck_after.as_nanos() as u64;
        loop {
            std::thread::sleep(stuck_after / 4);
            let Some(permits) = permits.upgrade() else {
                return;
            };
            let stalls = &permits.stalls;
            if stalls.may_hold_any() {
                stalls.look(permits.now(), after);
                continue;
            }
            // A share listed after the load above saw the timer running and
            // started none: both sides write one flag, then read the other
            // (sequentially consistent), so one of them sees the other's write.
            stalls.timer.store(false, Ordering::SeqCst);
            if !stalls.any.load(Ordering::SeqCst) || stalls.timer.swap(true, Ordering::SeqCst) {
                return;
            }
        }
    }

    /// Whether a share may be listed (one relaxed load).
    #[inline]
    pub(crate) fn may_hold_any(&self) -> bool {
        self.any.load(Ordering::Relaxed)
    }

    /// At `now`, looks at the listed shares if it has not been done for a
    /// quarter of `stuck_after`, and starts a thread for each stuck one (see
    /// [`ShareWorkers::stall`]).
    #[cold]
    pub(crate) fn look(&self, now: u64, stuck_after: u64) {
        let at = self.looked_at.load(Ordering::Relaxed);
        if now.saturating_sub(at) < stuck_after / 4
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
            match share.stall(now, stuck_after) {
                Stall::Asking => true,
                Stall::None => {
                    // A refusal noted between the look above and the unlisting
                    // found the share still listed and did not list it again:
                    // it stays. (Both sides write one flag and then read the
                    // other, in sequentially consistent order, so one of them
                    // sees the other's write.)
                    share.unlist();
                    if share.stall(now, stuck_after) == Stall::None {
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
        self.any.store(!shares.is_empty(), Ordering::SeqCst);
        drop(shares);
        for share in stuck {
            share.unlist();
            share.start_anyway();
        }
    }
}
