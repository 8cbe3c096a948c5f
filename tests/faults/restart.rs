//! A share's workers retire after a second idle and start again when it has work. If
//! the OS then refuses the thread, nothing aborts: a call that finds no thread of the
//! share able to run it panics in the caller with the OS's error (its closure never
//! ran), and the share goes on once threads can start again.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{Child, Command, Stdio};

use prorata::ThreadPoolBuilder;
use prorata::prelude::*;

use crate::{child, test_path};

/// Sets this process's soft address-space limit to `limit` bytes.
fn soft_address_space_limit(limit: u64) {
    let value = limit.to_string();
    let out = Command::new("prlimit")
        .args([
            "--pid",
            &std::process::id().to_string(),
            &format!("--as={value}:"),
        ])
        .output()
        .expect("prlimit (util-linux)");
    assert!(out.status.success(), "prlimit: {}", child::stderr(&out));
}

/// A process, started now, that lifts this process's soft address-space limit when a
/// line is written to it: under the limit, this process may not be able to start one.
fn limit_lifter() -> Child {
    Command::new("sh")
        .args([
            "-c",
            &format!(
                "read _ && prlimit --pid {} --as=unlimited:",
                std::process::id()
            ),
        ])
        .stdin(Stdio::piped())
        .spawn()
        .expect("sh")
}

#[test]
fn a_share_whose_threads_cannot_restart_reports_it_and_goes_on() {
    if child::case().is_none() {
        let out = child::run(
            test_path!(a_share_whose_threads_cannot_restart_reports_it_and_goes_on),
            "restart",
        );
        assert!(!child::aborted(&out), "aborted:\n{}", child::stderr(&out));
        assert!(
            out.status.success(),
            "{:?}\n{}",
            out.status,
            child::stderr(&out)
        );
        return;
    }
    // Big stacks, so that a refused thread fails at its stack, not later.
    const STACK: usize = 256 << 20;
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .stack_size(STACK)
        .build()
        .unwrap();
    let share = pool.share(100).unwrap();
    let sum = || (0..10_000u64).into_par_iter().sum::<u64>();
    assert_eq!(share.install(sum), 49_995_000);
    // Idle for a second, the share's threads retire.
    assert!(child::eventually(
        || child::live_threads("prorata-share") == 0
    ));

    // No room for another stack: the next call cannot start a thread. (The C
    // library keeps the stacks of exited threads for reuse: threads that wait
    // meanwhile take those first.)
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let wait = std::sync::Mutex::new(wait);
    let outcome = std::thread::scope(|s| {
        for _ in 0..4 {
            std::thread::Builder::new()
                .stack_size(STACK)
                .spawn_scoped(s, || {
                    let _ = wait.lock().unwrap().recv();
                })
                .unwrap();
        }
        let mut lifter = limit_lifter();
        soft_address_space_limit(child::address_space() + (STACK as u64) / 2);
        let outcome = catch_unwind(AssertUnwindSafe(|| refused_call(&share)));
        let mut line = lifter.stdin.take().expect("piped");
        line.write_all(b"\n").expect("write to the lifter");
        drop(line);
        assert!(lifter.wait().expect("the lifter ends").success());
        drop(release);
        outcome
    });
    if let Err(failure) = outcome {
        std::panic::resume_unwind(failure);
    }

    // Threads can start again: the share goes on, and so does the pool.
    assert_eq!(share.install(sum), 49_995_000);
    assert_eq!(pool.install(sum), 49_995_000);
    drop(share);
}

/// A call into `share` while no thread of it can start: it panics with the OS's
/// reason, and its closure never runs.
fn refused_call(share: &prorata::Share) {
    let ran = std::sync::atomic::AtomicBool::new(false);
    let refused = catch_unwind(AssertUnwindSafe(|| {
        share.install(|| ran.store(true, std::sync::atomic::Ordering::Relaxed))
    }));
    let payload = refused.expect_err("the call reports that no thread could start");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("no thread of this pool could be started"),
        "{message}"
    );
    assert!(
        !ran.load(std::sync::atomic::Ordering::Relaxed),
        "the closure never ran"
    );
}
