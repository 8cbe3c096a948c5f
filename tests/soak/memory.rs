//! Resident memory, sampled from /proc/self/statm while the soak runs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Resident set size in bytes (0 where /proc is missing).
pub fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

/// Samples of (seconds since start, RSS) taken every 100 ms until stopped.
pub struct Sampler {
    samples: Arc<Mutex<Vec<(f64, u64)>>>,
    stop: Arc<AtomicBool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Sampler {
    pub fn start() -> Sampler {
        let samples = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, st) = (Arc::clone(&samples), Arc::clone(&stop));
        let handle = std::thread::Builder::new()
            .name("soak-rss".into())
            .spawn(move || {
                let t0 = Instant::now();
                while !st.load(Ordering::SeqCst) {
                    super::panics::lock(&s).push((t0.elapsed().as_secs_f64(), rss()));
                    std::thread::sleep(Duration::from_millis(100));
                }
            })
            .expect("soak: rss sampler thread");
        Sampler {
            samples,
            stop,
            handle: Some(handle),
        }
    }

    /// Stops sampling; returns the samples.
    pub fn finish(mut self) -> Vec<(f64, u64)> {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
        std::mem::take(&mut *super::panics::lock(&self.samples))
    }
}

/// The verdict on RSS: the peak of the last third of the run against the peak of the
/// middle third (the first third is warm-up). Flat means the last is above the middle
/// by at most 25% or 32 MiB, whichever is more (allocator and thread-stack noise).
pub struct Verdict {
    pub middle_peak: u64,
    pub last_peak: u64,
    pub flat: bool,
}

pub fn verdict(samples: &[(f64, u64)], run_secs: f64) -> Verdict {
    let peak = |from: f64, to: f64| {
        samples
            .iter()
            .filter(|(t, _)| *t >= from && *t < to)
            .map(|&(_, r)| r)
            .max()
            .unwrap_or(0)
    };
    let third = run_secs / 3.0;
    let middle_peak = peak(third, 2.0 * third);
    let last_peak = peak(2.0 * third, run_secs);
    let allowed = middle_peak + (middle_peak / 4).max(32 << 20);
    Verdict {
        middle_peak,
        last_peak,
        flat: last_peak <= allowed,
    }
}
