//! Unit tests of the pairing of events into spans and of the writers' corner cases;
//! recording itself is tested end to end in tests/trace.rs.

use std::time::Duration;

use super::spans::{Segment, Span, SpanKind, walk, walk_lane};
use super::timeline::{Trace, TraceEvent, TraceEventKind, TraceLane};

fn ev(at_us: u64, kind: TraceEventKind) -> TraceEvent {
    TraceEvent {
        at: Duration::from_micros(at_us),
        kind,
    }
}

fn lane(events: Vec<TraceEvent>, lost: u64) -> TraceLane {
    TraceLane {
        pool: "share 1: 3 tickets".to_owned(),
        share: 1,
        worker: 0,
        thread: "a \"quoted\" <name> & more".to_owned(),
        events,
        lost,
    }
}

const US: u64 = 1000;

#[test]
fn nested_spans_close_inner_first_and_segments_follow_the_innermost() {
    use TraceEventKind::*;
    let events = [
        ev(10, JobStart),
        ev(20, SleepStart),
        ev(30, SleepEnd { woken: true }),
        ev(40, Preempted),
        ev(50, CoreGranted),
        ev(60, JobEnd),
    ];
    let w = walk(&events, Duration::ZERO, Duration::from_micros(100));
    let span = |start, end, kind| Span {
        start: start * US,
        end: end * US,
        kind,
        cut: false,
    };
    assert_eq!(
        w.spans,
        [
            span(20, 30, SpanKind::Asleep),
            span(40, 50, SpanKind::CoreWait),
            span(10, 60, SpanKind::Job),
        ]
    );
    let seg = |start, end, state| Segment {
        start: start * US,
        end: end * US,
        state,
    };
    assert_eq!(
        w.segments,
        [
            seg(0, 10, None),
            seg(10, 20, Some(SpanKind::Job)),
            seg(20, 30, Some(SpanKind::Asleep)),
            seg(30, 40, Some(SpanKind::Job)),
            seg(40, 50, Some(SpanKind::CoreWait)),
            seg(50, 60, Some(SpanKind::Job)),
            seg(60, 100, None),
        ]
    );
}

#[test]
fn spans_open_at_the_start_begin_at_the_window_and_open_at_the_end_are_cut() {
    use TraceEventKind::*;
    // Asleep inside a job since before the recording; then a job still running at
    // the end.
    let events = [
        ev(5, SleepEnd { woken: false }),
        ev(7, JobEnd),
        ev(9, JobStart),
    ];
    let w = walk(&events, Duration::ZERO, Duration::from_micros(12));
    assert_eq!(
        w.spans,
        [
            Span {
                start: 0,
                end: 5 * US,
                kind: SpanKind::Asleep,
                cut: false
            },
            Span {
                start: 0,
                end: 7 * US,
                kind: SpanKind::Job,
                cut: false
            },
            Span {
                start: 9 * US,
                end: 12 * US,
                kind: SpanKind::Job,
                cut: true
            },
        ]
    );
    assert_eq!(w.segments[0].state, Some(SpanKind::Asleep));
    // With events lost, the window starts at the first event kept.
    let l = lane(events.to_vec(), 4096);
    let w = walk_lane(&l, Duration::from_micros(12));
    assert_eq!(w.spans[0].start, 5 * US);
    assert_eq!(w.segments[0].start, 5 * US);
}

#[test]
fn an_end_nobody_opened_inside_a_recorded_span_is_ignored() {
    use TraceEventKind::*;
    let events = [ev(1, JobStart), ev(2, CoreGranted), ev(3, JobEnd)];
    let w = walk(&events, Duration::ZERO, Duration::from_micros(4));
    // The grant closes a wait that began before the recording, around the job.
    assert_eq!(w.spans.len(), 2);
    assert!(w.spans.iter().all(|s| s.end <= 4 * US));
}

#[test]
fn writers_escape_names_and_show_each_state() {
    use TraceEventKind::*;
    let events = vec![
        ev(0, JobStart),
        ev(500, JobEnd),
        ev(500, CoreWait),
        ev(700, CoreGranted),
        ev(700, SleepStart),
        ev(900, Steal { victim: 1 }),
    ];
    let trace = Trace::new(1_000_000, vec![lane(events, 0)]);
    let json = trace.to_chrome_json();
    assert!(json.contains(r#""a \"quoted\" <name> & more""#), "{json}");
    assert!(json.contains(r#""name":"steal""#));
    assert!(json.contains(r#""args":{"victim":1}"#));
    assert!(json.contains(r#""args":{"cut":true}"#), "the sleep is cut");
    let svg = trace.to_svg();
    assert!(
        svg.contains("a &quot;quoted&quot; &lt;name&gt; &amp; more"),
        "{svg}"
    );
    // Half the plot in the job's colour, a fifth waiting, the rest asleep (a line).
    assert!(
        svg.contains(r##"width="450" height="14" fill="#ff8c00""##),
        "{svg}"
    );
    assert!(
        svg.contains(r##"width="180" height="14" fill="#c8c8c8""##),
        "{svg}"
    );
    assert!(
        svg.contains(r##"width="270" height="2" fill="#7d7d7d""##),
        "{svg}"
    );
    assert!(svg.contains(">1 ms</text>"), "the axis ends at 1 ms: {svg}");
}
