//! Running one case of this test binary in a child process (for cases that abort, or
//! that lower the child's address-space limit), and counting live threads.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

const CASE_VAR: &str = "PRORATA_FAULT_CASE";

/// The case this process runs as a child, if it is one.
pub fn case() -> Option<String> {
    std::env::var(CASE_VAR).ok()
}

/// Runs test `name` (its path in this binary) in a child process as `case`.
pub fn run(name: &str, case: &str) -> Output {
    Command::new(std::env::current_exe().expect("test binary path"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CASE_VAR, case)
        .output()
        .expect("start the child test process")
}

/// Whether the child was killed by SIGABRT.
pub fn aborted(out: &Output) -> bool {
    use std::os::unix::process::ExitStatusExt;
    out.status.signal() == Some(6)
}

/// The child's stderr, for messages.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The path of test function `f` in this binary, as `--exact` wants it.
#[macro_export]
macro_rules! test_path {
    ($f:ident) => {
        concat!(module_path!(), "::", stringify!($f))
            .split_once("::")
            .expect("a module path")
            .1
    };
}

/// Live threads of this process whose name starts with `prefix`.
pub fn live_threads(prefix: &str) -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("comm")).ok())
        .filter(|c| c.trim_end().starts_with(prefix))
        .count()
}

/// All live threads of this process.
pub fn all_threads() -> usize {
    live_threads("")
}

/// Waits up to 10 s for `done`; returns whether it came true.
pub fn eventually(done: impl Fn() -> bool) -> bool {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(10) {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    done()
}

/// This process's address space now, in bytes (`VmSize`).
pub fn address_space() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmSize in /proc/self/status");
    kib * 1024
}

/// Limits this (child) process's address space to its current size plus `extra`
/// bytes, so that starting threads (each maps its stack) fails past that.
pub fn limit_address_space(extra: u64) {
    let limit = address_space() + extra;
    let out = Command::new("prlimit")
        .args([
            "--pid",
            &std::process::id().to_string(),
            &format!("--as={limit}"),
        ])
        .output()
        .expect("prlimit (util-linux) sets the child's address-space limit");
    assert!(out.status.success(), "prlimit failed: {}", stderr(&out));
}
