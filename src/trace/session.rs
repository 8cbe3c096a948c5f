//! Recording sessions: a pool and every share made from it (sub-pools with their own
//! workers) record together, so that one [`Trace`] shows how the shares divided the
//! cores.
//!
//! Each registry has a [`Recorder`]: its workers' rings (a `PoolLog`, shared with the
//! hub so that a share dropped during a recording keeps its events) and the *hub* of
//! its pool, made by the pool at its first share or recording and handed to each share
//! made from it ([`adopt`]). The hub lists the logs and switches their workers'
//! sessions on and off.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;

use super::Kind;
use super::ring::{WorkerLog, now};
use super::timeline::{Trace, TraceLane};
use crate::pool::Registry;

/// How long `stop` waits for the jobs running when it is called to end, so that their
/// ends are in the trace (one still running then is cut at the stop).
const GRACE: Duration = Duration::from_millis(20);

/// The rings of one pool's (or share's) workers, and what the pool is.
struct PoolLog {
    workers: Box<[CachePadded<WorkerLog>]>,
    /// Set when the log joins a hub: the pool (number 0) or a share.
    label: OnceLock<Label>,
}

#[derive(Clone, Debug)]
struct Label {
    /// 0 for the pool itself, else the share's number in its pool.
    number: usize,
    name: String,
}

/// A pool's recorder, in its registry.
pub(crate) struct Recorder {
    log: Arc<PoolLog>,
    hub: OnceLock<Arc<Hub>>,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("workers", &self.log.workers.len())
            .finish_non_exhaustive()
    }
}

/// The recordings of one pool and its shares.
struct Hub {
    state: Mutex<HubState>,
}

struct HubState {
    /// The last session number handed out.
    last: u32,
    /// The session being recorded and when it began.
    active: Option<(u32, u64)>,
    logs: Vec<Arc<PoolLog>>,
}

impl Recorder {
    pub(crate) fn new(workers: usize) -> Self {
        Recorder {
            log: Arc::new(PoolLog {
                workers: (0..workers).map(|_| CachePadded::default()).collect(),
                label: OnceLock::new(),
            }),
            hub: OnceLock::new(),
        }
    }

    /// Worker `worker` records `kind` (if a recording is on).
    #[inline]
    pub(crate) fn record(&self, worker: usize, kind: Kind, arg: u32) {
        self.log.workers[worker].record(kind, arg);
    }

    /// The hub of this pool: its own, made on first use, or its parent's (a share).
    fn hub(&self) -> &Arc<Hub> {
        self.hub.get_or_init(|| {
            let _ = self.log.label.set(Label {
                number: 0,
                name: "pool".to_owned(),
            });
            Arc::new(Hub {
                state: Mutex::new(HubState {
                    last: 0,
                    active: None,
                    logs: vec![Arc::clone(&self.log)],
                }),
            })
        })
    }

    /// Starts recording this pool and its shares (anew, if a recording is on).
    pub(crate) fn start(&self) {
        self.hub().start();
    }

    /// Stops the recording and returns it (empty if none was on).
    pub(crate) fn stop(&self) -> Trace {
        self.hub().stop()
    }
}

/// Makes `share`, the sub-pool of share `number` holding `tickets` made from `parent`
/// (a pool or a share), record with `parent`.
pub(crate) fn adopt(parent: &Registry, share: &Registry, number: usize, tickets: u32) {
    let hub = Arc::clone(parent.trace.hub());
    let name = match parent.trace.log.label.get().map_or(0, |l| l.number) {
        0 => format!("share {number}: {tickets} tickets"),
        p => format!("share {number}: {tickets} tickets of share {p}"),
    };
    let _ = share.trace.log.label.set(Label { number, name });
    let _ = share.trace.hub.set(Arc::clone(&hub));
    hub.add(Arc::clone(&share.trace.log));
}

impl Hub {
    fn lock(&self) -> MutexGuard<'_, HubState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn add(&self, log: Arc<PoolLog>) {
        let mut state = self.lock();
        match state.active {
            Some((session, _)) => log.workers.iter().for_each(|w| w.set_session(session)),
            // Logs of dropped shares are kept only for a recording.
            None => state.logs.retain(|l| Arc::strong_count(l) > 1),
        }
        state.logs.push(log);
    }

    fn start(&self) {
        let mut state = self.lock();
        state.last = state.last.wrapping_add(1).max(1);
        let session = state.last;
        state.active = Some((session, now()));
        for log in &state.logs {
            log.workers.iter().for_each(|w| w.set_session(session));
        }
    }

    fn stop(&self) -> Trace {
        let (session, start, logs) = {
            let mut state = self.lock();
            let Some((session, start)) = state.active.take() else {
                return Trace::default();
            };
            for log in &state.logs {
                log.workers.iter().for_each(|w| w.set_session(0));
            }
            (session, start, state.logs.clone())
        };
        let deadline = Instant::now() + GRACE;
        let running = || logs.iter().any(|l| l.workers.iter().any(|w| w.in_job()));
        while running() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(50));
        }
        let end = now();
        let mut lanes = Vec::new();
        for log in &logs {
            let label = log.label.get().cloned().unwrap_or(Label {
                number: 0,
                name: "pool".to_owned(),
            });
            for (worker, w) in log.workers.iter().enumerate() {
                let collected = w.collect(session);
                w.trim();
                if let Some(c) = collected {
                    lanes.push(TraceLane::from_ring(
                        (label.number, &label.name),
                        worker,
                        c,
                        (start, end),
                    ));
                }
            }
        }
        drop(logs);
        self.lock().logs.retain(|l| Arc::strong_count(l) > 1);
        Trace::new(end.saturating_sub(start), lanes)
    }
}
