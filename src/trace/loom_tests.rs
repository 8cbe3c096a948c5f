//! Loom models of a worker's ring (run by `ci/loom.sh`, with chunks of two events and
//! at most two chunks, so that a few events fill the ring and wrap around): a
//! collector reading while the owner appends sees complete events in order, none
//! twice, and counts the ones overwritten; trimming the ring while the owner appends
//! keeps its newest events; a collector that waits for the owner's open job sees its
//! end.

use loom::sync::Arc;
use loom::thread;

use super::Kind;
use super::ring::{CAPACITY, WorkerLog};

/// The owner's events carry their sequence number as argument.
fn append(log: &WorkerLog, n: u32) {
    for i in 0..n {
        log.record(Kind::Publish, i);
    }
}

/// Events collected from a ring are a run of consecutive sequence numbers that starts
/// just after the lost ones.
fn check_run(events: &[super::ring::Event], lost: u64) {
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.kind, Kind::Publish);
        assert_eq!(u64::from(e.arg), lost + i as u64, "{events:?}");
    }
    assert!(events.len() <= CAPACITY);
}

#[test]
fn loom_collector_reads_while_the_owner_appends_and_wraps() {
    loom::model(|| {
        let log = Arc::new(WorkerLog::default());
        log.set_session(1);
        let owner = {
            let log = Arc::clone(&log);
            thread::spawn(move || append(&log, 5))
        };
        if let Some(c) = log.collect(1) {
            check_run(&c.events, c.lost);
        }
        owner.join().unwrap();
        let c = log.collect(1).expect("the owner recorded");
        check_run(&c.events, c.lost);
        assert_eq!(c.lost + c.events.len() as u64, 5);
    });
}

#[test]
fn loom_a_job_open_at_the_stop_ends_in_the_recording() {
    loom::model(|| {
        let log = Arc::new(WorkerLog::default());
        log.set_session(1);
        // The owner is inside a job when the recording stops.
        log.record(Kind::JobStart, 0);
        let owner = {
            let log = Arc::clone(&log);
            thread::spawn(move || {
                log.record(Kind::JobEnd, 0);
                // Recorded nothing: the recording is off unless the stop came late.
                log.record(Kind::Claim, 0);
            })
        };
        log.set_session(0);
        while log.in_job() {
            thread::yield_now();
        }
        let c = log.collect(1).expect("the owner recorded");
        let kinds: Vec<Kind> = c.events.iter().map(|e| e.kind).collect();
        assert_eq!(&kinds[..2], [Kind::JobStart, Kind::JobEnd]);
        owner.join().unwrap();
    });
}

#[test]
fn loom_trimming_while_the_owner_appends_keeps_the_newest() {
    loom::model(|| {
        let log = Arc::new(WorkerLog::default());
        log.set_session(1);
        let owner = {
            let log = Arc::clone(&log);
            thread::spawn(move || append(&log, 3))
        };
        log.trim();
        owner.join().unwrap();
        let c = log.collect(1).expect("the owner recorded");
        // A run of consecutive events that ends with the last one appended.
        let args: Vec<u32> = c.events.iter().map(|e| e.arg).collect();
        let first = 3 - args.len() as u32;
        assert_eq!(args, (first..3).collect::<Vec<_>>());
        assert!(!args.is_empty());
    });
}
