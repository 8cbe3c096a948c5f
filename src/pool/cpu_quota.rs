//! How many cores the process may use now: its cgroup's CPU quota (v2 `cpu.max`,
//! v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`) and its affinity mask, for a
//! pool that follows them. The reader takes its files from [`CgroupFiles`], so
//! that tests point it at files they write; an unreadable or malformed file
//! means "no limit", never a panic.

use std::path::{Path, PathBuf};

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
        let affinity = std::thread::available_parallelism().map_or(threads, |n| n.get());
        cores_for(self.quota(), affinity, threads)
    }
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
        assert_eq!(
            files.cores(2),
            2.min(std::thread::available_parallelism().unwrap().get())
        );
        std::fs::write(&cpu_max, "100000 100000\n").unwrap();
        assert_eq!(files.cores(2), 1);
        std::fs::write(&cpu_max, "not a quota").unwrap();
        assert_eq!(files.quota(), None);
        std::fs::remove_file(&cpu_max).unwrap();
        assert_eq!(files.quota(), None, "a missing file is no limit");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn this_machine() {
        let cpus = std::thread::available_parallelism().unwrap().get();
        let cores = CgroupFiles::of_this_process().cores(usize::MAX);
        assert!((1..=cpus).contains(&cores), "{cores} of {cpus}");
    }
}
