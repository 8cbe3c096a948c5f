//! Loom models of the list of stalled starts
//! (`RUSTFLAGS="--cfg loom" cargo test --release --lib loom`): the handshake
//! between a share being listed and the timer thread that watches the list
//! ending (once a share is listed, exactly one timer thread runs), and the one
//! between a refused start and a look that takes the share off the list (a
//! refusal is never left off the list, and a share is never listed twice).

use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use super::stalled_starts::{
    ListEntry, STUCK_AFTER_NANOS, StallMark, StalledStarts, WatchFlags, Watched,
};

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

/// A share as the list sees it: its mark, one thread on a core, and how many
/// threads were started for it past the bound.
struct ModelShare {
    mark: StallMark,
    starts: AtomicUsize,
}

#[derive(Clone)]
struct Entry(Arc<ModelShare>);

impl Watched for Entry {
    fn mark(&self) -> &StallMark {
        &self.0.mark
    }

    fn on_core(&self) -> bool {
        true
    }

    fn start_anyway(&self) {
        self.0.starts.fetch_add(1, SeqCst);
    }
}

impl ListEntry for Entry {
    type Share = Entry;

    fn share(&self) -> Option<Entry> {
        Some(self.clone())
    }
}

/// The time of the look in the models below: past the list's pacing, and past
/// `STUCK_AFTER` since a refusal at 1.
const NOW: u64 = 10 * STUCK_AFTER_NANOS;

/// A listed share whose last refusal at `refused_at` waits (or none, 0), and
/// the list that holds it.
fn listed_share(refused_at: u64) -> (Arc<StalledStarts<Entry>>, Entry) {
    let list = Arc::new(StalledStarts::<Entry>::default());
    let share = Entry(Arc::new(ModelShare {
        mark: StallMark::new(),
        starts: AtomicUsize::new(0),
    }));
    assert!(share.mark().refused(1), "a new share is not listed");
    list.watch(share.clone());
    if refused_at == 0 {
        share.mark().clear();
    } else {
        assert!(!share.mark().refused(refused_at), "listed once");
    }
    (list, share)
}

/// The bound refuses `share` a start at `now`, on another thread.
fn refuse_on_another_thread(
    list: &Arc<StalledStarts<Entry>>,
    share: &Entry,
    now: u64,
) -> loom::thread::JoinHandle<()> {
    let (list, share) = (list.clone(), share.clone());
    loom::thread::spawn(move || {
        if share.mark().refused(now) {
            list.watch(share.clone());
        }
    })
}

/// The share's start was served (no refusal waits) and a look takes it off the
/// list as the bound refuses it again. Whatever the interleaving, the refusal
/// ends on the list, once.
#[test]
fn loom_a_refusal_as_a_look_unlists_the_share_stays_listed_once() {
    loom::model(|| {
        let (list, share) = listed_share(0);
        let refuser = refuse_on_another_thread(&list, &share, NOW);
        list.look(NOW);
        refuser.join().unwrap();
        let (waits, listed) = share.mark().state();
        assert!(waits, "nothing clears the refusal here");
        assert!(listed, "the share is marked listed");
        assert_eq!(list.entries(), 1, "entries of the refused share");
        assert_eq!(share.0.starts.load(SeqCst), 0, "started past the bound");
    });
}

/// A look finds the share stuck (refused long ago, a thread on a core) and
/// starts its thread as the bound refuses it again. Whatever the interleaving,
/// the new refusal is either served by that start (none waits after it) or on
/// the list, once; one thread is started at most.
#[test]
fn loom_a_refusal_as_a_stuck_share_starts_is_served_or_listed() {
    loom::model(|| {
        let (list, share) = listed_share(1);
        let refuser = refuse_on_another_thread(&list, &share, NOW);
        list.look(NOW);
        refuser.join().unwrap();
        let (waits, listed) = share.mark().state();
        let starts = share.0.starts.load(SeqCst);
        assert!(starts <= 1, "started {starts} threads past the bound");
        assert!(waits || starts == 1, "a refusal lost, not served");
        assert!(!waits || listed, "a waiting refusal not marked listed");
        assert_eq!(
            list.entries(),
            usize::from(listed),
            "entries, listed: {listed}"
        );
    });
}
