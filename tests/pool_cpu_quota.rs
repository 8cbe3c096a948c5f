//! `ThreadPoolBuilder::follow_cpu_quota`: a pool whose workers that run at once
//! follow the process's CPU quota as it changes. The tests never touch the
//! machine's cgroups: they point the pool at a directory of cgroup files they
//! write (`cgroup_dir_for_tests`), and one test reads this machine's real files.
//!
//! Concurrency is counted by the closures themselves (an atomic count of those
//! running, and its maximum over a window). Nothing here asserts a timing: each
//! state must be reached before a generous watchdog (30 s), which only keeps a
//! broken build from hanging CI. The time from a quota change to one worker at
//! a time is printed (`--nocapture`), for docs/benchmarks.md.

mod common;
use common::executor::threads_named;
use common::work::{one_at_a_time, spin};

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{ThreadPool, ThreadPoolBuilder};

/// The watchdog of every wait below (not a timing promise).
const DEADLINE: Duration = Duration::from_secs(30);

/// A window of observation.
const WINDOW: Duration = Duration::from_millis(200);

/// A directory of cgroup files for one test, removed at the end.
struct CgroupDir(PathBuf);

impl CgroupDir {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("prorata-cpu-quota-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        CgroupDir(dir)
    }

    fn write(&self, file: &str, contents: &str) {
        // Written whole, then renamed: the pool never reads half a file.
        let tmp = self.0.join(format!("{file}.tmp"));
        std::fs::write(&tmp, contents).unwrap();
        std::fs::rename(&tmp, self.0.join(file)).unwrap();
    }
}

impl Drop for CgroupDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What the closures of [`Busy`] record.
#[derive(Default)]
struct Counts {
    running: AtomicUsize,
    /// The most running at once since the window began.
    most: AtomicUsize,
    /// Closures run since the window began.
    items: AtomicU64,
    /// When two or more last ran at once (nanoseconds since `t0`).
    last_two: AtomicU64,
}

/// Keeps `pool` busy with a loop of short parallel closures on a thread of its
/// own until dropped (also when a wait panics: the scope then joins the thread).
struct Busy<'a> {
    counts: &'a Counts,
    stop: &'a AtomicBool,
    t0: Instant,
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl<'a> Busy<'a> {
    /// Runs the loop on `scope` until `stop`.
    fn start<'s>(
        scope: &'s std::thread::Scope<'s, 'a>,
        pool: &'a ThreadPool,
        counts: &'a Counts,
        stop: &'a AtomicBool,
        t0: Instant,
    ) -> Self {
        scope.spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                pool.install(|| {
                    (0..2_000u64).into_par_iter().for_each(|i| {
                        let now = counts.running.fetch_add(1, Ordering::SeqCst) + 1;
                        counts.most.fetch_max(now, Ordering::SeqCst);
                        if now >= 2 {
                            let at = t0.elapsed().as_nanos() as u64;
                            counts.last_two.fetch_max(at, Ordering::SeqCst);
                        }
                        for k in 0..20 {
                            std::hint::black_box(spin(i + k));
                        }
                        counts.running.fetch_sub(1, Ordering::SeqCst);
                        counts.items.fetch_add(1, Ordering::Relaxed);
                    });
                });
            }
        });
        Busy { counts, stop, t0 }
    }

    /// The most closures that ran at once over one window, and how many ran.
    fn window(&self) -> (usize, u64) {
        self.counts.most.store(0, Ordering::SeqCst);
        self.counts.items.store(0, Ordering::SeqCst);
        // A closure running as the window begins counts in it.
        let running = self.counts.running.load(Ordering::SeqCst);
        self.counts.most.fetch_max(running, Ordering::SeqCst);
        std::thread::sleep(WINDOW);
        (
            self.counts.most.load(Ordering::SeqCst),
            self.counts.items.load(Ordering::Relaxed),
        )
    }

    /// Waits for a whole window in which work ran with at most one closure at
    /// a time; panics after [`DEADLINE`].
    fn wait_for_one(&self, what: &str) {
        let t = Instant::now();
        loop {
            let (most, items) = self.window();
            if most <= 1 && items > 0 {
                return;
            }
            assert!(t.elapsed() < DEADLINE, "{what}: still {most} at once");
        }
    }

    /// Waits for a window in which two closures ran at once; panics after
    /// [`DEADLINE`].
    fn wait_for_two(&self, what: &str) {
        let t = Instant::now();
        loop {
            let (most, _) = self.window();
            if most >= 2 {
                return;
            }
            assert!(t.elapsed() < DEADLINE, "{what}: never two at once");
        }
    }

    /// When two closures last ran at once.
    fn last_two(&self) -> Duration {
        Duration::from_nanos(self.counts.last_two.load(Ordering::SeqCst))
    }

    fn now(&self) -> Duration {
        self.t0.elapsed()
    }
}

/// A delay of 0-99 ms that differs from call to call.
fn off_phase() -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    Duration::from_millis(u64::from(nanos / 1000 % 100))
}

/// Whether this machine lets the process run two threads at once (else the
/// tests check only the state of one).
fn two_cpus() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}

fn following(dir: &CgroupDir) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(2)
        .follow_cpu_quota()
        .cgroup_dir_for_tests(&dir.0)
        .build()
        .unwrap()
}

/// A 2-worker pool following `dir`: with `two` written it runs 2 closures at
/// once, with `one` written at most 1 over a window, then 2 again.
fn two_one_two(dir: &CgroupDir, two: &dyn Fn(), one: &dyn Fn(), label: &str) {
    two();
    let pool = following(dir);
    let (counts, stop) = (Counts::default(), AtomicBool::new(false));
    std::thread::scope(|s| {
        let busy = Busy::start(s, &pool, &counts, &stop, Instant::now());
        if two_cpus() {
            busy.wait_for_two(&format!("{label}: 2 CPUs at first"));
        }
        // Not in step with the pool's timer (the windows are whole periods of it).
        std::thread::sleep(off_phase());
        let changed = busy.now();
        one();
        busy.wait_for_one(&format!("{label}: 1 CPU"));
        // Measured, not asserted: when two ran at once last after the change.
        let lag = busy.last_two().saturating_sub(changed);
        eprintln!(
            "{label}: 2 -> 1 CPU: two at once last {:.1} ms after the file changed",
            lag.as_secs_f64() * 1e3,
        );
        if two_cpus() {
            let back = busy.now();
            two();
            busy.wait_for_two(&format!("{label}: back to 2 CPUs"));
            eprintln!(
                "{label}: 1 -> 2 CPUs: two at once again within {:.0} ms",
                (busy.now() - back).as_secs_f64() * 1e3
            );
        } else {
            eprintln!("{label}: this machine runs one thread at a time: 2 CPUs not checked");
        }
    });
}

/// The time from the quota file's change from 2 CPUs to 1 to the last moment
/// two closures ran at once, over `PRORATA_QUOTA_SAMPLES` changes (default 20)
/// made at times spread over the timer's period; printed, not asserted (the
/// issue's target: within 1 s). Run with `--ignored --nocapture`.
#[test]
#[ignore = "a measurement"]
fn measure_the_time_to_one_worker() {
    let _turn = one_at_a_time();
    if !two_cpus() {
        eprintln!("this machine runs one thread at a time: nothing to measure");
        return;
    }
    let samples: usize = std::env::var("PRORATA_QUOTA_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let dir = CgroupDir::new("measure");
    dir.write("cpu.max", "200000 100000\n");
    let pool = following(&dir);
    let (counts, stop) = (Counts::default(), AtomicBool::new(false));
    let mut lags = Vec::new();
    std::thread::scope(|s| {
        let busy = Busy::start(s, &pool, &counts, &stop, Instant::now());
        for k in 0..samples {
            busy.wait_for_two("2 CPUs");
            // Spread over the timer's period: k * 100 / samples ms, plus a window.
            std::thread::sleep(Duration::from_micros((k * 100_000 / samples) as u64));
            let changed = busy.now();
            dir.write("cpu.max", "100000 100000\n");
            busy.wait_for_one("1 CPU");
            // Five more quiet windows: the last overlap is behind.
            for _ in 0..5 {
                busy.wait_for_one("1 CPU, still");
            }
            lags.push(busy.last_two().saturating_sub(changed));
            dir.write("cpu.max", "200000 100000\n");
        }
    });
    lags.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "2 -> 1 CPU, {} changes: last two at once after min {:.1} / median {:.1} / \
         max {:.1} ms",
        lags.len(),
        ms(lags[0]),
        ms(lags[lags.len() / 2]),
        ms(lags[lags.len() - 1])
    );
}

#[test]
fn cgroup_v2_cpu_max_from_two_to_one_and_back() {
    let _turn = one_at_a_time();
    let dir = CgroupDir::new("v2");
    two_one_two(
        &dir,
        &|| dir.write("cpu.max", "200000 100000\n"),
        &|| dir.write("cpu.max", "100000 100000\n"),
        "v2",
    );
}

#[test]
fn cgroup_v1_cfs_quota_from_two_to_one_and_back() {
    let _turn = one_at_a_time();
    let dir = CgroupDir::new("v1");
    dir.write("cpu.cfs_period_us", "100000\n");
    two_one_two(
        &dir,
        &|| dir.write("cpu.cfs_quota_us", "200000\n"),
        &|| dir.write("cpu.cfs_quota_us", "100000\n"),
        "v1",
    );
}

#[test]
fn a_fraction_of_a_cpu_is_one_worker_and_no_limit_is_every_thread() {
    let _turn = one_at_a_time();
    let dir = CgroupDir::new("fraction");
    // 0.5 CPU rounds up to 1; "max" and v1's -1 are no limit.
    two_one_two(
        &dir,
        &|| dir.write("cpu.max", "max 100000\n"),
        &|| dir.write("cpu.max", "50000 100000\n"),
        "v2 max / 0.5",
    );
    let dir = CgroupDir::new("fraction-v1");
    dir.write("cpu.cfs_period_us", "100000\n");
    two_one_two(
        &dir,
        &|| dir.write("cpu.cfs_quota_us", "-1\n"),
        &|| dir.write("cpu.cfs_quota_us", "30000\n"),
        "v1 -1 / 0.3",
    );
}

#[test]
fn garbage_or_missing_files_are_no_limit() {
    let _turn = one_at_a_time();
    let dir = CgroupDir::new("garbage");
    // A malformed file: the pool keeps its threads' count, without a panic,
    // and goes to one at a time and back as the file changes.
    two_one_two(
        &dir,
        &|| dir.write("cpu.max", "not a quota\n"),
        &|| dir.write("cpu.max", "100000 100000\n"),
        "garbage",
    );
    // No file at all (a directory that does not exist): no limit either.
    let missing = CgroupDir::new("missing");
    let path = missing.0.join("not-there");
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .follow_cpu_quota()
        .cgroup_dir_for_tests(&path)
        .build()
        .unwrap();
    let (counts, stop) = (Counts::default(), AtomicBool::new(false));
    std::thread::scope(|s| {
        let busy = Busy::start(s, &pool, &counts, &stop, Instant::now());
        if two_cpus() {
            busy.wait_for_two("no files");
        }
    });
    assert_eq!(pool.current_num_threads(), 2);
}

/// Waits until `n` threads are named `prorata-quota`; panics after [`DEADLINE`].
fn wait_for_quota_threads(n: usize, what: &str) -> Duration {
    let t = Instant::now();
    while threads_named("prorata-quota") != n {
        assert!(
            t.elapsed() < DEADLINE,
            "{what}: {} quota threads, not {n}",
            threads_named("prorata-quota")
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    t.elapsed()
}

#[test]
fn only_a_pool_that_opts_in_has_a_quota_thread_and_it_exits_with_the_pool() {
    if !std::path::Path::new("/proc/self/task").exists() {
        eprintln!("no /proc: not checked");
        return;
    }
    let _turn = one_at_a_time();
    // Pools of the tests before have gone.
    wait_for_quota_threads(0, "before");
    let plain = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let share = plain.share(100).unwrap();
    let sum: u64 = plain.install(|| (0..10_000u64).into_par_iter().sum());
    assert_eq!(sum + share.install(|| 0), 49_995_000);
    // Longer than the follower's period: none started.
    for _ in 0..4 {
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            threads_named("prorata-quota"),
            0,
            "a pool that did not opt in"
        );
    }
    drop((share, plain));

    let dir = CgroupDir::new("thread");
    dir.write("cpu.max", "100000 100000\n");
    let pool = following(&dir);
    wait_for_quota_threads(1, "opted in");
    // A share of the pool outlives it, and with it the pool's permits, and a
    // job spawned on it keeps running after the drop, and with it the pool's
    // registry: the thread exits because the pool was dropped, not because
    // they went. (The job ends when `release` is sent or dropped, also if
    // this test fails.)
    let share = pool.share(100).unwrap();
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let (started, running) = std::sync::mpsc::channel::<()>();
    pool.spawn(move || {
        started.send(()).unwrap();
        let _ = wait.recv();
    });
    running.recv().unwrap();
    let dropped = Instant::now();
    drop(pool);
    let drop_took = dropped.elapsed();
    let gone = wait_for_quota_threads(0, "after the pool was dropped");
    eprintln!(
        "drop took {:.3} ms; the quota thread was gone {:.1} ms after",
        drop_took.as_secs_f64() * 1e3,
        gone.as_secs_f64() * 1e3
    );
    release.send(()).unwrap();
    assert_eq!(share.install(|| 6 * 7), 42);
}

#[test]
fn this_machines_own_quota() {
    // Reads the machine's real cgroup files: whatever they say, the pool runs
    // its work and has its thread.
    let _turn = one_at_a_time();
    let pool = ThreadPoolBuilder::new()
        .num_threads(3)
        .follow_cpu_quota()
        .build()
        .unwrap();
    let sum: u64 = pool.install(|| (1..=100_000u64).into_par_iter().sum());
    assert_eq!(sum, 5_000_050_000);
    assert_eq!(pool.join(|| 1, || 2), (1, 2));
    let v: Vec<u64> = pool.install(|| (0..1000u64).into_par_iter().map(|x| x * 2).collect());
    assert_eq!(v[999], 1998);
}

#[test]
fn follow_cpu_quota_with_share_cores_and_the_current_thread() {
    let _turn = one_at_a_time();
    let dir = CgroupDir::new("combined");
    dir.write("cpu.max", "400000 100000\n");
    // share_cores caps the reading; shares of the pool divide what it allows.
    let pool = ThreadPoolBuilder::new()
        .num_threads(4)
        .share_cores(1)
        .follow_cpu_quota()
        .cgroup_dir_for_tests(&dir.0)
        .build()
        .unwrap();
    let a = pool.share(100).unwrap();
    let most = AtomicUsize::new(0);
    let running = AtomicUsize::new(0);
    a.install(|| {
        (0..5_000u64).into_par_iter().for_each(|i| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            std::hint::black_box(spin(i));
            running.fetch_sub(1, Ordering::SeqCst);
        })
    });
    assert_eq!(most.load(Ordering::SeqCst), 1, "share_cores(1) was passed");
    drop((a, pool));
    // `use_current_thread`: worker 0 is the building thread, which takes no core.
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .use_current_thread()
        .follow_cpu_quota()
        .cgroup_dir_for_tests(&dir.0)
        .build()
        .unwrap();
    assert_eq!(
        pool.install(|| (0..1000u64).into_par_iter().sum::<u64>()),
        499_500
    );
    drop(pool);
}
