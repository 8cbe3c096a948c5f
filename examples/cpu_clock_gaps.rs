//! What a thread's CPU clock charges it for while it runs none of its own code: the
//! floor under the proportions of shares, which are charged their workers' CPU time.
//!
//! One thread per core spins in a short loop and reads, at each turn of it, its own
//! CPU clock and the wall clock. A turn of the loop takes well under a microsecond;
//! where the CPU clock moved by much more between two readings, the thread was
//! charged for that time without running its loop (interrupts handled on its
//! processor, the hypervisor, the kernel's own work). Printed per thread: how many
//! such gaps passed 0.5, 2 and 5 ms, and the longest, with the wall time it spanned.
//! Run it alone, then beside a program under test, to see what that program's load
//! adds.
//!
//! `cargo run --release --example cpu_clock_gaps -- [--secs S]` (Linux only).

#[cfg(target_os = "linux")]
fn main() {
    use std::hint::black_box;
    use std::thread;

    /// A clock's reading in nanoseconds.
    fn read(clock: libc::clockid_t) -> u64 {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid place for the reading; both clocks always exist.
        unsafe { libc::clock_gettime(clock, &mut ts) };
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    }

    let args: Vec<String> = std::env::args().skip(1).collect();
    let secs: u64 = match args.as_slice() {
        [] => 20,
        [flag, s] if flag == "--secs" => s.parse().expect("--secs S (whole seconds)"),
        _ => panic!("usage: cpu_clock_gaps [--secs S]"),
    };
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    println!("{cores} threads spinning for {secs} s; gaps in the loop's CPU time:");
    let threads: Vec<_> = (0..cores)
        .map(|_| {
            thread::spawn(move || {
                let end = read(libc::CLOCK_MONOTONIC) + secs * 1_000_000_000;
                let (mut cpu, mut wall) = (
                    read(libc::CLOCK_THREAD_CPUTIME_ID),
                    read(libc::CLOCK_MONOTONIC),
                );
                let mut over = [0u32; 3];
                let mut longest = (0, 0);
                let mut x = 1u64;
                while wall < end {
                    for _ in 0..100 {
                        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                    }
                    let (c, w) = (
                        read(libc::CLOCK_THREAD_CPUTIME_ID),
                        read(libc::CLOCK_MONOTONIC),
                    );
                    // Saturating: a clock that stepped back is no gap.
                    let gap = c.saturating_sub(cpu);
                    for (n, limit) in over.iter_mut().zip([500_000, 2_000_000, 5_000_000]) {
                        *n += u32::from(gap > limit);
                    }
                    if gap > longest.0 {
                        longest = (gap, w.saturating_sub(wall));
                    }
                    (cpu, wall) = (c, w);
                }
                (over, longest)
            })
        })
        .collect();
    for (i, t) in threads.into_iter().enumerate() {
        let (over, (gap, span)) = t.join().unwrap();
        println!(
            "thread {i}: over 0.5 ms {}, over 2 ms {}, over 5 ms {}; longest {:.2} ms of CPU time in {:.2} ms",
            over[0],
            over[1],
            over[2],
            gap as f64 / 1e6,
            span as f64 / 1e6
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn main() {
    println!("cpu_clock_gaps reads a thread's CPU clock through Linux's clock_gettime");
}
