//! The cost of the barrier a thief pays to claim a pending join frame or rob a BWoS
//! slot, against the number of threads of the process: running (spinning) or
//! asleep.
//!
//! Linux's `membarrier` (the private expedited command) interrupts every CPU that is
//! running a thread of the process at that moment and waits until each has executed a
//! full barrier, so its cost follows the CPUs running the process's threads, not the
//! threads. Each row is the best of several rounds, interleaved with a plain fence:
//! the caller's CPU time per call (on Linux; what the call costs the thief, which
//! spins in the kernel until every CPU interrupted has answered) and its wall time
//! per call (which on an oversubscribed machine also counts the time the caller
//! waited for a CPU).
//!
//! ```text
//! cargo run --release --example barrier_cost -- [--threads 0,1,2,4,8,16,64] [--rounds 5]
//! PRORATA_BARRIER=fence cargo run --release --example barrier_cost
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use prorata::deque_bench::{barrier_name, process_barrier};

const ROUND: Duration = Duration::from_millis(200);

/// Threads spinning or asleep until stopped.
struct Crowd {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Crowd {
    fn new(n: usize, spinning: bool) -> Crowd {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..n)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        if spinning {
                            std::hint::spin_loop();
                        } else {
                            std::thread::park_timeout(Duration::from_millis(50));
                        }
                    }
                })
            })
            .collect();
        Crowd { stop, threads }
    }

    fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads {
            t.thread().unpark();
            t.join().unwrap();
        }
    }
}

/// The calling thread's CPU time, in nanoseconds (its wall time where there is no
/// such clock).
fn cpu_now(wall: Instant) -> u64 {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if r == 0 {
            return ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64;
        }
    }
    wall.elapsed().as_nanos() as u64
}

/// CPU and wall nanoseconds per call of `op`, called for one round.
fn per_call(op: fn()) -> (f64, f64) {
    let t0 = Instant::now();
    let c0 = cpu_now(t0);
    let mut n = 0u64;
    while t0.elapsed() < ROUND {
        for _ in 0..64 {
            op();
        }
        n += 64;
    }
    let cpu = (cpu_now(t0) - c0) as f64 / n as f64;
    (cpu, t0.elapsed().as_nanos() as f64 / n as f64)
}

fn fence() {
    std::sync::atomic::fence(Ordering::SeqCst);
}

fn main() {
    let mut threads = vec![0, 1, 2, 4, 8, 16, 64];
    let mut rounds = 5;
    let argv: Vec<String> = std::env::args().skip(1).collect();
    for pair in argv.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or("");
        match pair[0].as_str() {
            "--threads" => {
                threads = value
                    .split(',')
                    .map(|t| t.trim().parse().expect("--threads 0,1,2"))
                    .collect()
            }
            "--rounds" => rounds = value.parse().expect("--rounds N"),
            other => panic!("unknown option {other}"),
        }
    }
    process_barrier();
    println!(
        "thief barrier: {}; {} CPUs; best of {rounds} rounds of {} ms",
        barrier_name(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        ROUND.as_millis()
    );
    println!("threads  state     | barrier: cpu ns  wall ns | fence: cpu ns");
    for &n in &threads {
        for spinning in [true, false] {
            if n == 0 && !spinning {
                continue;
            }
            let crowd = Crowd::new(n, spinning);
            std::thread::sleep(Duration::from_millis(20));
            let (mut barrier, mut wall, mut plain) = (f64::MAX, f64::MAX, f64::MAX);
            for _ in 0..rounds {
                let (cpu, w) = per_call(process_barrier);
                barrier = barrier.min(cpu);
                wall = wall.min(w);
                plain = plain.min(per_call(fence).0);
            }
            let state = if spinning { "running" } else { "asleep" };
            println!("{n:>7}  {state:<9} | {barrier:>15.0} {wall:>8.0} | {plain:>13.1}");
            crowd.stop();
        }
    }
}
