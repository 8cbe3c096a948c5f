//! Loom model of the handshake between a share being listed with the stalled
//! starts and the timer thread that watches the list ending
//! (`RUSTFLAGS="--cfg loom" cargo test --release --lib loom`). Over every
//! interleaving: once a share is listed, exactly one timer thread runs.

use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use crate::shares::stalled_starts::WatchFlags;

/// A timer thread runs and has just found the list empty (its last look took
/// the last share off) as a refused start lists a share again.
#[test]
fn loom_a_share_listed_as_the_timer_ends_is_watched_by_one_timer() {
    loom::model(|| {
        let flags = Arc::new(WatchFlags::new());
        assert!(flags.claim_timer(), "no timer runs yet");
        flags.set_any(false);
        let timers = Arc::new(AtomicUsize::new(1));
        let lister = {
            let (flags, timers) = (flags.clone(), timers.clone());
            loom::thread::spawn(move || {
                flags.set_any(true);
                if flags.claim_timer() {
                    timers.fetch_add(1, SeqCst);
                }
            })
        };
        if !flags.may_hold_any() && flags.timer_ends() {
            timers.fetch_sub(1, SeqCst);
        }
        lister.join().unwrap();
        assert_eq!(timers.load(SeqCst), 1, "timers watching the listed share");
    });
}
