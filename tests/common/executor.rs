//! The smallest executor (`block_on` on the calling thread) and readings of the
//! process's threads and memory, for the tests of `spawn_future` and serving.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, Wake};

/// Wakes a parked thread, counting its wake-ups.
struct Unpark {
    thread: std::thread::Thread,
    wakes: AtomicUsize,
}

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.wakes.fetch_add(1, Ordering::SeqCst);
        self.thread.unpark();
    }
}

/// Polls `f` on this thread, parking between polls until its waker is woken;
/// returns its output and how often it was woken.
pub fn block_on_counting<F: Future>(f: F) -> (F::Output, usize) {
    let unpark = Arc::new(Unpark {
        thread: std::thread::current(),
        wakes: AtomicUsize::new(0),
    });
    let waker = Arc::clone(&unpark).into();
    let mut cx = Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return (v, unpark.wakes.load(Ordering::SeqCst));
        }
        // A wake-up before this park makes it return at once: none is lost.
        std::thread::park();
    }
}

/// Polls `f` to its end on this thread.
pub fn block_on<F: Future>(f: F) -> F::Output {
    block_on_counting(f).0
}

/// A field of `/proc/self/status` in its unit (kB for memory), 0 where absent.
pub fn proc_status(field: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The threads of this process.
pub fn threads() -> u64 {
    proc_status("Threads:")
}

/// The resident memory of this process, in kB.
pub fn resident_kb() -> u64 {
    proc_status("VmRSS:")
}

/// The threads of this process once those that outlive their work have gone:
/// a spare thread waits a second for another worker before it exits, so a
/// count taken right after a burst of shares includes threads on their way
/// out. Reads the count until it is at most `at_most` or `patience` has
/// passed, and returns the smallest count seen. Not a timing: a thread that
/// never exits is counted however long this waits.
pub fn threads_settled(at_most: u64, patience: std::time::Duration) -> u64 {
    let start = std::time::Instant::now();
    let mut least = threads();
    while least > at_most && start.elapsed() < patience {
        std::thread::sleep(std::time::Duration::from_millis(10));
        least = least.min(threads());
    }
    least
}

/// How many threads of this process `keep` accepts, given a reader of their
/// `/proc/self/task/<tid>/` files (an empty string for a file gone meanwhile).
fn count_threads(keep: impl Fn(&dyn Fn(&str) -> String) -> bool) -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .flatten()
        .filter(|t| keep(&|f: &str| std::fs::read_to_string(t.path().join(f)).unwrap_or_default()))
        .count()
}

/// The threads of this process named exactly `name` (their `comm`).
pub fn threads_named(name: &str) -> usize {
    count_threads(|read| read("comm").trim_end() == name)
}

/// The threads of this process whose name starts with `prefix` and that have not
/// begun to exit. A thread can still be listed a moment after `join` returned for
/// it: the kernel wakes the joiner when the exiting thread lets go of its memory,
/// shortly before it takes the thread off `/proc/self/task`. By then the thread's
/// kernel flags (field 9 of its `stat`) hold `PF_EXITING`, so it is not counted.
pub fn live_threads_named(prefix: &str) -> usize {
    const PF_EXITING: u64 = 0x4;
    count_threads(|read| {
        if !read("comm").starts_with(prefix) {
            return false;
        }
        // The fields after the parenthesised name: state, ppid, pgrp, session,
        // tty, tpgid, flags. A task gone meanwhile has no `stat`: not counted.
        let stat = read("stat");
        let flags = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().nth(6))
            .and_then(|f| f.parse::<u64>().ok());
        flags.is_some_and(|f| f & PF_EXITING == 0)
    })
}
