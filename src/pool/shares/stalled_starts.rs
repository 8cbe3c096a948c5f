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

use std::sync::atomic::AtomicU64 as StdAtomicU64;
use std::sync::{Arc, Weak};
use std::time::Duration;

use super::link::ShareWorkers;
use crate::pool::sync::{AtomicBool, AtomicU64, Mutex, Ordering};
use crate::shares::Permits;

/// How long a share that holds a core may go without asking again for a
/// start the thread bound refused before it gets the thread anyway (see
/// the module's doc). Long enough that a holder the OS merely kept off its
/// processor a while is not taken for one blocked: with two quanta (8 ms), a
/// run of 200 shares on 2 cores started five threads past the bound, and one
/// of its windows had a share 61% off its part; with 50 ms, four runs started
/// none.
pub(crate) const STUCK_AFTER: Duration = Duration::from_millis(50);

/// [`STUCK_AFTER`] in nanoseconds (the permits' clock).
pub(crate) const STUCK_AFTER_NANOS: u64 = STUCK_AFTER.as_nanos() as u64;

/// The shares with a refused start, and when the list was last looked at: one
/// list for the shares of a pool's permits, held by each of them
/// (`ShareWorkers::stalls`).
/// Its entries are the shares' `Weak` handles; the loom model of the list
/// (`pool/shares/loom_stalled_starts.rs`) lists shares of its own.
#[derive(Debug)]
pub(crate) struct StalledStarts<E = Weak<ShareWorkers>> {
    flags: WatchFlags,
    /// When the list was last looked at (the permits' clock).
    looked_at: StdAtomicU64,
    shares: Mutex<Vec<E>>,
}

impl<E> Default for StalledStarts<E> {
    fn default() -> Self {
        StalledStarts {
            flags: WatchFlags::new(),
            looked_at: StdAtomicU64::new(0),
            shares: Mutex::new(Vec::new()),
        }
    }
}

/// A share's side of the list: when the thread bound last refused it a start,
/// and whether it is listed. A refusal writes the first and then reads (and
/// sets) the second; a look that unlists the share writes the second and then
/// reads the first, so one of them sees the other's write and a refusal is never
/// left off the list (model-checked in `pool/shares/loom_stalled_starts.rs`).
#[derive(Debug)]
pub(crate) struct StallMark {
    /// When the last refused start was refused (the permits' clock; 0: no
    /// refused start waits).
    refused_at: AtomicU64,
    /// Whether the share is on the list (or its refusal is listing it).
    listed: AtomicBool,
}

impl StallMark {
    pub(crate) fn new() -> Self {
        StallMark {
            refused_at: AtomicU64::new(0),
            listed: AtomicBool::new(false),
        }
    }

    /// The bound refused a start at `now`: returns whether the caller is to
    /// list the share ([`StalledStarts::watch`]), which was not listed.
    pub(crate) fn refused(&self, now: u64) -> bool {
        self.refused_at.store(now.max(1), Ordering::SeqCst);
        !self.listed.swap(true, Ordering::SeqCst)
    }

    /// No refused start waits any more (one started, or its work was taken).
    #[inline]
    pub(crate) fn clear(&self) {
        if self.refused_at.load(Ordering::Relaxed) != 0 {
            self.refused_at.store(0, Ordering::Relaxed);
        }
    }

    /// Where the share stands at `now`: stuck if a start was refused
    /// [`STUCK_AFTER`] ago or longer, with no refusal since, while one of its
    /// threads holds a core (`on_core`; a share whose threads all wait for cores
    /// asks again when one gets its core).
    fn stall(&self, now: u64, on_core: impl FnOnce() -> bool) -> Stall {
        let at = self.refused_at.load(Ordering::SeqCst);
        if at == 0 {
            Stall::None
        } else if now.saturating_sub(at) < STUCK_AFTER_NANOS || !on_core() {
            Stall::Asking
        } else {
            Stall::Stuck
        }
    }

    /// Off the list. A swap, not a store, as for the timer's flag (see
    /// [`WatchFlags::timer_ends`]): a refusal whose own swap found the share
    /// still listed comes before it, so the look that follows sees that
    /// refusal under acquire-release ordering alone.
    fn unlist(&self) {
        self.listed.swap(false, Ordering::SeqCst);
    }

    /// Back on the list, after [`StallMark::unlist`] was followed by a refusal:
    /// returns whether the look is to keep the share's entry. Not if that
    /// refusal found the share unlisted: it lists the share itself, and a
    /// second entry would start two threads for it.
    fn relist(&self) -> bool {
        !self.listed.swap(true, Ordering::SeqCst)
    }

    /// Whether a refused start waits, and whether the share is listed (for
    /// the model's checks).
    #[cfg(all(test, loom))]
    pub(crate) fn state(&self) -> (bool, bool) {
        (
            self.refused_at.load(Ordering::SeqCst) != 0,
            self.listed.load(Ordering::SeqCst),
        )
    }
}

/// What the list needs of a listed share.
pub(crate) trait Watched {
    fn mark(&self) -> &StallMark;
    /// Whether one of the share's threads holds a core.
    fn on_core(&self) -> bool;
    /// Starts a thread for the refused work past the bound (the share then
    /// runs one thread more than the bound lets it, until a thread retires).
    fn start_anyway(&self);
}

/// An entry of the list: the share, while it lives.
pub(crate) trait ListEntry {
    type Share: Watched;
    fn share(&self) -> Option<Self::Share>;
}

impl ListEntry for Weak<ShareWorkers> {
    type Share = Arc<ShareWorkers>;

    fn share(&self) -> Option<Arc<ShareWorkers>> {
        self.upgrade()
    }
}

/// Whether the list may hold a share, and whether the timer thread runs: the
/// two flags by which a share being listed and the timer thread's end meet.
/// Each side writes its flag and then reads the other's, so at least one sees
/// the other's write: a share listed as the timer finds the list empty either
/// sees the timer still running, which then sees the share and goes on, or
/// starts a new one (model-checked in `pool/shares/loom_stalled_starts.rs`).
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
enum Stall {
    /// No refused start waits: off the list.
    None,
    /// It asked again recently, or waits for a core (it asks again when it
    /// gets one): stays on the list.
    Asking,
    /// It holds a core and has not asked again for a while: start its thread.
    Stuck,
}

impl<E: ListEntry> StalledStarts<E> {
    /// Lists `share`, whose start was just refused (once: its
    /// [`StallMark::refused`] said so).
    pub(crate) fn watch(&self, share: E) {
        let mut shares = self.shares.lock().unwrap_or_else(|e| e.into_inner());
        shares.push(share);
        self.flags.set_any(true);
    }

    /// Whether a share may be listed (one relaxed load).
    #[inline]
    pub(crate) fn may_hold_any(&self) -> bool {
        self.flags.may_hold_any()
    }

    /// How many entries the list holds (for the model's checks).
    #[cfg(all(test, loom))]
    pub(crate) fn entries(&self) -> usize {
        self.shares.lock().unwrap().len()
    }

    /// At `now`, looks at the listed shares if it has not been done for a
    /// quarter of [`STUCK_AFTER`], and starts a thread for each stuck one (see
    /// [`StallMark::stall`]).
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
        let mut stuck: Vec<E::Share> = Vec::new();
        shares.retain(|entry| {
            let Some(share) = entry.share() else {
                return false;
            };
            let mark = share.mark();
            match mark.stall(now, || share.on_core()) {
                Stall::Asking => true,
                Stall::None => {
                    // A refusal noted between the look above and the unlisting
                    // found the share still listed and did not list it again:
                    // the entry stays (see `StallMark`).
                    mark.unlist();
                    mark.stall(now, || share.on_core()) != Stall::None && mark.relist()
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
            // Unlisted before the start clears the refusal: a refusal after
            // this lists the share again.
            share.mark().unlist();
            share.mark().clear();
            share.start_anyway();
        }
    }
}

impl StalledStarts {
    /// Makes sure the timer thread of this list (of the shares of `permits`)
    /// runs (after a share was listed), looking at the list every quarter of
    /// [`STUCK_AFTER`].
    pub(crate) fn keep_watching(self: &Arc<Self>, permits: &Arc<Permits>) {
        if !self.flags.claim_timer() {
            return;
        }
        let (stalls, weak) = (self.clone(), Arc::downgrade(permits));
        let spawned = std::thread::Builder::new()
            .name("prorata-stall-watch".into())
            .spawn(move || stalls.time(&weak));
        if spawned.is_err() {
            // No thread to be had: the workers' own looks remain.
            self.flags.timer_not_started();
        }
    }

    /// The timer thread's loop: ends when the permits are gone, or when the list
    /// is empty and no other thread has been asked for since.
    fn time(&self, permits: &Weak<Permits>) {
        loop {
            std::thread::sleep(STUCK_AFTER / 4);
            let Some(permits) = permits.upgrade() else {
                return;
            };
            if self.may_hold_any() {
                self.look(permits.now());
            } else if self.flags.timer_ends() {
                return;
            }
        }
    }
}
