//! A worker's record: a ring of chunks of events that only the worker appends to.
//!
//! Appending is a plain write of the next slot of the newest chunk, then a release
//! store of the chunk's length: no lock and no read-modify-write. A collector reads,
//! under the ring's lock, the slots below each chunk's length (acquire), which the
//! owner never writes again while the chunk is in the ring. The owner takes the lock
//! only to change chunks: when the newest is full (it adds one, or past
//! [`MAX_CHUNKS`] reuses the oldest, whose events are then lost: the ring keeps the
//! newest [`CAPACITY`] events), and when a new recording starts (it empties the ring).
//! A collector holding the lock therefore never sees a chunk emptied or reused under it.
//!
//! Which recording the ring holds is its *epoch*; the hub asks for one through
//! `session` (0: none), and the owner empties the ring when it first records for a new
//! one. After the session is switched off the owner still records the ends of the
//! jobs it had started (`open_jobs`), so that a collector that waits for them sees
//! every job it saw start end.

use std::collections::VecDeque;
use std::sync::OnceLock;
use std::time::Instant;

use super::Kind;
use super::sync::{AtomicPtr, AtomicU32, AtomicUsize, Mutex, MutexGuard, Ordering, Slot};

/// Events per chunk (64 KiB of them).
#[cfg(not(all(loom, test)))]
pub(crate) const CHUNK: usize = 4096;
/// Chunks a ring holds at most.
#[cfg(not(all(loom, test)))]
pub(crate) const MAX_CHUNKS: usize = 64;
#[cfg(all(loom, test))]
pub(crate) const CHUNK: usize = 2;
#[cfg(all(loom, test))]
pub(crate) const MAX_CHUNKS: usize = 2;

/// Events a worker keeps at most per recording (the newest): 262,144, 4 MiB. Between
/// recordings it keeps one chunk (64 KiB), from its first recording on.
pub(crate) const CAPACITY: usize = CHUNK * MAX_CHUNKS;

/// One recorded event: when (nanoseconds since [`now`]'s origin), what, and an argument.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Event {
    pub(crate) at: u64,
    pub(crate) arg: u32,
    pub(crate) kind: Kind,
}

/// Nanoseconds since the first call in this process (the clock of every event).
pub(crate) fn now() -> u64 {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    let origin = *ORIGIN.get_or_init(Instant::now);
    origin.elapsed().as_nanos() as u64
}

struct Chunk {
    /// Slots written; those below are complete (release by the owner).
    len: AtomicUsize,
    slots: Box<[Slot<Event>]>,
}

impl Chunk {
    fn new() -> Box<Chunk> {
        Box::new(Chunk {
            len: AtomicUsize::new(0),
            slots: (0..CHUNK).map(|_| Slot::new(Event::default())).collect(),
        })
    }
}

/// What the lock guards: the chunks, oldest first (the owner appends to the last).
struct Ring {
    chunks: VecDeque<Box<Chunk>>,
    /// Events overwritten in this epoch.
    lost: u64,
    /// The owner's thread name, taken when the epoch began.
    thread: Option<String>,
}

/// What a collector takes from a ring.
#[derive(Debug)]
pub(crate) struct Collected {
    pub(crate) events: Vec<Event>,
    pub(crate) lost: u64,
    #[cfg_attr(all(loom, test), allow(dead_code))] // the loom models do not read it
    pub(crate) thread: Option<String>,
}

/// The record of one worker.
pub(crate) struct WorkerLog {
    /// The recording asked for (0: none); written by the hub, read by the owner.
    session: AtomicU32,
    /// The recording the ring holds (written by the owner, under the lock).
    epoch: AtomicU32,
    /// Jobs the owner recorded the start of and not yet the end (owner only).
    open_jobs: AtomicU32,
    /// The newest chunk of the ring, where the owner appends; null before its first
    /// event.
    current: AtomicPtr<Chunk>,
    ring: Mutex<Ring>,
}

impl Default for WorkerLog {
    fn default() -> Self {
        WorkerLog {
            session: AtomicU32::new(0),
            epoch: AtomicU32::new(0),
            open_jobs: AtomicU32::new(0),
            current: AtomicPtr::new(std::ptr::null_mut()),
            ring: Mutex::new(Ring {
                chunks: VecDeque::new(),
                lost: 0,
                thread: None,
            }),
        }
    }
}

impl WorkerLog {
    /// Hub: record for `session` from now on (0: stop).
    pub(crate) fn set_session(&self, session: u32) {
        self.session.store(session, Ordering::Relaxed);
    }

    /// Hub: whether the owner is inside a job whose start it recorded.
    pub(crate) fn in_job(&self) -> bool {
        self.open_jobs.load(Ordering::Acquire) != 0
    }

    /// Owner: records `kind` if a recording is on (or it ends a recorded job). One
    /// relaxed load when none is.
    #[inline]
    pub(crate) fn record(&self, kind: Kind, arg: u32) {
        let session = self.session.load(Ordering::Relaxed);
        if session != 0 || (kind == Kind::JobEnd && self.open_jobs.load(Ordering::Relaxed) != 0) {
            self.append(session, kind, arg);
        }
    }

    #[inline(never)]
    fn append(&self, session: u32, kind: Kind, arg: u32) {
        if session != 0 && session != self.epoch.load(Ordering::Relaxed) {
            self.begin_epoch(session);
        }
        let current = self.current.load(Ordering::Relaxed);
        if current.is_null() {
            return;
        }
        // SAFETY: `current` points to the newest chunk of the ring (boxed, so it does
        // not move), and only this owner removes chunks from the ring.
        let mut chunk = unsafe { &*current };
        let mut len = chunk.len.load(Ordering::Relaxed);
        if len == CHUNK {
            chunk = self.next_chunk();
            len = 0;
        }
        let event = Event {
            at: now(),
            arg,
            kind,
        };
        // SAFETY: only the owner writes slots, and collectors read only the slots below
        // `len`, which the owner does not write again until it reuses the chunk under
        // the lock.
        unsafe { chunk.slots[len].write(event) };
        chunk.len.store(len + 1, Ordering::Release);
        let open = self.open_jobs.load(Ordering::Relaxed);
        match kind {
            Kind::JobStart => self.open_jobs.store(open + 1, Ordering::Relaxed),
            // Release: a collector that sees no open job sees this end.
            Kind::JobEnd if open > 0 => self.open_jobs.store(open - 1, Ordering::Release),
            _ => {}
        }
    }

    /// Owner: empties the ring for recording `session`.
    #[cold]
    fn begin_epoch(&self, session: u32) {
        let mut ring = self.lock();
        ring.chunks.truncate(1);
        if ring.chunks.is_empty() {
            ring.chunks.push_back(Chunk::new());
        }
        let chunk: *const Chunk = &*ring.chunks[0];
        // SAFETY: the chunk is boxed in the ring, which the lock keeps as it is.
        unsafe { (*chunk).len.store(0, Ordering::Relaxed) };
        self.current.store(chunk.cast_mut(), Ordering::Relaxed);
        ring.lost = 0;
        ring.thread = std::thread::current().name().map(str::to_owned);
        self.open_jobs.store(0, Ordering::Relaxed);
        self.epoch.store(session, Ordering::Relaxed);
    }

    /// Owner: the newest chunk is full; returns an empty one, made newest (a new one,
    /// or the oldest once the ring is full).
    #[cold]
    fn next_chunk(&self) -> &Chunk {
        let mut ring = self.lock();
        let chunk = if ring.chunks.len() < MAX_CHUNKS {
            Chunk::new()
        } else {
            let oldest = ring.chunks.pop_front().expect("a full ring has chunks");
            ring.lost += CHUNK as u64;
            oldest.len.store(0, Ordering::Relaxed);
            oldest
        };
        let ptr: *const Chunk = &*chunk;
        ring.chunks.push_back(chunk);
        self.current.store(ptr.cast_mut(), Ordering::Relaxed);
        // SAFETY: the chunk is boxed in the ring, and only this owner removes it.
        unsafe { &*ptr }
    }

    /// Collector: the events recorded for `session`, oldest first (`None` if the owner
    /// recorded nothing for it).
    pub(crate) fn collect(&self, session: u32) -> Option<Collected> {
        let ring = self.lock();
        if self.epoch.load(Ordering::Relaxed) != session {
            return None;
        }
        let mut events = Vec::new();
        for chunk in &ring.chunks {
            let len = chunk.len.load(Ordering::Acquire);
            // SAFETY: slots below `len` are complete (acquired) and the owner does not
            // write them again before it reuses the chunk, which needs the lock.
            events.extend(chunk.slots[..len].iter().map(|s| unsafe { s.read() }));
        }
        Some(Collected {
            events,
            lost: ring.lost,
            thread: ring.thread.clone(),
        })
    }

    /// Collector, once a recording is collected: frees every chunk but the newest (the
    /// owner may be appending to it), so that a worker keeps one chunk between
    /// recordings.
    pub(crate) fn trim(&self) {
        let mut ring = self.lock();
        let older = ring.chunks.len().saturating_sub(1);
        ring.chunks.drain(..older);
    }

    fn lock(&self) -> MutexGuard<'_, Ring> {
        self.ring.lock().unwrap_or_else(|e| e.into_inner())
    }
}
