//! How many cores the process may use now: its cgroup's CPU quota (v2 `cpu.max`,
//! v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`) and its affinity mask, for a
//! pool that follows them. The reader takes its files from [`CgroupFiles`], so
//! that tests point it at files they write; an unreadable or malformed file
//! means "no limit", never a panic.
//!
//! [`QuotaFollower`] is the pool's timer thread ("prorata-quota") that re-reads
//! them every [`PERIOD`] and changes the number of the pool's core permits when
//! the reading changes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::Duration;

use super::worker_exits::WorkerExits;
use crate::shares::Permits;

/// The files that say the process's CPU quota.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CgroupFiles {
    /// cgroup v2: the `cpu.max` of the process's cgroup.
    pub(crate) cpu_max: Option<PathBuf>,
    /// cgroup v1: `cpu.cfs_quota_us` and `cpu.cfs_period_us`.
    pub(crate) cfs_quota: Option<PathBuf>,
    pub(crate) cfs_period: Option<PathBuf>,
}

impl CgroupFiles {
    /// The files of a directory laid out as a cgroup's: `cpu.max` (v2), else
    /// `cpu.cfs_quota_us` and `cpu.cfs_period_us` (v1). For tests, which write
    /// them (see `ThreadPoolBuilder::cgroup_dir_for_tests`).
    pub(crate) fn in_dir(dir: &Path) -> Self {
        CgroupFiles {
            cpu_max: Some(dir.join("cpu.max")),
            cfs_quota: Some(dir.join("cpu.cfs_quota_us")),
            cfs_period: Some(dir.join("cpu.cfs_period_us")),
        }
    }

    /// The files of this process's own cgroup, found through `/proc/self/cgroup`
    /// and `/proc/self/mountinfo`.
    pub(crate) fn of_this_process() -> Self {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        Self::from_proc(&read("/proc/self/cgroup"), &read("/proc/self/mountinfo"))
    }

    /// The files named by the contents of `/proc/self/cgroup` and
    /// `/proc/self/mountinfo`.
    pub(crate) fn from_proc(cgroup: &str, mountinfo: &str) -> Self {
        let mut files = CgroupFiles::default();
        for line in cgroup.lines() {
            // "hierarchy-id:controllers:path"
            let mut parts = line.splitn(3, ':');
            let (Some(_), Some(controllers), Some(path)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            if controllers.is_empty() {
                if let Some(mount) = mount_point(mountinfo, |fs, _| fs == "cgroup2") {
                    files.cpu_max = Some(join(&mount, path).join("cpu.max"));
                }
            } else if controllers.split(',').any(|c| c == "cpu") {
                let v1 =
                    |fs: &str, opts: &str| fs == "cgroup" && opts.split(',').any(|o| o == "cpu");
                if let Some(mount) = mount_point(mountinfo, v1) {
                    let dir = join(&mount, path);
                    files.cfs_quota = Some(dir.join("cpu.cfs_quota_us"));
                    files.cfs_period = Some(dir.join("cpu.cfs_period_us"));
                }
            }
        }
        files
    }

    /// The CPUs the quota allows (a real number), or `None` for no limit.
    pub(crate) fn quota(&self) -> Option<f64> {
        let read = |p: &Option<PathBuf>| p.as_ref().and_then(|p| std::fs::read_to_string(p).ok());
        if let Some(q) = read(&self.cpu_max).and_then(|s| parse_cpu_max(&s)) {
            return Some(q);
        }
        parse_cfs(&read(&self.cfs_quota)?, &read(&self.cfs_period)?)
    }

    /// The cores a pool of `threads` threads may use now: the quota rounded up
    /// (1.5 CPUs: 2 cores), at most the CPUs of the affinity mask and `threads`,
    /// at least 1.
    pub(crate) fn cores(&self, threads: usize) -> usize {
        cores_for(self.quota(), affinity_cpus().unwrap_or(threads), threads)
    }
}

/// The CPUs of the process's affinity mask now. From `Cpus_allowed_list` in
/// `/proc/self/status`, not std's `available_parallelism`: std's also divides
/// the process's real cgroup quota and rounds it down (1.5 CPUs: 1), which
/// would undo the quota's rounding up here and ignore a test's files. Else
/// std's; `None` if neither says.
pub(crate) fn affinity_cpus() -> Option<usize> {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("Cpus_allowed_list:"))?;
            parse_cpu_list(line.split_once(':')?.1)
        })
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
}

/// The number of CPUs in a kernel CPU list ("0-3,8,10-11": 7); `None` if it
/// is malformed or empty.
pub(crate) fn parse_cpu_list(list: &str) -> Option<usize> {
    let mut n = 0usize;
    for part in list.trim().split(',') {
        let (lo, hi) = match part.split_once('-') {
            Some((lo, hi)) => (lo.parse::<usize>().ok()?, hi.parse::<usize>().ok()?),
            None => {
                let cpu = part.parse::<usize>().ok()?;
                (cpu, cpu)
            }
        };
        n = n.checked_add(hi.checked_sub(lo)? + 1)?;
    }
    (n > 0).then_some(n)
}

/// The cores for a quota of `quota` CPUs (`None`: no limit), `affinity` CPUs
/// allowed and `threads` threads.
pub(crate) fn cores_for(quota: Option<f64>, affinity: usize, threads: usize) -> usize {
    let by_quota = quota.map_or(usize::MAX, |q| q.ceil().min(usize::MAX as f64) as usize);
    by_quota.min(affinity).min(threads).max(1)
}

/// cgroup v2 `cpu.max`: "max 100000" (no limit) or "200000 100000" (2 CPUs).
pub(crate) fn parse_cpu_max(s: &str) -> Option<f64> {
    let mut it = s.split_whitespace();
    let (quota, period) = (it.next()?, it.next().unwrap_or("100000"));
    if quota == "max" {
        return None;
    }
    ratio(quota, period)
}

/// cgroup v1: `cpu.cfs_quota_us` ("-1": no limit) over `cpu.cfs_period_us`.
pub(crate) fn parse_cfs(quota: &str, period: &str) -> Option<f64> {
    ratio(quota.trim(), period.trim())
}

fn ratio(quota: &str, period: &str) -> Option<f64> {
    let (q, p) = (quota.parse::<i64>().ok()?, period.parse::<i64>().ok()?);
    (q > 0 && p > 0).then(|| q as f64 / p as f64)
}

/// The mount point of the first filesystem of `mountinfo` whose type and super
/// options `want` accepts.
fn mount_point(mountinfo: &str, want: impl Fn(&str, &str) -> bool) -> Option<PathBuf> {
    mountinfo.lines().find_map(|line| {
        // "id parent major:minor root mount-point options ... - fstype source super-options"
        let (left, right) = line.split_once(" - ")?;
        let mount = left.split_whitespace().nth(4)?;
        let mut r = right.split_whitespace();
        let (fs, _source, opts) = (r.next()?, r.next()?, r.next().unwrap_or(""));
        want(fs, opts).then(|| PathBuf::from(mount))
    })
}

fn join(mount: &Path, path: &str) -> PathBuf {
    mount.join(path.trim_start_matches('/'))
}

/// How often the follower re-reads the quota. A reading costs a few small file
/// reads (the cgroup files and `/proc/self/status`); ten a second keeps a pool
/// within about a tenth of a second of its container's resizing.
pub(crate) const PERIOD: Duration = Duration::from_millis(100);

/// A pool's quota timer thread: while it lives, the thread re-reads `files`
/// every [`PERIOD`] and sets the pool's core permits to the reading. Dropping it
/// (or [`QuotaFollower::stop`]) tells the thread to exit without waiting for it:
/// dropping a pool never blocks.
#[derive(Debug)]
pub(crate) struct QuotaFollower {
    stop: Arc<Stop>,
}

/// The follower's stop flag, and the condition variable its thread waits on
/// between two readings, so that a stop wakes it at once.
#[derive(Debug, Default)]
struct Stop {
    stopped: Mutex<bool>,
    wake: Condvar,
}

/// The follower thread's name (as `/proc/self/task/*/comm` shows it).
pub(crate) const THREAD_NAME: &str = "prorata-quota";

impl QuotaFollower {
    /// Starts the thread that keeps `permits` at `files.cores(cap)`; `cores` is
    /// the reading the permits were made with. It holds the permits weakly: once
    /// they are gone, so is the pool, and the thread exits. Its handle goes to
    /// `exits`, so that `ThreadPool::wait` joins it with the workers' threads.
    pub(crate) fn start(
        files: CgroupFiles,
        cap: usize,
        permits: Weak<Permits>,
        cores: usize,
        exits: &WorkerExits,
    ) -> std::io::Result<Self> {
        let stop = Arc::new(Stop::default());
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || follow(&files, cap, &permits, cores, &flag))?;
        exits.keep(thread);
        Ok(QuotaFollower { stop })
    }

    /// Tells the thread to exit (at once if it waits, else after its reading).
    pub(crate) fn stop(&self) {
        // A poisoned lock: the thread panicked, and is gone already.
        if let Ok(mut stopped) = self.stop.stopped.lock() {
            *stopped = true;
        }
        self.stop.wake.notify_all();
    }
}

impl Drop for QuotaFollower {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The follower thread's loop: wait a period (or the stop), read, set the
/// permits if the reading changed.
fn follow(files: &CgroupFiles, cap: usize, permits: &Weak<Permits>, mut cores: usize, stop: &Stop) {
    let Ok(mut stopped) = stop.stopped.lock() else {
        return;
    };
    loop {
        // `wait_timeout` may wake early (spuriously): that only reads sooner.
        stopped = match stop.wake.wait_timeout(stopped, PERIOD) {
            Ok((guard, _)) => guard,
            Err(_) => return,
        };
        if *stopped || permits.strong_count() == 0 {
            return;
        }
        // Not under the lock: a stop must not wait for the files.
        drop(stopped);
        let now = files.cores(cap);
        if now != cores {
            let Some(permits) = permits.upgrade() else {
                return;
            };
            permits.set_cores(u32::try_from(now).unwrap_or(u32::MAX));
            cores = now;
        }
        stopped = match stop.stopped.lock() {
            Ok(guard) => guard,
            Err(_) => return,
        };
        if *stopped {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgroup_v2_cpu_max() {
        assert_eq!(parse_cpu_max("max 100000\n"), None);
        assert_eq!(parse_cpu_max("200000 100000\n"), Some(2.0));
        assert_eq!(parse_cpu_max("150000 100000"), Some(1.5));
        for bad in [
            "",
            "x 100000",
            "100000 0",
            "-5 100000",
            "100000 y",
            "0 100000",
        ] {
            assert_eq!(parse_cpu_max(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn cgroup_v1_cfs() {
        assert_eq!(parse_cfs("-1\n", "100000\n"), None);
        assert_eq!(parse_cfs("50000\n", "100000\n"), Some(0.5));
        assert_eq!(parse_cfs("abc", "100000"), None);
        assert_eq!(parse_cfs("50000", ""), None);
    }

    #[test]
    fn cpu_lists() {
        assert_eq!(parse_cpu_list("0-1\n"), Some(2));
        assert_eq!(parse_cpu_list("0-3,8,10-11"), Some(7));
        assert_eq!(parse_cpu_list("5"), Some(1));
        for bad in ["", "x", "3-1", "0-", ",", "1,,2"] {
            assert_eq!(parse_cpu_list(bad), None, "{bad:?}");
        }
        let cpus = affinity_cpus().unwrap();
        assert!(cpus >= std::thread::available_parallelism().unwrap().get());
    }

    #[test]
    fn rounding_and_bounds() {
        assert_eq!(cores_for(Some(1.5), 8, 8), 2);
        assert_eq!(cores_for(Some(0.1), 8, 8), 1);
        assert_eq!(cores_for(Some(16.0), 4, 8), 4);
        assert_eq!(cores_for(Some(16.0), 32, 8), 8);
        assert_eq!(cores_for(None, 3, 8), 3);
        assert_eq!(cores_for(Some(f64::MAX), 0, 0), 1);
    }

    #[test]
    fn files_from_proc() {
        let mountinfo = "29 1 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n";
        let f = CgroupFiles::from_proc("0::/user.slice/a.scope\n", mountinfo);
        let want = PathBuf::from("/sys/fs/cgroup/user.slice/a.scope/cpu.max");
        assert_eq!(f.cpu_max, Some(want));
        let mountinfo =
            "30 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n";
        let f = CgroupFiles::from_proc("4:cpu,cpuacct:/docker/x\n2:memory:/m\n", mountinfo);
        let dir = PathBuf::from("/sys/fs/cgroup/cpu,cpuacct/docker/x");
        assert_eq!(f.cfs_quota, Some(dir.join("cpu.cfs_quota_us")));
        assert_eq!(f.cfs_period, Some(dir.join("cpu.cfs_period_us")));
        assert_eq!(
            CgroupFiles::from_proc("garbage", "garbage"),
            CgroupFiles::default()
        );
    }

    #[test]
    fn files_a_test_writes() {
        let dir = std::env::temp_dir().join(format!("prorata-quota-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cpu_max = dir.join("cpu.max");
        let files = CgroupFiles {
            cpu_max: Some(cpu_max.clone()),
            ..Default::default()
        };
        std::fs::write(&cpu_max, "200000 100000\n").unwrap();
        assert_eq!(files.cores(2), 2.min(affinity_cpus().unwrap()));
        std::fs::write(&cpu_max, "100000 100000\n").unwrap();
        assert_eq!(files.cores(2), 1);
        std::fs::write(&cpu_max, "not a quota").unwrap();
        assert_eq!(files.quota(), None);
        std::fs::remove_file(&cpu_max).unwrap();
        assert_eq!(files.quota(), None, "a missing file is no limit");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The permits of a pool built with `follow_cpu_quota`.
    fn permit_cores(pool: &crate::ThreadPool) -> u32 {
        let permits = pool.registry.shares.permits_made();
        permits.expect("a following pool takes permits").cores()
    }

    #[test]
    fn a_following_pool_has_as_many_permits_as_the_reading() {
        let pool = crate::ThreadPoolBuilder::new()
            .num_threads(3)
            .follow_cpu_quota()
            .build()
            .unwrap();
        let reading = CgroupFiles::of_this_process().cores(3);
        assert_eq!(permit_cores(&pool) as usize, reading);
        assert!(pool.registry.quota.get().is_some());
        // Without the opt-in: no permits, no follower.
        let plain = crate::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        assert!(plain.registry.shares.permits_made().is_none());
        assert!(plain.registry.quota.get().is_none());
    }

    #[test]
    fn the_permits_follow_a_written_file() {
        let dir = std::env::temp_dir().join(format!("prorata-follow-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("cpu.max"), "100000 100000\n").unwrap();
        let pool = crate::ThreadPoolBuilder::new()
            .num_threads(2)
            .follow_cpu_quota()
            .cgroup_dir_for_tests(&dir)
            .build()
            .unwrap();
        assert_eq!(permit_cores(&pool), 1);
        let affinity = affinity_cpus().unwrap();
        std::fs::write(dir.join("cpu.max"), "max 100000\n").unwrap();
        let t0 = std::time::Instant::now();
        while permit_cores(&pool) as usize != affinity.min(2) {
            assert!(t0.elapsed() < Duration::from_secs(30), "never followed");
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn this_machine() {
        let cpus = affinity_cpus().unwrap();
        let cores = CgroupFiles::of_this_process().cores(usize::MAX);
        assert!((1..=cpus).contains(&cores), "{cores} of {cpus}");
    }
}
