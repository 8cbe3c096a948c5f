//! The public face of a recording: a [`Trace`] of lanes (one per worker that did
//! something), each a list of [`TraceEvent`]s, and its two pictures.

use std::io::{self, Write};
use std::time::Duration;

use super::Kind;
use super::ring::{CAPACITY, Collected, Event};

/// A recording of what the workers of a pool and of its shares did, made by
/// [`ThreadPool::start_trace`](crate::ThreadPool::start_trace) and
/// [`ThreadPool::stop_trace`](crate::ThreadPool::stop_trace) (cargo feature `trace`).
///
/// It has one [lane](TraceLane) per worker that recorded something, and writes
/// itself as Chrome trace event JSON ([`Trace::write_chrome_json`]: open it in
/// <https://ui.perfetto.dev> or chrome://tracing) or as an SVG picture
/// ([`Trace::write_svg`]).
///
/// ```
/// use prorata::prelude::*;
///
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// pool.start_trace();
/// let sum: u64 = pool.install(|| (0..100_000u64).into_par_iter().sum());
/// let trace = pool.stop_trace();
/// assert_eq!(sum, 4_999_950_000);
/// assert!(!trace.lanes().is_empty());
/// assert!(trace.to_chrome_json().starts_with('{'));
/// assert!(trace.to_svg().starts_with("<svg"));
/// ```
#[derive(Clone, Debug, Default)]
#[cfg_attr(docsrs, doc(cfg(feature = "trace")))]
pub struct Trace {
    duration: Duration,
    lanes: Vec<TraceLane>,
}

/// The events of one worker in a [`Trace`], oldest first (their times never decrease).
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// pool.start_trace();
/// pool.install(|| ());
/// let trace = pool.stop_trace();
/// let lane = &trace.lanes()[0];
/// assert_eq!((lane.pool.as_str(), lane.share, lane.worker), ("pool", 0, 0));
/// assert!(lane.events.windows(2).all(|w| w[0].at <= w[1].at));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
#[cfg_attr(docsrs, doc(cfg(feature = "trace")))]
pub struct TraceLane {
    /// What the worker belongs to: `"pool"`, or a share, such as
    /// `"share 2: 100 tickets"` (`"… of share 1"` for a share of a share).
    pub pool: String,
    /// The share's number in its pool: 0 for the pool itself, shares from 1 in the
    /// order they were made (a dropped share's number goes to a later one).
    pub share: usize,
    /// The worker's index in its pool or share.
    pub worker: usize,
    /// The worker's thread name (as given by
    /// [`ThreadPoolBuilder::thread_name`](crate::ThreadPoolBuilder::thread_name)), or
    /// `"worker N"` for a thread without one.
    pub thread: String,
    /// What it did, oldest first.
    pub events: Vec<TraceEvent>,
    /// Events lost: a worker keeps its newest 262,144 events of a recording; the
    /// older ones are overwritten, and counted here.
    pub lost: u64,
}

/// One thing a worker did, at a time counted from the start of the recording.
///
/// ```
/// use prorata::TraceEventKind;
///
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// pool.start_trace();
/// pool.install(|| ());
/// let trace = pool.stop_trace();
/// let kinds: Vec<TraceEventKind> = trace.lanes()[0].events.iter().map(|e| e.kind).collect();
/// assert!(kinds.contains(&TraceEventKind::JobStart));
/// assert!(kinds.contains(&TraceEventKind::JobEnd));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(docsrs, doc(cfg(feature = "trace")))]
pub struct TraceEvent {
    /// Since the start of the recording.
    pub at: Duration,
    /// What happened.
    pub kind: TraceEventKind,
}

/// What a [`TraceEvent`] records. Jobs, sleeps and waits for a core nest on a worker:
/// a job may wait inside (running other jobs meanwhile, sleeping, or waiting for a
/// core at a safe point).
///
/// ```
/// use prorata::TraceEventKind;
///
/// let stolen = TraceEventKind::Steal { victim: 1 };
/// assert_ne!(stolen, TraceEventKind::Claim);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(docsrs, doc(cfg(feature = "trace")))]
pub enum TraceEventKind {
    /// A job taken from a queue starts: an `install`ed, spawned or broadcast job, or
    /// the second half of a `join` that another worker published (the half a worker
    /// takes back itself runs inline, not as a job).
    JobStart,
    /// The job ends.
    JobEnd,
    /// The worker stole a job from the deque of worker `victim`.
    Steal {
        /// The index of the worker it stole from.
        victim: usize,
    },
    /// The worker claimed a pending join frame of a busy worker (see
    /// [`ShareStats::frames_claimed`](crate::ShareStats::frames_claimed)).
    Claim,
    /// The worker published one of its pending join frames to its deque.
    Publish,
    /// The worker blocked, with nothing to do.
    SleepStart,
    /// It woke up. (A share's worker asleep for a while retires: its thread exits,
    /// and a new thread takes its place when there is work; the sleep ends there.)
    SleepEnd {
        /// Another thread woke it (new work, a latch it waits on, or it restarted a
        /// retired worker); `false` at the end of a nap (one sleeping worker naps, to
        /// claim work pending in busy workers' join frames).
        woken: bool,
    },
    /// A worker of a share waits for a core (before running, or after its share was
    /// preempted).
    CoreWait,
    /// It was granted a core.
    CoreGranted,
    /// It gave its core back at a safe point because its share was over its
    /// proportion; it waits for a core next.
    Preempted,
    /// It gave its core back, having nothing to do.
    CoreReleased,
}

impl TraceEventKind {
    fn from_event(event: &Event) -> Self {
        match event.kind {
            Kind::JobStart => TraceEventKind::JobStart,
            Kind::JobEnd => TraceEventKind::JobEnd,
            Kind::Steal => TraceEventKind::Steal {
                victim: event.arg as usize,
            },
            Kind::Claim => TraceEventKind::Claim,
            Kind::Publish => TraceEventKind::Publish,
            Kind::SleepStart => TraceEventKind::SleepStart,
            Kind::SleepEnd => TraceEventKind::SleepEnd {
                woken: event.arg != 0,
            },
            Kind::CoreWait => TraceEventKind::CoreWait,
            Kind::CoreGranted => TraceEventKind::CoreGranted,
            Kind::Preempted => TraceEventKind::Preempted,
            Kind::CoreReleased => TraceEventKind::CoreReleased,
        }
    }
}

impl TraceLane {
    /// The lane of worker `worker` of `(number, name)`, from its ring, with times
    /// counted from `start` and none past `end`.
    pub(crate) fn from_ring(
        (share, pool): (usize, &str),
        worker: usize,
        ring: Collected,
        (start, end): (u64, u64),
    ) -> Self {
        let span = end.saturating_sub(start);
        let events = ring
            .events
            .iter()
            .map(|e| TraceEvent {
                at: Duration::from_nanos(e.at.saturating_sub(start).min(span)),
                kind: TraceEventKind::from_event(e),
            })
            .collect();
        TraceLane {
            pool: pool.to_owned(),
            share,
            worker,
            thread: ring.thread.unwrap_or_else(|| format!("worker {worker}")),
            events,
            lost: ring.lost,
        }
    }
}

impl Trace {
    /// Events a worker keeps at most per recording: its newest ones (older ones are
    /// overwritten and counted in [`TraceLane::lost`]).
    ///
    /// ```
    /// assert_eq!(prorata::Trace::WORKER_CAPACITY, 262_144);
    /// ```
    pub const WORKER_CAPACITY: usize = CAPACITY;

    pub(crate) fn new(duration_nanos: u64, mut lanes: Vec<TraceLane>) -> Self {
        lanes.sort_by_key(|l| (l.share, l.worker));
        Trace {
            duration: Duration::from_nanos(duration_nanos),
            lanes,
        }
    }

    /// How long the recording lasted.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// pool.start_trace();
    /// std::thread::sleep(std::time::Duration::from_millis(2));
    /// assert!(pool.stop_trace().duration().as_millis() >= 2);
    /// ```
    pub fn duration(&self) -> Duration {
        self.duration
    }

    /// One lane per worker that recorded something: the pool's workers first, then
    /// each share's, by share number and worker index.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let share = pool.share(100).unwrap();
    /// pool.start_trace();
    /// share.install(|| ());
    /// let trace = pool.stop_trace();
    /// assert!(trace.lanes().iter().any(|l| l.pool == "share 1: 100 tickets"));
    /// ```
    pub fn lanes(&self) -> &[TraceLane] {
        &self.lanes
    }

    /// Events lost over all lanes (see [`TraceLane::lost`]).
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// pool.start_trace();
    /// pool.install(|| ());
    /// assert_eq!(pool.stop_trace().lost_events(), 0);
    /// ```
    pub fn lost_events(&self) -> u64 {
        self.lanes.iter().map(|l| l.lost).sum()
    }

    /// Writes the trace as Chrome trace event JSON: one process per pool or share
    /// (named after it), one thread per worker (named after its thread), jobs as
    /// slices named after their share (so each share has its colour), sleeps and
    /// waits for a core as slices nested in them, steals, claims, publications and
    /// core hand-overs as instant events. Perfetto (<https://ui.perfetto.dev>) and
    /// chrome://tracing open it.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// pool.start_trace();
    /// pool.install(|| ());
    /// let mut json = Vec::new();
    /// pool.stop_trace().write_chrome_json(&mut json).unwrap();
    /// assert!(json.starts_with(b"{\"displayTimeUnit\""));
    /// ```
    pub fn write_chrome_json(&self, out: impl Write) -> io::Result<()> {
        super::chrome::write(self, out)
    }

    /// [`Trace::write_chrome_json`] into a `String`.
    ///
    /// ```
    /// let json = prorata::Trace::default().to_chrome_json();
    /// assert!(json.contains("\"traceEvents\":["));
    /// ```
    pub fn to_chrome_json(&self) -> String {
        let mut out = Vec::new();
        self.write_chrome_json(&mut out).expect("writing to a Vec");
        String::from_utf8(out).expect("the writer writes UTF-8")
    }

    /// Writes the trace as a self-contained SVG picture: one lane per worker, time
    /// along x, jobs coloured by share, waits for a core in grey, sleeps as a thin
    /// line; a legend and a time axis. Each pixel column shows what the worker did
    /// most of that time.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// pool.start_trace();
    /// pool.install(|| ());
    /// let mut svg = Vec::new();
    /// pool.stop_trace().write_svg(&mut svg).unwrap();
    /// assert!(svg.ends_with(b"</svg>\n"));
    /// ```
    pub fn write_svg(&self, out: impl Write) -> io::Result<()> {
        super::svg::write(self, out)
    }

    /// [`Trace::write_svg`] into a `String`.
    ///
    /// ```
    /// let svg = prorata::Trace::default().to_svg();
    /// assert!(svg.starts_with("<svg"));
    /// ```
    pub fn to_svg(&self) -> String {
        let mut out = Vec::new();
        self.write_svg(&mut out).expect("writing to a Vec");
        String::from_utf8(out).expect("the writer writes UTF-8")
    }
}
