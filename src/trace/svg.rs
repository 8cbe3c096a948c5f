//! A self-contained SVG picture of a trace: a lane per worker, grouped by pool and
//! share, time along x; jobs in their share's colour, waits for a core in grey, sleeps
//! as a thin line, nothing where the worker looked for work. Each pixel column shows
//! the state the worker spent most of that column's time in, so the picture stays
//! small (at most one rectangle per column and lane) however long the recording.

use std::io::{self, BufWriter, Write};

use super::spans::{SpanKind, State, walk_lane};
use super::timeline::{Trace, TraceEventKind, TraceLane};

/// The colours of the shares (0: the pool), the RGB values of the Chrome colour names
/// the JSON gives them (`chrome::CHROME_COLOURS`), so both pictures agree.
const COLOURS: [&str; 8] = [
    "#85a0d2", "#ff8c00", "#7ec894", "#b67d8f", "#00b4b4", "#b400b4", "#b47d00", "#007d00",
];
const WAITING: &str = "#c8c8c8";
const ASLEEP: &str = "#7d7d7d";
const LANE_BACKGROUND: &str = "#f3f3f3";

/// Left column (lane labels), plot width, right margin.
const LABELS: usize = 190;
const PLOT: usize = 900;
const RIGHT: usize = 20;
const LANE: usize = 14;
const LANE_GAP: usize = 3;
const HEADER: usize = 20;

fn colour(share: usize) -> &'static str {
    COLOURS[share % COLOURS.len()]
}

/// Text for an SVG text node or attribute.
struct Xml<'a>(&'a str);

impl std::fmt::Display for Xml<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&apos;")?,
                c => write!(f, "{c}")?,
            }
        }
        Ok(())
    }
}

pub(crate) fn write(trace: &Trace, out: impl Write) -> io::Result<()> {
    let mut out = BufWriter::new(out);
    let lanes = trace.lanes();
    let groups = count_groups(lanes);
    let plot_height = groups * HEADER + lanes.len() * (LANE + LANE_GAP);
    let top = 34;
    let axis_y = top + plot_height + 4;
    let legend_y = axis_y + 34;
    let legend_rows = 1 + legend_entries(lanes).len().div_ceil(4);
    let height = legend_y + legend_rows * 18 + 6;
    let width = LABELS + PLOT + RIGHT;
    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">"
    )?;
    writeln!(
        out,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n\
         <text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">prorata timeline: {} \
         workers, {}</text>",
        lanes.len(),
        Xml(&duration_label(trace.duration().as_nanos() as u64))
    )?;
    let mut y = top;
    let mut group = None;
    for lane in lanes {
        if group != Some(lane.share) {
            group = Some(lane.share);
            writeln!(
                out,
                "<text x=\"8\" y=\"{}\" font-weight=\"bold\" fill=\"{}\">{}</text>",
                y + 14,
                darker(lane.share),
                Xml(&lane.pool)
            )?;
            y += HEADER;
        }
        write_lane(&mut out, trace, lane, y)?;
        y += LANE + LANE_GAP;
    }
    write_axis(&mut out, trace, axis_y)?;
    write_legend(&mut out, lanes, legend_y)?;
    writeln!(out, "</svg>")?;
    out.flush()
}

/// The colour of a share's header text (the fill colours are light).
fn darker(share: usize) -> &'static str {
    match share % COLOURS.len() {
        0 => "#3c5a8c",
        1 => "#b35f00",
        2 => "#2f7d48",
        _ => colour(share),
    }
}

fn count_groups(lanes: &[TraceLane]) -> usize {
    let mut shares: Vec<usize> = lanes.iter().map(|l| l.share).collect();
    shares.dedup();
    shares.len()
}

/// The lane of one worker at height `y`.
fn write_lane(out: &mut impl Write, trace: &Trace, lane: &TraceLane, y: usize) -> io::Result<()> {
    let count = |f: fn(&TraceEventKind) -> bool| lane.events.iter().filter(|e| f(&e.kind)).count();
    writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}<title>{} jobs, {} steals, {} claims, \
         {} publications, {} sleeps, {} lost events</title></text>",
        LABELS - 8,
        y + LANE - 3,
        Xml(&lane.thread),
        count(|k| *k == TraceEventKind::JobStart),
        count(|k| matches!(k, TraceEventKind::Steal { .. })),
        count(|k| *k == TraceEventKind::Claim),
        count(|k| *k == TraceEventKind::Publish),
        count(|k| *k == TraceEventKind::SleepStart),
        lane.lost
    )?;
    writeln!(
        out,
        "<rect x=\"{LABELS}\" y=\"{y}\" width=\"{PLOT}\" height=\"{LANE}\" fill=\"{LANE_BACKGROUND}\"/>"
    )?;
    for (from, to, state) in columns(trace, lane) {
        let x = LABELS + from;
        let w = to - from;
        match state {
            Some(SpanKind::Job) => writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{LANE}\" fill=\"{}\"/>",
                colour(lane.share)
            )?,
            Some(SpanKind::CoreWait) => writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{LANE}\" fill=\"{WAITING}\"/>"
            )?,
            Some(SpanKind::Asleep) => writeln!(
                out,
                "<rect x=\"{x}\" y=\"{}\" width=\"{w}\" height=\"2\" fill=\"{ASLEEP}\"/>",
                y + LANE / 2 - 1
            )?,
            None => {}
        }
    }
    Ok(())
}

/// The lane as runs of pixel columns `[from, to)` in one state: each column takes the
/// state the worker spent most of its time in.
fn columns(trace: &Trace, lane: &TraceLane) -> Vec<(usize, usize, State)> {
    let total = (trace.duration().as_nanos() as u64).max(1);
    // Time in each state (idle, job, waiting, asleep) per column.
    let mut time = vec![[0u64; 4]; PLOT];
    let slot = |s: State| match s {
        None => 0,
        Some(SpanKind::Job) => 1,
        Some(SpanKind::CoreWait) => 2,
        Some(SpanKind::Asleep) => 3,
    };
    // Column `c` covers [c * total / PLOT, (c + 1) * total / PLOT).
    let edge = |c: usize| (c as u128 * total as u128 / PLOT as u128) as u64;
    for seg in walk_lane(lane, trace.duration()).segments {
        let first = ((seg.start as u128 * PLOT as u128) / total as u128) as usize;
        for (c, column) in time.iter_mut().enumerate().skip(first.min(PLOT)) {
            let (a, b) = (edge(c).max(seg.start), edge(c + 1).min(seg.end));
            if a >= seg.end {
                break;
            }
            column[slot(seg.state)] += b.saturating_sub(a);
        }
    }
    let states = [
        None,
        Some(SpanKind::Job),
        Some(SpanKind::CoreWait),
        Some(SpanKind::Asleep),
    ];
    let mut runs: Vec<(usize, usize, State)> = Vec::new();
    for (c, column) in time.iter().enumerate() {
        let best = (0..4).max_by_key(|&i| (column[i], i)).unwrap_or(0);
        let state = if column[best] == 0 {
            None
        } else {
            states[best]
        };
        match runs.last_mut() {
            Some(run) if run.2 == state => run.1 = c + 1,
            _ => runs.push((c, c + 1, state)),
        }
    }
    runs
}

/// "12.5 ms", "800 µs", "3 s".
fn duration_label(nanos: u64) -> String {
    let (value, unit) = if nanos >= 1_000_000_000 {
        (nanos as f64 / 1e9, "s")
    } else if nanos >= 1_000_000 {
        (nanos as f64 / 1e6, "ms")
    } else if nanos >= 1_000 {
        (nanos as f64 / 1e3, "µs")
    } else {
        (nanos as f64, "ns")
    };
    let text = format!("{value:.1}");
    format!("{} {unit}", text.strip_suffix(".0").unwrap_or(&text))
}

/// A tick step of 1, 2 or 5 times a power of ten, for about eight ticks.
fn tick_step(total: u64) -> u64 {
    let raw = (total / 8).max(1);
    let mut power = 1u64;
    while power * 10 <= raw {
        power *= 10;
    }
    [1, 2, 5, 10]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10 * power)
}

fn write_axis(out: &mut impl Write, trace: &Trace, y: usize) -> io::Result<()> {
    let total = trace.duration().as_nanos() as u64;
    writeln!(
        out,
        "<line x1=\"{LABELS}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"black\"/>",
        LABELS + PLOT
    )?;
    if total == 0 {
        return Ok(());
    }
    let step = tick_step(total);
    let mut t = 0;
    while t <= total {
        let x = LABELS + (t as u128 * PLOT as u128 / total as u128) as usize;
        writeln!(
            out,
            "<line x1=\"{x}\" y1=\"{y}\" x2=\"{x}\" y2=\"{}\" stroke=\"black\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            y + 4,
            y + 16,
            Xml(&duration_label(t))
        )?;
        t += step;
    }
    Ok(())
}

/// The legend's entries: each pool or share's jobs, then the other states.
fn legend_entries(lanes: &[TraceLane]) -> Vec<(String, &'static str, bool)> {
    let mut entries: Vec<(String, &'static str, bool)> = Vec::new();
    let mut seen = Vec::new();
    for lane in lanes {
        if !seen.contains(&lane.share) {
            seen.push(lane.share);
            entries.push((format!("job of {}", lane.pool), colour(lane.share), false));
        }
    }
    entries.push(("waiting for a core".to_owned(), WAITING, false));
    entries.push(("asleep".to_owned(), ASLEEP, true));
    entries
}

fn write_legend(out: &mut impl Write, lanes: &[TraceLane], y: usize) -> io::Result<()> {
    for (i, (label, fill, line)) in legend_entries(lanes).iter().enumerate() {
        let x = 8 + (i % 4) * 275;
        let y = y + (i / 4) * 18;
        if *line {
            writeln!(
                out,
                "<rect x=\"{x}\" y=\"{}\" width=\"22\" height=\"2\" fill=\"{fill}\"/>",
                y + 5
            )?;
        } else {
            writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"22\" height=\"12\" fill=\"{fill}\"/>"
            )?;
        }
        writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            x + 28,
            y + 10,
            Xml(label)
        )?;
    }
    let y = y + legend_entries(lanes).len().div_ceil(4) * 18;
    writeln!(
        out,
        "<text x=\"8\" y=\"{}\" fill=\"#555\">Blank: looking for work. Each pixel column shows \
         what a worker did most of its time; lanes of workers that recorded nothing are left \
         out. Hover a thread name for its counts.</text>",
        y + 10
    )
}
