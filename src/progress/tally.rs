//! Counting items for a shared bar without touching it on every item.
//!
//! Every worker folding a piece would otherwise hit the bar's one atomic position (and
//! indicatif's clock) per item; on cheap items that costs more than the items. A `Tally`
//! counts locally and hands the count over in batches whose size adapts to the items'
//! speed: it doubles while hand-overs come less than `FAST` apart and halves when they
//! come more than `SLOW` apart, so slow items still move the bar at once, and fast ones
//! touch it about once a millisecond. Whatever is still counted is handed over on drop,
//! so when a parallel call returns (normally, short-circuited or by a panic) the bar
//! has received every item that went through.

use std::time::{Duration, Instant};

use indicatif::ProgressBar;

/// Hand-overs closer together than this make the batch grow.
const FAST: Duration = Duration::from_millis(1);
/// Hand-overs further apart than this make the batch shrink.
const SLOW: Duration = Duration::from_millis(10);
/// The largest batch: bounds how stale the bar can be when items suddenly slow down.
const MAX_BATCH: u64 = 1 << 16;

/// Items counted by one sequential piece and not yet handed to `bar`.
#[derive(Debug)]
pub(super) struct Tally {
    bar: ProgressBar,
    pending: u64,
    batch: u64,
    last: Option<Instant>,
}

impl Tally {
    pub(super) fn new(bar: ProgressBar) -> Self {
        Tally {
            bar,
            pending: 0,
            batch: 1,
            last: None,
        }
    }

    /// Counts `n` items.
    #[inline]
    pub(super) fn add(&mut self, n: u64) {
        self.pending += n;
        if self.pending >= self.batch {
            self.hand_over();
        }
    }

    /// How many items to pass on before the next `add`: loops that count into a
    /// plain local and `add` once per chunk of this many items stay as fast as the
    /// loop without a bar (the compiler can still vectorise them).
    pub(super) fn chunk(&self) -> usize {
        usize::try_from(self.batch - self.pending).unwrap_or(usize::MAX)
    }

    /// A plain counter for a loop, added to this tally when dropped.
    pub(super) fn counter(&mut self) -> Counter<'_> {
        Counter {
            tally: self,
            taken: 0,
        }
    }

    #[cold]
    fn hand_over(&mut self) {
        self.bar.inc(std::mem::take(&mut self.pending));
        let now = Instant::now();
        if let Some(last) = self.last {
            let gap = now.saturating_duration_since(last);
            if gap < FAST {
                self.batch = (self.batch * 2).min(MAX_BATCH);
            } else if gap > SLOW {
                self.batch = (self.batch / 2).max(1);
            }
        }
        self.last = Some(now);
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        if self.pending > 0 {
            self.bar.inc(self.pending);
        }
    }
}

/// Items a loop passed on, counted in a plain field (which keeps the loop as fast as
/// without a bar) and added to the tally on drop, also when a panic unwinds through the
/// loop: the bar then still has every item that reached the closure that panicked.
pub(super) struct Counter<'a> {
    tally: &'a mut Tally,
    pub(super) taken: usize,
}

impl Drop for Counter<'_> {
    fn drop(&mut self) {
        self.tally.add(self.taken as u64);
    }
}
