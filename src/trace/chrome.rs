//! Chrome trace event JSON (the "JSON Object Format" that Perfetto and chrome://tracing
//! read): one process per pool or share, one thread per worker, complete events (`X`)
//! for spans and thread-scoped instant events (`i`) for the rest.

use std::io::{self, BufWriter, Write};

use super::spans::{SpanKind, walk_lane};
use super::timeline::{Trace, TraceEventKind, TraceLane};

/// chrome://tracing accepts only its reserved colour names in `cname`; one per share
/// (Perfetto ignores them and colours slices by name, which also differs by share).
pub(crate) const CHROME_COLOURS: [&str; 8] = [
    "thread_state_runnable",
    "thread_state_iowait",
    "thread_state_running",
    "thread_state_uninterruptible",
    "background_memory_dump",
    "detailed_memory_dump",
    "bad",
    "good",
];

/// The process id of share `number` (0: the pool).
fn pid(share: usize) -> usize {
    share + 1
}

/// A thread id unique over the whole trace, never 0 and never equal to a pid.
fn tid(lane: &TraceLane) -> usize {
    (pid(lane.share) << 16) + lane.worker + 1
}

/// A short category for a lane's jobs: `pool` or `share N`.
fn category(lane: &TraceLane) -> String {
    match lane.share {
        0 => "pool".to_owned(),
        n => format!("share {n}"),
    }
}

/// Nanoseconds as microseconds with three decimals.
struct Micros(u64);

impl std::fmt::Display for Micros {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{:03}", self.0 / 1000, self.0 % 1000)
    }
}

/// A JSON string literal.
struct Str<'a>(&'a str);

impl std::fmt::Display for Str<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("\"")?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                c if u32::from(c) < 0x20 => write!(f, "\\u{:04x}", u32::from(c))?,
                c => write!(f, "{c}")?,
            }
        }
        f.write_str("\"")
    }
}

pub(crate) fn write(trace: &Trace, out: impl Write) -> io::Result<()> {
    let mut out = BufWriter::new(out);
    write!(
        out,
        "{{\"displayTimeUnit\":\"ms\",\"otherData\":{{\"producer\":\"prorata\",\
         \"duration_us\":{},\"lost_events\":{}}},\"traceEvents\":[",
        Micros(trace.duration().as_nanos() as u64),
        trace.lost_events()
    )?;
    let mut first = true;
    let mut named = Vec::new();
    for lane in trace.lanes() {
        if !named.contains(&lane.share) {
            named.push(lane.share);
            sep(&mut out, &mut first)?;
            process_metadata(&mut out, lane)?;
        }
        sep(&mut out, &mut first)?;
        thread_metadata(&mut out, lane)?;
        let walk = walk_lane(lane, trace.duration());
        for span in &walk.spans {
            sep(&mut out, &mut first)?;
            let (name, cat, colour) = match span.kind {
                SpanKind::Job => (
                    lane.pool.as_str(),
                    category(lane),
                    CHROME_COLOURS[lane.share % CHROME_COLOURS.len()],
                ),
                SpanKind::Asleep => ("asleep", "sleep".to_owned(), "thread_state_sleeping"),
                SpanKind::CoreWait => ("waiting for a core", "core".to_owned(), "generic_work"),
            };
            write!(
                out,
                "{{\"ph\":\"X\",\"name\":{},\"cat\":{},\"pid\":{},\"tid\":{},\"ts\":{},\
                 \"dur\":{},\"cname\":\"{colour}\"{}}}",
                Str(name),
                Str(&cat),
                pid(lane.share),
                tid(lane),
                Micros(span.start),
                Micros(span.end - span.start),
                if span.cut {
                    ",\"args\":{\"cut\":true}"
                } else {
                    ""
                }
            )?;
        }
        for event in &lane.events {
            let (name, args) = match event.kind {
                TraceEventKind::Steal { victim } => ("steal", format!("{{\"victim\":{victim}}}")),
                TraceEventKind::Claim => ("claim", String::new()),
                TraceEventKind::Publish => ("publish", String::new()),
                TraceEventKind::CoreGranted => ("core granted", String::new()),
                TraceEventKind::Preempted => ("preempted", String::new()),
                TraceEventKind::CoreReleased => ("core released", String::new()),
                _ => continue,
            };
            sep(&mut out, &mut first)?;
            write!(
                out,
                "{{\"ph\":\"i\",\"s\":\"t\",\"name\":\"{name}\",\"cat\":\"{}\",\"pid\":{},\
                 \"tid\":{},\"ts\":{}{}{}}}",
                if name.starts_with("core") || name == "preempted" {
                    "core"
                } else {
                    "work"
                },
                pid(lane.share),
                tid(lane),
                Micros(event.at.as_nanos() as u64),
                if args.is_empty() { "" } else { ",\"args\":" },
                args
            )?;
        }
    }
    out.write_all(b"]}\n")?;
    out.flush()
}

/// Separates the events of the list (none before the first).
fn sep(out: &mut impl Write, first: &mut bool) -> io::Result<()> {
    if !std::mem::take(first) {
        out.write_all(b",\n")?;
    }
    Ok(())
}

fn process_metadata(out: &mut impl Write, lane: &TraceLane) -> io::Result<()> {
    let pid = pid(lane.share);
    write!(
        out,
        "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":{}}}}},\n\
         {{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":{pid},\"tid\":0,\"args\":{{\"sort_index\":{}}}}}",
        Str(&lane.pool),
        lane.share
    )
}

fn thread_metadata(out: &mut impl Write, lane: &TraceLane) -> io::Result<()> {
    let (pid, tid) = (pid(lane.share), tid(lane));
    write!(
        out,
        "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"name\":{}}}}},\n\
         {{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"sort_index\":{}}}}}",
        Str(&lane.thread),
        lane.worker
    )
}
