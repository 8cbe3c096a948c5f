//! Threads that prorata did not create, in a pool whose shares compete: the thread
//! that builds a `use_current_thread` pool (its worker 0), and workers that the
//! start handler pins to processors. prorata must change nothing of them (affinity,
//! priority, signal mask, name): a system-call trace of this example, filtered by
//! the thread ids it prints, shows what it did to them.
//!
//! The building thread runs a `par_iter` on the pool (the pool's own jobs, outside
//! any share) while two shares of as many tickets keep busy beside it, so that the
//! three take turns on the cores and every worker passes paced safe points; the
//! start handler sets each worker's affinity to the processors the process may run
//! on (one call per worker, the user's own).
//!
//! ```sh
//! cargo build --release --example foreign_threads
//! strace -f -o calls.txt -e trace=sched_setaffinity target/release/examples/foreign_threads
//! grep -c '^TID ' calls.txt      # for each thread id printed
//! ```
//!
//! `cargo run --release --example foreign_threads -- [--secs S]` (Linux; 1.5 s by
//! default).

#[cfg(target_os = "linux")]
#[path = "common/work_item.rs"]
mod work_item;

#[cfg(target_os = "linux")]
fn main() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use prorata::prelude::*;
    use work_item::item;

    fn gettid() -> i64 {
        // SAFETY: `gettid` takes no arguments and cannot fail.
        unsafe { libc::syscall(libc::SYS_gettid) }
    }

    let mut secs = 1.5;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--secs" {
            secs = args.next().and_then(|s| s.parse().ok()).expect("--secs S");
        }
    }
    let run = Duration::from_secs_f64(secs);

    // The processors this process may run on: what the start handler pins to.
    // SAFETY: a `cpu_set_t` is plain bits; all zeroes is the empty set.
    let mut mask: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `mask` is a valid `cpu_set_t` of `size` bytes, for the calling thread.
    assert_eq!(unsafe { libc::sched_getaffinity(0, size, &mut mask) }, 0);

    let pinned = Arc::new(Mutex::new(Vec::new()));
    let pool = {
        let pinned = pinned.clone();
        prorata::ThreadPoolBuilder::new()
            .num_threads(3)
            .use_current_thread()
            .start_handler(move |_| {
                // SAFETY: `mask` is a valid `cpu_set_t` of `size` bytes, for the
                // calling thread.
                assert_eq!(unsafe { libc::sched_setaffinity(0, size, &mask) }, 0);
                pinned.lock().unwrap().push(gettid());
            })
            .build()
            .unwrap()
    };
    // Every worker has started (and been pinned) once a broadcast ran on them.
    pool.broadcast(|_| ());
    let shares = [pool.share(100).unwrap(), pool.share(100).unwrap()];
    let stop = AtomicBool::new(false);
    let sum = std::thread::scope(|s| {
        for share in &shares {
            let stop = &stop;
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    share.install(|| (0..20_000u64).into_par_iter().map(item).sum::<u64>());
                }
            });
        }
        let t0 = Instant::now();
        let mut sum = 0u64;
        while t0.elapsed() < run {
            sum = sum.wrapping_add(
                pool.install(|| (0..20_000u64).into_par_iter().map(item).sum::<u64>()),
            );
        }
        stop.store(true, Ordering::Relaxed);
        sum
    });
    std::hint::black_box(sum);
    println!("building thread (worker 0): {}", gettid());
    let pinned = pinned.lock().unwrap();
    println!(
        "workers pinned by the start handler (one sched_setaffinity each, their own): {pinned:?}"
    );
}

#[cfg(not(target_os = "linux"))]
fn main() {
    println!("Linux only");
}
