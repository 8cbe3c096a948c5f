//! A lane's events paired into spans (jobs, sleeps, waits for a core), and cut into
//! segments of one state each (what the innermost open span says the worker does).
//!
//! Spans nest on a worker as its calls do, so a stack pairs them. A span whose start
//! is not in the lane (it began before the recording, or its start was overwritten)
//! begins where the lane's window does; one still open at the end of the recording
//! ends there and is marked cut.

use std::time::Duration;

use super::timeline::{TraceEvent, TraceEventKind};

/// What a span is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpanKind {
    Job,
    Asleep,
    CoreWait,
}

/// What a worker does at a moment: its innermost open span, or nothing (`None`).
pub(crate) type State = Option<SpanKind>;

/// A span, in nanoseconds from the start of the recording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) kind: SpanKind,
    /// Still open when the recording stopped.
    pub(crate) cut: bool,
}

/// A stretch of time in one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) state: State,
}

/// A lane's spans (in the order they close) and segments (in time order).
#[derive(Debug, Default)]
pub(crate) struct Walk {
    pub(crate) spans: Vec<Span>,
    pub(crate) segments: Vec<Segment>,
}

fn opens(kind: TraceEventKind) -> Option<SpanKind> {
    match kind {
        TraceEventKind::JobStart => Some(SpanKind::Job),
        TraceEventKind::SleepStart => Some(SpanKind::Asleep),
        TraceEventKind::CoreWait | TraceEventKind::Preempted => Some(SpanKind::CoreWait),
        _ => None,
    }
}

fn closes(kind: TraceEventKind) -> Option<SpanKind> {
    match kind {
        TraceEventKind::JobEnd => Some(SpanKind::Job),
        TraceEventKind::SleepEnd { .. } => Some(SpanKind::Asleep),
        TraceEventKind::CoreGranted => Some(SpanKind::CoreWait),
        _ => None,
    }
}

fn nanos(d: Duration) -> u64 {
    d.as_nanos() as u64
}

/// The spans open before the first event, outermost first: those the events close
/// without opening.
fn open_at_start(events: &[TraceEvent]) -> Vec<SpanKind> {
    let mut stack = Vec::new();
    let mut unopened = Vec::new();
    for e in events {
        if let Some(kind) = opens(e.kind) {
            stack.push(kind);
        } else if let Some(kind) = closes(e.kind) {
            match stack.iter().rposition(|&k| k == kind) {
                Some(i) => stack.truncate(i),
                None => unopened.push(kind),
            }
        }
    }
    // The first one closed is the innermost.
    unopened.reverse();
    unopened
}

/// Pairs the events of a lane whose window starts at `from` into spans, and cuts it
/// into segments up to `end`.
pub(crate) fn walk(events: &[TraceEvent], from: Duration, end: Duration) -> Walk {
    let (from, end) = (nanos(from), nanos(end));
    let mut open: Vec<(SpanKind, u64)> = open_at_start(events)
        .into_iter()
        .map(|k| (k, from))
        .collect();
    let mut walk = Walk::default();
    let mut last = from;
    for e in events {
        let t = nanos(e.at);
        if let Some(kind) = opens(e.kind) {
            walk.segment(last, t, open.last().map(|o| o.0));
            last = t;
            open.push((kind, t));
        } else if let Some(kind) = closes(e.kind) {
            let Some(i) = open.iter().rposition(|o| o.0 == kind) else {
                continue;
            };
            walk.segment(last, t, open.last().map(|o| o.0));
            last = t;
            for (kind, start) in open.drain(i..).rev() {
                walk.spans.push(Span {
                    start,
                    end: t,
                    kind,
                    cut: false,
                });
            }
        }
    }
    walk.segment(last, end, open.last().map(|o| o.0));
    while let Some((kind, start)) = open.pop() {
        walk.spans.push(Span {
            start,
            end: end.max(start),
            kind,
            cut: true,
        });
    }
    walk
}

impl Walk {
    fn segment(&mut self, start: u64, end: u64, state: State) {
        if end <= start {
            return;
        }
        match self.segments.last_mut() {
            Some(s) if s.state == state && s.end == start => s.end = end,
            _ => self.segments.push(Segment { start, end, state }),
        }
    }
}

/// [`walk`] over a lane, up to `end`. Its window starts at the recording's start, or
/// at its first event if older ones were lost.
pub(crate) fn walk_lane(lane: &super::TraceLane, end: Duration) -> Walk {
    let from = match lane.events.first() {
        Some(first) if lane.lost > 0 => first.at,
        _ => Duration::ZERO,
    };
    walk(&lane.events, from, end)
}
