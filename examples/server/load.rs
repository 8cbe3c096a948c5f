//! The load generator: loopback only, bounded in requests and in time, stops by
//! itself. One phase sends interactive requests (tenant alpha) at a steady pace,
//! bulk requests (tenant beta) on two connections back to back, or both; it
//! records each interactive request's latency (from sending to the last byte of
//! the answer), the bulk requests completed, and the requests that failed (not a
//! 200, or a wrong answer) or were lost (no answer).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::app::{Sizes, expected};
use super::client::Conn;

/// Between two interactive requests (from the start of one to the start of the
/// next; a late answer sends the next at once).
pub const INTERACTIVE_PACE: Duration = Duration::from_millis(10);
/// Connections that send bulk requests back to back.
const BULK_CONNECTIONS: usize = 2;
/// How long the end of a phase waits for the answers still due.
const DRAIN: Duration = Duration::from_secs(20);

/// What one phase sends.
#[derive(Clone, Copy)]
pub struct Phase {
    pub interactive: bool,
    pub bulk: bool,
    pub length: Duration,
}

/// What one phase saw.
#[derive(Default)]
pub struct Outcome {
    /// Interactive latencies, in seconds.
    pub latencies: Vec<f64>,
    /// Bulk requests answered within the phase, per second.
    pub bulk_per_s: f64,
    pub failed: u64,
    pub lost: u64,
}

/// Runs `phase` against the server at `addr`.
pub async fn run(addr: SocketAddr, sizes: Sizes, phase: Phase) -> Outcome {
    let stop = Arc::new(AtomicBool::new(false));
    let failed = Arc::new(AtomicU64::new(0));
    let lost = Arc::new(AtomicU64::new(0));
    let bulk_done = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let mut bulk = Vec::new();
    if phase.bulk {
        for _ in 0..BULK_CONNECTIONS {
            let (stop, failed, lost, done) = (
                stop.clone(),
                failed.clone(),
                lost.clone(),
                bulk_done.clone(),
            );
            bulk.push(tokio::spawn(async move {
                let want = expected(sizes.bulk, 1);
                let Ok(mut conn) = Conn::connect(addr).await else {
                    lost.fetch_add(1, Ordering::Relaxed);
                    return;
                };
                while !stop.load(Ordering::Relaxed) {
                    let answer = tokio::time::timeout(DRAIN, conn.get("/bulk?tenant=beta")).await;
                    match answer {
                        Ok(Ok(a)) if a.status == 200 && a.body == want => {
                            if !stop.load(Ordering::Relaxed) {
                                done.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                        Ok(Ok(_)) => {
                            failed.fetch_add(1, Ordering::Relaxed);
                        }
                        _ => {
                            lost.fetch_add(1, Ordering::Relaxed);
                            return;
                        }
                    }
                }
            }));
        }
        // The bulk requests occupy the cores before the first interactive one.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut latencies = Vec::new();
    if phase.interactive {
        let want = expected(sizes.interactive, 0);
        match Conn::connect(addr).await {
            Ok(mut conn) => {
                // At most one request per pace, and none sent after the phase's end.
                let requests = (phase.length.as_secs_f64() / INTERACTIVE_PACE.as_secs_f64()) as u64;
                let end = start + phase.length;
                let mut next = Instant::now();
                for _ in 0..requests {
                    if next >= end {
                        break;
                    }
                    tokio::time::sleep_until(next.into()).await;
                    next += INTERACTIVE_PACE;
                    let sent = Instant::now();
                    let answer =
                        tokio::time::timeout(DRAIN, conn.get("/interactive?tenant=alpha")).await;
                    match answer {
                        Ok(Ok(a)) if a.status == 200 && a.body == want => {
                            latencies.push(sent.elapsed().as_secs_f64());
                        }
                        Ok(Ok(_)) => {
                            failed.fetch_add(1, Ordering::Relaxed);
                        }
                        _ => {
                            lost.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                    }
                    next = next.max(Instant::now());
                }
            }
            Err(_) => {
                lost.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    // Bulk requests count over the phase's length exactly.
    tokio::time::sleep_until((start + phase.length).into()).await;
    let elapsed = start.elapsed();
    stop.store(true, Ordering::Relaxed);
    for b in bulk {
        let _ = b.await;
    }
    Outcome {
        latencies,
        bulk_per_s: bulk_done.load(Ordering::Relaxed) as f64 / elapsed.as_secs_f64(),
        failed: failed.load(Ordering::Relaxed),
        lost: lost.load(Ordering::Relaxed),
    }
}

/// The `q`-quantile of `v` (sorted in place).
pub fn quantile(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}
