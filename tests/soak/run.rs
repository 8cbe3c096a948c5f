//! One soak run: soak threads picking operations until the time is up, then a drain
//! (every pool and share dropped, every spawned job and worker gone), then the checks
//! and the counts.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::items::LIVE;
use super::memory;
use super::ops::{Ctx, random_op};
use super::panics::{self, LEDGER};
use super::settings::Settings;
use super::stats::Snapshot;
use super::watchdog::{Watch, threads_named};
use super::world::{POOL_WORKERS_LIVE, World};

/// Builds the global pool (once per process) with the run's workers and the soak's
/// panic handler.
fn init_global(workers: usize) {
    let _ = prorata::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("soak-global-{i}"))
        .panic_handler(panics::handler)
        .build_global();
}

fn thread_seed(seed: u64, thread: usize) -> u64 {
    seed ^ (thread as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Runs the soak; panics (after printing the seed) if any invariant broke.
pub fn soak(settings: &Settings) {
    panics::install_hook();
    init_global(settings.workers);
    println!(
        "soak: seed {} for {:.1?}, {} soak threads, pools of 1 to {} workers \
         (replay: PRORATA_SOAK_SEED={} PRORATA_SOAK_WORKERS={} PRORATA_SOAK_THREADS={})",
        settings.seed,
        settings.duration,
        settings.threads,
        settings.workers,
        settings.seed,
        settings.workers,
        settings.threads
    );
    let before = Snapshot::take();
    let world = World::new(settings.workers);
    let watch = Watch::new(settings.threads + 1, settings.seed);
    let dog = watch.spawn(settings.deadline);
    let sampler = memory::Sampler::start();
    let start = Instant::now();
    let end = start + settings.duration;
    std::thread::scope(|s| {
        for t in 0..settings.threads {
            let (world, watch) = (&world, &*watch);
            std::thread::Builder::new()
                .name(format!("soak-{t}"))
                .spawn_scoped(s, move || {
                    let seed = thread_seed(settings.seed, t);
                    let mut ctx = Ctx::new(seed, world, watch, t, settings.max_len);
                    while Instant::now() < end && !panics::failed() {
                        if let Err(p) =
                            panic::catch_unwind(AssertUnwindSafe(|| random_op(&mut ctx)))
                        {
                            let msg = panics::message(&*p).unwrap_or("(not a string)");
                            panics::fail(format!("soak thread {t}: unexpected panic: {msg}"));
                        }
                    }
                })
                .expect("soak: soak thread");
        }
    });
    let ran = start.elapsed();
    drain(&world, &watch, settings.threads);
    watch.stop();
    let _ = dog.join();
    let samples = sampler.finish();
    let fired = LEDGER.check_all_seen();
    let live = LIVE.load(Ordering::SeqCst);
    if live != 0 {
        panics::fail(format!("{live} tracked items leaked"));
    }
    report(&before, ran, fired, &samples, settings);
    let failures = panics::failures();
    assert!(
        failures.is_empty(),
        "soak failed with seed {} (PRORATA_SOAK_SEED={} to replay): {failures:#?}",
        settings.seed,
        settings.seed
    );
}

/// Drops every pool and share, then waits (under the watchdog) for the panic
/// handlers, the tracked items and the workers of the soak's pools and shares.
fn drain(world: &World, watch: &Watch, slot: usize) {
    watch.begin(slot, "final drain", "every pool and share".into());
    world.clear();
    let wait = |stage: &'static str, done: &dyn Fn() -> bool| {
        watch.stage(slot, stage);
        while !done() {
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    wait("panic handlers not reached yet", &|| {
        LEDGER.handler_backlog() == 0
    });
    wait("tracked items still alive", &|| {
        LIVE.load(Ordering::SeqCst) == 0
    });
    wait("workers of dropped pools still alive", &|| {
        POOL_WORKERS_LIVE.load(Ordering::SeqCst) == 0
    });
    wait("workers of dropped shares still alive", &|| {
        threads_named("prorata-share").is_empty()
    });
    watch.end(slot);
}

fn report(before: &Snapshot, ran: Duration, fired: usize, samples: &[(f64, u64)], s: &Settings) {
    let mut out = format!("soak: ran {ran:.1?} (seed {})\n", s.seed);
    for (name, n) in before.since() {
        out += &format!("  {n:>12}  {name}\n");
    }
    out +=
        &format!("  {fired:>12}  injected panics fired in this process, each seen exactly once\n");
    out += &format!(
        "  {:>12}  tracked items alive at the end\n",
        LIVE.load(Ordering::SeqCst)
    );
    let mib = |b: u64| b as f64 / f64::from(1 << 20);
    let first = samples.first().map_or(0, |s| s.1);
    let last = samples.last().map_or(0, |s| s.1);
    if ran >= Duration::from_secs(30) {
        let v = memory::verdict(samples, ran.as_secs_f64());
        out += &format!(
            "  RSS: {:.1} MiB at start, peak {:.1} MiB in the middle third, {:.1} MiB in the last third, {:.1} MiB at the end: {}\n",
            mib(first),
            mib(v.middle_peak),
            mib(v.last_peak),
            mib(last),
            if v.flat { "flat" } else { "GROWING" }
        );
        if !v.flat {
            panics::fail(format!(
                "resident memory grew from {:.1} MiB to {:.1} MiB after warm-up",
                mib(v.middle_peak),
                mib(v.last_peak)
            ));
        }
    } else {
        out += &format!(
            "  RSS: {:.1} MiB at start, {:.1} MiB at the end (run too short to judge)\n",
            mib(first),
            mib(last)
        );
    }
    println!("{out}");
}
