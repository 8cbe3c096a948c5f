//! The watchdog: what each soak thread is doing and since when; past the deadline it
//! prints every soak thread's operation and every thread of the process (name, state,
//! kernel wait channel), then ends the process with a failure.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::panics::lock;

/// What one soak thread is doing.
#[derive(Default)]
struct Slot {
    op: &'static str,
    place: String,
    stage: &'static str,
    since: Option<Instant>,
    done: u64,
}

/// The slots of all soak threads (and one for the main thread's final drain).
pub struct Watch {
    slots: Vec<Mutex<Slot>>,
    stop: AtomicBool,
    seed: u64,
}

impl Watch {
    pub fn new(slots: usize, seed: u64) -> Arc<Watch> {
        Arc::new(Watch {
            slots: (0..slots).map(|_| Mutex::default()).collect(),
            stop: AtomicBool::new(false),
            seed,
        })
    }

    /// Soak thread `i` starts `op` in `place`.
    pub fn begin(&self, i: usize, op: &'static str, place: String) {
        let mut s = lock(&self.slots[i]);
        s.op = op;
        s.place = place;
        s.stage = "";
        s.since = Some(Instant::now());
    }

    /// Soak thread `i` reached `stage` of its operation.
    pub fn stage(&self, i: usize, stage: &'static str) {
        lock(&self.slots[i]).stage = stage;
    }

    /// Soak thread `i` finished its operation.
    pub fn end(&self, i: usize) {
        let mut s = lock(&self.slots[i]);
        s.since = None;
        s.done += 1;
    }

    /// Watches until [`Watch::stop`]; past `deadline` in one operation, dumps and exits.
    pub fn spawn(self: &Arc<Self>, deadline: Duration) -> std::thread::JoinHandle<()> {
        let watch = Arc::clone(self);
        std::thread::Builder::new()
            .name("soak-watchdog".into())
            .spawn(move || {
                while !watch.stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(100));
                    if let Some(i) = watch.overdue(deadline) {
                        watch.dump_and_exit(i, deadline);
                    }
                }
            })
            .expect("soak: watchdog thread")
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    fn overdue(&self, deadline: Duration) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| lock(s).since.is_some_and(|t| t.elapsed() > deadline))
    }

    fn dump_and_exit(&self, overdue: usize, deadline: Duration) -> ! {
        let mut out = String::new();
        out += &format!(
            "\nsoak: DEADLOCK? soak thread {overdue} is past the {deadline:?} deadline (seed {})\n",
            self.seed
        );
        out += "soak threads:\n";
        for (i, slot) in self.slots.iter().enumerate() {
            let s = lock(slot);
            let what = match s.since {
                Some(t) => format!(
                    "in {} on {} for {:.1?}, stage {:?}",
                    s.op,
                    s.place,
                    t.elapsed(),
                    s.stage
                ),
                None => "between operations".to_string(),
            };
            out += &format!("  #{i}: {what} ({} done)\n", s.done);
        }
        out += &process_threads();
        // Straight to the file descriptor: the test harness may be capturing output.
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(out.as_bytes());
        let _ = err.flush();
        std::process::exit(3);
    }
}

/// Every thread of this process: id, name, scheduler state, kernel wait channel.
pub fn process_threads() -> String {
    let out = String::from("process threads (tid name state wchan):\n");
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return out + "  (no /proc)\n";
    };
    let mut rows = Vec::new();
    for entry in dir.flatten() {
        let p = entry.path();
        let read = |f: &str| std::fs::read_to_string(p.join(f)).unwrap_or_default();
        let stat = read("stat");
        // The state follows the parenthesised name.
        let state = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next())
            .unwrap_or("?")
            .to_string();
        rows.push(format!(
            "  {} {} {} {}\n",
            entry.file_name().to_string_lossy(),
            read("comm").trim(),
            state,
            read("wchan").trim()
        ));
    }
    rows.sort();
    out + &rows.concat()
}

/// Names of the live threads of this process that start with `prefix`.
pub fn threads_named(prefix: &str) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("comm")).ok())
        .map(|c| c.trim().to_string())
        .filter(|c| c.starts_with(prefix))
        .collect()
}
